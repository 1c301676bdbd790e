"""The Innkeeper heuristic's choices: one handler per decision phase (``_ph_<phase>``).

Each handler gets the decoded view and the legal ids and returns an action id, or ``None`` to
leave the choice to the player's fallback.
"""

from __future__ import annotations

from itertools import permutations

from mythzoo.policies.mythwind_innkeeper_heuristic.reading import ADJ, COIN_SKILLS, SERVED_CARD_MINGLE_WEIGHT, OTHER_SKILL_USE, PARTY_BEFORE_UPKEEP, PARTY_BEFORE_UPKEEP_DAYS, DEPENDENTS, DOOR, GUEST_SKILLS, PAMPER_AT_PARTY, HIRE, HIRE_RESERVE, IMPROVE_ROW, MINGLE_ROW, SPRITE_DIE, VILLAGER_DIE, NEAR, NF, SUPPORT, TABLE, WINDOW, _View


class PhaseChoices:
    """The phase handlers (mixed into :class:`MythwindInnkeeperHeuristic`; use ``InnModel``)."""

    def _in(self, legal: set[int], name: str) -> list[int]:
        o, n = self.o[name], self.n[name]
        return [a - o for a in sorted(legal) if o <= a < o + n]

    def _drawn(self, s: _View) -> list[int]:
        return [g for g in range(len(s.gloc)) if s.gloc[g] == "drawn"]

    # setup / buy_slot / move_dest: where a token goes.
    def _place_score(self, s: _View, t: int, style: int, d: int) -> float:
        empty_adj = sum(1 for y in ADJ[d] if s.acc[y] < 0)
        score = 0.0
        if t in DEPENDENTS:
            score += 2.0 * empty_adj
        elif t in SUPPORT:
            # Keep the room around kitchens/stages for the other dependents.
            score -= sum(1 for y in ADJ[d] if s.acc[y] < 0) * 0.1
        else:
            # Furniture: leave inner slots (room next to kitchens and stages) free; keep off their neighbours.
            if t < NF:
                score += 1.0 if s.outer[d] else 0.0
            score -= 1.5 * sum(1 for y in ADJ[d] if s.acc[y] in DEPENDENTS)
        # Styles: styled tokens near furniture, furniture near styled tokens.
        for x in NEAR[d]:
            if x == d or s.acc[x] < 0:
                continue
            if style >= 0 and s.acc[x] < NF:
                score += 1.0
            if t < NF and s.sty[x] >= 0:
                score += 1.0
        return score - 0.01 * d

    def _ph_setup(self, s: _View, legal: set[int]) -> int | None:
        todo = [a for a, tk in enumerate(s.tok) if tk[5]]
        slots = self._in(legal, "slot")
        outer_only = all(s.outer[d] for d in slots)
        t = WINDOW if outer_only else TABLE
        for a in todo:
            if (s.tok[a][1] in (WINDOW, DOOR)) == outer_only:
                t = s.tok[a][1]
        return self.o["slot"] + max(slots, key=lambda d: self._place_score(s, t, -1, d))

    def _ph_buy_slot(self, s: _View, legal: set[int]) -> int | None:
        a = s.selected_token
        t, style = (s.tok[a][1], s.tok[a][4]) if a >= 0 else (TABLE, -1)
        slots = self._in(legal, "slot")
        return self.o["slot"] + max(slots, key=lambda d: self._place_score(s, t, style, d))

    def _ph_move_dest(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        return self.o["slot"] + slots[0] if slots else None

    # town: learn a skill that pays, or hire a worker.
    def _learn_per_use(self, s: _View, k: int) -> float:
        """Coins one resolution of skill ``k`` is expected to pay over the days left."""
        key = self.skill_keys[k]
        if key in COIN_SKILLS:
            by_type, targ, per = COIN_SKILLS[key]
            count = sum(1 for d, a in enumerate(s.acc) if a >= 0 and not s.dmg[d] and ((by_type and a == targ) or (not by_type and s.sty[d] == targ)))
            return per * (count + (0.5 if by_type else 0.0))  # plain tokens still to come; styled ones are dear
        # guest and party skills: a rough worth per resolution (a complaint or an unseated guest avoided, a party coin)
        if key == "worker_encouragement" and not any(h for h, _ in s.dice):
            return 0.0
        return OTHER_SKILL_USE.get(key, 0.0)

    def _arranged_worth(self, s: _View, skills: list[tuple[str, float]]) -> float:
        """Worth over the days left of skills ``(key, coins per resolution)``, best arranged among
        the rows (the learnt skills may be rearranged, A13); a coin skill goes only in a row the
        heuristic plays for itself (Improve, Serve, Mingle), never one it would play for the coins."""
        best = 0.0
        for rows in permutations(range(self.n_rows), len(skills)):
            if any(key in COIN_SKILLS and r in (0, 4) for (key, _), r in zip(skills, rows)):
                continue
            best = max(best, sum(v * self._skill_uses(s, r) for (_, v), r in zip(skills, rows)))
        return best

    def _ph_town(self, s: _View, legal: set[int]) -> int | None:
        best, best_val = self.o["town_pass"], 0.0
        gained = [k for k, r in enumerate(s.skill_row) if r >= 0]
        now = [(self.skill_keys[k], self._learn_per_use(s, k)) for k in gained]
        worth_now = self._arranged_worth(s, now)
        free_rows = [r for r in range(self.n_rows) if r not in s.skill_row]
        for arg in self._in(legal, "learn"):
            k, row = self.learn_args[arg]
            if row in s.skill_row and free_rows:
                continue  # the arrangement below places it; learn into a free slot
            key = self.skill_keys[k]
            if key in COIN_SKILLS and row in (0, 4):
                continue
            val = self._arranged_worth(s, now + [(key, self._learn_per_use(s, k))]) - worth_now - s.skill_cost[k] * 1.3
            val += 0.01 * self._skill_uses(s, row)  # the most played free row first
            if val > best_val:
                best, best_val = self.o["learn"] + arg, val
        # Hire one villager die (Mingle: each pip an adventure card's coins), then one sprite die
        # (Improve), while they can pay back; a second die of either type paid back less than it cost
        # (measured). No die for a row the player may not take.
        if best == self.o["town_pass"] and HIRE and s.days_left >= 4 and s.coins >= 3 + HIRE_RESERVE:
            for die, villager, row in ((VILLAGER_DIE, True, MINGLE_ROW), (SPRITE_DIE, False, IMPROVE_ROW)):
                hire = self.o["hire"] + die
                if hire in legal and row not in self.banned_rows and not any(h and ty == villager for h, ty in s.dice):
                    return hire
        return best

    # arrange: after a skill is learnt, the gained skills may be rearranged among the slots.
    def _skill_use_value(self, s: _View, k: int) -> float:
        """Coins one resolution of gained skill ``k`` is worth now (as :meth:`_row_skill` values it)."""
        key = self.skill_keys[k]
        if key in COIN_SKILLS:
            by_type, arg, per = COIN_SKILLS[key]
            return per * sum(1 for d, a in enumerate(s.acc) if a >= 0 and not s.dmg[d] and ((by_type and a == arg) or (not by_type and s.sty[d] == arg)))
        return self._learn_per_use(s, k)  # the worth the skill was learnt for

    def _ph_arrange(self, s: _View, legal: set[int]) -> int | None:
        """The move (a skill into another row's slot, swapping with a skill there) that raises the
        skills' worth over the days left the most (rows played more often are worth more); done
        when none does."""
        best, best_gain = self.o["done"], 1e-9
        value = {k: self._skill_use_value(s, k) for k, r in enumerate(s.skill_row) if r >= 0}
        for arg in self._in(legal, "arrange"):
            k, r = self.arrange_args[arg]
            j = next((x for x, rr in enumerate(s.skill_row) if rr == r), -1)
            old_row = s.skill_row[k]
            if (self.skill_keys[k] in COIN_SKILLS and r in (0, 4)) or (j >= 0 and self.skill_keys[j] in COIN_SKILLS and old_row in (0, 4)):
                continue  # coin skills stay in the rows played for themselves (as learnt)
            gain = value[k] * (self._skill_uses(s, r) - self._skill_uses(s, old_row))
            if j >= 0:
                gain += value[j] * (self._skill_uses(s, old_row) - self._skill_uses(s, r))
            if gain > best_gain:
                best, best_gain = self.o["arrange"] + arg, gain
        return best

    def _ph_operate(self, s: _View, legal: set[int]) -> int | None:
        rows = self._in(legal, "operate")
        vals = {}
        base_tonight = self._tonight(s)
        hand = [c for c, card in enumerate(s.cards) if card[0] == "hand"]
        for r in rows:
            v = self._row_skill(s, r)
            if r == 1:
                net, tok = self._improve_plan(s)
                if tok is not None:
                    v += 1.0 + min(net, 10.0) * 0.3
                v += self._repair_sell_value(s)
            elif r == 2:
                v += max((self._card_gain(s, c, base_tonight) - SERVED_CARD_MINGLE_WEIGHT * self._mingle_gain(s, c) for c in hand), default=0.0)
            elif r == 3:
                v += max((self._mingle_gain(s, c) for c in hand), default=0.0) + 0.3
            elif r == 0:
                v += self._pamper_gain(s)[0]
            elif r == 4:
                v += self._party_gain(s)[0]
                if self._days_to_upkeep(s) < PARTY_BEFORE_UPKEEP_DAYS:
                    v += PARTY_BEFORE_UPKEEP
            vals[r] = v
        best = max(rows, key=lambda r: (vals[r], r == 1))
        return self.o["operate"] + best

    def _ph_improve(self, s: _View, legal: set[int]) -> int | None:
        o = self.o
        conf = self._config(s)
        base = self._expected(s, *conf)
        # Repairs that pay.
        best, best_val = None, 0.0
        for d in self._in(legal, "repair"):
            val = self._repair_gain(s, d, base) - (s.cost[d] + 1) // 2
            if val > best_val:
                best, best_val = o["repair"] + d, val
        if best is not None:
            return best
        buys = self._in(legal, "buy")
        if buys:
            _, tok = self._improve_plan(s, legal_buys=set(buys))
            if tok is not None:
                return o["buy"] + tok
        for d in self._in(legal, "sell"):
            # The score counts a token at its sale value, so a sale earns nothing by itself: only
            # what keeping it loses (never more than 0 here) would argue for it.
            val = -self._removal_loss(s, d, base, conf) - self._tonight_loss(s, d)
            if val > best_val:
                best, best_val = o["sell"] + d, val
        if best is not None:
            return best
        return o["done"]

    def _ph_serve(self, s: _View, legal: set[int]) -> int | None:
        cards = self._in(legal, "gossip")
        base = self._tonight(s)
        return self.o["gossip"] + max(cards, key=lambda c: (self._card_gain(s, c, base), -self._mingle_gain(s, c)))

    def _ph_mingle(self, s: _View, legal: set[int]) -> int | None:
        cards = self._in(legal, "gossip")
        return self.o["gossip"] + max(cards, key=lambda c: self._mingle_gain(s, c))

    def _ph_pamper_guest(self, s: _View, legal: set[int]) -> int | None:
        _, g, _ = self._pamper_gain(s)
        guests = self._in(legal, "guest")
        if g is None or g not in guests:
            drawn = self._drawn(s)
            match = self._matching(s, drawn)
            left = [x for x in guests if x not in match] or guests
            g = max(left, key=lambda x: s.gworth[x])
        return self.o["guest"] + g

    def _ph_pamper_slot(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        drawn = [g for g in self._drawn(s) if g != s.selected_guest]
        best, best_val = None, -1e9
        for d in slots:
            occ = list(s.occ)
            occ[d] = True
            val = self._tonight(s, occ=occ) if drawn else 0.0
            if s.acc[d] == s.party_type:
                val += PAMPER_AT_PARTY * s.party_coins  # the pampered guest earns the party's coins there
            if val > best_val:
                best, best_val = d, val
        return self.o["slot"] + best

    def _ph_party(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        _, d = self._party_gain(s)
        if d is None or d not in slots:
            d = slots[0]
        return self.o["slot"] + d

    def _ph_skill(self, s: _View, legal: set[int]) -> int | None:
        k = next((k for k, r in enumerate(s.skill_row) if r == s.row and s.row >= 0), -1)
        key = self.skill_keys[k] if k >= 0 else ""
        if key == "worker_encouragement":  # five coins for a pip on every hired die: while coins are spare
            return self.o["skill"] if s.coins >= 12 else self.o["done"]
        if key in GUEST_SKILLS:
            drawn = self._drawn(s)
            if len(self._matching(s, drawn)) == len(drawn):
                return self.o["done"]
        return self.o["skill"]

    def _ph_skill_guest(self, s: _View, legal: set[int]) -> int | None:
        guests = self._in(legal, "guest")
        match = self._matching(s, self._drawn(s))
        left = [g for g in guests if g not in match]
        if left:
            return self.o["guest"] + max(left, key=lambda g: s.gworth[g])
        if self.o["done"] in legal:
            return self.o["done"]
        return self.o["guest"] + min(guests, key=lambda g: s.gworth[g])

    def _ph_favorite_pick(self, s: _View, legal: set[int]) -> int | None:
        guests = self._in(legal, "guest")
        drawn = self._drawn(s)
        base = len(self._matching(s, drawn))
        best, best_val = guests[0], -1.0
        for g in guests:
            gain = len(self._matching(s, drawn + [g])) - base
            val = gain * s.gworth[g] - (1 - gain) * s.gworth[g]
            if val > best_val:
                best, best_val = g, val
        return self.o["guest"] + best

    def _ph_entertainer(self, s: _View, legal: set[int]) -> int | None:
        if self.o["entertainer_coin"] in legal:
            return self.o["entertainer_coin"]
        return self.o["entertainer_party"]

    def _ph_worker(self, s: _View, legal: set[int]) -> int | None:
        best, best_val = self.o["done"], 0.5
        improve = None
        hand = [c for c, card in enumerate(s.cards) if card[0] == "hand"]
        base_tonight = None
        for arg in self._in(legal, "worker"):
            _, r = divmod(arg, self.n_rows)
            if r == 1:
                if improve is None:
                    improve = self._improve_plan(s)
                v = improve[0] if improve[1] is not None else self._repair_sell_value(s)
            elif r == 3:
                v = max((self._mingle_gain(s, c) for c in hand), default=0.0) + 0.3
            elif r == 2:
                if base_tonight is None:
                    base_tonight = self._tonight(s)
                v = max((self._card_gain(s, c, base_tonight) - SERVED_CARD_MINGLE_WEIGHT * self._mingle_gain(s, c) for c in hand), default=0.0)
            elif r == 0:
                v = self._pamper_gain(s)[0]
            else:
                v = self._party_gain(s)[0]
            if v > best_val:
                best, best_val = self.o["worker"] + arg, v
        return best

    def _ph_seat_guest(self, s: _View, legal: set[int]) -> int | None:
        guests = self._in(legal, "guest")
        if not guests:
            return self.o["done"]
        match = self._matching(s, self._drawn(s))
        chosen = [g for g in guests if g in match]
        if not chosen:
            chosen = guests
        return self.o["guest"] + max(chosen, key=lambda g: s.gworth[g])

    def _ph_seat_slot(self, s: _View, legal: set[int]) -> int | None:
        g = s.selected_guest
        slots = self._in(legal, "slot")
        others = [x for x in self._drawn(s) if x != g]
        best, best_val = slots[0], -1.0
        for d in slots:
            occ = list(s.occ)
            occ[d] = True
            val = sum(s.gworth[x] for x in self._matching(s, others, occ=occ)) if others else 0.0
            if val > best_val:
                best, best_val = d, val
        return self.o["slot"] + best

    def _ph_late_guest(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        return self.o["slot"] + slots[0] if slots else self.o["done"]

    def _ph_lose(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        conf = self._config(s)
        base = self._expected(s, *conf)
        return self.o["slot"] + min(slots, key=lambda d: self._keep_value(s, d, base, conf))

    def _ph_damage(self, s: _View, legal: set[int]) -> int | None:
        slots = self._in(legal, "slot")
        conf = self._config(s)
        base = self._expected(s, *conf)
        return self.o["slot"] + min(slots, key=lambda d: min(self._keep_value(s, d, base, conf), (s.cost[d] + 1) / 2 + 0.5))
