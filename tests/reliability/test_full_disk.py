"""A full disk loses nothing: saves made while every file write may fail at some size (``RLIMIT_FSIZE``,
which fails writes as a full disk does) either succeed or raise one clear error, and afterwards every
acknowledged checkpoint is whole, nothing half-written is visible, and the registry verifies.

Issue 15 found an uncaught ``database or disk is full`` at the index commit (5 of 40 levels).
"""

from __future__ import annotations

import multiprocessing
import resource
import signal

import pytest

from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry import Registry, RegistryError

from mythzoo.policies.neural import init_mlp_weights

from .helpers import ACTIONS, OBS, result_of

LEVELS = range(1, 80)  # file-size limits, in 4 KiB pages: below the index, between it and the weights, above both


def _save_at_each_limit(path: str, spec: EnvSpec, results) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an over-limit write then fails with EFBIG instead of killing us
    reg = Registry(path)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    out = []
    w, arch = init_mlp_weights(OBS, ACTIONS, (64,), seed=0)  # a 160 KB weights file: larger than the index
    for k in LEVELS:
        for attempt in range(3):  # the index's log grows between attempts: several commits per level
            resource.setrlimit(resource.RLIMIT_FSIZE, (k * 4096, hard))
            try:
                info = reg.register("full", w, arch, env_spec=spec, algo="ppo", steps=attempt)
                out.append(("ok", info.id))
            except RegistryError as e:
                out.append(("index", str(e)))
            except OSError as e:
                out.append(("file", f"{type(e).__name__}: {e}"))
            finally:
                resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    results.put(out)


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
def test_saves_on_a_full_disk_fail_cleanly_and_lose_nothing(reg: Registry, kept, env_spec: EnvSpec) -> None:
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    p = ctx.Process(target=_save_at_each_limit, args=(str(reg.path), env_spec, results))
    p.start()
    out = result_of(p, results, timeout=240)  # the child exited 0: every failure was one of the two clear kinds
    kinds = [k for k, _ in out]
    assert "ok" in kinds and "file" in kinds, kinds
    for kind, text in out:
        if kind != "ok":
            assert "\n" not in text and text
        if kind == "index":
            assert text.startswith("index ") and "nothing was changed" in text, text
    acked = [text for kind, text in out if kind == "ok"]
    assert {i.id for i in reg.list()} == {kept.id, *acked}  # every acknowledged save, and nothing else
    for cid in [kept.id, *acked]:
        reg.load_weights(cid)
    assert [i.version for i in reg.list("full")] == sorted(i.version for i in reg.list("full"))
    report = reg.verify()
    assert report.ok, report.errors
    reg.gc(grace_s=0)
    assert not reg.verify().leftovers
