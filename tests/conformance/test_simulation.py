"""Random-simulation fuzzing of every registered game through the game-generic harness (``harness.py``).

Default: each game's ``fuzz_games`` (``games.py``) random games per seat count, every check of the
harness at its default schedule; ``pytest tests/conformance/test_simulation.py --fuzz-games 2000 -n 16``
for a long run (``--fuzz-seed`` for fresh games, ``--fuzz-thorough`` for every check at every step,
``-k mythsgate`` for one game). A failure message lists every failing check with its category and
the seat count, game seed and step that reproduce it:
``harness.play_game(games.target(spec), spec.size_kwargs(seats), seed)``.

Also: games cut by the turn cap (the truncation path), a few games in every declared reward mode,
and the harness's own sanity: it catches a leak, a stale mask and a lossy ``set_state`` in any game.
"""

from __future__ import annotations

import dataclasses
import json
import zlib

import pytest
from conftest import fuzz_ranges

import mythzoo.envs
from conformance import games
from conformance.harness import Options, Target, play_game, run_simulation
from mythzoo.envs.core.rng import make_rng


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``sim``: (spec, seats, seeds) for every game and seat count, the games split into chunks
    (marked ``slow``: the bulk of the suite's time; ``-m "not slow"`` leaves them out)."""
    if "sim" in metafunc.fixturenames:
        params = []
        for spec in games.specs():
            entry = games.ADAPTERS.get(spec.name)
            default = entry.fuzz_games if entry else games.DEFAULT_FUZZ_GAMES
            for seats in spec.seat_counts():
                for r in fuzz_ranges(metafunc.config, default):
                    params.append(pytest.param((spec, seats, r), id=f"{spec.name}-{seats}p-seeds{r.start}-{r.stop - 1}", marks=pytest.mark.slow))
        metafunc.parametrize("sim", params)


def test_random_games(sim, fuzz_options: Options) -> None:
    spec, seats, seeds = sim
    report = run_simulation(games.target(spec), spec.size_kwargs(seats), seeds, fuzz_options)
    print(report.summary())
    assert report.games == len(seeds)
    assert report.ok, "\n" + report.summary()


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_random_games_cut_by_the_turn_cap(spec, seats: int) -> None:
    """Short games cut by a small turn cap (``turn_cap`` of the adapter): truncated exactly at the cap."""
    cap = games.adapter(spec).turn_cap
    target, kwargs, options = games.target(spec), spec.size_kwargs(seats, cap), Options(fork_every=15, env_exact_every=10)
    report = None
    for seed in range(1000, 1006):  # two games, or more until one is cut
        report = play_game(target, kwargs, seed, options, report)
        if report.games >= 2 and report.truncated:
            break
    assert report.truncated >= 1, f"a turn cap of {cap} truncated none of {report.games} games\n{report.summary()}"
    assert report.ok, "\n" + report.summary()


@pytest.mark.parametrize("spec", games.spec_params(lambda s: len(s.reward_modes) > 1))
def test_random_games_in_every_reward_mode(spec) -> None:
    """Each declared reward mode but the default, with the harness's checks (the utility included)."""
    for mode in spec.reward_modes[1:]:
        kwargs = spec.size_kwargs(None, {**games.adapter(spec).short, "reward_mode": mode})
        report = run_simulation(games.target(spec), kwargs, range(2000, 2002), Options(exact_every=3, fork_every=100))
        assert report.games == 2 and report.ok, f"reward_mode={mode!r}\n" + report.summary()


# ------------------------------------------------------------------ the harness is not vacuous
def _subclass(spec, **methods):
    return type(f"Broken_{spec.name}", (spec.env_module().raw_env,), methods)


def _until_caught(spec, target: Target, category: str, options: Options) -> None:
    """Games (cut short by the turn cap first, then whole) until the harness reports ``category``."""
    entry, report = games.adapter(spec), None
    for extra, seeds in (({**entry.short, **entry.turn_cap}, range(2)), (entry.short, range(4))):
        for seed in seeds:
            report = play_game(target, spec.size_kwargs(None, extra), seed, options)
            if category in report.counts:
                return
    pytest.fail(f"the harness did not catch {category!r} in {spec.env_name}\n{report.summary()}")


@pytest.mark.parametrize("spec", games.spec_params(lambda s: s.name not in games.ADAPTERS or games.ADAPTERS[s.name].perturb_hidden is not None))
def test_harness_detects_a_leak(spec) -> None:
    """An observation that shows a trace of what ``hidden_view`` says is hidden from the observer is caught."""
    hidden_view = games.adapter(spec).hidden_view

    def observe(self, agent):
        o = super(type(self), self).observe(agent)
        hidden = hidden_view(self.get_state()["game"], self.possible_agents.index(agent))
        o["observation"][0] += (zlib.crc32(json.dumps(hidden, sort_keys=True).encode()) % 997 + 1) / 997
        return o

    leaky = _subclass(spec, observe=observe)
    _until_caught(spec, games.target(spec, make_raw=leaky), "hidden information leaks into an observation",
                  Options(exact_every=50, env_exact_every=1000, fork_every=1000, hidden_every=1, illegal_samples=0))


@pytest.mark.parametrize("spec", games.spec_params())
def test_harness_detects_a_stale_mask(spec) -> None:
    """A mask that disagrees with the engine (one id flipped from the third decision on) is caught."""

    def observe(self, agent):
        o = super(type(self), self).observe(agent)
        if self.rules.turns_played(self.state_) >= 1 and o["action_mask"].any():
            o["action_mask"] = o["action_mask"].copy()
            o["action_mask"][-1] ^= 1
        return o

    stale = _subclass(spec, observe=observe)
    _until_caught(spec, games.target(spec, make_raw=stale), "mask != engine legal actions", Options(exact_every=50, hidden_every=1000, fork_every=1000))


@pytest.mark.parametrize("spec", games.spec_params())
def test_harness_detects_a_lossy_set_state(spec) -> None:
    """A ``set_state`` that drops part of the state (here the game's RNG) is caught by the JSON follower."""

    def set_state(self, state):
        super(type(self), self).set_state(state)
        self.state_.rng = make_rng(12345)

    lossy = _subclass(spec, set_state=set_state)
    _until_caught(spec, games.target(spec, make_raw=lossy), "JSON follower diverges", Options(exact_every=50, hidden_every=1000))


def test_harness_checks_the_declared_utility() -> None:
    """A game that pays one agent more than its declared zero-sum utility allows is caught."""
    spec = mythzoo.envs.spec("toy_game")

    def _final_rewards(self, s):
        return [r + 0.5 for r in super(type(self), self)._final_rewards(s)]

    rich = _subclass(spec, _final_rewards=_final_rewards)
    _until_caught(spec, games.target(spec, make_raw=rich), "zero-sum rewards", Options(exact_every=50, hidden_every=1000, fork_every=1000))


def test_harness_checks_the_declared_max_decisions() -> None:
    """A game that takes more decisions than its spec declares is caught."""
    spec = mythzoo.envs.spec("toy_game")
    short = dataclasses.replace(spec, max_decisions=lambda kwargs: 3)
    report = play_game(games.target(short), spec.size_kwargs(None), 0, Options(exact_every=50, hidden_every=1000, fork_every=1000))
    assert "more decisions than the declared max_decisions" in report.counts, report.summary()

