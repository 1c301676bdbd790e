"""Evaluation: Wilson intervals, seat-balanced schedules, worker-independent tournaments, replays,
ratings, the registry hand-off, and the ``eval``/``replay`` command line end to end."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.training import eval_cli
from mythzoo.evaluation import (
    ANCHOR_MU,
    ANCHOR_SIGMA,
    GameRecord,
    ReplayError,
    iter_replay,
    load_records,
    play_game,
    rate_games,
    replay,
    seatings,
    tournament,
    wilson_interval,
)

ENV = "mythic_baths_v1"
Z95 = 1.959963984540054  # the normal 97.5% quantile, as statsmodels uses


# ----------------------------------------------------------------------------- Wilson
def wilson_by_roots(successes: float, n: int, z: float) -> tuple[float, float]:
    """Independent reference: the Wilson bounds are the roots p of (phat - p)^2 = z^2 p (1 - p) / n."""
    phat = successes / n
    a = 1 + z * z / n
    b = -(2 * phat + z * z / n)
    c = phat * phat
    lo, hi = sorted(np.roots([a, b, c]).real)
    return max(0.0, lo), min(1.0, hi)


@pytest.mark.parametrize("successes,n", [(0, 10), (5, 10), (10, 10), (81, 100), (1, 3), (37, 250), (2.5, 7)])
def test_wilson_matches_the_quadratic_roots(successes: float, n: int) -> None:
    for z in (1.96, Z95, 2.576):
        assert wilson_interval(successes, n, z) == pytest.approx(wilson_by_roots(successes, n, z), abs=1e-12)


@pytest.mark.parametrize(
    "successes,n,expected",
    [
        # statsmodels.stats.proportion.proportion_confint(count, nobs, alpha=0.05, method="wilson")
        (0, 10, (0.0, 0.27753)),
        (5, 10, (0.23659, 0.76341)),
        (10, 10, (0.72247, 1.0)),
        (81, 100, (0.72221, 0.87485)),
    ],
)
def test_wilson_matches_published_values(successes: int, n: int, expected: tuple[float, float]) -> None:
    assert wilson_interval(successes, n, Z95) == pytest.approx(expected, abs=1e-5)
    assert wilson_interval(successes, n) == pytest.approx(expected, abs=1e-4)  # z = 1.96


def test_wilson_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(3, 10)
    assert lo < 0.3 < hi
    assert wilson_interval(30, 100)[1] - wilson_interval(30, 100)[0] < hi - lo  # more games, narrower
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# ------------------------------------------------------------------------------ seats
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_policy_sits_in_every_seat_equally(k: int, n: int) -> None:
    cycle = seatings(k, n)
    count = Counter((p, s) for seating in cycle for s, p in enumerate(seating))
    values = {count[(p, s)] for p in range(k) for s in range(n)}
    assert len(values) == 1 and values.pop() > 0, count
    assert all(len(set(seating)) > 1 for seating in cycle)  # no game of a policy against only itself
    assert len(cycle) % n == 0


def test_tournament_games_balance_seats_and_round_up_to_cycles() -> None:
    result = tournament(ENV, ["random", "random", "random"], games=5, num_players=3, seed=1, progress=False)
    assert result.games == 6  # 1 lineup x 3 rotations = 3 per cycle; 5 rounds up to 6
    count = Counter((lab, s) for r in result.records for s, lab in enumerate(r.labels))
    assert set(count.values()) == {2}
    assert sorted({lab for lab, _ in count}) == ["random", "random#2", "random#3"]
    # all rotations of one lineup in a cycle share the deal
    assert result.records[0].seed == result.records[1].seed == result.records[2].seed != result.records[3].seed


# ---------------------------------------------------------------------------- workers
def test_workers_do_not_change_the_result() -> None:
    kw = dict(games=6, num_players=2, seed=11, progress=False)
    one = tournament(ENV, ["random", "heuristic", "random"], workers=1, **kw).to_dict()
    two = tournament(ENV, ["random", "heuristic", "random"], workers=2, **kw).to_dict()
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


# ---------------------------------------------------------------------------- replays
def test_play_game_records_seeds_refs_actions_and_results() -> None:
    rec = play_game("mythic_baths", 2, ["heuristic", "random"], seed=5)
    again = play_game("mythic_baths", 2, ["heuristic", "random"], seed=5)
    assert rec.to_dict() == again.to_dict()  # seeded end to end
    assert rec.finished and rec.env == ENV and rec.env_kwargs == {"num_players": 2} and rec.seed == 5
    assert rec.refs == ["heuristic", "random"] and len(rec.policy_seeds) == 2
    assert len(rec.actions) > 20 and all(isinstance(a, int) for a in rec.actions)
    assert rec.final_rewards is not None and sum(rec.final_rewards) == pytest.approx(0.0)
    assert rec.scores is not None and len(rec.scores) == 2
    assert rec.env_config == make("mythic_baths", num_players=2).unwrapped.config


def test_replay_reproduces_a_recorded_game(tmp_path: Path) -> None:
    rec = play_game("mythic_baths", 3, ["random", "heuristic", "random"], seed=9)
    path = tmp_path / "game.json"
    rec.save(path)
    [loaded] = load_records(path)
    assert loaded.to_dict() == rec.to_dict()
    frames = list(iter_replay(loaded, render=True))
    assert [f.action for f in frames[:-1]] == rec.actions
    assert all(f.text and "Mythic Baths" in f.text for f in frames)
    assert frames[-1].final_rewards == rec.final_rewards and frames[-1].scores == rec.scores
    result = replay(loaded, render=False)
    assert result.finished and result.decisions == len(rec.actions)
    assert result.final_rewards == rec.final_rewards and result.scores == rec.scores


def _first_illegal_action(rec: GameRecord, k: int) -> int:
    """An action id that is illegal at decision ``k`` of ``rec``."""
    env = make(rec.env, **rec.env_kwargs)
    env.reset(seed=rec.seed)
    for a in rec.actions[:k]:
        env.step(a)
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_replay_refuses_a_tampered_record() -> None:
    rec = play_game("mythic_baths", 2, ["random", "random"], seed=3)
    k = len(rec.actions) // 2
    bad = GameRecord.from_dict(rec.to_dict())
    bad.actions[k] = _first_illegal_action(rec, k)
    with pytest.raises(ReplayError, match=f"decision {k}: .* not legal"):
        replay(bad, render=False)
    wrong_result = GameRecord.from_dict(rec.to_dict())
    wrong_result.final_rewards = list(reversed(rec.final_rewards))
    with pytest.raises(ReplayError, match="final rewards"):
        replay(wrong_result, render=False)
    short = GameRecord.from_dict(rec.to_dict())
    short.actions = short.actions[:-1]
    with pytest.raises(ReplayError, match="record ends"):
        replay(short, render=False)
    long = GameRecord.from_dict(rec.to_dict())
    long.actions.append(0)
    with pytest.raises(ReplayError, match="has .* actions"):
        replay(long, render=False)
    other_seed = GameRecord.from_dict(rec.to_dict())
    other_seed.seed = rec.seed + 1
    with pytest.raises(ReplayError):
        replay(other_seed, render=False)


# ---------------------------------------------------------------------------- ratings
def test_a_policy_that_always_wins_rates_above_one_that_always_loses() -> None:
    games = [(["winner", "loser"] if i % 2 == 0 else ["loser", "winner"], [1.0, -1.0] if i % 2 == 0 else [-1.0, 1.0]) for i in range(30)]
    free = rate_games(games, ["winner", "loser"])
    assert free["winner"][0] > 25 > free["loser"][0]
    assert free["winner"][1] < 25 / 3 and free["loser"][1] < 25 / 3  # more certain after 30 games
    anchored = rate_games(games, ["winner", "loser"], anchor="loser")
    assert anchored["loser"] == (ANCHOR_MU, ANCHOR_SIGMA)
    assert anchored["winner"][0] - 2 * anchored["winner"][1] > ANCHOR_MU  # clearly above the anchor


def test_ratings_free_for_all_order_and_ties() -> None:
    labels = ["a", "b", "c"]
    games = []
    for i in range(24):
        seats = [labels[(s + i) % 3] for s in range(3)]
        games.append((seats, [{"a": 1.0, "b": -0.5, "c": -0.5}[x] if i % 2 else {"a": 1.0, "b": 0.0, "c": -1.0}[x] for x in seats]))
    r = rate_games(games, labels, anchor="c")
    assert r["a"][0] > r["b"][0] > r["c"][0] == ANCHOR_MU
    ties = rate_games([(["x", "y"], [0.0, 0.0])] * 10, ["x", "y"])
    assert ties["x"] == pytest.approx(ties["y"])  # a tie favours no one


def test_win_shares_split_ties() -> None:
    rec = GameRecord(ENV, {}, 3, 0, ["a", "b", "c"], [0, 0, 0], final_rewards=[0.25, 0.25, -0.5], finished=True)
    assert rec.win_shares() == [0.5, 0.5, 0.0]
    assert rec.ranks() == [1, 1, 3]


def test_tournament_statistics_are_consistent() -> None:
    result = tournament(ENV, ["heuristic", "random"], games=8, num_players=2, seed=2, progress=False)
    stats = result.by_label()
    assert result.anchor == "random" and stats["random"].mu == ANCHOR_MU
    assert sum(s.wins for s in result.stats) == pytest.approx(result.games)
    assert all(s.games == result.games for s in result.stats)
    h = stats["heuristic"]
    assert h.win_rate > 0.5 and h.mu > ANCHOR_MU and h.win_ci[0] <= h.win_rate <= h.win_ci[1]
    assert h.mean_score is not None and h.sd_score is not None and h.mean_score > stats["random"].mean_score
    assert sum(result.seat_win_rate) == pytest.approx(1.0)


# --------------------------------------------------------------------------- registry
def test_ratings_and_results_go_to_the_registry(tmp_path: Path) -> None:
    from mythzoo.policies.neural import init_mlp_weights
    from mythzoo.policies.registry import Registry

    env = make("mythic_baths", num_players=2)
    agent = env.possible_agents[0]
    weights, arch = init_mlp_weights(env.observation_space(agent)["observation"].shape[0], env.action_space(agent).n, hidden=(8,), seed=0)
    reg = Registry(tmp_path / "reg")
    info = reg.register("toy", weights, arch, env_spec=env, algo="test", steps=0)
    reg.set_alias("toy", "best", 1)
    result = tournament(ENV, ["toy@best", "random"], games=2, num_players=2, registry=str(tmp_path / "reg"), progress=False)
    assert result.by_label()["toy@best"].played_as == info.id
    assert {r.refs[0] for r in result.records} | {r.refs[1] for r in result.records} == {info.id, "random"}
    [rating] = reg.ratings("toy:1")
    toy = result.by_label()["toy@best"]
    assert (rating.mu, rating.sigma) == pytest.approx((toy.mu, toy.sigma))
    assert (rating.games, rating.num_players, rating.env_name) == (2, 2, ENV)
    [ev] = reg.evals("toy:1")
    assert ev.results["policy"] == "toy@best" and ev.results["games"] == 2


# -------------------------------------------------------------------------------- cli
def test_eval_cli_writes_table_json_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json, out_png = tmp_path / "eval.json", tmp_path / "eval.png"
    rc = eval_cli.main(["eval", "mythic_baths", "random", "heuristic", "random", "--games", "6", "--players", "2", "--workers", "1",
                        "--seed", "4", "--json", str(out_json), "--plot", str(out_png), "--quiet"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "win rate" in text and "95% CI" in text and "random (anchor)" in text and "win rate (row vs column)" in text
    data = json.loads(out_json.read_text())
    assert data["format"] == "mythzoo-eval/1" and data["games"] == 6 and data["env"] == ENV
    assert [p["label"] for p in data["policies"]] == ["random", "heuristic", "random#2"]
    for p in data["policies"]:
        assert {"games", "wins", "win_rate", "win_ci95", "mean_reward", "mean_score", "sd_score", "mu", "sigma"} <= set(p)
    assert len(data["cross_play"]["win_rate"]) == 3 and len(data["records"]) == 6
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out_png.stat().st_size > 10_000
    rc = eval_cli.main(["replay", str(out_json), "--game", "5", "--check"])
    assert rc == 0 and "replay ok" in capsys.readouterr().out
    rc = eval_cli.main(["replay", str(out_json), "--game", "2"])
    text = capsys.readouterr().out
    assert rc == 0 and "GAME OVER" in text and "final rewards match" in text


def test_eval_cli_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_cli.main(["eval", "no_such_game", "random"]) == 2
    assert eval_cli.main(["eval", "mythic_baths", "random", "--players", "9"]) == 2
    assert eval_cli.main(["eval", "mythic_baths", "random", "no_such_ref", "--registry", str(tmp_path / "none")]) == 2
    assert eval_cli.main(["eval", "mythic_baths", "random", "--games", "0"]) == 2
    assert "error" in capsys.readouterr().err
    bad = play_game("mythic_baths", 2, ["random", "random"], seed=1)
    bad.actions[3] = _first_illegal_action(bad, 3)
    bad.save(tmp_path / "bad.json")
    assert eval_cli.main(["replay", str(tmp_path / "bad.json"), "--check"]) == 1
    assert "does not replay" in capsys.readouterr().err
    assert eval_cli.main(["replay", str(tmp_path / "bad.json"), "--game", "1"]) == 2
