"""Shared pytest options, and the toy games of mythzoo's tests.

The toy games are registered below, one line each: from then on they are games like the shipped
ones, and the conformance suite (``tests/conformance/``, parametrized over ``mythzoo.envs.SPECS``)
runs on them too.

``--fuzz-games N``: random games per seat count in the simulation tests
(``tests/conformance/test_simulation.py``; default: each game's own count in
``tests/conformance/games.py``, 25 for Mythic Baths, about a minute on 2 cores). A long fuzz run:
``pytest tests/conformance/test_simulation.py --fuzz-games 2000 -n 16`` (``-k mythsgate`` for one
game); the games are split into chunks of ``--fuzz-chunk`` (default 13) so xdist spreads them.
``--fuzz-seed S``: first game seed (default 0), to fuzz fresh games in a later run.
``--fuzz-thorough``: every harness check at every step (``conformance.harness.Options.thorough()``).
"""

from __future__ import annotations

import os

import pytest

import toy_asymmetric
import toy_game.spec
from mythzoo.envs import register

register(toy_game.spec.SPEC)
register(toy_asymmetric.SPEC)

# tests/stacks/<stack>/ runs only in that stack's own venv (`make test-stack-<stack>` sets
# MYTHZOO_STACK); the main venv's run never collects it.
collect_ignore = [] if os.environ.get("MYTHZOO_STACK") else ["stacks"]

DEFAULT_FUZZ_GAMES = 25


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory):
    """SB3 makes a folder for its logger on every ``learn()`` without a TensorBoard folder
    (``$SB3_LOGDIR``, else a new ``SB3-<time>`` folder in the system's temporary folder): the
    tests' models log under pytest's own temporary folder instead of littering it."""
    old = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if old is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = old


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mythzoo fuzzing")
    group.addoption("--fuzz-games", type=int, default=None, help="random games per seat count in the simulation tests (default: each game's own count)")
    group.addoption("--fuzz-chunk", type=int, default=13, help="games per test item, so xdist can spread long runs (default %(default)s)")
    group.addoption("--fuzz-seed", type=int, default=0, help="seed of the first fuzz game (default %(default)s)")
    group.addoption("--fuzz-thorough", action="store_true", help="run every harness check at every step (about 3x slower)")


def fuzz_ranges(config: pytest.Config, default_games: int) -> list[range]:
    """``--fuzz-games`` (or ``default_games``) seeds from ``--fuzz-seed``, in chunks of ``--fuzz-chunk``."""
    games = config.getoption("--fuzz-games")
    games = default_games if games is None else games
    chunk = max(1, config.getoption("--fuzz-chunk"))
    first = config.getoption("--fuzz-seed")
    return [range(first + i, first + min(i + chunk, games)) for i in range(0, max(games, 0), chunk)]


@pytest.fixture
def fuzz_options(request: pytest.FixtureRequest):
    """The harness options for the fuzz tests (``--fuzz-thorough`` for every check at every step)."""
    from conformance.harness import Options

    return Options.thorough() if request.config.getoption("--fuzz-thorough") else Options()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``fuzz_seeds`` with ranges of game seeds: ``--fuzz-games`` (default 25) split into chunks."""
    if "fuzz_seeds" in metafunc.fixturenames:
        ranges = fuzz_ranges(metafunc.config, DEFAULT_FUZZ_GAMES)
        metafunc.parametrize("fuzz_seeds", ranges, ids=[f"seeds{r.start}-{r.stop - 1}" for r in ranges])
