"""The pieces every evaluation shares: who won (``outcome``), the one game loop (``runner``), the t
quantile, the worker count, the table, and that the package imports and plays without torch."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.evaluation import (
    GameRecord,
    StopGame,
    Table,
    default_workers,
    format_table,
    load_policy,
    outcome,
    play_games,
    play_one,
    score_from_return,
    seat_seeds,
    t_quantile,
)
from mythzoo.evaluation.records import decision_digest
from mythzoo.policies.base import BasePolicy, RandomPolicy


# ---------------------------------------------------------------------------- outcome
def test_a_win_shared_by_k_seats_counts_one_kth() -> None:
    o = outcome([0.25, 0.25, -0.5])
    assert o.shares == (0.5, 0.5, 0.0) and not o.draw
    assert o.ranks == (1, 1, 3) and o.seat_ranks() == [1, 1, 3]
    assert outcome([1.0, -1.0]).seat_shares() == [1.0, 0.0]


def test_an_all_way_tie_is_a_draw_or_a_win_shared_by_everyone() -> None:
    tie = outcome([0.0, 0.0, 0.0])
    assert tie.draw and tie.shares == (0.0, 0.0, 0.0) and tie.ranks == (1, 1, 1)
    shared = outcome([0.0, 0.0, 0.0], draws=False)  # the symmetric tournament's rule: every seat gets 1/n
    assert shared.draw and shared.shares == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_teammates_are_one_side() -> None:
    o = outcome([-1.0, 1.0, 1.0], ["invoker", "hero", "hero"])
    assert o.sides == ("invoker", "hero") and o.shares == (0.0, 1.0) and o.seat_shares() == [0.0, 1.0, 1.0]
    assert o.share("hero") == 1.0 and o.results == (-1.0, 1.0) and o.ranks == (2, 1)
    # one teammate's illegal move (-1 for it, 0 for everyone else): its side's result is the mean
    o = outcome([0.0, -1.0, 0.0], ["invoker", "hero", "hero"], order=["hero", "invoker"])
    assert o.sides == ("hero", "invoker") and o.results == (-0.5, 0.0) and o.shares == (0.0, 1.0)
    four = outcome([1.0, 1.0, -1.0, -1.0], ["a", "a", "b", "b"])  # two teams of two: one win, not two
    assert four.shares == (1.0, 0.0) and sum(four.seat_shares()) == 2.0


def test_a_solo_game_is_never_won() -> None:
    o = outcome([7.0], ["innkeeper"])
    assert o.draw and o.shares == (0.0,) and o.ranks == (1,)
    assert outcome([7.0], draws=False).shares == (1.0,)


def test_outcome_refuses_a_side_per_seat_mismatch() -> None:
    with pytest.raises(ValueError, match="2 final rewards but 3 sides"):
        outcome([1.0, -1.0], ["a", "b", "c"])


def test_records_and_self_play_read_the_same_definition() -> None:
    rec = GameRecord("mythic_baths_v1", {}, 3, 0, ["a", "b", "c"], [0, 0, 0], final_rewards=[0.0, 0.0, 0.0], finished=True)
    assert rec.win_shares() == pytest.approx([1 / 3] * 3) and rec.outcome().draw
    unfinished = GameRecord("mythic_baths_v1", {}, 2, 0, ["a", "b"], [0, 0])
    assert unfinished.win_shares() == [0.0, 0.0] and unfinished.ranks() == [1, 1]
    assert [score_from_return(r) for r in (2.5, 0.0, -0.1)] == [1.0, 0.5, 0.0]


# ----------------------------------------------------------------------------- runner
def reference_game(env_name: str, kw: dict, refs: list[str], seed: int) -> GameRecord:
    """The per-game loop evaluation used before the shared runner (agent_iter, ``act`` per decision)."""
    env = make(env_name, **kw)
    u = env.unwrapped
    n = len(u.possible_agents)
    seeds = seat_seeds(seed, n)
    policies = [load_policy(r, env, None, s) for r, s in zip(refs, seeds)]
    record = GameRecord(env_name, kw, n, seed, list(refs), seeds)
    env.reset(seed=seed)
    agents = list(u.possible_agents)
    record.agents, record.env_config = agents, dict(u.config)
    final: dict[str, float] = {}
    returns = dict.fromkeys(agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += float(reward)
        if term or trunc:
            final[agent] = float(reward)
            record.terminated |= bool(term)
            record.truncated |= bool(trunc)
            env.step(None)
            continue
        action = int(policies[agents.index(agent)].act(obs["observation"], obs["action_mask"], agent))
        previous = record.digests[-1] if record.digests else None
        record.digests.append(decision_digest(previous, agent, obs["observation"], obs["action_mask"], action))
        record.actions.append(action)
        env.step(action)
    record.final_rewards = [final.get(a, 0.0) for a in agents]
    record.returns = [returns[a] for a in agents]
    sc = u.scores()
    record.scores = [float(sc[a]) for a in agents] if isinstance(sc, dict) else [float(x) for x in sc]
    record.finished = True
    return record


@pytest.mark.parametrize("env_name,kw,refs", [
    ("mythic_baths_v1", {"num_players": 3}, ["heuristic", "random", "random"]),
    ("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense"}, ["random", "heuristic"]),
    ("mythsgate_v2", {"num_heroes": 2}, ["heuristic", "random", "heuristic"]),
    ("mythwind_innkeeper_v5", {}, ["heuristic"]),
])
def test_the_runner_plays_the_same_game_as_the_per_game_loop(env_name: str, kw: dict, refs: list[str]) -> None:
    for seed in (3, 11):
        expected = reference_game(env_name, kw, refs, seed)
        env = make(env_name, **kw)
        seeds = seat_seeds(seed, len(refs))
        policies = [load_policy(r, env, None, s) for r, s in zip(refs, seeds)]
        got = play_one(env, policies, GameRecord(env_name, kw, len(refs), seed, list(refs), seeds))
        assert got.to_dict() == expected.to_dict()
        assert got.finished and got.decisions > 0


class ObsHash(BasePolicy):
    """Varied play that depends only on the observation, so batching cannot change it."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def act_batch(self, observations, action_masks, agent=None):
        self.calls.append(len(observations))
        return np.array([int(np.flatnonzero(m)[int(abs(float(o.sum())) * 997) % int(m.sum())]) for o, m in zip(observations, action_masks)])


def test_lockstep_waves_give_every_game_its_own_result_with_one_call_per_policy_and_role() -> None:
    def tables(games: int) -> list[Table]:
        return [Table(GameRecord("mythsgate_v2", {}, 3, 100 + g, ["a", "b", "b"], [None] * 3), ["a", "b", "b"]) for g in range(games)]

    alone = []
    for t in tables(5):
        alone += play_games([make("mythsgate", num_heroes=2)], [t], {"a": ObsHash(), "b": ObsHash()})
    a, b = ObsHash(), ObsHash()
    ended: list[int] = []
    batched = play_games([make("mythsgate", num_heroes=2) for _ in range(3)], tables(5), {"a": a, "b": b},
                         on_end=lambda g, rec: ended.append(g))
    assert [r.to_dict() for r in batched] == [r.to_dict() for r in alone]
    assert sorted(ended) == [0, 1, 2, 3, 4] and set(ended[:3]) == {0, 1, 2}  # two waves: 3 games, then 2
    assert max(a.calls) > 1 and max(b.calls) > 1  # one call per round over the games where that policy moves


def test_a_stopped_game_keeps_its_moves_unfinished() -> None:
    class Quits(RandomPolicy):
        def __init__(self) -> None:
            super().__init__(0)
            self.moves = 0

        def act(self, observation, action_mask, agent=None):
            self.moves += 1
            if self.moves > 3:
                raise StopGame("quit")
            return super().act(observation, action_mask, agent)

    env = make("mythic_baths", num_players=2)
    seen: list[tuple[int, str, int, int]] = []
    rec = play_one(env, [Quits(), RandomPolicy(1)], GameRecord("mythic_baths_v1", {}, 2, 5, ["q", "random"], [0, 1]),
                   on_action=lambda *x: seen.append(x))
    assert not rec.finished and rec.final_rewards is None and rec.decisions == len(seen) >= 3
    assert [a for *_, a in seen] == rec.actions and rec.agents == ["player_0", "player_1"]


# ---------------------------------------------------------------------- the small pieces
def test_t_quantile_is_students() -> None:
    assert t_quantile(1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(3) == pytest.approx(3.182446, abs=1e-6)
    assert t_quantile(1000) == pytest.approx(1.962339, abs=1e-6)


def test_default_workers_leaves_a_few_games_to_one_process() -> None:
    assert default_workers(5) == 1 and default_workers() >= default_workers(10_000) >= 1


def test_format_table_right_aligns_numbers() -> None:
    text = format_table([["a", 1, "x"], ["bbb", 22, "yy"]], ["name", "n", "s"])
    assert text.splitlines() == ["name   n  s", "----  --  --", "a      1  x", "bbb   22  yy"]
    assert format_table([["a", "1"]], ["k", "value"], right=[1]).splitlines()[-1] == "a      1"  # text cells, as asked


def test_evaluation_imports_and_plays_without_torch() -> None:
    code = textwrap.dedent("""
        import sys

        class NoTorch:
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("torch is blocked")
                return None

        sys.meta_path.insert(0, NoTorch())
        import mythzoo.evaluation as ev

        sym = ev.tournament("mythic_baths", ["random", "heuristic"], games=2, progress=False)
        gate = ev.tournament("mythsgate", ["invoker:heuristic", "hero:random"], games=1, num_players=2, progress=False)
        inn = ev.tournament("mythwind_innkeeper", ["random", "heuristic"], games=2, progress=False)
        assert sym.games == 2 and gate.games == 1 and inn.games == 2
        assert not [m for m in sys.modules if m == "torch" or m.startswith(("torch.", "mythzoo.training"))]
        print("ok")
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
