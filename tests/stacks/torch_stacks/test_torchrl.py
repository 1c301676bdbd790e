"""TorchRL's PettingZooWrapper on every mythzoo game (mythzoo.adapters.torchrl).

check_env_specs on every game, table size and several seeds (seed 0 included), with and without
breaking at a finished game; the masks TorchRL hands a policy are the env's for every agent to act;
one group for all agents through the role padder; and the stock wrapper's failure that the adapter
fixes, so the override can go once TorchRL fixes it.
"""

from __future__ import annotations

import pytest
import torch
from torchrl.envs import PettingZooWrapper as StockPettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType, check_env_specs, step_mdp

from mythzoo.adapters.padding import FORMS, pad_roles
from mythzoo.adapters.torchrl import PettingZooWrapper
from mythzoo.envs import GAMES, make

SEEDS = (0, 1, 2, 3, 4)
TABLES = [(s.name, size) for s in GAMES for size in (s.sizes or (None,))]


def _kwargs(name: str, size: int | None) -> dict:
    s = next(g for g in GAMES if g.name == name)
    return {} if size is None else {s.size_argument: size}


@pytest.mark.parametrize(("name", "size"), TABLES, ids=[f"{n}-{s}" for n, s in TABLES])
def test_check_env_specs_every_game_size_and_seed(name: str, size: int | None) -> None:
    env = PettingZooWrapper(env=make(name, **_kwargs(name, size)), use_mask=True)
    for seed in SEEDS:
        check_env_specs(env, seed=seed, break_when_any_done="both")


def test_stock_wrapper_still_fails_at_a_finished_game() -> None:
    """The TorchRL behaviour mythzoo's wrapper fixes: a Mythic Baths game capped at one turn ends
    within check_env_specs' rollout, which then samples a finished player's all-zero mask. When
    this stops failing, TorchRL has fixed it and mythzoo.adapters.torchrl can go."""
    failed = 0
    for seed in range(5):  # a few seeds: one CI run saw seed 0 pass once, unexplained (it fails in every run here)
        torch.manual_seed(seed)
        env = StockPettingZooWrapper(env=make("mythic_baths", max_turns=1), use_mask=True)
        try:
            check_env_specs(env, seed=seed)
        except RuntimeError as e:
            assert "invalid multinomial distribution" in str(e)
            failed += 1
    assert failed >= 1


@pytest.mark.parametrize("name", [s.name for s in GAMES])
def test_masks_are_the_envs_for_every_agent_to_act(name: str) -> None:
    """Random games to the end: the agent to move has the env's own mask, every other agent (and a
    finished one) the all-true mask TorchRL gives an agent whose action is ignored; the action spec
    holds the same masks, and every action played is legal."""
    env = PettingZooWrapper(env=make(name), use_mask=True)
    raw = env._env
    ends = 0
    for seed in range(3):
        torch.manual_seed(seed)
        td = env.reset(seed=seed)
        for _ in range(2000):
            sel = raw.agent_selection
            done = raw.terminations[sel] or raw.truncations[sel]
            for group, agents in env.group_map.items():
                mask = td[group, "action_mask"][0]
                assert torch.equal(env.full_action_spec[group, "action"].mask[0], mask)
                if agents[0] == sel and not done:
                    assert torch.equal(mask, torch.as_tensor(raw.observe(sel)["action_mask"], dtype=torch.bool))
                    assert bool(td[group, "mask"][0])
                else:
                    assert bool(mask.all())
            if done:
                ends += 1
                break
            td = env.rand_action(td)
            group = next(g for g, agents in env.group_map.items() if agents[0] == sel)
            assert int(td[group, "action"][0]) in raw.legal_actions(sel)
            td = step_mdp(env.step(td))
    assert ends == 3


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", [s.name for s in GAMES])
def test_one_group_for_all_agents_through_the_padder(name: str, form: str) -> None:
    env = PettingZooWrapper(env=pad_roles(make(name), form=form), use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    agents = make(name).possible_agents
    assert env.group_map == {"agents": agents}
    n_max = max(make(name).action_space(a).n for a in agents)
    assert env.full_action_spec["agents", "action"].space.n == n_max
    for seed in SEEDS[:3]:
        check_env_specs(env, seed=seed)
    # Padded ids are never in the mask TorchRL samples from.
    td = env.reset(seed=0)
    for _ in range(50):
        for i, a in enumerate(agents):
            own = env._env.own_action_count(a)
            if bool(td["agents", "mask"][i]):
                assert not td["agents", "action_mask"][i, own:].any()
        td = step_mdp(env.step(env.rand_action(td)))
        if bool(td["done"]):
            break


@pytest.mark.parametrize(("name", "size"), TABLES, ids=[f"{n}-{s}" for n, s in TABLES])
def test_return_state_is_the_envs_global_state(name: str, size: int | None) -> None:
    inner = make(name, **_kwargs(name, size))
    env = PettingZooWrapper(env=inner, use_mask=True, return_state=True)
    assert env.observation_spec["state"].shape == inner.state_space.shape
    for seed in SEEDS[:2]:
        check_env_specs(env, seed=seed)
    td = env.reset(seed=3)
    assert torch.equal(td["state"], torch.as_tensor(inner.state()))
    td = env.step(env.rand_action(td))
    assert torch.equal(td["next", "state"], torch.as_tensor(inner.state()))


def test_return_state_through_the_padder() -> None:
    env = PettingZooWrapper(env=pad_roles(make("mythsgate", num_heroes=3), form="flat"), use_mask=True,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP, return_state=True)
    check_env_specs(env, seed=0)
    td = env.reset(seed=1)
    assert torch.equal(td["state"], torch.as_tensor(env._env.unwrapped.state()))


@pytest.mark.parametrize("name", [s.name for s in GAMES])
def test_an_illegal_action_has_its_info_slot(name: str) -> None:
    """Every info key is there from reset, so an illegal action's info fits TorchRL's spec."""
    inner = make(name)
    env = PettingZooWrapper(env=inner, use_mask=True)
    td = env.reset(seed=0)
    agent = inner.agent_selection
    illegal = next(a for a in range(inner.action_space(agent).n) if a not in inner.legal_actions(agent))
    td = env.rand_action(td)
    td[agent, "action"] = torch.tensor([illegal])
    out = env.step(td)
    assert int(out["next", agent, "info", "illegal_action"][0]) == illegal
    assert bool(out["next", "done"]) and float(out["next", agent, "reward"][0]) == -1.0
