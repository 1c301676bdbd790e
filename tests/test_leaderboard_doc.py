"""docs/leaderboard.md is what its board file (docs/leaderboard.json) renders to, it holds every board
and entry, its commands are ``mythzoo leaderboard`` command lines that parse, and an entry joins the
shipped board file."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mythzoo.cli import build_parser, main
from mythzoo.evaluation.leaderboard import BOARDS, ROOT, SEARCH_BUDGETS, load_board_file, load_exploitability, render_page

DOC = ROOT / "docs" / "leaderboard.md"
BOARD_FILE = ROOT / "docs" / "leaderboard.json"
EXPLOIT_FILE = ROOT / "docs" / "exploitability.json"


def test_page_is_its_board_file_rendered() -> None:
    meta, boards = load_board_file(BOARD_FILE)
    assert DOC.read_text() == render_page(boards, meta, load_exploitability(EXPLOIT_FILE)), \
        "regenerate the page: mythzoo leaderboard --render --out docs/leaderboard.md"


def test_every_shipped_champion_of_a_game_with_opponents_has_its_exploitability() -> None:
    """Each champion of Mythic Baths and Mythsgate (not the solo Innkeeper) was measured by the command
    on the page, and that command parses as `mythzoo exploit` of the shipped file."""
    entries = load_exploitability(EXPLOIT_FILE)
    measured = {e["target"]["label"] for e in entries}
    champions = {f"checkpoints/{p.name}" for p in (ROOT / "checkpoints").glob("*.tar*") if "innkeeper" not in p.name}
    assert measured == champions
    parser = build_parser()
    for e in entries:
        args = parser.parse_args(shlex.split(e["command"])[1:])
        assert args.command == "exploit" and args.ref == e["target"]["label"] and args.json == "docs/exploitability.json"
        assert args.minutes == e["exploiter"]["minutes"] and args.games <= e["games"]
        assert f"`{e['target']['played_as']}`" in DOC.read_text()


def test_every_board_and_entry_is_on_the_page() -> None:
    meta, boards = load_board_file(BOARD_FILE)
    assert [b.key for b in boards] == [b.key for b in BOARDS]
    assert meta["search"]["budgets"] == list(SEARCH_BUDGETS)
    champions = {p.name for p in (ROOT / "checkpoints").glob("*.tar*")}
    on_boards = set()
    for board in boards:
        labels = [e.label.split(":", 1)[1] if board.kind == "roles" else e.label for e in board.entries]
        for ref in ["random", "heuristic"] + [f"mcts:{b}" for b in SEARCH_BUDGETS]:
            assert ref in labels, (board.key, ref)
        on_boards |= {e.source.split("/", 1)[1] for e in board.entries if e.source.startswith("checkpoints/")}
        assert all(e.seconds_per_decision is not None for e in board.entries)
    assert on_boards == champions


def test_commands_on_the_page_parse() -> None:
    text = DOC.read_text()
    commands = [line.strip() for line in text.splitlines() if re.match(r"^\s*(nice -n 10 )?mythzoo leaderboard ", line)]
    assert len(commands) >= 4
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command.removeprefix("nice -n 10 "))[1:]
        args = parser.parse_args(argv)
        assert args.command == "leaderboard" and (args.all or args.game)
    assert "](docs/leaderboard.md)" in (ROOT / "README.md").read_text()


def test_an_entry_joins_the_shipped_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "lb_doc_policy.py").write_text(
        "import numpy as np\n\nclass FirstLegal:\n    name = 'first-legal'\n\n"
        "    def act(self, observation, action_mask, agent=None):\n        return int(np.flatnonzero(action_mask)[0])\n\n"
        "    def act_batch(self, observations, action_masks, agent=None):\n"
        "        return [int(np.flatnonzero(m)[0]) for m in action_masks]\n\n\ndef make():\n    return FirstLegal()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["leaderboard", "innkeeper", "--add", "py:lb_doc_policy:make", "--workers", "1", "--quiet"]) == 0, capsys.readouterr().err
    _, stored = load_board_file(BOARD_FILE)
    _, boards = load_board_file(tmp_path / "leaderboard.json")
    before = next(b for b in stored if b.key == "innkeeper")
    after = next(b for b in boards if b.key == "innkeeper")
    assert after.games[:len(before.games)] == before.games and len(after.games) == len(before.games) + before.deals
    assert (tmp_path / "leaderboard.md").exists()
