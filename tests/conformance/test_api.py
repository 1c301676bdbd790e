"""Every game against PettingZoo's and Gymnasium's own checks, for both faces and every seat count.

PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` for ``env()`` and ``raw_env``;
registration (``pettingzoo.make`` by the spec's id, ``mythzoo.envs.make`` by name and alias);
for a solo game with a Gymnasium id: ``check_env``, ``gymnasium.make``, the ``SoloGymEnv`` contract
(masks, illegal actions, the end of an episode, the same game as the AEC env) and MaskablePPO.
"""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import mythzoo.envs
from conformance import games
from mythzoo.envs import IllegalActionError

FACES = ["env", "raw_env"]


# ------------------------------------------------------------------ PettingZoo's own tests
@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_pettingzoo_api_test(spec, seats: int, face: str) -> None:
    # num_cycles counts rounds of all agents; enough for the short games to finish
    api_test(games.make(spec, seats, face, **games.adapter(spec).short), num_cycles=1000)


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_pettingzoo_seed_test(spec, seats: int, face: str) -> None:
    short = games.adapter(spec).short
    seed_test(lambda: games.make(spec, seats, face, **short), num_cycles=500)


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_pettingzoo_render_test(spec, seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    """ansi returns the text, which starts with the game's name; human prints it and returns None."""
    name = spec.title.split(":")[0]
    render_test(
        lambda render_mode=None: games.make(spec, seats, "env", render_mode=render_mode),
        custom_tests={"ansi": lambda text: isinstance(text, str) and text.startswith(name)},
    )
    assert name in capsys.readouterr().out, "human mode prints the rendering"
    quiet = games.make(spec, seats)
    quiet.reset(seed=0)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None, "without a render mode render() returns None"


# ------------------------------------------------------------------ registration
@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_pettingzoo_make_and_mythzoo_make(spec, seats: int) -> None:
    e = pettingzoo.make("aec", spec.pettingzoo_id, **spec.size_kwargs(seats))
    assert isinstance(e.unwrapped, spec.env_module().raw_env)
    assert not e.unwrapped.strict, "the registered entry point must be env() (illegal actions end the game)"
    e.reset(seed=0)
    assert len(e.possible_agents) == seats
    for name in (spec.env_name, spec.name, *spec.aliases):
        assert mythzoo.envs.resolve(name) == spec.env_name
        made = mythzoo.envs.make(name, **spec.size_kwargs(seats))
        assert made.possible_agents == e.possible_agents and not made.unwrapped.strict
    if seats == spec.default_seats():
        assert len(pettingzoo.make("aec", spec.pettingzoo_id).possible_agents) == seats


def test_an_unknown_env_name_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="unknown env"):
        mythzoo.envs.make("no_such_game")


# ------------------------------------------------------------------ Gymnasium (solo games)
GYM = games.spec_params(lambda s: s.gymnasium_entry_point is not None)


def _gym_class(spec):
    module, attr = spec.gymnasium_entry_point.split(":")
    return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("spec", GYM)
def test_gymnasium_check_env(spec) -> None:
    from gymnasium.utils.env_checker import check_env

    cls = _gym_class(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(cls(**games.adapter(spec).short), skip_render_check=True)
        check_env(cls(render_mode="ansi"))


@pytest.mark.parametrize("spec", GYM)
def test_gym_env_plays_the_aec_game_with_action_masks(spec) -> None:
    """Masks as bools equal to the observation's; the same observations and rewards as the raw AEC env
    reset with the seed the Gym env draws; after the end a step raises until reset."""
    cls, short = _gym_class(spec), games.adapter(spec).short
    g = cls(**short)
    with pytest.raises(RuntimeError, match="reset"):
        g.action_masks()
    obs, info = g.reset(seed=3)
    aec = spec.make_raw(**short)
    aec.reset(seed=int(np.random.default_rng(3).integers(2**63)))
    agent = aec.possible_agents[0]
    rng = np.random.default_rng(0)
    done = False
    while not done:
        np.testing.assert_array_equal(obs["observation"], aec.observe(agent)["observation"])
        m = g.action_masks()
        assert m.dtype == bool and np.array_equal(m, obs["action_mask"].astype(bool)) and m.any()
        a = int(rng.choice(np.flatnonzero(m)))
        obs, r, term, trunc, info = g.step(a)
        aec.step(a)
        assert r == aec.rewards[agent]
        done = term or trunc
    assert term and not trunc
    with pytest.raises(RuntimeError, match="reset"):
        g.step(0)


@pytest.mark.parametrize("spec", GYM)
def test_gym_env_illegal_and_bad_actions(spec) -> None:
    cls = _gym_class(spec)
    g = cls()
    obs, _ = g.reset(seed=0)
    n = g.action_space.n
    for bad, error in (("3", TypeError), (True, TypeError), (1.5, TypeError), (-1, ValueError), (n, ValueError)):
        with pytest.raises(error):
            g.step(bad)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, trunc, info = g.step(illegal)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, illegal)
    strict = cls(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="illegal_action"):
        cls(illegal_action="ignore")


@pytest.mark.parametrize("spec", GYM)
def test_gym_env_turn_cap_truncates(spec) -> None:
    g = _gym_class(spec)(**games.adapter(spec).turn_cap)
    obs, _ = g.reset(seed=1)
    rng = np.random.default_rng(1)
    while True:
        obs, r, term, trunc, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break
    assert trunc and not term


@pytest.mark.slow
@pytest.mark.parametrize("spec", GYM)
def test_gymnasium_make_by_id_and_maskable_ppo_can_use_it(spec) -> None:
    """``gymnasium.make(spec.gymnasium_id)`` after ``import mythzoo.envs``; sb3-contrib's MaskablePPO
    finds ``action_masks`` through the wrappers gymnasium adds."""
    import gymnasium

    short = games.adapter(spec).short
    env = gymnasium.make(spec.gymnasium_id, **short)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    sb3 = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv([lambda: gymnasium.make(spec.gymnasium_id, **short)])
    assert is_masking_supported(vec)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (1, env.action_space.n) and masks.any()
    model = sb3.MaskablePPO("MultiInputPolicy", vec, n_steps=32, batch_size=32, seed=0, device="cpu")
    model.learn(64)
