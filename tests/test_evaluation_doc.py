"""docs/evaluation.md's replay example works as written: its commands run, and a replay into a file is
plain narrated lines (no carriage returns or escape sequences), the table every ``--board-every``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "evaluation.md"


def _example() -> list[str]:
    text = DOC.read_text()
    block = text.split("narrated replay in a file", 1)[1].split("\n\n", 2)[1]
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_replay_example_runs_and_prints_plain_narrated_lines(tmp_path: Path) -> None:
    commands = _example()
    assert [c.split()[:2] for c in commands] == [["mythzoo", "eval"], ["mythzoo", "replay"]]
    for command in commands:
        argv, _, target = command.partition(">")
        done = subprocess.run([sys.executable, "-m", *argv.split()], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        if target:
            (tmp_path / target.strip()).write_text(done.stdout)
    out = (tmp_path / "inn.txt").read_text()
    assert "\r" not in out and "\x1b" not in out
    decisions = re.findall(r"^\[(\d+)/(\d+)\] innkeeper \(heuristic\) plays ", out, re.M)
    total = int(decisions[0][1])
    assert len(decisions) == total > 100, "one line per decision"
    assert re.search(r"^     -> \+\d+ coins? at dusk \(now \d+\)$", out, re.M), "decisions are narrated with their effect"
    # The table at the start, every 100 decisions and at the end.
    assert out.count("== Inn ==") == 2 + (total - 1) // 100
