"""Mythsgate given bad input: constructor arguments, actions, set_state data and data files.

Every bad input fails with a clear error (the right exception type, a message naming the problem)
and leaves the env as it was.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from mythzoo.envs import IllegalActionError, mythsgate_v0
from mythzoo.envs.mythsgate.gamedata import DEFAULT_DATA, DataError


def _started(face: str = "raw_env", k: int = 2, steps: int = 25):
    e = getattr(mythsgate_v0, face)(num_heroes=k)
    for seed in range(50):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
            if e.unwrapped.state_.over:
                break
        else:
            return e
    raise AssertionError("no long game")


# ---------------------------------------------------------------------------- constructor
@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_heroes": 0}, ValueError, "1-5 heroes"),
        ({"num_heroes": 6}, ValueError, "1-5 heroes"),
        ({"num_heroes": "2"}, ValueError, "1-5 heroes"),
        ({"num_heroes": 2.0}, ValueError, "1-5 heroes"),
        ({"num_heroes": True}, ValueError, "1-5 heroes"),
        ({"max_rounds": 0}, ValueError, "max_rounds"),
        ({"max_rounds": -3}, ValueError, "max_rounds"),
        ({"max_rounds": 2.5}, ValueError, "max_rounds"),
        ({"max_rounds": "10"}, ValueError, "max_rounds"),
        ({"render_mode": "rgb_array"}, ValueError, "render_mode"),
        ({"characters": [0, 0]}, ValueError, "characters"),
        ({"characters": [0]}, ValueError, "characters"),
        ({"characters": [0, 7]}, ValueError, "characters"),
        ({"data": "no/such/folder"}, DataError, "not a folder"),
        ({"no_such_option": 1}, TypeError, "no_such_option"),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else "",
)
def test_bad_constructor_arguments(face: str, kwargs: dict, error, match: str) -> None:
    with pytest.raises(error, match=match):
        getattr(mythsgate_v0, face)(**kwargs)


# --------------------------------------------------------------------------------- actions
@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize(
    ("action", "error", "match"),
    [(-1, ValueError, "outside"), (10**6, ValueError, "outside"), ("3", TypeError, "action must be an int"),
     (1.5, TypeError, "action must be an int"), (None, TypeError, "action must be an int"), (True, TypeError, "action must be an int")],
    ids=["minus1", "huge", "str", "float", "None", "bool"],
)
def test_bad_action_raises_and_changes_nothing(face: str, action, error, match: str) -> None:
    e = _started(face)
    before = e.get_state()
    with pytest.raises(error, match=match):
        e.step(action)
    assert e.get_state() == before


def test_illegal_action_raw_env_names_agent_action_and_legal_ones() -> None:
    e = _started()
    agent = e.agent_selection
    before = e.get_state()
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        e.step(bad)
    msg = str(info.value)
    assert agent in msg and str(bad) in msg and e.action_label(bad, agent) in msg and "legal" in msg
    assert e.get_state() == before


def test_an_action_id_of_the_other_role_is_out_of_range_or_illegal() -> None:
    e = _started()
    n_inv, n_hero = e.action_space("invoker").n, e.action_space("hero_0").n
    agent = e.agent_selection
    n = e.action_space(agent).n
    other = max(n_inv, n_hero)
    if other > n:
        with pytest.raises(ValueError, match="outside"):
            e.step(other - 1)


def test_use_before_reset_and_after_the_end() -> None:
    e = mythsgate_v0.raw_env(num_heroes=1)
    for call in (lambda: e.step(0), lambda: e.observe("invoker"), lambda: e.get_state(), lambda: e.resample_hidden("invoker", 0)):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    with pytest.raises(KeyError, match="hero_7"):
        e.reset(seed=0) or e.observe("hero_7")


# ------------------------------------------------------------------------------- set_state
def _set(path, value):
    def f(st):
        d = st
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
        return st
    return f


def _game(f):
    def g(st):
        f(st["game"])
        return st
    return g


MUTATIONS = [
    ("not a dict", lambda st: [st], "must be a dict"),
    ("schema", _set(["schema"], 99), "schema"),
    ("env name", _set(["env"], "mythic_baths_v0"), "env"),
    ("config", _set(["config", "num_heroes"], 3), "config"),
    ("missing field", _game(lambda g: g.pop("gems")), "missing fields"),
    ("unknown field", _game(lambda g: g.__setitem__("cheat", 1)), "unknown fields"),
    ("gems out of range", _game(lambda g: g.__setitem__("gems", 11)), "gems"),
    ("duplicate power card", _game(lambda g: g["power_deck"].append(g["power_deck"][0])), "Power cards are not conserved"),
    ("lost power card", _game(lambda g: g["power_deck"].pop()), "Power cards are not conserved"),
    ("invoker card twice", _game(lambda g: g["inv_deck"].append(g["inv_aside"][0])), "Great Invoker cards"),
    ("extra life token", _game(lambda g: g.__setitem__("life_supply", g["life_supply"] + 1)), "life tokens"),
    ("extra resource", _game(lambda g: g["supply"].__setitem__(0, g["supply"][0] + 1)), "resource tokens"),
    ("hero off the map", _game(lambda g: g["h_space"].__setitem__(0, 99)), "h_space"),
    ("hero lives", _game(lambda g: g["h_lives"].__setitem__(0, 5)), "h_lives"),
    ("bool for int", _game(lambda g: g.__setitem__("round", True)), "round"),
    ("location card lost", _game(lambda g: g["loc_deck"][0].pop()), "location cards"),
    ("bad rng", _game(lambda g: g.__setitem__("rng", {"bit_generator": "MT19937"})), "rng|bit generator"),
    ("wrong characters", _game(lambda g: g.__setitem__("chars", [4, 3])), "chars"),
    ("agents", _set(["aec", "agents"], ["invoker"]), "agents"),
]


@pytest.mark.parametrize(("name", "mutate", "match"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_bad_set_state_data_is_rejected_and_changes_nothing(name: str, mutate, match: str) -> None:
    e = _started()
    good = e.get_state()
    bad = mutate(json.loads(json.dumps(good)))
    with pytest.raises(ValueError, match=match):
        e.set_state(bad)
    assert e.get_state() == good


def test_minion_inside_the_castle_is_rejected() -> None:
    e = _started()
    st = e.get_state()
    g = st["game"]
    from mythzoo.envs.mythsgate.gamedata import load_data

    gd = load_data()
    m = next((m for m in range(12) if g["m_space"][m] >= 0), None)
    if m is None:
        pytest.skip("no minion in play")
    g["m_space"][m] = gd.treasure
    with pytest.raises(ValueError, match="inside the Castle"):
        e.set_state(st)


# ------------------------------------------------------------------------------ data files
def _copy_data(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA, d)
    return d


def _edit(path: Path, f) -> None:
    data = json.loads(path.read_text())
    f(data)
    path.write_text(json.dumps(data))


DATA_EDITS = [
    ("map.json", lambda m: m["spaces"].pop(), r"unknown space|map"),
    ("map.json", lambda m: m["bridges"][0].pop(), "four spaces"),
    ("map.json", lambda m: m["paths"].append(["Town Inn", "Mine Forge"]), "inside a quadrant"),
    ("map.json", lambda m: m["spaces"][0].__setitem__("kind", "plain"), "two inns"),
    ("map.json", lambda m: m["spaces"][12].__setitem__("kind", "plain"), "portal"),
    ("characters.json", lambda c: c["materials"][0].__setitem__("count", 11), "52"),
    ("characters.json", lambda c: c["heroes"].pop(), "5 heroes"),
    ("characters.json", lambda c: c["heroes"][0]["armour"]["weapon"].__setitem__("unobtainium", 1), "unknown material"),
    ("characters.json", lambda c: c["heroes"][1].__setitem__("boots", 0), "boots"),
    ("cards.json", lambda c: c["power_cards"][0].__setitem__("count", 4), "48"),
    ("cards.json", lambda c: c["invoker_cards"].pop(), "20 cards"),
    ("cards.json", lambda c: c["invoker_cards"][0].__setitem__("ability", "unicorn"), "ability"),
    ("cards.json", lambda c: c["location_decks"]["town"].pop(), "14 cards"),
    ("cards.json", lambda c: c["location_decks"]["mine"][0].__setitem__("type", "treasure"), "type"),
    ("cards.json", lambda c: c["invoker_cards"][9].pop("rune"), "runes"),
]


@pytest.mark.parametrize(("fname", "edit", "match"), DATA_EDITS, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(DATA_EDITS)])
def test_bad_data_file_gives_a_clear_error(tmp_path: Path, fname: str, edit, match: str) -> None:
    d = _copy_data(tmp_path)
    _edit(d / fname, edit)
    with pytest.raises(DataError, match=match) as info:
        mythsgate_v0.env(data=d)
    assert fname in str(info.value)


def test_data_file_not_json_or_missing(tmp_path: Path) -> None:
    d = _copy_data(tmp_path)
    (d / "cards.json").write_text("{oops")
    with pytest.raises(DataError, match="not valid JSON"):
        mythsgate_v0.env(data=d)
    d2 = _copy_data(tmp_path / "b")
    (d2 / "map.json").unlink()
    with pytest.raises(DataError, match="cannot read"):
        mythsgate_v0.env(data=d2)


def test_replaced_data_folder_is_used_and_recorded_in_the_config(tmp_path: Path) -> None:
    d = _copy_data(tmp_path)
    _edit(d / "characters.json", lambda c: c["heroes"][0].__setitem__("strength", 5))
    e = mythsgate_v0.env(data=d, num_heroes=1)
    e.reset(seed=0)
    assert e.unwrapped.rules.heroes[0].strength == 5
    assert e.unwrapped.config["data"] != mythsgate_v0.env(num_heroes=1).unwrapped.config["data"]
    other = mythsgate_v0.env(num_heroes=1)
    with pytest.raises(ValueError, match="config"):
        other.set_state(e.get_state())
