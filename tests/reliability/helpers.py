"""Shared pieces of the reliability suite: a small checkpoint, forged export files, the CLI in a subprocess.

Every case of this suite ends the same way: a clear one-line error (a non-zero exit on the command
line, no traceback), nothing changed in the registry and nothing lost. :func:`assert_unchanged`
and :func:`assert_one_line_error` check exactly that.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mythzoo.policies.base import EnvSpec
from mythzoo.policies.neural import init_mlp_weights
from mythzoo.policies.registry import CheckpointInfo, Registry

OBS, ACTIONS, HIDDEN = 628, 132, (8,)  # mythic_baths_v1's sizes; a tiny hidden layer keeps files small


def save(reg: Registry, spec: EnvSpec, name: str = "ppo", seed: int = 0, **kw: Any) -> CheckpointInfo:
    """Register a small checkpoint of ``name``."""
    w, arch = init_mlp_weights(OBS, ACTIONS, HIDDEN, seed=seed)
    return reg.register(name, w, arch, env_spec=spec, algo=kw.pop("algo", "ppo"), steps=kw.pop("steps", 1000), **kw)


def members(path: Path) -> list[tuple[str, bytes]]:
    """The (name, bytes) of every member of a small export file, in order."""
    with tarfile.open(path) as tar:
        return [(m.name, tar.extractfile(m).read()) for m in tar.getmembers()]  # type: ignore[union-attr]


def write_tar(path: Path, items: list[tuple[str, bytes]], mode: str = "w") -> Path:
    """A tar of ``items`` at ``path``."""
    with tarfile.open(path, mode) as tar:
        for name, data in items:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))
    return path


def forge(
    export: Path,
    out: Path,
    *,
    manifest: Callable[[dict[str, Any]], Any] | None = None,
    spec: Callable[[dict[str, Any]], Any] | None = None,
    manifest_bytes: bytes | None = None,
    spec_bytes: bytes | None = None,
) -> Path:
    """A consistent forgery of ``export`` (one checkpoint): the spec and manifest edited in place (or replaced
    by raw bytes), and every hash and size in the manifest recomputed, so only validation can catch it."""
    items = dict(members(export))
    man = json.loads(items["manifest.json"])
    entry = man["checkpoints"][0]
    spec_name = f"checkpoints/{entry['id']}/spec.json"
    if spec is not None or spec_bytes is not None:
        if spec_bytes is None:
            s = json.loads(items[spec_name])
            spec(s)
            spec_bytes = json.dumps(s, indent=2, sort_keys=True).encode()
        items[spec_name] = spec_bytes
        entry["files"]["spec.json"] = {"sha256": hashlib.sha256(spec_bytes).hexdigest(), "bytes": len(spec_bytes)}
    if manifest is not None:
        manifest(man)
    items["manifest.json"] = manifest_bytes if manifest_bytes is not None else json.dumps(man).encode()
    return write_tar(out, [("manifest.json", items.pop("manifest.json")), *items.items()])


def result_of(proc: Any, queue: Any, timeout: float) -> Any:
    """What child ``proc`` put on ``queue``, then its clean exit; fails at once if the child dies first."""
    import queue as queue_module
    import time

    deadline = time.time() + timeout
    while True:
        try:
            value = queue.get(timeout=0.5)
            break
        except queue_module.Empty:
            if not proc.is_alive():
                raise AssertionError(f"the child process died (exit code {proc.exitcode}) before reporting") from None
            if time.time() > deadline:
                raise AssertionError(f"the child process reported nothing in {timeout} s") from None
    proc.join(60)
    assert proc.exitcode == 0, proc.exitcode
    return value


def snapshot(reg: Registry) -> tuple[Any, ...]:
    """What a refused command must leave as it was: every entry with its ratings and evals, and both folders' contents."""
    infos = reg.list()
    files = sorted(str(p.relative_to(reg.path)) for p in reg.path.rglob("*") if p.is_file() and "index.sqlite" not in p.name)
    return (infos, [reg.ratings(i.id) for i in infos], [reg.evals(i.id) for i in infos], files)


def assert_unchanged(reg: Registry, before: tuple[Any, ...]) -> None:
    """The registry holds exactly what it did, verifies, and has no leftovers."""
    assert snapshot(reg) == before
    report = reg.verify()
    assert report.ok, report.errors
    assert not report.leftovers, report.leftovers


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``mythzoo registry ARGS`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "mythzoo.policies.registry.cli", *args], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str] | tuple[int, str], *needles: str) -> str:
    """A refusal: a non-zero exit, one line on stderr naming the problem, no traceback. Returns the line."""
    code, err = (result.returncode, result.stderr) if isinstance(result, subprocess.CompletedProcess) else result
    assert code != 0, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]
