"""Export files: one tar holding checkpoints with a manifest of their hashes, written and read back.

``manifest.json`` lists each checkpoint's id, name, version, tags, aliases, ratings, evals and the
sha256 and size of its two files; ``checkpoints/<id>/{spec.json,weights.safetensors}`` follow,
ancestors first. An import reads the archive without extracting it: links, folders, duplicate or
unexpected members are refused, every hash is checked, and only then is anything saved (all or none).
"""

from __future__ import annotations

import bz2
import contextlib
import dataclasses
import gzip
import hashlib
import io
import lzma
import os
import secrets
import tarfile
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from mythzoo import __version__
from mythzoo.policies.registry.errors import IntegrityError, RegistryError
from mythzoo.policies.registry.index import Index
from mythzoo.policies.registry.records import CheckpointInfo, utc_now
from mythzoo.policies.registry.refs import LATEST, is_checkpoint_id
from mythzoo.policies.registry.spec import (
    EXPORT_FORMAT, EXPORT_FORMAT_VERSION, SPEC_FILE, WEIGHTS_FILE, ExportManifest, ManifestEntry, dump_json, parse_json,
    validate_manifest, validate_spec, validate_weights,
)
from mythzoo.policies.registry.store import CHECKPOINTS_DIR, Staged, Store, load_safetensors, sha256_bytes

__all__ = [
    "EXPORT_FORMAT", "EXPORT_FORMAT_VERSION", "MANIFEST_FILE", "MAX_ARCHIVE_BYTES", "MAX_CHECKPOINTS", "MAX_MANIFEST_BYTES",
    "MAX_MEMBERS", "MAX_SPEC_BYTES", "MAX_WEIGHTS_BYTES", "export_archive", "import_archive",
]

MANIFEST_FILE = "manifest.json"
# What an import accepts, checked on each tar header before any data is read (shipped exports: a
# ~1 KB manifest, ~5 KB specs, 1.3-8.5 MB weights). Memory stays within about the largest weights
# file the archive really holds (it is loaded once its hash matched) plus a few MB.
MAX_MANIFEST_BYTES = 4 << 20
MAX_SPEC_BYTES = 1 << 20
MAX_WEIGHTS_BYTES = 256 << 20
MAX_ARCHIVE_BYTES = 1 << 30
MAX_CHECKPOINTS = 1000
MAX_MEMBERS = 1 + 2 * MAX_CHECKPOINTS
MAX_HEADER_BYTES = 1 << 20  # a pax or GNU long-name header (a few hundred bytes in practice)
CHUNK_BYTES = 1 << 20
_READ_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error, lzma.LZMAError)


def _member(checkpoint_id: str, fname: str) -> str:
    return f"{CHECKPOINTS_DIR}/{checkpoint_id}/{fname}"


# ------------------------------------------------------------------ export
def export_archive(store: Store, index: Index, infos: Sequence[CheckpointInfo], path: str | os.PathLike[str]) -> None:
    """Write ``infos`` (ancestors first) to one tar at ``path`` (gzipped for ``.tar.gz``/``.tgz``).

    Every file is verified before it is written; the tar is written to a temporary name, fsynced
    and renamed into place."""
    entries, members = [], []
    for info in infos:
        _, _, spec_bytes, weights_bytes = store.read_verified(info)
        entries.append(_manifest_entry(index, info, spec_bytes, weights_bytes))
        members += [(_member(info.id, SPEC_FILE), spec_bytes), (_member(info.id, WEIGHTS_FILE), weights_bytes)]
    manifest = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "created": utc_now(),
        "mythzoo_version": __version__,
        "root": infos[-1].id,
        "checkpoints": entries,
    }
    validate_manifest(manifest)  # what an import will check, checked before anything is written
    items = [(MANIFEST_FILE, dump_json(manifest)), *members]
    _check_importable(items)
    _write_tar(Path(path), items)


def _check_importable(items: Sequence[tuple[str, bytes]]) -> None:
    """``RegistryError`` if an import would refuse these members for their number or sizes: never write such a file."""
    if len(items) > MAX_MEMBERS:
        raise RegistryError(f"cannot export {len(items) // 2} checkpoints in one file: an import takes at most {MAX_CHECKPOINTS}")
    for name, data in items:
        limit = _member_limit(name)
        if limit is not None and len(data) > limit:
            raise RegistryError(f"cannot export: {name} would have {len(data)} bytes, more than the {limit} an import accepts")
    if sum(len(d) for _, d in items) > MAX_ARCHIVE_BYTES:
        raise RegistryError(f"cannot export: the files would hold more than the {MAX_ARCHIVE_BYTES} bytes an import accepts")


def _manifest_entry(index: Index, info: CheckpointInfo, spec_bytes: bytes, weights_bytes: bytes) -> dict[str, Any]:
    with index.read() as tx:
        ratings, evals = tx.ratings(info.id), tx.evals(info.id)
    return {
        "id": info.id,
        "name": info.name,
        "version": info.version,
        "tags": list(info.tags),
        "aliases": [a for a in info.aliases if a != LATEST],
        "ratings": [dataclasses.asdict(r) for r in ratings],
        "evals": [{"name": e.name, "created": e.created, "results": e.results} for e in evals],
        "files": {
            SPEC_FILE: {"sha256": sha256_bytes(spec_bytes), "bytes": len(spec_bytes)},
            WEIGHTS_FILE: {"sha256": sha256_bytes(weights_bytes), "bytes": len(weights_bytes)},
        },
    }


def _write_tar(path: Path, members: Sequence[tuple[str, bytes]]) -> None:
    mode = "w:gz" if path.name.endswith((".tar.gz", ".tgz")) else "w"
    tmp = path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")
    mtime = int(time.time())
    try:
        with open(tmp, "wb") as f:
            with tarfile.open(fileobj=f, mode=mode) as tar:
                for name, data in members:
                    ti = tarfile.TarInfo(name)
                    ti.size, ti.mode, ti.mtime = len(data), 0o644, mtime
                    tar.addfile(ti, io.BytesIO(data))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------ import
class _CappedReader(io.RawIOBase):
    """A read-only file that refuses any single read larger than ``cap`` bytes.

    ``tarfile`` reads a pax or GNU long-name header whole, at whatever size its header declares;
    behind this wrapper such a read fails at once instead of allocating it (every read the import
    itself makes is a chunk of :data:`CHUNK_BYTES`)."""

    def __init__(self, raw: Any, cap: int, what: str):
        self.raw, self.cap, self.what = raw, cap, what

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0 or size > self.cap:
            raise IntegrityError(f"{self.what}: a tar header declares {size if size is not None and size >= 0 else 'unbounded'} bytes of metadata (at most {self.cap} are read); nothing imported")
        return self.raw.read(size)

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.raw.seek(offset, whence)

    def tell(self) -> int:
        return self.raw.tell()


def _open_stream(path: Path, what: str) -> Any:
    """``path`` opened for reading, decompressed (gzip, bz2, xz) by streaming readers whose memory is bounded."""
    raw = open(path, "rb")
    try:
        magic = raw.read(6)
        raw.seek(0)
        if magic[:2] == b"\x1f\x8b":
            return gzip.GzipFile(fileobj=raw, mode="rb")
        if magic[:3] == b"BZh":
            return bz2.BZ2File(raw, mode="rb")
        if magic == b"\xfd7zXZ\x00":
            return lzma.LZMAFile(raw, mode="rb")
    except BaseException:
        raw.close()
        raise
    return raw


def _member_limit(name: str) -> int | None:
    """The most bytes member ``name`` may hold (``None``: not a name an export has)."""
    if name == MANIFEST_FILE:
        return MAX_MANIFEST_BYTES
    parts = name.split("/")
    if len(parts) == 3 and parts[0] == CHECKPOINTS_DIR and is_checkpoint_id(parts[1]):
        return {SPEC_FILE: MAX_SPEC_BYTES, WEIGHTS_FILE: MAX_WEIGHTS_BYTES}.get(parts[2])
    return None


class _Archive:
    """An export file open for reading: its members by name (regular files only, each once, each a name
    an export has and within its size limit, at most :data:`MAX_MEMBERS` of them and
    :data:`MAX_ARCHIVE_BYTES` in all). The headers are checked one by one as they are read, so a
    hostile archive is refused at its first bad header; no member's data is read here."""

    def __init__(self, path: Path):
        self.what = f"export {path}"
        self._stream = None
        try:
            self._stream = _open_stream(path, self.what)
            # unbuffered on purpose: a BufferedReader would allocate a declared size before reading it
            self.tar = tarfile.open(fileobj=_CappedReader(self._stream, MAX_HEADER_BYTES, self.what), mode="r:")
        except _READ_ERRORS as e:
            self._close_stream()
            raise IntegrityError(f"{self.what} is not a readable tar archive: {e}") from e
        except BaseException:
            self._close_stream()
            raise
        self.members: dict[str, tarfile.TarInfo] = {}
        try:
            self._scan()
        except BaseException:
            self.close()
            raise

    def _scan(self) -> None:
        total = 0
        while True:
            try:
                m = self.tar.next()
            except _READ_ERRORS as e:
                raise IntegrityError(f"{self.what} is a damaged tar archive: {e}") from e
            if m is None:
                return
            if len(self.members) >= MAX_MEMBERS:
                raise IntegrityError(f"{self.what} has more than {MAX_MEMBERS} members (an export holds two per checkpoint, at most {MAX_CHECKPOINTS} checkpoints); nothing imported")
            problem = ""
            limit = _member_limit(m.name)
            if not m.isreg() or m.issparse():
                problem = "is not a regular file (links, folders and sparse files are refused)"
            elif m.name in self.members:
                problem = "appears twice"
            elif limit is None:
                raise IntegrityError(f"{self.what}: unexpected members [{m.name!r}] (not a file an export holds); nothing imported")
            elif m.size > limit:
                problem = f"declares {m.size} bytes, more than the {limit} such a file may have"
            if problem:
                raise IntegrityError(f"{self.what}: member {m.name!r} {problem}; nothing imported")
            total += m.size
            if total > MAX_ARCHIVE_BYTES:
                raise IntegrityError(f"{self.what}: its members declare more than {MAX_ARCHIVE_BYTES} bytes in all; nothing imported")
            self.members[m.name] = m

    def _close_stream(self) -> None:
        if self._stream is not None:
            self._stream.close()

    def close(self) -> None:
        """Close the archive and its file."""
        with contextlib.suppress(Exception):
            self.tar.close()
        self._close_stream()

    def __enter__(self) -> _Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def member(self, name: str, size: int | None) -> tarfile.TarInfo:
        """The header of member ``name``, which must have ``size`` bytes (``None``: any size within its limit)."""
        m = self.members.get(name)
        if m is None:
            raise IntegrityError(f"{self.what}: {name} is missing")
        if size is not None and m.size != size:
            raise IntegrityError(f"{self.what}: {name} has {m.size} bytes, the manifest says {size}")
        return m

    def chunks(self, name: str, size: int | None) -> Iterator[bytes]:
        """The bytes of member ``name`` in chunks of at most :data:`CHUNK_BYTES` (``IntegrityError`` if short)."""
        m = self.member(name, size)
        left = m.size
        try:
            f = self.tar.extractfile(m)
            while left > 0 and f is not None:
                chunk = f.read(min(CHUNK_BYTES, left))
                if not chunk:
                    break
                left -= len(chunk)
                yield chunk
        except IntegrityError:
            raise
        except Exception as e:  # zlib/tar errors of a damaged archive
            raise IntegrityError(f"{self.what}: cannot read {name}: {e}") from e
        if left:
            raise IntegrityError(f"{self.what}: {name} is truncated")

    def read(self, name: str, size: int | None) -> bytes:
        """The bytes of a small member (its size is within a limit of at most :data:`MAX_MANIFEST_BYTES`)."""
        return b"".join(self.chunks(name, size))

    def _check_sha(self, name: str, got: str, sha256: str) -> None:
        if got != sha256:
            raise IntegrityError(f"{self.what}: {name} has sha256 {got[:16]}..., the manifest says {str(sha256)[:16]}...: the archive was modified or corrupted; nothing imported")

    def read_verified(self, name: str, sha256: str, size: int) -> bytes:
        """The bytes of small member ``name``, checked against the manifest's size and sha256."""
        data = self.read(name, size)
        self._check_sha(name, sha256_bytes(data), sha256)
        return data

    def copy_verified(self, name: str, sha256: str, size: int, dest: Path) -> None:
        """Stream member ``name`` into the new file ``dest``, hashing as it goes; ``IntegrityError`` (and no
        ``dest``) unless it has the manifest's size and sha256. Memory: one chunk."""
        h = hashlib.sha256()
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
        try:
            with open(fd, "wb") as f:
                for chunk in self.chunks(name, size):
                    h.update(chunk)
                    f.write(chunk)
                f.flush()
                os.fsync(f.fileno())
            self._check_sha(name, h.hexdigest(), sha256)
        except BaseException:
            dest.unlink(missing_ok=True)
            raise

    def refuse_others(self, expected: set[str]) -> None:
        """``IntegrityError`` if the archive holds members the manifest does not account for."""
        extra = sorted(set(self.members) - expected)
        if extra:
            raise IntegrityError(f"{self.what}: unexpected members {extra[:5]}")


def import_archive(store: Store, path: str | os.PathLike[str]) -> list[str]:
    """Save the checkpoints of an export file, all or none, after verifying every hash; returns their ids.

    Ids, specs, tags, ratings and evals are kept; each gets the next version of its name here
    (aliases are a registry's own and are not imported). Re-importing is a no-op.

    Every header is checked against the limits before any data is read; the manifest and specs
    (small, limited) are read into memory, the weights are streamed into the staging folder while
    being hashed, and loaded (to check them against the arch) only once their hash matches."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no export file {path}")
    staged: list[Staged] = []
    try:
        with _Archive(path) as archive:
            manifest = _read_manifest(archive)
            entries = manifest.checkpoints
            names = {MANIFEST_FILE} | {_member(e.id, f) for e in entries for f in (SPEC_FILE, WEIGHTS_FILE)}
            archive.refuse_others(names)
            for e in entries:  # every size agrees with the manifest before any checkpoint's data is read
                archive.member(_member(e.id, SPEC_FILE), e.files.spec.bytes)
                archive.member(_member(e.id, WEIGHTS_FILE), e.files.weights.bytes)
            for entry in entries:
                staged.append(_stage_checkpoint(store, archive, entry))
        store.commit(staged)
    finally:
        store.discard(staged)
    return [st.spec["id"] for st in staged]


def _read_manifest(archive: _Archive) -> ExportManifest:
    """The manifest, after checking that this is an export of a format we read, validated field by field."""
    try:
        manifest = parse_json(archive.read(MANIFEST_FILE, None), MANIFEST_FILE)
    except ValueError as e:
        raise IntegrityError(f"{archive.what}: {e}") from e
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT or manifest.get("format_version") != EXPORT_FORMAT_VERSION:
        raise IntegrityError(f"{archive.what}: not a {EXPORT_FORMAT} v{EXPORT_FORMAT_VERSION} archive")
    if not isinstance(manifest.get("checkpoints"), list) or not manifest["checkpoints"]:
        raise IntegrityError(f"{archive.what}: the manifest lists no checkpoints")
    try:
        return validate_manifest(manifest)
    except ValueError as e:
        raise IntegrityError(f"{archive.what}: {e}") from e


def _stage_checkpoint(store: Store, archive: _Archive, entry: ManifestEntry) -> Staged:
    """Check one entry's spec, stream its weights into a staging folder, check them; the staged save."""
    cid = entry.id
    what = f"{archive.what}: checkpoint {cid}"
    spec_bytes = archive.read_verified(_member(cid, SPEC_FILE), entry.files.spec.sha256, entry.files.spec.bytes)
    try:
        spec = validate_spec(parse_json(spec_bytes, SPEC_FILE))
    except ValueError as e:
        raise IntegrityError(f"{what}: invalid {SPEC_FILE}: {e}") from e
    if spec["id"] != cid:
        raise IntegrityError(f"{archive.what}: {_member(cid, SPEC_FILE)} is the spec of {spec['id']}")
    if spec["weights"]["sha256"] != entry.files.weights.sha256 or spec["weights"]["bytes"] != entry.files.weights.bytes:
        raise IntegrityError(f"{what}: {WEIGHTS_FILE} does not match the hash its {SPEC_FILE} records")
    st = store.stage_folder(spec)
    try:
        weights_path = st.tmp_dir / WEIGHTS_FILE
        archive.copy_verified(_member(cid, WEIGHTS_FILE), entry.files.weights.sha256, entry.files.weights.bytes, weights_path)
        try:
            validate_weights(load_safetensors(weights_path.read_bytes(), what), spec["arch"])
        except ValueError as e:
            raise IntegrityError(f"{what}: weights do not fit its arch: {e}") from e
        store.finish_stage(st, spec_bytes)
    except BaseException:
        store.discard([st])
        raise
    st.tags, st.ratings, st.evals = sorted(set(entry.tags)), list(entry.ratings), list(entry.evals)
    return st
