"""Export files: one tar holding checkpoints with a manifest of their hashes, written and read back.

``manifest.json`` lists each checkpoint's id, name, version, tags, aliases, ratings, evals and the
sha256 and size of its two files; ``checkpoints/<id>/{spec.json,weights.safetensors}`` follow,
ancestors first. An import reads the archive without extracting it: links, folders, duplicate or
unexpected members are refused, every hash is checked, and only then is anything saved (all or none).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import secrets
import tarfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mythzoo import __version__
from mythzoo.policies.registry.errors import IntegrityError
from mythzoo.policies.registry.index import Index
from mythzoo.policies.registry.records import CheckpointInfo, utc_now
from mythzoo.policies.registry.refs import LATEST
from mythzoo.policies.registry.spec import (
    EXPORT_FORMAT, EXPORT_FORMAT_VERSION, SPEC_FILE, WEIGHTS_FILE, ExportManifest, ManifestEntry, dump_json, validate_manifest,
    validate_spec, validate_weights,
)
from mythzoo.policies.registry.store import CHECKPOINTS_DIR, Staged, Store, load_safetensors, sha256_bytes

__all__ = ["EXPORT_FORMAT", "EXPORT_FORMAT_VERSION", "MANIFEST_FILE", "MAX_MANIFEST_BYTES", "export_archive", "import_archive"]

MANIFEST_FILE = "manifest.json"
MAX_MANIFEST_BYTES = 64 << 20
_READ_ERRORS = (tarfile.TarError, OSError, EOFError)


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
    _write_tar(Path(path), [(MANIFEST_FILE, dump_json(manifest)), *members])


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
class _Archive:
    """An export file open for reading: its members by name (regular files only, each once)."""

    def __init__(self, path: Path):
        self.what = f"export {path}"
        try:
            self.tar = tarfile.open(path, "r:*")
        except _READ_ERRORS as e:
            raise IntegrityError(f"{self.what} is not a readable tar archive: {e}") from e
        try:
            members = self.tar.getmembers()
        except _READ_ERRORS as e:
            self.tar.close()
            raise IntegrityError(f"{self.what} is a damaged tar archive: {e}") from e
        self.members: dict[str, tarfile.TarInfo] = {}
        for m in members:
            problem = "is not a regular file (links and folders are refused)" if not m.isreg() else "appears twice" if m.name in self.members else ""
            if problem:
                self.tar.close()
                raise IntegrityError(f"{self.what}: member {m.name!r} {problem}")
            self.members[m.name] = m

    def __enter__(self) -> _Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.tar.close()

    def read(self, name: str, size: int | None, limit: int | None = None) -> bytes:
        """The bytes of member ``name``, which must have ``size`` bytes (or at most ``limit``)."""
        m = self.members.get(name)
        if m is None:
            raise IntegrityError(f"{self.what}: {name} is missing")
        if (size is not None and m.size != size) or (limit is not None and m.size > limit):
            raise IntegrityError(f"{self.what}: {name} has {m.size} bytes, the manifest says {size}")
        f = self.tar.extractfile(m)
        try:
            data = f.read() if f is not None else b""
        except Exception as e:  # zlib/tar errors of a damaged archive
            raise IntegrityError(f"{self.what}: cannot read {name}: {e}") from e
        if len(data) != m.size:
            raise IntegrityError(f"{self.what}: {name} is truncated")
        return data

    def read_verified(self, name: str, sha256: str, size: int) -> bytes:
        """The bytes of member ``name``, checked against the manifest's size and sha256."""
        data = self.read(name, size)
        got = sha256_bytes(data)
        if got != sha256:
            raise IntegrityError(f"{self.what}: {name} has sha256 {got[:16]}..., the manifest says {str(sha256)[:16]}...: the archive was modified or corrupted; nothing imported")
        return data

    def refuse_others(self, expected: set[str]) -> None:
        """``IntegrityError`` if the archive holds members the manifest does not account for."""
        extra = sorted(set(self.members) - expected)
        if extra:
            raise IntegrityError(f"{self.what}: unexpected members {extra[:5]}")


@dataclass
class _Loaded:
    """One checkpoint of an archive, verified: its spec and both files' bytes, plus its manifest entry."""

    spec: dict[str, Any]
    spec_bytes: bytes
    weights_bytes: bytes
    entry: ManifestEntry


def import_archive(store: Store, path: str | os.PathLike[str]) -> list[str]:
    """Save the checkpoints of an export file, all or none, after verifying every hash; returns their ids.

    Ids, specs, tags, ratings and evals are kept; each gets the next version of its name here
    (aliases are a registry's own and are not imported). Re-importing is a no-op."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no export file {path}")
    with _Archive(path) as archive:
        manifest = _read_manifest(archive)
        loaded = [_load_checkpoint(archive, entry) for entry in manifest.checkpoints]
        archive.refuse_others({MANIFEST_FILE} | {_member(x.spec["id"], f) for x in loaded for f in (SPEC_FILE, WEIGHTS_FILE)})
    _save(store, loaded)
    return [x.spec["id"] for x in loaded]


def _read_manifest(archive: _Archive) -> ExportManifest:
    """The manifest, after checking that this is an export of a format we read, validated field by field."""
    try:
        manifest = json.loads(archive.read(MANIFEST_FILE, None, MAX_MANIFEST_BYTES))
    except (ValueError, UnicodeDecodeError) as e:
        raise IntegrityError(f"{archive.what}: {MANIFEST_FILE} is not valid JSON: {e}") from e
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT or manifest.get("format_version") != EXPORT_FORMAT_VERSION:
        raise IntegrityError(f"{archive.what}: not a {EXPORT_FORMAT} v{EXPORT_FORMAT_VERSION} archive")
    if not isinstance(manifest.get("checkpoints"), list) or not manifest["checkpoints"]:
        raise IntegrityError(f"{archive.what}: the manifest lists no checkpoints")
    try:
        return validate_manifest(manifest)
    except ValueError as e:
        raise IntegrityError(f"{archive.what}: {e}") from e


def _load_checkpoint(archive: _Archive, entry: ManifestEntry) -> _Loaded:
    """Read one entry's files, check them against the manifest, then the spec against the weights."""
    cid = entry.id
    files = {SPEC_FILE: entry.files.spec, WEIGHTS_FILE: entry.files.weights}
    blobs = {fn: archive.read_verified(_member(cid, fn), f.sha256, f.bytes) for fn, f in files.items()}
    what = f"{archive.what}: checkpoint {cid}"
    try:
        spec = validate_spec(json.loads(blobs[SPEC_FILE]))
    except (ValueError, UnicodeDecodeError) as e:
        raise IntegrityError(f"{what}: invalid {SPEC_FILE}: {e}") from e
    if spec["id"] != cid:
        raise IntegrityError(f"{archive.what}: {_member(cid, SPEC_FILE)} is the spec of {spec['id']}")
    weights = blobs[WEIGHTS_FILE]
    if spec["weights"]["sha256"] != sha256_bytes(weights) or spec["weights"]["bytes"] != len(weights):
        raise IntegrityError(f"{what}: {WEIGHTS_FILE} does not match the hash its {SPEC_FILE} records")
    try:
        validate_weights(load_safetensors(weights, what), spec["arch"])
    except ValueError as e:
        raise IntegrityError(f"{what}: weights do not fit its arch: {e}") from e
    return _Loaded(spec, blobs[SPEC_FILE], weights, entry)


def _save(store: Store, loaded: Sequence[_Loaded]) -> None:
    """Stage every checkpoint with its tags, ratings and evals, then commit them in one transaction."""
    staged: list[Staged] = []
    try:
        for x in loaded:
            st = store.stage(x.spec, x.spec_bytes, x.weights_bytes)
            st.tags, st.ratings, st.evals = sorted(set(x.entry.tags)), list(x.entry.ratings), list(x.entry.evals)
            staged.append(st)
        store.commit(staged)
    finally:
        store.discard(staged)
