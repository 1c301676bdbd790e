"""The registry's files: atomic saves (stage in ``tmp/``, then rename and index in one transaction),
verified reads, removal, garbage collection and verification.

A save writes its two files into a fresh folder under ``tmp/`` and fsyncs them; then, holding
SQLite's write lock, it takes the version, renames the folder into ``checkpoints/<id>``, fsyncs
``checkpoints/`` and inserts the rows, all in one transaction. A process killed at any point
leaves either the whole entry or a leftover folder that no ref can see (``verify`` reports it,
``gc`` removes it). Reads hash both files against the index before parsing the same bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.policies.registry.errors import IntegrityError, RefError, RegistryError
from mythzoo.policies.registry.index import Index
from mythzoo.policies.registry.records import CheckpointInfo, Rating, VerifyReport
from mythzoo.policies.registry.refs import is_checkpoint_id
from mythzoo.policies.registry.spec import SPEC_FILE, WEIGHTS_FILE, EvalEntry, info_from_spec, validate_spec, validate_weights

__all__ = ["CHECKPOINTS_DIR", "DEFAULT_GRACE_S", "TMP_DIR", "Staged", "Store", "load_safetensors", "sha256_bytes"]

CHECKPOINTS_DIR = "checkpoints"
TMP_DIR = "tmp"
DEFAULT_GRACE_S = 3600.0  # temp folders younger than this may belong to a save in progress
# The index fields a spec.json must agree with (everything but the version, which only the index has).
CROSS_CHECKED = ("id", "name", "env_name", "env_signature", "role", "algo", "arch", "steps", "parent", "weights_sha256", "weights_bytes")


# ------------------------------------------------------------------ files
def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file (refusing an existing one) and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    with open(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def fsync_dir(path: Path) -> None:
    """fsync a directory so a rename or new entry in it survives a crash (POSIX only)."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_path(path: Path) -> None:
    """Delete a folder tree (never following a link) or a file; a missing one is fine."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def load_safetensors(data: bytes, what: str) -> dict[str, np.ndarray]:
    """The arrays of a safetensors file's bytes (nothing is unpickled); ``IntegrityError`` if malformed."""
    from safetensors.numpy import load

    try:
        return load(data)
    except Exception as e:  # safetensors raises its own error types for malformed headers
        raise IntegrityError(f"{what}: {WEIGHTS_FILE} is not a valid safetensors file: {e}") from e


@dataclass
class Staged:
    """A checkpoint whose files are written (and fsynced) in ``tmp/``, waiting for the commit."""

    spec: dict[str, Any]
    spec_sha256: str
    tmp_dir: Path
    tags: list[str] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    evals: list[EvalEntry] = field(default_factory=list)


class Store:
    """The folders of the registry at ``root``, kept consistent with its :class:`Index`.

    ``hook(stage)`` is called at each save stage (``staged``: files in tmp/; ``renamed``: folder
    in place, index not yet committed); tests use it to kill a process mid-save.
    """

    def __init__(self, root: Path, index: Index, hook: Callable[[str], None]):
        self.index = index
        self.checkpoints_path = root / CHECKPOINTS_DIR
        self.tmp_path = root / TMP_DIR
        self._hook = hook

    def create(self) -> None:
        """Make the folders (if missing)."""
        self.checkpoints_path.mkdir(exist_ok=True)
        self.tmp_path.mkdir(exist_ok=True)

    def checkpoint_dir(self, checkpoint_id: str) -> Path:
        """The folder holding checkpoint ``checkpoint_id``'s files."""
        if not is_checkpoint_id(checkpoint_id):
            raise ValueError(f"{checkpoint_id!r} is not a checkpoint id")
        return self.checkpoints_path / checkpoint_id

    # ------------------------------------------------------------- saving
    def stage(self, spec: dict[str, Any], spec_bytes: bytes, weights_bytes: bytes) -> Staged:
        """Write a checkpoint's files into a fresh folder under ``tmp/`` and fsync them."""
        tmp = self.tmp_path / f"{spec['id']}-{os.getpid()}-{secrets.token_hex(4)}"
        tmp.mkdir()
        try:
            write_file(tmp / WEIGHTS_FILE, weights_bytes)
            write_file(tmp / SPEC_FILE, spec_bytes)
            fsync_dir(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._hook("staged")
        return Staged(spec=spec, spec_sha256=sha256_bytes(spec_bytes), tmp_dir=tmp)

    @staticmethod
    def discard(staged: Sequence[Staged]) -> None:
        """Remove the temp folders of saves that were not committed (committed ones are gone already)."""
        for st in staged:
            if st.tmp_dir.exists():
                shutil.rmtree(st.tmp_dir, ignore_errors=True)

    def commit(self, staged: Sequence[Staged]) -> list[str]:
        """Move staged folders into place and index them in ONE transaction; returns the ids committed.

        A checkpoint the index already holds with the same spec is skipped (re-importing is a
        no-op); one with the same id and another spec is refused.
        """
        moved: list[Path] = []
        committed: list[str] = []
        try:
            with self.index.write() as tx:
                for st in staged:
                    spec, cid = st.spec, st.spec["id"]
                    recorded = tx.spec_sha256(cid)
                    if recorded is not None:
                        if recorded != st.spec_sha256:
                            raise RegistryError(f"checkpoint id {cid} already exists here with different content")
                        continue  # importing a checkpoint this registry already holds
                    final = self.checkpoint_dir(cid)
                    if final.exists():  # an orphan of an interrupted save: we hold the write lock, so nobody owns it
                        shutil.rmtree(final)
                    version = tx.next_version(spec["name"])
                    os.rename(st.tmp_dir, final)
                    moved.append(final)
                    tx.insert_checkpoint(spec, version, st.spec_sha256)
                    tx.add_tags(cid, st.tags)
                    for rating in st.ratings:
                        tx.put_rating(cid, rating)
                    for e in st.evals:
                        tx.add_eval(cid, e.name, e.created, e.results)
                    committed.append(cid)
                fsync_dir(self.checkpoints_path)
                self._hook("renamed")
        except BaseException:
            for folder in moved:  # rolled back: these folders are orphans now; nothing refers to them
                shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            self.discard(staged)
        return committed

    def remove_files(self, checkpoint_id: str) -> None:
        """Delete the folder of a checkpoint the index no longer names (move it out of
        ``checkpoints/``, then delete it: a crash leaves an orphan that gc removes)."""
        trash = self.tmp_path / f"removed-{checkpoint_id}-{secrets.token_hex(4)}"
        with contextlib.suppress(FileNotFoundError):
            os.rename(self.checkpoint_dir(checkpoint_id), trash)
            shutil.rmtree(trash, ignore_errors=True)

    # ------------------------------------------------------------ reading
    def read_verified(self, info: CheckpointInfo) -> tuple[dict[str, Any], dict[str, np.ndarray], bytes, bytes]:
        """Both files of ``info``, hashed against the index and cross-checked; ``IntegrityError`` otherwise.

        Returns the spec, the arrays, and the two files' bytes."""
        what = f"checkpoint {info.ref} ({info.id})"
        folder = self.checkpoint_dir(info.id)
        blobs = {}
        for fname, expected in ((SPEC_FILE, info.spec_sha256), (WEIGHTS_FILE, info.weights_sha256)):
            try:
                data = (folder / fname).read_bytes()
            except FileNotFoundError:
                with self.index.read() as tx:
                    if not tx.exists(info.id):
                        raise RefError(f"{what} was removed while being read") from None
                raise IntegrityError(f"{what}: {folder / fname} is missing") from None
            got = sha256_bytes(data)
            if got != expected:
                raise IntegrityError(
                    f"{what}: {fname} has sha256 {got[:16]}..., the index recorded {expected[:16]}...: "
                    f"the file was modified or corrupted; refusing to load it ({folder / fname})"
                )
            blobs[fname] = data
        try:
            spec = validate_spec(json.loads(blobs[SPEC_FILE]))
        except ValueError as e:
            raise IntegrityError(f"{what}: {SPEC_FILE} is invalid: {e}") from e
        recorded = info_from_spec(spec, info.version, info.spec_sha256)
        differ = [f for f in CROSS_CHECKED if getattr(recorded, f) != getattr(info, f)]
        if differ:
            raise IntegrityError(f"{what}: {SPEC_FILE} disagrees with the index on {', '.join(differ)}")
        if len(blobs[WEIGHTS_FILE]) != info.weights_bytes:
            raise IntegrityError(f"{what}: {WEIGHTS_FILE} has {len(blobs[WEIGHTS_FILE])} bytes, the spec says {info.weights_bytes}")
        tensors = load_safetensors(blobs[WEIGHTS_FILE], what)
        try:
            validate_weights(tensors, info.arch)
        except ValueError as e:
            raise IntegrityError(f"{what}: weights do not fit its arch: {e}") from e
        return spec, tensors, blobs[SPEC_FILE], blobs[WEIGHTS_FILE]

    # --------------------------------------------------------- verify / gc
    def verify(self, infos: Sequence[CheckpointInfo], *, whole: bool, grace_s: float) -> VerifyReport:
        """Re-hash the files of ``infos``; if ``whole``, also check the index and report leftover folders."""
        report = VerifyReport()
        for info in infos:
            report.checked += 1
            try:
                self.read_verified(info)
            except IntegrityError as e:
                report.errors.append(str(e))
        if not whole:
            return report
        with self.index.read() as tx:
            report.errors.extend(tx.problems())
            ids = tx.ids()
        for entry in sorted(self.checkpoints_path.iterdir()):
            if entry.name not in ids:
                report.leftovers.append(f"{entry}: not in the index (left by an interrupted save or removal; gc removes it)")
        for entry in sorted(self.tmp_path.iterdir()):
            report.leftovers.append(f"{entry}: temp folder of a save in progress or interrupted (gc removes it after {grace_s:.0f} s)")
        return report

    def gc(self, *, grace_s: float = DEFAULT_GRACE_S) -> list[Path]:
        """Remove leftovers: checkpoint folders the index does not name, and temp folders older than ``grace_s``."""
        removed: list[Path] = []
        # Under the write lock no save is between its rename and its commit, so an unindexed folder is garbage.
        with self.index.write() as tx:
            ids = tx.ids()
            for entry in sorted(self.checkpoints_path.iterdir()):
                if entry.name not in ids:
                    remove_path(entry)
                    removed.append(entry)
        now = time.time()
        for entry in sorted(self.tmp_path.iterdir()):
            try:
                paths = [entry, *entry.iterdir()] if entry.is_dir() else [entry]
                newest = max(p.lstat().st_mtime for p in paths)
            except FileNotFoundError:
                continue  # its save just finished (renamed into place) or another gc took it
            if now - newest >= grace_s:
                remove_path(entry)
                removed.append(entry)
        return removed
