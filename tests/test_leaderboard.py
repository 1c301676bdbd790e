"""``mythzoo leaderboard``: the page and its board file agree, an added entry lands on the same scale
without touching the stored games, and bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mythzoo.cli import main
from mythzoo.evaluation.leaderboard import ROOT, board_spec, load_board_file, new_board, plan, render_page

POLICY = """import numpy as np

class FirstLegal:
    name = "first-legal"

    def act(self, observation, action_mask, agent=None):
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks, agent=None):
        return [int(np.flatnonzero(m)[0]) for m in action_masks]


def make():
    return FirstLegal()
"""


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["leaderboard", *args, "--workers", "1", "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def baths(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A quick Mythic Baths 2-player board: heuristic and random, 3 deals (6 games)."""
    folder = tmp_path_factory.mktemp("board")
    page = folder / "lb.md"
    assert main(["leaderboard", "mythic_baths", "--players", "2", "--budgets", "none", "--no-champions", "--games", "3",
                 "--workers", "1", "--quiet", "--out", str(page)]) == 0
    return page


@pytest.fixture()
def policy_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "lb_policies.py").write_text(POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "py:lb_policies:make"


def test_page_and_board_file_agree_and_ratings_follow_cross_play(baths: Path) -> None:
    meta, boards = load_board_file(baths.with_suffix(".json"))
    assert baths.read_text() == render_page(boards, meta)
    (board,) = boards
    assert board.key == "mythic_baths-2p" and len(board.games) == 6
    summary = board.summary()
    rows = {r["label"]: r for r in summary["entries"]}
    assert rows["random"]["anchor"] and rows["random"]["mu"] == 25.0
    cp = summary["cross_play"]
    h, r = cp["labels"].index("heuristic"), cp["labels"].index("random")
    assert cp["ahead"][h][r] > 0.5 > cp["ahead"][r][h]
    assert rows["heuristic"]["mu"] > rows["random"]["mu"]
    data = json.loads(baths.with_suffix(".json").read_text())
    assert data["commands"] == [f"mythzoo leaderboard mythic_baths --players 2 --games 3 --budgets none --no-champions --out {baths}"]
    game = data["boards"][0]["games"][0]
    assert set(game) >= {"labels", "final_rewards", "seed", "policy_seeds"}
    assert all(f"`{lab}`" in baths.read_text() for lab in ("heuristic", "random"))


def test_render_rewrites_the_page_from_its_board_file(baths: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "again.md"
    code, _, err = run(["--render", "--board", str(baths.with_suffix(".json")), "--out", str(out)], capsys)
    assert code == 0, err
    assert out.read_text() == baths.read_text() and not out.with_suffix(".json").exists()


def test_added_code_ref_plays_its_own_games_on_the_same_seeds_scheme(baths: Path, tmp_path: Path, policy_module: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine.md"
    code, stdout, err = run(["mythic_baths", "--players", "2", "--add", policy_module, "--board", str(baths.with_suffix(".json")),
                             "--out", str(out)], capsys)
    assert code == 0, err
    _, (before,) = load_board_file(baths.with_suffix(".json"))
    meta, (after,) = load_board_file(out.with_suffix(".json"))
    assert after.games[:len(before.games)] == before.games  # the stored games are untouched
    new = after.games[len(before.games):]
    assert len(new) == 2 * 3 * 2 and all(policy_module in g.labels for g in new)  # 2 lineups x 3 deals x 2 rotations
    assert sum(g.labels[0] == policy_module for g in new) == len(new) // 2  # seat-balanced
    # exactly the games a board with all three entries schedules
    fresh = new_board(board_spec("mythic_baths-2p"), 0, 3)
    fresh.entries = after.entries
    assert sorted((u, lab, s, ps) for u, lab, s, ps in plan(fresh)) == sorted((g.unit, g.labels, g.seed, g.policy_seeds) for g in after.games)
    assert after.entry(policy_module).seconds_per_decision is not None
    assert {r["label"] for r in after.summary()["entries"]} == {"heuristic", "random", policy_module}
    assert len(meta["commands"]) == 2 and "--add py:lb_policies:make" in meta["commands"][1]
    assert out.read_text() == render_page([after], meta)


def test_added_checkpoint_is_pinned_and_cannot_join_twice(baths: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.policies.registry import Registry

    reg = Registry(tmp_path / "registry")
    (info,) = reg.import_(ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar")
    out = tmp_path / "ckpt.md"
    code, _, err = run(["mythic_baths", "--players", "2", "--add", f"{info.name}@latest", "--registry", str(tmp_path / "registry"),
                        "--board", str(baths.with_suffix(".json")), "--out", str(out)], capsys)
    assert code == 0, err
    _, (board,) = load_board_file(out.with_suffix(".json"))
    assert board.entry(f"{info.name}@latest").played_as == info.id
    again = tmp_path / "again.md"
    code, _, err = run(["mythic_baths", "--players", "2", "--add", info.id, "--board", str(out.with_suffix(".json")), "--out", str(again)], capsys)
    assert code == 2 and "already on the mythic_baths-2p board" in err and len(err.strip().splitlines()) == 1
    assert not again.exists() and not again.with_suffix(".json").exists()


def test_added_rollouts_over_a_checkpoint_play_the_pinned_checkpoint(baths: Path, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.policies.registry import Registry

    reg = Registry(tmp_path / "registry")
    (info,) = reg.import_(ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar")
    out = tmp_path / "rollouts.md"
    ref = f"rollouts:2:{info.name}@latest"
    code, _, err = run(["mythic_baths", "--players", "2", "--add", ref, "--registry", str(tmp_path / "registry"),
                        "--board", str(baths.with_suffix(".json")), "--out", str(out)], capsys)
    assert code == 0, err
    _, (board,) = load_board_file(out.with_suffix(".json"))
    assert board.entry(ref).played_as == f"rollouts:2:{info.id}"  # the base pinned to its checkpoint id
    assert sum(ref in g.labels for g in board.games) == 2 * 3 * 2
    assert f"`{ref}`" in out.read_text()


def test_added_rollouts_over_a_board_champion_need_no_registry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "champ.md"
    code, _, err = run(["mythic_baths", "--players", "2", "--budgets", "none", "--games", "1", "--out", str(page)], capsys)
    assert code == 0, err
    _, (board,) = load_board_file(page.with_suffix(".json"))
    (champion,) = [e.played_as for e in board.entries if e.source.startswith("checkpoints/")]
    out = tmp_path / "more.md"
    code, _, err = run(["mythic_baths", "--players", "2", "--add", f"rollouts:2:{champion}", "--registry", str(tmp_path / "none"),
                        "--board", str(page.with_suffix(".json")), "--out", str(out)], capsys)
    assert code == 0, err
    _, (after,) = load_board_file(out.with_suffix(".json"))
    assert after.entry(f"rollouts:2:{champion}").played_as == f"rollouts:2:{champion}"
    assert sum(f"rollouts:2:{champion}" in g.labels for g in after.games) == 3 * 1 * 2


def test_team_board(tmp_path: Path, policy_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "gate.md"
    code, _, err = run(["mythsgate", "--budgets", "none", "--no-champions", "--games", "1", "--out", str(page)], capsys)
    assert code == 0, err
    meta, (board,) = load_board_file(page.with_suffix(".json"))
    assert board.labels() == ["invoker:random", "invoker:heuristic", "hero:random", "hero:heuristic"] and len(board.games) == 4
    sides = board.summary()["sides"]
    assert sides["row_role"] == "invoker" and len(sides["cells"]) == 2 and all(c["games"] == 1 for line in sides["cells"] for c in line)
    code, _, err = run(["mythsgate", "--add", policy_module, "--board", str(page.with_suffix(".json")), "--out", str(tmp_path / "x.md")], capsys)
    assert code == 2 and "give the role" in err
    code, _, err = run(["mythsgate", "--add", f"hero:{policy_module}", "--board", str(page.with_suffix(".json")),
                        "--out", str(tmp_path / "x.md")], capsys)
    assert code == 0, err
    _, (board,) = load_board_file(tmp_path / "x.json")
    assert len(board.games) == 6 and board.entry(f"hero:{policy_module}").role == "hero"


def test_solo_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "inn.md"
    code, _, err = run(["innkeeper", "--budgets", "none", "--no-champions", "--campaigns", "3", "--out", str(page)], capsys)
    assert code == 0, err
    _, (board,) = load_board_file(page.with_suffix(".json"))
    rows = {r["label"]: r for r in board.summary()["entries"]}
    assert rows["heuristic"]["mean_score"] > rows["random"]["mean_score"]
    assert rows["random"]["diff_vs_heuristic"]["campaigns"] == 3 and rows["heuristic"]["diff_vs_heuristic"] is None


@pytest.mark.parametrize("args, message", [
    (["nosuchgame", "--out", "lb.md"], "unknown env"),
    (["mythic_baths", "--players", "5", "--out", "lb.md"], "boards are for 2, 3, 4 players"),
    (["mythic_baths", "--add", "random", "--out", "lb.md"], "give the board with --players"),
    (["mythic_baths", "--players", "2", "--add", "heuristic", "--board", "{board}", "--out", "lb.md"], "already on the mythic_baths-2p board"),
    (["mythic_baths", "--players", "2", "--add", "nosuch@latest", "--registry", "noreg", "--board", "{board}", "--out", "lb.md"],
     "cannot load policy"),
    (["mythic_baths", "--players", "2", "--add", "mcts:0", "--board", "{board}", "--out", "lb.md"], "cannot load policy"),
    (["mythic_baths", "--players", "2", "--add", "mcts:2", "--board", "missing.json", "--out", "lb.md"], "no board file"),
    (["mythic_baths", "--players", "2", "--add", "mcts:2", "--board", "corrupt.json", "--out", "lb.md"], "not valid JSON"),
    (["mythic_baths", "--players", "2", "--add", "mcts:2", "--board", "other.json", "--out", "lb.md"], "not a mythzoo leaderboard file"),
    (["--all", "mythic_baths", "--out", "lb.md"], "not both"),
    (["--render", "--board", "missing.json", "--out", "lb.md"], "no board file"),
    (["mythic_baths", "--players", "2", "--add", "mcts:2", "--games", "2", "--board", "{board}", "--out", "lb.md"], "board's own deals"),
    (["mythic_baths", "--players", "2", "--out", "lb.json"], "name the page"),
])
def test_bad_input_is_one_line_exit_2_nothing_written(args: list[str], message: str, baths: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corrupt.json").write_text("{\"format\": ")
    (tmp_path / "other.json").write_text("[]")
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run([a.replace("{board}", str(baths.with_suffix(".json"))) for a in args], capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_regenerating_one_game_keeps_the_other_boards_of_the_page(baths: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """One game's boards are replaced in the board file at --out; the others stay, with the command
    that made them, in the boards' order; a page of another seed or search set-up is refused."""
    page = tmp_path / "lb.md"
    page.write_text(baths.read_text())
    page.with_suffix(".json").write_text(baths.with_suffix(".json").read_text())
    old_meta, (old,) = load_board_file(page.with_suffix(".json"))
    code, _, err = run(["innkeeper", "--budgets", "none", "--no-champions", "--campaigns", "2", "--out", str(page)], capsys)
    assert code == 0, err
    meta, boards = load_board_file(page.with_suffix(".json"))
    assert [b.key for b in boards] == ["mythic_baths-2p", "innkeeper"]
    assert boards[0].to_dict() == old.to_dict()  # kept as it was, its games untouched
    assert meta["commands"][0] == old_meta["commands"][0] and "innkeeper" in meta["commands"][1]
    assert "seconds" not in meta  # no regeneration time for a page this run made only part of
    assert page.read_text() == render_page(boards, meta)
    before = page.with_suffix(".json").read_text()
    code, _, err = run(["innkeeper", "--budgets", "2", "--no-champions", "--campaigns", "2", "--out", str(page)], capsys)
    assert code == 2 and "has boards made with seed 0, budgets none" in err and len(err.strip().splitlines()) == 1
    assert page.with_suffix(".json").read_text() == before
