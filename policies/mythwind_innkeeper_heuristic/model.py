"""The Innkeeper heuristic's model: tonight's seating and what tokens, cards and rows are worth.

Tonight: a maximum matching of the drawn guests to the free furniture that meets their requests,
greedy by guest worth. The nights to come: every guest in the bag drawn with probability
``guests per day / guests in the pool``; per furniture type the expected number seated is
``E[min(demand, furniture of that type)]``. Buying, repairing, selling, losing a token and each
Operate row are valued in coins over the days left.
"""

from __future__ import annotations

import numpy as np

from mythzoo.policies.mythwind_innkeeper_heuristic.reading import (
    ADJ,
    COIN_SKILLS,
    DEPENDENTS,
    GUEST_SKILLS,
    GUESTS_PER_DAY,
    HORIZON,
    NEAR,
    NF,
    PARTY_RENOWN_WEIGHT,
    PAMPER_AT_PARTY,
    RENOWN_VALUE,
    UPKEEP_LEVEL_DAYS,
    UPKEEP_LEVEL_STEP,
    SKILL_USE_SHARE,
    SUPPORT,
    _View,
)


class InnModel:
    """Seating and valuation (mixed into :class:`MythwindInnkeeperHeuristic`; reads ``InnReading``)."""

    @staticmethod
    def _have(s: _View, acc: list[int], dmg: list[bool], served: bool) -> list[bool]:
        have = [False] * 11
        for d, a in enumerate(acc):
            if a >= 0 and not dmg[d]:
                have[a] = True
        if served:
            for loc, serv, _, _ in s.cards:
                if loc == "served":
                    for t in serv:
                        have[t] = True
        return have

    @staticmethod
    def _style_counts(s: _View, acc: list[int], dmg: list[bool], sty: list[int], served: bool) -> list[int]:
        cnt = [0, 0, 0]
        for d, a in enumerate(acc):
            if a >= 0 and not dmg[d] and sty[d] >= 0:
                cnt[sty[d]] += 1
        if served:
            for loc, _, icons, _ in s.cards:
                if loc == "served":
                    for x in range(3):
                        cnt[x] += icons[x]
        return cnt

    def _options(self, s: _View, g: int, acc, dmg, sty, occ, have, emb) -> list[int]:
        """Free slots where guest ``g`` would sit satisfied."""
        if any(not have[t] for t in s.gserv[g]):
            return []
        style = s.gstyle[g]
        if style >= 0 and not emb[style]:
            return []
        f = s.gfurn[g]
        out = []
        for d in range(25):
            if acc[d] == f and not dmg[d] and not occ[d]:
                if style >= 0 and not any(acc[x] >= 0 and not dmg[x] and sty[x] == style for x in NEAR[d]):
                    continue
                out.append(d)
        return out

    def _matching(self, s: _View, guests: list[int], acc=None, dmg=None, sty=None, occ=None, extra_cards=()) -> dict[int, int]:
        """Guest -> slot for a maximum matching, greedy by worth (first in ``guests`` wins ties)."""
        acc = s.acc if acc is None else acc
        dmg = s.dmg if dmg is None else dmg
        sty = s.sty if sty is None else sty
        occ = s.occ if occ is None else occ
        have = self._have(s, acc, dmg, True)
        cnt = self._style_counts(s, acc, dmg, sty, True)
        for c in extra_cards:
            for t in s.cards[c][1]:
                have[t] = True
            for x in range(3):
                cnt[x] += s.cards[c][2][x]
        emb = [c >= 2 for c in cnt]
        opts = {g: self._options(s, g, acc, dmg, sty, occ, have, emb) for g in guests}
        order = sorted((g for g in guests if opts[g]), key=lambda g: -s.gworth[g])
        slot_of: dict[int, int] = {}
        guest_at: dict[int, int] = {}

        def augment(g: int, seen: set[int]) -> bool:
            for d in opts[g]:
                if d in seen:
                    continue
                seen.add(d)
                if d not in guest_at or augment(guest_at[d], seen):
                    guest_at[d] = g
                    slot_of[g] = d
                    return True
            return False

        for g in order:
            augment(g, set())
        return slot_of

    def _tonight(self, s: _View, **kw) -> float:
        """Worth of tonight's best seating of the drawn guests."""
        drawn = [g for g in range(len(s.gloc)) if s.gloc[g] == "drawn"]
        return sum(s.gworth[g] for g in self._matching(s, drawn, **kw))

    def _pool(self, s: _View) -> tuple[list[int], float]:
        pool = [g for g in range(len(s.gloc)) if s.gloc[g] != "supply"]
        n = GUESTS_PER_DAY[min(s.renown, len(GUESTS_PER_DAY) - 1)]
        return pool, min(1.0, n / max(1, len(pool)))

    def _expected(self, s: _View, cap: list[int], have: list[bool], cnt: list[float]) -> float:
        """Expected worth seated per night by furniture capacity ``cap``, services ``have``, style counts."""
        pool, p = self._pool(s)
        total = 0.0
        for f in range(NF):
            if cap[f] <= 0:
                continue
            ws = []
            for g in pool:
                if s.gfurn[g] != f or any(not have[t] for t in s.gserv[g]):
                    continue
                st = s.gstyle[g]
                share = 1.0 if st < 0 else min(1.0, max(0.0, cnt[st] - 1.0))  # one token of two counts half
                if share > 0:
                    ws.append((s.gworth[g], share))
            if not ws:
                continue
            k = cap[f]
            dist = np.zeros(k + 1)
            dist[0] = 1.0
            for _, share in ws:
                q = p * share
                nd = dist * (1 - q)
                nd[1:] += dist[:-1] * q
                nd[k] += dist[k] * q
                dist = nd
            mean_w = sum(w * sh for w, sh in ws) / sum(sh for _, sh in ws)
            total += float(np.dot(dist, np.arange(k + 1))) * mean_w
        return total

    def _config(self, s: _View, acc=None, dmg=None, sty=None) -> tuple[list[int], list[bool], list[float]]:
        acc = s.acc if acc is None else acc
        dmg = s.dmg if dmg is None else dmg
        sty = s.sty if sty is None else sty
        cap = [0] * NF
        for d, a in enumerate(acc):
            if 0 <= a < NF and not dmg[d]:
                cap[a] += 1
        return cap, self._have(s, acc, dmg, False), [float(c) for c in self._style_counts(s, acc, dmg, sty, False)]

    def _skill_uses(self, s: _View, row: int) -> float:
        """Expected resolutions left of a skill in ``row`` (one character action a day; none in a
        row the player may not take)."""
        if row in self.banned_rows:
            return 0.0
        frac = SKILL_USE_SHARE[row]
        return s.days_left * frac

    def _skill_coins(self, s: _View, t: int, style: int) -> float:
        """Coins the learnt coin skills pay over the days left for one more token of type ``t``/``style``."""
        total = 0.0
        for k, row in enumerate(s.skill_row):
            key = self.skill_keys[k]
            if row < 0 or key not in COIN_SKILLS:
                continue
            by_type, arg, per = COIN_SKILLS[key]
            if (by_type and arg == t) or (not by_type and arg == style):
                total += per * self._skill_uses(s, row)
        return total

    def _token_gain(self, s: _View, t: int, style: int, base: float, conf) -> float:
        cap, have, cnt = list(conf[0]), list(conf[1]), list(conf[2])
        if t < NF:
            cap[t] += 1
        else:
            have[t] = True
        if style >= 0:
            cnt[style] += 1
        return self._expected(s, cap, have, cnt) - base

    def _buy_value(self, s: _View, a: int, base: float, conf, tonight: bool = True) -> float:
        """Net coins expected from buying token ``a`` now."""
        _, t, cost, _, style, _ = s.tok[a]
        days = s.days_left * HORIZON
        gain = self._token_gain(s, t, style, base, conf) * days + self._skill_coins(s, t, style)
        if t in DEPENDENTS:  # a kitchen (stage) with the cheapest drink and food (music and play) after it
            cap, have, cnt = list(conf[0]), list(conf[1]), list(conf[2])
            have[t] = True
            extra = 0
            for dep in DEPENDENTS[t]:
                costs = [c for sup, ty, c, req, _, _ in s.tok if sup and ty == dep and req <= s.level]
                if costs and not have[dep]:
                    have[dep] = True
                    extra += min(costs)
            if style >= 0:
                cnt[style] += 1
            bundle = (self._expected(s, cap, have, cnt) - base) * max(0.0, days - 2) - extra
            gain = max(gain, bundle)
        return gain - cost + (cost // 2) * HORIZON  # the score counts the token at its sale value, if it lasts

    def _removal_loss(self, s: _View, d: int, base: float, conf) -> float:
        """Coins expected to be lost over the days left if the token in slot ``d`` were gone."""
        acc = list(s.acc)
        acc[d] = -1
        cap, have, cnt = self._config(s, acc=acc)
        loss = (base - self._expected(s, cap, have, cnt)) * s.days_left * HORIZON
        t = s.acc[d]
        loss += self._skill_coins(s, t, s.sty[d])
        if t in DEPENDENTS:
            loss += sum(s.cost[y] / 2 for y in ADJ[d] if s.acc[y] in DEPENDENTS[t])
        return loss

    # operate: the row worth most today.
    def _row_skill(self, s: _View, row: int) -> float:
        for k, r in enumerate(s.skill_row):
            if r != row:
                continue
            key = self.skill_keys[k]
            if key in COIN_SKILLS:
                by_type, arg, per = COIN_SKILLS[key]
                return per * sum(1 for d, a in enumerate(s.acc) if a >= 0 and not s.dmg[d] and ((by_type and a == arg) or (not by_type and s.sty[d] == arg)))
            if key in GUEST_SKILLS:
                return 0.5
            if key == "entertainer":
                return 0.5 if s.cloudy else 0.0
        return 0.0

    def _improve_plan(self, s: _View, legal_buys: list[int] | None = None) -> tuple[float, int | None]:
        """(net value, token) of the best purchase affordable now, or (0, None)."""
        conf = self._config(s)
        base = self._expected(s, *conf)
        best, best_val = None, 0.0
        seen: set[tuple] = set()
        for a, (sup, t, cost, req, style, _) in enumerate(s.tok):
            if not sup or req > s.level or cost > s.coins:
                continue
            if legal_buys is not None and a not in legal_buys:
                continue
            if t in SUPPORT and legal_buys is None and not self._support_room(s, SUPPORT[t]):
                continue
            key = (t, cost, style)
            if key in seen:
                continue
            seen.add(key)
            val = self._buy_value(s, a, base, conf)
            if val > best_val:
                best, best_val = a, val
        return best_val, best

    def _support_room(self, s: _View, need: int) -> bool:
        return any(s.acc[d] == need and any(s.acc[y] < 0 for y in ADJ[d]) for d in range(25))

    def _days_to_upkeep(self, s: _View) -> int:
        """Days after today before the season's upkeep (0 on its last day)."""
        return (s.days_left - 1) % self.days_per_season

    def _step_value(self, s: _View) -> float:
        """Coins one renown step is worth now: RENOWN_VALUE, but less than nothing at a level's top
        slot on a season's last days (the next step would meet the upkeep at the next level)."""
        r = s.renown
        if self._days_to_upkeep(s) < UPKEEP_LEVEL_DAYS and r + 1 < len(self.levels) and self.levels[r + 1] > self.levels[r]:
            return -UPKEEP_LEVEL_STEP
        return RENOWN_VALUE

    def _dusk_renown(self, s: _View, seated_tonight: int) -> int:
        """Tonight's satisfaction step (+1 or -1) if ``seated_tonight`` of the drawn guests are seated."""
        seated = sum(1 for g in s.gloc if g == "seated") + seated_tonight
        unseated = len(self._drawn(s)) - seated_tonight
        return 1 if seated > unseated else -1

    def _card_gain(self, s: _View, c: int, base_tonight: float) -> float:
        drawn = self._drawn(s)
        n0, n1 = len(self._matching(s, drawn)), len(self._matching(s, drawn, extra_cards=(c,)))
        swing = (self._dusk_renown(s, n1) - self._dusk_renown(s, n0)) * self._step_value(s)
        return self._tonight(s, extra_cards=(c,)) - base_tonight + swing

    def _mingle_gain(self, s: _View, c: int) -> float:
        eff = s.cards[c][3]
        return float(eff[0] + eff[1] * RENOWN_VALUE * 1.5 + eff[2] * 0.5)

    def _pamper_gain(self, s: _View) -> tuple[float, int | None, int | None]:
        drawn = self._drawn(s)
        match = self._matching(s, drawn)
        left = [g for g in drawn if g not in match]
        used = set(match.values())
        free = [d for d in range(25) if 0 <= s.acc[d] < NF and not s.dmg[d] and not s.occ[d] and d not in used]
        if not left or not free:
            return -1.0, None, None
        g = max(left, key=lambda x: s.gworth[x])
        party = [d for d in free if s.acc[d] == s.party_type] if PAMPER_AT_PARTY else []
        if party:  # seated on the furniture a party enhances, the pampered guest earns its coins too
            free = party + [d for d in free if d not in party]
        # A pampered guest counts as seated and no longer as unseated: tonight's step may turn.
        n = len(match)
        step = self._step_value(s)
        swing = (self._dusk_renown(s, n + 1) - self._dusk_renown(s, n)) * step
        swing -= step * (1 if s.renown > 0 else 0)
        return 1.0 + s.gworth[g] - 1.0 + swing + (PAMPER_AT_PARTY * s.party_coins if party else 0.0), g, free[0]

    def _party_gain(self, s: _View) -> tuple[float, int | None]:
        if s.party_coins <= 0:
            return -1.0, None
        drawn = self._drawn(s)
        match = self._matching(s, drawn)
        by_type = [0] * NF
        for d in match.values():
            by_type[s.acc[d]] += 1
        for d in range(25):
            if s.occ[d] and 0 <= s.acc[d] < NF:
                by_type[s.acc[d]] += 1
        slots = [d for d in range(25) if 0 <= s.acc[d] < NF and not s.dmg[d]]
        if not slots:
            return -1.0, None
        d = max(slots, key=lambda x: by_type[s.acc[x]])
        return s.party_coins * by_type[s.acc[d]] - PARTY_RENOWN_WEIGHT * self._step_value(s) * min(2, s.renown), d

    def _repair_sell_value(self, s: _View) -> float:
        conf = self._config(s)
        base = self._expected(s, *conf)
        best = 0.0
        for d in range(25):
            if s.acc[d] >= 0 and s.dmg[d]:
                rc = (s.cost[d] + 1) // 2
                if rc <= s.coins:
                    best = max(best, self._repair_gain(s, d, base) - rc)
            elif s.acc[d] >= 0 and not s.occ[d]:
                best = max(best, -self._removal_loss(s, d, base, conf) - self._tonight_loss(s, d))  # a sale is score-neutral
        return best

    def _repair_gain(self, s: _View, d: int, base: float) -> float:
        dmg = list(s.dmg)
        dmg[d] = False
        cap, have, cnt = self._config(s, dmg=dmg)
        return (self._expected(s, cap, have, cnt) - base) * s.days_left * HORIZON + self._skill_coins(s, s.acc[d], s.sty[d]) + 0.01

    def _tonight_loss(self, s: _View, d: int) -> float:
        acc = list(s.acc)
        acc[d] = -1
        return self._tonight(s) - self._tonight(s, acc=acc)

    def _keep_value(self, s: _View, d: int, base: float, conf) -> float:
        v = self._removal_loss(s, d, base, conf) + s.cost[d] * 0.2
        if s.occ[d]:
            v += 2.0
        if s.dmg[d]:
            v -= 50.0
        return v
