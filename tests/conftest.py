"""Shared pytest options for mythzoo's tests.

``--fuzz-games N``: games per player count in ``test_simulation.py`` (default 25, about a minute
on 2 cores). A long fuzz run: ``pytest tests/test_simulation.py --fuzz-games 2000 -n 16``; the
games are split into chunks of ``--fuzz-chunk`` (default 13) so xdist spreads them over workers.
``--fuzz-seed S``: first game seed (default 0), to fuzz fresh games in a later run.
``--fuzz-thorough``: every harness check at every step (``harness.Options.thorough()``).
"""

from __future__ import annotations

import pytest

DEFAULT_FUZZ_GAMES = 25


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mythzoo fuzzing")
    group.addoption("--fuzz-games", type=int, default=DEFAULT_FUZZ_GAMES, help="random games per player count in test_simulation.py (default %(default)s)")
    group.addoption("--fuzz-chunk", type=int, default=13, help="games per test item, so xdist can spread long runs (default %(default)s)")
    group.addoption("--fuzz-seed", type=int, default=0, help="seed of the first fuzz game (default %(default)s)")
    group.addoption("--fuzz-thorough", action="store_true", help="run every harness check at every step (about 3x slower)")


@pytest.fixture
def fuzz_options(request: pytest.FixtureRequest):
    """The harness options for the fuzz tests (``--fuzz-thorough`` for every check at every step)."""
    from harness import Options

    return Options.thorough() if request.config.getoption("--fuzz-thorough") else Options()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``fuzz_seeds`` with ranges of game seeds: ``--fuzz-games`` split into chunks."""
    if "fuzz_seeds" in metafunc.fixturenames:
        games = metafunc.config.getoption("--fuzz-games")
        chunk = max(1, metafunc.config.getoption("--fuzz-chunk"))
        first = metafunc.config.getoption("--fuzz-seed")
        ranges = [range(first + i, first + min(i + chunk, games)) for i in range(0, max(games, 0), chunk)]
        metafunc.parametrize("fuzz_seeds", ranges, ids=[f"seeds{r.start}-{r.stop - 1}" for r in ranges])
