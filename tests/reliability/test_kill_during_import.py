"""``kill -9`` in the middle of an import: the registry holds all of the archive or none of it, every
checkpoint it held before is untouched, the dead import's folders are leftovers that ``gc`` removes at
once (the kernel released their locks), and importing again works. (A save killed mid-way is
``tests/test_registry.py::test_process_killed_mid_save_leaves_a_consistent_registry``.)"""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from mythzoo.policies.registry import Registry

from .helpers import snapshot


def _die_importing(path: str, archive: str, stage: str) -> None:
    def hook(self: Registry, s: str) -> None:
        if s == stage:
            os.kill(os.getpid(), signal.SIGKILL)

    Registry._hook = hook  # only in this child
    Registry(path).import_(archive)


@pytest.mark.parametrize("stage", ["staged", "renamed"])
def test_an_import_killed_mid_way_leaves_all_or_nothing(stage: str, reg: Registry, kept, export: Path) -> None:
    before = snapshot(reg)
    p = multiprocessing.get_context("spawn").Process(target=_die_importing, args=(str(reg.path), str(export), stage))
    p.start()
    p.join(60)
    assert p.exitcode == -signal.SIGKILL
    assert snapshot(reg)[:3] == before[:3]  # the same entries, ratings and evals: none of the archive
    report = reg.verify()
    assert report.ok and len(report.leftovers) == 1
    assert len(reg.gc(grace_s=0)) == 1 and not reg.verify().leftovers
    (info,) = reg.import_(export)
    assert info.name == "shipped" and reg.ratings(info.id)[0].games == 50
    reg.load_weights(info.id)
    assert reg.verify().ok
