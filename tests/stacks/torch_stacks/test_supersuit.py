"""SuperSuit on mythzoo: what fails on the env's Dict observation, what works on the padder's flat form.

The table in docs/stacks/supersuit.md is this file's result: every wrapper listed as working passes
PettingZoo's api_test on every game through ``pad_roles(..., form="flat")``, with the mask in the
infos still the env's; those listed as failing fail. And ``pad_action_space_v0`` on Mythsgate: the
mask out of step with the padded space, and a padded id stepped as action 0.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import supersuit as ss
from pettingzoo.test import api_test

from mythzoo.adapters.padding import pad_roles
from mythzoo.envs import GAMES, make

NAMES = [s.name for s in GAMES]


def _size(env) -> int:
    return env.observation_space(env.possible_agents[0]).shape[0]


WORKS = {
    "dtype_v0": lambda e: ss.dtype_v0(e, np.float32),
    "flatten_v0": ss.flatten_v0,
    "reshape_v0": lambda e: ss.reshape_v0(e, (_size(e), 1)),
    "frame_stack_v1": lambda e: ss.frame_stack_v1(e, 3),
    "frame_stack_v2": lambda e: ss.frame_stack_v2(e, 3),
    "delay_observations_v0": lambda e: ss.delay_observations_v0(e, 2),
    "max_observation_v0": lambda e: ss.max_observation_v0(e, 2),
    "observation_lambda_v0": lambda e: ss.observation_lambda_v0(e, lambda obs, space: obs * 2),
    "agent_indicator_v0": ss.agent_indicator_v0,
    "pad_observations_v0": ss.pad_observations_v0,
    "pad_action_space_v0": ss.pad_action_space_v0,
    "clip_reward_v0": ss.clip_reward_v0,
    "reward_lambda_v0": lambda e: ss.reward_lambda_v0(e, lambda r: r * 2),
}
FAILS = {
    "normalize_obs_v0": (ss.normalize_obs_v0, "infinite bounds"),
    "color_reduction_v0": (ss.color_reduction_v0, "3d image"),
    "resize_v1": (lambda e: ss.resize_v1(e, 4, 4), None),
}
OBSERVATION_WRAPPERS = ("dtype_v0", "flatten_v0", "reshape_v0", "frame_stack_v1", "frame_stack_v2", "max_observation_v0",
                        "observation_lambda_v0", "agent_indicator_v0", "pad_observations_v0")


def _api_test(env) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("wrapper", sorted(WORKS))
@pytest.mark.parametrize("name", NAMES)
def test_wrapper_works_on_the_flat_form(name: str, wrapper: str) -> None:
    padded = pad_roles(make(name), form="flat")
    env = WORKS[wrapper](padded)
    _api_test(env)
    # The mask the wrapped env hands out is still the env's own, padded, for the agent to move.
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(40):
        agent = env.agent_selection
        _, _, term, trunc, info = env.last()
        if term or trunc:
            break
        legal = list(np.flatnonzero(info["action_mask"]))
        assert legal == padded.unwrapped.legal_actions(agent)
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("wrapper", sorted(FAILS))
@pytest.mark.parametrize("name", NAMES)
def test_wrapper_fails_on_the_flat_form(name: str, wrapper: str) -> None:
    build, message = FAILS[wrapper]  # resize_v1 asserts without a message
    with pytest.raises(AssertionError, match=message):
        _api_test(build(pad_roles(make(name), form="flat")))


@pytest.mark.parametrize("wrapper", OBSERVATION_WRAPPERS)
def test_observation_wrappers_fail_on_the_dict_observation(wrapper: str) -> None:
    with pytest.raises((AssertionError, AttributeError, TypeError)):
        _api_test(WORKS[wrapper](make("mythic_baths")))


def test_pad_action_space_on_mythsgate_leaves_the_mask_and_maps_a_padded_id_to_zero() -> None:
    env = ss.pad_action_space_v0(make("mythsgate", num_heroes=2))
    env.reset(seed=0)
    while env.agent_selection != "invoker":
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.action_space("invoker").n == 230 and env.observe("invoker")["action_mask"].shape == (222,)
    env.step(225)
    assert env.infos["invoker"]["illegal_action"] == 0  # the env was handed action 0, not 225


def test_the_padder_rejects_the_same_padded_id() -> None:
    env = pad_roles(make("mythsgate", num_heroes=2), form="flat")
    env.reset(seed=0)
    while env.agent_selection != "invoker":
        env.step(int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0]))
    assert env.infos["invoker"]["action_mask"].shape == (230,) and not env.infos["invoker"]["action_mask"][222:].any()
    env.step(225)
    assert env.infos["invoker"]["illegal_action"] == 225 and env.rewards["invoker"] == -1.0
