"""The conventions other RL libraries rely on, for every registered game.

- ``state()`` / ``state_space``: the PRIVILEGED global state is one float32 shape for every table
  size, lies in ``state_space``, holds each agent's observation, changes when only hidden
  information changes (every observation staying the same), is a function of the game state
  (deterministic, the same after ``set_state``).
- Info keys: every agent's info keys are the same at every step from ``reset`` on (TorchRL and
  others allocate one slot per key at reset).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import mythzoo.envs
from mythzoo.envs.core.rng import make_rng, rng_to_json

from conformance import games


def _observations(env) -> dict[str, tuple[bytes, bytes]]:
    out = {}
    for a in env.agents:
        o = env.observe(a)
        out[a] = (o["observation"].tobytes(), o["action_mask"].tobytes())
    return out


# ------------------------------------------------------------------ state()
@pytest.mark.parametrize("spec", games.spec_params())
def test_state_space_is_one_float32_shape_for_every_table_size(spec):
    shapes = set()
    for n in spec.seat_counts():
        env = games.make(spec, n)
        space = env.state_space
        assert space.dtype == np.float32 and len(space.shape) == 1, space
        shapes.add(space.shape)
        for seed in (0, 1):
            env.reset(seed=seed)
            st = env.state()
            assert st.dtype == np.float32 and st.shape == space.shape and space.contains(st)
            assert len(env.unwrapped.state_features()) == st.size == env.unwrapped.state_layout().size
    assert len(shapes) == 1, f"{spec.env_name}: state shapes differ by table size: {shapes}"


@pytest.mark.parametrize("spec, seats", games.edge_seat_params())
def test_state_holds_every_agents_observation(spec, seats):
    env = games.started(spec, seats)
    views = env.state_layout().views(env.state())
    for a in env.possible_agents:
        assert np.array_equal(views[f"obs.{a}"], env.observe(a)["observation"]), a
    absent = [p.name for p in env.state_layout().pieces if p.name.startswith("obs.") and p.name[4:] not in env.possible_agents]
    for name in absent:
        assert not views[name].any(), f"{name}: an absent agent's slot must be zero"


@pytest.mark.parametrize("spec, seats", games.edge_seat_params())
def test_state_changes_with_the_generator_alone(spec, seats):
    """Only the future draws change: every observation and mask stays, the state does not."""
    env = games.started(spec, seats)
    before_obs, before = _observations(env), env.state()
    d = env.get_state()
    d["game"]["rng"] = rng_to_json(make_rng(987654321))
    env.set_state(d)
    assert _observations(env) == before_obs
    assert not np.array_equal(env.state(), before), f"{spec.env_name}: state() ignores the game's future draws"


@pytest.mark.parametrize("spec, seats", games.edge_seat_params())
def test_state_is_deterministic_and_survives_set_state(spec, seats):
    a, b = games.make(spec, seats, "raw_env"), games.make(spec, seats, "raw_env")
    a.reset(seed=5)
    b.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        sa = a.state()
        assert np.array_equal(sa, b.state()) and np.array_equal(sa, a.state())
        sa[:] = -7.0  # a new array each call: the caller may write into it
        assert not np.array_equal(a.state(), sa)
        fresh = games.make(spec, seats, "raw_env")
        fresh.set_state(copy.deepcopy(a.get_state()))
        assert np.array_equal(fresh.state(), a.state())
        if not a.agents or a.terminations[a.agent_selection] or a.truncations[a.agent_selection]:
            break
        act = int(rng.choice(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])))
        a.step(act)
        b.step(act)
    assert a.state_space.contains(a.state())


def test_state_before_reset_raises():
    env = games.make(games.specs()[0])
    with pytest.raises(RuntimeError, match="reset"):
        env.state()


def _reverse_piles(game: dict, piles: list[str]) -> dict:
    for key in piles:
        key, _, part = key.partition("/")
        v = game[key]
        if part == "below_top":  # a pile whose top card lies face up (the end of the list): only the rest is secret
            game[key] = list(reversed(v[:-1])) + v[-1:]
        elif v and isinstance(v[0], list):
            game[key] = [list(reversed(x)) for x in v]
        else:
            game[key] = list(reversed(v))
    return game


# Piles whose order no agent sees (contents may be known): reversing them changes what is drawn next.
SECRET_ORDER = {
    "mythic_baths": ["deck", "guest_deck/below_top", "manager_deck"],
    "mythsgate": ["inv_deck", "loc_deck"],
}


@pytest.mark.parametrize("spec, seats", games.edge_seat_params(lambda s: s.name in SECRET_ORDER))
def test_state_shows_the_secret_order_of_the_decks(spec, seats):
    env = games.started(spec, seats)
    before_obs, before = _observations(env), env.state()
    d = env.get_state()
    d["game"]["rng"] = rng_to_json(env.state_.rng)  # the same generator: only the piles' order differs
    _reverse_piles(d["game"], SECRET_ORDER[spec.name])
    env.set_state(d)
    assert _observations(env) == before_obs, "reordering a secret pile changed an observation"
    after = env.state()
    assert not np.array_equal(after, before)
    rng_at = env.state_layout().offset("rng_next")
    assert np.array_equal(after[rng_at:], before[rng_at:])


# ------------------------------------------------------------------ info keys
def _check_info_keys(env, keys: set[str], where: str) -> None:
    for a in env.agents:
        assert set(env.infos[a]) == keys, f"{where}: {a}'s info keys {sorted(env.infos[a])} != declared {sorted(keys)}"


@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize("spec, seats", games.edge_seat_params())
def test_info_keys_are_the_same_at_every_step(spec, seats, face):
    """Whole random games (some ended by an illegal action on the ``env`` face): the declared keys, always."""
    env = games.make(spec, seats, face, **games.adapter(spec).short)
    keys = set(env.unwrapped.info_keys())
    assert "illegal_action" in keys
    for game in range(3):
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        illegal_at = int(rng.integers(1, 40)) if face == "env" and game == 2 else -1
        _check_info_keys(env, keys, f"{spec.env_name} game {game} after reset")
        for step, agent in enumerate(env.agent_iter(20_000)):
            obs, _, term, trunc, info = env.last()
            assert set(info) == keys, f"{spec.env_name} game {game} step {step}: last() info keys {sorted(info)}"
            if term or trunc:
                env.step(None)
            else:
                mask = obs["action_mask"]
                if step == illegal_at and not mask.all():
                    env.step(int(np.flatnonzero(mask == 0)[0]))
                else:
                    env.step(int(rng.choice(np.flatnonzero(mask))))
            _check_info_keys(env, keys, f"{spec.env_name} game {game} step {step}")


@pytest.mark.parametrize("spec", games.spec_params())
def test_set_state_fills_info_keys_missing_from_an_older_state(spec):
    env = games.started(spec)
    d = env.get_state()
    for info in d["aec"]["infos"].values():
        info.pop("illegal_action")
    fresh = games.make(spec, None, "raw_env")
    fresh.set_state(d)
    _check_info_keys(fresh, set(fresh.info_keys()), spec.env_name)


# ------------------------------------------------------------------ rendering
def _draws_images(spec) -> bool:
    """Every shipped game must; a test's toy game that declares its own render modes may not."""
    return spec in mythzoo.envs.GAMES or "rgb_array" in spec.make_raw().metadata["render_modes"]


@pytest.mark.parametrize("spec, seats", games.edge_seat_params(_draws_images))
def test_rgb_array_render_is_an_image_of_one_shape_that_follows_the_game(spec, seats):
    env = games.make(spec, seats, render_mode="rgb_array", **games.adapter(spec).short)
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    frames = [env.render()]
    for _ in range(400):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        frames.append(env.render())
    first = frames[0]
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] >= 100 and first.shape[1] >= 100
    assert {f.shape for f in frames} == {first.shape}, "every frame of an env has the same shape"
    assert len({f.tobytes() for f in frames}) > len(frames) // 4, "the image follows the game"
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 4, "more than a blank panel"
    env.reset(seed=1)
    assert env.render().shape == first.shape


@pytest.mark.parametrize("spec", games.spec_params())
def test_an_unknown_render_mode_warns_and_renders_nothing(spec):
    with pytest.warns(UserWarning, match="render_mode 'rgb'"):
        env = games.make(spec, render_mode="rgb")
    assert env.render_mode is None
    env.reset(seed=0)
    assert env.render() is None


# ------------------------------------------------------------------ the bound on decisions
@pytest.mark.parametrize("spec, seats", games.seat_params())
def test_the_bound_on_decisions_is_on_the_env_for_its_arguments(spec, seats):
    for extra in ({}, games.adapter(spec).turn_cap):
        kw = spec.size_kwargs(seats, extra)
        for face in ("env", "raw_env"):
            env = spec.make(**kw) if face == "env" else spec.make_raw(**kw)
            bound = spec.decision_bound(kw)
            assert env.max_decisions == env.metadata["max_decisions"] == bound
            assert bound is None or (type(bound) is int and bound > 0)
    capped = games.make(spec, seats, **games.adapter(spec).turn_cap)
    assert capped.max_decisions <= games.make(spec, seats).max_decisions


@pytest.mark.parametrize("spec", games.spec_params(lambda s: s.decision_bound() is not None))
def test_no_random_game_takes_more_decisions_than_the_env_says(spec):
    env = games.make(spec, None, **games.adapter(spec).turn_cap)
    for seed in range(5):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        decisions = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
        assert decisions <= env.max_decisions


# ------------------------------------------------------------------ PettingZoo's own checks
@pytest.mark.parametrize("spec, seats", games.edge_seat_params(_draws_images))
def test_pettingzoo_state_test_and_render_test_pass(spec, seats):
    from pettingzoo.test import render_test
    from pettingzoo.test.state_test import test_state, test_state_space  # state_test() also wants a ParallelEnv

    kw = spec.size_kwargs(seats, games.adapter(spec).short)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on unbounded Box spaces; the state is as unbounded as the observations
        env = spec.make(**kw)
        test_state_space(env)
        test_state(env, num_cycles=200)
    render_test(lambda render_mode=None: spec.make(render_mode=render_mode, **kw))
