"""The browser viewer without a browser: each game's view model and narration, the sessions, the
server's JSON API and what it refuses to serve, and ``mythzoo view`` on the command line.

The page itself (drawing, stepping, clicking) is tested in a real browser in ``tests/browser/``.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mythzoo.evaluation import GameRecord, iter_replay, load_records
from mythzoo.evaluation.play import play_game
from mythzoo.training.view_cli import main as view_main
from mythzoo.viewer import LiveSession, ReplaySession, ViewerError, ViewerServer
from mythzoo.viewer.server import static_files

ROOT = Path(__file__).resolve().parents[1]
GAMES = {  # game -> (players, a policy per seat)
    "mythic_baths": (3, ["heuristic", "random", "heuristic"]),
    "mythsgate": (3, ["heuristic", "heuristic", "random"]),
    "mythwind_innkeeper": (None, ["heuristic"]),
}


@pytest.fixture(scope="module", params=list(GAMES))
def replay(request: pytest.FixtureRequest) -> ReplaySession:
    players, refs = GAMES[request.param]
    return ReplaySession(play_game(request.param, players, refs, seed=11))


# ------------------------------------------------------------------ view models and narration
def test_every_frame_has_a_json_view_from_every_seat_and_a_narrated_decision(replay: ReplaySession) -> None:
    record = replay.original
    assert len(replay.frames) == record.decisions + 1 and len(replay.log) == record.decisions
    assert [f.action for f in replay.frames[:-1]] == record.actions and replay.frames[-1].agent is None
    for i in range(0, len(replay.frames), 7):
        for seat in [None, *range(record.num_players)]:
            vm = replay.frame(i, seat)["view"]
            assert vm["game"] == replay.view.__name__.split(".")[-2]
            json.dumps(vm)  # plain JSON
    assert sum(bool(e.effects) for e in replay.log) > len(replay.log) / 3  # most decisions change something visible
    assert replay.frame(len(replay.frames) - 1, None)["view"]["over"]


def test_a_seats_view_hides_the_others_hands() -> None:
    baths = ReplaySession(play_game("mythic_baths", 2, ["heuristic", "heuristic"], seed=3))
    hands = [p["hand"] for p in baths.view_model(10, 1)["players"]]
    assert hands[0] is None and hands[1] is not None
    assert all(p["hand"] is not None for p in baths.view_model(10, None)["players"])
    gate = ReplaySession(play_game("mythsgate", 3, ["heuristic"] * 3, seed=3))
    invoker, hero = gate.view_model(20, 0), gate.view_model(20, 2)
    assert invoker["invoker"]["hand"] is not None and all(h["hand"] is None for h in invoker["heroes"])
    assert hero["invoker"]["hand"] is None and all(h["hand"] is not None for h in hero["heroes"])


def test_mythic_baths_narrates_treatments_vp_and_amber() -> None:
    s = ReplaySession(play_game("mythic_baths", 2, ["heuristic", "heuristic"], seed=3))
    effects = [x for e in s.log for x in e.effects]
    done = [x for x in effects if "completes the treatment of" in x]
    assert done and any(re.search(r"\+\d+ VP \(now \d+\)", x) for x in effects) and any("amber" in x for x in effects)
    final = s.view_model(len(s.frames) - 1, None)
    assert sum(len(p["guests"]) for p in final["players"]) == len(done)  # one line per guest treated
    assert effects[-1].startswith("game over: ")


def test_mythsgate_narrates_fights_moves_and_invocations() -> None:
    s = ReplaySession(play_game("mythsgate", 3, ["heuristic"] * 3, seed=3))
    effects = [x for e in s.log for x in e.effects]
    assert any(x.startswith("fight result: ") for x in effects)
    assert any("invokes the" in x for x in effects) and any(" moves to " in x for x in effects)
    assert effects[-1].startswith("game over: ") and effects[-1].endswith(" wins")


def test_the_innkeeper_narrates_dusk_coins_and_seating() -> None:
    s = ReplaySession(play_game("mythwind_innkeeper", None, ["heuristic"], seed=3))
    effects = [x for e in s.log for x in e.effects]
    dusks = [x for x in effects if x.startswith("dusk of day")]
    assert len(dusks) == s.view_model(len(s.frames) - 1, None)["total_days"]  # every day ends at dusk
    assert any(" at dusk (now " in x for x in effects) and any(" is seated at the " in x for x in effects)
    assert effects[-1].startswith("campaign over: ")


def test_board_targets_name_elements_of_the_view() -> None:
    live = LiveSession("mythic_baths", ["heuristic"], 0, 4)
    legal = live.legal(len(live.frames) - 1)
    assert legal and {a["label"] for a in legal} == {live.u.action_label(a) for a in live.u.legal_actions()}
    assert {a["target"] for a in legal if a["range"] == "gather_supply"} <= {f"supply:{i}" for i in range(5)}
    assert all(a["target"] == f"bath:{a['label'].split('bath ')[1].rstrip(')')}" for a in legal if a["range"] in ("treat", "nourish"))


def test_a_game_without_a_view_module_is_one_clear_error() -> None:
    record = play_game("toy_game", 2, ["random", "random"], seed=0)
    with pytest.raises(ViewerError, match="has no browser view"):
        ReplaySession(record)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = play_game("mythic_baths", 2, ["random", "random"], seed=1)
    bad = GameRecord.from_dict(dict(record.to_dict(), actions=[record.actions[1]] + record.actions[1:]))
    with pytest.raises(ValueError):
        ReplaySession(bad)


# ------------------------------------------------------------------ live play
def test_a_live_game_played_to_the_end_is_saved_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "live.json"
    live = LiveSession("mythic_baths", ["heuristic"], 1, 5, save=str(save))
    assert live.pending is not None and live.pending.seat == 1  # the heuristic in seat 0 moved first
    moves = 0
    while live.pending is not None:
        live.act(live.legal(len(live.frames) - 1)[0]["action"])
        moves += 1
    (record,) = load_records(save)
    assert record.finished and record.refs == ["heuristic", "human"] and record.decisions == len(live.frames) - 1
    assert sum(1 for e in live.log if e.seat == 1) == moves
    assert list(iter_replay(record, render=False))[-1].final_rewards == record.final_rewards
    with pytest.raises(ViewerError, match="over"):
        live.act(0)


@pytest.mark.parametrize("game, vs, role", [("mythic_baths", ["mcts:4"], None), ("mythsgate", ["invoker:mcts:4:heuristic"], "hero")])
def test_a_live_game_against_the_search_baseline_plays_to_the_end(game: str, vs: list[str], role: str | None, tmp_path: Path) -> None:
    """The search decides from the game itself (its act_in_env): in the viewer it plays the live
    game the person sees, every move legal, and the record replays."""
    save = tmp_path / "live.json"
    live = LiveSession(game, vs, None, 7, role=role, save=str(save))
    while live.pending is not None:
        live.act(live.legal(len(live.frames) - 1)[-1]["action"])
    (record,) = load_records(save)
    search_ref = vs[0].split(":", 1)[1] if role else vs[0]
    assert record.finished and search_ref in record.refs and "human" in record.refs
    assert any(e.seat != live.human_seat for e in live.log)  # the search moved too
    assert list(iter_replay(record, render=False))[-1].final_rewards == record.final_rewards


def test_a_live_game_refuses_illegal_moves_and_shows_only_the_persons_view() -> None:
    live = LiveSession("mythsgate", ["invoker:heuristic"], None, 2, role="hero")
    legal = {a["action"] for a in live.legal(len(live.frames) - 1)}
    illegal = next(a for a in range(200) if a not in legal)
    for bad in (illegal, -1, "3", None, True):
        with pytest.raises(ViewerError, match="legal"):
            live.act(bad)
    frame = live.frame(len(live.frames) - 1, None)  # asked for every hand: gets the hero's view
    assert frame["view"]["invoker"]["hand"] is None and frame["legal"]


# ------------------------------------------------------------------ the server
@pytest.fixture
def served(tmp_path: Path):
    session = LiveSession("mythwind_innkeeper", [], None, 3, env_kwargs={"days_per_season": 1, "seasons": 1}, save=str(tmp_path / "inn.json"))
    server = ViewerServer(session)
    server.start()
    yield server
    server.stop()


def request(server: ViewerServer, method: str, path: str, body: object = None, headers: dict[str, str] | None = None) -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    conn.request(method, path, body=data, headers=hdrs)
    r = conn.getresponse()
    out = r.status, r.read(), r.getheader("Content-Type") or ""
    conn.close()
    return out


def test_the_server_binds_to_loopback_and_serves_the_page(served: ViewerServer) -> None:
    assert served.server_address[0] == "127.0.0.1" and served.url == f"http://127.0.0.1:{served.port}/"
    status, body, ctype = request(served, "GET", "/")
    assert status == 200 and ctype.startswith("text/html") and b"/static/viewer.js" in body
    for name in re.findall(rb'(?:src|href)="/static/([^"]+)"', body):
        status, _, _ = request(served, "GET", f"/static/{name.decode()}")
        assert status == 200, name


@pytest.mark.parametrize("path", [
    "/static/", "/static", "/static/../session.py", "/static/..%2fsession.py", "/static/%2e%2e/server.py",
    "/static/../../envs/mythic_baths/data/reconstructed.json", "/../pyproject.toml", "/viewer/session.py", "/session.py",
    "/static//etc/passwd", "/static/.%2e/.%2e/pyproject.toml", "/etc/passwd", "/api", "/api/", "/static/index.html/", "/favicon.ico",
])
def test_the_server_serves_nothing_but_its_own_files(served: ViewerServer, path: str) -> None:
    status, body, _ = request(served, "GET", path)
    assert status == 404, (path, body[:80])


def test_a_request_for_another_host_is_refused(served: ViewerServer) -> None:
    status, body, _ = request(served, "GET", "/api/game", headers={"Host": "evil.example:80"})
    assert status == 403 and b"Host" in body


def test_the_api_plays_a_live_game_and_saves_its_record(served: ViewerServer, tmp_path: Path) -> None:
    status, body, _ = request(served, "GET", "/api/game")
    meta = json.loads(body)
    assert status == 200 and meta["mode"] == "live" and meta["human_seat"] == 0 and not meta["finished"]
    assert request(served, "POST", "/api/act", headers={"Content-Type": "text/plain"})[0] == 415
    assert request(served, "POST", "/api/act", {"action": 10**6})[0] == 400
    assert request(served, "POST", "/api/nothing", {})[0] == 404
    status, body, _ = request(served, "GET", "/api/frame?i=x")
    assert status == 400 and b"integer" in body
    assert request(served, "GET", "/api/frame?i=999999")[0] == 400
    assert request(served, "POST", "/api/save", {})[0] == 200  # unfinished, saved as it stands
    while True:
        frame = json.loads(request(served, "GET", "/api/frame?i=-1")[1])
        if not frame["legal"]:
            break
        status, body, _ = request(served, "POST", "/api/act", {"action": frame["legal"][-1]["action"]})
        assert status == 200, body
    assert frame["finished"] and frame["view"]["over"]
    log = json.loads(request(served, "GET", "/api/log")[1])
    assert len(log) == frame["frames"] - 1 and log[-1]["effects"][-1].startswith("campaign over")
    (record,) = load_records(tmp_path / "inn.json")
    assert record.finished and record.decisions == len(log)


def test_a_replay_takes_no_moves(tmp_path: Path) -> None:
    server = ViewerServer(ReplaySession(play_game("mythic_baths", 2, ["random", "random"], seed=0)))
    server.start()
    try:
        assert request(server, "POST", "/api/act", {"action": 0})[0] == 409
        frame = json.loads(request(server, "GET", "/api/frame?i=0&seat=1")[1])
        assert frame["legal"] == [] and frame["view"]["players"][0]["hand"] is None
        assert request(server, "GET", "/api/frame?i=0&seat=7")[0] == 400
    finally:
        server.stop()


def test_the_package_data_covers_every_static_file() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["mythzoo.viewer"]
    on_disk = {p.name for p in (ROOT / "viewer" / "static").iterdir()}
    assert on_disk == {p.name for pat in patterns for p in (ROOT / "viewer").glob(pat)}
    assert set(static_files()) == on_disk


# ------------------------------------------------------------------ the command line
def test_view_cli_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "g.json"
    play_game("mythic_baths", 2, ["random", "random"], seed=0).save(record)
    (tmp_path / "bad.json").write_text("{")
    cases = [
        ([], "give a game record file"),
        ([str(record), "--play", "mythic_baths"], "not both"),
        ([str(tmp_path / "bad.json")], "not valid JSON"),
        ([str(tmp_path / "missing.json")], "cannot read game records"),
        ([str(record), "--vs", "random"], "--vs goes with --play"),
        ([str(record), "--game", "3"], "holds 1 game"),
        ([str(record), "--seat", "5"], "the game has 2 seats"),
        (["--play", "nope"], "unknown env"),
        (["--play", "mythic_baths"], "needs opponents"),
        (["--play", "mythic_baths", "--vs", "no_such_policy"], "cannot load policy"),
        (["--play", "mythwind_innkeeper", "--vs", "random"], "solo game"),
    ]
    for argv, message in cases:
        assert view_main(["view", *argv, "--no-browser"]) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)


def test_view_cli_prints_the_url_and_serves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    play_game("mythsgate", 2, ["heuristic", "heuristic"], seed=1).save(record)
    cmd = [sys.executable, "-m", "mythzoo", "view", str(record), "--no-browser", "--seat", "1"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path) as proc:
        try:
            line = proc.stdout.readline()
            m = re.search(r"http://127\.0\.0\.1:(\d+)/\?seat=1", line)
            assert m, line + proc.stderr.read()
            conn = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=30)
            conn.request("GET", "/api/game")
            meta = json.loads(conn.getresponse().read())
            assert meta["mode"] == "replay" and meta["env"] == "mythsgate_v2" and meta["frames"] == len(load_records(record)[0].actions) + 1
        finally:
            proc.terminate()
            proc.wait(timeout=30)
