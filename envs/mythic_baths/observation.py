"""Mythic Baths observation encoding: what one seat may see, as one float32 vector.

Seats are relative: index 0 is the observer, 1 the player on their left, and so on, so one
network plays every seat. Sizes are those of 5 players for every player count (absent seats
and baths are zero with their ``present`` flag off). Other players' hands appear only as
sizes; the decks appear only as sizes; the discard pile is face up and appears in full.
Values are scaled to roughly [0, 1] by the constants below.
"""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.mythic_baths.actions import MAX_BATHS, SUPPLY_SIZE
from mythzoo.envs.mythic_baths.cards import CREATURES
from mythzoo.envs.mythic_baths.rules import (
    OWLBEAR,
    PHASE_NAMES,
    SEA_LION,
    TATZELWURM,
    TOKEN_ACTIVE,
    TOKEN_USED,
    MythicBathsRules,
    State,
)

MAX_SEATS = 5
AMBER_SCALE = 30.0
SEAT_FIELDS = ("present", "hand_size", "amber", "guests", "guest_amber", "to_move", "started_last_round", "jackalopes")
BATH_FIELDS = (
    "present", "dirty", "has_guest", "troublesome", "amber", "extra_required", "owlbear_adjacent",
    "sea_lion_adjacent", "partially_treated", "cards_on_guest", "extra_provided",
)
GAME_FIELDS = (
    "players", "turn", "last_round", "turns_left", "deck_size", "discard_size", "guest_deck_size",
    "manager_deck_size", "main_done", "bonus_done",
)
PAY_FIELDS = ("extra_left", "surplus", "modified", "token_used", "amber_used", "fire_used", "chef_used", "fresh", "units")


def build_layout(rules: MythicBathsRules) -> ObservationLayout:
    """The one declaration of the observation: every size, name and doc derives from it."""
    cs = rules.cs
    ing, kinds = list(cs.ingredients), [cs.kind_label(k) for k in range(cs.num_kinds)]
    seats = [f"seat+{i}" for i in range(MAX_SEATS)]
    baths = [f"bath{b}" for b in range(MAX_BATHS)]
    return ObservationLayout(
        [
            ("phase", (len(PHASE_NAMES),), "One-hot decision phase of the player to move.", [PHASE_NAMES]),
            ("game", (len(GAME_FIELDS),), "Players/5, turn/200, last round started, turns left in it/5, deck, discard, guest deck and manager deck sizes (/50, /50, /45, /10), main action done, bonus done.", [GAME_FIELDS]),
            ("hand", (cs.num_kinds,), "Own hand: cards of each kind (/3).", [kinds]),
            ("supply", (SUPPLY_SIZE, cs.num_kinds), "One-hot kind of the card in each supply slot.", [[f"slot{i}" for i in range(SUPPLY_SIZE)], kinds]),
            ("discard_pile", (cs.num_kinds,), "Face-up discard pile: cards of each kind (/5).", [kinds]),
            ("seat", (MAX_SEATS, len(SEAT_FIELDS)), "Per relative seat: present, hand size/6, amber/30, guests/8, amber on guests/30, to move, started the last round, Jackalopes collected/3.", [seats, SEAT_FIELDS]),
            ("seat_tokens", (MAX_SEATS, len(CREATURES), 2), "Per relative seat and creature: favour token active, favour token used.", [seats, CREATURES, ("active", "used")]),
            ("bath", (MAX_BATHS, len(BATH_FIELDS)), "Per bath: present, dirty, has a guest, troublesome, guest amber/10, extra ingredients required (Tatzelwurm), Owlbear adjacent, Sea-Lion adjacent, partially treated, cards on guest/6, extra provided.", [baths, BATH_FIELDS]),
            ("bath_creature", (MAX_BATHS, len(CREATURES)), "One-hot creature of each bath's guest (the ability, for troublesome guests).", [baths, CREATURES]),
            ("bath_needs", (MAX_BATHS, cs.num_types), "Ingredients each guest still needs, per type (/3).", [baths, ing]),
            ("bath_nourished_by", (MAX_BATHS, MAX_SEATS), "One-hot relative seat whose nourish token is on the guest.", [baths, seats]),
            ("manager", (len(cs.managers),), "One-hot active manager (by effect, in card-set order).", [list(cs.managers)]),
            ("pay_bath", (MAX_BATHS,), "One-hot bath being treated (payment phase).", [baths]),
            ("pay_need", (cs.num_types,), "Ingredients still to provide in the treatment in progress (/3).", [ing]),
            ("pay", (len(PAY_FIELDS),), "Treatment in progress: extra left, surplus given, non-exact effect used, Tatzelwurm token used, amber used, Fire Mage used, Head Chef used, fresh (no earlier partial), units filled/6.", [PAY_FIELDS]),
        ]
    )


class MythicBathsObserver:
    """Fills a seat's observation vector in place; the same layout for every seat."""

    def __init__(self, rules: MythicBathsRules):
        self.rules = rules
        self._layout = build_layout(rules)
        L = self._layout
        self.o = {p.name: p.offset for p in L.pieces}
        self.seat_w = len(SEAT_FIELDS)
        self.bath_w = len(BATH_FIELDS)
        self.amber_of = [g.amber for g in rules.guests]
        self.creature_of = [g.creature for g in rules.guests]
        self.needs_of = [g.needs for g in rules.guests]
        self.trouble_of = [g.troublesome for g in rules.guests]
        self.ability_of = [g.ability for g in rules.guests]

    def layout(self, seat: int) -> ObservationLayout:
        """Every seat shares one layout."""
        return self._layout

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into the zeroed vector ``out``."""
        R, o = self.rules, self.o
        n, K, T = R.n, R.K, R.T
        out[o["phase"] + s.phase] = 1.0
        g = o["game"]
        out[g : g + 10] = (
            n / 5.0, s.turn / 200.0, float(s.final_trigger >= 0), s.turns_left / 5.0, len(s.deck) / 50.0,
            len(s.discard) / 50.0, len(s.guest_deck) / 45.0, len(s.manager_deck) / 10.0, s.main_done, s.bonus_done,
        )
        h = o["hand"]
        out[h : h + K] = s.hands[seat]
        out[h : h + K] *= 1.0 / 3.0
        sup = o["supply"]
        for i, k in enumerate(s.supply):
            if k >= 0:
                out[sup + i * K + k] = 1.0
        d = o["discard_pile"]
        disc = out[d : d + K]
        for k in s.discard:
            disc[k] += 0.2
        # Seats, relative to the observer.
        so, to, w = o["seat"], o["seat_tokens"], self.seat_w
        amber_of, creature_of = self.amber_of, self.creature_of
        for r in range(n):
            p = (seat + r) % n
            col = s.collected[p]
            base = so + r * w
            out[base : base + w] = (
                1.0, sum(s.hands[p]) / 6.0, s.amber[p] / AMBER_SCALE, len(col) / 8.0,
                sum(amber_of[x] for x in col) / AMBER_SCALE, float(p == s.current and not s.over),
                float(p == s.final_trigger), sum(1 for x in col if creature_of[x] == 1) / 3.0,
            )
            tok = s.tokens[p]
            tb = to + r * 10
            for c in range(5):
                if tok[c] == TOKEN_ACTIVE:
                    out[tb + 2 * c] = 1.0
                elif tok[c] == TOKEN_USED:
                    out[tb + 2 * c + 1] = 1.0
        # Baths.
        bo, bc, bn, bnb, bw = o["bath"], o["bath_creature"], o["bath_needs"], o["bath_nourished_by"], self.bath_w
        owner = [-1] * R.num_baths
        for p in range(n):
            if s.nourish[p] >= 0:
                owner[s.nourish[p]] = p
        for b in range(R.num_baths):
            x = s.bath_guest[b]
            base = bo + b * bw
            if x < 0:
                out[base] = 1.0
                out[base + 1] = float(s.bath_dirty[b])
                continue
            filled = s.bath_filled[b]
            progress = sum(filled) + s.bath_extra[b]
            out[base : base + bw] = (
                1.0, float(s.bath_dirty[b]), 1.0, float(self.trouble_of[x]), amber_of[x] / 10.0,
                R._adjacent_ability(s, b, TATZELWURM), R._adjacent_ability(s, b, OWLBEAR),
                R._adjacent_ability(s, b, SEA_LION), float(progress > 0), len(s.bath_cards[b]) / 6.0, s.bath_extra[b],
            )
            out[bc + b * 5 + creature_of[x]] = 1.0
            needs = self.needs_of[x]
            nb = bn + b * T
            for t in range(T):
                if needs[t] > filled[t]:
                    out[nb + t] = (needs[t] - filled[t]) / 3.0
            if owner[b] >= 0:
                out[bnb + b * MAX_SEATS + (owner[b] - seat) % n] = 1.0
        out[o["manager"] + s.manager] = 1.0
        if s.pay_bath >= 0:
            out[o["pay_bath"] + s.pay_bath] = 1.0
            pn = o["pay_need"]
            out[pn : pn + T] = s.pay_need
            out[pn : pn + T] *= 1.0 / 3.0
            pf = o["pay"]
            out[pf : pf + 9] = (
                s.pay_extra, float(s.pay_surplus > 0), s.pay_modified, s.pay_token, s.pay_amber, s.pay_fire,
                s.pay_chef, s.pay_fresh, s.pay_units / 6.0,
            )
