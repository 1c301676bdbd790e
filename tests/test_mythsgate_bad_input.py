"""Mythsgate given bad input of its own: constructor arguments, broken game states, data files.

Every bad input fails with a clear error (the right exception type, a message naming the problem)
and leaves the env as it was. Bad actions, the AEC order, generic constructor arguments, generic
broken states and data paths: ``tests/conformance/test_bad_input.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v2
from mythzoo.envs.mythsgate.gamedata import DEFAULT_DATA, DataError


def _started(face: str = "raw_env", k: int = 2, steps: int = 25):
    e = getattr(mythsgate_v2, face)(num_heroes=k)
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
        ({"characters": [0, 0]}, ValueError, "characters"),
        ({"characters": [0]}, ValueError, "characters"),
        ({"characters": [0, 7]}, ValueError, "characters"),
        ({"data": "no/such/folder"}, DataError, "not a folder"),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else "",
)
def test_bad_constructor_arguments(face: str, kwargs: dict, error, match: str) -> None:
    with pytest.raises(error, match=match):
        getattr(mythsgate_v2, face)(**kwargs)


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
    ("bool for int", _game(lambda g: g.__setitem__("round", True)), "round"),
    ("gems out of range", _game(lambda g: g.__setitem__("gems", 11)), "gems"),
    ("duplicate power card", _game(lambda g: g["power_deck"].append(g["power_deck"][0])), "Power cards are not conserved"),
    ("lost power card", _game(lambda g: g["power_deck"].pop()), "Power cards are not conserved"),
    ("invoker card twice", _game(lambda g: g["inv_deck"].append(g["inv_aside"][0])), "Great Invoker cards"),
    ("extra life token", _game(lambda g: g.__setitem__("life_supply", g["life_supply"] + 1)), "life tokens"),
    ("extra resource", _game(lambda g: g["supply"].__setitem__(0, g["supply"][0] + 1)), "resource tokens"),
    ("hero off the map", _game(lambda g: g["h_space"].__setitem__(0, 99)), "h_space"),
    ("hero lives", _game(lambda g: g["h_lives"].__setitem__(0, 5)), "h_lives"),
    ("location card lost", _game(lambda g: g["loc_deck"][0].pop()), "location cards"),
    ("wrong characters", _game(lambda g: g.__setitem__("chars", [4, 3])), "chars"),
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
    ("map.json", lambda m: m["spaces"][3].__setitem__("kind", "plain"), "two inns"),
    ("map.json", lambda m: m["spaces"][0].__setitem__("kind", "plain"), "portal"),
    ("map.json", lambda m: (m["spaces"][0].__setitem__("kind", "plain"), m["spaces"][12].__setitem__("kind", "portal")), "outside the castle"),
    ("map.json", lambda m: (m["spaces"][0].__setitem__("kind", "plain"), m["spaces"][6].__setitem__("kind", "portal")), "must not touch the castle"),
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
        mythsgate_v2.env(data=d)
    assert fname in str(info.value)


def test_a_data_folder_missing_one_file(tmp_path: Path) -> None:
    d = _copy_data(tmp_path)
    (d / "map.json").unlink()
    with pytest.raises(DataError, match="cannot read.*map.json"):
        mythsgate_v2.env(data=d)


def test_replaced_data_folder_is_used_and_recorded_in_the_config(tmp_path: Path) -> None:
    d = _copy_data(tmp_path)
    _edit(d / "characters.json", lambda c: c["heroes"][0].__setitem__("strength", 5))
    e = mythsgate_v2.env(data=d, num_heroes=1)
    e.reset(seed=0)
    assert e.unwrapped.rules.heroes[0].strength == 5
    assert e.unwrapped.config["data"] != mythsgate_v2.env(num_heroes=1).unwrapped.config["data"]
    other = mythsgate_v2.env(num_heroes=1)
    with pytest.raises(ValueError, match="config"):
        other.set_state(e.get_state())
