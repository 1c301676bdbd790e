"""Ctrl-C in a terminal while training on the Ray backend: the run saves its learner, says how to
resume, exits 130 without a traceback, and leaves no process of its own behind, Ray's included.

A file of its own: the run starts (and must end) its own local Ray cluster, apart from the cluster
the other Ray tests share."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray")

from interrupting import ctrl_c_while_training, group_ends

from mythzoo.policies.registry import Registry


def _processes_naming(text: str) -> list[str]:
    """Command lines of the running processes that contain ``text``."""
    out = []
    for pid in os.listdir("/proc"):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if pid.isdigit() and text in cmd:
            out.append(cmd)
    return out


def test_ctrl_c_on_the_ray_backend_saves_says_how_to_resume_and_stops_every_process(tmp_path: Path) -> None:
    # Ray's own processes (GCS, raylet) run in sessions of their own: a Ray temp dir of this test's
    # (short: Ray's socket paths must fit in 107 bytes) names them, to check that they end too.
    ray_tmp = tempfile.mkdtemp(prefix="mzray", dir="/tmp")
    rc, err, pgid = ctrl_c_while_training([
        "mythic_baths", "--backend", "ray", "--registry", str(tmp_path / "registry"), "total_timesteps=50000", "max_minutes=3",
        "num_envs=4", "num_workers=2", "n_steps=64", "batch_size=128", "n_epochs=1", "net_arch=[16,16]", "pretrain_teacher=null",
        "bc_coef=0", "snapshot_every=10000000", "eval_games=0", f"run_dir={tmp_path / 'runs'}", "name=tiny"], {"RAY_TMPDIR": ray_tmp})
    assert rc == 130, err
    assert "Traceback" not in err, err
    saved = Registry(tmp_path / "registry").resolve("tiny@latest")
    assert f"saved {saved.id}" in err and "resume with: mythzoo train mythic_baths_v1" in err, err
    resume_config = err.split("resume with: ", 1)[1].split("--config ", 1)[1].split()[0]
    assert "backend: ray" in Path(resume_config).read_text()  # the printed command resumes on Ray
    assert group_ends(pgid, 30), "processes of the interrupted run are still alive"  # the actors go with the driver
    deadline = time.monotonic() + 30
    while _processes_naming(ray_tmp) and time.monotonic() < deadline:  # and the local Ray cluster it started
        time.sleep(0.2)
    assert not _processes_naming(ray_tmp), _processes_naming(ray_tmp)
