"""Random-simulation fuzzing of Mythsgate's round cap through the conformance harness.

The random games at every hero count (with ``rules.validate`` at every step: every card and token in
exactly one place, gems 0-10 conserved, lives within bounds, positions legal on the map), exact masks,
hidden information kept hidden, state round trips and followers and team-zero-sum rewards run in
``tests/conformance/test_simulation.py`` (``-k mythsgate``). Here: games cut by round caps other
than the suite's, truncated exactly at the cap.
"""

from __future__ import annotations

import pytest

import mythzoo.envs
from conformance import games
from conformance.harness import Options, run_simulation


@pytest.mark.parametrize("max_rounds", [1, 3])
@pytest.mark.parametrize("num_heroes", [1, 5], ids=lambda k: f"{k}heroes")
def test_random_games_round_cap_truncates(num_heroes: int, max_rounds: int) -> None:
    """Short games cut by a small round cap: truncated exactly at the cap (a draw)."""
    spec = mythzoo.envs.spec("mythsgate")
    report = run_simulation(games.target(spec), {"num_heroes": num_heroes, "max_rounds": max_rounds}, range(100, 103), Options(fork_every=15, env_exact_every=10))
    assert report.truncated + report.terminated == 3 and report.truncated >= 1, report.summary()
    assert report.ok, "\n" + report.summary()
