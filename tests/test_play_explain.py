"""Terminal play and replays that explain themselves: narration of every decision, legends, ``?``
help with the phase's reminder, forced moves playing themselves, replays narrated (plain or redrawn)."""

from __future__ import annotations

import importlib
import io
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.evaluation import load_records, replay
from mythzoo.evaluation.replay import CLEAR
from mythzoo.training import play_cli
from mythzoo.training.explain import Explainer

GAMES = {"mythic_baths": "mythic_baths", "mythsgate": "mythsgate", "mythwind_innkeeper": "mythwind_innkeeper"}


def scripted(lines: Iterable[str], prompts: list[str] | None = None) -> Callable[[str], str]:
    """An ``input`` stand-in: the given lines in order (recording each prompt), then EOFError."""
    it = iter(lines)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_legend_and_reminders_for_real_phases(game: str) -> None:
    view = importlib.import_module(f"mythzoo.envs.{game}.view")
    rules = importlib.import_module(f"mythzoo.envs.{game}.rules")
    assert view.LEGEND.strip()
    assert set(view.REMINDERS) <= set(rules.PHASE_NAMES)  # a reminder for a phase that does not exist is a typo
    assert all(text.strip() for text in view.REMINDERS.values())


def test_legends_explain_the_cryptic_marks() -> None:
    ms = importlib.import_module("mythzoo.envs.mythsgate.view").LEGEND
    for mark in ("Mkt", "Frg", "PwC", "POR", "TRS", "actions left"):
        assert mark in ms
    inn = importlib.import_module("mythzoo.envs.mythwind_innkeeper.view").LEGEND
    for mark in (",,,,,", ".....", "@n", "bn", "Tab"):
        assert mark in inn


def test_help_legend_and_narration_in_a_played_game(tmp_path: Path) -> None:
    out = io.StringIO()
    save = tmp_path / "g.json"
    rc = play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "12", "--save", str(save)],
                       input_fn=scripted(itertools.chain(["?"], itertools.repeat("1"))), out=out)
    text = out.getvalue()
    assert rc == 0
    assert text.count("Legend") == 2  # once at the start, once for the ?
    assert "Phase turn: take cards from the supply" in text
    assert "Legal actions:" in text and " — Main action: place or move your nourish token" in text
    # the first decision was the person's: gather_supply(supply slot 0), narrated with its effect
    assert "you play gather_supply(supply slot 0)\n     -> player_0: +1 card in hand (now 4)\n" in text
    assert "player_1 (random) plays gather_supply" in text and "     -> player_1: +1 card in hand" in text
    rec = load_records(save)[0]
    others = sum(1 for s in rec_seats(rec) if s != 0)
    assert text.count("player_1 (random) plays") == others  # every one of the other player's moves is narrated


def rec_seats(rec) -> list[int]:
    """The seat of every decision of a record (replayed)."""
    from mythzoo.evaluation import iter_replay

    return [rec.agents.index(st.agent) for st in iter_replay(rec, render=False) if st.action is not None]


def test_forced_moves_play_themselves() -> None:
    prompts: list[str] = []
    out = io.StringIO()
    rc = play_cli.main(["play", "mythsgate", "--role", "hero", "--vs", "invoker:random", "hero:random", "--seed", "4", "--no-save"],
                       input_fn=scripted(itertools.repeat("1"), prompts), out=out)
    text = out.getvalue()
    assert rc == 0
    forced = text.count("only one choice: ")
    assert forced > 0 and "only one choice: fight — played" in text
    mine = text.count("\nyou play ")
    assert mine == len(prompts) + forced  # a forced move asks nothing


def _record(tmp_path: Path) -> object:
    save = tmp_path / "g.json"
    play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "3", "--save", str(save)],
                  input_fn=scripted(itertools.repeat("1")), out=io.StringIO())
    return load_records(save)[0]


def test_plain_replay_is_narrated_with_few_boards(tmp_path: Path) -> None:
    rec = _record(tmp_path)
    n = len(rec.actions)
    out = io.StringIO()
    assert replay(rec, out=out).finished
    text = out.getvalue()
    assert CLEAR not in text  # not a terminal: plain lines
    assert text.count("Mythic Baths, 2 players") == 2  # the table at the start and the end only
    assert sum(line.startswith("[") and "plays" in line for line in text.splitlines()) == n
    assert f"[1/{n}] player_0 (human) plays " in text and "     -> " in text
    out = io.StringIO()
    replay(rec, out=out, board_every=10)
    assert out.getvalue().count("Mythic Baths, 2 players") == -(-n // 10) + 1


def test_replay_redraws_in_place_in_a_terminal(tmp_path: Path) -> None:
    rec = _record(tmp_path)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    replay(rec, out=out)
    text = out.getvalue()
    assert text.count(CLEAR) == len(rec.actions) + 1  # one frame per decision and the end
    assert text.count("Mythic Baths, 2 players") == len(rec.actions) + 1


def test_replay_cli_board_every(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.cli import main

    rec = _record(tmp_path)
    path = tmp_path / "r.json"
    rec.save(str(path))
    assert main(["replay", str(path), "--board-every", "5"]) == 0
    assert capsys.readouterr().out.count("Mythic Baths, 2 players") == -(-len(rec.actions) // 5) + 1


def test_explainer_without_pending_writes_nothing() -> None:
    env = make("mythic_baths", num_players=2)
    env.reset(seed=1)
    lines: list[str] = []
    ex = Explainer(env, 0, lines.append)
    ex.flush()
    assert lines == [] and ex.phase() == "turn" and ex.reminder()


def _choices_until(env, want: set[str], seed: int = 0, steps: int = 3000) -> dict[str, str]:
    """Play ``env`` at random, collecting one choice line per action kind in ``want``."""
    explainer = Explainer(env, 0, lambda line: None)
    rng = np.random.default_rng(seed)
    lines: dict[str, str] = {}
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc or want <= set(lines):
            break
        agent = env.agent_selection
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        for a in legal:
            name, _ = env.unwrapped.action_table(agent).decode(a)
            if name in want and name not in lines:
                lines[name] = explainer.choice(a, agent)
        env.step(int(rng.choice(legal)))
    return lines


def test_innkeeper_choices_say_costs_requirements_and_what_setup_places() -> None:
    env = make("mythwind_innkeeper")
    env.reset(seed=1)
    rules = env.unwrapped.rules
    lines = _choices_until(env, {"slot", "hire", "learn", "buy", "gossip", "sell", "guest"})
    data = rules.data
    assert lines["slot"].endswith("[places the starting table here]")  # the table is placed first (Setup)
    assert f"costs {data.hire_cost} coins" in lines["hire"]
    learned = data.skills[0]  # the first legal learn is the first skill into the first row
    assert f"costs {learned.cost} coins" in lines["learn"] and "1 coin per bar" in lines["learn"] and "resolves when you operate pamper" in lines["learn"]
    token = int(lines["buy"].split("token ", 1)[1].split()[0])
    acc = data.accommodations[token]
    assert f"costs {acc.cost} coins" in lines["buy"] and f"needs renown {'I' * acc.renown}" in lines["buy"]
    assert "mingled:" in lines["gossip"] and "serves " in lines["gossip"]
    assert "gains " in lines["sell"] and "wants " in lines["guest"]


def test_mythsgate_table_shows_actions_left_and_hands_card_by_card() -> None:
    env = make("mythsgate", num_heroes=2, render_mode="ansi")
    env.reset(seed=0)
    u = env.unwrapped
    rng = np.random.default_rng(0)
    while u.state_.cur_hero < 0 or u.state_.h_left <= 0:  # play until a hero is acting
        obs = env.last()[0]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    s = u.state_
    text = env.render()
    row = next(line for line in text.splitlines() if line.startswith(f"*hero_{s.cur_hero}"))
    header = next(line for line in text.splitlines() if line.startswith("hero ") and "actions left" in line)
    col = header.index("actions left")
    assert row[col:].split()[0] == str(s.h_left)
    gd = u.rules.gd
    hand = " ".join(gd.kind_label(k) for k, c in enumerate(s.h_hand[s.cur_hero]) for _ in range(c))
    assert f"hero_{s.cur_hero}: {hand}" in text and len(hand.split()) == sum(s.h_hand[s.cur_hero])
    from mythzoo.envs.mythsgate.view import view_model

    assert view_model(u.rules, s, 1)["heroes"][s.cur_hero]["actions_left"] == s.h_left
