"""Mythwind: the Innkeeper: one scripted scenario per rule of the journal (rulebooks/mythwind_innkeeper.txt).

Each test is named after the rule it checks; ``test_assumption_...`` tests pin down the designed
parts (the Town Charter stand-ins listed as ASSUMPTIONs in ``docs/rules/mythwind_innkeeper.md``).
Scenarios start from :func:`scene` (an empty inn, chosen tokens, guests, weather and phase) and
every state is validated (each guest, token and gossip card in exactly one place, the
grid's doors and windows in outer slots, coins and renown in range) after every action.
"""

from __future__ import annotations

import json

import pytest

from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.mythwind_innkeeper.components import (
    BAR, CLOUDY, DOOR, DRINK, FIREPLACE, FOOD, KITCHEN, MUSIC, PLAY, RAINY, SPRITE, STAGE, SUNNY, TABLE, VILLAGER, WINDOW,
    InnDataError, load_data, parse_data, DEFAULT_DATA, E_COINS, C_LOSE, CULTURED, FRONTIER,
)
from mythzoo.envs.mythwind_innkeeper.rules import (
    A_SETUP, A_SUPPLY, D_ANY, D_FURNITURE, D_SERVICE, P_ARRANGE, G_BAG, G_DRAWN, G_QUIET, G_SUPPLY, IMPROVE, MINGLE, OUTER, P_DAMAGE,
    P_ENTERTAINER, P_FAVORITE_PICK, P_IMPROVE, P_LATE, P_LOSE, P_OPERATE, P_OVER, P_PAMPER_SLOT, P_PARTY, P_SEAT_GUEST, P_SETUP,
    P_SKILL, P_SEAT_SLOT, P_SKILL_GUEST, P_TOWN, P_WORKER, PAMPER, PARTY, SERVE, INCOME_SOURCES, MythwindInnkeeperRules, State,
)

DATA = load_data()
R = MythwindInnkeeperRules(DATA, 6, 4, auto=False)  # every decision explicit; see the auto test
AUTO = MythwindInnkeeperRules(DATA, 6, 4)
T = R.table
SK = {k.key: k.sid for k in DATA.skills}
LEVEL_SLOT = {1: 0, 2: 3, 3: 6}  # leftmost slot of each renown level on the designed track (A5)


def tok(t: int, style: int | None = None, n: int = 0) -> int:
    """The n-th accommodation token of type ``t`` (plain when ``style`` is None)."""
    ids = [a.aid for a in DATA.accommodations if a.type == t and (a.style == (-1 if style is None else style))]
    return ids[n]


def wcard(t: int, event: bool = False, align: int = SPRITE) -> int:
    """A weather card of type ``t`` with that alignment, with the event icon as asked where the deck
    has one (A6: one card of each type has none, so a card without the icon may show either alignment)."""
    cards = [w for w in DATA.weather if w.type == t and w.alignment == align]
    return next((w.wid for w in cards if w.event == event), cards[0].wid)


def A(name: str, arg: int = 0) -> int:
    return T.encode(name, arg)


def legal_names(s: State) -> set[str]:
    return {T.decode(a)[0] for a in R.legal_actions(s)}


def scene(*, phase: int = P_TOWN, coins: int = 10, renown: int = 0, weather: int | None = None, inn: dict | None = None,
          damaged: tuple = (), drawn: tuple = (), bag: tuple | None = None, hand: tuple = (0, 1), skills: dict | None = None,
          dice: dict | None = None, party_coins: int = 0, season: int = 0, day: int = 0) -> State:
    """A state at ``phase``: ``inn`` maps slot -> token, ``drawn`` guests waiting, the bag the other
    guests of the renown level (or ``bag``), ``skills`` maps skill key -> row, ``dice`` die -> pips."""
    s = R.initial_state(0)
    s.setup = []
    s.acc_slot = [A_SUPPLY] * R.NA
    s.slot_acc = [-1] * 25
    for d, a in (inn or {}).items():
        R._put(s, a, d)
    for d in damaged:
        s.slot_dmg[d] = 1
    s.renown = renown
    if bag is None:
        R._fill_bag(s)
    else:
        s.guest_loc = [G_SUPPLY] * R.NG
        s.bag = sorted(bag)
        for g in bag:
            s.guest_loc[g] = G_BAG
    for g in drawn:
        if g in s.bag:
            s.bag.remove(g)
        s.guest_loc[g] = G_DRAWN
    s.drawn = list(drawn)
    s.hand = sorted(hand)
    s.gdeck = sorted(set(range(R.NC)) - set(hand))
    s.weather = wcard(CLOUDY) if weather is None else weather
    s.prev_wtype, s.streak = DATA.weather[s.weather].type, 1
    s.coins, s.party_coins, s.season, s.day = coins, party_coins, season, day
    for k, r in (skills or {}).items():
        s.skill_row[SK[k]] = r
    for d, p in (dice or {}).items():
        s.dice[d] = p
    s.phase = phase
    R.validate(s)
    s.legal = R._compute_legal(s)
    return s


def act(s: State, name: str, arg: int = 0) -> None:
    R.apply(s, A(name, arg))
    R.validate(s)


def illegal(s: State, name: str, arg: int = 0) -> bool:
    return A(name, arg) not in R.legal_actions(s)


def act2(s: State, name: str, arg: int, d: int) -> None:
    """A two-step choice (guest or token, then a slot); the slot step is skipped when it was the
    only legal choice and so was taken automatically (then it must have gone to slot ``d``)."""
    phase = s.phase
    act(s, name, arg)
    if s.phase != phase and A("slot", d) in R.legal_actions(s):
        act(s, "slot", d)


def seat(s: State, g: int, d: int) -> None:
    """Seat guest ``g`` in slot ``d`` (at dusk or by Pamper: guest, then slot; the slot step is
    taken automatically when it is the only choice)."""
    act(s, "guest", g)
    if s.phase in (P_SEAT_SLOT, P_PAMPER_SLOT):
        act(s, "slot", d)


# ====================================================================================== Setup
def test_setup_ten_coins_renown_leftmost_level_one_guests_in_bag_two_gossip_cards() -> None:
    s = R.initial_state(3)
    R.validate(s)
    assert s.coins == 10 and s.renown == 0 and R.level(s) == 1
    assert s.bag == [g.gid for g in DATA.guests if g.level == 1] and len(s.bag) == 12
    assert len(s.hand) == 2 and len(s.gdeck) == 4
    assert all(x == A_SUPPLY for i, x in enumerate(s.acc_slot) if i not in s.setup)


def test_setup_place_table_anywhere_door_and_window_in_outer_slots() -> None:
    s = R.initial_state(0)
    assert s.phase == P_SETUP
    assert [DATA.accommodations[a].type for a in s.setup] == [TABLE, WINDOW, DOOR]
    assert R.legal_actions(s) == [A("slot", d) for d in range(25)]  # the table: anywhere
    act(s, "slot", 12)
    assert R.legal_actions(s) == [A("slot", d) for d in range(25) if OUTER[d] and d != 12]  # the window: outer
    assert sum(OUTER) == 16
    act(s, "slot", 0)
    assert illegal(s, "slot", 6) and not illegal(s, "slot", 24)
    act(s, "slot", 24)
    assert s.phase != P_SETUP and s.weather >= 0 and s.turn == 0


# ====================================================================================== Dawn
def dawn(s: State, card: int) -> None:
    s.wdeck = [card]
    R._dawn(s)
    s.legal = None
    R.validate(s)


def test_party_preparations_event_icon_adds_a_coin() -> None:
    s = scene(renown=LEVEL_SLOT[2])
    dawn(s, wcard(SUNNY, event=True))
    assert s.party_coins == 1
    s = scene(renown=LEVEL_SLOT[2])
    dawn(s, wcard(SUNNY, event=False, align=VILLAGER))
    assert s.party_coins == 0


def test_party_preparations_only_below_renown_level() -> None:
    s = scene(renown=0, party_coins=1)
    dawn(s, wcard(RAINY, event=True))
    assert s.party_coins == 1  # level I and 1 coin already: no more
    s = scene(renown=LEVEL_SLOT[2], party_coins=1)
    dawn(s, wcard(RAINY, event=True))
    assert s.party_coins == 2


def test_welcome_guests_level_one_draws_six_on_a_cloudy_day() -> None:
    s = scene()
    s.prev_wtype = -1
    dawn(s, wcard(CLOUDY, align=VILLAGER))
    assert len(s.drawn) == 6 and len(s.bag) == 6
    assert all(s.guest_loc[g] == G_DRAWN for g in s.drawn)


def test_welcome_guests_count_from_renown_track() -> None:
    for slot in range(R.track_len):
        s = scene(renown=slot)
        s.prev_wtype = -1
        dawn(s, wcard(CLOUDY))
        assert len(s.drawn) == min(DATA.renown_guests[slot], len(s.bag) + len(s.drawn))


def test_welcome_guests_weather_modifiers_sunny_minus_one_rainy_plus_one() -> None:
    for card, n in ((wcard(SUNNY, True), 5), (wcard(CLOUDY, True, VILLAGER), 6), (wcard(RAINY, True), 7)):
        s = scene()
        s.prev_wtype = -1
        dawn(s, card)
        assert len(s.drawn) == n


def test_welcome_guests_consecutive_same_weather_stacks() -> None:
    s = scene()
    s.prev_wtype, s.streak = RAINY, 1  # yesterday was rainy
    dawn(s, wcard(RAINY))
    assert s.streak == 2 and len(s.drawn) == 8  # the journal's example: renown I, two rainy days -> 8
    s = scene()
    s.prev_wtype, s.streak = SUNNY, 2
    dawn(s, wcard(SUNNY))
    assert s.streak == 3 and len(s.drawn) == 3
    s = scene()
    s.prev_wtype, s.streak = SUNNY, 4
    dawn(s, wcard(RAINY))
    assert s.streak == 1 and len(s.drawn) == 7  # the streak breaks when the weather changes


def test_welcome_guests_never_more_than_the_bag_holds() -> None:
    s = scene(bag=(0, 1, 2))
    s.prev_wtype, s.streak = RAINY, 3
    dawn(s, wcard(RAINY))
    assert len(s.drawn) == 3 and s.bag == []


# ====================================================================================== Operate
def test_operate_action_must_match_alignment() -> None:
    inn = {0: tok(WINDOW), 12: tok(TABLE)}
    s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=SPRITE), inn=inn, drawn=(0, 1), renown=LEVEL_SLOT[2])
    assert {T.decode(a)[1] for a in R.legal_actions(s)} == {PAMPER, IMPROVE, SERVE}
    s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=VILLAGER), inn=inn, drawn=(0, 1), renown=LEVEL_SLOT[2])
    assert {T.decode(a)[1] for a in R.legal_actions(s)} == {SERVE, MINGLE, PARTY}


def test_pamper_seats_guest_back_facing_on_any_furniture_ignoring_requests() -> None:
    # Duchess wants window, drink, food and imperial style; she is pampered onto a plain table.
    s = scene(phase=P_OPERATE, inn={12: tok(TABLE), 0: tok(WINDOW), 7: tok(KITCHEN)}, drawn=(21, 0), bag=(1, 2), renown=2)
    act(s, "operate", PAMPER)
    act(s, "guest", 21)
    assert set(R.legal_actions(s)) == {A("slot", 12), A("slot", 0)}  # furniture only, not the kitchen
    act(s, "slot", 12)
    assert s.slot_guest[12] == 21 and s.slot_back[12] == 1
    assert s.coins == 11 and s.renown == 1  # one coin, renown -1


def test_pamper_renown_not_decreased_below_leftmost_slot() -> None:
    s = scene(phase=P_OPERATE, inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(0, 2))
    act(s, "operate", PAMPER)
    seat(s, 0, 12)
    assert s.renown == 0 and s.coins == 11


def test_pamper_not_onto_damaged_or_occupied_furniture() -> None:
    s = scene(phase=P_OPERATE, inn={12: tok(TABLE), 0: tok(WINDOW), 4: tok(DOOR)}, damaged=(0,), drawn=(0, 2, 3))
    act(s, "operate", PAMPER)
    act(s, "guest", 0)
    assert set(R.legal_actions(s)) == {A("slot", 12), A("slot", 4)}


# ====================================================================================== Improve
def improve_scene(**kw) -> State:
    kw.setdefault("phase", P_IMPROVE)
    return scene(**kw)


def test_improve_purchase_requires_renown_level_and_pays_cost() -> None:
    s = improve_scene(coins=30, renown=0)
    imperial_window = tok(WINDOW, 1)
    assert illegal(s, "buy", imperial_window)  # level II token at level I
    s = improve_scene(coins=30, renown=LEVEL_SLOT[2])
    act(s, "buy", imperial_window)  # the journal's example: level II buys the imperial window for 12
    act(s, "slot", 0)
    assert s.coins == 30 - 12 and s.slot_acc[0] == imperial_window
    s = improve_scene(coins=11, renown=LEVEL_SLOT[2])
    assert illegal(s, "buy", imperial_window)  # cannot afford


def test_improve_at_most_one_purchase_one_move_one_sell_and_any_repairs() -> None:
    s = improve_scene(coins=40, inn={12: tok(TABLE), 13: tok(TABLE, n=1), 0: tok(WINDOW), 4: tok(DOOR)}, damaged=(0, 4))
    act(s, "buy", tok(BAR))
    act(s, "slot", 6)
    assert "buy" not in legal_names(s)
    act(s, "move", 12)
    act(s, "slot", 18)
    assert "move" not in legal_names(s)
    act(s, "sell", 13)
    assert "sell" not in legal_names(s)
    act(s, "repair", 0)
    act(s, "repair", 4)
    assert s.slot_dmg[0] == s.slot_dmg[4] == 0
    act(s, "done")
    assert s.phase != P_IMPROVE


def test_improve_doors_and_windows_in_outer_slots() -> None:
    s = improve_scene(coins=20)
    act(s, "buy", tok(DOOR))
    assert set(R.legal_actions(s)) == {A("slot", d) for d in range(25) if OUTER[d]}


def test_improve_drinks_and_food_next_to_a_kitchen() -> None:
    s = improve_scene(coins=20, inn={12: tok(KITCHEN)})
    act(s, "buy", tok(FOOD))
    assert set(R.legal_actions(s)) == {A("slot", d) for d in (7, 11, 13, 17)}
    s = improve_scene(coins=20)
    assert illegal(s, "buy", tok(DRINK)) and illegal(s, "buy", tok(FOOD))  # no kitchen: nowhere to place


def test_improve_music_and_plays_next_to_a_stage() -> None:
    s = improve_scene(coins=20, inn={0: tok(STAGE)})
    act(s, "buy", tok(PLAY))
    assert set(R.legal_actions(s)) == {A("slot", 1), A("slot", 5)}
    s = improve_scene(coins=20)
    assert illegal(s, "buy", tok(MUSIC))


def test_adjacent_means_orthogonal_not_diagonal() -> None:
    s = improve_scene(coins=20, inn={12: tok(KITCHEN)})
    act(s, "buy", tok(DRINK))
    assert illegal(s, "slot", 6) and illegal(s, "slot", 18) and not illegal(s, "slot", 7)


def test_improve_other_accommodations_anywhere_empty() -> None:
    s = improve_scene(coins=20, inn={12: tok(TABLE)})
    act(s, "buy", tok(FIREPLACE))
    assert set(R.legal_actions(s)) == {A("slot", d) for d in range(25) if d != 12}


def test_improve_move_obeys_placement_restrictions() -> None:
    s = improve_scene(inn={0: tok(WINDOW), 12: tok(KITCHEN), 13: tok(DRINK)})
    act(s, "move", 0)
    assert all(OUTER[T.decode(a)[1]] for a in R.legal_actions(s))
    s = improve_scene(inn={0: tok(WINDOW), 12: tok(KITCHEN), 13: tok(DRINK)})
    act(s, "move", 13)  # the drink stays next to the kitchen
    assert set(R.legal_actions(s)) == {A("slot", d) for d in (7, 11, 17)}


def test_improve_cannot_move_an_accommodation_with_a_seated_guest() -> None:
    s = improve_scene(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(2,))
    s.drawn, s.guest_loc[0], s.slot_guest[12], s.slot_back[12] = [2], 12, 0, 1  # guest 0 pampered onto the table
    s.bag.remove(0) if 0 in s.bag else None
    R.validate(s)
    s.legal = R._compute_legal(s)
    assert illegal(s, "move", 12) and not illegal(s, "move", 0)
    assert illegal(s, "sell", 12)


def test_improve_sell_for_half_cost_rounded_down() -> None:
    s = improve_scene(coins=0, inn={0: tok(WINDOW), 12: tok(TABLE, n=1)})
    act(s, "sell", 0)  # the journal's example: a window (cost 8) sells for 4
    assert s.coins == 4 and s.acc_slot[tok(WINDOW)] == A_SUPPLY and s.slot_acc[0] == -1
    s = improve_scene(coins=0, inn={0: tok(DOOR), 12: tok(TABLE, n=1)})
    act(s, "sell", 0)
    assert s.coins == DATA.accommodations[tok(DOOR)].cost // 2 == 2


def test_improve_cannot_sell_what_a_placement_restriction_depends_on() -> None:
    s = improve_scene(inn={12: tok(KITCHEN), 13: tok(FOOD), 0: tok(STAGE), 1: tok(MUSIC)})
    assert illegal(s, "sell", 12) and illegal(s, "sell", 0)
    assert not illegal(s, "sell", 13) and not illegal(s, "sell", 1)
    s = improve_scene(inn={12: tok(KITCHEN), 14: tok(KITCHEN, n=1), 13: tok(FOOD)})
    assert not illegal(s, "sell", 12)  # the food still has the other kitchen


def test_improve_repair_for_half_cost_rounded_up() -> None:
    s = improve_scene(coins=10, inn={0: tok(DOOR), 12: tok(TABLE)}, damaged=(0,))
    act(s, "repair", 0)
    assert s.coins == 10 - 3 and s.slot_dmg[0] == 0  # door costs 5: repair 3
    s = improve_scene(coins=2, inn={0: tok(DOOR), 12: tok(TABLE)}, damaged=(0,))
    assert illegal(s, "repair", 0)


# ====================================================================================== Serve, Mingle, Party
def test_serve_gossip_card_accommodations_count_for_the_day() -> None:
    # Market Day shows a drink and food: the Merchant (table, drink, food) can be seated.
    market = next(c.cid for c in DATA.gossip if c.name == "Market Day")
    s = scene(phase=P_OPERATE, inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(12, 2), hand=(market, 0))
    assert R.seat_slots(s, 12) == []
    act(s, "operate", SERVE)
    act(s, "gossip", market)
    assert market in s.served and market not in s.hand
    assert R.seat_slots(s, 12) == [12]
    R._end_dusk(s)  # end of the day: the card is shuffled back into the gossip deck
    assert s.served == [] and market in s.gdeck


def test_serve_gossip_style_icons_help_the_inn_embrace_a_style() -> None:
    royal = next(c.cid for c in DATA.gossip if c.name == "Royal Visit")  # imperial icon
    s = scene(phase=P_OPERATE, inn={0: tok(WINDOW, 1), 12: tok(TABLE)}, hand=(royal, 0), drawn=(2,))
    assert R.embraced(s)[1] is False
    act(s, "operate", SERVE)
    act(s, "gossip", royal)
    assert R.embraced(s)[1] is True


def test_mingle_gossip_card_to_adventure_deck_then_draw_renown_level_cards() -> None:
    s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=VILLAGER), hand=(0, 1), renown=LEVEL_SLOT[2], drawn=(0,))
    act(s, "operate", MINGLE)
    act(s, "gossip", 1)
    assert s.adventure == [1] and len(s.hand) == 1 + 2 and len(s.gdeck) == 4 - 2


def test_mingle_cannot_draw_more_than_the_gossip_deck_holds() -> None:
    s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=VILLAGER), hand=(0, 1, 2, 3, 4), renown=LEVEL_SLOT[3], drawn=(0,))
    act(s, "operate", MINGLE)
    act(s, "gossip", 0)
    assert sorted(s.hand) == [1, 2, 3, 4, 5] and s.gdeck == [] and s.gbottom == []


def test_party_reduces_renown_by_two_and_marks_a_furniture() -> None:
    s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=VILLAGER), renown=4, inn={12: tok(TABLE), 0: tok(WINDOW), 7: tok(KITCHEN)}, drawn=(0,))
    act(s, "operate", PARTY)
    assert set(R.legal_actions(s)) == {A("slot", 12), A("slot", 0)}  # furniture only
    act(s, "slot", 12)
    assert s.renown == 2 and s.party_type == TABLE


def test_party_not_in_the_two_leftmost_renown_slots() -> None:
    inn = {12: tok(TABLE), 0: tok(WINDOW)}
    for slot, ok in ((0, False), (1, False), (2, True)):
        s = scene(phase=P_OPERATE, weather=wcard(CLOUDY, align=VILLAGER), renown=slot, inn=inn, drawn=(0,))
        assert (A("operate", PARTY) in R.legal_actions(s)) == ok


def test_party_bonus_per_guest_on_marked_furniture_type_then_coins_discarded() -> None:
    # The journal's example: 2 party coins, tables marked, 3 guests at tables -> 6 extra coins.
    inn = {6: tok(TABLE), 7: tok(TABLE, n=1), 8: tok(TABLE, FRONTIER := 2), 0: tok(WINDOW)}
    s = scene(phase=P_SEAT_GUEST, inn=inn, drawn=(0, 5, 2), bag=(3, 4), renown=LEVEL_SLOT[2], party_coins=2, coins=0)
    s.party_type, s.party_slot = TABLE, 6
    s.guest_loc[5] = G_DRAWN
    s.inn_food = None
    # guest 5 (Baker) needs food; pamper-like back-facing seating still earns the bonus
    s.drawn = [0, 2]
    s.guest_loc[5] = 7
    s.slot_guest[7], s.slot_back[7] = 5, 1
    R.validate(s)
    s.legal = R._compute_legal(s)
    seat(s, 0, 6)
    seat(s, 2, 0)
    coins_before_host = s.coins
    assert coins_before_host == 0
    s2 = R.clone(s)
    s2.wdeck = [wcard(CLOUDY, event=False, align=SPRITE)]  # tomorrow's dawn adds no party coin
    R._host(s2)
    # 2 front facing (1 each) + 2 guests on tables (front and back facing) x 2 party coins
    assert s2.coins == 2 + 2 * 2
    assert s2.party_type == -1 and s2.party_coins == 0  # level II >= 2 coins: discarded


def test_party_coins_stay_when_renown_level_below_their_number() -> None:
    s = scene(phase=P_SEAT_GUEST, inn={12: tok(TABLE)}, renown=0, party_coins=2, bag=(0, 1))
    s.party_type = TABLE
    R._host(s)
    assert s.party_coins == 2 and s.party_type == -1


# ====================================================================================== Skills and workers
def test_resolve_skill_only_in_the_same_row_as_the_action() -> None:
    inn = {12: tok(TABLE), 13: tok(TABLE, n=1), 0: tok(WINDOW)}
    s = scene(phase=P_IMPROVE, inn=inn, skills={"waxed_furniture": IMPROVE}, drawn=(2,))
    s.row = IMPROVE
    act(s, "done")
    assert s.phase == P_SKILL
    act(s, "skill")
    assert s.coins == 12
    s = scene(phase=P_OPERATE, inn=inn, skills={"waxed_furniture": IMPROVE}, drawn=(2,), hand=(0, 1))
    act(s, "operate", SERVE)
    act(s, "gossip", 0)
    assert s.phase != P_SKILL and s.coins == 10


def test_resolving_a_skill_is_optional() -> None:
    s = scene(phase=P_IMPROVE, inn={12: tok(TABLE)}, skills={"waxed_furniture": IMPROVE}, drawn=(2,))
    s.row = IMPROVE
    act(s, "done")
    act(s, "done")
    assert s.coins == 10 and s.phase != P_SKILL


def test_worker_action_decreases_the_die_and_performs_that_rows_action() -> None:
    # dice 0,1 are sprites, 2,3 villagers
    s = scene(phase=P_WORKER, inn={12: tok(TABLE), 0: tok(WINDOW)}, dice={0: 2, 2: 1}, drawn=(0, 2), hand=(0, 1))
    rows = {divmod(T.decode(a)[1], 5) for a in R.legal_actions(s) if T.decode(a)[0] == "worker"}
    assert rows == {(0, PAMPER), (0, IMPROVE), (0, SERVE), (2, SERVE), (2, MINGLE)}  # party: renown too low
    act(s, "worker", 0 * 5 + PAMPER)
    assert s.dice[0] == 1 and s.die_used[0] == 1 and s.worker_used[PAMPER] == 1
    seat(s, 0, 12)
    assert s.phase == P_WORKER
    assert all(T.decode(a)[1] // 5 != 0 for a in R.legal_actions(s) if T.decode(a)[0] == "worker")  # die 0 used today
    assert A("worker", 2 * 5 + PAMPER) not in R.legal_actions(s)  # a villager cannot take a sprite slot


def test_worker_dice_return_and_exhausted_dice_go_back_to_the_tower() -> None:
    s = scene(phase=P_WORKER, inn={12: tok(TABLE), 0: tok(WINDOW)}, dice={0: 1, 1: 2}, drawn=(0, 2), hand=(0, 1))
    act(s, "worker", 0 * 5 + SERVE)
    act(s, "gossip", 0)
    act(s, "worker", 1 * 5 + IMPROVE)
    act(s, "done")
    act(s, "done")
    assert s.phase == P_SEAT_GUEST
    assert s.dice[0] == -1 and s.dice[1] == 1 and s.die_used == [0, 0, 0, 0]


# ====================================================================================== Dusk: seating
def dusk(**kw) -> State:
    kw.setdefault("phase", P_SEAT_GUEST)
    return scene(**kw)


def test_seat_only_satisfied_guests_on_matching_furniture() -> None:
    # Miner: bar + drink (no drink in the inn); Farmhand: table.
    s = dusk(inn={12: tok(TABLE), 13: tok(BAR), 0: tok(WINDOW)}, drawn=(1, 0, 2))
    assert {T.decode(a)[1] for a in R.legal_actions(s) if T.decode(a)[0] == "guest"} == {0, 2}
    act(s, "guest", 0)
    assert R.legal_actions(s) == [A("slot", 12)]  # only the table
    act(s, "slot", 12)
    assert s.slot_guest[12] == 0 and s.slot_back[12] == 0


def test_furniture_fulfils_one_guest_at_a_time() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(0, 5, 2), bag=(1,))
    s.hand, s.gdeck = [], list(range(6))
    seat(s, 0, 12)
    assert A("guest", 5) not in R.legal_actions(s)  # the only table is taken (and the Baker needs food anyway)


def test_service_fulfils_the_request_of_every_guest() -> None:
    inn = {12: tok(KITCHEN), 13: tok(DRINK), 0: tok(DOOR), 10: tok(BAR), 2: tok(WINDOW)}
    s = dusk(inn=inn, drawn=(1, 8, 7))  # Miner (bar+drink), Peddler (door+drink), Shepherd (window+kitchen)
    assert {T.decode(a)[1] for a in R.legal_actions(s) if T.decode(a)[0] == "guest"} == {1, 8, 7}
    for g, d in ((1, 10), (8, 0), (7, 2)):
        act(s, "guest", g)
        if s.phase != P_SEAT_GUEST:
            act(s, "slot", d)
    assert sorted(g for g in s.slot_guest if g >= 0) == [1, 7, 8]


def test_style_embraced_with_two_undamaged_accommodations_and_met_adjacent_or_diagonal() -> None:
    scholar = 14  # window + cultured
    cult_window, cult_fire = tok(WINDOW, 0), tok(FIREPLACE, 0)
    # one cultured accommodation: not embraced
    s = dusk(inn={0: cult_window, 24: tok(WINDOW)}, drawn=(scholar,), renown=4)
    assert R.seat_slots(s, scholar) == []
    # two cultured: embraced; the plain window at 4 is diagonal to the fireplace at 8, the one at 20 is far
    s = dusk(inn={22: cult_window, 8: cult_fire, 4: tok(WINDOW), 20: tok(WINDOW, 1)}, drawn=(scholar,), renown=4)
    assert R.embraced(s)[0]
    assert set(R.seat_slots(s, scholar)) == {4, 22}  # 22: seated on the cultured window itself (assumption)
    # a damaged cultured token does not count toward embracing
    s = dusk(inn={22: cult_window, 8: cult_fire, 4: tok(WINDOW)}, damaged=(8,), drawn=(scholar,), renown=4)
    assert not R.embraced(s)[0] and R.seat_slots(s, scholar) == []


def test_damaged_accommodations_cannot_be_used() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, damaged=(12,), drawn=(0, 2))
    assert R.seat_slots(s, 0) == [] and R.seat_slots(s, 2) == [0]
    s = dusk(inn={12: tok(KITCHEN), 13: tok(DRINK), 10: tok(BAR)}, damaged=(13,), drawn=(1,))
    assert R.seat_slots(s, 1) == []


def test_one_coin_per_front_facing_guest() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW), 4: tok(DOOR)}, drawn=(0, 2), bag=(3, 4), coins=0)
    s.drawn = [0, 2]
    s.guest_loc[3] = 4
    s.bag.remove(3)
    s.slot_guest[4], s.slot_back[4] = 3, 1  # pampered, back facing
    R.validate(s)
    s.legal = R._compute_legal(s)
    seat(s, 0, 12)
    seat(s, 2, 0)
    c = R.clone(s)
    R._host(c)
    assert c.coins == 2  # the back-facing guest earns nothing at dusk


# ====================================================================================== Dusk: complaints
def host_after_seating(s: State) -> None:
    s.phase = P_SEAT_GUEST
    R._host(s)
    s.legal = None
    R.validate(s)


def test_complaint_lose_coins_never_below_zero() -> None:
    s = dusk(inn={12: tok(TABLE)}, drawn=(5, 9), coins=1, bag=(0,))  # Baker and Widow: 1 coin each
    host_after_seating(s)
    assert s.coins == 0


def test_complaint_lose_an_accommodation_of_that_type() -> None:
    # Guard Captain complains: lose a table. Two tables: the innkeeper chooses.
    inn = {12: tok(TABLE), 13: tok(TABLE, n=1), 0: tok(WINDOW)}
    s = dusk(inn=inn, drawn=(15, 2), bag=(0,), renown=4)
    seat(s, 2, 0)
    act(s, "done")
    assert s.phase == P_LOSE and set(R.legal_actions(s)) == {A("slot", 12), A("slot", 13)}
    act(s, "slot", 13)
    assert s.slot_acc[13] == -1 and s.acc_slot[tok(TABLE, n=1)] == A_SUPPLY


def test_complaint_lost_accommodation_unseats_its_guest_without_complaints() -> None:
    # Dragon Tamer: lose a door, then draw a guest. The Baker (complaint: 1 coin) was pampered onto the door.
    s = dusk(inn={4: tok(DOOR), 12: tok(TABLE)}, drawn=(29,), bag=(6,), renown=4, coins=5)
    s.guest_loc[5], s.slot_guest[4], s.slot_back[4] = 4, 5, 1
    R.validate(s)
    s.legal = R._compute_legal(s)
    act(s, "done")
    assert s.phase == P_LOSE and R.legal_actions(s) == [A("slot", 4)]
    act(s, "slot", 4)
    # the Baker is unseated without resolving her complaint; the Fisher is drawn and cannot be seated
    assert s.slot_acc[4] == -1 and s.coins == 5
    assert (s.last_seated, s.last_unseated) == (0, 3) and s.turn == 1


def test_complaint_draw_another_guest_who_may_be_seated() -> None:
    # Peddler (door + drink, complaint: draw) cannot be seated; the bag holds only the Farmhand (table).
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(8, 2), bag=(0,), coins=0)
    seat(s, 2, 0)
    act(s, "done")
    assert s.phase == P_LATE and s.sel == 0
    assert set(R.legal_actions(s)) == {A("slot", 12), A("done")}
    act(s, "slot", 12)
    # seated: coins 1 (window) + 1 (late Farmhand); 2 seated vs 1 unseated -> renown up
    assert s.coins == 2 and s.renown == 1 and s.last_seated == 2 and s.last_unseated == 1


def test_complaint_drawn_guest_not_seated_resolves_its_complaints() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(8, 2), bag=(5,), coins=3)  # the Baker can't be seated
    seat(s, 2, 0)
    act(s, "done")
    # the Baker is drawn, cannot be seated: her complaint (1 coin) resolves
    assert s.coins == 3 + 1 - 1 and s.last_unseated == 2


def test_complaint_draw_of_two_or_more_draws_every_guest_even_after_one_is_seated(tmp_path) -> None:
    # A replacement data file: the Peddler (door + drink, never seated here) complains "draw 2".
    raw = json.loads(DEFAULT_DATA.read_text())
    raw["guests"][8]["complaints"] = [{"kind": "draw", "amount": 2}]
    p = tmp_path / "charter.json"
    p.write_text(json.dumps(raw))
    r2 = MythwindInnkeeperRules(load_data(p), 6, 4, auto=False)
    # The bag holds the Farmhand (table) and the Traveller (window): both can be seated late.
    s = r2.from_json(R.to_json(dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(8,), bag=(0, 2), coins=0)))
    r2.apply(s, A("done"))
    assert s.phase == P_LATE and s.sel in (0, 2)
    first = s.sel
    r2.apply(s, A("slot", 12 if first == 0 else 0))
    r2.validate(s)
    # the first late guest seated, the complaint draws its second guest
    assert s.phase == P_LATE and s.sel == 2 - first and s.bag == []
    r2.apply(s, A("slot", 12 if s.sel == 0 else 0))
    r2.validate(s)
    assert s.coins == 2 and (s.last_seated, s.last_unseated) == (2, 1) and s.turn == 1
    # Declining the first late guest also goes on to the second draw.
    s = r2.from_json(R.to_json(dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(8,), bag=(0, 2), coins=0)))
    r2.apply(s, A("done"))
    first = s.sel
    r2.apply(s, A("done"))
    assert s.phase == P_LATE and s.sel == 2 - first


def test_complaints_that_cannot_be_resolved_are_ignored() -> None:
    # Herbalist: lose a kitchen (none in the inn); Alchemist: draw (empty bag).
    s = dusk(inn={12: tok(TABLE)}, drawn=(20, 16), bag=(), coins=4, renown=4)
    host_after_seating(s)
    assert s.coins == 4 and s.turn == 1


# ====================================================================================== Dusk: satisfaction
def test_renown_up_when_seated_guests_outnumber_unseated() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(0, 2, 6), bag=(1,))
    seat(s, 0, 12)
    seat(s, 2, 0)
    act(s, "done")
    assert s.renown == 1 and s.last_seated == 2 and s.last_unseated == 1


def test_renown_down_when_unseated_equal_or_outnumber_seated() -> None:
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(0, 6), bag=(1,), renown=2)
    seat(s, 0, 12)
    act(s, "done")
    assert s.renown == 1 and (s.last_seated, s.last_unseated) == (1, 1)


def test_renown_level_three_only_with_a_style_embraced() -> None:
    below = LEVEL_SLOT[3] - 1  # the last slot of level II
    s = dusk(inn={12: tok(TABLE)}, drawn=(0,), renown=below)
    seat(s, 0, 12)
    act(s, "done")
    assert s.renown == below  # 1 seated > 0 unseated but no style embraced
    inn = {12: tok(TABLE), 0: tok(WINDOW, 0), 1: tok(FIREPLACE, 0)}
    s = dusk(inn=inn, drawn=(0,), renown=below)
    seat(s, 0, 12)
    act(s, "done")
    assert s.renown == LEVEL_SLOT[3] and R.level(s) == 3


def test_renown_not_decreased_below_leftmost_slot_and_not_beyond_the_track() -> None:
    s = dusk(inn={12: tok(TABLE)}, drawn=(6,), renown=0)
    host_after_seating(s)
    assert s.renown == 0
    inn = {12: tok(TABLE), 0: tok(WINDOW, 0), 1: tok(FIREPLACE, 0)}
    s = dusk(inn=inn, drawn=(0,), renown=R.track_len - 1)
    seat(s, 0, 12)
    act(s, "done")
    assert s.renown == R.track_len - 1


def test_guests_return_to_the_draw_bag() -> None:
    s = dusk(inn={12: tok(TABLE)}, drawn=(0, 6, 2))
    seat(s, 0, 12)
    act(s, "done")
    assert all(s.guest_loc[g] in (G_BAG, G_DRAWN) for g in range(12)) and all(x < 0 for x in s.slot_guest)
    assert len(s.bag) + len(s.drawn) == 12


# ====================================================================================== End of season
def season_end(**kw) -> State:
    kw.setdefault("day", 5)
    s = dusk(**kw)
    return s


def test_end_of_season_discard_damaged_then_damage_one_of_choice() -> None:
    inn = {12: tok(TABLE), 0: tok(WINDOW), 4: tok(DOOR)}
    s = season_end(inn=inn, damaged=(4,), drawn=(0,))
    seat(s, 0, 12)
    act(s, "done")
    assert s.slot_acc[4] == -1 and s.acc_slot[tok(DOOR)] == A_SUPPLY  # discarded
    assert s.phase == P_DAMAGE and s.dmg == [D_ANY]
    assert set(R.legal_actions(s)) == {A("slot", 12), A("slot", 0)}
    act(s, "slot", 0)
    assert s.slot_dmg[0] == 1 and s.season == 1 and s.day == 0


def test_end_of_season_no_accommodation_no_damage() -> None:
    s = season_end(inn={}, drawn=(0,), bag=tuple(range(1, 12)))
    host_after_seating(s)
    assert s.season == 1 and s.phase != P_DAMAGE


def test_end_of_season_renown_level_two_villager_die_extra_damage() -> None:
    inn = {0: tok(WINDOW), 4: tok(DOOR), 12: tok(TABLE), 13: tok(TABLE, n=1), 6: tok(BAR), 7: tok(FIREPLACE)}
    s = season_end(inn=inn, drawn=(), renown=LEVEL_SLOT[2] + 2)
    R._upkeep(s)
    s.legal = None
    assert s.rolls[0] in DATA.die_faces[VILLAGER] and s.rolls[1] == -1
    assert s.dmg == [D_ANY] * (1 + s.rolls[0])


def test_end_of_season_renown_level_three_villager_furniture_sprite_services() -> None:
    inn = {0: tok(WINDOW), 4: tok(DOOR), 12: tok(KITCHEN), 13: tok(DRINK), 11: tok(FOOD), 6: tok(BAR)}
    for seed in range(6):
        s = season_end(inn=inn, drawn=(), renown=LEVEL_SLOT[3])
        s.rng = make_rng(seed)
        R._upkeep(s)
        s.legal = None
        v, p = s.rolls
        assert v in DATA.die_faces[VILLAGER] and p in DATA.die_faces[SPRITE]
        expected = [D_ANY] + [D_FURNITURE] * v + [D_SERVICE] * p
        assert s.dmg == expected
        while s.phase == P_DAMAGE:
            cat = s.dmg[0]
            for a in R.legal_actions(s):
                d = T.decode(a)[1]
                is_f = R.acc_type[s.slot_acc[d]] < 5
                assert cat == D_ANY or is_f == (cat == D_FURNITURE)
            act(s, "slot", T.decode(R.legal_actions(s)[0])[1])


@pytest.mark.parametrize(("level", "counts"), [(1, (12, 0, 0)), (2, (12, 9, 0)), (3, (0, 9, 9))])
def test_end_of_season_update_draw_bag_by_renown_level(level: int, counts: tuple) -> None:
    s = season_end(inn={}, drawn=(), renown=LEVEL_SLOT[level], bag=(0, 1, 2))
    R._upkeep(s)
    s.legal = None
    while s.phase == P_DAMAGE:
        act(s, "slot", T.decode(R.legal_actions(s)[0])[1])
    everyone = s.bag + s.drawn
    assert tuple(sum(1 for g in everyone if DATA.guests[g].level == lv) for lv in (1, 2, 3)) == counts
    assert all(s.guest_loc[g] == G_SUPPLY for g in range(R.NG) if g not in everyone)


def test_end_of_season_party_coins_discarded() -> None:
    s = season_end(inn={}, drawn=(), renown=LEVEL_SLOT[2], party_coins=2)
    R._upkeep(s)
    s.legal = None
    assert s.party_coins <= 1  # discarded (a new event card may add one at the next dawn)


# ====================================================================================== Skill index
def skill_scene(key: str, row: int, **kw) -> State:
    kw.setdefault("phase", P_SKILL)
    s = scene(skills={key: row}, **kw)
    s.row = row
    s.legal = R._compute_legal(s)
    return s


def test_skill_musical_ear_one_coin_per_bar() -> None:
    s = skill_scene("musical_ear", SERVE, inn={0: tok(BAR), 1: tok(BAR, 2), 2: tok(BAR, 1), 12: tok(TABLE)}, drawn=(0,))
    act(s, "skill")
    assert s.coins == 13


def test_skill_waxed_furniture_one_coin_per_table() -> None:
    s = skill_scene("waxed_furniture", IMPROVE, inn={0: tok(TABLE), 1: tok(TABLE, n=1)}, drawn=(0,))
    act(s, "skill")
    assert s.coins == 12


def test_skill_quartermaster_one_coin_per_door() -> None:
    s = skill_scene("quartermaster", PAMPER, inn={0: tok(DOOR), 4: tok(DOOR, 2), 12: tok(TABLE)}, drawn=(0,))
    act(s, "skill")
    assert s.coins == 12


def test_skill_rumormonger_return_a_guest_to_the_bag() -> None:
    s = skill_scene("rumormonger", SERVE, drawn=(6, 5))
    act(s, "skill")
    assert s.phase == P_SKILL_GUEST and A("done") not in R.legal_actions(s)
    act(s, "guest", 5)
    assert 5 in s.bag and s.drawn == [6] and s.guest_loc[5] == G_BAG and s.phase == P_WORKER


def test_skill_waiting_list_return_two_guests_to_the_bag() -> None:
    s = skill_scene("waiting_list", SERVE, drawn=(6, 5, 9), season=1)
    act(s, "skill")
    act(s, "guest", 5)
    assert s.phase == P_SKILL_GUEST and A("done") in R.legal_actions(s)  # the second is optional (assumption)
    act(s, "guest", 9)
    assert s.drawn == [6] and {5, 9} <= set(s.bag) and s.phase == P_WORKER


def test_skill_entertainer_on_cloudy_days_party_coin_or_party() -> None:
    inn = {12: tok(TABLE), 0: tok(WINDOW)}
    s = skill_scene("entertainer", SERVE, inn=inn, drawn=(0,), renown=LEVEL_SLOT[2], weather=wcard(CLOUDY))
    assert R.skill_ok(s, SK["entertainer"])
    act(s, "skill")
    assert s.phase == P_ENTERTAINER and set(R.legal_actions(s)) == {A("entertainer_coin"), A("entertainer_party")}
    act(s, "entertainer_coin")
    assert s.party_coins == 1
    s = skill_scene("entertainer", SERVE, inn=inn, drawn=(0,), renown=LEVEL_SLOT[2], weather=wcard(CLOUDY))
    act(s, "skill")
    act(s, "entertainer_party")
    assert s.phase == P_PARTY
    act(s, "slot", 12)
    assert s.renown == LEVEL_SLOT[2] - 2 and s.party_type == TABLE
    s = skill_scene("entertainer", SERVE, inn=inn, drawn=(0,), renown=LEVEL_SLOT[2], weather=wcard(RAINY))
    assert not R.skill_ok(s, SK["entertainer"])


def test_skill_patron_two_coins_per_cultured_accommodation() -> None:
    inn = {0: tok(WINDOW, 0), 12: tok(FIREPLACE, 0), 13: tok(TABLE, 0), 1: tok(WINDOW, 1)}
    s = skill_scene("patron", MINGLE, inn=inn, drawn=(0,))
    act(s, "skill")
    assert s.coins == 10 + 2 * 3


def test_skill_worker_encouragement_spend_five_to_increase_all_hired_workers() -> None:
    s = skill_scene("worker_encouragement", PARTY, dice={0: 1, 2: 6, 3: 0}, drawn=(0,))
    s.die_used[3] = 1
    R.validate(s)
    act(s, "skill")
    assert s.coins == 5 and s.dice == [2, -1, 6, 1]
    s = skill_scene("worker_encouragement", PARTY, dice={}, drawn=(0,))
    assert not R.skill_ok(s, SK["worker_encouragement"])


def test_skill_favorite_return_a_guest_and_choose_its_replacement() -> None:
    s = skill_scene("favorite", SERVE, drawn=(6, 5), bag=(0, 1, 2, 3))
    act(s, "skill")
    act(s, "guest", 5)
    assert s.phase == P_FAVORITE_PICK and set(R.legal_actions(s)) == {A("guest", g) for g in (0, 1, 2, 3, 5)}
    act(s, "guest", 2)
    assert s.drawn == [6, 2] and 5 in s.bag


def test_skill_charming_three_coins_per_frontier_accommodation() -> None:
    inn = {0: tok(DOOR, 2), 12: tok(TABLE, 2), 14: tok(WINDOW)}
    s = skill_scene("charming", PAMPER, inn=inn, drawn=(0,))
    act(s, "skill")
    assert s.coins == 16


# ====================================================================================== Assumptions
def test_assumption_alignment_is_printed_on_the_weather_card() -> None:
    assert {w.alignment for w in DATA.weather} == {SPRITE, VILLAGER}
    s = scene(phase=P_OPERATE, weather=wcard(SUNNY, align=VILLAGER), drawn=(0,), inn={12: tok(TABLE)})
    assert A("operate", IMPROVE) not in R.legal_actions(s) and A("operate", MINGLE) in R.legal_actions(s)


def test_assumption_town_action_hire_a_die_or_learn_a_skill() -> None:
    s = scene(coins=20, drawn=(0,))
    assert {"town_pass", "hire", "learn"} <= legal_names(s)
    act(s, "hire", VILLAGER)
    assert s.coins == 20 - DATA.hire_cost and s.dice[2] in (1, 2, 3) and s.phase == P_OPERATE
    s = scene(coins=20, drawn=(0,))
    act(s, "learn", SK["rumormonger"] * R.slots + SERVE)
    assert s.skill_row[SK["rumormonger"]] == SERVE and s.coins == 20 - DATA.skills[SK["rumormonger"]].cost


def test_assumption_skill_levels_two_and_three_in_play_from_the_first_season(tmp_path) -> None:
    def learnable(rules: MythwindInnkeeperRules, season: int) -> set[int]:
        s = rules.from_json(R.to_json(scene(coins=100, drawn=(0,), season=season)))
        return {DATA.skills[k].level for k in range(R.NK) if rules.learnable(s, k)}
    assert DATA.skill_unlock_season == (1, 1, 1)
    assert learnable(R, 0) == {1, 2, 3} and learnable(R, 3) == {1, 2, 3}
    # A data file may bring a level's sprites into play later (the season it is first learnable).
    raw = json.loads(DEFAULT_DATA.read_text())
    raw["rules"]["skill_level_in_play_from_season"] = {"1": 1, "2": 1, "3": 2}
    p = tmp_path / "charter.json"
    p.write_text(json.dumps(raw))
    r2 = MythwindInnkeeperRules(load_data(p), 6, 4, auto=False)
    assert learnable(r2, 0) == {1, 2} and learnable(r2, 1) == {1, 2, 3}


def test_assumption_learning_into_a_taken_slot_moves_that_skill_to_a_free_slot() -> None:
    s = scene(coins=50, drawn=(0,), skills={"rumormonger": SERVE})
    act(s, "learn", SK["waxed_furniture"] * R.slots + SERVE)
    assert s.skill_row[SK["waxed_furniture"]] == SERVE and s.skill_row[SK["rumormonger"]] == 0
    s = scene(coins=100, drawn=(0,), season=2, skills={k: i for i, k in enumerate(list(SK)[:5])})
    assert "learn" not in legal_names(s)  # five slots, five skills


def test_gaining_a_skill_lets_the_player_rearrange_all_gained_skills_freely() -> None:
    s = scene(coins=50, drawn=(0,), skills={"rumormonger": SERVE, "waxed_furniture": IMPROVE})
    act(s, "learn", SK["quartermaster"] * R.slots + MINGLE)
    # the rearrangement: any gained skill into any other row's slot, or keep them as they are
    gained = {SK["rumormonger"]: SERVE, SK["waxed_furniture"]: IMPROVE, SK["quartermaster"]: MINGLE}
    assert s.phase == P_ARRANGE
    assert set(R.legal_actions(s)) == {A("arrange", k * R.slots + r) for k, row in gained.items() for r in range(R.slots) if r != row} | {A("done")}
    assert R.legal_actions(s) == sorted(R.legal_actions(s))  # ascending, as the mask lists them
    assert T.label(A("arrange", SK["waxed_furniture"] * R.slots + SERVE)) == "arrange(waxed_furniture to row serve)"
    act(s, "arrange", SK["waxed_furniture"] * R.slots + SERVE)  # a skill there takes the moved skill's old slot
    assert s.skill_row[SK["waxed_furniture"]] == SERVE and s.skill_row[SK["rumormonger"]] == IMPROVE
    act(s, "arrange", SK["quartermaster"] * R.slots + PAMPER)  # into an empty slot
    assert s.skill_row[SK["quartermaster"]] == PAMPER and MINGLE not in s.skill_row
    act(s, "done")
    assert s.phase == P_OPERATE and s.coins == 50 - DATA.skills[SK["quartermaster"]].cost
    # The first skill gained has no rearrangement: learning already chose its slot.
    s = scene(coins=50, drawn=(0,))
    act(s, "learn", SK["quartermaster"] * R.slots + MINGLE)
    assert s.phase == P_OPERATE


def test_gaining_a_skill_reaches_every_arrangement_of_the_gained_skills() -> None:
    keys = ["musical_ear", "waxed_furniture", "rumormonger", "quartermaster"]
    rng = make_rng(5)
    for _ in range(20):
        s = scene(coins=100, drawn=(0,), season=1, skills={k: r for r, k in enumerate(keys)})
        act(s, "learn", SK["patron"] * R.slots + 4)
        five = [SK[k] for k in keys] + [SK["patron"]]
        target = dict(zip(five, (int(x) for x in rng.permutation(R.slots))))
        moves = 0
        while s.phase == P_ARRANGE:  # selection: each move puts one skill in its target slot for good
            k = next((k for k in five if s.skill_row[k] != target[k]), None)
            if k is None:
                act(s, "done")
                break
            act(s, "arrange", k * R.slots + target[k])
            moves += 1
        assert moves <= R.slots - 1 and all(s.skill_row[k] == target[k] for k in five) and s.phase == P_OPERATE


def test_gaining_a_skill_rearrangement_ends_after_slots_minus_one_moves() -> None:
    s = scene(coins=50, drawn=(0,), skills={"rumormonger": SERVE})
    act(s, "learn", SK["waxed_furniture"] * R.slots + IMPROVE)
    for _ in range(R.slots - 1):
        assert s.phase == P_ARRANGE
        act(s, "arrange", SK["rumormonger"] * R.slots + (s.skill_row[SK["rumormonger"]] + 1) % R.slots)
    assert s.phase == P_OPERATE and s.arrange_left == 0


def test_assumption_mingled_gossip_resolves_at_next_dawn_and_goes_to_the_deck_bottom() -> None:
    s = scene(hand=(3,), drawn=())
    s.hand, s.adventure, s.gdeck = [], [3], [0, 1, 2, 4, 5]  # Market Day: a coins card
    assert DATA.gossip[3].effect == (E_COINS, 6)
    dawn(s, wcard(CLOUDY))
    assert s.coins == 16 and s.gbottom == [3] and s.adventure == []


def test_assumption_the_town_draws_one_adventure_card_each_dawn_the_rest_wait() -> None:
    s = scene(hand=(), drawn=())
    s.adventure, s.gdeck = [0, 3], [1, 2, 4, 5]  # Harvest Rumours 5 coins, Market Day 6 coins
    dawn(s, wcard(CLOUDY))
    assert R.data.adventure_draws_per_dawn == 1
    assert len(s.gbottom) == 1 and s.adventure == [c for c in (0, 3) if c not in s.gbottom]
    paid = DATA.gossip[s.gbottom[0]].effect[1]
    assert s.coins == 10 + paid and s.income[INCOME_SOURCES.index("adventure")] == paid == s.earned
    R.validate(s)


def test_assumption_gossip_deck_bottom_cards_drawn_after_the_shuffled_part() -> None:
    s = scene(hand=(), drawn=(0,))
    s.gdeck, s.gbottom = [1], [4, 2, 0, 3, 5]
    R._draw_gossip(s)
    R._draw_gossip(s)
    assert s.hand == [1, 4] and s.gbottom == [2, 0, 3, 5]


def test_assumption_losing_a_kitchen_or_stage_leaves_the_drinks_food_music_and_plays_it_supported() -> None:
    inn = {12: tok(KITCHEN), 13: tok(DRINK), 11: tok(FOOD), 10: tok(TABLE), 2: tok(STAGE), 3: tok(MUSIC)}
    s = dusk(inn=inn, drawn=(20,), renown=4)  # the Herbalist (fireplace + kitchen) cannot be seated: lose a kitchen
    host_after_seating(s)
    assert s.phase == P_LOSE
    act(s, "slot", 12)
    # only the kitchen goes; the drink and the food stay, now with no kitchen next to them
    assert s.slot_acc[12] == -1 and s.slot_acc[13] == tok(DRINK) and s.slot_acc[11] == tok(FOOD)
    assert R.unsupported(s) == [11, 13] and not R.placement_violations(s)
    # they still serve requests: the Miner (bar + drink) can be seated on a bar
    s2 = improve_scene(inn={13: tok(DRINK), 7: tok(BAR)})
    s2.phase = P_SEAT_GUEST
    s2.drawn, s2.guest_loc[1] = [1], G_DRAWN
    s2.bag.remove(1)
    R.validate(s2)
    s2.legal = R._compute_legal(s2)
    assert A("guest", 1) in R.legal_actions(s2)


def test_assumption_a_stranded_drink_may_be_sold_and_moves_only_next_to_a_kitchen() -> None:
    s = improve_scene(inn={13: tok(DRINK), 20: tok(KITCHEN)})  # a drink left by a lost kitchen
    assert R.unsupported(s) == [13]
    assert not illegal(s, "sell", 13) and not illegal(s, "move", 13)
    act(s, "move", 13)
    assert {T.decode(a)[1] for a in R.legal_actions(s)} == {15, 21}  # next to the kitchen in r4c0 only


def test_assumption_season_end_discard_of_a_damaged_kitchen_keeps_its_undamaged_drinks_and_food() -> None:
    inn = {12: tok(KITCHEN), 13: tok(DRINK), 11: tok(FOOD), 10: tok(TABLE)}
    s = season_end(inn=inn, damaged=(12, 11), drawn=(0,))
    seat(s, 0, 10)
    act(s, "done")
    # the damaged kitchen and the damaged food are discarded; the undamaged drink stays
    assert s.slot_acc[12] == -1 and s.slot_acc[11] == -1 and s.slot_acc[13] == tok(DRINK)
    assert s.phase == P_DAMAGE and set(R.legal_actions(s)) == {A("slot", 10), A("slot", 13)}


def test_assumption_a_move_may_not_strand_drinks_food_music_or_plays() -> None:
    s = improve_scene(inn={12: tok(KITCHEN), 13: tok(DRINK)})
    act(s, "move", 12)
    dests = {T.decode(a)[1] for a in R.legal_actions(s)}
    assert dests == {8, 14, 18}  # the kitchen may only go where it still touches the drink


def test_assumption_guests_request_exactly_one_furniture() -> None:
    assert all(0 <= g.furniture < 5 for g in DATA.guests)


def test_assumption_a_single_legal_decision_is_taken_automatically() -> None:
    s = scene(phase=P_TOWN, coins=0, drawn=(0,), hand=(), inn={12: tok(TABLE)}, weather=wcard(CLOUDY, align=VILLAGER))
    assert R.legal_actions(s) == [A("town_pass")]
    AUTO._settle(s)
    # town: only pass; operate (villager): only Mingle (no hand, renown too low); the rest of the
    # day runs on until a decision with two or more choices (here: seating the Farmhand or not)
    assert s.phase == P_SEAT_GUEST and R.legal_actions(s) == [A("guest", 0), A("done")]
    assert len(s.hand) == 1  # Mingle drew a card


def test_assumption_campaign_length_options_and_final_upkeep_skipped() -> None:
    r = MythwindInnkeeperRules(DATA, 2, 1)
    s = scene(phase=P_SEAT_GUEST, inn={12: tok(TABLE)}, drawn=(0,), day=1)
    s2 = r.from_json(R.to_json(s))
    r.apply(s2, A("done"))
    assert s2.over and s2.phase == P_OVER and s2.turn == 1 and s2.dmg == [] and s2.season == 0  # no final upkeep
    with pytest.raises(ValueError, match="days_per_season"):
        MythwindInnkeeperRules(DATA, 0, 4)
    with pytest.raises(ValueError, match="seasons"):
        MythwindInnkeeperRules(DATA, 6, 101)


def test_assumption_data_file_printed_counts_and_replaceable(tmp_path) -> None:
    raw = json.loads(DEFAULT_DATA.read_text())
    assert len(raw["guests"]) == 30 and len(raw["accommodations"]) == 29 and len(raw["gossip_cards"]) == 6 and len(raw["skills"]) == 10
    raw["rules"]["starting_coins"] = 25
    p = tmp_path / "charter.json"
    p.write_text(json.dumps(raw))
    d = load_data(p)
    assert d.starting_coins == 25 and d.digest != DATA.digest
    bad = json.loads(DEFAULT_DATA.read_text())
    bad["guests"] = bad["guests"][:-1]
    with pytest.raises(InnDataError, match="30 guest tokens"):
        parse_data(bad)


def test_assumption_illegal_actions_raise_and_change_nothing() -> None:
    s = scene(phase=P_OPERATE, drawn=(0,), inn={12: tok(TABLE)})
    before = R.to_json(s)
    with pytest.raises(IllegalActionError, match="not legal"):
        R.apply(s, A("operate", PARTY))
    assert R.to_json(s) == before


# ================================================================= Designed data (design targets)
def test_assumption_starting_table_dealt_from_frontier_cultured_and_plain_window_and_door_plain() -> None:
    assert DATA.starting_accommodations == ((8, 9, 6), (0,), (3,))
    dealt = {}
    for seed in range(60):
        s = R.initial_state(seed)
        start = [DATA.accommodations[a] for a in s.setup]
        assert [a.type for a in start] == [TABLE, WINDOW, DOOR]
        assert [a.style for a in start[1:]] == [-1, -1] and [a.renown for a in start[1:]] == [1, 1]
        assert all(x == A_SETUP for a in s.setup for x in [s.acc_slot[a]])
        dealt[start[0].aid] = seed
    assert sorted(dealt) == [6, 8, 9]  # each table is dealt: frontier, cultured, plain
    assert [DATA.accommodations[a].style for a in (8, 9, 6)] == [FRONTIER, CULTURED, -1]
    assert R.initial_state(dealt[9]).setup == R.initial_state(dealt[9]).setup  # the seed decides it
    for aid, seed in dealt.items():  # placed at setup whatever their renown requirement; public from the start
        s = R.initial_state(seed)
        for d in (12, 0, 24):
            act(s, "slot", d)
        assert s.slot_acc[12] == aid
        assert R.worth(s) == s.coins + sum(DATA.accommodations[a].cost // 2 for a in (aid, 0, 3))


def test_a_data_file_with_one_starting_table_deals_nothing() -> None:
    raw = json.loads(DEFAULT_DATA.read_text())
    raw["rules"]["starting_accommodations"] = [8, 0, 3]
    fixed = MythwindInnkeeperRules(parse_data(raw), 6, 4, auto=False)
    raw["rules"]["starting_accommodations"] = [[8], 0, 3]  # a list of one: the same, nothing drawn
    one = MythwindInnkeeperRules(parse_data(raw), 6, 4, auto=False)
    for seed in range(5):
        s = fixed.initial_state(seed)
        assert s.setup == [8, 0, 3] and fixed.to_json(s) == one.to_json(one.initial_state(seed))


def test_assumption_renown_track_level_three_from_the_seventh_slot() -> None:
    assert DATA.renown_levels == (1, 1, 1, 2, 2, 2, 3, 3, 3, 3)
    assert DATA.renown_guests == (6, 6, 6, 7, 7, 8, 9, 9, 10, 10)
    # Into slot 6 (level III) only with an embraced style; the frontier start token and one more frontier token do.
    s = scene(renown=5, inn={12: tok(TABLE, FRONTIER)})
    R._renown_up(s)
    assert s.renown == 5
    s = scene(renown=5, inn={12: tok(TABLE, FRONTIER), 13: tok(BAR, FRONTIER)})
    R._renown_up(s)
    assert s.renown == 6 and R.level(s) == 3


def test_assumption_weather_deck_nine_event_days_in_twelve() -> None:
    for t in (SUNNY, CLOUDY, RAINY):
        cards = [w for w in DATA.weather if w.type == t]
        assert len(cards) == 4 and sum(w.event for w in cards) == 3
        assert {w.alignment for w in cards if w.event} == {SPRITE, VILLAGER}


def test_assumption_skill_costs_level_two_and_three_repay_in_a_dozen_uses() -> None:
    cost = {k.key: k.cost for k in DATA.skills}
    assert cost == {"musical_ear": 6, "waxed_furniture": 8, "rumormonger": 5, "quartermaster": 8, "waiting_list": 25,
                    "entertainer": 4, "patron": 6, "worker_encouragement": 6, "favorite": 7, "charming": 8}
    s = scene(coins=30, drawn=(0,), season=1)
    act(s, "learn", SK["charming"] * R.slots + IMPROVE)
    assert s.coins == 30 - 8 and s.skill_row[SK["charming"]] == IMPROVE


def test_assumption_gossip_coin_cards_pay_five_four_and_six() -> None:
    coins = {c.name: c.effect[1] for c in DATA.gossip if c.effect[0] == E_COINS}
    assert coins == {"Harvest Rumours": 5, "Bard's Tale": 4, "Market Day": 6}


def test_assumption_picky_level_two_guests_break_their_furniture() -> None:
    # v5 (A1): the level II guests with two services or a style break the furniture they asked for.
    picky = {g.name: g for g in DATA.guests if g.level == 2 and (len(g.services) >= 2 or g.style >= 0) and g.name in ("Merchant", "Actor", "Scholar")}
    assert {n: g.complaints for n, g in picky.items()} == {n: ((C_LOSE, g.furniture),) for n, g in picky.items()}
    assert set(picky) == {"Merchant", "Actor", "Scholar"}
    # The Merchant (table, drink, food) is left unseated in an inn with a table and no drink: the table goes.
    merchant = picky["Merchant"].gid
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(merchant, 2), bag=(0,), renown=4, coins=5)
    seat(s, 2, 0)
    act(s, "done")
    assert s.phase == P_LOSE and R.legal_actions(s) == [A("slot", 12)]
    act(s, "slot", 12)
    assert s.slot_acc[12] == -1 and s.acc_slot[tok(TABLE)] == A_SUPPLY and s.coins == 6  # no coin complaint; the Traveller pays 1
    # Pampered instead (seated back facing on the table), the Merchant breaks nothing.
    s = dusk(inn={12: tok(TABLE), 0: tok(WINDOW)}, drawn=(2,), bag=(0,), renown=4, coins=5)
    s.guest_loc[merchant], s.slot_guest[12], s.slot_back[12] = 12, merchant, 1
    R.validate(s)
    s.legal = R._compute_legal(s)
    seat(s, 2, 0)
    act(s, "done")
    assert s.slot_acc[12] == tok(TABLE) and s.phase != P_LOSE
