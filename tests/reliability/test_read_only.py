"""A read-only registry (a shared, mounted checkpoint store) can be listed, shown, verified and exported;
anything that would write is refused in one line (issue 15: every read failed with
``sqlite3.OperationalError: unable to open database file``).

The registry is made read-only for real: a read-only bind mount in a private mount namespace
(``unshare``), or, for a user other than root, its permissions removed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mythzoo.policies.registry import Registry

from .helpers import assert_one_line_error, save

READS = [(["ls"], "kept:1"), (["show", "kept"], "kept:1"), (["show", "kept", "--json"], '"ref": "kept:1"'), (["verify"], "verified 1 checkpoint"), (["alias"], "latest")]
WRITES = [["verify", "--clean", "--grace", "0"], ["rm", "kept"], ["alias", "kept", "best", "1"]]


def _runner(root: Path):
    """A function running ``mythzoo registry ARGS`` with ``root`` read-only, or ``None`` if this machine cannot."""
    if os.geteuid() != 0:
        return lambda args: subprocess.run([sys.executable, "-m", "mythzoo.policies.registry.cli", *args], capture_output=True, text=True, timeout=120)
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return None
    mount = f"mount --bind {shlex.quote(str(root))} {shlex.quote(str(root))} && mount -o remount,bind,ro {shlex.quote(str(root))} {shlex.quote(str(root))}"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"{mount} && ! touch {shlex.quote(str(root / 'probe'))} 2>/dev/null"], capture_output=True)
    if probe.returncode != 0:
        return None

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "mythzoo.policies.registry.cli", *args])
        return subprocess.run(["unshare", "-m", "sh", "-c", f"{mount} && exec {cmd}"], capture_output=True, text=True, timeout=120)

    return run


@pytest.fixture
def read_only(tmp_path: Path, env_spec):
    root = tmp_path / "store"
    reg = Registry(root)
    info = save(reg, env_spec, name="kept")
    reg.record_rating(info.ref, mu=25.0, sigma=8.0, games=10, num_players=2)
    del reg  # closed: SQLite folds the WAL into the index and removes it, as on a copied store
    run = _runner(root)
    if run is None:
        pytest.skip("cannot make a folder read-only here (root without unshare/mount)")
    modes = {}
    if os.geteuid() != 0:
        for p in [root, *root.rglob("*")]:
            modes[p] = p.stat().st_mode
            p.chmod(stat.S_IMODE(modes[p]) & ~0o222)
    yield root, run
    for p, mode in sorted(modes.items(), key=lambda kv: len(kv[0].parts)):
        p.chmod(stat.S_IMODE(mode))


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("args", "shown"), READS, ids=[" ".join(a) for a, _ in READS])
def test_a_read_only_registry_can_be_read(read_only, args, shown) -> None:
    root, run = read_only
    before = _files(root)
    out = run([*args, "--registry", str(root)])
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert shown in out.stdout
    assert _files(root) == before


def test_a_read_only_registry_can_be_exported_and_the_export_imports(read_only, tmp_path: Path) -> None:
    root, run = read_only
    out = run(["export", "kept", str(tmp_path / "kept.tar"), "--registry", str(root)])
    assert out.returncode == 0, out.stderr
    other = Registry(tmp_path / "other")
    (info,) = other.import_(tmp_path / "kept.tar")
    assert info.name == "kept" and other.verify().ok and other.ratings(info.id)[0].games == 10


@pytest.mark.parametrize("args", WRITES, ids=" ".join)
def test_writing_to_a_read_only_registry_is_refused_in_one_line(read_only, args) -> None:
    root, run = read_only
    before = _files(root)
    assert_one_line_error(run([*args, "--registry", str(root)]), "read-only")
    assert _files(root) == before
