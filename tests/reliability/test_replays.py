"""Replays under attack: a record binds every decision (a changed action is found whatever the
result), old records still read with what they can check said, and a malformed record is one
error line, never a traceback (issue 15, "Replays"; the format is in docs/evaluation.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.evaluation import GameRecord, ReplayError, iter_replay, load_records, replay, tournament
from mythzoo.evaluation.records import OLD_RECORD_FORMATS, RECORD_FORMAT, decision_digest
from mythzoo.training import eval_cli

# One small tournament per game: (env, refs, players).
GAMES = [
    ("mythic_baths", ["random", "heuristic"], 2),
    ("mythsgate", ["invoker:random", "hero:heuristic"], 2),
    ("mythwind_innkeeper", ["random"], None),
]


def _records(env: str, refs: list[str], players: int | None, games: int = 2) -> list[GameRecord]:
    result = tournament(env, refs, games, num_players=players, workers=1, seed=3, progress=False)
    return result.records


def _legal_alternative(record: GameRecord, k: int) -> int | None:
    """Another legal action than ``record.actions[k]`` at decision k (None if it was forced)."""
    env = make(record.env, **record.env_kwargs)
    env.reset(seed=record.seed)
    done = 0
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        if done == k:
            others = [int(a) for a in np.flatnonzero(mask) if int(a) != record.actions[k]]
            return others[0] if others else None
        env.step(record.actions[done])
        done += 1
    return None


@pytest.mark.parametrize(("env", "refs", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_a_changed_legal_action_is_found_at_its_decision(env: str, refs: list[str], players: int | None) -> None:
    """The issue's 16 of 86: a legal action changed to another legal one is refused at that
    decision by its digest, whatever the game's result would have been."""
    changed = 0
    for record in _records(env, refs, players):
        assert record.format == RECORD_FORMAT and len(record.digests) == len(record.actions)
        replay(record, render=False)  # the record as played replays
        for k in sorted({0, 1, len(record.actions) // 2, len(record.actions) - 1}):
            other = _legal_alternative(record, k)
            if other is None:
                continue
            forged = copy.deepcopy(record)
            forged.actions[k] = other
            with pytest.raises(ReplayError, match=rf"^decision {k}: the digest differs"):
                replay(forged, render=False)
            changed += 1
    assert changed >= 4


def test_the_digest_covers_the_action_the_observation_the_mask_and_the_chain() -> None:
    obs, mask = np.arange(6, dtype=np.float32), np.array([1, 0, 1], dtype=bool)
    base = decision_digest(None, "player_0", obs, mask, 2)
    assert len(base) == 16 and base == decision_digest(None, "player_0", obs.copy(), mask.copy(), 2)
    assert decision_digest(None, "player_0", obs, mask, 0) != base
    assert decision_digest(None, "player_1", obs, mask, 2) != base
    assert decision_digest(None, "player_0", obs + 1, mask, 2) != base
    assert decision_digest(None, "player_0", obs, ~mask, 2) != base
    assert decision_digest("00" * 8, "player_0", obs, mask, 2) != base
    assert decision_digest(None, "player_0", obs.astype(">f4"), mask, 2) == base  # the bytes are little-endian whatever the array's order
    strided = np.zeros(12, dtype=np.float32)[::2]
    strided[:] = obs
    assert decision_digest(None, "player_0", strided, [True, False, True], 2) == base  # any layout, any mask type
    assert decision_digest(None, "player_0", obs, mask.astype(np.int8), 2) == base


def test_a_changed_digest_or_a_dropped_one_is_refused() -> None:
    record = _records(*GAMES[0])[0]
    forged = copy.deepcopy(record)
    forged.digests[3] = "0" * 16
    with pytest.raises(ReplayError, match=r"^decision 3: the digest differs"):
        replay(forged, render=False)
    short = copy.deepcopy(record)
    short.digests.pop()
    with pytest.raises(ReplayError, match="decision digests for"):
        replay(short, render=False)
    d = record.to_dict()
    del d["digests"]
    with pytest.raises(ValueError, match="must have digests"):
        GameRecord.from_dict(d)


def _old(record: GameRecord) -> dict[str, Any]:
    d = record.to_dict()
    del d["digests"]
    d["format"] = OLD_RECORD_FORMATS[0]
    return d


def test_an_old_record_still_replays_and_says_what_it_cannot_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _records(*GAMES[0])[0]
    old = GameRecord.from_dict(_old(record))
    assert old.digests is None and old.format == "mythzoo-game/1"
    result = replay(old, render=False)
    assert result.finished and not result.bound
    assert replay(record, render=False).bound
    path = tmp_path / "old.json"
    path.write_text(json.dumps(_old(record)))
    assert eval_cli.main(["replay", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "replay ok" in out and "without decision digests" in out and "goes unnoticed" in out
    # What an old record still checks: legality and the result.
    illegal = _old(record)
    env = make(record.env, **record.env_kwargs)
    env.reset(seed=record.seed)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal["actions"][0] = int(np.flatnonzero(~mask.astype(bool))[0])
    with pytest.raises(ReplayError, match="is not legal"):
        replay(GameRecord.from_dict(illegal), render=False)
    other = _old(record)
    other["final_rewards"] = [-r for r in other["final_rewards"]]
    with pytest.raises(ReplayError, match="final rewards"):
        replay(GameRecord.from_dict(other), render=False)


def test_a_record_of_an_unknown_format_is_refused() -> None:
    d = _records(*GAMES[0])[0].to_dict()
    d["format"] = "mythzoo-game/99"
    with pytest.raises(ValueError, match="known format"):
        GameRecord.from_dict(d)


# Each malformed record: (name, how to spoil a good record's dict, the exit code).
def _set(key: str, value: Any) -> Any:
    def spoil(d: dict[str, Any]) -> None:
        d[key] = value

    return spoil


def _action(value: Any) -> Any:
    def spoil(d: dict[str, Any]) -> None:
        d["actions"][0] = value

    return spoil


def _labels_short(d: dict[str, Any]) -> None:
    d["labels"] = d["labels"][:1]


def _env_kwargs_other_game(d: dict[str, Any]) -> None:
    d["env"] = "mythsgate"  # another game's env with this game's arguments and agents


BAD_RECORDS = [
    ("unknown env", _set("env", "no_such_game"), 1),
    ("another game's env", _env_kwargs_other_game, 1),
    ("env not a string", _set("env", ["mythic_baths"]), 2),
    ("env_kwargs an unknown argument", _set("env_kwargs", {"num_players": 2, "nope": 1}), 1),
    ("env_kwargs a bad player count", _set("env_kwargs", {"num_players": 99}), 1),
    ("env_kwargs a list", _set("env_kwargs", [2]), 2),
    ("seed a string", _set("seed", "7"), 2),
    ("seed negative", _set("seed", -1), 2),
    ("seed huge", _set("seed", 10**30), 2),
    ("actions a dict", _set("actions", {"0": 1}), 2),
    ("an action true", _action(True), 2),
    ("an action a string", _action("3"), 2),
    ("an action negative", _action(-1), 2),
    ("an action out of range", _action(10**6), 1),
    ("num_players a string", _set("num_players", "2"), 2),
    ("num_players other than the env's", _set("num_players", 3), 2),
    ("labels shorter than the seats", _labels_short, 2),
    ("final_rewards NaN", _set("final_rewards", [float("nan"), 1.0]), 2),
    ("finished a number", _set("finished", 1), 2),
    ("digests not hex", lambda d: d.update(digests=["zz" * 8 for _ in d["digests"]]), 2),
    ("digests null", _set("digests", None), 0),  # recorded without digests: replays, unbound (and says so)
]


@pytest.mark.parametrize("rendered", [True, False], ids=["rendered", "check"])
@pytest.mark.parametrize(("name", "spoil", "code"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_a_malformed_record_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, spoil: Any, code: int,
                                               rendered: bool) -> None:
    d = _records(*GAMES[0], games=1)[0].to_dict()
    spoil(d)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    capsys.readouterr()
    rc = eval_cli.main(["replay", str(path)] + ([] if rendered else ["--check"]))
    err = capsys.readouterr().err
    assert rc == code, err
    if code:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("mythzoo replay: "), err
        assert "Traceback" not in err


def test_num_players_other_than_the_env_s_is_a_replay_error_through_the_api() -> None:
    record = _records(*GAMES[0], games=1)[0]
    for field, value in [("num_players", 3), ("labels", ["a"]), ("agents", ["x", "y"]), ("env", "no_such_game"),
                         ("env_kwargs", {"num_players": "two"})]:
        bad = copy.deepcopy(record)
        setattr(bad, field, value)
        with pytest.raises(ReplayError):
            list(iter_replay(bad, render=False))


@pytest.mark.parametrize("text", ['{"env": "mythic_baths", "actions": [1, 2', "[" * 200_000 + "]" * 200_000, "\xff\xfe", ""],
                         ids=["truncated", "200000 deep", "not text", "empty"])
def test_a_file_that_is_not_a_record_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError):
        load_records(path)
    assert eval_cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("mythzoo replay: error: cannot read game records") and "Traceback" not in err


def test_labels_from_a_file_are_printed_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = _records(*GAMES[0], games=1)[0].to_dict()
    d["labels"] = ["\x1b[2J\x1b]0;x\x07", "two\nlines"]
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(d))
    assert eval_cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "two\\nlines" in out and "\\x1b[2J" in out
