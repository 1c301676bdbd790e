"""Evaluation of the asymmetric team game (Mythsgate) and the solo game (Mythwind Innkeeper):
pairing tables, solo tables with paired differences, worker independence, replays, play, demo
and the usage errors. Few games and ``random`` policies: the whole file runs in seconds."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from mythzoo import cli
from mythzoo.envs import make
from mythzoo.training import eval_cli, play_cli
from mythzoo.evaluation import (
    GameRecord,
    ReplayError,
    RoleTournamentResult,
    SoloResult,
    load_records,
    mean_interval,
    outcome,
    replay,
    tournament,
    wilson_interval,
)
from mythzoo.envs import spec

GATE = "mythsgate_v2"
INN = "mythwind_innkeeper_v5"


def _no_seconds(d: dict) -> dict:
    d.pop("seconds")
    return d


# ------------------------------------------------------------------------- sizes
def test_players_count_every_seat() -> None:
    assert spec("mythic_baths").size_kwargs(3) == {"num_players": 3}
    assert spec("mythsgate").size_kwargs(3) == {"num_heroes": 2}  # the invoker and two heroes
    assert spec("mythsgate").size_kwargs(None) == {"num_heroes": 2}
    assert spec("mythwind_innkeeper").size_kwargs(None) == {} and spec("mythwind_innkeeper").size_kwargs(1) == {}
    with pytest.raises(ValueError, match="has no player-count argument"):
        spec("mythwind_innkeeper").size_kwargs(2)
    with pytest.raises(ValueError, match="num_heroes=1 was also given"):
        spec("mythsgate").size_kwargs(3, {"num_heroes": 1})
    assert spec(GATE).seat_counts() == (2, 3, 4, 5, 6) and spec(INN).seat_counts() == (1,)


def test_role_outcome_draws_and_team_wins() -> None:
    def role_outcome(rec: GameRecord) -> tuple[tuple[float, ...], bool]:
        result = rec.outcome(["invoker", "hero", "hero"], order=["invoker", "hero"])
        return result.shares, result.draw

    rec = GameRecord(GATE, {}, 3, 0, ["a"] * 3, [0] * 3, final_rewards=[-1.0, 1.0, 1.0], finished=True)
    assert role_outcome(rec) == ((0.0, 1.0), False)
    rec.final_rewards = [0.0, 0.0, 0.0]  # the turn cap
    assert role_outcome(rec) == ((0.0, 0.0), True)
    rec.final_rewards = [0.0, -1.0, 0.0]  # hero_0 made an illegal move: its side loses
    assert role_outcome(rec) == ((1.0, 0.0), False)
    assert outcome([0.0, -1.0, 0.0], ["invoker", "hero", "hero"]).results == (0.0, -0.5)


def test_mean_interval_is_student_t() -> None:
    m, lo, hi, sd = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and sd == pytest.approx(1.2909944)
    assert (lo, hi) == pytest.approx((2.5 - 3.182446 * sd / 2, 2.5 + 3.182446 * sd / 2), abs=1e-5)  # t(0.975, 3)


# ------------------------------------------------------------------- asymmetric
def test_every_invoker_policy_meets_every_hero_policy_on_the_same_deals() -> None:
    refs = ["invoker:random", "invoker:random", "hero:random"]
    result = tournament("mythsgate", refs, games=5, num_players=3, seed=2, progress=False)
    assert isinstance(result, RoleTournamentResult)
    assert result.games == 6 and result.deals == 3 and len(result.pairings) == 2  # 5 rounded up to whole deals
    assert [p.policies for p in result.pairings] == [["invoker:random", "hero:random"], ["invoker:random#2", "hero:random"]]
    for deal in range(3):
        a, b = result.records[2 * deal], result.records[2 * deal + 1]
        assert a.seed == b.seed and a.env_kwargs == {"num_heroes": 2}  # the same deal for both pairings
        assert a.labels == ["invoker:random", "hero:random", "hero:random"] and a.refs == ["random"] * 3  # one policy plays every hero seat
        assert b.labels[0] == "invoker:random#2"
    for p in result.pairings:
        assert sum(p.wins) + p.draws == pytest.approx(p.games)
        assert p.win_ci(0) == wilson_interval(p.wins[0], p.games)
    hero = result.by_label()["hero:random"]
    assert hero.role == "hero" and hero.games == 6 and hero.wins == pytest.approx(sum(p.wins[1] for p in result.pairings))
    text = result.table()
    assert "invoker wins" in text and "hero wins" in text and "95% CI" in text and "draws" in text and "hero_0, hero_1" in text
    d = result.to_dict()
    assert d["kind"] == "roles" and d["roles"] == {"invoker": ["invoker"], "hero": ["hero_0", "hero_1"]}
    assert set(d["pairings"][0]["win_ci95"]) == {"invoker", "hero"} and len(d["records"]) == 6


def test_asymmetric_and_solo_results_do_not_depend_on_workers() -> None:
    kw = {"games": 4, "seed": 7, "progress": False}
    one = tournament("mythsgate", ["invoker:random", "hero:random", "hero:random"], num_players=2, workers=1, **kw)
    two = tournament("mythsgate", ["invoker:random", "hero:random", "hero:random"], num_players=2, workers=2, **kw)
    assert _no_seconds(one.to_dict()) == _no_seconds(two.to_dict())
    one = tournament("mythwind_innkeeper", ["random", "random"], workers=1, **kw)
    two = tournament("mythwind_innkeeper", ["random", "random"], workers=2, **kw)
    assert _no_seconds(one.to_dict()) == _no_seconds(two.to_dict())


# ------------------------------------------------------------------------- solo
def test_solo_every_policy_plays_the_same_campaigns_and_differences_are_paired() -> None:
    result = tournament("mythwind_innkeeper", ["random", "innkeeper:random"], games=5, seed=1, progress=False)
    assert isinstance(result, SoloResult)
    assert result.games == 6 and result.campaigns == 3
    assert [r.seed for r in result.records[0::2]] == [r.seed for r in result.records[1::2]]  # the same campaigns
    assert len({r.seed for r in result.records}) == 3
    for r in result.records:  # a campaign's return is its coin total: final coins minus the starting 10
        assert r.returns is not None and r.scores is not None and r.returns[0] == pytest.approx(r.scores[0] - 10)
    first, second = result.stats
    assert first.diff is None and second.diff == pytest.approx(second.mean_return - first.mean_return)
    assert first.mean_return == pytest.approx(sum(r.returns[0] for r in result.records[0::2]) / 3)
    assert first.return_ci[0] <= first.mean_return <= first.return_ci[1]
    text = result.table()
    assert "mean return" in text and "mean score" in text and "return - random" in text and "3 campaigns" in text
    d = result.to_dict()
    assert d["kind"] == "solo" and d["policies"][1]["diff_vs_first"]["against"] == "random"
    json.dumps(d, allow_nan=False)  # strict JSON: no NaN


# ---------------------------------------------------------------------- replays
def test_asymmetric_and_solo_records_replay(tmp_path: Path) -> None:
    gate = tournament("mythsgate", ["invoker:random", "hero:random"], games=1, num_players=2, seed=5, progress=False)
    inn = tournament("mythwind_innkeeper", ["random"], games=1, seed=5, progress=False)
    for result in (gate, inn):
        path = tmp_path / f"{result.env}.json"
        result.to_json(path)
        [rec] = load_records(path)
        got = replay(rec, render=False)
        assert got.finished and got.final_rewards == rec.final_rewards and got.returns == rec.returns
        bad = GameRecord.from_dict(rec.to_dict())
        bad.returns = [x + 1 for x in rec.returns]
        with pytest.raises(ReplayError, match="returns"):
            replay(bad, render=False)
        assert eval_cli.main(["replay", str(path), "--check"]) == 0


# -------------------------------------------------------------------------- cli
def test_eval_cli_asymmetric_and_solo_write_tables_json_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js, png = tmp_path / "gate.json", tmp_path / "gate.png"
    rc = eval_cli.main(["eval", "mythsgate", "invoker:random", "hero:random", "hero:random", "--games", "4", "--players", "3",
                        "--workers", "1", "--quiet", "--json", str(js), "--plot", str(png)])
    text = capsys.readouterr().out
    assert rc == 0 and "invoker: 1 seat, hero: 2 seats" in text and "hero:random#2" in text and "turn cap" in text
    data = json.loads(js.read_text())
    assert data["kind"] == "roles" and data["env_kwargs"] == {"num_heroes": 2} and data["num_players"] == 3 and len(data["records"]) == 4
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert eval_cli.main(["replay", str(js), "--game", "3"]) == 0
    assert "final rewards match" in capsys.readouterr().out
    js, png = tmp_path / "inn.json", tmp_path / "inn.png"
    rc = eval_cli.main(["eval", "mythwind_innkeeper", "random", "random", "--games", "4", "--workers", "1", "--quiet",
                        "--json", str(js), "--plot", str(png)])
    text = capsys.readouterr().out
    assert rc == 0 and "solo" in text and "paired by campaign" in text and "return - random" in text
    assert json.loads(js.read_text())["kind"] == "solo" and png.stat().st_size > 10_000


@pytest.mark.parametrize("argv,message", [
    (["mythsgate", "random", "hero:random"], "give every policy as ROLE:REF"),
    (["mythsgate", "wizard:random", "hero:random"], "'wizard' is not a role"),
    (["mythsgate", "invoker:random"], "no policy for role hero"),
    (["mythsgate", "invoker:random", "hero:random", "--players", "7"], "takes players: 2-6"),
    (["mythsgate", "invoker:random", "hero:random", "--players", "3", "--env-arg", "num_heroes=1"], "num_heroes=1 was also given"),
    (["mythsgate", "invoker:random", "hero:random", "--anchor", "random"], "only for symmetric games"),
    (["mythwind_innkeeper", "random", "--players", "2"], "takes players: 1"),
])
def test_eval_cli_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_cli.main(["eval", *argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_a_checkpoint_only_plays_its_role(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.policies.neural import init_mlp_weights
    from mythzoo.policies.registry import Registry

    env = make("mythsgate", num_heroes=1)
    obs, acts = env.observation_space("invoker")["observation"].shape[0], env.action_space("invoker").n
    weights, arch = init_mlp_weights(obs, acts, hidden=(8,), seed=0)
    reg = Registry(tmp_path / "reg")
    info = reg.register("inv", weights, arch, env_spec=env, algo="test", steps=0, role="invoker")
    rc = eval_cli.main(["eval", "mythsgate", "invoker:random", "hero:inv", "--registry", str(tmp_path / "reg"), "--quiet"])
    assert rc == 2 and "trained for role 'invoker'" in capsys.readouterr().err
    result = tournament("mythsgate", ["invoker:inv", "invoker:random", "hero:random"], games=2, num_players=2,
                        registry=str(tmp_path / "reg"), progress=False)
    assert result.by_label()["invoker:inv"].played_as == info.id and result.records[0].refs == [info.id, "random"]
    [ev] = reg.evals("inv:1")
    assert ev.results["policy"] == "invoker:inv" and ev.results["kind"] == "roles"


# ------------------------------------------------------------------------- play
def _always(choice: str = "1"):
    return lambda prompt: choice


def test_play_a_hero_seat_and_a_solo_campaign_and_replay_them(tmp_path: Path) -> None:
    out = io.StringIO()
    save = tmp_path / "hero.json"
    rc = play_cli.main(["play", "mythsgate", "--role", "hero", "--vs", "invoker:random", "hero:random", "--seed", "5", "--save", str(save)],
                       input_fn=_always(), out=out)
    text = out.getvalue()
    assert rc == 0 and "You are hero_0 (seat 1, role hero)" in text and "Your side (hero)" in text
    [rec] = load_records(save)
    assert rec.labels == ["invoker:random", "human", "hero:random"] and rec.refs == ["random", "human", "random"]
    assert rec.env_kwargs == {"num_heroes": 2} and replay(rec, render=False).finished
    out = io.StringIO()
    save = tmp_path / "inn.json"
    rc = play_cli.main(["play", "mythwind_innkeeper", "--seed", "3", "--save", str(save)], input_fn=_always(), out=out)
    assert rc == 0 and "Campaign over" in out.getvalue()
    [rec] = load_records(save)
    assert rec.refs == ["human"] and replay(rec, render=False).returns == rec.returns


def test_play_stops_cleanly_in_an_asymmetric_game(tmp_path: Path) -> None:
    save = tmp_path / "stop.json"
    lines = iter(["1", "q"])
    out = io.StringIO()
    rec = play_cli.play("mythsgate", ["hero:random"], role="invoker", seed=4, save=str(save), input_fn=lambda p: next(lines), out=out)
    assert not rec.finished and "Game stopped (quit)" in out.getvalue()
    assert not replay(load_records(save)[0], render=False).finished


@pytest.mark.parametrize("argv,message", [
    (["mythsgate", "--vs", "invoker:random", "hero:random"], "choose your role with --role"),
    (["mythsgate", "--role", "wizard", "--vs", "invoker:random"], "unknown role 'wizard'"),
    (["mythsgate", "--role", "hero", "--vs", "random"], "give every policy as ROLE:REF"),
    (["mythsgate", "--role", "hero", "--vs", "hero:random"], "no policy for the invoker seat"),
    (["mythsgate", "--role", "hero", "--vs", "invoker:random", "invoker:random"], "must give one ROLE:REF per other seat"),
    (["mythsgate", "--role", "hero", "--seat", "0", "--vs", "invoker:random"], "is not a hero seat"),
    (["mythwind_innkeeper", "--vs", "random"], "solo game"),
    (["mythic_baths"], "give a policy for every other seat with --vs"),
])
def test_play_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert play_cli.main(["play", *argv], input_fn=_always()) == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------------------------- demo
def test_demo_prints_one_table_per_kind_of_game(capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli.main(["demo", "--env", "mythsgate", "--env", "mythwind_innkeeper", "--games", "2", "--players", "1", "3", "--workers", "1"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "asymmetric team games" in text and "side wins" in text and "invoker " in text and "draws" in text
    assert "solo games" in text and "mean return" in text and "symmetric games (every" not in text
    assert "winner VP" not in text
    assert cli.main(["demo", "--env", "mythwind_innkeeper", "--players", "2"]) == 2


def test_envs_lists_seats_for_every_env(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["envs"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(GATE))
    assert "2-6" in line and "invoker" in line


