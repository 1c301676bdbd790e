"""Bad input specific to Mythic Baths: every mistake gives a clear error and changes nothing.

Player counts (the message names the range), game states broken in Mythic Baths' own ways (cards,
guests, amber, favour tokens, phases) and broken card-set files. Bad actions, the AEC order,
generic constructor arguments, generic broken states and data paths: ``tests/conformance/test_bad_input.py``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import mythic_baths_v1
from mythzoo.envs.mythic_baths.cards import DEFAULT_CARD_SET, CardSetError
from mythzoo.envs.mythic_baths.rules import P_PAY, P_TURN


def _started(face: str = "raw_env", num_players: int = 3, steps: int = 30, seed: int = 0):
    e = getattr(mythic_baths_v1, face)(num_players=num_players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    return e


# ---------------------------------------------------------------------------- constructor
@pytest.mark.parametrize("num_players", [1, 6, "2", 2.0, True], ids=repr)
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_a_bad_player_count_names_the_range(face: str, num_players) -> None:
    with pytest.raises(ValueError, match="2-5 players"):
        getattr(mythic_baths_v1, face)(num_players=num_players)


# ------------------------------------------------------------------------------ set_state
def _mutations():
    """(id, function(game) -> None changing it in place, message fragment)."""

    def dup_card(gm):
        gm["deck"].append(gm["deck"][0])

    def lose_card(gm):
        gm["deck"].pop()

    def guest_twice(gm):
        gm["guest_deck"][0] = gm["bath_guest"][0]

    def pay_without_guest(gm):
        gm["phase"] = P_PAY
        gm["pay_bath"] = -1

    def over_but_turn_phase(gm):
        gm["over"] = 1
        gm["phase"] = P_TURN

    return [
        ("card_duplicated", dup_card, "not conserved"),
        ("card_lost", lose_card, "not conserved"),
        ("negative_amber", lambda gm: gm["amber"].__setitem__(0, -1), "amber"),
        ("amber_as_float", lambda gm: gm["amber"].__setitem__(0, 1.0), "amber"),
        ("amber_as_bool", lambda gm: gm["amber"].__setitem__(0, True), "amber"),
        ("guest_in_two_places", guest_twice, "guests are not conserved"),
        ("pay_phase_without_guest", pay_without_guest, "payment phase"),
        ("over_flag_vs_phase", over_but_turn_phase, "over flag"),
        ("current_out_of_range", lambda gm: gm.__setitem__("current", 7), "current"),
        ("hands_wrong_length", lambda gm: gm["hands"].pop(), "hands"),
        ("token_from_nowhere", lambda gm: gm["tokens"][0].__setitem__(0, 1), "favour tokens"),
    ]


@pytest.mark.parametrize(("mutate", "match"), [(m[1], m[2]) for m in _mutations()], ids=[m[0] for m in _mutations()])
def test_set_state_rejects_broken_states(mutate, match: str) -> None:
    state = _started("raw_env", num_players=3, steps=30, seed=1).get_state()
    target = _started("raw_env", num_players=3, steps=10, seed=2)
    before = target.get_state()
    obs_before = target.observe(target.agent_selection)
    broken = copy.deepcopy(state)
    mutate(broken["game"])
    with pytest.raises(ValueError, match=match):
        target.set_state(broken)
    assert target.get_state() == before, "a rejected set_state changed the env"
    np.testing.assert_array_equal(target.observe(target.agent_selection)["observation"], obs_before["observation"])
    target.step(int(np.flatnonzero(target.observe(target.agent_selection)["action_mask"])[0]))  # still usable


# ------------------------------------------------------------------------------- card sets
def _card_data() -> dict:
    return json.loads(Path(DEFAULT_CARD_SET).read_text(encoding="utf-8"))


def _write(tmp_path: Path, data, name: str = "cards.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def test_a_missing_card_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match="cannot read card set .*nope.json"):
        mythic_baths_v1.env(card_set=tmp_path / "nope.json")


def _broken_card_sets():
    def f_missing_key(d):
        del d["managers"]

    def f_too_few_cards(d):
        d["ingredient_cards"][0]["count"] -= 1

    def f_unknown_ingredient(d):
        d["regular_guests"][3]["needs"][0] = "unicorn dust"

    def f_unknown_ingredient_on_card(d):
        d["ingredient_cards"][2]["ingredients"] = ["lava"]

    def f_troublesome_5(d):
        d["troublesome_guests"][0]["needs"] = d["troublesome_guests"][0]["needs"][:5]

    def f_duplicate_manager(d):
        d["managers"][1]["effect"] = d["managers"][0]["effect"]

    def f_unknown_manager(d):
        d["managers"][1]["effect"] = "time_mage"

    def f_34_regular(d):
        d["regular_guests"].pop()

    def f_bad_creature(d):
        d["regular_guests"][0]["creature"] = "dragon"

    def f_negative_amber(d):
        d["regular_guests"][0]["amber"] = -2

    def f_card_with_3(d):
        d["ingredient_cards"][0]["ingredients"] = ["tea", "tea", "tea"]

    def f_tokens(d):
        d["favour_tokens_per_creature"] = 4

    def f_top_level_list(d):
        return [d]

    return [
        ("missing_key", f_missing_key, r"missing key 'managers'"),
        ("wrong_card_count", f_too_few_cards, r"49 ingredient cards; the game has 50"),
        ("unknown_ingredient", f_unknown_ingredient, r"regular_guests\[3\].*unknown ingredient 'unicorn dust'"),
        ("unknown_ingredient_on_card", f_unknown_ingredient_on_card, r"ingredient_cards\[2\].*unknown ingredient 'lava'"),
        ("troublesome_with_5_needs", f_troublesome_5, r"troublesome_guests\[0\].*exactly 6 ingredients"),
        ("duplicate_manager_effect", f_duplicate_manager, r"each of the 10 manager effects must appear exactly once"),
        ("unknown_manager_effect", f_unknown_manager, r"managers\[1\].*'effect' must be one of"),
        ("34_regular_guests", f_34_regular, r"'regular_guests' must list 35 cards, got 34"),
        ("unknown_creature", f_bad_creature, r"regular_guests\[0\].*'dragon'"),
        ("negative_guest_amber", f_negative_amber, r"regular_guests\[0\].*'amber'"),
        ("card_with_3_ingredients", f_card_with_3, r"ingredient_cards\[0\].*1 or 2 ingredients"),
        ("favour_tokens", f_tokens, r"favour tokens must total 25"),
        ("top_level_list", f_top_level_list, r"top level must be a JSON object"),
    ]


@pytest.mark.parametrize(("mutate", "match"), [(c[1], c[2]) for c in _broken_card_sets()], ids=[c[0] for c in _broken_card_sets()])
def test_broken_card_set(tmp_path: Path, mutate, match: str) -> None:
    data = _card_data()
    out = mutate(data)
    p = _write(tmp_path, out if out is not None else data)
    with pytest.raises(CardSetError, match=match) as info:
        mythic_baths_v1.raw_env(num_players=2, card_set=p)
    assert str(p) in str(info.value), "the message should name the file"
    assert issubclass(CardSetError, ValueError)
