"""``mythzoo play``: a scripted person (bad inputs, then numbers) plays whole games; quitting and
end of input stop cleanly; every saved record replays."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.training import play_cli
from mythzoo.evaluation import HUMAN, iter_replay, load_records, replay

BAD_INPUTS = ["", "   ", "abc", "0", "-1", "999", "1.5", "q1"]


def scripted(lines: Iterable[str], prompts: list[str] | None = None) -> Callable[[str], str]:
    """An ``input`` stand-in: the given lines in order, then EOFError."""
    it = iter(lines)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_scripted_person_plays_a_full_game_and_the_record_replays(tmp_path: Path) -> None:
    prompts: list[str] = []
    out = io.StringIO()
    save = tmp_path / "game.json"
    lines = itertools.chain(BAD_INPUTS, [" 2 "], itertools.repeat("1"))
    rc = play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "12", "--save", str(save)], input_fn=scripted(lines, prompts), out=out)
    text = out.getvalue()
    assert rc == 0
    assert "is not a number" in text and "is not on the list" in text and "type a number from 1 to" in text
    assert "Your move, player_0:" in text and "Mythic Baths" in text and "player_1 (random) plays" in text
    assert "Game over" in text and "Record saved" in text
    assert all(p.startswith("choose 1-") for p in prompts)
    [rec] = load_records(save)
    assert rec.finished and rec.refs == [HUMAN, "random"] and rec.seed == 12 and rec.final_rewards is not None
    # the first decision was the person's: the bad inputs were asked again, then " 2 " chose the second listed action
    env = make("mythic_baths", num_players=2)
    env.reset(seed=12)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert rec.actions[0] == legal[1]
    human_decisions = sum(1 for f in iter_replay(rec, render=False) if f.agent == "player_0" and f.action is not None)
    assert len(prompts) == human_decisions + len(BAD_INPUTS)  # each bad input asked once more, nothing else
    result = replay(rec, render=False)
    assert result.finished and result.final_rewards == rec.final_rewards


def test_person_in_another_seat_against_two_policies(tmp_path: Path) -> None:
    out = io.StringIO()
    save = tmp_path / "g3.json"
    rec = play_cli.play("mythic_baths", ["heuristic", "random"], seat=2, seed=4, save=str(save),
                        input_fn=scripted(itertools.repeat("1")), out=out)
    assert rec.finished and rec.refs == ["heuristic", "random", HUMAN] and rec.num_players == 3
    assert "You are player_2 (seat 2)" in out.getvalue()
    assert replay(load_records(save)[0], render=False).finished


@pytest.mark.parametrize("ending,expect", [(["1", "1", "q"], "quit"), (["1", "abc"], "end of input")])
def test_quit_and_end_of_input_stop_cleanly_and_save(tmp_path: Path, ending: list[str], expect: str) -> None:
    out = io.StringIO()
    save = tmp_path / "stopped.json"
    rc = play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "3", "--save", str(save)], input_fn=scripted(ending), out=out)
    assert rc == 0
    assert f"Game stopped ({expect})" in out.getvalue()
    [rec] = load_records(save)
    assert not rec.finished and rec.final_rewards is None
    human_moves = sum(1 for a in ending if a == "1")
    frames = list(iter_replay(rec, render=True))
    assert sum(f.agent == "player_0" and f.action is not None for f in frames) == human_moves
    assert frames[-1].action is None and frames[-1].agent == "player_0"  # stops where the person left
    assert not replay(rec, render=False).finished


def test_play_cli_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    never = scripted([])
    assert play_cli.main(["play", "mythic_baths", "--vs", "random", "--seat", "2"], input_fn=never) == 2
    assert play_cli.main(["play", "nowhere", "--vs", "random"], input_fn=never) == 2
    assert play_cli.main(["play", "mythic_baths", "--vs", "random", "random", "random", "random", "random"], input_fn=never) == 2
    assert play_cli.main(["play", "mythic_baths", "--vs", "nobody", "--registry", str(tmp_path / "none")], input_fn=never) == 2
    assert play_cli.main(["play", "mythic_baths"], input_fn=never) == 2  # --vs is required
    assert "error" in capsys.readouterr().err
