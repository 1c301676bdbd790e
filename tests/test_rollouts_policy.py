"""The endgame-rollouts policy (``rollouts:W:REF``): its names, what it refuses, what it may know,
and that every tool plays it (eval, play, the leaderboard's --add, self-play opponents)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.policies.base import RandomPolicy
from mythzoo.policies.refs import is_baseline, is_registry_ref, load_policy, uses_registry
from mythzoo.policies.rollouts import EndgameRollouts, RolloutsRefError, is_rollouts_ref, parse_rollouts_ref

ROOT = Path(__file__).resolve().parents[1]
CHAMPION = ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar"


def _endgame(seed: int, players: int = 2):
    """A Mythic Baths game played by heuristics up to an endgame decision with a choice (or None)."""
    env = make("mythic_baths", num_players=players)
    env.reset(seed=seed)
    probe = EndgameRollouts(env, RandomPolicy(0), 2)
    h = load_policy("heuristic", env, seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return None
        if probe.in_endgame(env.unwrapped.state_) and obs["action_mask"].sum() > 1:
            return env
        env.step(h.act(obs["observation"], obs["action_mask"], agent))


def _champion_registry(tmp_path: Path):
    from mythzoo.policies.registry import Registry

    reg = Registry(tmp_path / "reg")
    info = reg.import_(CHAMPION)[0]
    return reg, info


# --------------------------------------------------------------------------- names
@pytest.mark.parametrize("ref, want", [("rollouts:16:heuristic", (16, None, "heuristic")), ("rollouts:2:champ:3", (2, None, "champ:3")),
                                       (" rollouts:4:py:pkg.mod:make ", (4, None, "py:pkg.mod:make")),
                                       ("rollouts:8:58420b1021e4", (8, None, "58420b1021e4")),
                                       ("rollouts:16w3:58420b1021e4", (16, 3, "58420b1021e4")), ("rollouts:4w0:w3:2", (4, 0, "w3:2")),
                                       ("rollouts:16+16:67d34159c98a", (16, None, "67d34159c98a", 16)),
                                       ("rollouts:8+4w3:heuristic", (8, 3, "heuristic", 4))])
def test_rollouts_names_parse(ref: str, want: tuple) -> None:
    parsed = parse_rollouts_ref(ref)
    assert parsed == (want + (0,) if len(want) == 3 else want)
    assert parsed.with_base(parsed.base) == ref.strip()  # no window given, none written
    assert is_rollouts_ref(ref) and not is_baseline(ref) and not is_registry_ref(ref)


def test_the_window_in_a_ref_sets_where_the_endgame_begins() -> None:
    """``rollouts:4w3`` searches from three treatments before the last round, ``rollouts:4`` from two."""
    env = make("mythic_baths", num_players=3)
    env.reset(seed=3)
    h = load_policy("heuristic", env, seed=3)
    wide, narrow = load_policy("rollouts:4w3:heuristic", env, seed=0), load_policy("rollouts:4:heuristic", env, seed=0)
    assert (wide.window, narrow.window, wide.name, narrow.name) == (3, 2, "rollouts:4w3:heuristic", "rollouts:4:heuristic")
    assert load_policy("rollouts:4w2:heuristic", env, seed=0).name == "rollouts:4:heuristic"  # the default is not written
    u = env.unwrapped
    seen = set()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        s = u.state_
        to_last_round = u.rules.threshold - max(len(c) for c in s.collected)
        if s.final_trigger < 0:
            assert wide.in_endgame(s) == (to_last_round <= 3) and narrow.in_endgame(s) == (to_last_round <= 2)
            seen.add(to_last_round)
        env.step(h.act(obs["observation"], obs["action_mask"], agent))
    assert {2, 3, 4} <= seen



def test_a_rollouts_ref_uses_a_registry_only_over_a_checkpoint() -> None:
    assert uses_registry("rollouts:16:champ@best") and uses_registry("rollouts:16:58420b1021e4")
    assert not uses_registry("rollouts:16:heuristic") and not uses_registry("rollouts:16:py:pkg:make")
    assert not uses_registry("rollouts:x:champ")  # malformed: refused when loaded, not sent to a registry


@pytest.mark.parametrize("ref, says", [("rollouts", "expected rollouts:W:REF"), ("rollouts:16", "expected rollouts:W:REF"),
                                       ("rollouts:16:", "expected rollouts:W:REF"), ("rollouts:x:heuristic", "'x' are not an integer"),
                                       ("rollouts:1:heuristic", "'1' are not an integer from 2"),
                                       ("rollouts:16w:heuristic", "the window '' is not an integer"),
                                       ("rollouts:16w-1:heuristic", "the window '-1' is not an integer"),
                                       ("rollouts:16w100:heuristic", "the window '100' is not an integer from 0 to 99"),
                                       ("rollouts:w3:heuristic", "the worlds '' are not an integer"),
                                       ("rollouts:16+:heuristic", "the more worlds '' are not an integer from 1"),
                                       ("rollouts:16+0:heuristic", "the more worlds '0' are not an integer from 1"),
                                       ("rollouts:+4:heuristic", "the worlds '' are not an integer"),
                                       ("rollouts:4:mcts:5", "its base must act from observations"),
                                       ("rollouts:4:rollouts:4:heuristic", "its base must act from observations")])
def test_bad_rollouts_refs_are_one_line_errors_everywhere(ref: str, says: str) -> None:
    from mythzoo.evaluation.loading import load_policy as eval_load

    env = make("mythic_baths")
    for load in (lambda: load_policy(ref, env), lambda: eval_load(ref, env)):
        with pytest.raises(RolloutsRefError, match=says) as e:
            load()
        assert "\n" not in str(e.value)


def test_rollouts_refuse_a_game_without_search_points() -> None:
    with pytest.raises(RolloutsRefError, match="rollouts: is for mythic_baths and mythwind_innkeeper") as e:
        load_policy("rollouts:4:random", make("mythsgate"))
    assert "mcts:N" in str(e.value) and "\n" not in str(e.value)


def test_rollouts_cannot_name_checkpoints() -> None:
    from mythzoo.policies.registry.refs import check_name

    with pytest.raises(ValueError, match="endgame-rollouts policy"):
        check_name("rollouts")


# --------------------------------------------------------------------------- decisions
def test_outside_the_endgame_it_plays_its_base_and_searches_nothing() -> None:
    env = make("mythic_baths", num_players=3)
    env.reset(seed=2)
    p = load_policy("rollouts:4:heuristic", env, seed=0)
    h = load_policy("heuristic", env, seed=0)
    for _ in range(12):  # the deal and the first turns: nobody near the last round
        agent = env.agent_selection
        assert not p.in_endgame(env.unwrapped.state_)
        obs = env.observe(agent)
        a = p.act_in_env(env, agent)
        assert a == h.act(obs["observation"], obs["action_mask"], agent)
        env.step(a)
    assert p.asked == 0


def test_in_the_endgame_it_searches_and_plays_legal_complete_games() -> None:
    env = make("mythic_baths", num_players=2)
    policies = [load_policy("rollouts:3:heuristic", env, seed=1), load_policy("random", env, seed=1)]
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            a = policies[0].act_in_env(env, agent) if seat == 0 else policies[1].act(obs["observation"], obs["action_mask"], agent)
            assert obs["action_mask"][a] == 1
            env.step(a)
        assert env.unwrapped.rules.is_over(env.unwrapped.state_)
    assert policies[0].asked > 0


def test_rollouts_choices_depend_only_on_what_the_seat_may_know() -> None:
    """Two states that differ only in what the mover cannot see get the same endgame choices from
    rollouts seeded alike, and the choices are a function of the seed."""
    compared = differed = 0
    for seed in range(6):
        env = _endgame(seed)
        if env is None:
            continue
        agent = env.agent_selection
        other = make("mythic_baths", num_players=2)
        other.reset(seed=0)
        other.set_state(env.resample_hidden(agent, seed=500 + seed))
        u, v = env.unwrapped, other.unwrapped
        assert u.observe(agent)["observation"].tolist() == v.observe(agent)["observation"].tolist()
        differed += u.rules.to_json(u.state_) != v.rules.to_json(v.state_)
        a, b = EndgameRollouts(env, load_policy("heuristic", env, seed=3), 6, seed=9), EndgameRollouts(other, load_policy("heuristic", other, seed=3), 6, seed=9)
        assert [a.act_in_env(env, agent) for _ in range(2)] == [b.act_in_env(other, agent) for _ in range(2)], seed
        assert a.asked == 2
        compared += 1
    assert compared >= 3 and differed >= 3


def test_act_needs_its_own_env() -> None:
    env = _endgame(1)
    assert env is not None
    p = load_policy("rollouts:2:heuristic", env, seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][p.act(obs["observation"], obs["action_mask"], env.agent_selection)] == 1
    stranger = _endgame(4)
    o2 = stranger.observe(stranger.agent_selection)
    with pytest.raises(RuntimeError, match="not its env's"):
        p.act(o2["observation"], o2["action_mask"], env.agent_selection)


# --------------------------------------------------------------------------- tools
def test_eval_plays_rollouts_over_a_checkpoint_pinned_to_its_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("safetensors")
    from mythzoo.evaluation.loading import check_refs
    from mythzoo.training import eval_cli

    reg, info = _champion_registry(tmp_path)
    env = make("mythic_baths", num_players=2)
    assert check_refs(env, [f"rollouts:2:{info.name}"], reg) == [f"rollouts:2:{info.id}"]
    assert check_refs(env, [f"rollouts:2w3:{info.name}"], reg) == [f"rollouts:2w3:{info.id}"]  # the window is kept
    out = tmp_path / "eval.json"
    before = (len(reg.ratings(info.id)), len(reg.evals(info.id)))
    rc = eval_cli.main(["eval", "mythic_baths", f"rollouts:2:{info.name}", "heuristic", "--games", "2", "--players", "2",
                        "--registry", str(reg.path), "--json", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert f"rollouts:2:{info.name}" in capsys.readouterr().out
    assert (len(reg.ratings(info.id)), len(reg.evals(info.id))) == before, "a rollouts entry is not its checkpoint: nothing is recorded for it"
    rc = eval_cli.main(["eval", "mythic_baths", "rollouts:2:nope", "heuristic", "--games", "2", "--registry", str(reg.path)])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err.startswith("mythzoo eval: error: cannot load policy") and "nope" in err and len(err.splitlines()) == 1, err


def test_play_against_rollouts(tmp_path: Path) -> None:
    from mythzoo.training import play_cli

    out = io.StringIO()
    lines = iter(["1"] * 3 + ["q"])
    rc = play_cli.main(["play", "mythic_baths", "--vs", "rollouts:2:heuristic", "--seed", "4", "--save", str(tmp_path / "game.json")],
                       input_fn=lambda prompt: next(lines), out=out)
    assert rc == 0 and "(rollouts:2:heuristic) plays" in out.getvalue()


def test_rollouts_are_a_self_play_opponent(tmp_path: Path) -> None:
    pytest.importorskip("stable_baselines3", reason="self-play needs the train extra")
    from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv

    probe = make("mythic_baths", num_players=2)
    rollouts = load_policy("rollouts:2:heuristic", probe, seed=0)
    calls = []
    inner = rollouts.act_in_env
    rollouts.act_in_env = lambda env, agent: calls.append(env) or inner(env, agent)
    pool = OpponentPool({"past": 1.0})
    pool.add("past", "ref:rollouts:2:heuristic", rollouts)
    vec = SelfPlayVecEnv("mythic_baths", {"num_players": 2}, 2, pool, seed=0)
    vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = vec.action_masks()
        vec.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        vec.step_wait()
    assert calls and all(e is not probe for e in calls), "it decides in the live game, not in the env it was built with"
    assert rollouts.asked > 0, "games reached the endgame, where it searched"


# --------------------------------------------------------------------------- the Innkeeper
INN_SHORT = {"days_per_season": 2, "seasons": 2}


class _Stop(Exception):
    """Raised by a ``decide`` to end the campaign there."""


def _campaign(seed: int, decide) -> object:
    """A short Innkeeper campaign from ``seed``, each decision ``decide(env, agent, obs)``'s (the
    heuristic's when it returns None; raising :class:`_Stop` ends it); the env at its end."""
    env = make("mythwind_innkeeper", **INN_SHORT)
    env.reset(seed=seed)
    h = load_policy("heuristic", env, seed=seed)
    try:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = decide(env, agent, obs)
            env.step(h.act(obs["observation"], obs["action_mask"], agent) if a is None else a)
    except _Stop:
        pass
    return env


def _worth_after(u, s0, action: int, sampled: list, h) -> np.ndarray:
    """The campaign's worth in each sampled world after ``action``, the heuristic playing on."""
    out = []
    for w in sampled:
        s = u.rules.clone(w)
        u.rules.apply(s, action)
        while not u.rules.is_over(s):
            m = np.zeros(u.action_space(u.possible_agents[0]).n, dtype=np.int8)
            m[u.rules.legal_actions(s)] = 1
            u.rules.apply(s, h.act(u.observer.observation(s, 0), m))
        out.append(u.rules.worth(s))
    return np.array(out, dtype=float)


def test_innkeeper_rollouts_search_the_day_s_operate_and_worker_choices() -> None:
    """In the Innkeeper the search points are the day's actions: the character's Operate choice
    (one a day) and each hired worker's; every other decision is the base policy's."""
    from mythzoo.envs.mythwind_innkeeper.rules import P_OPERATE, P_WORKER

    rows, made, phases = [], {}, []

    def decide(env, agent, obs):
        if "p" not in made:
            made["p"], made["h"] = load_policy("rollouts:3:heuristic", env, seed=5), load_policy("heuristic", env, seed=5)
        p, h = made["p"], made["h"]
        point = p.in_endgame(env.unwrapped.state_)
        assert point == (env.unwrapped.state_.phase in (P_OPERATE, P_WORKER))
        phases.append(env.unwrapped.state_.phase)
        a = p.act_in_env(env, agent)
        assert obs["action_mask"][a] == 1
        rows.append((point, h.act(obs["observation"], obs["action_mask"], agent), a, int(obs["action_mask"].sum())))
        return a

    env = _campaign(5, decide)
    p = made["p"]
    assert p.name == "rollouts:3:heuristic" and p.window is None
    points = [r for r in rows if r[0]]
    assert phases.count(P_OPERATE) == env.unwrapped.rules.total_days(), "one Operate choice a day"
    assert p.asked == sum(1 for r in points if r[3] > 1) >= 2
    assert all(h == a for point, h, a, _ in rows if not point), "away from Operate it plays its base"
    assert env.unwrapped.rules.is_over(env.unwrapped.state_) and not p.in_endgame(env.unwrapped.state_)


def test_innkeeper_rollouts_window_is_the_last_days() -> None:
    """``rollouts:3w1`` searches the last day's choices only."""
    seen, made = [], {}

    def decide(env, agent, obs):
        if not made:
            made["w1"], made["every"] = load_policy("rollouts:3w1:heuristic", env, seed=0), load_policy("rollouts:3:heuristic", env, seed=0)
        s = env.unwrapped.state_
        if made["every"].in_endgame(s):
            seen.append((s.turn, made["w1"].in_endgame(s)))
        return None

    days = _campaign(2, decide).unwrapped.rules.total_days()
    assert sorted(set(seen)) == [(d, d == days - 1) for d in range(days)]


def test_innkeeper_rollouts_choose_by_paired_worth() -> None:
    """At an Operate choice it plays each legal action in the same sampled worlds, the heuristic
    on to the campaign's end, and leaves the heuristic's choice only for an action whose worth,
    paired world by world, is ahead by more than two standard errors."""
    import math

    worlds, checked = 4, []
    for seed in range(8):
        def decide(env, agent, obs, seed=seed):
            u, mask = env.unwrapped, obs["action_mask"]
            h = load_policy("heuristic", env, seed=seed)
            searcher = EndgameRollouts(env, h, worlds, seed=seed)
            if not searcher.in_endgame(u.state_) or mask.sum() < 2:
                return None
            s0, before = u.state_, json.dumps(env.get_state(), sort_keys=True)
            chosen = searcher.act_in_env(env, agent)
            assert json.dumps(env.get_state(), sort_keys=True) == before, "the rollouts ran on copies"
            rng = np.random.default_rng(seed)
            sampled = [u.rules.resample_hidden(s0, 0, int(x)) for x in rng.integers(0, 2**62, size=worlds)]
            legal = [int(a) for a in np.flatnonzero(mask)]
            worth = {a: _worth_after(u, s0, a, sampled, h) for a in legal}
            base = h.act(obs["observation"], mask)
            gain = {a: worth[a] - worth[base] for a in legal if a != base}
            ahead = {a: d.mean() for a, d in gain.items() if d.mean() > 2 * d.std(ddof=1) / math.sqrt(worlds)}
            assert chosen == (max(ahead, key=lambda a: (ahead[a], -legal.index(a))) if ahead else base)
            checked.append(chosen != base)
            return chosen

        _campaign(seed, decide)
        if len(checked) >= 6:
            break
    assert len(checked) >= 6


def test_a_close_call_gets_more_worlds_and_is_decided_over_all_of_them() -> None:
    """``rollouts:W+M``: where no action beats the base's choice by two standard errors but some
    are ahead of it, ``M`` more worlds (the generator's next draws) are rolled out for those actions
    and the choice, and the same rule decides over all ``W + M`` worlds; elsewhere it decides as
    ``rollouts:W`` does."""
    import math

    worlds, more, kinds = 4, 4, []

    def rule(gain: dict, n: int, base: int, legal: list[int]) -> int:
        past = {a: d.mean() for a, d in gain.items() if d.mean() > 2 * d.std(ddof=1) / math.sqrt(n)}
        return max(past, key=lambda a: (past[a], -legal.index(a))) if past else base

    for seed in range(12):
        def decide(env, agent, obs, seed=seed):
            u, mask = env.unwrapped, obs["action_mask"]
            h = load_policy("heuristic", env, seed=seed)
            searcher = EndgameRollouts(env, h, worlds, seed=seed, more_worlds=more)
            if not searcher.in_endgame(u.state_) or mask.sum() < 2:
                return None
            s0 = u.state_
            chosen = searcher.act_in_env(env, agent)
            rng = np.random.default_rng(seed)
            sampled = [u.rules.resample_hidden(s0, 0, int(x)) for x in rng.integers(0, 2**62, size=worlds)]
            legal = [int(a) for a in np.flatnonzero(mask)]
            worth = {a: _worth_after(u, s0, a, sampled, h) for a in legal}
            base = h.act(obs["observation"], mask)
            gain = {a: worth[a] - worth[base] for a in legal if a != base}
            first = rule(gain, worlds, base, legal)
            ahead = [a for a in legal if a != base and gain[a].mean() > 0]
            if first != base or not ahead:
                assert chosen == first and searcher.extended == 0
                kinds.append("decided")
                return chosen
            extra = [u.rules.resample_hidden(s0, 0, int(x)) for x in rng.integers(0, 2**62, size=more)]
            keep = [base] + ahead
            worth = {a: np.concatenate([worth[a], _worth_after(u, s0, a, extra, h)]) for a in keep}
            assert searcher.extended == 1
            assert chosen == rule({a: worth[a] - worth[base] for a in ahead}, worlds + more, base, keep)
            kinds.append("switched after more" if chosen != base else "kept after more")
            return chosen

        _campaign(seed, decide)
        if {"decided", "kept after more", "switched after more"} <= set(kinds) and len(kinds) >= 8:
            break
    assert {"decided", "kept after more"} <= set(kinds), kinds


def test_innkeeper_rollouts_roll_out_the_network_s_three_likeliest_actions() -> None:
    """With a network base (it gives probabilities) an Innkeeper search rolls out its 3 likeliest
    actions and its own choice, no others; a base without probabilities (the heuristic) gets every
    legal action rolled out."""
    from mythzoo.policies.neural import MLPPolicy, init_mlp_weights
    from mythzoo.policies.rollouts import INNKEEPER_TOP_K

    env = make("mythwind_innkeeper")  # full length: the heuristic hires workers, whose choices have 4 and more actions
    u = env.unwrapped
    agent = u.possible_agents[0]
    net = MLPPolicy(*init_mlp_weights(u.observation_space(agent)["observation"].shape[0], u.action_space(agent).n, hidden=(16,), seed=3))
    rolled: list[int] = []
    checked = {"net": 0, "heuristic": 0}
    for seed in range(4):
        env.reset(seed=seed)
        h = load_policy("heuristic", env, seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc or min(checked.values()) >= 3:
                break
            mask = obs["action_mask"]
            for name, base in (("net", net), ("heuristic", h)):
                p = EndgameRollouts(env, base, 2, window=12, seed=seed)
                if not p.in_endgame(u.state_) or mask.sum() <= INNKEEPER_TOP_K:
                    break
                real = p.outcomes
                p.outcomes = lambda u, states, seat, real=real: (rolled.append(len(states)), real(u, states, seat))[1]
                chosen = p.act_in_env(env, agent)
                legal = np.flatnonzero(mask)
                if name == "net":
                    probs = net.action_probs(obs["observation"][None], mask[None])[0]
                    likely = set(np.argsort(-probs, kind="stable")[:INNKEEPER_TOP_K].tolist()) | {net.act(obs["observation"], mask)}
                    assert rolled[-1] == 2 * len(likely) < 2 * len(legal) and chosen in likely
                else:
                    assert rolled[-1] == 2 * len(legal)
                checked[name] += 1
            env.step(h.act(obs["observation"], mask, agent))
        if min(checked.values()) >= 3:
            break
    assert min(checked.values()) >= 3, checked


def test_innkeeper_rollouts_depend_only_on_what_the_innkeeper_may_know() -> None:
    """The bag's order, the weather and gossip decks still to come are hidden: two states that
    differ only there get the same choices from rollouts seeded alike."""
    compared = differed = 0
    for seed in range(4):
        def decide(env, agent, obs, seed=seed):
            nonlocal compared, differed
            u = env.unwrapped
            probe = EndgameRollouts(env, load_policy("heuristic", env, seed=seed), 2)
            if not (probe.in_endgame(u.state_) and obs["action_mask"].sum() > 1 and u.state_.turn >= 1):
                return None
            other = make("mythwind_innkeeper", **INN_SHORT)
            other.reset(seed=0)
            other.set_state(env.resample_hidden(agent, seed=700 + seed))
            v = other.unwrapped
            assert u.observe(agent)["observation"].tolist() == v.observe(agent)["observation"].tolist()
            differed += u.rules.to_json(u.state_) != v.rules.to_json(v.state_)
            a = EndgameRollouts(env, load_policy("heuristic", env, seed=3), 4, seed=9)
            b = EndgameRollouts(other, load_policy("heuristic", other, seed=3), 4, seed=9)
            assert a.act_in_env(env, agent) == b.act_in_env(other, agent), seed
            compared += 1
            raise _Stop

        _campaign(seed, decide)
    assert compared >= 3 and differed >= 3


def test_innkeeper_rollouts_play_in_eval(capsys: pytest.CaptureFixture[str]) -> None:
    """``mythzoo eval`` plays the search on the same campaign as the heuristic and pairs them."""
    from mythzoo.training import eval_cli

    rc = eval_cli.main(["eval", "mythwind_innkeeper", "rollouts:2w1:heuristic", "heuristic", "--games", "2", "--env-arg",
                        "days_per_season=2", "--env-arg", "seasons=1"])
    out = capsys.readouterr().out
    assert rc == 0 and "1 campaign, the same for every policy" in out
    assert any(line.startswith("rollouts:2w1:heuristic ") for line in out.splitlines())


def test_rollouts_give_each_lockstep_rollout_its_own_observer_copy_with_the_same_observations() -> None:
    """Each rollout encodes through its own copy of the env's observer (its caches are not
    evicted by the other rollouts), kept across decisions and remade for another observer; a copy
    encodes every state exactly as the env's observer does."""
    env = make("mythwind_innkeeper")
    env.reset(seed=3)
    u = env.unwrapped
    searcher = EndgameRollouts(env, load_policy("heuristic", env, seed=0), 2, seed=0)
    lanes = searcher._observer_lanes(u.observer, 3)
    assert len(lanes) == 3 and len({id(x) for x in lanes} | {id(u.observer)}) == 4
    assert searcher._observer_lanes(u.observer, 2)[:2] == lanes[:2], "kept across decisions"
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        for lane in lanes:
            assert lane.observation(u.state_, 0).tobytes() == u.observer.observation(u.state_, 0).tobytes()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    other = make("mythwind_innkeeper").unwrapped.observer
    assert all(x not in lanes for x in searcher._observer_lanes(other, 3)), "another observer gets its own copies"
