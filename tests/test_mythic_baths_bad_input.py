"""Bad input to Mythic Baths: every mistake gives a clear error (type and message) and changes nothing.

Actions (illegal, out of range, not an int), the AEC order (after the end, before reset),
constructor arguments, ``set_state`` with broken states, and broken card-set files.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import IllegalActionError, mythic_baths_v0
from mythzoo.envs.mythic_baths.cards import DEFAULT_CARD_SET, CardSetError
from mythzoo.envs.mythic_baths.rules import P_PAY, P_TURN


def _started(face: str = "raw_env", num_players: int = 3, steps: int = 30, seed: int = 0):
    e = getattr(mythic_baths_v0, face)(num_players=num_players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    return e


def _finished(face: str = "env", num_players: int = 2, seed: int = 0):
    e = getattr(mythic_baths_v0, face)(num_players=num_players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not any(e.terminations.values()):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    return e


# ------------------------------------------------------------------------------- actions
@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        (-1, ValueError, r"outside .*Discrete\(132\)"),
        (132, ValueError, r"outside .*Discrete\(132\)"),
        (10**9, ValueError, r"outside .*Discrete\(132\)"),
        ("3", TypeError, r"action must be an int"),
        (1.5, TypeError, r"action must be an int"),
        (None, TypeError, r"action must be an int"),
        (True, TypeError, r"action must be an int"),
        (np.array([3]), TypeError, r"action must be an int"),
    ],
    ids=["minus1", "132", "1e9", "str", "float", "None", "bool", "array1"],
)
def test_bad_action_raises_and_changes_nothing(face: str, action, error, match) -> None:
    e = _started(face)
    before = e.get_state()
    with pytest.raises(error, match=match):
        e.step(action)
    assert e.get_state() == before


def test_numpy_integer_actions_are_accepted() -> None:
    for cast in (np.int64, np.int32, np.uint8, np.array):
        e = _started("raw_env", steps=0)
        a = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
        e.step(cast(a))


def test_illegal_action_raw_env_raises_with_a_useful_message() -> None:
    e = _started("raw_env")
    before = e.get_state()
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        e.step(bad)
    msg = str(info.value)
    assert agent in msg and str(bad) in msg and e.action_label(bad) in msg and "legal" in msg
    assert e.get_state() == before


def test_illegal_action_env_ends_the_game_for_the_offender() -> None:
    e = _started("env")
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(bad)
    assert all(e.terminations.values())
    assert e.infos[agent]["illegal_action"] == bad
    assert e.cumulative_reward(agent) == -1.0


# ------------------------------------------------------------------------------ AEC order
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_step_with_an_action_for_a_finished_agent(face: str) -> None:
    e = _finished(face)
    before = e.get_state()
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(3)
    assert e.get_state() == before


@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize("action", [3, None])
def test_step_after_every_agent_is_done(face: str, action) -> None:
    """Once the game ended and every agent took its final None step, a further step must say so clearly."""
    e = _finished(face)
    while e.agents:
        e.step(None)
    before = e.get_state()
    with pytest.raises((RuntimeError, ValueError), match=r"(?i)reset|over|ended|finished|no agents"):
        e.step(action)
    assert e.get_state() == before


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_use_before_reset(face: str) -> None:
    e = getattr(mythic_baths_v0, face)(num_players=2)
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.get_state(), lambda: e.render(),
                 lambda: e.legal_actions(), lambda: e.resample_hidden("player_0", 0)):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    e.reset(seed=0)  # and it still works afterwards
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))


def test_last_before_reset() -> None:
    """env() promises PettingZoo's order enforcing; its wrapper says 'agent_selection cannot be accessed before reset'."""
    e = mythic_baths_v0.env(num_players=2)
    with pytest.raises((RuntimeError, AttributeError), match="reset"):
        e.last()


def test_unknown_agent_is_a_clear_error() -> None:
    e = _started("raw_env", steps=0)
    with pytest.raises(KeyError, match="player_9"):
        e.observe("player_9")
    with pytest.raises(KeyError, match="player_9"):
        e.resample_hidden("player_9", 0)


# ---------------------------------------------------------------------------- constructor
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_players": 1}, ValueError, "2-5 players"),
        ({"num_players": 6}, ValueError, "2-5 players"),
        ({"num_players": "2"}, ValueError, "2-5 players"),
        ({"num_players": 2.0}, ValueError, "2-5 players"),
        ({"num_players": True}, ValueError, "2-5 players"),
        ({"reward_mode": "foo"}, ValueError, "reward_mode"),
        ({"render_mode": "rgb"}, ValueError, "render_mode"),
        ({"render_mode": "rgb_array"}, ValueError, "render_mode"),
        ({"max_turns": 0}, ValueError, "max_turns"),
        ({"max_turns": -5}, ValueError, "max_turns"),
        ({"max_turns": 2.5}, ValueError, "max_turns"),
        ({"max_turns": "10"}, ValueError, "max_turns"),
        ({"no_such_option": 1}, TypeError, "no_such_option"),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else "",
)
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_bad_constructor_arguments(face: str, kwargs: dict, error, match: str) -> None:
    with pytest.raises(error, match=match):
        getattr(mythic_baths_v0, face)(**kwargs)


# ------------------------------------------------------------------------------ set_state
def _mutations():
    """(id, function(state) -> broken state, message fragment)."""

    def game(f):
        def g(st):
            f(st["game"])
            return st
        return g

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

    def set_item(path, value):
        def f(st):
            d = st
            for k in path[:-1]:
                d = d[k]
            d[path[-1]] = value
            return st
        return f

    def delete(path):
        def f(st):
            d = st
            for k in path[:-1]:
                d = d[k]
            del d[path[-1]]
            return st
        return f

    def wrong_mover(st):
        sel = st["aec"]["agent_selection"]
        st["aec"]["agent_selection"] = next(a for a in st["aec"]["agents"] if a != sel)
        return st

    return [
        ("not_a_dict", lambda st: [st], "must be a dict"),
        ("json_text", lambda st: json.dumps(st), "must be a dict"),
        ("none", lambda st: None, "must be a dict"),
        ("wrong_schema", set_item(["schema"], 99), "schema"),
        ("wrong_env", set_item(["env"], "mythsgate_v0"), "env"),
        ("wrong_config_reward", set_item(["config", "reward_mode"], "score"), "config"),
        ("card_duplicated", game(dup_card), "not conserved"),
        ("card_lost", game(lose_card), "not conserved"),
        ("negative_amber", game(lambda gm: gm["amber"].__setitem__(0, -1)), "amber"),
        ("amber_as_float", game(lambda gm: gm["amber"].__setitem__(0, 1.0)), "amber"),
        ("amber_as_bool", game(lambda gm: gm["amber"].__setitem__(0, True)), "amber"),
        ("guest_in_two_places", game(guest_twice), "guests are not conserved"),
        ("pay_phase_without_guest", game(pay_without_guest), "payment phase"),
        ("over_flag_vs_phase", game(over_but_turn_phase), "over flag"),
        ("current_out_of_range", game(lambda gm: gm.__setitem__("current", 7)), "current"),
        ("hands_wrong_length", game(lambda gm: gm["hands"].pop()), "hands"),
        ("token_from_nowhere", game(lambda gm: gm["tokens"][0].__setitem__(0, 1)), "favour tokens"),
        ("missing_game_key", delete(["game", "deck"]), "missing"),
        ("missing_rng", delete(["game", "rng"]), "missing"),
        ("missing_aec", delete(["aec"]), "aec"),
        ("missing_aec_agents", delete(["aec", "agents"]), "aec"),
        ("missing_game", delete(["game"]), "game state must be a dict"),
        ("bad_rng", set_item(["game", "rng", "bit_generator"], "MT19937"), "bit generator"),
        ("unknown_agent", set_item(["aec", "agent_selection"], "player_9"), "agent_selection"),
        ("wrong_agent_to_move", wrong_mover, "agent_selection"),
        ("non_json_set", set_item(["game", "discard"], {1, 2}), "JSON"),
        ("non_json_numpy_int", lambda st: (st["game"]["amber"].__setitem__(0, np.int64(1)), st)[1], "JSON"),
        ("non_json_object", set_item(["aec", "infos", "player_0"], object()), "JSON"),
    ]


@pytest.mark.parametrize(("mutate", "match"), [(m[1], m[2]) for m in _mutations()], ids=[m[0] for m in _mutations()])
def test_set_state_rejects_broken_states(mutate, match: str) -> None:
    src = _started("raw_env", num_players=3, steps=30, seed=1)
    state = src.get_state()
    target = _started("raw_env", num_players=3, steps=10, seed=2)
    before = target.get_state()
    obs_before = target.observe(target.agent_selection)
    broken = mutate(copy.deepcopy(state))
    with pytest.raises(ValueError, match=match):
        target.set_state(broken)
    assert target.get_state() == before, "a rejected set_state changed the env"
    np.testing.assert_array_equal(target.observe(target.agent_selection)["observation"], obs_before["observation"])
    target.step(int(np.flatnonzero(target.observe(target.agent_selection)["action_mask"])[0]))  # still usable


def _aec_mutations():
    """Broken ``state['aec']`` sections: wrong types, or inconsistent with the (live) game."""

    def drop_live_agent(st):
        gone = next(a for a in st["aec"]["agents"] if a != st["aec"]["agent_selection"])
        st["aec"]["agents"].remove(gone)
        for k in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
            del st["aec"][k][gone]
        return st

    def dup_agent(st):
        st["aec"]["agents"].append(st["aec"]["agents"][0])
        return st

    def put(key, value, agent="player_0"):
        def f(st):
            st["aec"][key][agent] = value
            return st
        return f

    return [
        ("termination_as_string", put("terminations", "False"), "termination"),
        ("terminated_in_a_live_game", put("terminations", True), "termination"),
        ("reward_nan", put("rewards", float("nan")), "reward"),
        ("cumulative_reward_inf", put("cumulative_rewards", float("inf")), "reward"),
        ("info_not_a_dict", put("infos", 5), "info"),
        ("live_agent_missing", drop_live_agent, "agent"),
        ("agent_listed_twice", dup_agent, "agent"),
    ]


@pytest.mark.parametrize(("mutate", "match"), [(m[1], m[2]) for m in _aec_mutations()], ids=[m[0] for m in _aec_mutations()])
def test_set_state_rejects_inconsistent_aec_section(mutate, match: str) -> None:
    """``state['aec']`` must be checked too: types (no silent ``bool("False")``), finiteness, and
    agreement with the game (a live game has every agent live, none terminated or truncated)."""
    state = _started("raw_env", num_players=3, steps=30, seed=1).get_state()
    target = _started("raw_env", num_players=3, steps=10, seed=2)
    before = target.get_state()
    with pytest.raises(ValueError, match=f"(?i){match}"):
        target.set_state(mutate(copy.deepcopy(state)))
    assert target.get_state() == before, "a rejected set_state changed the env"


@pytest.mark.parametrize(("src_players", "dst_players"), [(3, 2), (2, 3), (5, 4)])
def test_set_state_rejects_another_player_count(src_players: int, dst_players: int) -> None:
    state = _started("raw_env", num_players=src_players, steps=5).get_state()
    target = _started("raw_env", num_players=dst_players, steps=3)
    before = target.get_state()
    with pytest.raises(ValueError, match="config"):
        target.set_state(state)
    assert target.get_state() == before


def test_set_state_rejects_other_faces_config_and_turn_cap() -> None:
    state = _started("raw_env", num_players=2, steps=5).get_state()
    target = mythic_baths_v0.raw_env(num_players=2, max_turns=50)
    with pytest.raises(ValueError, match="config"):
        target.set_state(state)


def test_set_state_game_keys_only_changed_is_still_checked_for_the_mover() -> None:
    """A state whose game says player X moves while aec says another live agent does is rejected."""
    e = _started("raw_env", num_players=3, steps=30, seed=1)
    st = e.get_state()
    movers = [a for a in e.possible_agents if a != st["aec"]["agent_selection"]]
    st["aec"]["agent_selection"] = movers[0]
    target = mythic_baths_v0.raw_env(num_players=3)
    with pytest.raises(ValueError, match="agent_selection"):
        target.set_state(st)


# ------------------------------------------------------------------------------- card sets
def _card_data() -> dict:
    return json.loads(Path(DEFAULT_CARD_SET).read_text(encoding="utf-8"))


def _write(tmp_path: Path, data, name: str = "cards.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def test_valid_copy_of_the_default_card_set_works(tmp_path: Path) -> None:
    p = tmp_path / "copy.json"
    shutil.copy(DEFAULT_CARD_SET, p)
    e = mythic_baths_v0.env(num_players=3, card_set=p)
    e.reset(seed=0)
    ref = mythic_baths_v0.env(num_players=3)
    ref.reset(seed=0)
    assert e.get_state() == ref.get_state()  # same content, same digest, same game
    e2 = mythic_baths_v0.raw_env(num_players=2, card_set=str(p))
    e2.reset(seed=1)


def test_missing_card_file(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match="cannot read card set .*nope.json"):
        mythic_baths_v0.env(card_set=tmp_path / "nope.json")


def test_invalid_json_card_file(tmp_path: Path) -> None:
    p = _write(tmp_path, '{"ingredients": ["tea", ')
    with pytest.raises(CardSetError, match=r"not valid JSON .*line 1"):
        mythic_baths_v0.env(card_set=p)


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
        mythic_baths_v0.raw_env(num_players=2, card_set=p)
    assert str(p) in str(info.value), "the message should name the file"
    assert issubclass(CardSetError, ValueError)
