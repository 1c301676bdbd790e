"""Mythic Baths: one scripted scenario per rule of the rulebook (rulebooks/mythic_baths.txt).

Each test is named after the rule it checks; ``test_assumption_...`` tests pin down the choices the
engine makes where the rulebook is silent (listed in ``docs/rules/mythic_baths.md``).
Scenarios start from a cleared table (see :class:`Table`) and place exactly the guests, cards,
tokens and manager the rule needs; every state is validated (cards, guests and tokens conserved)
before the first decision and after every action.
"""

from __future__ import annotations

import json

import pytest

from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.mythic_baths.actions import MAX_BATHS, SUPPLY_SIZE
from mythzoo.envs.mythic_baths.cards import DEFAULT_CARD_SET, CardSetError, Guest, load_card_set
from mythzoo.envs.mythic_baths.rules import (
    CERBERUS,
    JACKALOPE,
    OWLBEAR,
    P_DISCARD,
    P_EARTH,
    P_GATHER,
    P_PAY,
    P_TAKE,
    P_TURN,
    SEA_LION,
    TATZELWURM,
    TOKEN_ACTIVE,
    TOKEN_NONE,
    TOKEN_USED,
    MythicBathsRules,
)

CS = load_card_set()
TEA, SALTS, OIL, HERBS, MUD = (CS.ingredients.index(x) for x in ("tea", "salts", "oil", "herbs", "mud"))
EXTRA = CS.num_types  # the "extra" (Tatzelwurm) payment target


# --------------------------------------------------------------------------- scenario builder
def kind(card: int | tuple[int, ...]) -> int:
    """Card kind of a single ingredient type (``TEA``) or of a tuple of types (``(TEA, OIL)``)."""
    types = (card,) if isinstance(card, int) else tuple(sorted(card))
    return CS.kinds.index(types)


def need_list(g: Guest) -> list[int]:
    """A guest's requirement as a list of ingredient types, e.g. [TEA, OIL, HERBS, HERBS]."""
    return [t for t in range(CS.num_types) for _ in range(g.needs[t])]


def unneeded(g: Guest) -> list[int]:
    """Ingredient types the guest does not require."""
    return [t for t in range(CS.num_types) if g.needs[t] == 0]


class Table:
    """A cleared table to build a scenario on.

    All 50 ingredient cards start in the deck (hands and supply empty), all guests in the guest
    deck (baths empty and clean), no nourish or favour tokens placed, no amber. Helpers move
    things from where they are, so cards, guests and tokens stay conserved and
    ``MythicBathsRules.validate`` passes.
    """

    def __init__(self, n: int = 2, manager: str = "water_mage", seed: int = 0):
        self.R = R = MythicBathsRules(CS, n)
        self.s = s = R.initial_state(seed)
        for p in range(n):
            for k, c in enumerate(s.hands[p]):
                s.deck.extend([k] * c)
            s.hands[p] = [0] * R.K
        s.deck.extend(k for k in s.supply if k >= 0)
        s.supply = [-1] * SUPPLY_SIZE
        for b in range(R.num_baths):
            s.guest_deck.insert(0, s.bath_guest[b])
            s.bath_guest[b] = -1
        self.set_manager(manager)

    # ---- ingredient cards
    def _pull(self, k: int) -> None:
        for pile in (self.s.deck, self.s.discard):
            if k in pile:
                pile.remove(k)
                return
        raise AssertionError(f"no {CS.kind_label(k)} card left in the deck or discard pile")

    def give(self, p: int, *cards) -> Table:
        """Move these cards from the deck into player p's hand."""
        for c in cards:
            k = kind(c)
            self._pull(k)
            self.s.hands[p][k] += 1
        return self

    def set_supply(self, *cards) -> Table:
        """Put these cards in supply slots 0.. (the rest of the slots empty)."""
        s = self.s
        for k in s.supply:
            if k >= 0:
                s.deck.insert(0, k)
        s.supply = [-1] * SUPPLY_SIZE
        for i, c in enumerate(cards):
            self._pull(kind(c))
            s.supply[i] = kind(c)
        return self

    def deal_supply(self) -> Table:
        """Fill the empty supply slots from the top of the deck."""
        for i in range(SUPPLY_SIZE):
            if self.s.supply[i] < 0:
                self.s.supply[i] = self.s.deck.pop()
        return self

    def stack_deck(self, *cards) -> Table:
        """Put these cards on top of the deck; the first listed is drawn first."""
        ks = [kind(c) for c in cards]
        for k in ks:
            self._pull(k)
        self.s.deck.extend(reversed(ks))
        return self

    # ---- guests
    def find(self, troublesome: bool = False, **props) -> Guest:
        """The lowest-id guest still in the guest deck with these properties.

        ``size`` = number of ingredients required, ``distinct`` = no type required twice,
        any other keyword is a :class:`Guest` field (creature, ability, amber, needs).
        """
        size = props.pop("size", None)
        distinct = props.pop("distinct", False)
        for g in CS.guests:
            if g.gid not in self.s.guest_deck or g.troublesome != troublesome:
                continue
            if size is not None and sum(g.needs) != size:
                continue
            if distinct and max(g.needs) > 1:
                continue
            if all(getattr(g, k) == v for k, v in props.items()):
                return g
        raise LookupError(f"no guest with troublesome={troublesome} {props} left")

    def regular(self, **props) -> Guest:
        return self.find(False, **props)

    def troublesome(self, ability: int) -> Guest:
        return self.find(True, ability=ability)

    def _pull_guest(self, g: Guest | int) -> int:
        gid = g.gid if isinstance(g, Guest) else g
        self.s.guest_deck.remove(gid)
        return gid

    def place(self, b: int, g: Guest) -> Guest:
        """Move guest g from the guest deck onto (empty, clean) bath b."""
        assert self.s.bath_guest[b] < 0 and not self.s.bath_dirty[b]
        self.s.bath_guest[b] = self._pull_guest(g)
        return g

    def dirty(self, *baths: int) -> Table:
        """Mark empty baths dirty (vacated by a treated guest)."""
        for b in baths:
            assert self.s.bath_guest[b] < 0
            self.s.bath_dirty[b] = 1
        return self

    def fill_baths(self) -> Table:
        """Put a regular guest from the guest deck on every empty clean bath."""
        for b in range(self.R.num_baths):
            if self.s.bath_guest[b] < 0 and not self.s.bath_dirty[b]:
                self.place(b, self.regular())
        return self

    def stack_guests(self, *gs: Guest) -> Table:
        """Put these guests on top of the guest deck; the first listed arrives first."""
        ids = [self._pull_guest(g) for g in gs]
        self.s.guest_deck.extend(reversed(ids))
        return self

    def collect(self, p: int, *gs: Guest | int) -> Table:
        """Give player p these guests as already treated."""
        for g in gs:
            self.s.collected[p].append(self._pull_guest(g))
        return self

    def collect_any(self, p: int, count: int) -> Table:
        """Give player p ``count`` guests (from the bottom of the guest deck) as already treated."""
        return self.collect(p, *self.s.guest_deck[:count])

    # ---- tokens and managers
    def token(self, p: int, creature: int, state: int = TOKEN_ACTIVE) -> Table:
        s = self.s
        if s.tokens[p][creature] == TOKEN_NONE:
            s.token_supply[creature] -= 1
        s.tokens[p][creature] = state
        return self

    def nourish(self, p: int, b: int) -> Table:
        self.s.nourish[p] = b
        return self

    def set_manager(self, effect: str) -> Table:
        s, m = self.s, CS.managers.index(effect)
        if s.manager != m:
            i = s.manager_deck.index(m)
            s.manager_deck[i] = s.manager
            s.manager = m
        return self

    def stack_manager(self, effect: str) -> Table:
        """Put this manager on top of the manager deck (revealed next)."""
        m = CS.managers.index(effect)
        self.s.manager_deck.remove(m)
        self.s.manager_deck.append(m)
        return self

    @property
    def manager(self) -> str:
        return CS.managers[self.s.manager]

    # ---- play
    def ready(self, current: int = 0) -> Table:
        """Player ``current`` starts a fresh turn; the state is validated."""
        s = self.s
        s.current, s.phase, s.main_done, s.bonus_done = current, P_TURN, 0, 0
        s.legal = None
        self.R.validate(s)
        return self

    def a(self, name: str, arg: int = 0) -> int:
        return self.R.table.encode(name, arg)

    def legal(self) -> list[int]:
        return self.R.legal_actions(self.s)

    def can(self, name: str, arg: int = 0) -> bool:
        return self.a(name, arg) in self.legal()

    def names(self) -> set[str]:
        """Names of the legal action ranges."""
        return {self.R.table.decode(a)[0] for a in self.legal()}

    def args(self, name: str) -> list[int]:
        """Arguments of the legal actions in range ``name``."""
        return [arg for a in self.legal() for nm, arg in [self.R.table.decode(a)] if nm == name]

    def do(self, name: str, arg: int = 0) -> Table:
        self.R.apply(self.s, self.a(name, arg))
        self.R.validate(self.s)
        return self

    def pay(self, *cards) -> Table:
        for c in cards:
            self.do("pay_card", kind(c))
        return self

    def treat(self, b: int, *cards) -> Table:
        """Treat bath b paying these cards in order."""
        return self.do("treat", b).pay(*cards)

    def chef(self, src: int, target: int) -> int:
        return src * (CS.num_types + 1) + target


# =========================================================================== Components
def test_components_printed_counts_in_play():
    R = MythicBathsRules(CS, 5)
    s = R.initial_state(1)
    cards = len(s.deck) + sum(1 for k in s.supply if k >= 0) + sum(map(sum, s.hands))
    assert cards == 50
    guests = s.guest_deck + s.bath_guest
    assert sorted(guests) == list(range(45))
    assert sum(1 for x in guests if not R.guests[x].troublesome) == 35
    assert sum(1 for x in guests if R.guests[x].troublesome) == 10
    assert sorted(s.manager_deck + [s.manager]) == list(range(10))
    assert sorted(CS.managers) == sorted(
        ["amber_appraiser", "bathing_curator", "creature_whisperer", "earth_mage", "gardener",
         "fire_mage", "head_chef", "spirit_caretaker", "water_mage", "wind_mage"]
    )
    assert sum(s.token_supply) == 25 and len(s.token_supply) == 5  # 5 stacks of 5 favour tokens
    assert len(s.nourish) == 5  # one nourish token per player
    assert len(s.bath_guest) == MAX_BATHS == 7  # 5 players use all 7 bath tiles


def test_assumption_reconstructed_card_contents():
    singles = [k for k in range(CS.num_kinds) if len(CS.kinds[k]) == 1]
    doubles = [k for k in range(CS.num_kinds) if len(CS.kinds[k]) == 2 and CS.kinds[k][0] == CS.kinds[k][1]]
    mixed = [k for k in range(CS.num_kinds) if len(CS.kinds[k]) == 2 and CS.kinds[k][0] != CS.kinds[k][1]]
    assert CS.num_types == 5
    assert [CS.kind_counts[k] for k in singles] == [5] * 5
    assert len(mixed) == 10 and all(CS.kind_counts[k] == 2 for k in mixed)
    assert [CS.kind_counts[k] for k in doubles] == [1] * 5
    regular = [g for g in CS.guests if not g.troublesome]
    trouble = [g for g in CS.guests if g.troublesome]
    for c in range(5):
        assert sum(1 for g in regular if g.creature == c) == 7
        assert sum(1 for g in trouble if g.ability == c) == 2
    assert all(2 <= sum(g.needs) <= 5 and 1 <= g.amber <= 7 for g in regular)
    assert all(sum(g.needs) == 6 and g.amber == 4 for g in trouble)


def test_assumption_card_set_file_replaceable_and_validated_on_load(tmp_path):
    data = json.loads(DEFAULT_CARD_SET.read_text())
    good = tmp_path / "real_cards.json"
    data["regular_guests"][0]["amber"] = 6
    good.write_text(json.dumps(data))
    cs = load_card_set(good)
    assert cs.guests[0].amber == 6 and cs.digest != CS.digest
    R = MythicBathsRules(cs, 2)
    R.validate(R.initial_state(0))
    bad = tmp_path / "broken.json"
    data["troublesome_guests"][0]["needs"] = ["tea"]  # troublesome guests require 6 ingredients
    bad.write_text(json.dumps(data))
    with pytest.raises(CardSetError, match="6 ingredients"):
        load_card_set(bad)
    data = json.loads(DEFAULT_CARD_SET.read_text())
    data["ingredient_cards"] = data["ingredient_cards"][1:]
    bad.write_text(json.dumps(data))
    with pytest.raises(CardSetError, match="ingredient cards"):
        load_card_set(bad)


# =========================================================================== Setup
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_baths_equal_players_plus_two(n):
    R = MythicBathsRules(CS, n)
    s = R.initial_state(n)
    assert len(s.bath_guest) == n + 2
    assert not any(s.bath_dirty)  # clean side up
    t = Table(n=n).fill_baths().ready()
    assert t.args("nourish") == list(range(n + 2))  # every bath of the row, and no more


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_a_guest_on_each_bath_rest_in_guest_deck(n):
    R = MythicBathsRules(CS, n)
    s = R.initial_state(7)
    assert all(x >= 0 for x in s.bath_guest)
    assert len(s.guest_deck) == 45 - (n + 2)
    assert sorted(s.guest_deck + s.bath_guest) == list(range(45))


def test_setup_guest_and_ingredient_decks_are_shuffled():
    R = MythicBathsRules(CS, 2)
    a, b = R.initial_state(1), R.initial_state(2)
    assert a.bath_guest + a.guest_deck != b.bath_guest + b.guest_deck
    assert a.deck != b.deck
    c = R.initial_state(1)
    assert R.to_json(a) == R.to_json(c)  # the seed determines the shuffle


def test_setup_one_manager_revealed():
    R = MythicBathsRules(CS, 3)
    for seed in range(30):
        s = R.initial_state(seed)
        assert 0 <= s.manager < 10 and len(s.manager_deck) == 9 and s.manager not in s.manager_deck
        if any(R.guests[x].troublesome for x in s.bath_guest):
            break  # troublesome guests dealt at setup do not bring a second manager
    else:
        pytest.fail("no seed dealt a troublesome guest at setup")


@pytest.mark.parametrize("n", [2, 5])
def test_setup_supply_of_five_cards(n):
    s = MythicBathsRules(CS, n).initial_state(3)
    assert len(s.supply) == 5 and all(k >= 0 for k in s.supply)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_three_cards_per_hand(n):
    s = MythicBathsRules(CS, n).initial_state(4)
    assert [sum(h) for h in s.hands] == [3] * n
    assert len(s.deck) == 50 - 5 - 3 * n and s.discard == []


def test_setup_nourish_tokens_unplaced_no_favour_tokens_no_amber():
    s = MythicBathsRules(CS, 4).initial_state(5)
    assert s.nourish == [-1] * 4
    assert all(t == [TOKEN_NONE] * 5 for t in s.tokens) and s.token_supply == [5] * 5
    assert s.amber == [0] * 4 and s.collected == [[]] * 4


def test_setup_player_count_two_to_five():
    for n in (1, 6):
        with pytest.raises(ValueError):
            MythicBathsRules(CS, n)


def test_assumption_first_player_is_player_0():
    R = MythicBathsRules(CS, 3)
    for seed in range(5):
        s = R.initial_state(seed)
        assert R.current_player(s) == 0 and s.phase == P_TURN and not s.main_done


# =========================================================================== Gameplay (turn structure)
def test_turn_one_main_action_then_left_player_moves():
    t = Table(n=3).deal_supply().ready()
    t.do("gather_supply", 0)
    assert t.s.current == 1 and not t.s.main_done  # the player on the left
    t.do("gather_supply", 0)
    assert t.s.current == 2
    t.do("gather_deck")
    assert t.s.current == 0


def test_turn_only_one_main_action():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE)).token(0, JACKALOPE).ready()
    t.do("gather_supply", 0)
    assert t.s.current == 0  # an unused favour token keeps the turn open ...
    assert t.names() == {"token_jackalope", "end_turn"}  # ... but no second main action


def test_turn_bonus_action_before_main_action():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE)).token(0, JACKALOPE).ready()
    t.do("token_jackalope")
    assert t.s.amber[0] == 1 and t.s.current == 0
    assert t.can("gather_supply", 0) and not t.can("end_turn")  # the main action is still to come
    t.do("gather_supply", 0)
    assert t.s.current == 1


def test_turn_bonus_action_after_main_action():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE)).token(0, JACKALOPE).ready()
    t.do("gather_supply", 0)
    t.do("token_jackalope")
    assert t.s.amber[0] == 1 and t.s.current == 1


def test_turn_at_most_one_bonus_action():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE)).token(0, JACKALOPE).token(0, CERBERUS).ready()
    assert t.can("token_jackalope") and t.can("token_cerberus", 0)
    t.do("token_jackalope")
    assert "token_cerberus" not in t.names()
    t.do("gather_deck")
    assert t.s.current == 1 and t.s.tokens[0][CERBERUS] == TOKEN_ACTIVE


def test_assumption_turn_ends_automatically_when_only_end_turn_is_left():
    t = Table().deal_supply()
    t.token(0, JACKALOPE).ready()  # an active token keeps end_turn a real choice ...
    t.do("gather_deck")
    assert t.s.current == 0 and t.legal() == sorted([t.a("token_jackalope"), t.a("end_turn")])
    t.do("end_turn")
    assert t.s.current == 1
    t.do("gather_deck")  # ... player 1 has none: the turn ends without an end_turn decision
    assert t.s.current == 0 and t.s.turn == 2


# =========================================================================== 1. Gather
def test_gather_take_supply_card_and_refill_from_deck_top():
    t = Table().set_supply(TEA, SALTS, OIL, HERBS, MUD).stack_deck((TEA, SALTS)).ready()
    deck_before = len(t.s.deck)
    t.do("gather_supply", 2)
    assert t.s.hands[0][kind(OIL)] == 1 and sum(t.s.hands[0]) == 1
    assert t.s.supply == [kind(c) for c in (TEA, SALTS, (TEA, SALTS), HERBS, MUD)]
    assert len(t.s.deck) == deck_before - 1


def test_gather_draw_from_deck_discards_and_replaces_whole_supply():
    t = Table().set_supply(TEA, SALTS, OIL, HERBS, MUD)
    fresh = [(TEA, OIL), (SALTS, OIL), (OIL, OIL), (OIL, HERBS), (OIL, MUD)]
    t.stack_deck((HERBS, MUD), *fresh).ready()
    t.do("gather_deck")
    assert t.s.hands[0][kind((HERBS, MUD))] == 1 and sum(t.s.hands[0]) == 1
    assert sorted(t.s.discard) == sorted(kind(c) for c in (TEA, SALTS, OIL, HERBS, MUD))
    assert t.s.supply == [kind(c) for c in fresh]


def test_hand_limit_six_player_chooses_discards():
    t = Table().give(0, TEA, TEA, SALTS, OIL, HERBS, MUD).set_supply((TEA, SALTS), OIL).ready()
    t.do("gather_supply", 0)
    assert t.s.phase == P_DISCARD and t.s.current == 0 and sum(t.s.hands[0]) == 7
    assert t.names() == {"discard"}
    assert sorted(t.args("discard")) == sorted(kind(c) for c in (TEA, SALTS, OIL, HERBS, MUD, (TEA, SALTS)))
    t.do("discard", kind(TEA))  # the player picks which card goes
    assert sum(t.s.hands[0]) == 6 and t.s.hands[0][kind(TEA)] == 1 and t.s.discard[-1] == kind(TEA)
    assert t.s.current == 1


def test_assumption_hand_limit_applied_after_follow_ups_one_discard_at_a_time():
    t = Table(manager="earth_mage").give(0, TEA, TEA, SALTS, OIL, HERBS, MUD).set_supply(OIL, HERBS).ready()
    t.do("gather_supply", 0)
    assert t.s.phase == P_EARTH and sum(t.s.hands[0]) == 7  # no discard before the second card
    t.do("gather_supply", 1)
    assert t.s.phase == P_DISCARD and sum(t.s.hands[0]) == 8
    t.do("discard", kind(MUD))
    assert t.s.phase == P_DISCARD and sum(t.s.hands[0]) == 7
    t.do("discard", kind(HERBS))
    assert sum(t.s.hands[0]) == 6 and t.s.current == 1


def test_reshuffle_discard_pile_when_deck_runs_out():
    t = Table().set_supply(TEA, SALTS, OIL, HERBS, MUD)
    t.s.discard, t.s.deck = t.s.deck, []
    pile = sorted(t.s.discard)
    t.ready()
    t.do("gather_supply", 0)
    assert t.s.discard == [] and t.s.supply[0] >= 0  # the refill came from the reshuffled discard pile
    assert sorted(t.s.deck + [t.s.supply[0]]) == pile


def test_reshuffle_discard_pile_when_drawing_from_empty_deck():
    t = Table().set_supply(TEA, SALTS, OIL, HERBS, MUD)
    t.s.discard, t.s.deck = t.s.deck, []
    t.ready()
    assert t.can("gather_deck")
    t.do("gather_deck")
    assert sum(t.s.hands[0]) == 1 and all(k >= 0 for k in t.s.supply)


# =========================================================================== 2. Nourish
def test_nourish_place_token_on_regular_guest():
    t = Table()
    t.place(1, t.regular())
    t.ready()
    assert t.can("nourish", 1) and not t.can("nourish", 0)  # bath 0 is empty
    t.do("nourish", 1)
    assert t.s.nourish == [1, -1] and t.s.current == 1


def test_nourish_move_token_to_another_guest():
    t = Table()
    t.place(1, t.regular())
    t.place(2, t.regular())
    t.nourish(0, 1).ready()
    t.do("nourish", 2)
    assert t.s.nourish[0] == 2 and t.R.nourisher(t.s, 1) == -1


def test_nourish_not_on_guest_nourished_by_another_player():
    t = Table()
    t.place(1, t.regular())
    t.place(2, t.regular())
    t.nourish(1, 1).ready()
    assert not t.can("nourish", 1) and t.can("nourish", 2)
    with pytest.raises(IllegalActionError):
        t.do("nourish", 1)
    assert t.s.nourish == [-1, 1]


def test_nourish_not_on_troublesome_guest():
    t = Table()
    t.place(0, t.troublesome(CERBERUS))
    t.place(2, t.regular())
    t.ready()
    assert not t.can("nourish", 0) and t.can("nourish", 2)


def test_assumption_nourish_onto_own_bath_is_not_an_action():
    t = Table()
    t.place(1, t.regular())
    t.nourish(0, 1).ready()
    assert not t.can("nourish", 1)


def test_nourished_guest_only_nourisher_may_complete():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).give(1, *need_list(g)).nourish(1, 0).ready(current=0)
    assert not t.can("treat", 0)
    t.ready(current=1)
    assert t.can("treat", 0)
    t.treat(0, *need_list(g))
    assert t.s.collected[1] == [g.gid]


# =========================================================================== 3. Treat
def test_regular_guest_treated_in_full_in_one_action():
    t = Table()
    g = t.place(0, t.regular(size=3, distinct=True))
    a, b, c = need_list(g)
    t.give(0, a, b).ready()
    assert not t.can("treat", 0)  # 2 of 3 ingredients: no partial treatment of a regular guest
    t.give(0, c).ready()
    t.do("treat", 0).pay(a)
    assert t.s.phase == P_PAY and "stop_treating" not in t.names()
    t.pay(b)
    assert "stop_treating" not in t.names()
    t.pay(c)
    assert t.s.collected[0] == [g.gid]


def test_regular_guest_overpaying_allowed():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    x = unneeded(g)[0]
    t.give(0, (a, x), b).ready()
    assert t.can("treat", 0)
    t.treat(0, (a, x), b)
    assert t.s.collected[0] == [g.gid]
    assert t.s.amber[0] == 0  # overpaid: no tip


def test_exact_treatment_tip_two_amber():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.amber[0] == 2
    assert t.R.scores(t.s)[0] == 2 + g.amber


def test_reading_card_supplying_nothing_still_needed_cannot_be_paid():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    x = unneeded(g)[0]
    t.give(0, a, a, b, x, (a, x)).ready()
    t.do("treat", 0)
    assert kind(x) not in t.args("pay_card")  # provides nothing missing
    assert {kind(a), kind(b), kind((a, x))} <= set(t.args("pay_card"))
    t.pay(a)
    assert kind(a) not in t.args("pay_card") and kind((a, x)) not in t.args("pay_card")  # a is no longer missing
    assert t.args("pay_card") == [kind(b)]
    t2 = Table()  # troublesome guests too: "cards that contain any of the as yet unfulfilled ingredients"
    o = t2.place(0, t2.troublesome(OWLBEAR))
    y = unneeded(o)[0]
    t2.give(0, need_list(o)[0], y).ready()
    t2.do("treat", 0)
    assert t2.args("pay_card") == [kind(need_list(o)[0])]


def test_assumption_cards_with_same_ingredients_are_interchangeable():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a, a, b).ready()
    assert t.s.hands[0][kind(a)] == 2  # a hand counts cards per kind
    t.do("treat", 0)
    assert t.args("pay_card").count(kind(a)) == 1  # one action for both copies
    t.pay(a, b)
    assert t.s.hands[0][kind(a)] == 1


def test_troublesome_guest_partial_treatment_over_turns_by_several_players():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))
    req = need_list(g)
    t.give(0, *req[:2]).give(1, *req[2:]).deal_supply().ready()
    t.treat(0, req[0])
    assert "stop_treating" in t.names() and t.s.amber[0] == 1
    t.pay(req[1])
    t.do("stop_treating")
    assert t.s.amber[0] == 2  # 1 amber per matched ingredient
    assert t.s.bath_guest[0] == g.gid and sum(t.s.bath_filled[0]) == 2
    assert sorted(t.s.bath_cards[0]) == sorted(kind(c) for c in req[:2])  # the cards stay above the guest
    assert t.s.current == 1
    t.treat(0, *req[2:])
    assert t.s.collected[1] == [g.gid]
    assert t.s.amber[1] == 4  # 1 per remaining ingredient, no tip after a partial treatment


def test_troublesome_guest_one_amber_per_matched_unfulfilled_ingredient():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))  # tea, oil, herbs x2, mud x2
    assert g.needs[HERBS] == 2 and g.needs[MUD] >= 1 and g.needs[SALTS] == 0
    t.give(0, (TEA, SALTS), (HERBS, HERBS), (HERBS, MUD)).ready()
    t.treat(0, (TEA, SALTS))
    assert t.s.amber[0] == 1  # salts is not required
    t.pay((HERBS, HERBS))
    assert t.s.amber[0] == 3
    t.pay((HERBS, MUD))
    assert t.s.amber[0] == 4  # herbs already fulfilled: only the mud pays


def test_troublesome_guest_partial_progress_pays_only_unfulfilled():
    t = Table()
    t.place(0, t.troublesome(OWLBEAR))
    t.give(0, HERBS, HERBS).give(1, HERBS, MUD).ready()
    t.treat(0, HERBS, HERBS).do("stop_treating")
    assert t.s.current == 1
    t.do("treat", 0)
    assert kind(HERBS) not in t.args("pay_card")  # herbs fulfilled by player 0
    t.pay(MUD)
    assert t.s.amber[1] == 1


def test_troublesome_exact_full_treatment_in_one_action_tips():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.collected[0] == [g.gid]
    assert t.s.amber[0] == 6 + 2


def test_troublesome_overpay_allowed_without_tip():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))
    req = need_list(g)
    t.give(0, (req[0], SALTS), *req[1:]).ready()
    t.treat(0, (req[0], SALTS), *req[1:])
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 6


def test_no_tip_after_partial_treatment():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))
    req = need_list(g)
    t.give(0, req[0]).give(1, *req[1:]).ready()
    t.treat(0, req[0]).do("stop_treating")
    t.treat(0, *req[1:])  # player 1 provides exactly the rest in one action
    assert t.s.collected[1] == [g.gid] and t.s.amber[1] == 5


def test_completion_steps_tip_favour_guest_bath_discard():
    t = Table()
    g = t.place(1, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).nourish(0, 1).ready()
    t.treat(1, *need_list(g))
    s = t.s
    assert s.amber[0] == 2  # 1. tip for an exact treatment
    assert s.tokens[0][g.creature] == TOKEN_ACTIVE  # 2. matching favour token, active side up
    assert s.collected[0] == [g.gid] and s.bath_guest[1] == -1  # 3. guest card taken
    assert s.bath_dirty[1] == 1  # 4. bath flipped dirty
    assert sorted(s.discard) == sorted(kind(c) for c in need_list(g))  # 5. cards discarded


def test_completion_step1_no_tip_with_surplus():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a, (b, b)).ready()
    t.treat(0, a, (b, b))
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 0


def test_completion_step2_favour_token_only_for_the_nourisher():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.tokens[0] == [TOKEN_NONE] * 5 and t.s.token_supply == [5] * 5


def test_completion_step2_favour_token_taken_from_the_stack():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).nourish(0, 0).ready()
    t.treat(0, *need_list(g))
    assert t.s.tokens[0][g.creature] == TOKEN_ACTIVE
    assert t.s.token_supply[g.creature] == 4


def test_completion_step2_one_favour_token_per_creature_type():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).nourish(0, 0).token(0, g.creature).ready()
    t.treat(0, *need_list(g))
    assert t.s.tokens[0][g.creature] == TOKEN_ACTIVE
    assert t.s.token_supply[g.creature] == 4  # no second token of the same creature


def test_assumption_nourish_token_returns_to_owner_on_completion():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.place(1, t.regular())
    t.give(0, *need_list(g)).nourish(0, 0).ready()
    t.treat(0, *need_list(g))
    assert t.s.nourish[0] == -1
    t.ready(current=0)
    assert t.can("nourish", 1)  # the token can be placed again


def test_completion_step3_guest_taken_for_scoring():
    t = Table()
    g = t.place(2, t.regular(size=3))
    t.give(1, *need_list(g)).ready(current=1)
    t.treat(2, *need_list(g))
    assert t.s.collected == [[], [g.gid]] and t.s.bath_guest[2] == -1
    assert t.R.scores(t.s)[1] == g.amber + t.s.amber[1]


def test_completion_step4_bath_flipped_dirty():
    t = Table(manager="wind_mage")
    g = t.place(0, t.regular(size=2))
    t.fill_baths().give(0, *need_list(g)).ready()
    assert not t.can("clean")
    t.treat(0, *need_list(g))
    assert t.s.bath_dirty[0] == 1
    assert t.can("clean") and not t.can("nourish", 0) and not t.can("treat", 0)


def test_completion_step5_cards_discarded_including_those_above_troublesome_guest():
    t = Table()
    g = t.place(0, t.troublesome(OWLBEAR))
    req = need_list(g)
    t.give(0, *req[:3]).give(1, *req[3:]).ready()
    t.treat(0, *req[:3]).do("stop_treating")
    assert t.s.discard == []
    t.treat(0, *req[3:])
    assert sorted(t.s.discard) == sorted(kind(c) for c in req) and t.s.bath_cards[0] == []


def test_tatzelwurm_token_still_counts_as_exact_treatment():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a).token(0, TATZELWURM).ready()
    assert t.can("treat", 0)
    t.treat(0, a)
    assert t.can("pay_token", b) and not t.can("pay_token", a)
    t.do("pay_token", b)
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 2  # tip
    assert t.s.tokens[0][TATZELWURM] == TOKEN_USED


def test_assumption_tatzelwurm_token_used_in_treatment_is_the_bonus_action():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a).token(0, TATZELWURM).token(0, JACKALOPE).ready()
    t.treat(0, a).do("pay_token", b)
    assert t.s.current == 1  # the Jackalope token was not offered after it: the turn ended by itself
    assert t.s.tokens[0][JACKALOPE] == TOKEN_ACTIVE
    t2 = Table()
    g = t2.place(0, t2.regular(size=2, distinct=True))
    a, b = need_list(g)
    t2.give(0, a).token(0, TATZELWURM).token(0, JACKALOPE).ready()
    t2.do("token_jackalope")  # bonus used: the Tatzelwurm token is no longer available
    assert not t2.can("treat", 0)


# =========================================================================== 4. Clean
def test_clean_flips_dirty_baths_one_amber_each():
    t = Table(n=3, manager="wind_mage")
    t.place(0, t.regular())
    t.place(2, t.regular())
    t.place(4, t.regular())
    t.dirty(1, 3).ready()
    t.do("clean")
    assert t.s.bath_dirty == [0] * 5 and t.s.amber[0] == 2


def test_clean_refills_from_the_leftmost_empty_bath():
    t = Table(n=3, manager="wind_mage")
    t.place(0, t.regular())
    t.place(2, t.regular())
    t.place(4, t.regular())
    first, second = t.regular(amber=7), t.regular(amber=5)
    t.stack_guests(first, second).dirty(1, 3).ready()
    t.do("clean")
    assert t.s.bath_guest[1] == first.gid and t.s.bath_guest[3] == second.gid


def test_clean_refill_stops_when_guest_deck_runs_out():
    t = Table(n=3, manager="wind_mage")
    t.place(0, t.regular())
    t.place(2, t.regular())
    t.place(4, t.regular())
    last = t.regular(amber=7)
    t.collect(1, *[x for x in t.s.guest_deck if x != last.gid])  # only one guest left to welcome
    t.dirty(1, 3).ready()
    t.do("clean")
    assert t.s.bath_guest[1] == last.gid and t.s.bath_guest[3] == -1 and t.s.bath_dirty[3] == 0


def test_clean_new_manager_when_troublesome_guest_arrives():
    t = Table(manager="wind_mage")
    for b in (0, 2, 3):
        t.place(b, t.regular())
    t.stack_guests(t.troublesome(JACKALOPE)).stack_manager("gardener").dirty(1).ready()
    t.do("clean")
    assert t.manager == "gardener"
    assert [CS.managers[m] for m in t.s.manager_pile] == ["wind_mage"]  # the new one lies on top of it


def test_clean_keeps_manager_when_only_regular_guests_arrive():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.stack_guests(t.regular()).dirty(1, 2, 3).ready()
    t.do("clean")
    assert t.manager == "wind_mage"


def test_clean_one_new_manager_for_several_troublesome_arrivals():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.place(3, t.regular())
    t.stack_guests(t.troublesome(JACKALOPE), t.troublesome(CERBERUS)).stack_manager("gardener").dirty(1, 2).ready()
    deck = list(t.s.manager_deck)
    t.do("clean")
    assert t.manager == "gardener" and t.s.manager_deck == deck[:-1]
    assert t.s.manager_pile == [CS.managers.index("wind_mage")]


def test_reading_replaced_manager_goes_on_top_of_the_previous_one_not_under_the_deck():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.stack_guests(t.troublesome(CERBERUS)).dirty(1, 2, 3).ready()
    top = t.s.manager_deck[-1]
    t.do("clean")
    assert t.s.manager == top and CS.managers.index("wind_mage") not in t.s.manager_deck  # out of the deck
    assert len(t.s.manager_deck) == 8 and t.s.manager_pile == [CS.managers.index("wind_mage")]
    seen = ["wind_mage", t.manager]
    for _ in range(8):  # eight more troublesome arrivals: every manager is seen once, none comes back
        t.s.collected[1].append(t.s.bath_guest[1])
        t.s.bath_guest[1] = -1
        t.stack_guests(t.find(True)).dirty(1).ready()
        t.do("clean")
        seen.append(t.manager)
    assert sorted(seen) == sorted(CS.managers) and not t.s.manager_deck
    assert [CS.managers[m] for m in t.s.manager_pile] == seen[:-1]


def test_assumption_manager_stays_when_the_manager_deck_is_empty():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.s.manager_pile, t.s.manager_deck = list(t.s.manager_deck), []
    t.stack_guests(t.troublesome(CERBERUS)).dirty(1, 2, 3).ready()
    t.do("clean")
    assert t.manager == "wind_mage" and not t.s.manager_deck and t.s.bath_guest[1] >= 0


def test_assumption_only_clean_empty_baths_are_refilled():
    t = Table(n=3, manager="wind_mage")
    t.place(2, t.troublesome(SEA_LION))
    t.place(0, t.regular())
    t.dirty(1, 3, 4).ready()
    t.do("clean")
    assert t.s.bath_guest[1] == -1 and t.s.bath_guest[3] == -1  # still dirty: stay empty
    assert t.s.bath_guest[4] >= 0


def test_reading_clean_with_nothing_dirty_is_legal_only_when_it_refills():
    t = Table(manager="wind_mage").fill_baths().ready()
    assert not t.can("clean")  # nothing dirty, nothing empty
    t2 = Table(manager="wind_mage")
    t2.place(1, t2.troublesome(SEA_LION))
    t2.place(2, t2.regular())
    t2.place(3, t2.regular())
    t2.dirty(0).ready()
    assert not t2.can("clean")  # the only dirty bath is next to the Sea-Lion
    t3 = Table(manager="wind_mage")
    t3.place(0, t3.regular())
    t3.ready()
    assert t3.can("clean")  # empty clean baths and guests to welcome
    t3.do("clean")
    assert t3.s.amber[0] == 0 and all(x >= 0 for x in t3.s.bath_guest)


# =========================================================================== Troublesome guests
def test_cerberus_only_accepts_its_ingredient_types():
    t = Table()
    g = t.place(0, t.troublesome(CERBERUS))  # tea x3, salts x3
    ok = [x for x in range(5) if g.needs[x]]
    bad = unneeded(g)[0]
    t.give(0, bad, (ok[0], bad)).ready()
    assert not t.can("treat", 0)  # no card of only its types
    t.give(0, ok[0]).ready()
    t.do("treat", 0)
    assert t.args("pay_card") == [kind(ok[0])]


def test_cerberus_overpay_only_with_its_ingredient_types():
    t = Table()
    g = t.place(0, t.troublesome(CERBERUS))
    a = max(range(5), key=lambda x: g.needs[x])
    other = [x for x in range(5) if g.needs[x] and x != a][0]
    t.give(0, *[a] * (g.needs[a] - 1), (a, a), (a, other), (a, unneeded(g)[0])).ready()
    t.treat(0, *[a] * (g.needs[a] - 1))
    assert kind((a, a)) in t.args("pay_card")  # e.g. 2 x tea for the last tea
    assert kind((a, other)) in t.args("pay_card")
    assert kind((a, unneeded(g)[0])) not in t.args("pay_card")
    t.pay((a, a))
    assert t.s.pay_surplus == 1 and t.s.amber[0] == g.needs[a]


def test_assumption_cerberus_every_ingredient_on_card_must_be_its_type():
    t = Table()
    g = t.place(0, t.troublesome(CERBERUS))
    a = [x for x in range(5) if g.needs[x]][0]
    t.give(0, (a, unneeded(g)[0])).ready()
    assert not t.can("treat", 0)  # the card does show a required ingredient, but also a foreign one


def test_jackalope_regular_guests_give_no_tip():
    t = Table()
    t.place(3, t.troublesome(JACKALOPE))
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 0


def test_jackalope_troublesome_guests_still_tip():
    t = Table()
    j = t.place(3, t.troublesome(JACKALOPE))
    t.give(0, *need_list(j)).ready()
    t.treat(3, *need_list(j))
    assert t.s.amber[0] == 6 + 2


def test_owlbear_adjacent_guests_cannot_be_nourished():
    t = Table(n=3)
    t.place(2, t.troublesome(OWLBEAR))
    for b in (0, 1, 3, 4):
        t.place(b, t.regular())
    t.ready()
    assert t.args("nourish") == [0, 4]


def test_sea_lion_adjacent_baths_cannot_be_cleaned():
    t = Table(n=3, manager="wind_mage")
    t.place(2, t.troublesome(SEA_LION))
    t.place(0, t.regular())
    t.dirty(1, 3, 4).ready()
    t.do("clean")
    assert t.s.bath_dirty == [0, 1, 0, 1, 0] and t.s.amber[0] == 1


def test_tatzelwurm_adjacent_guests_require_one_additional_ingredient_of_any_type():
    t = Table()
    t.place(1, t.troublesome(TATZELWURM))
    g = t.place(0, t.regular(size=2, distinct=True))
    far = t.place(3, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a, b).give(1, *need_list(far)).ready()
    assert not t.can("treat", 0)  # the adjacent guest needs a third ingredient
    t.ready(current=1)
    assert t.can("treat", 3)  # bath 3 is not adjacent: its two ingredients suffice
    t.give(0, a).ready()  # any type will do, even one already required
    t.treat(0, a, b)
    assert t.s.phase == P_PAY and t.s.pay_extra == 1
    t.pay(a)
    assert t.s.collected[0] == [g.gid]
    assert t.s.amber[0] == 2  # needs plus the extra, nothing more: exact (see the Tatzelwurm tip reading)


def test_reading_tatzelwurm_guest_paid_exactly_needs_plus_extra_tips():
    t = Table()
    t.place(1, t.troublesome(TATZELWURM))
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    x = unneeded(g)[0]
    t.give(0, a, b, x).ready()
    t.treat(0, a, b, x)  # the extra paid with an unrequired type, one card per ingredient
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 2  # exact: tip
    t2 = Table()
    t2.place(1, t2.troublesome(TATZELWURM))
    g = t2.place(0, t2.regular(size=2, distinct=True))
    a, b = need_list(g)
    y, z = unneeded(g)[:2]
    t2.give(0, a, b, (y, z)).ready()
    t2.treat(0, a, b, (y, z))  # the extra paid with a two-ingredient card: one ingredient too many
    assert t2.s.collected[0] == [g.gid] and t2.s.amber[0] == 0  # surplus: no tip


def test_tatzelwurm_extra_ingredient_any_type_including_unrequired():
    t = Table()
    t.place(1, t.troublesome(TATZELWURM))
    g = t.place(2, t.regular(size=2, distinct=True))
    x = unneeded(g)[0]
    t.give(0, *need_list(g), x).ready()
    t.treat(2, *need_list(g), x)
    assert t.s.collected[0] == [g.gid]


def test_assumption_tatzelwurm_extra_applies_to_troublesome_guests_and_stacks():
    t = Table(n=3)
    t.place(0, t.troublesome(TATZELWURM))
    o = t.place(1, t.troublesome(OWLBEAR))
    t.place(2, t.troublesome(TATZELWURM))  # the second Tatzelwurm
    x = unneeded(o)[0]
    t.give(0, *need_list(o), x, x).ready()
    t.treat(1, *need_list(o))
    assert t.s.phase == P_PAY and t.s.pay_extra == 2  # two Tatzelwurms: two extra ingredients
    t.pay(x, x)
    assert t.s.collected[0] == [o.gid]
    assert t.s.amber[0] == 8 + 2  # 1 per requirement incl. the extras, and the tip (exact: needs + extras)


def test_assumption_two_tatzelwurms_add_two_to_a_regular_guest():
    t = Table()
    t.place(0, t.troublesome(TATZELWURM))
    t.place(2, t.troublesome(TATZELWURM))
    g = t.place(1, t.regular(size=2, distinct=True))
    x = unneeded(g)[0]
    t.give(0, *need_list(g), x).ready()
    assert not t.can("treat", 1)
    t.give(0, x).ready()
    assert t.can("treat", 1)


def test_troublesome_ability_stays_while_partially_treated_and_ends_when_taken_owlbear():
    t = Table()
    o = t.place(1, t.troublesome(OWLBEAR))
    t.place(0, t.regular())
    t.place(2, t.regular())
    req = need_list(o)
    t.give(0, req[0]).give(1, *req[1:]).ready()
    t.treat(1, req[0]).do("stop_treating")
    assert t.s.current == 1 and not t.can("nourish", 0) and not t.can("nourish", 2)
    t.treat(1, *req[1:])
    assert t.s.collected[1] == [o.gid] and t.s.current == 0
    assert t.can("nourish", 0) and t.can("nourish", 2)


def test_troublesome_ability_ends_when_taken_sea_lion():
    t = Table(n=3, manager="wind_mage")
    sl = t.place(2, t.troublesome(SEA_LION))
    t.place(0, t.regular())
    t.dirty(1, 3).place(4, t.regular())
    t.give(0, *need_list(sl)).ready()
    assert not t.can("clean")
    t.treat(2, *need_list(sl))
    t.ready(current=1)
    t.do("clean")
    assert t.s.amber[1] == 3 and not any(t.s.bath_dirty)


def test_troublesome_ability_ends_when_taken_jackalope():
    t = Table()
    j = t.place(1, t.troublesome(JACKALOPE))
    g = t.place(3, t.regular(size=2, distinct=True))
    t.give(0, *need_list(j)).give(1, *need_list(g)).ready()
    t.treat(1, *need_list(j))
    assert t.s.current == 1
    t.treat(3, *need_list(g))
    assert t.s.amber[1] == 2  # tips are back


def test_troublesome_ability_ends_when_taken_tatzelwurm():
    t = Table()
    tz = t.place(1, t.troublesome(TATZELWURM))
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(tz)).give(1, *need_list(g)).ready(current=1)
    assert not t.can("treat", 0)
    t.ready(current=0)
    t.treat(1, *need_list(tz))
    assert t.s.current == 1 and t.can("treat", 0)
    t.treat(0, *need_list(g))
    assert t.s.amber[1] == 2  # no extra ingredient any more, exact again


def test_assumption_adjacency_is_the_row_without_wraparound():
    t = Table()
    t.place(0, t.troublesome(OWLBEAR))
    for b in (1, 2, 3):
        t.place(b, t.regular())
    t.ready()
    assert t.args("nourish") == [2, 3]  # the rightmost bath is not next to the leftmost


def test_assumption_stop_treating_only_after_filling_a_requirement():
    t = Table()
    o = t.place(0, t.troublesome(OWLBEAR))
    t.give(0, *need_list(o)[:2]).ready()
    t.do("treat", 0)
    assert "stop_treating" not in t.names()
    t.pay(need_list(o)[0])
    assert "stop_treating" in t.names()


def test_assumption_troublesome_guest_with_only_tatzelwurm_extra_left_completes_when_tatzelwurm_leaves():
    t = Table()
    tz = t.place(0, t.troublesome(TATZELWURM))
    o = t.place(1, t.troublesome(OWLBEAR))
    t.give(0, *need_list(o)).give(1, *need_list(tz)).ready()
    t.treat(1, *need_list(o))
    assert t.s.phase == P_PAY and t.legal() == [t.a("stop_treating")]  # the extra ingredient is still owed
    t.do("stop_treating")
    assert t.s.bath_filled[1] == list(o.needs) and t.s.amber[0] == 6
    t.treat(0, *need_list(tz))  # player 1 takes the Tatzelwurm
    assert t.s.current == 0 and t.can("treat", 1)
    t.do("treat", 1)  # nothing left to provide: completed at once, no cards
    assert t.s.collected[0] == [o.gid] and t.s.amber[0] == 6


def test_assumption_nourish_token_stays_when_owlbear_arrives_next_to_it():
    t = Table(manager="wind_mage")
    g = t.place(1, t.regular(size=2, distinct=True))
    t.place(2, t.regular())
    t.place(3, t.regular())
    t.stack_guests(t.troublesome(OWLBEAR)).dirty(0).nourish(0, 1).give(0, *need_list(g)).ready(current=1)
    t.do("clean")
    assert CS.guests[t.s.bath_guest[0]].ability == OWLBEAR and t.s.nourish[0] == 1
    t.treat(1, *need_list(g))
    assert t.s.collected[0] == [g.gid] and t.s.tokens[0][g.creature] == TOKEN_ACTIVE


# =========================================================================== Guest favour tokens
def test_favour_token_usable_on_the_turn_it_is_gained():
    t = Table()
    g = t.place(0, t.regular(creature=JACKALOPE, size=2))
    t.give(0, *need_list(g)).nourish(0, 0).ready()
    t.treat(0, *need_list(g))
    assert t.s.current == 0 and t.legal() == sorted([t.a("token_jackalope"), t.a("end_turn")])
    t.do("token_jackalope")
    assert t.s.amber[0] == 2 + 1 and t.s.current == 1


def test_favour_token_flipped_when_used():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE)).token(0, JACKALOPE).ready()
    t.do("token_jackalope").do("gather_deck")
    assert t.s.tokens[0][JACKALOPE] == TOKEN_USED and t.s.current == 1
    t.do("gather_deck")
    assert t.s.current == 0 and not t.can("token_jackalope")


def test_favour_token_reactivated_when_any_player_completes_matching_guest():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    other = (g.creature + 1) % 5
    t.token(1, g.creature, TOKEN_USED).token(1, other, TOKEN_USED).token(0, g.creature, TOKEN_USED)
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.tokens[1][g.creature] == TOKEN_ACTIVE  # another player's token
    assert t.s.tokens[0][g.creature] == TOKEN_ACTIVE  # and the completer's own
    assert t.s.tokens[1][other] == TOKEN_USED  # a different creature stays used


def test_favour_token_reactivated_by_troublesome_guest_of_that_creature():
    t = Table()
    c = t.place(0, t.troublesome(CERBERUS))
    t.token(1, CERBERUS, TOKEN_USED).give(0, *need_list(c)).ready()
    t.treat(0, *need_list(c))
    assert t.s.tokens[1][CERBERUS] == TOKEN_ACTIVE


def test_assumption_favour_token_reactivation_is_automatic():
    t = Table()
    g = t.place(0, t.regular(size=2, distinct=True))
    t.token(1, g.creature, TOKEN_USED).give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.current == 1 and t.s.tokens[1][g.creature] == TOKEN_ACTIVE  # no decision was asked


def test_cerberus_token_take_supply_card_and_refill():
    t = Table().set_supply(TEA, SALTS, OIL, HERBS, MUD).stack_deck((OIL, MUD)).token(0, CERBERUS).ready()
    assert t.args("token_cerberus") == [0, 1, 2, 3, 4]
    t.do("token_cerberus", 1)
    assert t.s.hands[0][kind(SALTS)] == 1 and t.s.supply[1] == kind((OIL, MUD))
    assert t.s.tokens[0][CERBERUS] == TOKEN_USED and t.can("gather_supply", 0)  # main action still to come


def test_jackalope_token_one_amber_per_jackalope():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE))
    t.collect(0, t.regular(creature=JACKALOPE))
    t.collect(0, t.regular(creature=CERBERUS))
    t.token(0, JACKALOPE).ready()
    t.do("token_jackalope")
    assert t.s.amber[0] == 2


def test_assumption_jackalope_token_counts_troublesome_jackalope():
    t = Table().deal_supply()
    t.collect(0, t.regular(creature=JACKALOPE), t.troublesome(JACKALOPE)).token(0, JACKALOPE).ready()
    t.do("token_jackalope")
    assert t.s.amber[0] == 2


def test_owlbear_token_nourish_a_guest():
    t = Table()
    t.place(0, t.regular())
    t.place(2, t.regular())
    t.token(0, OWLBEAR).ready()
    t.do("token_owlbear", 2)
    assert t.s.nourish[0] == 2 and t.s.tokens[0][OWLBEAR] == TOKEN_USED and t.s.current == 0
    t.do("nourish", 0)  # the main action can still move it
    assert t.s.nourish[0] == 0


def test_assumption_owlbear_token_obeys_nourish_restrictions():
    t = Table(n=3)
    t.place(0, t.regular())
    t.place(1, t.regular())
    t.place(2, t.troublesome(CERBERUS))
    t.place(3, t.regular())
    t.place(4, t.troublesome(OWLBEAR))
    t.nourish(1, 1).token(0, OWLBEAR).ready()
    assert t.args("token_owlbear") == [0] == t.args("nourish")


def test_sea_lion_token_cleans_the_baths():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.place(2, t.regular())
    t.place(3, t.regular())
    nxt = t.regular(amber=7)
    t.stack_guests(nxt).dirty(1).token(0, SEA_LION).ready()
    t.do("token_sea_lion")
    assert t.s.amber[0] == 1 and t.s.bath_guest[1] == nxt.gid and t.s.current == 0
    assert not t.can("clean") and t.can("gather_deck")  # the main action is still to take


def test_sea_lion_token_only_when_there_is_something_to_clean():
    t = Table().fill_baths().token(0, SEA_LION).ready()
    assert not t.can("token_sea_lion")


def test_tatzelwurm_token_counts_as_any_one_ingredient():
    t = Table()
    g = t.place(0, t.regular(size=3, distinct=True))
    a, b, c = need_list(g)
    t.give(0, a, b, c).token(0, TATZELWURM).ready()
    t.do("treat", 0)
    assert sorted(t.args("pay_token")) == [a, b, c]  # any one of the missing ingredients
    t.do("pay_token", a).pay(b, c)
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 2 and t.s.hands[0][kind(a)] == 1
    t2 = Table()
    g = t2.place(0, t2.regular(size=3, distinct=True))
    a, b, c = need_list(g)
    t2.give(0, a, b).token(0, TATZELWURM).ready()
    t2.treat(0, a, b).do("pay_token", c)
    assert t2.s.collected[0] == [g.gid] and t2.s.amber[0] == 2


def test_assumption_favour_token_used_in_a_treatment_reactivated_by_that_completion():
    t = Table()
    g = t.place(0, t.regular(creature=TATZELWURM, size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a).token(0, TATZELWURM).ready()
    t.treat(0, a).do("pay_token", b)
    assert t.s.collected[0] == [g.gid] and t.s.tokens[0][TATZELWURM] == TOKEN_ACTIVE
    assert t.s.current == 1  # but the bonus action of this turn is spent


def test_assumption_hand_limit_after_any_action():
    t = Table().give(0, TEA, TEA, SALTS, OIL, HERBS, MUD).set_supply((OIL, MUD)).token(0, CERBERUS).ready()
    t.do("token_cerberus", 0)
    assert t.s.phase == P_DISCARD and t.names() == {"discard"}
    t.do("discard", kind(TEA))
    assert t.s.phase == P_TURN and t.s.current == 0 and not t.s.main_done


# =========================================================================== Managers
def test_only_one_manager_active():
    t = Table(manager="gardener").set_supply(TEA, SALTS)
    t.place(0, t.regular())
    t.stack_guests(t.troublesome(JACKALOPE)).stack_manager("earth_mage").dirty(1, 2, 3).ready()
    assert "gardener" in t.names()
    t.do("clean")
    assert t.manager == "earth_mage" and t.s.current == 1
    assert "gardener" not in t.names()  # the Gardener no longer helps
    t.do("gather_supply", 0)
    assert t.s.phase == P_EARTH  # the Earth Mage does


def test_amber_appraiser_spend_one_amber_in_place_of_one_ingredient():
    t = Table(manager="amber_appraiser")
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a).ready()
    assert not t.can("treat", 0)  # no amber to spend
    t.s.amber[0] = 3
    t.ready()
    t.treat(0, a)
    assert t.args("pay_amber") == [b]
    t.do("pay_amber", b)
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 2  # 1 spent, no tip


def test_assumption_amber_appraiser_once_per_treatment():
    t = Table(manager="amber_appraiser")
    g = t.place(0, t.regular(size=3, distinct=True))
    t.give(0, need_list(g)[0]).ready()
    t.s.amber[0] = 5
    t.ready()
    assert not t.can("treat", 0)


def test_bathing_curator_take_supply_card_after_cleaning():
    t = Table(manager="bathing_curator").set_supply(TEA, SALTS, OIL).stack_deck(MUD)
    for b in (0, 2, 3):
        t.place(b, t.regular())
    t.dirty(1).ready()
    t.do("clean")
    assert t.s.phase == P_TAKE and t.s.current == 0
    assert t.names() == {"gather_supply", "decline"} and t.args("gather_supply") == [0, 1, 2]
    t.do("gather_supply", 2)
    assert t.s.hands[0][kind(OIL)] == 1 and t.s.supply[2] == kind(MUD) and t.s.current == 1


def test_bathing_curator_take_is_optional():
    t = Table(manager="bathing_curator").deal_supply()
    t.place(0, t.regular())
    t.dirty(1).ready()
    t.do("clean").do("decline")
    assert sum(t.s.hands[0]) == 0 and t.s.current == 1


def test_assumption_bathing_curator_applies_to_sea_lion_token_clean():
    t = Table(manager="bathing_curator").deal_supply()
    t.place(0, t.regular())
    t.dirty(1).token(0, SEA_LION).ready()
    t.do("token_sea_lion")
    assert t.s.phase == P_TAKE
    t.do("gather_supply", 0)
    assert sum(t.s.hands[0]) == 1 and t.s.phase == P_TURN and not t.s.main_done


def test_creature_whisperer_take_card_after_treating_troublesome_guest():
    t = Table(manager="creature_whisperer").set_supply(TEA, SALTS)
    o = t.place(0, t.troublesome(OWLBEAR))
    t.give(0, *need_list(o)).ready()
    t.treat(0, *need_list(o))
    assert t.s.collected[0] == [o.gid] and t.s.phase == P_TAKE
    t.do("gather_supply", 1)
    assert t.s.hands[0][kind(SALTS)] == 1


def test_creature_whisperer_not_after_treating_regular_guest():
    t = Table(manager="creature_whisperer").set_supply(TEA, SALTS)
    g = t.place(0, t.regular(size=2))
    t.give(0, *need_list(g)).ready()
    t.treat(0, *need_list(g))
    assert t.s.current == 1 and sum(t.s.hands[0]) == 0


def test_assumption_wind_mage_and_creature_whisperer_trigger_on_partial_treatment():
    t = Table(manager="creature_whisperer").set_supply(TEA)
    o = t.place(0, t.troublesome(OWLBEAR))
    t.give(0, need_list(o)[0]).ready()
    t.treat(0, need_list(o)[0]).do("stop_treating")
    assert t.s.phase == P_TAKE
    t2 = Table(manager="wind_mage")
    o = t2.place(0, t2.troublesome(OWLBEAR))
    t2.give(0, need_list(o)[0]).ready()
    t2.treat(0, need_list(o)[0]).do("stop_treating")
    assert t2.s.amber[0] == 1 + 1


def test_earth_mage_take_two_single_ingredient_cards():
    t = Table(manager="earth_mage").set_supply(TEA, (TEA, SALTS), OIL, (OIL, MUD), (SALTS, HERBS)).stack_deck(HERBS).ready()
    t.do("gather_supply", 0)
    assert t.s.phase == P_EARTH and t.s.supply[0] == kind(HERBS)  # refilled before the second take
    assert t.names() == {"gather_supply", "decline"} and t.args("gather_supply") == [0, 2]  # singles only
    t.do("gather_supply", 0)
    assert t.s.hands[0][kind(TEA)] == 1 and t.s.hands[0][kind(HERBS)] == 1 and t.s.current == 1


def test_earth_mage_second_card_optional():
    t = Table(manager="earth_mage").set_supply(TEA, OIL).ready()
    t.do("gather_supply", 0).do("decline")
    assert sum(t.s.hands[0]) == 1 and t.s.current == 1


def test_assumption_earth_mage_first_card_must_also_be_single():
    t = Table(manager="earth_mage").set_supply((TEA, SALTS), OIL).ready()
    t.do("gather_supply", 0)
    assert t.s.current == 1 and sum(t.s.hands[0]) == 1


def test_reading_earth_mage_applies_to_the_cerberus_token_take():
    t = Table(manager="earth_mage").set_supply(TEA, OIL).token(0, CERBERUS).ready()
    t.do("token_cerberus", 0)
    assert t.s.phase == P_EARTH and t.args("gather_supply") == [1]  # a second single card may follow
    t.do("gather_supply", 1)
    assert t.s.phase == P_TURN and sum(t.s.hands[0]) == 2 and t.s.main_done == 0  # the main action is still to come
    t2 = Table(manager="earth_mage").set_supply((TEA, OIL), SALTS).token(0, CERBERUS).ready()
    t2.do("token_cerberus", 0)
    assert t2.s.phase == P_TURN and sum(t2.s.hands[0]) == 1  # a mixed card first: no second card


def test_reading_gardener_applies_before_the_cerberus_token_take():
    t = Table(manager="gardener").set_supply(TEA, OIL).stack_deck(MUD, HERBS).token(0, CERBERUS).ready()
    t.do("gather_supply", 0)  # the main action is done; the token's take may still use the Gardener
    assert t.s.current == 0 and t.args("gardener") == [0, 1]
    t.do("gardener", 1)
    assert t.s.phase == P_GATHER and t.names() == {"token_cerberus"} and t.s.supply[1] == kind(HERBS)
    t.do("token_cerberus", 1)
    assert t.s.hands[0][kind(HERBS)] == 1 and t.s.tokens[0][CERBERUS] == TOKEN_USED and t.s.current == 1
    t2 = Table(manager="gardener").set_supply(TEA, OIL).token(0, CERBERUS).ready()
    t2.do("gardener", 0)  # before either take: both are offered
    assert {"gather_supply", "gather_deck", "token_cerberus"} <= t2.names() and t2.s.main_done == 0
    t3 = Table(manager="gardener").set_supply(TEA, OIL).ready()
    t3.do("gather_supply", 0)
    assert t3.s.current == 1  # no token: nothing left to take, the turn ended


def test_gardener_discard_and_refill_one_supply_card_before_gathering():
    t = Table(manager="gardener").set_supply(TEA, SALTS, OIL, HERBS, MUD).stack_deck((OIL, OIL)).ready()
    assert t.args("gardener") == [0, 1, 2, 3, 4]
    t.do("gardener", 2)
    assert t.s.discard == [kind(OIL)] and t.s.supply[2] == kind((OIL, OIL))
    assert t.s.phase == P_GATHER and t.names() == {"gather_supply", "gather_deck"}
    t.do("gather_supply", 2)
    assert t.s.hands[0][kind((OIL, OIL))] == 1 and t.s.current == 1


def test_fire_mage_ignore_one_ingredient_of_nourished_guest():
    t = Table(manager="fire_mage")
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    t.give(0, a).nourish(0, 0).ready()
    assert t.can("treat", 0)
    t.treat(0, a)
    assert t.args("fire_mage") == [b]
    t.do("fire_mage", b)
    assert t.s.collected[0] == [g.gid]
    assert t.s.amber[0] == 0  # not an exact treatment
    assert t.s.tokens[0][g.creature] == TOKEN_ACTIVE


def test_fire_mage_not_for_guest_you_have_not_nourished():
    t = Table(manager="fire_mage")
    g = t.place(0, t.regular(size=2, distinct=True))
    t.place(1, t.regular())
    t.give(0, need_list(g)[0]).nourish(0, 1).ready()
    assert not t.can("treat", 0)


def test_assumption_fire_mage_once_per_treatment():
    t = Table(manager="fire_mage")
    g = t.place(0, t.regular(size=3, distinct=True))
    t.give(0, need_list(g)[0]).nourish(0, 0).ready()
    assert not t.can("treat", 0)


def test_head_chef_two_matching_ingredients_in_place_of_one():
    t = Table(manager="head_chef")
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    x = unneeded(g)[0]
    t.give(0, a, x, x).ready()
    assert t.can("treat", 0)
    t.treat(0, a)
    assert t.args("head_chef") == [t.chef(x, b)]
    t.do("head_chef", t.chef(x, b))
    assert t.names() == {"pay_card"} and t.args("pay_card") == [kind(x)]  # now the pair's cards
    t.pay(x, x)
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 0  # not exact
    assert sorted(t.s.discard) == sorted([kind(a), kind(x), kind(x)])


def test_reading_head_chef_player_chooses_the_cards_that_pay_the_pair():
    def start():
        t = Table(manager="head_chef")
        g = t.place(0, t.regular(size=2, distinct=True))
        a, b = need_list(g)
        x = unneeded(g)[0]
        t.give(0, a, (x, x), x, x).ready()
        t.treat(0, a).do("head_chef", t.chef(x, b))
        assert t.args("pay_card") == sorted([kind(x), kind((x, x))])  # both ways to pay are offered
        return t, g, x

    t, g, x = start()
    t.pay((x, x))  # the double card: one card leaves the hand
    assert t.s.collected[0] == [g.gid] and sum(t.s.hands[0]) == 2
    t, g, x = start()
    t.pay(x, x)  # two single cards: the double card stays
    assert t.s.collected[0] == [g.gid] and t.s.hands[0][kind((x, x))] == 1 and sum(t.s.hands[0]) == 1


def test_reading_head_chef_pair_from_two_mixed_cards_sharing_an_ingredient():
    t = Table(manager="head_chef")
    g = t.place(0, t.regular(size=2, distinct=True))
    a, b = need_list(g)
    x, y, z = unneeded(g)[:3]
    t.give(0, a, (x, y), (x, z)).ready()
    assert t.can("treat", 0)  # the two mixed cards show two matching ingredients
    t.treat(0, a).do("head_chef", t.chef(x, b))
    t.pay((x, y), (x, z))  # their other ingredients are surplus
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 0
    assert sorted(t.s.discard) == sorted([kind(a), kind((x, y)), kind((x, z))])
    t2 = Table(manager="head_chef")
    g = t2.place(0, t2.regular(size=3, distinct=True))
    a, b, c = need_list(g)
    x = unneeded(g)[0]
    t2.give(0, a, (x, b), (x, unneeded(g)[1])).ready()
    t2.treat(0, a).do("head_chef", t2.chef(x, c))
    t2.pay((x, b))  # the mixed card's other ingredient fills a need of the guest
    assert t2.s.pay_need[b] == 0 and t2.s.pay_chef_left == 1
    t2.pay((x, unneeded(g)[1]))
    assert t2.s.collected[0] == [g.gid]


def test_assumption_head_chef_once_per_treatment():
    t = Table(manager="head_chef")
    g = t.place(0, t.regular(size=2, distinct=True))
    x = unneeded(g)[0]
    t.give(0, x, x, x, x).ready()
    assert not t.can("treat", 0)


def test_spirit_caretaker_one_amber_after_treating_nourished_guest():
    t = Table(manager="spirit_caretaker")
    g = t.place(0, t.regular(size=2, distinct=True))
    h = t.place(1, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).give(1, *need_list(h)).nourish(0, 0).ready()
    t.treat(0, *need_list(g))
    assert t.s.amber[0] == 2 + 1  # tip + Spirit Caretaker
    t.ready(current=1)
    t.treat(1, *need_list(h))
    assert t.s.amber[1] == 2  # not nourished: tip only


def test_water_mage_plus_one_amber_after_cleaning():
    t = Table(manager="water_mage")
    t.place(0, t.regular())
    t.dirty(1, 3).place(2, t.regular())
    t.ready()
    t.do("clean")
    assert t.s.amber[0] == 2 + 1


def test_assumption_water_mage_only_when_a_bath_was_cleaned():
    t = Table(manager="water_mage")
    t.place(0, t.regular())
    t.ready()
    t.do("clean")  # only refills the empty clean baths
    assert t.s.amber[0] == 0


def test_wind_mage_plus_one_amber_after_treating_troublesome_guest():
    t = Table(manager="wind_mage")
    o = t.place(0, t.troublesome(OWLBEAR))
    g = t.place(2, t.regular(size=2))
    t.give(0, *need_list(o)).give(1, *need_list(g)).ready()
    t.treat(0, *need_list(o))
    assert t.s.amber[0] == 6 + 2 + 1
    t.treat(2, *need_list(g))
    assert t.s.amber[1] == 2  # regular guest: no Wind Mage amber


def test_reading_after_cleaning_effect_is_the_replaced_managers():
    t = Table(manager="water_mage")
    t.place(0, t.regular())
    t.stack_guests(t.troublesome(CERBERUS)).stack_manager("gardener").dirty(1, 2, 3).ready()
    t.do("clean")
    assert t.manager == "gardener" and t.s.amber[0] == 3 + 1  # the Water Mage still paid
    t2 = Table(manager="bathing_curator").deal_supply()
    t2.place(0, t2.regular())
    t2.stack_guests(t2.troublesome(CERBERUS)).stack_manager("gardener").dirty(1, 2, 3).ready()
    t2.do("clean")
    assert t2.manager == "gardener" and t2.s.phase == P_TAKE  # the Curator's take still happens


def test_assumption_troublesome_amber_for_token_and_chef_pair_not_appraiser():
    t = Table(manager="head_chef")
    o = t.place(0, t.troublesome(OWLBEAR))
    x = unneeded(o)[0]
    a = need_list(o)[0]
    t.give(0, x, x).token(0, TATZELWURM).ready()
    t.do("treat", 0).do("head_chef", t.chef(x, a)).pay(x, x)
    assert t.s.amber[0] == 1  # chef pair fills a requirement
    t.do("pay_token", need_list(o)[1])
    assert t.s.amber[0] == 2  # so does the Tatzelwurm token
    t2 = Table(manager="amber_appraiser")
    o = t2.place(0, t2.troublesome(OWLBEAR))
    t2.s.amber[0] = 1
    t2.ready()
    t2.do("treat", 0).do("pay_amber", need_list(o)[0])
    assert t2.s.amber[0] == 0 and sum(t2.s.pay_need) == 5  # amber spent, none gained back
    t2.do("stop_treating")
    assert t2.s.bath_filled[0][need_list(o)[0]] == 1


def test_assumption_fire_mage_only_regular_guests():
    t = Table(manager="fire_mage")
    o = t.place(0, t.troublesome(OWLBEAR))
    t.give(0, need_list(o)[0]).ready()
    t.do("treat", 0)
    assert "fire_mage" not in t.names()


def test_assumption_spirit_caretaker_only_with_own_nourish_token():
    t = Table(manager="spirit_caretaker")
    g = t.place(0, t.regular(size=2, distinct=True))
    t.place(1, t.regular())
    t.give(0, *need_list(g)).nourish(0, 1).ready()  # nourishing a different guest
    t.treat(0, *need_list(g))
    assert t.s.amber[0] == 2


def test_assumption_flexible_payments_may_cover_the_tatzelwurm_extra():
    t = Table(manager="fire_mage")
    t.place(1, t.troublesome(TATZELWURM))
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(0, *need_list(g)).nourish(0, 0).ready()
    t.treat(0, *need_list(g))
    assert t.args("fire_mage") == [EXTRA]
    t.do("fire_mage", EXTRA)
    assert t.s.collected[0] == [g.gid] and t.s.amber[0] == 0
    t2 = Table(manager="amber_appraiser")
    t2.place(1, t2.troublesome(TATZELWURM))
    g = t2.place(0, t2.regular(size=2, distinct=True))
    t2.give(0, *need_list(g)).ready()
    t2.s.amber[0] = 1
    t2.ready()
    t2.treat(0, *need_list(g)).do("pay_amber", EXTRA)
    assert t2.s.collected[0] == [g.gid] and t2.s.amber[0] == 0


def test_assumption_gardener_then_gather_from_deck_allowed():
    t = Table(manager="gardener").set_supply(TEA, SALTS, OIL, HERBS, MUD).ready()
    t.do("gardener", 0).do("gather_deck")
    assert sum(t.s.hands[0]) == 1 and t.s.current == 1 and len(t.s.discard) == 6


def test_assumption_manager_take_skipped_when_supply_empty():
    t = Table(manager="bathing_curator")
    t.place(0, t.regular())
    t.dirty(1).ready()
    assert t.s.supply == [-1] * SUPPLY_SIZE
    t.do("clean")
    assert t.s.current == 1  # nothing to take: no decision


# =========================================================================== End of game & scoring
def _complete_one(t: Table, p: int) -> Guest:
    """Player p treats a guest on bath 0 (exact, not nourished)."""
    g = t.place(0, t.regular(size=2, distinct=True))
    t.give(p, *need_list(g)).ready(current=p)
    t.treat(0, *need_list(g))
    return g


@pytest.mark.parametrize("n,guests", [(2, 8), (3, 8), (4, 7), (5, 6)])
def test_last_round_starts_at_guest_threshold(n, guests):
    t = Table(n=n).deal_supply()
    t.collect_any(0, guests - 1)
    _complete_one(t, 0)
    assert len(t.s.collected[0]) == guests and t.s.final_trigger == 0
    for q in range(1, n):  # every other player gets exactly one more turn
        assert not t.s.over and t.s.current == q
        t.do("gather_deck")
    assert t.s.over and t.R.legal_actions(t.s) == [] and t.R.current_player(t.s) == -1


@pytest.mark.parametrize("n,guests", [(2, 8), (3, 8), (4, 7), (5, 6)])
def test_last_round_not_before_threshold(n, guests):
    t = Table(n=n).deal_supply()
    t.collect_any(0, guests - 2)
    _complete_one(t, 0)
    assert t.s.final_trigger == -1
    for q in range(1, n):
        t.do("gather_deck")
    assert not t.s.over and t.s.current == 0


def test_last_round_each_other_player_exactly_one_final_turn():
    t = Table(n=3).deal_supply()
    t.collect_any(1, 7)
    _complete_one(t, 1)  # player 1 triggers it
    assert t.s.current == 2
    t.do("gather_deck")
    assert t.s.current == 0 and not t.s.over
    t.do("gather_deck")
    assert t.s.over  # player 1 does not play again


def test_score_guest_amber_plus_amber_gems():
    t = Table(n=3)
    t.collect(0, t.regular(amber=7), t.regular(amber=2)).collect(1, t.troublesome(CERBERUS))
    t.s.amber = [3, 10, 0]
    t.ready()
    assert t.R.scores(t.s) == [7 + 2 + 3, 4 + 10, 0]
    assert t.R.winners(t.s) == [1]


def test_scoring_example_58_vp():
    t = Table()
    for value in (1, 3, 3, 5, 5, 7, 7):
        t.collect(0, t.regular(amber=value))
    t.s.amber[0] = 4 * 5 + 7 * 1
    t.ready()
    assert sum(CS.guests[x].amber for x in t.s.collected[0]) == 31
    assert t.R.scores(t.s)[0] == 58


def test_tie_goes_to_most_guests():
    t = Table()
    t.collect(0, t.regular(amber=1), t.regular(amber=3)).collect(1, t.regular(amber=3))
    t.s.amber = [0, 1]
    t.ready()
    assert t.R.scores(t.s) == [4, 4]
    assert t.R.winners(t.s) == [0]


def test_assumption_remaining_tie_is_shared():
    t = Table(n=3)
    t.collect(0, t.regular(amber=3)).collect(1, t.regular(amber=3))
    t.ready()
    assert t.R.winners(t.s) == [0, 1]


def test_assumption_game_ends_when_no_guest_remains():
    t = Table().deal_supply()
    t.s.collected[1] = list(t.s.guest_deck)
    t.s.guest_deck = []
    t.dirty(0).ready()
    t.do("clean")
    assert t.s.over and t.s.final_trigger == -1


def test_assumption_no_guest_left_still_plays_out_the_last_round():
    t = Table().deal_supply()
    t.s.collected[1] = list(t.s.guest_deck)
    t.s.guest_deck = []
    t.s.final_trigger, t.s.turns_left = 1, 2  # player 1 started the last round; player 0 and 1 turns remain
    t.dirty(0).ready()
    t.do("clean")
    assert not t.s.over and t.s.current == 1, "the last round is played out before the empty-table end"


def test_assumption_pass_only_when_no_main_action_possible():
    t = Table()
    for b, ab in enumerate((CERBERUS, CERBERUS, JACKALOPE, JACKALOPE)):
        t.place(b, t.find(True, ability=ab))
    t.s.hands[1] = [t.s.hands[1][k] + t.s.deck.count(k) for k in range(CS.num_kinds)]
    t.s.deck = []
    t.ready()
    assert t.legal() == [t.a("pass")]
    t.do("pass")
    assert t.s.current == 1 and "pass" not in t.names()


def test_assumption_amber_gems_unlimited():
    t = Table(manager="wind_mage")
    t.place(0, t.regular())
    t.dirty(1).ready()
    t.s.amber[0] = 500
    t.do("clean")
    assert t.s.amber[0] == 501 and t.R.scores(t.s)[0] == 501


def _env_at_last_turn(n: int, amber: list[int], **kw):
    from mythzoo.envs.mythic_baths.env import raw_env

    e = raw_env(num_players=n, **kw)
    e.reset(seed=0)
    s = e.state_
    s.amber = list(amber)
    s.final_trigger, s.turns_left = 1, 1  # player 0's turn is the last one
    s.legal = None
    return e


def test_assumption_rewards_zero_sum_sole_winner():
    e = _env_at_last_turn(3, [10, 3, 3])
    e.step(e.rules.table.encode("gather_deck"))
    assert all(e.terminations.values())
    assert e.cumulative_rewards() == pytest.approx({"player_0": 1.0, "player_1": -0.5, "player_2": -0.5})


def test_assumption_rewards_zero_sum_tie_shared():
    e = _env_at_last_turn(3, [5, 5, 0])
    e.step(e.rules.table.encode("gather_deck"))
    r = e.cumulative_rewards()
    assert r["player_0"] == pytest.approx(r["player_1"]) and r["player_0"] > 0 > r["player_2"]
    assert sum(r.values()) == pytest.approx(0.0)


def test_assumption_rewards_score_mode():
    e = _env_at_last_turn(3, [10, 3, 3], reward_mode="score")
    e.step(e.rules.table.encode("gather_deck"))
    assert e.cumulative_rewards() == pytest.approx({"player_0": 0.07, "player_1": -0.035, "player_2": -0.035})


def test_assumption_turn_cap_truncates():
    from mythzoo.envs.mythic_baths.env import raw_env

    assert raw_env(num_players=3).max_turns == 360  # 120 turns per player by default
    e = raw_env(num_players=2, max_turns=1)
    e.reset(seed=0)
    e.step(e.rules.table.encode("gather_deck"))  # player 0's first turn ends by itself
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert not e.state_.over
