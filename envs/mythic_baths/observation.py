"""Mythic Baths observation encoding: what one seat may see, as one float32 vector.

Seats are relative: index 0 is the observer, 1 the player on their left, and so on, so one
network plays every seat. Sizes are those of 5 players for every player count (absent seats
and baths are zero with their ``present`` flag off). Other players' hands appear only as
sizes; the decks appear only as sizes, except the guest deck's top card, which lies face up
(dirty side: name, needs, banner); the discard pile, the ingredient cards lying on partly treated
troublesome guests and the replaced managers are face up and appear in full.
Values are scaled to roughly [0, 1] by the constants below. :func:`build_layout` declares every
piece once; the docs' table, the feature names and the encoder's offsets all come from it.
"""

from __future__ import annotations

import struct

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout, write_bytes
from mythzoo.envs.mythic_baths.actions import MAX_BATHS, SUPPLY_SIZE
from mythzoo.envs.mythic_baths.cards import CREATURES, CardSet
from mythzoo.envs.mythic_baths.rules import JACKALOPE, PHASE_NAMES, TOKEN_USED, MythicBathsRules, State

MAX_SEATS = 5
AMBER_SCALE = 30.0
THIRDS = [c / 3.0 for c in range(64)]  # hand counts scaled by 1/3, looked up instead of divided
SEAT_FIELDS = ("present", "hand_size", "amber", "guests", "guest_amber", "to_move", "started_last_round", "jackalopes")
TOKEN_FIELDS = tuple(f"{c}_{state}" for c in CREATURES for state in ("active", "used"))
BATH_FIELDS = (
    "present", "dirty", "has_guest", "troublesome", "amber", "extra_required", "owlbear_adjacent",
    "sea_lion_adjacent", "partially_treated", "cards_on_guest", "extra_provided",
)
GAME_FIELDS = (
    "players", "turn", "last_round", "turns_left", "deck_size", "discard_size", "guest_deck_size",
    "manager_deck_size", "main_done", "bonus_done",
)
MEMO_LIMIT = 4096  # entries a value memo may hold before it starts again (a memo only saves work)
TOP_GUEST_FIELDS = ("present", "troublesome", "amber")
PAY_FIELDS = ("extra_left", "surplus", "modified", "token_used", "amber_used", "fire_used", "chef_used", "fresh", "units")


def bath_fields(cs: CardSet) -> tuple[str, ...]:
    """Names of one bath row: flags, the guest's creature, its remaining needs, who nourishes it."""
    return (
        BATH_FIELDS
        + tuple(f"creature_{c}" for c in CREATURES)
        + tuple(f"needs_{i}" for i in cs.ingredients)
        + tuple(f"nourished_by_seat+{r}" for r in range(MAX_SEATS))
    )


def top_fields(cs: CardSet) -> tuple[str, ...]:
    """Names of the top-guest piece: flags and amber, the creature, the needs."""
    return TOP_GUEST_FIELDS + tuple(f"creature_{c}" for c in CREATURES) + tuple(f"needs_{i}" for i in cs.ingredients)


def build_layout(rules: MythicBathsRules) -> ObservationLayout:
    """The one declaration of the observation: every size, name and doc derives from it."""
    cs = rules.cs
    ing, kinds = list(cs.ingredients), [cs.kind_label(k) for k in range(cs.num_kinds)]
    seats = [f"seat+{i}" for i in range(MAX_SEATS)]
    baths = [f"bath{b}" for b in range(MAX_BATHS)]
    bf = bath_fields(cs)
    return ObservationLayout(
        [
            ("phase", (len(PHASE_NAMES),), "One-hot decision phase of the player to move.", [PHASE_NAMES]),
            ("game", (len(GAME_FIELDS),), "Players/5, turn/200, last round started, turns left in it/5, deck, discard, guest deck and manager deck sizes (/50, /50, /45, /10), main action done, bonus done.", [GAME_FIELDS]),
            ("hand", (cs.num_kinds,), "Own hand: cards of each kind (/3).", [kinds]),
            ("supply", (SUPPLY_SIZE, cs.num_kinds), "One-hot kind of the card in each supply slot.", [[f"slot{i}" for i in range(SUPPLY_SIZE)], kinds]),
            ("discard_pile", (cs.num_kinds,), "Face-up discard pile: cards of each kind (/5).", [kinds]),
            ("manager", (len(cs.managers),), "One-hot active manager (by effect, in card-set order).", [list(cs.managers)]),
            ("seat", (MAX_SEATS, len(SEAT_FIELDS) + len(TOKEN_FIELDS)), "Per relative seat (0 = you, 1 = on your left, ...): present, hand size/6, amber/30, guests/8, amber on guests/30, to move, started the last round, Jackalopes collected/3; then per creature: favour token active, favour token used.", [seats, SEAT_FIELDS + TOKEN_FIELDS]),
            ("bath", (MAX_BATHS, len(bf)), "Per bath: present, dirty, has a guest, troublesome, guest amber/10, extra ingredients required (Tatzelwurm), Owlbear adjacent, Sea-Lion adjacent, partially treated, cards on guest/6, extra provided; one-hot creature (the ability for troublesome guests); ingredients still needed per type (/3); one-hot relative seat of the nourish token.", [baths, bf]),
            ("pay_bath", (MAX_BATHS,), "One-hot bath being treated (payment phase).", [baths]),
            ("pay_need", (cs.num_types,), "Ingredients still to provide in the treatment in progress (/3).", [ing]),
            ("pay", (len(PAY_FIELDS),), "Treatment in progress: extra left, surplus given, non-exact effect used, Tatzelwurm token used, amber used, Fire Mage used, Head Chef used, fresh (no earlier partial), units filled/6.", [PAY_FIELDS]),
            ("pay_chef_pair", (cs.num_types,), "Head Chef pair declared and not yet paid: units of its ingredient still to pay (/2), at that ingredient.", [ing]),
            ("guest_deck_top", (len(top_fields(cs)),), "The guest deck's top card, face up (dirty side): present, troublesome, amber/10; one-hot creature (the ability for a troublesome guest); ingredients it needs per type (/3).", [top_fields(cs)]),
            ("bath_cards", (MAX_BATHS, cs.num_kinds), "Per bath: ingredient cards of each kind lying face up on its partly treated troublesome guest (/3).", [baths, kinds]),
            ("managers_gone", (len(cs.managers),), "Replaced managers, face up under the active one (by effect, in card-set order).", [list(cs.managers)]),
        ]
    )


class MythicBathsObserver:
    """Fills a seat's observation vector; the same layout for every seat.

    Speed: :meth:`observation` joins packed blocks in layout order: precomputed one-hot rows, the
    numbers packed with ``struct``, zeros where a piece is empty (absent seats, no treatment in
    progress). What changes rarely is kept between calls: each seat's bath piece, the discard
    pile's counts, each seat's own hand and what each player's guests give. Every cache entry
    holds copies of the state values it was built from and is reused only while they are equal,
    so any state (a clone, one restored by ``set_state``, a hand-edited one) gets exactly what a
    fresh encoding gives, with nothing to invalidate. Rebuilding is cheap too: single bath rows
    and favour-token flags are memoized by the values they show. The caches live here, never in
    the state, and are not pickled. The definition to check against is the test oracle
    ``tests/oracles/mythic_baths.py``.
    """

    def __deepcopy__(self, memo: dict) -> MythicBathsObserver:
        """Static tables and value-keyed caches: a deep copy of an env shares them."""
        return self

    def __init__(self, rules: MythicBathsRules):
        self.rules = rules
        self.n = rules.n
        cs = rules.cs
        self._layout = L = build_layout(rules)
        self.size = L.size
        self.nbytes = 4 * L.size
        K, T, G = cs.num_kinds, cs.num_types, len(rules.guests)
        # The vector is made of blocks joined in layout order: one per piece, except one per supply
        # slot and two per present seat (its fields, its favour tokens). ``blank`` holds every block's
        # zeros; ``at[piece]`` is the index of a piece's first block. Where each block lands is the
        # layout's offset of its piece (checked below), never an offset of our own.
        seat_w = L.by_name["seat"].shape[1]
        self.token_w = seat_w - len(SEAT_FIELDS)  # a seat row: SEAT_FIELDS, then TOKEN_FIELDS
        blocks: list[int] = []  # floats per block
        at: dict[str, int] = {}
        for p in L.pieces:
            at[p.name] = len(blocks)
            if p.name == "supply":
                blocks += [K] * SUPPLY_SIZE
            elif p.name == "seat":
                blocks += [len(SEAT_FIELDS), self.token_w] * rules.n + [seat_w * (MAX_SEATS - rules.n)]
            else:
                blocks.append(p.size)
        self.blank = [bytes(4 * w) for w in blocks]
        assert [4 * sum(blocks[: at[p.name]]) for p in L.pieces] == [4 * p.offset for p in L.pieces] and sum(blocks) == L.size
        self.i_phase, self.i_game, self.i_hand, self.i_supply, self.i_discard, self.i_manager = (
            at["phase"], at["game"], at["hand"], at["supply"], at["discard_pile"], at["manager"])
        self.i_seat, self.i_bath, self.i_pay_bath, self.i_pay_need, self.i_pay = at["seat"], at["bath"], at["pay_bath"], at["pay_need"], at["pay"]
        self.i_supply_end = self.i_supply + SUPPLY_SIZE
        self.i_chef, self.i_top, self.i_bath_cards, self.i_gone = at["pay_chef_pair"], at["guest_deck_top"], at["bath_cards"], at["managers_gone"]
        assert len(GAME_FIELDS) == L.by_name["game"].size and len(PAY_FIELDS) == L.by_name["pay"].size
        # Packed one-hot rows, built from the layout: a view of a zero vector with one entry set.

        def onehot(piece: str, *index: int) -> bytes:
            v = np.zeros(L.size, dtype=np.float32)
            p = L.by_name[piece]
            if index:
                L.views(v)[piece][index] = 1.0
            return v[p.offset : p.offset + p.size].tobytes()

        def first_row(piece: str, width: int, *index: int) -> bytes:
            """Row 0 of a 2-d piece (``width`` floats), with one entry set if ``index`` is given."""
            return onehot(piece, *index)[: 4 * width]

        self.phase_rows = [onehot("phase", i) for i in range(L.by_name["phase"].size)]
        self.manager_rows = [onehot("manager", i) for i in range(L.by_name["manager"].size)]
        self.pay_bath_rows = [onehot("pay_bath", b) for b in range(MAX_BATHS)]
        self.supply_rows = [first_row("supply", K, 0, k) for k in range(K)] + [first_row("supply", K)]  # index -1: an empty slot
        # Bath rows: field indices by name.
        bf = bath_fields(cs)
        self.bath_w = bw = len(bf)
        self.absent_baths = bytes(4 * bw * (MAX_BATHS - rules.num_baths))  # baths beyond this game's (present = 0)
        f = bf.index
        self.f_present, self.f_dirty, self.f_partial, self.f_cards, self.f_extra = (
            f("present"), f("dirty"), f("partially_treated"), f("cards_on_guest"), f("extra_provided"))
        self.f_tatz, self.f_owl, self.f_sea = f("extra_required"), f("owlbear_adjacent"), f("sea_lion_adjacent")
        self.f_needs, self.f_nourish = f(f"needs_{cs.ingredients[0]}"), f("nourished_by_seat+0")
        # One precomputed row per guest (as it sits in a clean bath, untreated).
        table = np.zeros((G, bw), dtype=np.float32)
        for g in rules.guests:
            row = table[g.gid]
            row[f("present")] = row[f("has_guest")] = 1.0
            row[f("troublesome")] = float(g.troublesome)
            row[f("amber")] = g.amber / 10.0
            row[f(f"creature_{CREATURES[g.creature]}")] = 1.0
            row[self.f_needs : self.f_needs + T] = np.asarray(g.needs, dtype=np.float32) / 3.0
        self.bath_rows = [row.tolist() for row in table]
        # The top guest's piece, one packed row per guest.
        tf = top_fields(cs)
        top = np.zeros((G, len(tf)), dtype=np.float32)
        for g in rules.guests:
            row = top[g.gid]
            row[tf.index("present")] = 1.0
            row[tf.index("troublesome")] = float(g.troublesome)
            row[tf.index("amber")] = g.amber / 10.0
            row[tf.index(f"creature_{CREATURES[g.creature]}")] = 1.0
            n0 = tf.index(f"needs_{cs.ingredients[0]}")
            row[n0 : n0 + T] = np.asarray(g.needs, dtype=np.float32) / 3.0
        self.top_rows = [row.tobytes() for row in top]
        self.K = K
        self.trouble_of = [g.troublesome for g in rules.guests]
        self.needs_of = [g.needs for g in rules.guests]
        self.amber_of = [g.amber for g in rules.guests]
        self.is_jackalope = [g.creature == JACKALOPE for g in rules.guests]
        self._make_packers()
        self._clear_caches()

    def __getstate__(self) -> dict:
        """Pickling: the compiled ``struct.Struct`` and the caches are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.endswith(("_packer", "_cache", "_memo"))}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_packers()
        self._clear_caches()

    def _make_packers(self) -> None:
        L, K = self._layout, self.rules.K
        self._game_packer = struct.Struct(f"<{L.by_name['game'].size}f")
        self._kinds_packer = struct.Struct(f"<{K}f")
        self._seat_packer = struct.Struct(f"<{len(SEAT_FIELDS)}f")
        self._row_packer = struct.Struct(f"<{self.bath_w}f")
        self._need_packer = struct.Struct(f"<{L.by_name['pay_need'].size}f")
        self._pay_packer = struct.Struct(f"<{L.by_name['pay'].size}f")

    def _clear_caches(self) -> None:
        # Each entry keeps copies of the state values it was built from, then what they give.
        self._bath_cache: dict[int, tuple] = {}  # seat -> (guests, dirt, nourish, progress, packed piece): see _baths
        self._hand_cache: dict[int, tuple[list[int], bytes]] = {}  # seat -> (its hand, packed)
        self._guests_cache: dict[int, tuple] = {}  # player -> (collected guests, their seat fields), see _guest_values
        self._discard_cache: tuple | None = None  # (discard pile, counts per kind, packed): see _discard
        self._token_memo: dict[tuple[int, ...], bytes] = {}  # a seat's token states -> packed flags (3^5 at most)
        self._bath_row_memo: dict[tuple, bytes] = {}  # what a bath row shows -> packed row, see _baths

    def layout(self, seat: int) -> ObservationLayout:
        """Every seat shares one layout."""
        return self._layout

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out`` (every entry is overwritten): the joined bytes go
        straight into a contiguous float32 row, without a temporary array."""
        write_bytes(self._bytes(s, seat), out)

    def observation(self, s: State, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new (writable) float32 vector."""
        return np.frombuffer(self._bytes(s, seat), np.float32)

    def _bytes(self, s: State, seat: int) -> bytearray:
        """``seat``'s view of ``s`` as the float32 vector's bytes (joined from the cached blocks)."""
        n = self.n
        parts = self.blank.copy()  # the blocks in layout order, zeros unless set
        parts[self.i_phase] = self.phase_rows[s.phase]
        parts[self.i_game] = self._game_packer.pack(  # GAME_FIELDS, in their order
            n / 5.0, s.turn / 200.0, s.final_trigger >= 0, s.turns_left / 5.0, len(s.deck) / 50.0,
            len(s.discard) / 50.0, len(s.guest_deck) / 45.0, len(s.manager_deck) / 10.0, s.main_done, s.bonus_done,
        )
        hand = s.hands[seat]
        cached = self._hand_cache.get(seat)
        if cached is None or cached[0] != hand:
            cached = self._hand_cache[seat] = (list(hand), self._kinds_packer.pack(*map(THIRDS.__getitem__, hand)))
        parts[self.i_hand] = cached[1]
        sup = self.supply_rows
        parts[self.i_supply : self.i_supply_end] = [sup[k] for k in s.supply]
        cached = self._discard_cache
        if cached is None or cached[0] != s.discard:
            cached = self._discard(s.discard, cached)
        parts[self.i_discard] = cached[2]
        parts[self.i_manager] = self.manager_rows[s.manager]
        # Seats, relative to the observer (bools and ints pack as 0/1 floats). What a player's guests
        # give (count, amber, Jackalopes) is kept per player with the guests it was counted from.
        mover = -1 if s.over else s.current
        guests, pack, tokens_row = self._guests_cache, self._seat_packer.pack, self._tokens_row
        i = self.i_seat
        for p in range(seat, seat + n):
            p %= n
            col = s.collected[p]
            g = guests.get(p)
            if g is None or g[0] != col:
                g = guests[p] = self._guest_values(col)
            parts[i] = pack(  # SEAT_FIELDS, in their order
                1.0, sum(s.hands[p]) / 6.0, s.amber[p] / AMBER_SCALE, g[1], g[2], p == mover, p == s.final_trigger, g[3])
            tokens = s.tokens[p]
            if any(tokens):
                parts[i + 1] = tokens_row(tokens)
            i += 2
        c = self._bath_cache.get(seat)  # the bath rows: see _baths
        if c is None or c[0] != s.bath_guest or c[1] != s.bath_dirty or c[2] != s.nourish:
            c = self._baths(s, seat)
        else:
            for b, filled, cards, extra in c[3]:  # the progress on troublesome guests
                if s.bath_filled[b] != filled or len(s.bath_cards[b]) != cards or s.bath_extra[b] != extra:
                    c = self._baths(s, seat)
                    break
        parts[self.i_bath] = c[4]
        if s.pay_bath >= 0:
            self._pay_parts(parts, s)
        if s.guest_deck:
            parts[self.i_top] = self.top_rows[s.guest_deck[-1]]
        if any(s.bath_cards):
            parts[self.i_bath_cards] = self._bath_cards(s.bath_cards)
        if s.manager_pile:
            v = [0.0] * len(self.rules.cs.managers)
            for m in s.manager_pile:
                v[m] = 1.0
            parts[self.i_gone] = struct.pack(f"<{len(v)}f", *v)
        return bytearray().join(parts)

    # ------------------------------------------------------------------ pieces
    def _guest_values(self, col: list[int]) -> tuple[list[int], float, float, float]:
        """(a copy of) a player's collected guests, then their seat fields: guests/8, amber on them/30, Jackalopes/3."""
        return (list(col), len(col) / 8.0, sum(map(self.amber_of.__getitem__, col)) / AMBER_SCALE,
                sum(map(self.is_jackalope.__getitem__, col)) / 3.0)

    def _discard(self, discard: list[int], old: tuple | None) -> tuple:
        """The discard cache entry for ``discard``: (a copy of the pile, counts per kind, packed
        counts/5). A pile that only grew since ``old`` (checked card by card) adds its new cards to
        the old counts; any other change counts again."""
        if old is not None and len(discard) > len(old[0]) and discard[: len(old[0])] == old[0]:
            counts = list(old[1])
            for k in discard[len(old[0]) :]:
                counts[k] += 1
        else:
            counts = [0] * self.rules.K
            for k in discard:
                counts[k] += 1
        self._discard_cache = entry = (list(discard), counts, self._kinds_packer.pack(*[c / 5.0 for c in counts]))
        return entry

    def _tokens_row(self, tokens: list[int]) -> bytes:
        """A seat's favour-token flags (active, used per creature: the TOKEN_FIELDS after a seat's
        SEAT_FIELDS), packed; memoized by value."""
        key = tuple(tokens)
        row = self._token_memo.get(key)
        if row is None:
            v = [0.0] * (2 * len(key))
            for c, tok in enumerate(key):
                if tok:
                    v[2 * c + (tok == TOKEN_USED)] = 1.0
            row = self._token_memo[key] = struct.pack(f"<{len(v)}f", *v)
        return row

    def _bath_cards(self, bath_cards: list[list[int]]) -> bytes:
        """The ``bath_cards`` piece, packed: counts per kind on each bath's guest (/3); absent baths zero."""
        counts = [0] * (MAX_BATHS * self.K)
        for b, pile in enumerate(bath_cards):
            for k in pile:
                counts[b * self.K + k] += 1
        return struct.pack(f"<{len(counts)}f", *[c / 3.0 for c in counts])

    def _pay_parts(self, parts: list[bytes], s: State) -> None:
        """The treatment in progress (the blank zeros stay outside the payment phase)."""
        parts[self.i_pay_bath] = self.pay_bath_rows[s.pay_bath]
        parts[self.i_pay_need] = self._need_packer.pack(*[c / 3.0 for c in s.pay_need])
        parts[self.i_pay] = self._pay_packer.pack(  # PAY_FIELDS, in their order
            float(s.pay_extra), float(s.pay_surplus > 0), float(s.pay_modified), float(s.pay_token), float(s.pay_amber),
            float(s.pay_fire), float(s.pay_chef), float(s.pay_fresh), s.pay_units / 6.0,
        )
        if s.pay_chef_left:
            v = [0.0] * self.rules.T
            v[s.pay_chef_src] = s.pay_chef_left / 2.0
            parts[self.i_chef] = struct.pack(f"<{len(v)}f", *v)

    def _baths(self, s: State, seat: int) -> tuple:
        """Rebuild ``seat``'s bath cache entry: copies of every value the bath rows are read from (the
        baths' guests, hence adjacency; dirt; nourish tokens; per troublesome guest, its bath and
        the progress on it: units filled, cards on it, extra provided), then the packed ``bath`` piece. :meth:`observation` reuses the entry while those values are
        equal. Each bath's row is looked up by what it shows (guest, dirt, adjacent abilities, the
        relative seats of the nourish tokens on it); only a troublesome guest with progress on it
        is packed afresh."""
        trouble = self.trouble_of
        progress = tuple((b, list(s.bath_filled[b]), len(s.bath_cards[b]), s.bath_extra[b])
                         for b, x in enumerate(s.bath_guest) if x >= 0 and trouble[x])
        tatz, owl, sea = self.rules.adjacency(s)
        n = self.n
        tokens_on: list[tuple[int, ...]] = [()] * len(s.bath_guest)
        for p, b in enumerate(s.nourish):
            if b >= 0:
                tokens_on[b] += ((p - seat) % n,)
        memo, row = self._bath_row_memo, self._bath_row
        rows = []
        for b, x in enumerate(s.bath_guest):
            if x >= 0 and trouble[x] and (s.bath_cards[b] or s.bath_extra[b] or any(s.bath_filled[b])):
                rows.append(row(s, b, x, tatz[b], owl[b], sea[b], tokens_on[b]))  # progress shown: not memoized
                continue
            key = (x, s.bath_dirty[b], tatz[b], owl[b], sea[b], tokens_on[b])
            packed = memo.get(key)
            if packed is None:
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                packed = memo[key] = row(s, b, x, tatz[b], owl[b], sea[b], tokens_on[b])
            rows.append(packed)
        rows.append(self.absent_baths)
        c = self._bath_cache[seat] = (list(s.bath_guest), list(s.bath_dirty), list(s.nourish), progress, b"".join(rows))
        return c

    def _bath_row(self, s: State, b: int, x: int, tatz: int, owl: int, sea: int, tokens_on: tuple[int, ...]) -> bytes:
        """Bath ``b``'s row, packed: the guest's precomputed row (or an empty bath's), its progress
        if it is a troublesome guest with some, the adjacent abilities and the nourish tokens (by
        relative seat)."""
        bw = self.bath_w
        if x < 0:
            v = [0.0] * bw
            v[self.f_present] = 1.0
            if s.bath_dirty[b]:
                v[self.f_dirty] = 1.0
        else:
            v = list(self.bath_rows[x])
            if self.trouble_of[x] and (s.bath_cards[b] or s.bath_extra[b] or any(s.bath_filled[b])):
                filled, needs, T, fneeds = s.bath_filled[b], self.needs_of[x], self.rules.T, self.f_needs
                v[self.f_partial] = 1.0
                v[self.f_cards] = len(s.bath_cards[b]) / 6.0
                v[self.f_extra] = float(s.bath_extra[b])
                v[fneeds : fneeds + T] = [(needs[t] - filled[t]) / 3.0 for t in range(T)]
        if tatz:
            v[self.f_tatz] = float(tatz)
        if owl:
            v[self.f_owl] = float(owl)
        if sea:
            v[self.f_sea] = float(sea)
        for r in tokens_on:
            v[self.f_nourish + r] = 1.0
        return self._row_packer.pack(*v)
