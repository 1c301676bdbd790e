"""An import stays within a small, bounded memory whatever the archive declares, and refuses a hostile
archive at its first bad header (issue 15: a 10 KB sparse archive drove ``registry import`` to
1,063 MB, a 1.2 MB gzip to 301 MB, and 100,000 empty members took 7-12 s to refuse).

The imports run in a child process under a hard address-space limit (``RLIMIT_AS``) of what it has
mapped after start-up plus :data:`HEADROOM`: more than any chunk the import reads, less than any
hostile member declares. Every archive must be refused in one line, with nothing imported.
"""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from mythzoo.policies.registry import Registry

from .helpers import assert_one_line_error, assert_unchanged, members, result_of, snapshot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")

HEADROOM = 96 << 20
GIB = 1 << 30


class _Zeros(io.RawIOBase):
    """``size`` zero bytes, produced as they are read (nothing held in memory)."""

    def __init__(self, size: int):
        self.left = size

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return bytes(n)


def _manifest(export: Path, weights_bytes: int) -> tuple[str, bytes, bytes]:
    """The checkpoint id, its spec and a manifest both declaring a weights file of ``weights_bytes`` bytes (with a
    made-up hash), consistent with each other: only the weights' own bytes can give the forgery away."""
    items = dict(members(export))
    man = json.loads(items["manifest.json"])
    entry = man["checkpoints"][0]
    claimed = {"sha256": hashlib.sha256(b"x").hexdigest(), "bytes": weights_bytes}
    spec = json.loads(items[f"checkpoints/{entry['id']}/spec.json"])
    spec["weights"].update(claimed)
    spec_bytes = json.dumps(spec).encode()
    entry["files"]["weights.safetensors"] = claimed
    entry["files"]["spec.json"] = {"sha256": hashlib.sha256(spec_bytes).hexdigest(), "bytes": len(spec_bytes)}
    return entry["id"], spec_bytes, json.dumps(man).encode()


def _add(tar: tarfile.TarFile, name: str, data: bytes | None = None, size: int = 0) -> None:
    ti = tarfile.TarInfo(name)
    ti.size = len(data) if data is not None else size
    tar.addfile(ti, io.BytesIO(data) if data is not None else _Zeros(size))


def _declared_gib(export: Path, out: Path) -> Path:
    """A ~10 KB plain tar whose weights member's header (and manifest) declare 1 GiB: the data is not there."""
    cid, spec, man = _manifest(export, GIB)
    with open(out, "wb") as f:
        with tarfile.open(fileobj=f, mode="w") as tar:
            _add(tar, "manifest.json", man)
            _add(tar, f"checkpoints/{cid}/spec.json", spec)
            end = tar.offset
        f.seek(end)  # over the end-of-archive blocks: a header that lies about its size
        ti = tarfile.TarInfo(f"checkpoints/{cid}/weights.safetensors")
        ti.size = GIB
        f.write(ti.tobuf())
        f.write(bytes(8192))
        f.truncate()
    return out


def _sparse_gib(export: Path, out: Path, work: Path) -> Path | None:
    """A small GNU tar holding a sparse 1 GiB weights member (``None`` without GNU tar)."""
    if shutil.which("tar") is None:
        return None
    cid, spec, man = _manifest(export, GIB)
    folder = work / "checkpoints" / cid
    folder.mkdir(parents=True)
    (work / "manifest.json").write_bytes(man)
    (folder / "spec.json").write_bytes(spec)
    with open(folder / "weights.safetensors", "wb") as f:
        f.truncate(GIB)
    done = subprocess.run(["tar", "--sparse", "--format=gnu", "-cf", str(out), "-C", str(work), "manifest.json", f"checkpoints/{cid}/spec.json", f"checkpoints/{cid}/weights.safetensors"], capture_output=True)
    return out if done.returncode == 0 else None


def _gzip_bomb(export: Path, out: Path, size: int) -> Path:
    """A small .tar.gz whose weights member really holds ``size`` zero bytes (the manifest agrees on the size)."""
    cid, spec, man = _manifest(export, size)
    with tarfile.open(out, "w:gz", compresslevel=1) as tar:
        _add(tar, "manifest.json", man)
        _add(tar, f"checkpoints/{cid}/spec.json", spec)
        _add(tar, f"checkpoints/{cid}/weights.safetensors", size=size)
    return out


def _pax_bomb(out: Path, size: int) -> Path:
    """A small .tar.gz starting with a pax header that declares ``size`` bytes of metadata."""
    import gzip

    ti = tarfile.TarInfo("././@PaxHeader")
    ti.type, ti.size = tarfile.XHDTYPE, size
    with gzip.open(out, "wb", compresslevel=1) as f:
        f.write(ti.tobuf(format=tarfile.USTAR_FORMAT))
        zeros = _Zeros(size)
        while chunk := zeros.read(1 << 20):
            f.write(chunk)
        f.write(bytes(1024))
    return out


def _many_members(out: Path, count: int) -> Path:
    """A tar of ``count`` empty members with names an export could have (about 50 MB of headers)."""
    with open(out, "wb") as f:
        for k in range(count):
            ti = tarfile.TarInfo(f"checkpoints/{k:012x}/spec.json")
            f.write(ti.tobuf())
        f.write(bytes(1024))
    return out


def _vm_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


def _import_under_limit(registry: str, archives: list[str], results) -> None:
    import contextlib
    import resource

    from mythzoo.policies.registry.cli import main

    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    limit = _vm_bytes() + HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = []
    for path in archives:
        err = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stderr(err):
            code = main(["import", path, "--registry", registry])
        out.append((path, code, err.getvalue(), time.perf_counter() - t0))
    results.put((limit, out))


def test_hostile_archives_are_refused_within_a_hard_memory_limit(tmp_path: Path, reg: Registry, kept, export: Path) -> None:
    archives = {
        "declares 1 GiB": _declared_gib(export, tmp_path / "declared.tar"),
        "gzip bomb past the member limit": _gzip_bomb(export, tmp_path / "bomb.tar.gz", 300 << 20),
        "gzip bomb within the limits, wrong hash": _gzip_bomb(export, tmp_path / "bomb_small.tar.gz", 120 << 20),
        "pax header bomb": _pax_bomb(tmp_path / "pax.tar.gz", 300 << 20),
        "100,000 empty members": _many_members(tmp_path / "many.tar", 100_000),
    }
    sparse = _sparse_gib(export, tmp_path / "sparse.tar", tmp_path / "sparse")
    if sparse is not None:
        archives["sparse 1 GiB member"] = sparse
    assert all(p.stat().st_size < 2 << 20 or "members" in name for name, p in archives.items())  # small files, huge claims
    before = snapshot(reg)
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    p = ctx.Process(target=_import_under_limit, args=(str(reg.path), [str(a) for a in archives.values()], results))
    p.start()
    limit, out = result_of(p, results, timeout=240)
    assert len(out) == len(archives)
    for name, (path, code, err, seconds) in zip(archives, out):
        line = assert_one_line_error((code, err), "mythzoo registry import:")
        assert "MemoryError" not in line and ("nothing imported" in line or "sha256" in line), (name, line)
        if name == "sparse 1 GiB member":
            assert "sparse" in line
        if name == "gzip bomb within the limits, wrong hash":
            assert "weights.safetensors has sha256" in line  # read through, streamed, refused on its hash
        if name == "100,000 empty members":
            assert seconds < 1.0, seconds  # refused at once, at its first header past the limit
            assert "more than" in line
    assert_unchanged(reg, before)
