"""Mythic Baths rules engine: plain-data state, legal actions, and one handler per action range.

No gymnasium/pettingzoo here. The state is a dataclass of ints and lists that copies cheaply
and turns into JSON and back; all randomness comes from the state's own seeded Generator. What
every engine shares (the legal-action cache, dispatch of an action id to ``act_<range name>``,
JSON round trips, clones) is :class:`~mythzoo.envs.core.rules_base.RulesBase`'s; this module
holds only the rules. The state carries nothing for the observer: the encoder keeps its own
caches, keyed on the state's values.
Rule passages are quoted in ``docs/rules/mythic_baths.md`` with the code and tests that
implement them; comments here name the rule they implement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import ge

import numpy as np

from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.core.rules_base import RulesBase, build_handlers, state_fields
from mythzoo.envs.core.validate import check_int, check_ints, check_rows, req
from mythzoo.envs.mythic_baths.actions import SUPPLY_SIZE, build_action_table
from mythzoo.envs.mythic_baths.cards import CardSet

HAND_LIMIT = 6
STARTING_HAND = 3
TIP = 2
# Guests collected that start the last round, by player count ("End of Game & Scoring").
END_THRESHOLD = {2: 8, 3: 8, 4: 7, 5: 6}

CERBERUS, JACKALOPE, OWLBEAR, SEA_LION, TATZELWURM = range(5)
TOKEN_NONE, TOKEN_ACTIVE, TOKEN_USED = 0, 1, 2

# Decision phases of a turn.
P_TURN, P_GATHER, P_EARTH, P_DISCARD, P_PAY, P_TAKE, P_OVER = range(7)
PHASE_NAMES = ("turn", "gather", "earth_mage", "discard", "pay", "take", "over")


@dataclass
class State:
    """The whole game as plain data. Piles are lists of ingredient-card kinds, top = end."""

    num_players: int
    rng: np.random.Generator
    deck: list[int]
    discard: list[int]
    supply: list[int]  # kind per slot, -1 = empty
    hands: list[list[int]]  # player -> count per kind
    amber: list[int]  # amber gems, in VP
    collected: list[list[int]]  # player -> guest ids treated
    tokens: list[list[int]]  # player -> creature -> TOKEN_NONE/ACTIVE/USED
    token_supply: list[int]  # creature -> favour tokens left in the stacks
    nourish: list[int]  # player -> bath with their nourish token, -1 = in hand
    bath_guest: list[int]  # bath -> guest id, -1 = empty
    bath_dirty: list[int]
    bath_filled: list[list[int]]  # bath -> units already provided per type (troublesome guests)
    bath_extra: list[int]  # bath -> Tatzelwurm extra units already provided
    bath_cards: list[list[int]]  # bath -> kinds placed above a troublesome guest
    guest_deck: list[int]
    manager: int
    manager_deck: list[int]
    manager_pile: list[int] = field(default_factory=list)  # replaced managers, face up under the active one (top = end)
    current: int = 0
    phase: int = P_TURN
    main_done: int = 0
    bonus_done: int = 0
    # The treatment in progress (phase P_PAY).
    pay_bath: int = -1
    pay_need: list[int] = field(default_factory=list)
    pay_extra: int = 0  # Tatzelwurm extra units still to provide
    pay_extra0: int = 0  # Tatzelwurm extra units required at the start of the action
    pay_cards: list[int] = field(default_factory=list)
    pay_surplus: int = 0  # ingredients provided beyond the requirement
    pay_modified: int = 0  # an effect that "does not count as an exact treatment" was used
    pay_token: int = 0
    pay_amber: int = 0
    pay_fire: int = 0
    pay_chef: int = 0
    pay_chef_src: int = -1  # Head Chef pair being paid: its ingredient type (-1: none)
    pay_chef_left: int = 0  # units of that type the player still has to pay for the pair
    pay_units: int = 0  # requirement units filled in this action
    pay_fresh: int = 1  # the guest had no earlier partial treatment
    take_mgr: int = -1  # manager whose optional take is pending (phase P_TAKE)
    final_trigger: int = -1  # player who started the last round
    turns_left: int = 0  # turns still to play in the last round (incl. the trigger's own)
    turn: int = 0  # turns completed
    over: int = 0
    legal: list[int] | None = field(default=None, compare=False, repr=False)  # RulesBase's legal-action cache


DERIVED_FIELDS = ("legal",)  # caches, never serialized
STATE_FIELDS = state_fields(State, DERIVED_FIELDS)


class MythicBathsRules(RulesBase):
    """Static tables for one card set and player count; every method takes the state it works on.

    Two memos serve the legality computation (and the observer reads the first): the baths'
    adjacent abilities (:meth:`adjacency`) and the board's nourish/clean legality
    (:meth:`_board_legality`). Each keeps a copy of the state values it was computed from and is
    used only while they are equal, so it holds for any state (a clone, a restored or hand-edited
    one) and nothing has to invalidate it.
    """

    State = State
    STATE_FIELDS = STATE_FIELDS
    DERIVED_FIELDS = DERIVED_FIELDS
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, cs: CardSet, num_players: int):
        if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= 5:
            raise ValueError(f"Mythic Baths is for 2-5 players; num_players={num_players!r}")
        self.cs = cs
        self.n = self.num_players = num_players
        self.num_baths = num_players + 2  # Setup 1: 1 bath per player + 2
        self.T = cs.num_types
        self.K = cs.num_kinds
        self.table = build_action_table(cs)
        o = self.table.offset
        self.A_GS, self.A_GD, self.A_GARD = o("gather_supply"), o("gather_deck"), o("gardener")
        self.A_NOUR, self.A_TREAT, self.A_CLEAN, self.A_PASS = o("nourish"), o("treat"), o("clean"), o("pass")
        self.A_TCER, self.A_TJAC, self.A_TOWL, self.A_TSEA = o("token_cerberus"), o("token_jackalope"), o("token_owlbear"), o("token_sea_lion")
        self.A_END, self.A_DECL, self.A_DISC, self.A_PAY = o("end_turn"), o("decline"), o("discard"), o("pay_card")
        self.A_PTOK, self.A_PAMB, self.A_FIRE, self.A_CHEF, self.A_STOP = o("pay_token"), o("pay_amber"), o("fire_mage"), o("head_chef"), o("stop_treating")
        self.num_actions = self.table.n
        self.handlers = build_handlers(self, self.table)
        self.threshold = END_THRESHOLD[num_players]
        self.guests = cs.guests
        self.ability_of = [g.ability for g in cs.guests]
        self.kind_units = cs.kind_units
        # kind -> [(type, units)] for the types it shows, to skip zeros in hot loops
        self.kind_nz = [[(t, u) for t, u in enumerate(units) if u] for units in cs.kind_units]
        self.kind_types = cs.kinds
        self.single_kind = [len(k) == 1 for k in cs.kinds]
        self.double_kind = [k[0] if len(k) == 2 and k[0] == k[1] else -1 for k in cs.kinds]
        self.kind_of_single = [cs.kinds.index((t,)) for t in range(self.T)]
        self.kind_of_double = [cs.kinds.index((t, t)) for t in range(self.T)]
        eff = cs.managers
        self.M = {name: eff.index(name) for name in eff}
        # Cerberus: "Only accepts these ingredient types" -> kinds whose every ingredient is needed.
        self.allowed_kinds: list[list[bool] | None] = []
        for g in self.guests:
            if g.ability == CERBERUS:
                ok_types = {t for t in range(self.T) if g.needs[t] > 0}
                self.allowed_kinds.append([all(t in ok_types for t in k) for k in cs.kinds])
            else:
                self.allowed_kinds.append(None)
        self._clear_memos()

    def _clear_memos(self) -> None:
        self._board: tuple | None = None  # (bath guests, (tatz, owl, sea)): see adjacency()
        self._board_legal: tuple | None = None  # (key values, owners, nourishable, can clean): see _board_legality()

    def __getstate__(self) -> dict:
        """Pickling: the memos are left out (rebuilt on first use)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_board", "_board_legal")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._clear_memos()

    # ------------------------------------------------------------------ setup
    def initial_state(self, seed: int | None) -> State:
        """Setup steps 1-6 and the players' starting hands."""
        rng = make_rng(seed)
        n, cs = self.n, self.cs
        guest_deck = rng.permutation(len(self.guests)).tolist()
        bath_guest = [guest_deck.pop() for _ in range(self.num_baths)]
        manager_deck = rng.permutation(len(cs.managers)).tolist()
        manager = manager_deck.pop()
        cards = [k for k in range(self.K) for _ in range(cs.kind_counts[k])]
        deck = [cards[i] for i in rng.permutation(len(cards))]
        supply = [deck.pop() for _ in range(SUPPLY_SIZE)]
        hands = [[0] * self.K for _ in range(n)]
        for p in range(n):
            for _ in range(STARTING_HAND):
                hands[p][deck.pop()] += 1
        s = State(
            num_players=n,
            rng=rng,
            deck=deck,
            discard=[],
            supply=supply,
            hands=hands,
            amber=[0] * n,
            collected=[[] for _ in range(n)],
            tokens=[[TOKEN_NONE] * 5 for _ in range(n)],
            token_supply=[cs.tokens_per_creature] * 5,
            nourish=[-1] * n,
            bath_guest=bath_guest,
            bath_dirty=[0] * self.num_baths,
            bath_filled=[[0] * self.T for _ in range(self.num_baths)],
            bath_extra=[0] * self.num_baths,
            bath_cards=[[] for _ in range(self.num_baths)],
            guest_deck=guest_deck,
            manager=manager,
            manager_deck=manager_deck,
            pay_need=[0] * self.T,
        )
        self._refresh(s)
        return s

    # ------------------------------------------------------------- queries
    def turns_played(self, s: State) -> int:
        """Completed turns (the env's turn cap counts these)."""
        return s.turn

    def scores(self, s: State) -> list[int]:
        """Victory points: amber on collected guests plus amber gems."""
        g = self.guests
        return [sum(g[x].amber for x in s.collected[p]) + s.amber[p] for p in range(self.n)]

    def winners(self, s: State) -> list[int]:
        """Players with the most VP, ties broken by most guests treated (a remaining tie is shared)."""
        sc = self.scores(s)
        key = [(sc[p], len(s.collected[p])) for p in range(self.n)]
        best = max(key)
        return [p for p in range(self.n) if key[p] == best]

    def hand_size(self, s: State, p: int) -> int:
        """Number of ingredient cards in player ``p``'s hand."""
        return sum(s.hands[p])

    def nourisher(self, s: State, b: int) -> int:
        """Player whose nourish token is on bath ``b``, or -1."""
        for p in range(self.n):
            if s.nourish[p] == b:
                return p
        return -1

    def troublesome_in_play(self, s: State, ability: int) -> bool:
        """Whether a troublesome guest with this ability sits in a bath (its ability is active)."""
        g = self.guests
        return any(x >= 0 and g[x].ability == ability for x in s.bath_guest)

    def adjacency(self, s: State) -> tuple[list[int], list[int], list[int]]:
        """Per bath: adjacent Tatzelwurms, Owlbears and Sea-Lions (memoized on the baths' guests;
        the lists are shared, never to be changed by a caller)."""
        board = self._board
        if board is None or board[0] != s.bath_guest:
            nb, ab = self.num_baths, self.ability_of
            abil = [ab[x] if x >= 0 else -1 for x in s.bath_guest]
            tatz, owl, sea = [0] * nb, [0] * nb, [0] * nb
            for b in range(nb):
                for nbr in (b - 1, b + 1):
                    if 0 <= nbr < nb:
                        a = abil[nbr]
                        if a == TATZELWURM:
                            tatz[b] += 1
                        elif a == OWLBEAR:
                            owl[b] += 1
                        elif a == SEA_LION:
                            sea[b] += 1
            board = self._board = (list(s.bath_guest), tatz, owl, sea)
        return board[1], board[2], board[3]

    def _adjacent_ability(self, s: State, b: int, ability: int) -> int:
        """How many baths next to ``b`` hold a troublesome guest with this ability."""
        tatz, owl, sea = self.adjacency(s)
        return (tatz if ability == TATZELWURM else owl if ability == OWLBEAR else sea)[b]

    # ------------------------------------------------------- legality helpers
    def _nourish_ok(self, s: State, b: int, owners: list[int], owl: list[int]) -> bool:
        x = s.bath_guest[b]
        if x < 0 or self.ability_of[x] >= 0:  # "You may not nourish a troublesome guest."
            return False
        if owners[b] >= 0:  # another player's token, or already ours (moving onto itself changes nothing)
            return False
        return owl[b] == 0  # Owlbear: adjacent guests cannot be nourished

    def _clean_ok(self, s: State) -> bool:
        sea = self.adjacency(s)[2]
        for dirty, blocked in zip(s.bath_dirty, sea):
            if dirty and not blocked:
                return True
        if s.guest_deck:
            for b in range(self.num_baths):
                if s.bath_guest[b] < 0 and not s.bath_dirty[b]:
                    return True
        return False

    def _units(self, hand: list[int], allowed: list[bool] | None) -> list[int]:
        """Ingredient units per type in a hand (only the kinds ``allowed``, if given)."""
        units = [0] * self.T
        if allowed is None:  # hands are sparse: skipping empty kinds beats dot products
            for c, nz in zip(hand, self.kind_nz):
                if c:
                    for t, u in nz:
                        units[t] += u * c
            return units
        for c, nz, ok in zip(hand, self.kind_nz, allowed):
            if c and ok:
                for t, u in nz:
                    units[t] += u * c
        return units

    def _chef_sources(self, hand: list[int], allowed: list[bool] | None) -> list[int]:
        """Ingredient types the Head Chef can pair: two matching ingredients on any cards of the hand
        (a double card, two single cards, or mixed cards showing that ingredient)."""
        units = self._units(hand, allowed)
        return [t for t in range(self.T) if units[t] >= 2]

    def _can_finish(self, need: list[int], extra: int, units: list[int], flex: int, chef: list[int] | None) -> bool:
        """Can the remaining requirement be met with these units, flexible sources and an optional chef pair?"""
        deficit = surplus = 0
        for n_, u in zip(need, units):
            if n_ > u:
                deficit += n_ - u
            else:
                surplus += u - n_
        if deficit <= flex and extra <= surplus + flex - deficit:
            return True
        if chef:
            for src in chef:
                units[src] -= 2
                ok = self._can_finish(need, extra, units, flex + 1, None)
                units[src] += 2
                if ok:
                    return True
        return False

    def _treat_flex(self, s: State, p: int) -> int:
        """Single-use substitutes ``p`` has for any guest: the Tatzelwurm token and Amber Appraiser amber
        (the Fire Mage applies per guest, so ``_treat_ok`` adds it)."""
        flex = 0
        if s.tokens[p][TATZELWURM] == TOKEN_ACTIVE and not s.bonus_done:
            flex += 1
        if self.cs.managers[s.manager] == "amber_appraiser" and s.amber[p] >= 1:
            flex += 1
        return flex

    def _treat_ok(self, s: State, p: int, b: int, owners: list[int], hand_units: list[int], flex_base: int, tatz: list[int]) -> bool:
        x = s.bath_guest[b]
        if x < 0:
            return False
        g = self.guests[x]
        if not g.troublesome:
            if owners[b] >= 0 and owners[b] != p:  # only the nourisher may complete a nourished guest
                return False
            m = self.cs.managers[s.manager]
            flex = flex_base + (m == "fire_mage" and s.nourish[p] == b)
            if not flex and not tatz[b] and m != "head_chef":  # fast path: the hand alone must cover the needs
                return all(map(ge, hand_units, g.needs))
            chef = self._chef_sources(s.hands[p], None) if m == "head_chef" else None
            return self._can_finish(g.needs, tatz[b], list(hand_units), flex, chef)
        allowed = self.allowed_kinds[x]
        units = hand_units if allowed is None else self._units(s.hands[p], allowed)
        chef = self._chef_sources(s.hands[p], allowed) if self.cs.managers[s.manager] == "head_chef" else None
        flex = flex_base
        # Troublesome: any contribution to an unfulfilled ingredient is a legal (partial) treatment.
        extra = max(0, tatz[b] - s.bath_extra[b])
        filled = s.bath_filled[b]
        if flex or chef or (not extra and list(filled) == list(g.needs)):
            return True
        for t in range(self.T):
            if units[t] and (extra or g.needs[t] > filled[t]):
                return True
        return False

    # -------------------------------------------------------- legal actions
    def _refresh(self, s: State) -> None:
        """Recompute the legal-action cache, ending turns that have nothing left to decide."""
        while True:
            if s.phase == P_TURN and s.main_done and not s.over and (s.bonus_done or TOKEN_ACTIVE not in s.tokens[s.current]):
                self._end_turn(s)  # fast path: no bonus possible, so nothing is left to decide this turn
                continue
            s.legal = self._compute_legal(s)
            if s.phase == P_TURN and s.main_done and s.legal == [self.A_END]:
                self._end_turn(s)  # nothing left but to end the turn: do it without a decision
                continue
            return

    # What follows every handler (RulesBase's hook): the new legal actions, with turns that have
    # nothing left to decide ended. The same function, not a wrapper: one call less per action.
    _after_action = _refresh

    def _board_legality(self, s: State) -> tuple[list[int], list[int], bool]:
        """Owners of the nourish tokens by bath, the baths that can be nourished, and whether Clean
        is possible. They depend only on the baths' guests and dirt, the nourish tokens and whether
        guests remain, so they are memoized on exactly those (compared by value: hand-edited
        states stay correct)."""
        cached = self._board_legal
        key = (s.bath_guest, s.bath_dirty, s.nourish, bool(s.guest_deck))
        if cached is not None and cached[0] == key:
            return cached[1], cached[2], cached[3]
        owners = [-1] * self.num_baths
        for q in range(self.n):
            if s.nourish[q] >= 0:
                owners[s.nourish[q]] = q
        owl = self.adjacency(s)[1]
        nourishable = [b for b in range(self.num_baths) if self._nourish_ok(s, b, owners, owl)]
        can_clean = self._clean_ok(s)
        self._board_legal = ((list(s.bath_guest), list(s.bath_dirty), list(s.nourish), bool(s.guest_deck)), owners, nourishable, can_clean)
        return owners, nourishable, can_clean

    def _compute_legal(self, s: State) -> list[int]:
        # ascending, as legal_actions promises (the Gardener's and the tokens' ids interleave with the turn's)
        return sorted(self._legal_in_phase(s))

    def _legal_in_phase(self, s: State) -> list[int]:
        if s.over:
            return []
        ph, p = s.phase, s.current
        acts: list[int] = []
        if ph == P_TURN:
            owners, nourishable, can_clean = self._board_legality(s)
            tatz = self.adjacency(s)[0]
            if not s.main_done:
                m = self.cs.managers[s.manager]
                supply_slots = [i for i, k in enumerate(s.supply) if k >= 0]
                acts += [self.A_GS + i for i in supply_slots]
                if s.deck or s.discard:
                    acts.append(self.A_GD)
                acts += [self.A_NOUR + b for b in nourishable]
                hand_units = self._units(s.hands[p], None)
                flex = self._treat_flex(s, p)
                acts += [self.A_TREAT + b for b in range(self.num_baths) if self._treat_ok(s, p, b, owners, hand_units, flex, tatz)]
                if can_clean:
                    acts.append(self.A_CLEAN)
                if not acts:
                    acts.append(self.A_PASS)
            cerberus = not s.bonus_done and s.tokens[p][CERBERUS] == TOKEN_ACTIVE
            if self.cs.managers[s.manager] == "gardener" and (not s.main_done or cerberus):
                # Gardener: "Before taking ingredients", the gather's take or the Cerberus token's.
                acts += [self.A_GARD + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0]
            if not s.bonus_done:
                tok = s.tokens[p]
                if tok[CERBERUS] == TOKEN_ACTIVE:
                    acts += [self.A_TCER + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0]
                if tok[JACKALOPE] == TOKEN_ACTIVE:
                    acts.append(self.A_TJAC)
                if tok[OWLBEAR] == TOKEN_ACTIVE:
                    acts += [self.A_TOWL + b for b in nourishable]
                if tok[SEA_LION] == TOKEN_ACTIVE and can_clean:
                    acts.append(self.A_TSEA)
            if s.main_done:
                acts.append(self.A_END)
            return acts
        if ph == P_GATHER:  # after the Gardener's discard: the take it came before
            if not s.main_done:
                acts += [self.A_GS + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0]
                if s.deck or s.discard:
                    acts.append(self.A_GD)
            if not s.bonus_done and s.tokens[p][CERBERUS] == TOKEN_ACTIVE:
                acts += [self.A_TCER + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0]
            return acts
        if ph == P_EARTH:
            acts += [self.A_GS + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0 and self.single_kind[s.supply[i]]]
            acts.append(self.A_DECL)
            return acts
        if ph == P_TAKE:
            acts += [self.A_GS + i for i in range(SUPPLY_SIZE) if s.supply[i] >= 0]
            acts.append(self.A_DECL)
            return acts
        if ph == P_DISCARD:
            hand = s.hands[p]
            return [self.A_DISC + k for k in range(self.K) if hand[k]]
        if ph == P_PAY:
            return self._pay_legal(s)
        return acts

    def _pay_legal(self, s: State) -> list[int]:
        p, b = s.current, s.pay_bath
        x = s.bath_guest[b]
        g = self.guests[x]
        hand = s.hands[p]
        allowed = self.allowed_kinds[x]
        need, extra, T = s.pay_need, s.pay_extra, self.T
        regular = not g.troublesome
        m = self.cs.managers[s.manager]
        tok_ok = s.tokens[p][TATZELWURM] == TOKEN_ACTIVE and not s.bonus_done and not s.pay_token
        amb_ok = m == "amber_appraiser" and not s.pay_amber and s.amber[p] >= 1
        fire_ok = m == "fire_mage" and not s.pay_fire and regular and s.nourish[p] == b
        chef_on = m == "head_chef" and not s.pay_chef
        acts: list[int] = []
        ku = self.kind_units
        if s.pay_chef_left:  # a declared Head Chef pair: the player picks the cards showing its ingredient
            src, left = s.pay_chef_src, s.pay_chef_left
            units = self._units(hand, allowed) if regular else None
            flex = int(tok_ok) + int(amb_ok) + int(fire_ok)
            for k in range(self.K):
                if not hand[k] or not ku[k][src] or (allowed is not None and not allowed[k]):
                    continue
                if regular:  # the rest of the treatment must stay completable
                    u = ku[k]
                    take = min(left, u[src])
                    rest = list(u)
                    rest[src] -= take
                    need2, extra2, _ = self._apply_units(need, extra, rest)
                    units2 = [a - c for a, c in zip(units, u)]
                    units2[src] -= left - take
                    if units2[src] < 0 or not self._can_finish(need2, extra2, units2, flex, None):
                        continue
                acts.append(self.A_PAY + k)
            return acts
        check = False  # whether each candidate needs a feasibility check
        if regular:
            units = self._units(hand, allowed)
            flex = int(tok_ok) + int(amb_ok) + int(fire_ok)
            chef = self._chef_sources(hand, allowed) if chef_on else None
            # With no substitutes and no extra slot, the treatment was feasible (need <= units per type)
            # and a contributing card keeps it so: need - min(u, need) <= units - u. Skip the checks.
            check = bool(flex or chef_on or extra)
        for k in range(self.K):
            if not hand[k] or (allowed is not None and not allowed[k]):
                continue
            u = ku[k]
            if not (extra or any(u[t] and need[t] for t in self.kind_types[k])):
                continue  # each card played must supply a still-missing ingredient
            if check:
                need2, extra2, _ = self._apply_units(need, extra, u)
                for t in range(T):
                    units[t] -= u[t]
                hand[k] -= 1
                chef2 = self._chef_sources(hand, allowed) if chef_on else None
                ok = self._can_finish(need2, extra2, units, flex, chef2)
                hand[k] += 1
                for t in range(T):
                    units[t] += u[t]
                if not ok:
                    continue
            acts.append(self.A_PAY + k)
        targets = [t for t in range(T) if need[t]] + ([T] if extra else [])
        for base, ok_flag in ((self.A_PTOK, tok_ok), (self.A_PAMB, amb_ok), (self.A_FIRE, fire_ok)):
            if not ok_flag:
                continue
            for t in targets:
                if regular:
                    need2, extra2 = self._fill_target(need, extra, t)
                    flex2 = flex - 1
                    if not self._can_finish(need2, extra2, units, flex2, chef):
                        continue
                acts.append(base + t)
        if chef_on:
            for src in self._chef_sources(hand, allowed):
                for t in targets:
                    if regular:
                        need2, extra2 = self._fill_target(need, extra, t)
                        units[src] -= 2
                        ok = self._can_finish(need2, extra2, units, flex, None)
                        units[src] += 2
                        if not ok:
                            continue
                    acts.append(self.A_CHEF + src * (T + 1) + t)
        if not regular and s.pay_units > 0:
            acts.append(self.A_STOP)
        acts.sort()
        return acts

    @staticmethod
    def _fill_target(need: list[int], extra: int, t: int) -> tuple[list[int], int]:
        if t == len(need):
            return need, extra - 1
        need2 = list(need)
        need2[t] -= 1
        return need2, extra

    def _apply_units(self, need: list[int], extra: int, units: tuple[int, ...]) -> tuple[list[int], int, tuple[int, int]]:
        """Assign a card's ingredients: to a missing type first, then to an extra (Tatzelwurm) slot, else surplus."""
        need2 = list(need)
        filled = surplus = 0
        for t, u in enumerate(units):
            for _ in range(u):
                if need2[t] > 0:
                    need2[t] -= 1
                    filled += 1
                elif extra > 0:
                    extra -= 1
                    filled += 1
                else:
                    surplus += 1
        return need2, extra, (filled, surplus)

    # ------------------------------------------------------------ handlers
    # One per action range (``act_<range name>(s, argument)``), found by RulesBase from the decoded
    # action id; each runs for the player to move, after the legality check.
    def act_gather_supply(self, s: State, i: int) -> None:
        """Take supply slot ``i``'s card: the gather action, the Earth Mage's second card, or the
        Curator's/Whisperer's card (the phase says which)."""
        ph = s.phase
        kind = self._take_supply(s, s.current, i)
        if ph in (P_TURN, P_GATHER):
            s.main_done = 1
            if self.cs.managers[s.manager] == "earth_mage" and self.single_kind[kind] and any(
                k >= 0 and self.single_kind[k] for k in s.supply
            ):
                s.phase = P_EARTH  # Earth Mage: may take a second single-ingredient card
                return
        self._finish_action(s)

    def act_gather_deck(self, s: State, _: int) -> None:
        """Gather from the deck: draw its top card, then discard the supply and deal 5 fresh cards."""
        s.main_done = 1
        k = self._draw(s)
        if k >= 0:
            s.hands[s.current][k] += 1
        s.discard.extend(c for c in s.supply if c >= 0)
        s.supply = [self._draw(s) for _ in range(SUPPLY_SIZE)]
        self._finish_action(s)

    def act_gardener(self, s: State, i: int) -> None:
        """Gardener: discard and refill supply slot ``i``, then take ingredients (gather, or the
        Cerberus token's take)."""
        s.discard.append(s.supply[i])
        s.supply[i] = self._draw(s)
        s.phase = P_GATHER

    def act_nourish(self, s: State, b: int) -> None:
        """Place (or move) the nourish token onto bath ``b``'s guest."""
        s.main_done = 1
        s.nourish[s.current] = b
        self._finish_action(s)

    def act_treat(self, s: State, b: int) -> None:
        """Start treating bath ``b``'s guest; the payment decisions follow."""
        s.main_done = 1
        self._start_treatment(s, s.current, b)

    def act_clean(self, s: State, _: int) -> None:
        """Clean the dirty baths and welcome new guests."""
        s.main_done = 1
        self._clean(s, s.current)

    def act_pass(self, s: State, _: int) -> None:
        """The main action when none is possible."""
        s.main_done = 1
        self._finish_action(s)

    def act_token_cerberus(self, s: State, i: int) -> None:
        """Cerberus token: take supply slot ``i``'s card, refill."""
        p = s.current
        self._use_token(s, p, CERBERUS)
        kind = self._take_supply(s, p, i)
        if self.cs.managers[s.manager] == "earth_mage" and self.single_kind[kind] and any(
            k >= 0 and self.single_kind[k] for k in s.supply
        ):
            s.phase = P_EARTH  # Earth Mage: "when taking ingredients from the supply", the token's take too
            return
        self._finish_action(s)

    def act_token_jackalope(self, s: State, _: int) -> None:
        """Jackalope token: 1 amber per Jackalope you have."""
        p = s.current
        self._use_token(s, p, JACKALOPE)
        s.amber[p] += sum(1 for x in s.collected[p] if self.guests[x].creature == JACKALOPE)
        self._finish_action(s)

    def act_token_owlbear(self, s: State, b: int) -> None:
        """Owlbear token: nourish bath ``b``'s guest."""
        p = s.current
        self._use_token(s, p, OWLBEAR)
        s.nourish[p] = b
        self._finish_action(s)

    def act_token_sea_lion(self, s: State, _: int) -> None:
        """Sea-Lion token: clean the baths."""
        self._use_token(s, s.current, SEA_LION)
        self._clean(s, s.current)

    def act_end_turn(self, s: State, _: int) -> None:
        """End the turn without using a favour token."""
        self._end_turn(s)

    def act_decline(self, s: State, _: int) -> None:
        """Skip an optional follow-up (second Earth Mage card, Curator/Whisperer card)."""
        self._finish_action(s)

    def act_discard(self, s: State, k: int) -> None:
        """Hand limit: discard one card of kind ``k``."""
        s.hands[s.current][k] -= 1
        s.discard.append(k)
        self._finish_action(s)

    def act_pay_card(self, s: State, k: int) -> None:
        """Treatment: play one card of kind ``k``."""
        self._pay_card(s, s.current, k)

    def act_pay_token(self, s: State, t: int) -> None:
        """Treatment: the Tatzelwurm token as ingredient ``t`` (``T``: the extra one)."""
        p = s.current
        s.pay_token = 1
        self._use_token(s, p, TATZELWURM)  # "Counts as any 1 ingredient. This still counts as exact treatment."
        self._pay_flex(s, p, t, rewarded=True)

    def act_pay_amber(self, s: State, t: int) -> None:
        """Treatment, Amber Appraiser: 1 amber as ingredient ``t``."""
        p = s.current
        s.pay_amber = 1
        s.amber[p] -= 1
        s.pay_modified = 1  # Amber Appraiser: "does not count as an exact treatment"
        self._pay_flex(s, p, t, rewarded=False)

    def act_fire_mage(self, s: State, t: int) -> None:
        """Treatment, Fire Mage: ignore one required ingredient ``t`` of the nourished guest."""
        s.pay_fire = 1
        s.pay_modified = 1
        self._pay_flex(s, s.current, t, rewarded=False)

    def act_head_chef(self, s: State, arg: int) -> None:
        """Treatment, Head Chef: two matching ingredients of type ``arg // (T + 1)`` as one of target
        ``arg % (T + 1)``. The target is filled now; the player then pays the pair with ``pay_card``
        decisions, choosing the cards (a double card, two single cards, mixed cards showing it)."""
        p = s.current
        src, t = divmod(arg, self.T + 1)
        s.pay_chef = 1
        s.pay_modified = 1
        s.pay_chef_src, s.pay_chef_left = src, 2
        self._pay_flex(s, p, t, rewarded=True)  # completion waits until the pair is paid (_after_fill)

    def act_stop_treating(self, s: State, _: int) -> None:
        """Troublesome guest: stop after a partial treatment."""
        self._end_troublesome_treatment(s, s.current, completed=False)

    # --------------------------------------------------------- card piles
    def _draw(self, s: State) -> int:
        """Top card of the deck, reshuffling the discard pile when the deck runs out; -1 if none at all."""
        if not s.deck:
            if not s.discard:
                return -1
            pile = s.discard
            s.deck = [pile[i] for i in s.rng.permutation(len(pile))]
            s.discard = []
        return s.deck.pop()

    def _take_supply(self, s: State, p: int, i: int) -> int:
        kind = s.supply[i]
        s.hands[p][kind] += 1
        s.supply[i] = self._draw(s)  # refill the space from the top of the deck
        return kind

    def _use_token(self, s: State, p: int, creature: int) -> None:
        s.tokens[p][creature] = TOKEN_USED
        s.bonus_done = 1

    def _finish_action(self, s: State) -> None:
        """After an action and its follow-ups: discard down to the hand limit, then back to the turn."""
        s.phase = P_DISCARD if sum(s.hands[s.current]) > HAND_LIMIT else P_TURN

    # ----------------------------------------------------------- treatment
    def _start_treatment(self, s: State, p: int, b: int) -> None:
        g = self.guests[s.bath_guest[b]]
        extra_needed = self._adjacent_ability(s, b, TATZELWURM)
        if g.troublesome:
            filled = s.bath_filled[b]
            s.pay_need = [g.needs[t] - filled[t] for t in range(self.T)]
            s.pay_extra = max(0, extra_needed - s.bath_extra[b])
            s.pay_fresh = int(sum(filled) == 0 and s.bath_extra[b] == 0)
        else:
            s.pay_need = list(g.needs)
            s.pay_extra = extra_needed
            s.pay_fresh = 1
        s.pay_bath = b
        s.pay_extra0 = extra_needed
        s.pay_cards = []
        s.pay_surplus = s.pay_modified = s.pay_token = s.pay_amber = s.pay_fire = s.pay_chef = s.pay_units = 0
        s.pay_chef_src, s.pay_chef_left = -1, 0
        s.phase = P_PAY
        if s.pay_extra == 0 and not any(s.pay_need):
            # Only possible when the Tatzelwurm whose extra ingredient was outstanding has left:
            # nothing remains to provide, so the treatment completes at once.
            self._end_troublesome_treatment(s, p, completed=True)

    def _pay_card(self, s: State, p: int, k: int) -> None:
        s.hands[p][k] -= 1
        s.pay_cards.append(k)
        units = self.kind_units[k]
        if s.pay_chef_left:  # a Head Chef pair being paid: this card's matching ingredients go to it first
            src = s.pay_chef_src
            take = min(s.pay_chef_left, units[src])
            s.pay_chef_left -= take
            if not s.pay_chef_left:
                s.pay_chef_src = -1
            units = list(units)
            units[src] -= take
        s.pay_need, s.pay_extra, (filled, surplus) = self._apply_units(s.pay_need, s.pay_extra, units)
        s.pay_surplus += surplus
        self._after_fill(s, p, filled, rewarded=True)

    def _pay_flex(self, s: State, p: int, t: int, rewarded: bool) -> None:
        if t == self.T:
            s.pay_extra -= 1
        else:
            s.pay_need[t] -= 1
        self._after_fill(s, p, 1, rewarded)

    def _after_fill(self, s: State, p: int, filled: int, rewarded: bool) -> None:
        s.pay_units += filled
        g = self.guests[s.bath_guest[s.pay_bath]]
        if g.troublesome and rewarded:
            s.amber[p] += filled  # troublesome guests: 1 amber per matched ingredient
        if s.pay_extra == 0 and not any(s.pay_need) and not s.pay_chef_left:
            if g.troublesome:
                self._end_troublesome_treatment(s, p, completed=True)
            else:
                self._complete(s, p, s.pay_bath)
                self._finish_action(s)

    def _end_troublesome_treatment(self, s: State, p: int, completed: bool) -> None:
        b = s.pay_bath
        m = self.cs.managers[s.manager]
        if completed:
            self._complete(s, p, b)
        else:  # the cards stay above the guest; progress is kept for later turns and players
            x = s.bath_guest[b]
            needs = self.guests[x].needs
            s.bath_filled[b] = [needs[t] - s.pay_need[t] for t in range(self.T)]
            s.bath_extra[b] = self._adjacent_ability(s, b, TATZELWURM) - s.pay_extra
            s.bath_cards[b].extend(s.pay_cards)
            s.pay_cards = []
        s.pay_bath = -1
        if m == "wind_mage":
            s.amber[p] += 1  # Wind Mage: after treating a troublesome guest, +1 amber
        if m == "creature_whisperer" and any(k >= 0 for k in s.supply):
            s.phase = P_TAKE  # Creature Whisperer: may also take 1 supply card
            s.take_mgr = s.manager
            return
        self._finish_action(s)

    def _complete(self, s: State, p: int, b: int) -> None:
        """'When a guest's treatment is completed in full', steps 1-5, then token re-activation and the end check."""
        x = s.bath_guest[b]
        g = self.guests[x]
        m = self.cs.managers[s.manager]
        # 1. Tip for an exact treatment: one action, one player, no more and no fewer ingredients than
        #    the guest requires (a Tatzelwurm's extra ingredient is part of that requirement), no effect
        #    that "does not count as an exact treatment"; Jackalope in a bath stops tips for regular guests.
        exact = s.pay_fresh and not s.pay_surplus and not s.pay_modified
        if exact and not (not g.troublesome and self.troublesome_in_play(s, JACKALOPE)):
            s.amber[p] += TIP
        # 2. Favour token for the nourisher (one per creature type).
        if s.nourish[p] == b:
            s.nourish[p] = -1
            if s.tokens[p][g.creature] == TOKEN_NONE and s.token_supply[g.creature] > 0:
                s.tokens[p][g.creature] = TOKEN_ACTIVE
                s.token_supply[g.creature] -= 1
            if m == "spirit_caretaker":
                s.amber[p] += 1  # Spirit Caretaker: after treating a nourished guest, +1 amber
        # 3. Take the guest card. 4. Dirty the bath. 5. Discard the cards used.
        s.collected[p].append(x)
        s.bath_guest[b] = -1
        s.bath_dirty[b] = 1
        s.discard.extend(s.bath_cards[b])
        s.discard.extend(s.pay_cards)
        s.bath_cards[b] = []
        s.bath_filled[b] = [0] * self.T
        s.bath_extra[b] = 0
        s.pay_cards = []
        s.pay_bath = -1
        # Used favour tokens of this creature flip back to active, for every player.
        for q in range(self.n):
            if s.tokens[q][g.creature] == TOKEN_USED:
                s.tokens[q][g.creature] = TOKEN_ACTIVE
        if s.final_trigger < 0 and len(s.collected[p]) >= self.threshold:
            s.final_trigger = p
            s.turns_left = self.n  # this turn, then one more turn for each other player

    # --------------------------------------------------------------- clean
    def _clean(self, s: State, p: int) -> None:
        m = self.cs.managers[s.manager]  # the manager when the action starts applies to it
        cleaned = 0
        for b in range(self.num_baths):
            if s.bath_dirty[b] and self._adjacent_ability(s, b, SEA_LION) == 0:
                s.bath_dirty[b] = 0
                cleaned += 1
        s.amber[p] += cleaned
        if m == "water_mage" and cleaned:
            s.amber[p] += 1
        arrived_troublesome = False
        for b in range(self.num_baths):  # refill from the leftmost empty (clean) bath
            if s.bath_guest[b] < 0 and not s.bath_dirty[b] and s.guest_deck:
                x = s.guest_deck.pop()
                s.bath_guest[b] = x
                arrived_troublesome |= self.guests[x].troublesome
        if arrived_troublesome and s.manager_deck:
            # "reveal 1 new manager from the deck, and place it on top of the previous manager":
            # the previous one leaves play under it; an empty deck leaves the active manager in place.
            s.manager_pile.append(s.manager)
            s.manager = s.manager_deck.pop()
        if m == "bathing_curator" and any(k >= 0 for k in s.supply):
            s.phase = P_TAKE
            s.take_mgr = s.manager
            return
        self._finish_action(s)

    # ----------------------------------------------------------- turn end
    def _end_turn(self, s: State) -> None:
        s.turn += 1
        if s.final_trigger >= 0:
            s.turns_left -= 1
            if s.turns_left <= 0:
                self._game_over(s)
                return
        if s.final_trigger < 0 and not s.guest_deck and all(x < 0 for x in s.bath_guest):
            self._game_over(s)  # nothing left to treat (a last round in progress still gives everyone their turn)
            return
        s.current = (s.current + 1) % self.n
        s.main_done = s.bonus_done = 0
        s.phase = P_TURN

    def _game_over(self, s: State) -> None:
        s.over = 1
        s.phase = P_OVER

    # ------------------------------------------------------- state checks
    def validate(self, s: State) -> None:
        """Check every invariant of a state: types, ranges, and conservation of cards, guests and tokens."""
        n, nb, K, T = self.n, self.num_baths, self.K, self.T
        ints = check_ints

        req(type(s.num_players) is int and s.num_players == n, f"num_players {s.num_players!r} does not match the env's {n}")
        ints(s.deck, None, 0, K - 1, "deck")
        ints(s.discard, None, 0, K - 1, "discard")
        ints(s.supply, SUPPLY_SIZE, -1, K - 1, "supply")
        check_rows(s.hands, n, K, 0, 50, "hands")
        ints(s.amber, n, 0, 10**6, "amber")
        check_rows(s.collected, n, None, 0, len(self.guests) - 1, "collected")
        check_rows(s.tokens, n, 5, 0, 2, "tokens")
        ints(s.token_supply, 5, 0, self.cs.tokens_per_creature, "token_supply")
        ints(s.nourish, n, -1, nb - 1, "nourish")
        ints(s.bath_guest, nb, -1, len(self.guests) - 1, "bath_guest")
        ints(s.bath_dirty, nb, 0, 1, "bath_dirty")
        ints(s.bath_extra, nb, 0, 2, "bath_extra")
        check_rows(s.bath_filled, nb, T, 0, 6, "bath_filled")
        check_rows(s.bath_cards, nb, None, 0, K - 1, "bath_cards")
        ints(s.guest_deck, None, 0, len(self.guests) - 1, "guest_deck")
        ints(s.manager_deck, None, 0, len(self.cs.managers) - 1, "manager_deck")
        ints(s.pay_need, T, 0, 6, "pay_need")
        ints(s.pay_cards, None, 0, K - 1, "pay_cards")
        for name, lo, hi in (
            ("manager", 0, len(self.cs.managers) - 1), ("current", 0, n - 1), ("phase", 0, P_OVER),
            ("main_done", 0, 1), ("bonus_done", 0, 1), ("pay_bath", -1, nb - 1), ("pay_extra", 0, 2),
            ("pay_extra0", 0, 2), ("pay_surplus", 0, 100), ("pay_modified", 0, 1), ("pay_token", 0, 1),
            ("pay_amber", 0, 1), ("pay_fire", 0, 1), ("pay_chef", 0, 1), ("pay_units", 0, 100), ("pay_fresh", 0, 1),
            ("pay_chef_src", -1, T - 1), ("pay_chef_left", 0, 2),
            ("take_mgr", -1, len(self.cs.managers) - 1), ("final_trigger", -1, n - 1), ("turns_left", 0, n),
            ("turn", 0, 10**7), ("over", 0, 1),
        ):
            check_int(getattr(s, name), lo, hi, name)
        # Each ingredient card in exactly one place.
        count = [0] * K
        for pile in (s.deck, s.discard, s.pay_cards, *s.bath_cards):
            for k in pile:
                count[k] += 1
        for k in s.supply:
            if k >= 0:
                count[k] += 1
        for p in range(n):
            for k in range(K):
                count[k] += s.hands[p][k]
        req(count == list(self.cs.kind_counts), "ingredient cards are not conserved (each card must be in exactly one place)")
        # Each guest in exactly one place.
        seen = list(s.guest_deck) + [x for x in s.bath_guest if x >= 0] + [x for c in s.collected for x in c]
        req(sorted(seen) == list(range(len(self.guests))), "guests are not conserved (each guest must be in exactly one place)")
        ints(s.manager_pile, None, 0, len(self.cs.managers) - 1, "manager_pile")
        req(sorted(s.manager_deck + s.manager_pile + [s.manager]) == list(range(len(self.cs.managers))), "managers are not conserved")
        for c in range(5):
            held = sum(1 for p in range(n) if s.tokens[p][c] != TOKEN_NONE)
            req(held + s.token_supply[c] == self.cs.tokens_per_creature, f"favour tokens of creature {c} are not conserved")
        for b in range(nb):
            x = s.bath_guest[b]
            if x >= 0:
                req(not s.bath_dirty[b], f"bath {b} holds a guest but is dirty")
                g = self.guests[x]
                req(all(s.bath_filled[b][t] <= g.needs[t] for t in range(T)), f"bath {b}: more filled than the guest needs")
                if not g.troublesome:
                    req(not any(s.bath_filled[b]) and not s.bath_cards[b], f"bath {b}: a regular guest holds partial treatment")
            else:
                req(not any(s.bath_filled[b]) and not s.bath_cards[b] and s.bath_extra[b] == 0, f"bath {b}: empty bath holds treatment progress")
        for p in range(n):
            b = s.nourish[p]
            if b >= 0:
                x = s.bath_guest[b]
                req(x >= 0 and not self.guests[x].troublesome, f"player {p}'s nourish token is not on a regular guest")
        req(len([b for b in s.nourish if b >= 0]) == len({b for b in s.nourish if b >= 0}), "two nourish tokens on one guest")
        if s.phase == P_PAY:
            req(s.pay_bath >= 0 and s.bath_guest[s.pay_bath] >= 0, "payment phase without a guest being treated")
            req((s.pay_chef_src >= 0) == (s.pay_chef_left > 0), "a Head Chef pair in progress needs its type and units")
            g = self.guests[s.bath_guest[s.pay_bath]]
            left = [g.needs[t] - (s.bath_filled[s.pay_bath][t] if g.troublesome else 0) for t in range(T)]
            req(all(s.pay_need[t] <= left[t] for t in range(T)), f"pay_need {s.pay_need} asks more than the guest still needs {left}")
            owner = self.nourisher(s, s.pay_bath)
            req(g.troublesome or owner in (-1, s.current), f"player {s.current} treats a guest nourished by player {owner}; only the nourisher may")
            # The Tatzelwurm's extra units are set when the treatment starts and only go down.
            tatz = self._adjacent_ability(s, s.pay_bath, TATZELWURM)
            req(s.pay_extra0 == tatz, f"pay_extra0 {s.pay_extra0} is not the {tatz} extra units the adjacent Tatzelwurms ask")
            req(s.pay_extra <= s.pay_extra0, f"pay_extra {s.pay_extra} exceeds the {s.pay_extra0} extra units asked at the start")
        else:
            req(s.pay_bath == -1 and not s.pay_cards and s.pay_chef_left == 0, "treatment fields set outside the payment phase")
        req(bool(s.over) == (s.phase == P_OVER), "over flag and phase disagree")
        # The last round: triggered by a player reaching the threshold (turns_left = n on that
        # turn), one fewer at every turn end, the game over when it reaches 0.
        if s.final_trigger < 0:
            req(s.turns_left == 0, f"turns_left is {s.turns_left} but no last round has been triggered (final_trigger -1)")
        else:
            req(len(s.collected[s.final_trigger]) >= self.threshold, f"final_trigger {s.final_trigger} names a player below {self.threshold} guests")
            req(s.over or s.turns_left >= 1, f"turns_left 0 contradicts final_trigger {s.final_trigger}: a last round under way has a turn left")

    # ------------------------------------------------------ hidden information
    def resample_hidden(self, s: State, observer: int, seed: int | None) -> State:
        """A copy consistent with what ``observer`` sees, with every hidden part redrawn.

        Hidden: other players' hands (sizes are public), the ingredient deck's order, the order of
        the guest deck below its face-up top guest (which stays), the manager deck's order, and the
        future shuffles (the RNG is reseeded). Each hidden pool is sorted before it is shuffled, so the
        result depends only on ``seed`` and what ``observer`` knows. Mid-turn,
        the observer also knows the player to move can go on (e.g. finish a treatment it began),
        so draws that leave the mover without a legal action are rejected; after 100 such draws
        the mover's hand is kept as it is.
        """
        rng = make_rng(seed)
        for attempt in range(101):
            keep_mover = attempt == 100 and s.current != observer
            c = self._redraw(s, observer, rng, keep=s.current if keep_mover else -1)
            c.legal = self._compute_legal(c)
            if c.over or c.legal:
                return c
        raise AssertionError("unreachable: keeping the mover's hand reproduces a legal state")

    def _redraw(self, s: State, observer: int, rng: np.random.Generator, keep: int) -> State:
        c = self.clone(s)
        pool = list(c.deck)
        others = [p for p in range(self.n) if p != observer and p != keep]
        sizes = {}
        for p in others:
            sizes[p] = sum(c.hands[p])
            for k in range(self.K):
                pool.extend([k] * c.hands[p][k])
        # sorted first: the draw then depends on the seed and what the observer knows, never on
        # the hidden order (a search seeded alike decides alike in every world it cannot tell apart)
        pool = sorted(pool)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for p in others:
            hand = [0] * self.K
            for _ in range(sizes[p]):
                hand[pool.pop()] += 1
            c.hands[p] = hand
        c.deck = pool
        if c.guest_deck:  # the top guest lies face up (dirty side) on the deck: only the rest is redrawn
            rest = sorted(c.guest_deck[:-1])
            c.guest_deck = [rest[i] for i in rng.permutation(len(rest))] + [c.guest_deck[-1]]
        manager = sorted(c.manager_deck)
        c.manager_deck = [manager[i] for i in rng.permutation(len(manager))]
        c.rng = make_rng(int(rng.integers(2**63)))
        return c
