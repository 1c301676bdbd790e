"""The registry's files: atomic saves (stage in ``tmp/``, then rename and index in one transaction),
verified reads, removal, garbage collection and verification.

A save writes its two files into a fresh folder under ``tmp/`` and fsyncs them, holding an
exclusive ``flock`` on that folder from before its first file until the save ends; then, holding
SQLite's write lock, it takes the version, renames the folder into ``checkpoints/<id>``, fsyncs
``checkpoints/`` and inserts the rows, all in one transaction. A process killed at any point
leaves either the whole entry or a leftover folder that no ref can see (``verify`` reports it,
``gc`` removes it). Reads hash both files against the index before parsing the same bytes.

``gc`` does all its deleting while holding the write lock (so no save is between its rename and
its commit), and skips every temp folder whose flock is held (a save in progress, whatever the
grace period); the kernel drops the flock of a killed process, so its leftovers become
collectable. Removal moves a folder out of ``checkpoints/`` inside the transaction that deletes
its rows. Where ``fcntl`` is missing (Windows), only the grace period protects saves in progress.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
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
from mythzoo.policies.registry.index import Index, Tx
from mythzoo.policies.registry.records import CheckpointInfo, Rating, VerifyReport
from mythzoo.policies.registry.refs import is_checkpoint_id
from mythzoo.policies.registry.spec import SPEC_FILE, WEIGHTS_FILE, EvalEntry, info_from_spec, parse_json, validate_spec, validate_weights

try:
    import fcntl
except ImportError:  # Windows: no flock; the grace period alone protects saves in progress
    fcntl = None  # type: ignore[assignment]

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


def lock_folder(path: Path, *, wait: bool) -> int | None:
    """An fd of folder ``path`` holding an exclusive flock on it (``None``: another process holds it, or
    no flock here). The lock lasts until the fd is closed or the process dies."""
    if fcntl is None:
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def close_fd(fd: int | None) -> None:
    """Close ``fd`` (releasing its flock); ``None`` is fine."""
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


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
    lock_fd: int | None = None  # holds the folder's flock until the save ends (gc skips a locked folder)
    version: int = 0  # the version the commit gave it


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

    def _entries(self, folder: Path) -> list[Path]:
        """The entries of ``folder``, sorted (none if it is missing, as on a read-only copy without ``tmp/``)."""
        try:
            return sorted(folder.iterdir())
        except FileNotFoundError:
            return []

    def checkpoint_dir(self, checkpoint_id: str) -> Path:
        """The folder holding checkpoint ``checkpoint_id``'s files."""
        if not is_checkpoint_id(checkpoint_id):
            raise ValueError(f"{checkpoint_id!r} is not a checkpoint id")
        return self.checkpoints_path / checkpoint_id

    # ------------------------------------------------------------- saving
    def new_tmp_folder(self, checkpoint_id: str) -> tuple[Path, int | None]:
        """A fresh folder under ``tmp/`` and an fd holding its flock (taken before anything is written in it).

        Between ``mkdir`` and the flock a ``gc`` may take the empty folder; the save then sees that
        the folder at the path is not the one it locked, and makes another."""
        self.tmp_path.mkdir(exist_ok=True)
        for _ in range(100):
            tmp = self.tmp_path / f"{checkpoint_id}-{os.getpid()}-{secrets.token_hex(4)}"
            tmp.mkdir()
            try:
                fd = lock_folder(tmp, wait=True)
            except FileNotFoundError:
                continue
            if fd is None:
                return tmp, None
            try:
                same = os.stat(tmp).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return tmp, fd
            close_fd(fd)
        raise RegistryError(f"cannot create a temp folder in {self.tmp_path}: another process keeps removing them")

    def stage(self, spec: dict[str, Any], spec_bytes: bytes, weights_bytes: bytes | None) -> Staged:
        """Write a checkpoint's files into a fresh, locked folder under ``tmp/`` and fsync them.

        ``weights_bytes=None``: the weights are written by the caller (see :meth:`stage_folder`)."""
        staged = self.stage_folder(spec)
        try:
            if weights_bytes is not None:
                write_file(staged.tmp_dir / WEIGHTS_FILE, weights_bytes)
            self.finish_stage(staged, spec_bytes)
        except BaseException:
            self.discard([staged])
            raise
        return staged

    def stage_folder(self, spec: dict[str, Any]) -> Staged:
        """A locked temp folder for ``spec``'s files (the caller writes them, then calls :meth:`finish_stage`)."""
        tmp, fd = self.new_tmp_folder(spec["id"])
        return Staged(spec=spec, spec_sha256="", tmp_dir=tmp, lock_fd=fd)

    def finish_stage(self, staged: Staged, spec_bytes: bytes) -> None:
        """Write ``spec.json`` beside the weights already in ``staged``'s folder, fsync, and record its hash."""
        write_file(staged.tmp_dir / SPEC_FILE, spec_bytes)
        fsync_dir(staged.tmp_dir)
        staged.spec_sha256 = sha256_bytes(spec_bytes)
        self._hook("staged")

    @staticmethod
    def discard(staged: Sequence[Staged]) -> None:
        """Remove the temp folders of saves that were not committed (committed ones are gone already), and
        release their locks."""
        for st in staged:
            if st.tmp_dir.exists():
                shutil.rmtree(st.tmp_dir, ignore_errors=True)
            close_fd(st.lock_fd)
            st.lock_fd = None

    def _detach(self, folder: Path, what: str) -> Path | None:
        """Move ``folder`` out of ``checkpoints/`` into ``tmp/`` (a rename: instant, and never half done);
        returns where it went (``None``: it was not there). Deleting it later cannot touch ``checkpoints/``."""
        self.tmp_path.mkdir(exist_ok=True)
        trash = self.tmp_path / f"{what}-{folder.name}-{secrets.token_hex(4)}"
        try:
            os.rename(folder, trash)
        except FileNotFoundError:
            return None
        return trash

    def commit(self, staged: Sequence[Staged]) -> list[str]:
        """Move staged folders into place and index them in ONE transaction; returns the ids committed.

        A checkpoint the index already holds with the same spec is skipped (re-importing is a
        no-op); one with the same id and another spec is refused.
        """
        moved: list[Path] = []
        committed: list[str] = []
        try:
            with self.index.write() as tx:
                try:
                    self._commit_in(tx, staged, moved, committed)
                except BaseException:
                    for folder in moved:  # still holding the write lock: nobody can have committed these ids
                        trash = self._detach(folder, "aborted")
                        if trash is not None:
                            shutil.rmtree(trash, ignore_errors=True)
                    moved.clear()
                    raise
        except BaseException:
            self._drop_uncommitted(moved)  # the COMMIT itself failed (a full disk): keep what the index names
            raise
        finally:
            self.discard(staged)
        return committed

    def _commit_in(self, tx: Tx, staged: Sequence[Staged], moved: list[Path], committed: list[str]) -> None:
        """The body of :meth:`commit`, inside its write transaction."""
        for st in staged:
            spec, cid = st.spec, st.spec["id"]
            recorded = tx.spec_sha256(cid)
            if recorded is not None:
                if recorded != st.spec_sha256:
                    raise RegistryError(f"checkpoint id {cid} already exists here with different content")
                continue  # importing a checkpoint this registry already holds
            final = self.checkpoint_dir(cid)
            if final.exists():  # an orphan of an interrupted save: we hold the write lock, so nobody owns it
                trash = self._detach(final, "orphan")
                if trash is not None:
                    shutil.rmtree(trash, ignore_errors=True)
            version = st.version = tx.next_version(spec["name"])
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

    def _drop_uncommitted(self, moved: Sequence[Path]) -> None:
        """After a failed COMMIT: remove the moved folders the index does not name (if it can be read)."""
        if not moved:
            return
        try:
            with self.index.read() as tx:
                ids = tx.ids()
        except RegistryError:
            return  # cannot tell: leave them; verify reports them and gc removes the unindexed ones
        for folder in moved:
            if folder.name not in ids:
                trash = self._detach(folder, "aborted")
                if trash is not None:
                    shutil.rmtree(trash, ignore_errors=True)

    def remove_unindexed(self, checkpoint_id: str) -> None:
        """Delete the folder of a checkpoint whose rows were just deleted (committed), unless the index names
        it again (a concurrent import of the same id). Under the write lock the folder is moved out of
        ``checkpoints/`` (no reader sees files vanish under a row it can still see, no save of the same id
        can race it), then deleted. A crash or a failure here leaves a leftover that gc removes."""
        trash = None
        try:
            with self.index.write() as tx:
                if not tx.exists(checkpoint_id):
                    trash = self._detach(self.checkpoint_dir(checkpoint_id), "removed")
        except RegistryError:
            return  # the rows are gone; the folder stays as a leftover (verify reports it, gc removes it)
        if trash is not None:
            shutil.rmtree(trash, ignore_errors=True)

    def remove_files(self, checkpoint_id: str) -> None:
        """Delete the folder of a checkpoint the index no longer names (see :meth:`remove_unindexed`)."""
        self.remove_unindexed(checkpoint_id)

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
            spec = validate_spec(parse_json(blobs[SPEC_FILE], SPEC_FILE))
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
            try:
                self.read_verified(info)
            except RefError:
                continue  # removed (by another process) since it was listed: nothing left to check
            except IntegrityError as e:
                report.errors.append(str(e))
            report.checked += 1
        if not whole:
            return report
        folders = self._entries(self.checkpoints_path)  # listed before the ids: a save committed meanwhile is no leftover
        with self.index.read() as tx:
            report.errors.extend(tx.problems())
            ids = tx.ids()
        for entry in folders:
            if entry.name not in ids and entry.exists():
                report.leftovers.append(f"{entry}: not in the index (left by an interrupted save or removal, or a save committing now; gc removes it)")
        for entry in self._entries(self.tmp_path):
            report.leftovers.append(f"{entry}: temp folder of a save in progress or interrupted (gc removes it once no save holds it and it is {grace_s:.0f} s old)")
        return report

    def gc(self, *, grace_s: float = DEFAULT_GRACE_S) -> list[Path]:
        """Remove leftovers: checkpoint folders the index does not name, and temp folders older than ``grace_s``."""
        removed: list[Path] = []
        # Everything happens under the write lock: no save is between its rename and its commit, so an
        # unindexed folder in checkpoints/ is garbage, and no temp folder can be renamed into place while
        # it is being deleted. A temp folder whose flock is held belongs to a live save and is kept.
        with self.index.write() as tx:
            ids = tx.ids()
            for entry in self._entries(self.checkpoints_path):
                if entry.name not in ids:
                    trash = self._detach(entry, "unindexed")
                    remove_path(trash if trash is not None else entry)
                    removed.append(entry)
            now = time.time()
            for entry in self._entries(self.tmp_path):
                fd = None
                try:
                    if entry.is_dir() and not entry.is_symlink():
                        fd = lock_folder(entry, wait=False)
                        if fd is None and fcntl is not None:
                            continue  # a save in progress holds it
                    paths = [entry, *entry.iterdir()] if entry.is_dir() and not entry.is_symlink() else [entry]
                    newest = max(p.lstat().st_mtime for p in paths)
                    if now - newest >= grace_s:
                        remove_path(entry)
                        removed.append(entry)
                except FileNotFoundError:
                    continue  # its save just finished (renamed into place) or another gc took it
                except OSError as e:
                    if e.errno not in (errno.ENOTDIR, errno.ELOOP):
                        raise
                finally:
                    close_fd(fd)
        return removed
