"""The Mythsgate heuristic's Great Invoker: one choice per decision phase of his side.

Sacrifice every minion next to the Castle (a last life only while another minion stays in play, or
for the tenth gem), invoke minions while keeping an action to move them, move every minion onto
the spaces next to the Castle (the one the heroes threaten least), attack heroes he likely beats,
then spend spare actions on cards and minion abilities; Fury and Dark Power when they can turn a
combat; track and token choices by value.
"""

from __future__ import annotations

from math import comb

import numpy as np

from mythzoo.policies.mythsgate_heuristic.reading import _ri


class InvokerPlay:
    """The Great Invoker's choices (mixed into :class:`MythsgateHeuristic`; reads ``MythsgateReading``)."""

    def _invoker(self, v: dict, phase: int, legal: set[int]) -> int | None:
        ph = self.phases
        o = self.o["invoker"]
        if phase == ph["sacrifice"]:
            return self._inv_sacrifice(v, legal)
        if phase == ph["invoker_main"]:
            return self._inv_main(v, legal)
        if phase == ph["draw"]:
            return self._inv_draw(v, legal)
        if phase == ph["place"]:
            return self._inv_place(v, legal)
        if phase == ph["kraken"]:
            view = v["kraken_view"]
            best, best_val = None, -1.0
            for i in range(view.shape[0]):
                a = o["pick_card"] + i
                if a in legal and view[i].any():
                    k = int(np.argmax(view[i]))
                    val = self.inv_eff[k] + (0.5 if self.icon[k] == 4 else 0.0) + (0.3 if self.icon[k] == 3 else 0.0)
                    if val > best_val:
                        best, best_val = a, val
            return best
        if phase == ph["manticore"]:
            return o["keep_all"]
        if phase == ph["dragon"]:
            heroes = {h["slot"]: h for h in self._heroes(v)}
            opts = [a for a in legal if o["pick_hero"] <= a < o["pick_hero"] + 5]
            return max(opts, key=lambda a: (heroes[a - o["pick_hero"]]["hand"] if a - o["pick_hero"] in heroes else 0, -a)) if opts else None
        if phase == ph["cyclops"]:
            opts = [a for a in legal if o["cyclops"] <= a < o["cyclops"] + 5 * self.M]
            heroes = {h["slot"]: h for h in self._heroes(v)}

            def val(a: int) -> tuple:
                h, t = divmod(a - o["cyclops"], self.M)
                hero = heroes.get(h)
                need = 0
                if hero is not None:
                    costs = self.char_costs[hero["char"]]
                    need = sum(costs[p][t] for p in range(4) if not hero["armour"][p])
                return (need > 0, hero["mats"][t] if hero is not None else 0, -a)

            return max(opts, key=val) if opts else None
        if phase == ph["track"]:
            t = o["track"]
            for a in (t + 1, t):  # Power first: a card more per combat outweighs +1 Strength
                if a in legal:
                    return a
            return o["decline"]
        if phase == ph["token"]:
            minions = self._minions(v)
            damaged = any(mi["lives"] < self.minion_lives[mi["m"]] for mi in minions)
            f = o["flip"]
            order = (3, 2, 0, 1) if damaged else (2, 0, 1, 3)  # regenerate, haste, fury, dark power
            for t in order:
                if f + t in legal:
                    return f + t
            return o["decline"]
        return None

    def _inv_sacrifice(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["invoker"]
        minions = self._minions(v)
        gems = _ri(v["game"][self.gf["gems"]] * 10)
        cands = [mi for mi in minions if o["sacrifice"] + mi["m"] in legal]
        multi = [mi for mi in cands if mi["lives"] >= 2]
        if multi:
            return o["sacrifice"] + max(multi, key=lambda mi: (mi["lives"], mi["m"]))["m"]
        if cands and (gems >= 9 or len(minions) >= 2):
            return o["sacrifice"] + cands[0]["m"]
        return o["end_sacrifice"]

    def _hero_defence(self, hero: dict, comp: np.ndarray, ban3: bool, ban4: bool) -> float:
        """Expected total a hero reaches when defending with its best cards (hand unseen)."""
        c = comp.astype(np.float64).copy()
        if ban3:
            c[self.value == 3] = 0
        if ban4:
            c[self.value == 4] = 0
        h, m = hero["hand"], max(0, hero["maxp"])
        eff = self.value + 2 * (self.icon == 1)
        hi = int(eff.max())
        p = np.zeros(hi + 1)
        for k in range(self.K):
            p[eff[k]] += c[k]
        total_c = comp.sum()
        # unusable (banned) cards count as value 0
        p[0] += max(total_c - c.sum(), 0.0)
        if p.sum() <= 0:
            return float(hero["strength"])
        p /= p.sum()
        sf = 1.0 - np.cumsum(p)  # P(X > v) -> q(v+1) = P(X >= v+1)
        exp = 0.0
        for j in range(1, min(m, h) + 1):  # j-th best of h cards
            for val in range(1, hi + 1):
                q = sf[val - 1]
                exp += sum(comb(h, i) * q ** i * (1 - q) ** (h - i) for i in range(j, h + 1))
        return hero["strength"] + exp

    def _inv_attack_p(self, v: dict, mi: dict, hero: dict, comp: np.ndarray, fury: bool, dark: bool) -> float:
        ban3 = v["game"][self.gf["ban3"]] > 0.5
        ban4 = v["game"][self.gf["ban4"]] > 0.5
        hero_total = self._hero_defence(hero, comp, ban3, ban4)
        n = mi["draws"] + (1 if dark else 0)
        dist = self._draw_dist(comp, n, kraken=self.minion_ability[mi["m"]] == "kraken")
        need = hero_total - mi["str"] - (2 if fury else 0)  # he wins on a tie when he attacks
        return 1.0 - self._p_at_most(dist, np.ceil(need - 1e-9) - 1)

    def _inv_comp(self, v: dict) -> np.ndarray:
        comp = self.power_counts - self._counts(v["power_discard"], 5)
        comp = comp - self._counts(v["combat_hero_cards"], 3) - self._counts(v["combat_inv_cards"], 3)
        return np.maximum(comp, 0)

    def _threat(self, v: dict, space: int, heroes: list[dict], ignore_minion: int = -1) -> float:
        """How strongly the heroes can strike a minion standing on ``space`` in their next turn."""
        t = 0.0
        for h in heroes:
            if h["lives"] <= 0:
                continue
            reach = h["level"] - 1
            d = self.dist[h["space"], space]
            if d > reach:
                continue
            power = h["strength"] + 2.8 * min(h["hand"], max(h["maxp"], 0))
            t += power * (1.0 if d == 0 else 0.8)
        return t

    def _inv_main(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["invoker"]
        g, gf = v["game"], self.gf
        left = _ri(g[gf["inv_actions_left"]] * 6)
        minions = self._minions(v)
        heroes = self._heroes(v)
        board = v["invoker_board"]
        fury = board[self.bf["fury"]] > 0.5
        dark = board[self.bf["dark_power"]] > 0.5
        comp = self._inv_comp(v)
        # free actions first
        if o["token_haste"] in legal and left >= 1:
            return o["token_haste"]
        regen = [mi for mi in minions if o["token_regenerate"] + mi["m"] in legal]
        if regen:
            best = max(regen, key=lambda mi: (self.ca[mi["space"]] or mi["space"] == self.portal, self.minion_str[mi["m"]], mi["m"]))
            return o["token_regenerate"] + best["m"]
        if left <= 0:
            return o["end_turn"]
        invokable = [m for m in range(12) if o["invoke"] + m in legal]
        far = [mi for mi in minions if not self.ca[mi["space"]]]
        # 1. invoke (keeping an action to move the minions that are not yet next to the Castle)
        if invokable and (len(minions) < 2 or left >= 2 or not far):  # never a lone minion: one lost fight would end the game
            best = max(invokable, key=lambda m: (self.minion_lives[m], self.minion_str[m], -m))
            return o["invoke"] + best
        # 2. attack a hero he very likely beats
        best_att, best_p = None, 0.0
        for mi in minions:
            for h in heroes:
                a = o["attack"] + mi["m"] * 5 + h["slot"]
                if a not in legal:
                    continue
                p = self._inv_attack_p(v, mi, h, comp, fury, dark)
                p += 0.05 * (h["lives"] == 1)  # a knock-out costs the hero its next turn
                if p > best_p:
                    best_att, best_p = a, p
        if best_att is not None and best_p >= 0.68:
            return best_att
        # 3. move every minion next to the Castle, unless the move only walks a few minions from
        # safety into the heroes' reach (they wait for company on the Portal's side of the map)
        if far and o["move_minions"] in legal and self._move_is_safe(v, minions, heroes):
            tel = [mi for mi in far if o["card_teleport"] + mi["m"] in legal]
            if len(far) == 1 and len(minions) > 1 and tel and left == 1:
                return o["card_teleport"] + tel[0]["m"]
            return o["move_minions"]
        # 4. ability cards
        if o["card_x3"] in legal and any(h["lives"] > 0 for h in heroes):
            return o["card_x3"]
        if o["card_x4"] in legal and any(h["lives"] > 0 for h in heroes):
            return o["card_x4"]

        def guard_value(mi: dict) -> tuple:
            return (self._threat(v, mi["space"], heroes) > 0, mi["lives"], self.minion_str[mi["m"]], -mi["m"])

        for name in ("card_plus_f", "card_plus_p"):
            opts = [mi for mi in minions if o[name] + mi["m"] in legal]
            if opts:
                return o[name] + max(opts, key=guard_value)["m"]
        # 5. minion abilities
        for mi in minions:
            a = o["ability"] + mi["m"]
            if a not in legal:
                continue
            ab = self.minion_ability[mi["m"]]
            if ab == "phoenix":
                return a
            if ab == "hippogriff" and not self.ca[mi["space"]]:
                return a
            if ab in ("cyclops", "dragon"):
                return a
        if best_att is not None and best_p >= 0.55:
            return best_att
        return o["end_turn"]

    def _move_is_safe(self, v: dict, minions: list[dict], heroes: list[dict]) -> bool:
        """Whether moving every minion is worth it: yes when some already stand next to the Castle
        or enough of them go together, or when their spaces now are no safer than where they go."""
        if len(minions) >= 4 or any(self.ca[mi["space"]] for mi in minions):
            return True
        now = sum(self._threat(v, mi["space"], heroes) for mi in minions)
        after = 0.0
        for mi in minions:
            opts = [x for x in self.adj[mi["space"]] if not self.castle[x]]
            best = min(opts, key=lambda x: (self.dist_ca[x], self._threat(v, x, heroes), x))
            after += self._threat(v, best, heroes)
        return after <= now

    def _inv_draw(self, v: dict, legal: set[int]) -> int:
        o = self.o["invoker"]
        c, cf = v["combat"], self.cf
        ht = c[cf["hero_total"]] * 20
        it = c[cf["inv_total"]] * 20
        n = _ri(c[cf["inv_draws"]] * 5)
        hero_att = c[cf["hero_attacked"]] > 0.5
        minion = int(np.argmax(v["combat_minion"])) if v["combat_minion"].any() else -1
        kraken = minion >= 0 and self.minion_ability[minion] == "kraken"
        comp = self._inv_comp(v)
        known = [int(np.argmax(r)) for r in v["known_top"] if r.any()]

        def p_win(extra_str: float, extra_n: int) -> float:
            dist = self._draw_dist(comp, n + extra_n, kraken, known)
            need = ht - it - extra_str  # his cards must exceed (hero attacked) or reach it
            thr = np.rint(need) if hero_att else np.rint(need) - 1
            return 1.0 - self._p_at_most(dist, thr)

        base = p_win(0, 0)
        if o["token_fury"] in legal and p_win(2, 0) - base > 0.08:
            return o["token_fury"]
        if o["token_dark_power"] in legal and p_win(0, 1) - base > 0.08:
            return o["token_dark_power"]
        return o["draw"]

    def _inv_place(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["invoker"]
        opts = sorted(a - o["place"] for a in legal if o["place"] <= a < o["place"] + self.S)
        if not opts:
            return None
        pl, f = v["place"], self.plf
        heroes = self._heroes(v)
        minions = self._minions(v)
        if pl[f["minion"]] > 0.5:
            m = int(np.argmax(pl[f["m0_Phoenix"]:f["m0_Phoenix"] + 12]))
            placed_here = {}
            for mi in minions:
                if mi["m"] < m:  # minions already moved this turn (they move in index order)
                    placed_here[mi["space"]] = placed_here.get(mi["space"], 0) + 1

            def score(x: int) -> tuple:
                return (-self.dist_ca[x], -self._threat(v, x, heroes), -placed_here.get(x, 0), -x)

            return o["place"] + max(opts, key=score)
        # a hero: as far as possible from the minions and the Castle approaches
        def hscore(x: int) -> tuple:
            dmin = min((self.dist[x, mi["space"]] for mi in minions), default=9)
            return (self.hero_dist_ca[x], dmin, x)

        return o["place"] + max(opts, key=hscore)
