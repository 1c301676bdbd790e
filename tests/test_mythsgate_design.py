"""Mythsgate's design report runs on a tiny budget, is seeded, and its figures agree with each other."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
design = pytest.importorskip("design.mythsgate")


def test_design_report_runs_on_a_tiny_budget_and_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "3", "--heroes", "1", "2"]
    assert design.main(argv) == 0
    first = capsys.readouterr().out
    assert design.main(argv) == 0
    assert capsys.readouterr().out == first, "the same command prints the same figures"
    assert "| 1 | heuristic-heuristic |" in first and "| 2 | random-random |" in first
    assert "All design targets:" in first and ("met" in first or "missed" in first)


def test_design_report_figures_are_consistent() -> None:
    for seed in range(3):
        g = design.play(2, "heuristic-heuristic", seed)
        assert g["winner"] in (-1, 0, 1)
        assert g["gems"] == g["sacrifices"], "every gem comes from one sacrifice"
        assert g["winner"] != 0 or g["gems"] == 10, "the Invoker wins only on the tenth gem"
        for key in ("inv_fights", "hero_fights", "encounters"):
            assert 0 <= g[key + "_won"] <= g[key]
        assert 0 <= g["armour"] <= 8 and g["track"] <= 8 and g["rounds"] >= 0
