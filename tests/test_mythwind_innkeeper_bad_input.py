"""Bad input to Mythwind: the Innkeeper: every mistake gives a clear error (type and message) and changes nothing.

Actions (illegal, out of range, not an int), the AEC order (after the end, before reset),
constructor arguments, ``set_state`` with broken states, and broken data files.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from mythzoo.envs import IllegalActionError
from mythzoo.envs import mythwind_innkeeper_v0 as inn
from mythzoo.envs.mythwind_innkeeper.components import DEFAULT_DATA, InnDataError, load_data, parse_data
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv

N = 247


def _started(face: str = "raw_env", steps: int = 20, seed: int = 0):
    e = getattr(inn, face)()
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        e.step(int(rng.choice(np.flatnonzero(e.observe("innkeeper")["action_mask"]))))
    return e


@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize(
    ("action", "error", "match"),
    [(-1, ValueError, r"outside .*Discrete\(247\)"), (N, ValueError, r"outside"), ("3", TypeError, "action must be an int"),
     (1.5, TypeError, "action must be an int"), (None, TypeError, "action must be an int"), (True, TypeError, "action must be an int"),
     (np.array([3]), TypeError, "action must be an int")],
    ids=["minus1", "n", "str", "float", "None", "bool", "array1"],
)
def test_bad_action_raises_and_changes_nothing(face: str, action, error, match) -> None:
    e = _started(face)
    before = e.get_state()
    with pytest.raises(error, match=match):
        e.step(action)
    assert e.get_state() == before


def test_numpy_integer_actions_are_accepted() -> None:
    for cast in (np.int64, np.int32, np.array):
        e = _started(steps=0)
        e.step(cast(int(np.flatnonzero(e.observe("innkeeper")["action_mask"])[0])))


def test_illegal_action_raw_env_message_names_the_action_and_the_legal_ones() -> None:
    e = _started()
    before = e.get_state()
    bad = int(np.flatnonzero(e.observe("innkeeper")["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        e.step(bad)
    msg = str(info.value)
    assert "innkeeper" in msg and str(bad) in msg and e.action_label(bad) in msg and "legal" in msg
    assert e.get_state() == before


def test_step_before_reset_and_after_the_end() -> None:
    e = inn.env()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("innkeeper")
    e = inn.env(days_per_season=1, seasons=1)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    while not e.terminations["innkeeper"]:
        e.step(int(rng.choice(np.flatnonzero(e.observe("innkeeper")["action_mask"]))))
    e.step(None)
    with pytest.raises(RuntimeError, match="game is over"):
        e.step(0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"days_per_season": 0}, "days_per_season"), ({"days_per_season": 1.5}, "days_per_season"), ({"seasons": 101}, "seasons"),
     ({"seasons": True}, "seasons"), ({"reward_mode": "vp"}, "reward_mode"), ({"render_mode": "rgb"}, "render_mode"),
     ({"max_turns": 0}, "max_turns")],
)
def test_bad_constructor_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        inn.raw_env(**kwargs)
    with pytest.raises(ValueError, match=match):
        MythwindInnkeeperGymEnv(**kwargs)


def test_reset_seed_must_be_an_int() -> None:
    with pytest.raises(TypeError, match="seed"):
        inn.env().reset(seed="1")


# ------------------------------------------------------------------ set_state
def _mutations():
    def game(f):
        def m(st):
            f(st["game"])
            return st
        return m

    def setk(k, v):
        return game(lambda g: g.__setitem__(k, v))

    return [
        ("not a dict", lambda st: [], "must be a dict"),
        ("schema", lambda st: {**st, "schema": 99}, "schema"),
        ("env", lambda st: {**st, "env": "mythic_baths_v0"}, "env"),
        ("config", lambda st: {**st, "config": {**st["config"], "seasons": 9}}, "config"),
        ("missing field", game(lambda g: g.pop("coins")), "missing fields"),
        ("unknown field", setk("vp", 3), "unknown fields"),
        ("negative coins", setk("coins", -1), "coins"),
        ("coins a float", setk("coins", 1.5), "coins"),
        ("renown off the track", setk("renown", 10), "renown"),
        ("guest in two places", game(lambda g: g["bag"].append(g["bag"][0])), "bag|guest"),
        ("guest vanished", game(lambda g: g["bag"].pop()), "guest"),
        ("bag unsorted", game(lambda g: g["bag"].reverse()), "bag|sorted"),
        ("gossip card lost", game(lambda g: (g["hand"] or g["gdeck"]).pop()), "gossip"),
        ("door in an inner slot", game(lambda g: _move_token(g, 12)), "placement|slot"),
        ("slot list short", game(lambda g: g["slot_acc"].pop()), "slot_acc"),
        ("bad rng", setk("rng", {"bit_generator": "MT19937"}), "rng|bit generator"),
        ("phase out of range", setk("phase", 99), "phase"),
        ("over without the over phase", setk("over", 1), "over"),
    ]


def _move_token(g: dict, dest: int) -> None:
    """Move the window (placed by setup at an outer slot) into an inner slot."""
    for d, a in enumerate(g["slot_acc"]):
        if a >= 0 and d != dest and g["slot_acc"][dest] < 0 and a in (0, 3):  # plain window or door
            g["slot_acc"][dest], g["slot_acc"][d] = a, -1
            g["slot_dmg"][dest], g["slot_dmg"][d] = g["slot_dmg"][d], 0
            g["acc_slot"][a] = dest
            return
    raise AssertionError("no window or door to move")


@pytest.mark.parametrize(("name", "mutate", "match"), _mutations(), ids=[m[0] for m in _mutations()])
def test_set_state_rejects_broken_states_and_changes_nothing(name: str, mutate, match: str) -> None:
    e = _started(steps=25)
    good = e.get_state()
    bad = mutate(copy.deepcopy(good))
    with pytest.raises(ValueError, match=match):
        e.set_state(bad)
    assert e.get_state() == good


def test_set_state_rejects_non_json_data() -> None:
    e = _started()
    st = e.get_state()
    st["game"]["coins"] = np.int64(3)
    with pytest.raises(ValueError, match="JSON|coins"):
        e.set_state(st)


# ------------------------------------------------------------------ data files
def _raw() -> dict:
    return json.loads(DEFAULT_DATA.read_text())


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d.pop("guests"), "missing"),
        (lambda d: d["guests"].pop(), "30 guest tokens"),
        (lambda d: d["guests"][0].__setitem__("level", 2), "12 level I"),
        (lambda d: d["guests"][3]["requests"].__setitem__("furniture", "kitchen"), r"guests\[3\].requests.furniture"),
        (lambda d: d["guests"][3]["requests"].__setitem__("services", ["sauna"]), r"guests\[3\].requests.services"),
        (lambda d: d["guests"][3]["complaints"].append({"kind": "curse"}), r"guests\[3\].complaints\[\d\].kind"),
        (lambda d: d["accommodations"].pop(), "29 tokens"),
        (lambda d: d["accommodations"][5].__setitem__("cost", -2), r"accommodations\[5\].cost"),
        (lambda d: d["accommodations"][5].__setitem__("renown", 4), r"accommodations\[5\].renown"),
        (lambda d: d["gossip_cards"].pop(), "6 cards"),
        (lambda d: d["skills"].reverse(), "skills"),
        (lambda d: d["weather"].__setitem__("deck", []), "weather.deck"),
        (lambda d: d["renown_track"].__setitem__("guests", [6]), "renown_track.guests"),
        (lambda d: d["rules"].__setitem__("starting_accommodations", [6, 7, 3]), "starting_accommodations"),
        (lambda d: d["worker_dice"]["sprite"].__setitem__("faces", [0, 0]), "faces"),
    ],
)
def test_broken_data_files_are_refused_with_a_clear_message(mutate, match: str) -> None:
    raw = _raw()
    mutate(raw)
    with pytest.raises(InnDataError, match=match):
        parse_data(raw)


def test_unreadable_or_invalid_json_data_file(tmp_path) -> None:
    with pytest.raises(InnDataError, match="cannot read"):
        load_data(tmp_path / "missing.json")
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(InnDataError, match="not valid JSON"):
        inn.raw_env(data=p)
