"""Role padding (mythzoo.adapters.padding): PettingZoo's api_test, and a padded id is never legal.

Every registered game (the shipped ones and the tests' toy games), both forms. The padded env must
be the wrapped env at common sizes and nothing else: the same game, step for step, with every
agent's own observation and mask at the front and zeros after them.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from mythzoo.adapters.padding import FORMS, PaddedRolesEnv, pad_roles
from mythzoo.envs import SPECS, make, spec
from mythzoo.envs.core.errors import IllegalActionError

GAME_NAMES = sorted(SPECS)


def _padded(name: str, form: str, strict: bool = False, **kw) -> PaddedRolesEnv:
    s = spec(name)
    return pad_roles(s.make_raw(**kw) if strict else s.make(**kw), form=form)


def _mask(env: PaddedRolesEnv, agent: str) -> np.ndarray:
    return env.observe(agent)["action_mask"] if env.form == "dict" else env.infos[agent]["action_mask"]


def _obs_vector(env: PaddedRolesEnv, agent: str) -> np.ndarray:
    return env.observe(agent)["observation"] if env.form == "dict" else env.observe(agent)


@pytest.mark.parametrize("strict", [False, True], ids=["env", "raw_env"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_api_test(name: str, form: str, strict: bool) -> None:
    env = _padded(name, form, strict=strict)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (agent names, infinite bounds) is not a failure
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_one_space_for_every_agent_at_the_largest_sizes(name: str, form: str) -> None:
    inner = make(name)
    env = pad_roles(inner, form=form)
    agents = inner.possible_agents
    obs_sizes = [inner.observation_space(a)["observation"].shape[0] for a in agents]
    act_sizes = [inner.action_space(a).n for a in agents]
    first = env.observation_space(agents[0])
    assert all(env.observation_space(a) == first for a in agents)
    assert all(env.action_space(a).n == max(act_sizes) for a in agents)
    box = first["observation"] if form == "dict" else first
    assert box.shape == (max(obs_sizes),) and box.dtype == np.float32
    if form == "dict":
        assert first["action_mask"].shape == (max(act_sizes),)
    for a in agents:
        assert env.own_action_count(a) == inner.action_space(a).n
        assert env.own_observation_size(a) == inner.observation_space(a)["observation"].shape[0]


def test_mythsgate_pads_the_invoker_actions_and_the_heroes_observations() -> None:
    env = pad_roles(make("mythsgate", num_heroes=2))
    inner = env.unwrapped
    n_inv, n_hero = inner.action_space("invoker").n, inner.action_space("hero_0").n
    l_inv, l_hero = (inner.observation_space(a)["observation"].shape[0] for a in ("invoker", "hero_0"))
    assert n_inv < n_hero and l_hero < l_inv  # each role is padded on one side
    assert env.action_space("invoker").n == n_hero and env.observation_space("hero_0")["observation"].shape == (l_inv,)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_padded_env_is_the_wrapped_game_step_for_step(name: str, form: str) -> None:
    """Random games: the padded env and a twin unpadded env get the same actions and must agree on
    every observation (the padded one is the own one then zeros), mask, reward and flag; no padded
    id is ever legal for anyone."""
    for seed in range(3):
        env, twin = _padded(name, form), make(name)
        env.reset(seed=seed)
        twin.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_iter=400):
            assert agent == twin.agent_selection
            for a in env.agents:
                own_obs, own_mask = twin.observe(a)["observation"], twin.observe(a)["action_mask"]
                obs, mask = _obs_vector(env, a), _mask(env, a)
                n, k = own_obs.shape[0], own_mask.shape[0]
                assert obs.dtype == np.float32 and np.array_equal(obs[:n], own_obs) and not obs[n:].any()
                assert mask.dtype == np.int8 and np.array_equal(mask[:k], own_mask) and not mask[k:].any()
            _, reward, term, trunc, info = env.last()
            assert (reward, term, trunc) == twin.last(observe=False)[1:4]
            if form == "flat":
                assert set(info) == set(twin.infos[agent]) | {"action_mask"}
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(_mask(env, agent))))
            env.step(action)
            twin.step(action)
        assert env.rewards == twin.rewards


@pytest.mark.parametrize("name", GAME_NAMES)
def test_dict_form_of_equal_sizes_is_a_pass_through(name: str) -> None:
    inner = make(name)
    agents = inner.possible_agents
    sizes = {(inner.observation_space(a)["observation"].shape, inner.action_space(a).n) for a in agents}
    if len(sizes) > 1:
        pytest.skip("agents of different sizes are padded")
    env = pad_roles(inner)
    env.reset(seed=3)
    for a in agents:
        assert env.observation_space(a) == inner.observation_space(a) and env.action_space(a) == inner.action_space(a)
        got, want = env.observe(a), inner.observe(a)
        assert all(np.array_equal(got[k], want[k]) for k in ("observation", "action_mask"))


def _padded_agent_states(name: str, strict: bool, form: str, seeds: range = range(20)):
    """(env, agent, a padded id) at the first state where the agent to move has padded ids."""
    env = _padded(name, form, strict=strict)
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_iter=300):
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if env.own_action_count(agent) < env.action_space(agent).n:
                yield env, agent, int(rng.integers(env.own_action_count(agent), env.action_space(agent).n))
                break
            env.step(int(rng.choice(np.flatnonzero(_mask(env, agent)))))


PADDED_GAMES = [n for n in GAME_NAMES if len({make(n).action_space(a).n for a in make(n).possible_agents}) > 1]


def test_some_game_has_padded_actions() -> None:
    assert "mythsgate_v2" in PADDED_GAMES


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", PADDED_GAMES)
def test_padded_id_raises_in_raw_env_and_changes_nothing(name: str, form: str) -> None:
    found = 0
    for env, agent, padded_id in _padded_agent_states(name, strict=True, form=form):
        before = env.get_state()
        with pytest.raises(IllegalActionError, match=f"illegal action {padded_id}"):
            env.step(padded_id)
        with pytest.raises(IllegalActionError):
            env.step(np.int64(padded_id))
        assert env.get_state() == before
        found += 1
    assert found >= 5


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", PADDED_GAMES)
def test_padded_id_ends_the_game_as_any_illegal_action(name: str, form: str) -> None:
    """env(): a padded id ends the game exactly as an illegal id of the agent's own does (-1 for
    the offender, 0 for the others, the id in its info); it is never mapped to a legal action."""
    found = 0
    for env, agent, padded_id in _padded_agent_states(name, strict=False, form=form):
        own_illegal = [a for a in range(env.own_action_count(agent)) if not _mask(env, agent)[a]]
        if not own_illegal:
            continue
        twin = copy.deepcopy(env.unwrapped)
        twin.step(own_illegal[0])
        env.step(padded_id)
        assert all(env.terminations.values()) and not any(env.truncations.values())
        assert env.rewards == twin.rewards and env.rewards[agent] == -1.0
        assert env.infos[agent]["illegal_action"] == padded_id
        assert not _mask(env, agent).any()
        found += 1
    assert found >= 5


@pytest.mark.parametrize("name", GAME_NAMES)
def test_flat_form_mask_in_infos_from_reset_only_for_the_agent_to_move(name: str) -> None:
    env = _padded(name, "flat")
    env.reset(seed=1)
    for _ in range(30):
        infos = env.infos
        assert set(infos) == set(env.agents)
        for a, info in infos.items():
            mask = info["action_mask"]
            assert mask.shape == (env.num_actions,) and mask.dtype == np.int8
            assert mask.any() == (a == env.agent_selection and not (env.terminations[a] or env.truncations[a]))
            assert list(np.flatnonzero(mask)) == env.unwrapped.legal_actions(a)
        assert env.last()[4] is env.infos[env.agent_selection]  # one object until the env changes
        _, _, term, trunc, info = env.last()
        if term or trunc:
            break
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_out_of_range_and_bad_arguments_are_one_line_errors() -> None:
    env = _padded("mythsgate", "dict")
    env.reset(seed=0)
    before = env.get_state()
    with pytest.raises(ValueError, match=r"outside the padded action space Discrete\(230\)"):
        env.step(230)
    with pytest.raises(ValueError, match="outside the padded"):
        env.step(-1)
    with pytest.raises(TypeError):
        env.step("0")
    assert env.get_state() == before
    with pytest.raises(ValueError, match="form must be one of"):
        pad_roles(make("mythsgate"), form="concat")
    with pytest.raises(TypeError, match="mythzoo AEC env"):
        pad_roles(object())  # type: ignore[arg-type]


def test_set_state_refreshes_the_flat_infos() -> None:
    env = _padded("mythsgate", "flat")
    env.reset(seed=2)
    start = env.get_state()
    first_mask = env.infos[env.agent_selection]["action_mask"].copy()
    env.step(int(np.flatnonzero(first_mask)[0]))
    env.set_state(start)
    assert np.array_equal(env.infos[env.agent_selection]["action_mask"], first_mask)


def test_torchrl_adapter_names_its_extra_when_torchrl_is_missing() -> None:
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("torchrl") is not None:
        pytest.skip("torchrl is installed here (its stack venv tests the adapter)")
    run = subprocess.run([sys.executable, "-c", "import mythzoo.adapters.torchrl"], capture_output=True, text=True)
    assert run.returncode != 0
    assert run.stderr.strip().splitlines()[-1] == "ImportError: mythzoo.adapters.torchrl needs TorchRL (torchrl is missing): pip install mythzoo[torchrl]"
