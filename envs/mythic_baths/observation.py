"""Mythic Baths observation encoding: what one seat may see, as one float32 vector.

Seats are relative: index 0 is the observer, 1 the player on their left, and so on, so one
network plays every seat. Sizes are those of 5 players for every player count (absent seats
and baths are zero with their ``present`` flag off). Other players' hands appear only as
sizes; the decks appear only as sizes; the discard pile is face up and appears in full.
Values are scaled to roughly [0, 1] by the constants below.
"""

from __future__ import annotations

import struct

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
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
PAY_FIELDS = ("extra_left", "surplus", "modified", "token_used", "amber_used", "fire_used", "chef_used", "fresh", "units")


def bath_fields(cs: CardSet) -> tuple[str, ...]:
    """Names of one bath row: flags, the guest's creature, its remaining needs, who nourishes it."""
    return (
        BATH_FIELDS
        + tuple(f"creature_{c}" for c in CREATURES)
        + tuple(f"needs_{i}" for i in cs.ingredients)
        + tuple(f"nourished_by_seat+{r}" for r in range(MAX_SEATS))
    )


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
        ]
    )


class MythicBathsObserver:
    """Fills a seat's observation vector in place; the same layout for every seat.

    Speed: :meth:`encode_list` builds the vector as a Python list (the definition); the env's
    :meth:`observation` joins packed pieces with the same float32 values: precomputed one-hot rows,
    only the numbers packed. Each guest's static bath row (flags, creature, needs) is precomputed,
    so a bath costs one slice copy.
    """

    def __deepcopy__(self, memo: dict) -> "MythicBathsObserver":
        """Static tables, never mutated: a deep copy of an env shares them."""
        return self

    def __init__(self, rules: MythicBathsRules):
        self.rules = rules
        cs = rules.cs
        self._layout = build_layout(rules)
        self.o = {p.name: p.offset for p in self._layout.pieces}
        o = self.o  # offsets as attributes: the hot path avoids dict lookups
        self.o_phase, self.o_game, self.o_hand, self.o_discard, self.o_manager = (
            o["phase"], o["game"], o["hand"], o["discard_pile"], o["manager"])
        self.seat_w = len(SEAT_FIELDS) + len(TOKEN_FIELDS)
        self.supply_bases = [o["supply"] + i * cs.num_kinds for i in range(SUPPLY_SIZE)]
        self.seat_bases = [o["seat"] + r * self.seat_w for r in range(MAX_SEATS)]
        self.bath_w = len(bath_fields(cs))
        T, G = cs.num_types, len(rules.guests)
        self.f_creature = len(BATH_FIELDS)
        self.f_needs = self.f_creature + len(CREATURES)
        self.f_nourish = self.f_needs + T
        # One precomputed row per guest (as it sits in a clean bath, untreated).
        table = np.zeros((G, self.bath_w), dtype=np.float32)
        for g in rules.guests:
            row = table[g.gid]
            row[0] = row[2] = 1.0
            row[3] = float(g.troublesome)
            row[4] = g.amber / 10.0
            row[self.f_creature + g.creature] = 1.0
            row[self.f_needs : self.f_needs + T] = np.asarray(g.needs, dtype=np.float32) / 3.0
        self.bath_rows = [row.tolist() for row in table[:G]]
        self.trouble_of = [g.troublesome for g in rules.guests]
        self.size = self._layout.size
        self._make_packers()
        self.amber_of = [g.amber for g in rules.guests]
        self.is_jackalope = [g.creature == JACKALOPE for g in rules.guests]
        self.needs_of = [g.needs for g in rules.guests]
        # Packed one-hot rows for the byte-built head (:meth:`_head_bytes`).
        K, L = cs.num_kinds, self._layout

        def onehot(n: int, i: int) -> bytes:
            v = [0.0] * n
            if i >= 0:
                v[i] = 1.0
            return struct.pack(f"<{n}f", *v)

        self.phase_rows = [onehot(L.by_name["phase"].size, i) for i in range(L.by_name["phase"].size)]
        self.supply_rows = [onehot(K, k) for k in range(K)] + [onehot(K, -1)]  # index -1: an empty slot
        self.manager_rows = [onehot(L.by_name["manager"].size, i) for i in range(L.by_name["manager"].size)]
        self.absent_seats = bytes(4 * self.seat_w * (MAX_SEATS - rules.n))
        self.zero_tail = bytes(4 * self.tail_size)
        self.token_rows: dict[tuple[int, ...], bytes] = {}  # bounded: 3 states per creature
        names = [p.name for p in L.pieces]
        assert names[: names.index("bath")] == ["phase", "game", "hand", "supply", "discard_pile", "manager", "seat"]
        assert L.by_name["game"].size == 10 and self.seat_w == 8 + 2 * len(CREATURES)

    def __getstate__(self) -> dict:
        """Pickling: a compiled ``struct.Struct`` cannot be pickled, so it is rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.endswith("_packer")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_packers()

    def _make_packers(self) -> None:
        # The vector is head (before the baths) + bath rows + tail (the treatment in progress); the
        # layout declares the baths between seat and pay_bath, and the asserts keep it so.
        L = self._layout
        self.head_size = L.offset("bath")
        self.tail_size = L.size - L.offset("pay_bath")
        assert L.offset("pay_bath") == self.head_size + L.by_name["bath"].size
        self._game_packer = struct.Struct("<10f")
        self._kinds_packer = struct.Struct(f"<{self.rules.K}f")
        self._seat_packer = struct.Struct("<8f")
        self._discard_key: tuple | None = None  # the state's discard_counts tuple last packed, and its bytes
        self._discard_bytes = b""
        self._bath_packer = struct.Struct(f"<{L.by_name['bath'].size}f")
        self._tail_packer = struct.Struct(f"<{self.tail_size}f")
        self.nbytes = 4 * L.size

    def layout(self, seat: int) -> ObservationLayout:
        """Every seat shares one layout."""
        return self._layout

    def bath_block(self, s: State, seat: int) -> list[float]:
        """The bath rows of ``seat``'s view: each guest's precomputed row, then what changed."""
        R, T, n = self.rules, self.rules.T, self.rules.n
        bw = self.bath_w
        v = [0.0] * (MAX_BATHS * bw)  # slots beyond this game's baths stay zero (present = 0)
        table, trouble = self.bath_rows, self.trouble_of
        tatz, owl, sea = R.adjacency(s)
        fneeds = self.f_needs
        for b, x in enumerate(s.bath_guest):
            base = b * bw
            if x < 0:
                v[base] = 1.0
                if s.bath_dirty[b]:
                    v[base + 1] = 1.0
            else:
                v[base : base + bw] = table[x]
                if trouble[x] and (s.bath_cards[b] or s.bath_extra[b] or any(s.bath_filled[b])):
                    filled, needs = s.bath_filled[b], self.needs_of[x]
                    v[base + 8] = 1.0
                    v[base + 9] = len(s.bath_cards[b]) / 6.0
                    v[base + 10] = float(s.bath_extra[b])
                    v[base + fneeds : base + fneeds + T] = [(needs[t] - filled[t]) / 3.0 for t in range(T)]
            if tatz[b]:
                v[base + 5] = float(tatz[b])
            if owl[b]:
                v[base + 6] = float(owl[b])
            if sea[b]:
                v[base + 7] = float(sea[b])
        fn = self.f_nourish
        for p in range(n):
            b = s.nourish[p]
            if b >= 0:
                v[b * bw + fn + (p - seat) % n] = 1.0
        return v

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out`` (every entry is overwritten)."""
        out[:] = self.observation(s, seat)

    def observation(self, s: State, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new (writable) float32 vector.

        Built as bytes joined from pieces: before the baths, precomputed one-hot rows and packed
        numbers (:meth:`_head_bytes`; ``struct`` is 2x faster than ``np.array(list)``), then the bath
        rows packed from the cache, and the payment part, packed only while a treatment is in progress."""
        parts = self._head_bytes(s, seat)
        parts.append(self._baths(s, seat)[1])
        parts.append(self._tail_packer.pack(*self._tail(s)) if s.pay_bath >= 0 else self.zero_tail)
        return np.frombuffer(bytearray().join(parts), np.float32)

    def encode_list(self, s: State, seat: int) -> list[float]:
        """``seat``'s view of ``s`` as a Python list (the same values as :meth:`observation`)."""
        return self._head(s, seat) + self._baths(s, seat)[0] + self._tail(s)

    def _baths(self, s: State, seat: int) -> tuple[list[float], bytes]:
        """The bath rows, rebuilt only when the rules say a bath changed (``bath_version``)."""
        cache = s.obs_cache
        if cache is None:
            cache = s.obs_cache = {}
        hit = cache.get(seat)
        if hit is None or hit[0] != s.bath_version:
            rows = self.bath_block(s, seat)
            hit = cache[seat] = (s.bath_version, rows, self._bath_packer.pack(*rows))
        return hit[1], hit[2]

    def _head(self, s: State, seat: int) -> list[float]:
        """Everything before the baths: phase, game, hand, supply, discard pile, manager, seats."""
        n, K = self.rules.n, self.rules.K
        v = [0.0] * self.head_size
        v[self.o_phase + s.phase] = 1.0
        g = self.o_game
        v[g : g + 10] = (
            n / 5.0, s.turn / 200.0, s.final_trigger >= 0, s.turns_left / 5.0, len(s.deck) / 50.0,
            len(s.discard) / 50.0, len(s.guest_deck) / 45.0, len(s.manager_deck) / 10.0, s.main_done, s.bonus_done,
        )
        h = self.o_hand
        v[h : h + K] = map(THIRDS.__getitem__, s.hands[seat])
        for base, k in zip(self.supply_bases, s.supply):
            if k >= 0:
                v[base + k] = 1.0
        counts = s.discard_counts  # recounted only when the rules changed the pile (discard_version)
        if counts is None or counts[0] != s.discard_version:
            pile = [0.0] * K
            for k in s.discard:
                pile[k] += 0.2
            counts = s.discard_counts = (s.discard_version, pile)
        d = self.o_discard
        v[d : d + K] = counts[1]
        v[self.o_manager + s.manager] = 1.0
        # Seats, relative to the observer (bools and ints pack as 0/1 floats).
        amber_of, is_jack = self.amber_of, self.is_jackalope
        mover = -1 if s.over else s.current
        for base, p in zip(self.seat_bases, range(seat, seat + n)):
            p %= n
            col = s.collected[p]
            v[base : base + 8] = (
                1.0, sum(s.hands[p]) / 6.0, s.amber[p] / AMBER_SCALE, len(col) / 8.0,
                sum(map(amber_of.__getitem__, col)) / AMBER_SCALE, p == mover, p == s.final_trigger,
                sum(map(is_jack.__getitem__, col)) / 3.0,
            )
            tokens = s.tokens[p]
            if any(tokens):
                for c, t in enumerate(tokens):
                    if t:
                        v[base + 8 + 2 * c + (t == TOKEN_USED)] = 1.0
        return v

    def _head_bytes(self, s: State, seat: int) -> list[bytes]:
        """:meth:`_head` as packed pieces (the same float32 values): one-hot pieces are precomputed
        rows, only the numbers are packed."""
        n = self.rules.n
        game = self._game_packer.pack(
            n / 5.0, s.turn / 200.0, s.final_trigger >= 0, s.turns_left / 5.0, len(s.deck) / 50.0,
            len(s.discard) / 50.0, len(s.guest_deck) / 45.0, len(s.manager_deck) / 10.0, s.main_done, s.bonus_done,
        )
        sup = self.supply_rows
        parts = [self.phase_rows[s.phase], game, self._kinds_packer.pack(*map(THIRDS.__getitem__, s.hands[seat]))]
        parts += [sup[k] for k in s.supply]
        counts = s.discard_counts  # recounted only when the rules changed the pile (discard_version)
        if counts is None or counts[0] != s.discard_version:
            pile = [0.0] * self.rules.K
            for k in s.discard:
                pile[k] += 0.2
            counts = s.discard_counts = (s.discard_version, pile)
        if counts is not self._discard_key:  # the tuple is kept, so its identity is never reused while cached
            self._discard_bytes = self._kinds_packer.pack(*counts[1])
            self._discard_key = counts
        parts.append(self._discard_bytes)
        parts.append(self.manager_rows[s.manager])
        amber_of, is_jack, pack, token_rows = self.amber_of, self.is_jackalope, self._seat_packer.pack, self.token_rows
        mover = -1 if s.over else s.current
        for p in range(seat, seat + n):
            p %= n
            col = s.collected[p]
            parts.append(pack(
                1.0, sum(s.hands[p]) / 6.0, s.amber[p] / AMBER_SCALE, len(col) / 8.0,
                sum(map(amber_of.__getitem__, col)) / AMBER_SCALE, p == mover, p == s.final_trigger,
                sum(map(is_jack.__getitem__, col)) / 3.0,
            ))
            key = tuple(s.tokens[p])
            row = token_rows.get(key)
            if row is None:
                v = [0.0] * (2 * len(key))
                for c, tok in enumerate(key):
                    if tok:
                        v[2 * c + (tok == TOKEN_USED)] = 1.0
                row = token_rows[key] = struct.pack(f"<{len(v)}f", *v)
            parts.append(row)
        parts.append(self.absent_seats)
        return parts

    def _tail(self, s: State) -> list[float]:
        """The treatment in progress (all zero outside the payment phase)."""
        v = [0.0] * self.tail_size
        if s.pay_bath >= 0:
            T, base = self.rules.T, self.o["pay_bath"]
            v[s.pay_bath] = 1.0
            pn = self.o["pay_need"] - base
            v[pn : pn + T] = [c / 3.0 for c in s.pay_need]
            pf = self.o["pay"] - base
            v[pf : pf + 9] = (
                float(s.pay_extra), float(s.pay_surplus > 0), float(s.pay_modified), float(s.pay_token), float(s.pay_amber),
                float(s.pay_fire), float(s.pay_chef), float(s.pay_fresh), s.pay_units / 6.0,
            )
        return v
