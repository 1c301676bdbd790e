"""A rule-based Mythwind Innkeeper player that sees only what an agent sees: observation and mask.

It reads the observation through the env's named layout and the action table's ranges (never the
engine), so it plays from any observation source, batched or not. Its plan:

* **Seating** (dusk): a maximum matching of tonight's guests to the free furniture that meets their
  requests, built greedily in order of guest worth (1 coin plus the complaints avoided), so it
  seats as many guests as possible front facing and leaves the mildest guests unseated.
* **Buying** (Improve): a model of the nights to come. Every guest in the bag is drawn with
  probability ``guests per day / guests in the pool``; for each furniture type the expected number
  seated is ``E[min(demand, furniture of that type)]`` over the guests whose services and style the
  inn can meet. A token is bought when the extra guests it seats over the days left (plus the coins
  the learnt skills pay for it) exceed its cost; kitchens and stages are also valued together with
  the drink/food (music/play) they make room for. Damaged tokens are repaired on the same test, and
  near the end a token whose remaining worth is below half its cost is sold.
* **Operate**: the row worth most today: its skill's coins, plus the purchase (Improve), the gossip
  card that seats the most extra guests tonight (Serve), the best adventure effect (Mingle), a
  pampered guest who could not be seated anyway (Pamper) or the party bonus (Party), less the
  renown the action costs.
* **Skills**: coin skills (a coin per table, bar, door; per cultured or frontier token) are learnt
  when they pay back over the days left, into rows the alignment lets it play; guest skills return
  guests who cannot be seated.
* **Workers**: a villager die is hired when coins are spare, and dice work the row worth most
  (usually Mingle, whose adventure cards pay coins at the next dawn).
* **Complaints and upkeep**: the token lost or damaged is the one worth least (damaged first).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mythzoo.policies.base import BasePolicy, check_mask

FURNITURE = ("window", "door", "table", "bar", "fireplace")
SERVICES = ("kitchen", "drink", "food", "stage", "music", "play")
STYLES = ("cultured", "imperial", "frontier")
ROWS = ("pamper", "improve", "serve", "mingle", "party")
NF = len(FURNITURE)
WINDOW, DOOR, TABLE, BAR, FIREPLACE, KITCHEN, DRINK, FOOD, STAGE, MUSIC, PLAY = range(11)
SUPPORT = {DRINK: KITCHEN, FOOD: KITCHEN, MUSIC: STAGE, PLAY: STAGE}
DEPENDENTS = {KITCHEN: (DRINK, FOOD), STAGE: (MUSIC, PLAY)}
GRID = 5
ADJ = [
    [(r + dr) * GRID + c + dc for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)) if 0 <= r + dr < GRID and 0 <= c + dc < GRID]
    for r in range(GRID) for c in range(GRID)
]
NEAR = [
    [(r + dr) * GRID + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < GRID and 0 <= c + dc < GRID]
    for r in range(GRID) for c in range(GRID)
]
# Guests welcomed per renown slot on an ordinary day (the journal: 6 at level I); a prior for the model.
GUESTS_PER_DAY = (6, 6, 6, 7, 7, 8, 8, 9, 9, 10)
# Coin skills: key -> (counts a type (True) or a style (False), index, coins per token).
COIN_SKILLS = {
    "musical_ear": (True, BAR, 1), "waxed_furniture": (True, TABLE, 1), "quartermaster": (True, DOOR, 1),
    "patron": (False, 0, 2), "charming": (False, 2, 3),
}
HIRE = True  # hire villager dice to Mingle
HIRE_RESERVE = 12.0  # coins kept for purchases before hiring
GUEST_SKILLS = ("rumormonger", "waiting_list", "favorite")
RENOWN_VALUE = 1.0  # coins one step of renown is worth
LOSE_VALUE = 3.0  # coins a "lose an accommodation" complaint costs
DRAW_VALUE = 0.5
HORIZON = 0.85  # share of the days left a new token is expected to serve (upkeep damage, delays)


class _View:
    """The observation decoded into plain Python values."""


class MythwindInnkeeperHeuristic(BasePolicy):
    """Model-based greedy innkeeper for ``mythwind_innkeeper_v0``."""

    name = "heuristic"

    def __init__(self, env: Any, seed: int | None = None):
        u = env.unwrapped
        self.layout = u.observation_layout()
        self.table = u.action_table()
        self.rng = np.random.default_rng(seed)
        cfg = dict(getattr(u, "config", {}) or {})
        self.days_per_season = int(cfg.get("days_per_season", 6))
        self.total_days = max(1, self.days_per_season * int(cfg.get("seasons", 4)))
        self.o = {r.name: r.offset for r in self.table.ranges}
        self.n = {r.name: r.size for r in self.table.ranges}
        by = self.layout.by_name

        def idx(piece: str, axis: int = 1) -> dict[str, int]:
            return {name: i for i, name in enumerate(by[piece].axes[axis])}

        self.phases = list(by["phase"].axes[0])
        self.sc = idx("scalars", 0)
        self.wf = idx("weather", 0)
        self.gf, self.gu, self.af, self.cf, self.kf, self.df = (
            idx("grid"), idx("guests"), idx("accommodations"), idx("gossip"), idx("skills"), idx("dice"))
        self.skill_keys = list(by["skills"].axes[0])
        self.track = by["renown"].shape[0]
        # learn(k, r) labels: "<key> in row <row>".
        self.learn_args = []
        for label in self.table.ranges[[r.name for r in self.table.ranges].index("learn")].labels:
            key, row = label.split(" in row ")
            self.learn_args.append((self.skill_keys.index(key), ROWS.index(row)))
        self.n_rows = self.n["operate"]

    # ------------------------------------------------------------------ reading
    def _read(self, obs: np.ndarray) -> _View:
        v = self.layout.views(np.asarray(obs, dtype=np.float32))
        s = _View()
        sc = v["scalars"]
        s.phase = self.phases[int(np.argmax(v["phase"]))]
        s.coins = int(round(sc[self.sc["coins"]] * 50))
        s.party_coins = int(round(sc[self.sc["party_coins"]] * 3))
        s.days_left = max(1, int(round(sc[self.sc["days_left"]] * self.total_days)))
        s.improve_used = [sc[self.sc[k]] > 0.5 for k in ("improve_bought", "improve_moved", "improve_sold")]
        s.skill_picks = int(round(sc[self.sc["skill_picks_left"]] * 2))
        s.renown = int(np.argmax(v["renown"]))
        s.level = int(np.argmax(v["renown_level"])) + 1
        w = v["weather"]
        s.sprite = w[self.wf["aligned_sprite"]] > 0.5
        s.cloudy = w[self.wf["today_cloudy"]] > 0.5
        # Grid.
        g, gf = v["grid"], self.gf
        t0, s0 = gf["type_window"], gf["style_cultured"]
        has = g[:, gf["has_accommodation"]] > 0.5
        s.acc = np.where(has, g[:, t0 : t0 + 11].argmax(1), -1).tolist()
        s.dmg = (g[:, gf["damaged"]] > 0.5).tolist()
        st = g[:, s0 : s0 + 3]
        s.sty = np.where(st.any(1), st.argmax(1), -1).tolist()
        s.occ = (g[:, gf["guest"]] > 0.5).tolist()
        s.cost = np.rint(g[:, gf["cost"]] * 15).astype(int).tolist()
        s.outer = (g[:, gf["outer"]] > 0.5).tolist()
        # Guests.
        gu, G = self.gu, v["guests"]
        w0, ws0, c0 = gu["wants_window"], gu["wants_cultured"], gu["complaint_coins"]
        s.gloc = [("supply", "bag", "drawn", "quiet", "seated")[i] for i in G[:, :5].argmax(1).tolist()]
        s.gfurn = G[:, w0 : w0 + NF].argmax(1).tolist()
        serv = G[:, w0 + NF : w0 + 11] > 0.5
        s.gserv = [[NF + j for j in np.flatnonzero(row).tolist()] for row in serv]
        st = G[:, ws0 : ws0 + 3]
        s.gstyle = np.where(st.any(1), st.argmax(1), -1).tolist()
        comp = G[:, c0] * 3 + G[:, c0 + 1] * RENOWN_VALUE + G[:, c0 + 2] * LOSE_VALUE + G[:, c0 + 3] * DRAW_VALUE
        s.gworth = (1.0 + comp.astype(np.float64)).tolist()
        # Accommodation tokens: (in supply, type, cost, renown required, style, to place at setup).
        af, A = self.af, v["accommodations"]
        a_t0, a_s0, a_r0 = af["type_window"], af["style_cultured"], af["renown_1"]
        st = A[:, a_s0 : a_s0 + 3]
        s.tok = list(zip(
            (A[:, af["in_supply"]] > 0.5).tolist(), A[:, a_t0 : a_t0 + 11].argmax(1).tolist(),
            np.rint(A[:, af["cost"]] * 15).astype(int).tolist(), (A[:, a_r0 : a_r0 + 3].argmax(1) + 1).tolist(),
            np.where(st.any(1), st.argmax(1), -1).tolist(), (A[:, af["to_place"]] > 0.5).tolist(),
        ))
        # Gossip cards: (place, services shown, style icons, effect amounts).
        cf, C = self.cf, v["gossip"]
        locs = C[:, :5].argmax(1).tolist()
        s.cards = []
        for i, row in enumerate(C):
            serv = [NF + j for j in range(6) if row[cf["shows_kitchen"] + j] > 0.5]
            icons = [int(round(float(x))) for x in row[cf["icon_cultured"] : cf["icon_cultured"] + 3]]
            eff = (row[cf["effect_coins"] : cf["effect_coins"] + 3] * 3).astype(np.float64)
            s.cards.append((("deck", "deck_bottom", "hand", "served", "adventure")[locs[i]], serv, icons, eff))
        # Skills.
        kf, K = self.kf, v["skills"]
        rows = K[:, kf["row_pamper"] : kf["row_pamper"] + 5].argmax(1)
        s.skill_row = np.where(K[:, kf["gained"]] > 0.5, rows, -1).tolist()
        D, df = v["dice"], self.df
        s.dice = list(zip((D[:, df["hired"]] > 0.5).tolist(), (D[:, df["type_villager"]] > 0.5).tolist()))
        s.skill_cost = np.rint(K[:, kf["cost"]] * 30).astype(int).tolist()
        s.selected_guest = int(np.argmax(v["selected_guest"])) if v["selected_guest"].any() else -1
        s.selected_token = int(np.argmax(v["selected_token"])) if v["selected_token"].any() else -1
        s.row = int(np.argmax(v["operate_row"])) if v["operate_row"].any() else -1
        s.lose_type = int(np.argmax(v["pending"][3:])) if v["pending"][3:].any() else -1
        return s

    # --------------------------------------------------------------- inn facts
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

    # ------------------------------------------------------------ tonight's seats
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

    # ---------------------------------------------------------------- the model
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
        """Expected resolutions left of a skill in ``row`` (one character action a day)."""
        frac = {1: 0.5, 3: 0.5, 2: 0.3, 0: 0.1, 4: 0.1}[row]
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
        return gain - cost

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

    # ------------------------------------------------------------------- acting
    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """One legal action chosen by the rules above."""
        mask = np.asarray(action_mask)
        check_mask(mask)
        legal = [int(a) for a in np.flatnonzero(mask)]
        s = self._read(observation)
        handler = getattr(self, f"_ph_{s.phase}", None)
        choice = handler(s, set(legal)) if handler is not None else None
        if choice is None or not mask[choice]:
            choice = legal[0] if len(legal) == 1 else int(self.rng.choice(legal))
        return int(choice)

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
    def _ph_town(self, s: _View, legal: set[int]) -> int | None:
        best, best_val = self.o["town_pass"], 0.0
        for arg in self._in(legal, "learn"):
            k, row = self.learn_args[arg]
            if row in s.skill_row:
                continue  # keep the learnt skills where they are
            key = self.skill_keys[k]
            if key not in COIN_SKILLS:
                continue
            by_type, targ, per = COIN_SKILLS[key]
            count = sum(1 for d, a in enumerate(s.acc) if a >= 0 and not s.dmg[d] and ((by_type and a == targ) or (not by_type and s.sty[d] == targ)))
            count += 0.5  # tokens still to come
            frac_ok = row in (1, 3) or (row == 2 and all(r in s.skill_row for r in (1, 3)))
            if not frac_ok:
                continue
            val = per * count * self._skill_uses(s, row) - s.skill_cost[k] * 1.3
            if val > best_val:
                best, best_val = self.o["learn"] + arg, val
        # Hire a villager die for Mingle (each pip: an adventure card's coins) while it can pay back.
        hire = self.o["hire"] + 1
        spare = s.days_left >= 4 and s.coins >= 3 + HIRE_RESERVE and not any(h and ty for h, ty in s.dice)
        if best == self.o["town_pass"] and hire in legal and HIRE and spare:
            return hire
        return best

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

    def _card_gain(self, s: _View, c: int, base_tonight: float) -> float:
        return self._tonight(s, extra_cards=(c,)) - base_tonight

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
        return 1.0 + s.gworth[g] - 1.0 - RENOWN_VALUE * (1 if s.renown > 0 else 0), g, free[0]

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
        return s.party_coins * by_type[s.acc[d]] - 2 * RENOWN_VALUE * min(2, s.renown), d

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
                v += max((self._card_gain(s, c, base_tonight) for c in hand), default=0.0)
            elif r == 3:
                v += max((self._mingle_gain(s, c) for c in hand), default=0.0) + 0.3
            elif r == 0:
                v += self._pamper_gain(s)[0]
            elif r == 4:
                v += self._party_gain(s)[0]
            vals[r] = v
        best = max(rows, key=lambda r: (vals[r], r == 1))
        return self.o["operate"] + best

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
                best = max(best, s.cost[d] // 2 - self._removal_loss(s, d, base, conf) - self._tonight_loss(s, d))
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
            val = s.cost[d] // 2 - self._removal_loss(s, d, base, conf) - self._tonight_loss(s, d)
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
        if key == "worker_encouragement":
            return self.o["done"]
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
                v = max((self._card_gain(s, c, base_tonight) for c in hand), default=0.0)
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

    def _keep_value(self, s: _View, d: int, base: float, conf) -> float:
        v = self._removal_loss(s, d, base, conf) + s.cost[d] * 0.2
        if s.occ[d]:
            v += 2.0
        if s.dmg[d]:
            v -= 50.0
        return v

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
