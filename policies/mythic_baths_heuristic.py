"""A rule-based Mythic Baths player that sees only what an agent sees: observation and mask.

It reads the observation through the env's named layout (never the engine), so it plays from
any observation source, batched or not. The plan, in order of preference each turn:
treat the guest worth the most (a regular guest with an exact payment earns the tip), use an
active favour token when it pays, clean when several baths are dirty, nourish the guest it is
building toward, and otherwise gather the supply card that best fills the needs of its targets.
Payments play cards that add no surplus first (keeping the tip), discards drop the least useful.
The guest deck's face-up top guest is the next to arrive: while fewer than two guests in the baths
are worth building toward it is a gathering target too, and a clean is worth it when the hand
already covers that guest. With the Gardener, a supply that fills no need has a card refreshed
before the take. A declared Head Chef pair is paid with the cards whose other
ingredients fill the most, a double card (one card for the pair) before two.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mythzoo.policies.base import BasePolicy, check_mask

P_TURN, P_GATHER, P_EARTH, P_DISCARD, P_PAY, P_TAKE = range(6)


class MythicBathsHeuristic(BasePolicy):
    """Greedy treat/nourish/gather/clean player for ``mythic_baths_v1``."""

    name = "heuristic"

    def __init__(self, env: Any, seed: int | None = None):
        u = env.unwrapped
        self.layout = u.observation_layout()
        self.table = u.action_table()
        self.rng = np.random.default_rng(seed)
        self.ingredients = [f.split("[", 1)[1][:-1] for f in self.layout.features() if f.startswith("pay_need[")]
        T = len(self.ingredients)
        kinds = self.table.ranges[[r.name for r in self.table.ranges].index("discard")].labels
        self.kind_units = np.zeros((len(kinds), T), dtype=np.int64)
        for k, label in enumerate(kinds):
            for name in label.split("+"):
                self.kind_units[k, self.ingredients.index(name)] += 1
        self.K, self.T = len(kinds), T
        bath_fields = self.layout.by_name["bath"].axes[1]
        self.f = {name: i for i, name in enumerate(bath_fields)}
        self.f_needs = self.f[f"needs_{self.ingredients[0]}"]
        self.f_creature = self.f["creature_cerberus"]
        self.f_nourish = self.f["nourished_by_seat+0"]
        top_fields = list(self.layout.by_name["guest_deck_top"].axes[0])
        self.t_present, self.t_trouble = top_fields.index("present"), top_fields.index("troublesome")
        self.t_needs = top_fields.index(f"needs_{self.ingredients[0]}")
        seat_fields = self.layout.by_name["seat"].axes[1]
        self.s = {name: i for i, name in enumerate(seat_fields)}
        self.o = {r.name: r.offset for r in self.table.ranges}

    # ------------------------------------------------------------------ reading
    def _read(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return self.layout.views(np.asarray(obs, dtype=np.float32))

    def _targets(self, v: dict[str, np.ndarray], hand_units: np.ndarray) -> list[tuple[float, int, np.ndarray]]:
        """Regular guests we could work toward: (value, bath, missing units per type), best first."""
        out = []
        f = self.f
        for b, row in enumerate(v["bath"]):
            if row[f["has_guest"]] < 0.5 or row[f["troublesome"]] > 0.5:
                continue
            if row[self.f_nourish + 1 :].any():  # nourished by another player: not ours to treat
                continue
            needs = np.rint(row[self.f_needs : self.f_needs + self.T] * 3).astype(np.int64)
            missing = np.maximum(needs - hand_units, 0)
            extra = int(round(row[f["extra_required"]]))
            amber = row[f["amber"]] * 10
            value = (amber + 2.0) / (1.0 + missing.sum() + extra)
            if row[self.f_nourish] > 0.5:
                value *= 1.5  # our own nourished guest: protected, and its favour token is ours
            out.append((value, b, missing))
        out.sort(key=lambda x: -x[0])
        return out

    def _top_needs(self, v: dict[str, np.ndarray]) -> np.ndarray | None:
        """Needs of the guest deck's face-up top guest if it is a regular guest, else None."""
        top = v["guest_deck_top"]
        if top[self.t_present] < 0.5 or top[self.t_trouble] > 0.5:
            return None
        return np.rint(top[self.t_needs : self.t_needs + self.T] * 3).astype(np.int64)

    def _card_value(self, kind: int, want: np.ndarray) -> float:
        """How much a card of ``kind`` fills the wanted ingredient units."""
        return float(np.minimum(self.kind_units[kind], want).sum())

    # ------------------------------------------------------------------- acting
    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """One legal action chosen by the rules above."""
        mask = np.asarray(action_mask)
        check_mask(mask)
        legal = set(np.flatnonzero(mask).tolist())
        v = self._read(observation)
        phase = int(np.argmax(v["phase"]))
        hand = np.rint(v["hand"] * 3).astype(np.int64)
        hand_units = hand @ self.kind_units
        targets = self._targets(v, hand_units)
        want = np.zeros(self.T, dtype=np.int64)
        for _, _, missing in targets[:2]:
            want += missing
        top_needs = self._top_needs(v)
        if top_needs is not None and len(targets) < 2:
            want += np.maximum(top_needs - hand_units, 0)  # the next guest to arrive
        o = self.o
        choice = None
        if phase == P_PAY:
            choice = self._pay(v, legal, hand)
        elif phase == P_DISCARD:
            keep = np.array([self._card_value(k, want) + 0.01 * self.kind_units[k].sum() for k in range(self.K)])
            options = [a for a in legal if o["discard"] <= a < o["discard"] + self.K]
            choice = min(options, key=lambda a: keep[a - o["discard"]])
        elif phase in (P_GATHER, P_EARTH, P_TAKE):
            choice = self._take(v, legal, want, allow_decline=phase != P_GATHER)
        else:
            choice = self._turn(v, legal, hand_units, targets, want, top_needs)
        if choice is None or choice not in legal:
            choice = int(self.rng.choice(sorted(legal)))
        return int(choice)

    def _take(self, v: dict[str, np.ndarray], legal: set[int], want: np.ndarray, allow_decline: bool) -> int | None:
        o = self.o
        best, best_val = None, 0.0
        for i, row in enumerate(v["supply"]):
            a = o["gather_supply"] + i
            if a in legal and row.any():
                val = self._card_value(int(np.argmax(row)), want)
                if val > best_val:
                    best, best_val = a, val
        if best is not None:
            return best
        if allow_decline and o["decline"] in legal:
            return o["decline"]
        if o["gather_deck"] in legal:
            return o["gather_deck"]
        return None

    def _pay(self, v: dict[str, np.ndarray], legal: set[int], hand: np.ndarray) -> int | None:
        o = self.o
        need = np.rint(v["pay_need"] * 3).astype(np.int64)
        cards = [a for a in legal if o["pay_card"] <= a < o["pay_card"] + self.K]
        pair = v["pay_chef_pair"]
        if pair.any() and cards:  # paying a declared Head Chef pair: the rest of each card should fill needs
            src, left = int(np.argmax(pair)), int(round(pair.max() * 2))

            def pair_value(a: int) -> tuple[float, int]:
                units = self.kind_units[a - o["pay_card"]].copy()
                units[src] -= min(left, units[src])
                return float(np.minimum(units, need).sum()) - float(units.sum() - np.minimum(units, need).sum()), int(self.kind_units[a - o["pay_card"]][src])

            return max(cards, key=pair_value)
        # Cards that add no surplus keep the exact-treatment tip; bigger cards first.
        clean = [a for a in cards if (self.kind_units[a - o["pay_card"]] <= need).all()]
        if clean:
            return max(clean, key=lambda a: self.kind_units[a - o["pay_card"]].sum())
        for rng_name in ("pay_token", "pay_card", "fire_mage", "head_chef", "pay_amber"):
            opts = [a for a in legal if self.table.decode(a)[0] == rng_name]
            if opts:
                if rng_name == "pay_card":
                    return max(opts, key=lambda a: self._card_value(a - o["pay_card"], need))
                return opts[0]
        return o["stop_treating"] if o["stop_treating"] in legal else None

    def _turn(self, v, legal: set[int], hand_units: np.ndarray, targets, want: np.ndarray, top_needs: np.ndarray | None = None) -> int | None:
        o, f = self.o, self.f
        me = v["seat"][0]
        baths = v["bath"]
        # Bonus tokens that pay by themselves.
        if o["token_jackalope"] in legal and me[self.s["jackalopes"]] * 3 >= 1:
            return o["token_jackalope"]
        cleanable = sum(1 for row in baths if row[f["dirty"]] > 0.5 and row[f["sea_lion_adjacent"]] < 0.5)
        if o["token_sea_lion"] in legal and cleanable >= 2:
            return o["token_sea_lion"]
        if any(o["token_cerberus"] <= a < o["token_cerberus"] + 5 for a in legal):
            best = max(
                (a for a in legal if o["token_cerberus"] <= a < o["token_cerberus"] + 5),
                key=lambda a: self._card_value(int(np.argmax(v["supply"][a - o["token_cerberus"]])), want),
            )
            if self._card_value(int(np.argmax(v["supply"][best - o["token_cerberus"]])), want) > 0:
                return best
        main_done = v["game"][8] > 0.5
        if main_done:
            if targets and o["token_owlbear"] + targets[0][1] in legal and baths[targets[0][1]][self.f_nourish] < 0.5:
                return o["token_owlbear"] + targets[0][1]
            return o["end_turn"] if o["end_turn"] in legal else None
        # Treat: the most valuable legal treatment.
        best, best_val = None, 0.0
        for b, row in enumerate(baths):
            a = o["treat"] + b
            if a not in legal:
                continue
            amber = row[f["amber"]] * 10
            if row[f["troublesome"]] > 0.5:
                needs = np.rint(row[self.f_needs : self.f_needs + self.T] * 3).astype(np.int64)
                matched = np.minimum(needs, hand_units).sum()
                val = matched + (amber if matched >= needs.sum() else 0.0)
                if val < 3:
                    continue
            else:
                val = amber + 3.0
            if val > best_val:
                best, best_val = a, val
        if best is not None:
            return best
        if o["clean"] in legal and cleanable >= 2:
            return o["clean"]
        if o["clean"] in legal and cleanable >= 1 and top_needs is not None and (hand_units >= top_needs).all():
            return o["clean"]  # the next guest arrives, and the hand already treats it
        if o["clean"] in legal and not any(row[f["has_guest"]] > 0.5 for row in baths):
            return o["clean"]
        # Nourish the guest we are building toward, when it is close.
        if targets:
            _, b, missing = targets[0]
            if o["nourish"] + b in legal and missing.sum() <= 2 and baths[b][self.f_nourish] < 0.5:
                return o["nourish"] + b
        gardener = [a for a in legal if o["gardener"] <= a < o["gardener"] + 5]
        if gardener:  # Gardener: refresh the least useful supply card when none fills a need
            value = {a: self._card_value(int(np.argmax(v["supply"][a - o["gardener"]])), want) for a in gardener}
            if max(value.values()) < 1:
                return min(gardener, key=lambda a: (value[a], a))
        take = self._take(v, legal, want, allow_decline=False)
        if take is not None:
            return take
        if o["clean"] in legal:
            return o["clean"]
        return None
