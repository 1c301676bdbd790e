"""The Mythic Baths design report runs on a tiny budget, is seeded, and its figures are consistent."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from design import mythic_baths as report  # noqa: E402


def test_design_report_runs_seeded_and_its_figures_are_consistent(capsys):
    assert report.main(["--games", "4", "--ban-games", "4"]) == 0
    first = capsys.readouterr().out
    assert report.main(["--games", "4", "--ban-games", "4"]) == 0
    assert capsys.readouterr().out == first  # seeded: the same command prints the same figures
    assert "--games 4 --ban-games 4" in first
    assert "| manager effects | 4 |" in first
    for n in report.PLAYER_COUNTS:  # each count's win shares add up to 1 (ties shared)
        row = next(line for line in first.splitlines() if line.startswith(f"| {n} | 4 |"))
        shares = [float(x) for x in re.findall(r"(\d\.\d{3}) \[", row.split("|")[3])]
        assert len(shares) == n and abs(sum(shares) - 1.0) < 0.01
    for est, lo, hi in re.findall(r"(\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]", first):
        assert float(lo) <= float(est) <= float(hi)  # every estimate inside its interval
    assert re.search(r"\*\*All targets met: (yes|no)\.\*\*", first)
    for manager in report.MANAGER_TRIGGERS:
        assert f"| {manager} |" in first


def test_design_report_write_replaces_only_the_marked_part(tmp_path, monkeypatch):
    doc = tmp_path / "d.md"
    doc.write_text(f"reasons\n{report.START}\nold\n{report.END}\nafter\n")
    monkeypatch.setattr(report, "DOC", doc)
    report.write_doc("new figures")
    assert doc.read_text() == f"reasons\n{report.START}\nnew figures\n{report.END}\nafter\n"
