"""``verify`` while another process removes checkpoints: a checkpoint removed between the listing and its
check is skipped, not an error (issue 15: ``verify`` aborted with ``RefError``); removal itself never
leaves a row without files or files in ``checkpoints/`` without a row."""

from __future__ import annotations

import multiprocessing
import time

from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry import Registry
from mythzoo.policies.registry.cli import main as registry_main

from .helpers import save


def test_verify_skips_a_checkpoint_removed_after_it_was_listed(reg: Registry, env_spec: EnvSpec, monkeypatch) -> None:
    keep, gone = save(reg, env_spec, name="keep"), save(reg, env_spec, name="gone")
    listed = Registry.list

    def list_then_remove(self: Registry, *args, **kwargs):
        infos = listed(self, *args, **kwargs)
        Registry(self.path).remove(gone.id)  # another process's removal, between the listing and the checks
        return infos

    monkeypatch.setattr(Registry, "list", list_then_remove)
    report = reg.verify()
    assert report.ok and report.checked == 1 and not report.leftovers
    monkeypatch.undo()
    assert [i.id for i in reg.list()] == [keep.id]


def _remove_all(path: str, stop_at: float, done) -> None:
    reg, n = Registry(path), 0
    while time.time() < stop_at:
        for info in reg.list("churn"):
            reg.remove(info.id)
            n += 1
    done.put(n)


def test_verify_in_a_loop_beside_saves_and_removals_never_fails(reg: Registry, env_spec: EnvSpec) -> None:
    keep = save(reg, env_spec, name="keep")
    ctx = multiprocessing.get_context("spawn")
    done = ctx.Queue()
    stop_at = time.time() + 6.0
    p = ctx.Process(target=_remove_all, args=(str(reg.path), stop_at, done))
    p.start()
    codes, saved = [], 0
    while time.time() < stop_at:
        save(reg, env_spec, name="churn", seed=saved % 5)
        saved += 1
        codes.append(registry_main(["verify", "--registry", str(reg.path)]))
    removed = done.get(timeout=60)
    p.join(60)
    assert p.exitcode == 0 and removed > 0 and saved > 5
    assert set(codes) == {0}
    report = reg.verify()
    assert report.ok and keep.id in {i.id for i in reg.list()}
    reg.gc(grace_s=0)
    assert not reg.verify().leftovers
