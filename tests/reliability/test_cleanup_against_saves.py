"""Cleanup never harms a save: ``verify --clean --grace 0`` and ``gc(grace_s=0)`` running in a loop beside
saving processes leave every acknowledged checkpoint whole, and a save in progress keeps its files.

Issue 15 measured 2 of 267 acknowledged saves losing their ``spec.json`` through the command, and
11 of 26 through the Python API, when the temp-folder deletion ran outside the write lock.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry import Registry
from mythzoo.policies.registry.cli import main as registry_main

from .helpers import save

SECONDS = 5.0


def _clean_by_command(path: str, stop_at: float, counts) -> None:
    n = 0
    while time.time() < stop_at:
        code = registry_main(["verify", "--clean", "--grace", "0", "--registry", path])
        assert code in (0, 1)
        n += 1
    counts.put(("command", n))


def _clean_by_api(path: str, stop_at: float, counts) -> None:
    reg, n = Registry(path), 0
    while time.time() < stop_at:
        reg.gc(grace_s=0)
        n += 1
    counts.put(("api", n))


def _save_many(path: str, spec: EnvSpec, worker: int, stop_at: float, acked) -> None:
    reg, ids = Registry(path), []
    while time.time() < stop_at:
        ids.append(save(reg, spec, name=f"w{worker}", seed=len(ids) % 7).id)  # returned: acknowledged
    acked.put(ids)


def test_acknowledged_saves_survive_cleanup_with_grace_0_in_a_loop(reg: Registry, env_spec: EnvSpec) -> None:
    ctx = multiprocessing.get_context("spawn")
    counts, acked = ctx.Queue(), ctx.Queue()
    stop_at = time.time() + SECONDS + 3.0  # children take a moment to start
    procs = [
        ctx.Process(target=_clean_by_command, args=(str(reg.path), stop_at, counts)),
        ctx.Process(target=_clean_by_api, args=(str(reg.path), stop_at, counts)),
        ctx.Process(target=_save_many, args=(str(reg.path), env_spec, 1, stop_at, acked)),
    ]
    for p in procs:
        p.start()
    ids = list(acked.get(timeout=120))
    while time.time() < stop_at:  # this process saves too, through the same API
        ids.append(save(reg, env_spec, name="w0", seed=len(ids) % 7).id)
    cleaned = dict(counts.get(timeout=120) for _ in range(2))
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert cleaned["command"] > 3 and cleaned["api"] > 10, cleaned  # the cleaners really ran alongside
    assert len(ids) > 20
    assert {i.id for i in reg.list()} == set(ids)
    for cid in ids:
        folder = reg.checkpoint_dir(cid)
        assert (folder / "spec.json").is_file() and (folder / "weights.safetensors").is_file(), cid
        reg.load_weights(cid)
    report = reg.verify()
    assert report.ok and report.checked == len(ids), report.errors


def test_a_save_in_progress_keeps_its_temp_folder_through_gc_with_grace_0(reg: Registry, env_spec: EnvSpec, monkeypatch) -> None:
    staged, release = threading.Event(), threading.Event()

    def hook(self: Registry, stage: str) -> None:
        if stage == "staged":
            staged.set()
            assert release.wait(30)

    monkeypatch.setattr(Registry, "_hook", hook)
    result: list = []
    saver = threading.Thread(target=lambda: result.append(save(Registry(reg.path), env_spec, name="slow")))
    saver.start()
    assert staged.wait(30)
    (folder,) = list(reg.tmp_path.iterdir())
    assert reg.gc(grace_s=0) == []  # its flock is held: a save in progress, whatever the grace period
    assert (folder / "spec.json").is_file()
    release.set()
    saver.join(30)
    assert result and reg.resolve("slow").id == result[0].id
    reg.load_weights("slow")
    assert reg.verify().ok and not list(reg.tmp_path.iterdir())


def test_a_killed_saves_folder_is_collected_once_its_lock_is_gone(reg: Registry, env_spec: EnvSpec) -> None:
    """The flock dies with its process: the leftover of a kill -9 is garbage at once with grace 0."""
    import os
    import signal

    ctx = multiprocessing.get_context("spawn")
    p = ctx.Process(target=_die_staged, args=(str(reg.path), env_spec))
    p.start()
    p.join(60)
    assert p.exitcode == -signal.SIGKILL
    leftovers = list(reg.tmp_path.iterdir())
    assert len(leftovers) == 1
    assert reg.gc(grace_s=0) == leftovers
    assert not os.listdir(reg.tmp_path) and reg.verify().ok


def _die_staged(path: str, spec: EnvSpec) -> None:
    import os
    import signal

    def hook(self: Registry, stage: str) -> None:
        if stage == "staged":
            os.kill(os.getpid(), signal.SIGKILL)

    Registry._hook = hook  # only in this child
    save(Registry(path), spec, name="victim")
