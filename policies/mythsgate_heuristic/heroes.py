"""The Mythsgate heuristic's heroes: one choice per decision phase of a hero.

Fight a minion it likely beats (most eagerly those next to the Castle and those it kills; with three
heroes or more, none on the Portal's side unless it is the last, nor a last move there with a weak
hand), walk to one it can reach and beat this turn, draw at Power Centres, rest at inns, forge
armour, trade at the market toward a forge cost, explore for materials, or wait one move from every sacrifice space. In a combat: the cards
that raise its chance of winning most (``_plan``); a beaten minion is pushed far from the Castle.
"""

from __future__ import annotations

import numpy as np

from mythzoo.policies.mythsgate_heuristic.reading import PIECE_ORDER, _ri


class HeroPlay:
    """A hero's choices (mixed into :class:`MythsgateHeuristic`; reads ``MythsgateReading``)."""

    def _hero(self, v: dict, phase: int, legal: set[int]) -> int | None:
        ph = self.phases
        o = self.o["hero"]
        if phase == ph["hero_main"]:
            return self._hero_main(v, legal)
        if phase == ph["commit"]:
            return self._hero_commit(v, legal)
        if phase == ph["place"]:
            return self._hero_place(v, legal)
        if phase == ph["choose_hero"]:
            return self._hero_choose(v, legal)
        if phase == ph["trade"]:
            return o["end_trade"]
        if phase == ph["discard"]:
            opts = [a for a in legal if o["discard"] <= a < o["discard"] + self.K]
            return min(opts, key=lambda a: (self._card_worth(a - o["discard"]), a)) if opts else None
        if phase == ph["pwyll"]:
            return self._hero_pwyll(v, legal)
        return None

    def _card_worth(self, k: int) -> float:
        ic = self.icon[k]
        return float(self.value[k] + (2 if ic == 1 else 0) + (2.5 if ic == 3 else 0) + (1.5 if ic == 2 else 0) + (0.3 if ic == 4 else 0))

    def _hero_comp(self, v: dict) -> np.ndarray:
        comp = self.power_counts.copy()
        for row in v["team_hands"]:
            comp -= self._counts(row, 3)
        comp -= self._counts(v["power_discard"], 5)
        comp -= self._counts(v["combat_hero_cards"], 3) + self._counts(v["combat_inv_cards"], 3)
        return np.maximum(comp, 0)

    def _hero_known(self, v: dict) -> list[int]:
        top = v["hood_top"]
        return [int(np.argmax(top))] if top.any() else []

    def _plan(self, hand: np.ndarray, strength: int, maxp: int, books: list[int], inv_str: int, inv_n: int,
              comp: np.ndarray, known: list[int], attacker: bool, kraken: bool, ban3: bool, ban4: bool,
              stop_at: float = 0.95) -> tuple[float, list[int], list[str]]:
        """Greedy card choice for one combat: (win probability, cards, books used)."""
        hand = hand.copy()
        usable = np.ones(self.K, dtype=bool)
        if ban3:
            usable &= self.value != 3
        if ban4:
            usable &= self.value != 4
        total, slots, n = float(strength), maxp, inv_n
        cache: dict[int, np.ndarray] = {}

        def p(total: float, n: int) -> float:
            if n not in cache:
                cache[n] = self._draw_dist(comp, max(n, 0), kraken, known)
            x = total - inv_str
            return self._p_at_most(cache[n], x if attacker else np.ceil(x) - 1)

        books_used = []
        if books[0] and p(total, n) < stop_at:
            total += self.book_effect[0]
            books_used.append("yellow")
        if books[1] and slots >= 0 and p(total, n) < stop_at and hand[usable].sum() > slots:
            slots += self.book_effect[1]
            books_used.append("red")
        cards: list[int] = []
        while len(cards) < slots and p(total, n) < stop_at:
            best, best_key = None, None
            for k in range(self.K):
                if hand[k] <= 0 or not usable[k]:
                    continue
                t2 = total + self.value[k] + (2 if self.icon[k] == 1 else 0)
                n2 = n - (1 if self.icon[k] == 3 else 0)
                pk = p(t2, n2)
                # equal chances: the cheaper card once the fight is won, else the bigger total
                tie = -self._card_worth(k) if pk >= stop_at else t2 - total - (n2 - n) * 2.5 + (1.0 if self.icon[k] == 2 else 0.0)
                key = (round(pk, 9), tie)
                if best_key is None or key > best_key:
                    best, best_key = k, key
            if best is None:
                break
            hand[best] -= 1
            cards.append(best)
            total += self.value[best] + (2 if self.icon[best] == 1 else 0)
            if self.icon[best] == 3:
                n -= 1
            if self.icon[best] == 2:
                slots += 1
        return p(total, n), cards, books_used

    def _minion_plan(self, v: dict, me: dict, hand: np.ndarray, mi: dict, comp: np.ndarray, known: list[int]) -> float:
        board = v["invoker_board"]
        fury = board[self.bf["fury"]] > 0.5
        dark = board[self.bf["dark_power"]] > 0.5
        g = v["game"]
        p, _, _ = self._plan(
            hand, me["strength"], me["maxp"], me["books"], mi["str"] + (2 if fury else 0), mi["draws"] + (1 if dark else 0),
            comp, known, True, self.minion_ability[mi["m"]] == "kraken", g[self.gf["ban3"]] > 0.5, g[self.gf["ban4"]] > 0.5,
        )
        return p

    def _target_value(self, mi: dict, minions: list[dict]) -> float:
        """What beating this minion is worth: more next to the Castle (a gem saved) and on its
        last life (a kill; the last minion in play wins the game)."""
        val = 1.0
        if self.ca[mi["space"]]:
            val += 1.0  # it would steal a gem at the start of the Invoker's next turn
        if mi["lives"] == 1:
            val += 0.7
            if len(minions) == 1:
                val += 5.0  # the last minion in play: the League wins
        return val

    def _leave_on_portal_side(self, mi: dict, minions: list[dict], heroes: list[dict]) -> bool:
        """With three heroes or more the League holds the Castle approaches and leaves alone a minion
        on the Portal or a space next to it (unless it is the last one in play): there it steals no
        gem next turn, and a hero that fought it would end its turn, its hand spent, where the
        Invoker's fresh minions and his k+1 actions strike (most of his attacks at 4-5 heroes were
        on the Portal, the Market and the Town Power Centre)."""
        if len(heroes) < 3 or self.ca[mi["space"]] or (mi["lives"] == 1 and len(minions) == 1):
            return False
        return bool(self.mdist[self.portal, mi["space"]] <= 1)

    def _spent_on_portal_side(self, dest: int, nhand: int, heroes: list[dict]) -> bool:
        """With three heroes or more, a hero of three cards or fewer does not walk with its last action
        onto the Portal or a space next to it (the Market, the Town Power Centre): it would stand there
        through the Invoker's turn unable to act, a weak defender beside his fresh minions. It waits
        and walks there next turn with an action left to draw, trade or fight."""
        if len(heroes) < 3 or nhand > 3 or self.ca[dest] or self.castle[dest]:
            return False
        return bool(self.mdist[self.portal, dest] <= 1)

    def _push_lands_next(self, space: int) -> bool:
        out = [x for x in self.adj[space] if not self.castle[x]]
        return bool(out) and all(self.ca[x] for x in out)

    def _hero_main(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        g, gf = v["game"], self.gf
        heroes = self._heroes(v)
        me = heroes[0]
        sp = me["space"]
        left = _ri(g[gf["hero_actions_left"]] * 5)
        if me["lives"] <= 0:
            return o["rest"] if o["rest"] in legal else o["end_turn"]
        if o["use_book"] + 2 in legal:
            return o["use_book"] + 2
        hand = self._counts(v["team_hands"][0], 3)
        nhand = int(hand.sum())
        minions = self._minions(v)
        comp = self._hero_comp(v)
        known = self._hero_known(v)
        # combat options
        here, away = [], []
        for mi in minions:
            d = int(self.dist[sp, mi["space"]])
            if d > left - 1:
                continue
            p = self._minion_plan(v, me, hand, mi, comp, known)
            val = self._target_value(mi, minions)
            thr = 0.5 if val >= 2 else 0.62
            if mi["lives"] == 1 and len(minions) == 1:
                thr = 0.3
            if me["lives"] >= 2:
                thr -= 0.05
            if p < thr:
                continue
            if self._leave_on_portal_side(mi, minions, heroes):
                continue
            (here if d == 0 else away).append((p * val, p, d, mi))
        at_pc = o["power_centre"] in legal
        if at_pc and left >= 2 and nhand < me["hand_max"] and not here:
            return o["power_centre"]  # draw before fighting
        if here:
            best = max(here, key=lambda t: (t[0], -t[3]["m"]))
            return o["attack"] + best[3]["m"]
        if at_pc and nhand <= me["hand_max"] - 2:
            return o["power_centre"]
        if away:
            best = max(away, key=lambda t: (t[0] / (1 + 0.15 * t[2]), -t[3]["m"]))
            return self._step_toward(sp, best[3]["space"], legal)
        # no fight this turn: improve
        if o["rest"] in legal and me["lives"] < 2:
            return o["rest"]
        forge = self._forge_choice(me, legal)
        if forge is not None:
            return forge
        market = self._market_choice(v, me, legal)
        if market is not None:
            return market
        if at_pc and nhand < me["hand_max"]:
            return o["power_centre"]
        goal = self._goal(v, me, nhand, minions, heroes)
        if goal == sp:
            can_explore = o["explore"] in legal or o["explore_two"] in legal
            if can_explore and nhand >= 2 and self._explore_space(me) is not None:
                # Pwyll's choice costs his next action too: worth it when a bad encounter would knock him out
                if o["explore_two"] in legal and (me["lives"] < 2 or o["explore"] not in legal):
                    return o["explore_two"]
                return o["explore"] if o["explore"] in legal else o["explore_two"]
            return o["end_turn"]
        step = self._step_toward(sp, goal, legal)
        if step is not None and left == 1 and self._spent_on_portal_side(step - o["move"], nhand, heroes):
            return o["end_turn"]
        return step if step is not None else o["end_turn"]

    def _needs(self, me: dict) -> np.ndarray:
        """Materials still missing for the unforged armour pieces (by forge priority, all of them)."""
        costs = self.char_costs[me["char"]]
        need = np.zeros(self.M, dtype=np.int64)
        for p in PIECE_ORDER:
            if not me["armour"][p]:
                need += costs[p]
        return need

    def _forge_choice(self, me: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        for p in PIECE_ORDER:
            if o["forge"] + p in legal:
                return o["forge"] + p
        return None

    def _market_choice(self, v: dict, me: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        if not any(o["market"] <= a < o["market"] + self.M * self.M for a in legal):
            return None
        costs = self.char_costs[me["char"]]
        mats = me["mats"]
        need_all = self._needs(me)
        first = np.zeros(self.M, dtype=np.int64)  # materials of this piece and those forged before it
        for p in PIECE_ORDER:
            if me["armour"][p]:
                continue
            first = first + costs[p]
            missing = np.maximum(costs[p] - mats, 0)
            if missing.sum() != 1:
                continue
            u = int(np.argmax(missing))
            # give only what no piece forged earlier needs: a trade is never undone by the next one
            spare = [t for t in range(self.M) if mats[t] > first[t] and o["market"] + t * self.M + u in legal]
            if spare:
                t = max(spare, key=lambda t: (mats[t] - need_all[t], -t))
                return o["market"] + t * self.M + u
        return None

    def _market_trade(self, v: dict, me: dict) -> bool:
        """Whether one market trade (a spare material for one on the market) completes a piece."""
        costs = self.char_costs[me["char"]]
        mats = me["mats"]
        market = np.rint(v["market"] * 4).astype(np.int64)
        first = np.zeros(self.M, dtype=np.int64)
        for p in PIECE_ORDER:
            if me["armour"][p]:
                continue
            first = first + costs[p]
            missing = np.maximum(costs[p] - mats, 0)
            if missing.sum() == 1 and market[int(np.argmax(missing))] > 0 and (mats > first).any():
                return True
        return False

    def _goal(self, v: dict, me: dict, nhand: int, minions: list[dict], heroes: list[dict]) -> int:
        sp = me["space"]
        if self.markets and self._market_trade(v, me):
            market = min(self.markets, key=lambda x: (self.dist[sp, x], x))
            if self.dist[sp, market] <= 2:
                return market
        if me["lives"] < 2:
            inn = min(self.inns, key=lambda x: (self.dist[sp, x], x))
            if self.dist[sp, inn] <= 2:
                return inn
        if nhand <= 2:
            return min(self.pcs, key=lambda x: (self.dist[sp, x], self.hero_dist_ca[x], x))
        costs = self.char_costs[me["char"]]
        if self.char_names[me["char"]] != "tiy" and any(
            not me["armour"][p] and (me["mats"] >= costs[p]).all() for p in PIECE_ORDER
        ):
            return min(self.forges, key=lambda x: (self.dist[sp, x], x))
        if nhand < me["hand_max"]:
            pc = min(self.pcs, key=lambda x: (self.dist[sp, x] + self.hero_dist_ca[x], x))
            if self.dist[sp, pc] <= 1:
                return pc
        if nhand >= 2:
            explore = self._explore_space(me)
            if explore is not None:
                return explore
        return self.watch

    def _explore_space(self, me: dict) -> int | None:
        """Where to explore for the basic materials still missing (near the Castle approaches)."""
        missing = np.maximum(self._needs(me) - me["mats"], 0) * self.basic
        if not missing.any():
            return None
        gain = self.deck_mats @ np.minimum(missing, 2)
        if gain.max() <= 0:
            return None
        sp = me["space"]
        cands = [x for x in range(self.S) if self.deck_of[x] >= 0 and gain[self.deck_of[x]] >= gain.max() - 0.05]
        return min(cands, key=lambda x: (self.dist[sp, x] + self.hero_dist_ca[x], -gain[self.deck_of[x]], x))

    def _step_toward(self, sp: int, goal: int, legal: set[int]) -> int | None:
        o = self.o["hero"]
        d = self.dist[sp, goal]
        opts = [x for x in self.adj[sp] if self.dist[x, goal] == d - 1 and o["move"] + x in legal]
        if not opts:
            return None
        return o["move"] + min(opts, key=lambda x: (self.space_kind[x] != "power_centre", x))

    def _hero_commit(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        c, cf = v["combat"], self.cf
        hand = self._counts(v["team_hands"][0], 3)
        ht = _ri(c[cf["hero_total"]] * 20)
        it = _ri(c[cf["inv_total"]] * 20)
        n = _ri(c[cf["inv_draws"]] * 5)
        maxc = _ri(c[cf["hero_max_cards"]] * 5)
        played = int(self._counts(v["combat_hero_cards"], 3).sum())
        attacker = c[cf["hero_attacked"]] > 0.5
        minion = int(np.argmax(v["combat_minion"])) if v["combat_minion"].any() else -1
        kraken = minion >= 0 and self.minion_ability[minion] == "kraken"
        board = v["invoker_board"]
        fury = minion >= 0 and board[self.bf["fury"]] > 0.5 and c[cf["fury_used"]] < 0.5
        dark = minion >= 0 and board[self.bf["dark_power"]] > 0.5 and c[cf["dark_used"]] < 0.5
        inv_str = it + (2 if fury else 0)
        inv_n = n + (1 if dark else 0)
        g = v["game"]
        ban3, ban4 = g[self.gf["ban3"]] > 0.5, g[self.gf["ban4"]] > 0.5
        comp = self._hero_comp(v)
        known = self._hero_known(v)
        books = [0, 0, 0]
        if played == 0:
            books = [int(o["use_book"] + 0 in legal), int(o["use_book"] + 1 in legal), 0]
        slots = maxc - played
        p_full, cards, used = self._plan(hand, ht, slots, books, inv_str, inv_n, comp, known, attacker, kraken, ban3, ban4, 0.93)
        commits = [a for a in legal if o["commit"] <= a < o["commit"] + self.K]
        if p_full < 0.08 and o["fight"] not in legal and commits:
            # hopeless: one card, the least worth
            return min(commits, key=lambda a: (self._card_worth(a - o["commit"]), a))
        if p_full < 0.08 and o["fight"] in legal:
            return o["fight"]
        if "yellow" in used and o["use_book"] in legal:
            return o["use_book"]
        if "red" in used and o["use_book"] + 1 in legal:
            return o["use_book"] + 1
        if cards and o["commit"] + cards[0] in legal:
            return o["commit"] + cards[0]
        if o["fight"] in legal:
            return o["fight"]
        return min(commits, key=lambda a: (self._card_worth(a - o["commit"]), a)) if commits else None

    def _hero_place(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        opts = sorted(a - o["place"] for a in legal if o["place"] <= a < o["place"] + self.S)
        if not opts:
            return None
        pl, f = v["place"], self.plf
        if pl[f["minion"]] > 0.5:
            heroes = self._heroes(v)
            # push it as far from the Castle approaches as it may go, near heroes still to play
            def score(x: int) -> tuple:
                dh = min((self.dist[h["space"], x] for h in heroes if not h["done"] and h["lives"] > 0), default=9)
                return (self.dist_ca[x], -dh, -x)

            return o["place"] + max(opts, key=score)
        # our own token (starting inn, knocked out): the inn nearest the Castle approaches
        return o["place"] + min(opts, key=lambda x: (self.hero_dist_ca[x], x))

    def _hero_choose(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        heroes = {h["slot"]: h for h in self._heroes(v)}
        minions = self._minions(v)
        comp = self._hero_comp(v)
        known = self._hero_known(v)
        best, best_val = None, -1.0
        for a in sorted(legal):
            r = a - o["choose_hero"]
            if not 0 <= r < 5 or r not in heroes:
                continue
            h = heroes[r]
            hand = self._counts(v["team_hands"][r], 3)
            val = 0.0
            if h["lives"] > 0:
                acts = max(1, h["level"] - (1 if h["boots_token"] else 0))
                for mi in minions:
                    if self.dist[h["space"], mi["space"]] <= acts - 1:
                        p = self._minion_plan(v, h, hand, mi, comp, known)
                        val = max(val, p * self._target_value(mi, minions))
            if val > best_val + 1e-9:
                best, best_val = a, val
        return best

    def _hero_pwyll(self, v: dict, legal: set[int]) -> int | None:
        o = self.o["hero"]
        me = self._heroes(v)[0]
        need = self._needs(me)
        f = self.locf
        best, best_val = None, -9.0
        for i, row in enumerate(v["pwyll_cards"]):
            a = o["pick_card"] + i
            if a not in legal:
                continue
            if row[f["encounter"]] > 0.5:
                val = 0.5 - 0.3 * row[f["strength"]] * 10 - 0.5 * row[f["power"]] * 5 + me["strength"] * 0.3
            elif row[: self.M].any():
                t = int(np.argmax(row[: self.M]))
                val = 2.0 if need[t] > me["mats"][t] else 0.8
            else:
                val = 1.5
            if val > best_val:
                best, best_val = a, val
        return best
