"""Bad input of Mythwind: the Innkeeper's own: every mistake gives a clear error and changes nothing.

Campaign lengths out of range, game states broken in the Innkeeper's own ways (coins, renown,
guests, the bag, gossip cards, the grid's placement rules, phases) and broken data files. Bad
actions, the AEC order, generic constructor arguments (on the Gym env too), generic broken states
and data paths: ``tests/conformance/test_bad_input.py``.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs.mythwind_innkeeper.components import DEFAULT_DATA, InnDataError, parse_data
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv


def _started(face: str = "raw_env", steps: int = 20, seed: int = 0):
    e = getattr(inn, face)()
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        e.step(int(rng.choice(np.flatnonzero(e.observe("innkeeper")["action_mask"]))))
    return e


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"days_per_season": 0}, "days_per_season"), ({"seasons": 0}, "seasons"), ({"seasons": 101}, "seasons")],
)
def test_bad_constructor_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        inn.raw_env(**kwargs)
    with pytest.raises(ValueError, match=match):
        MythwindInnkeeperGymEnv(**kwargs)


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
        ("config", lambda st: {**st, "config": {**st["config"], "seasons": 9}}, "config"),
        ("negative coins", setk("coins", -1), "coins"),
        ("coins a float", setk("coins", 1.5), "coins"),
        ("renown off the track", setk("renown", 10), "renown"),
        ("guest in two places", game(lambda g: g["bag"].append(g["bag"][0])), "bag|guest"),
        ("guest vanished", game(lambda g: g["bag"].pop()), "guest"),
        ("bag unsorted", game(lambda g: g["bag"].reverse()), "bag|sorted"),
        ("gossip card lost", game(lambda g: (g["hand"] or g["gdeck"]).pop()), "gossip"),
        ("door in an inner slot", game(lambda g: _move_token(g, 12)), "placement|slot"),
        ("slot list short", game(lambda g: g["slot_acc"].pop()), "slot_acc"),
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
        (lambda d: d["rules"].__setitem__("starting_accommodations", [[8, 0], 0, 3]), "one type"),  # a table or a window
        (lambda d: d["rules"].__setitem__("starting_accommodations", [[8, 8], 0, 3]), "distinct tokens"),
        (lambda d: d["rules"].__setitem__("starting_accommodations", [[], 0, 3]), "starting_accommodations"),
        (lambda d: d["rules"].__setitem__("starting_accommodations", [[8, 99], 0, 3]), "token ids"),
        (lambda d: d["worker_dice"]["sprite"].__setitem__("faces", [0, 0]), "faces"),
    ],
)
def test_broken_data_files_are_refused_with_a_clear_message(mutate, match: str) -> None:
    raw = _raw()
    mutate(raw)
    with pytest.raises(InnDataError, match=match):
        parse_data(raw)
