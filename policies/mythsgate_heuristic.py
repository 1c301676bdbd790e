"""A rule-based Mythsgate player for either side that sees only what an agent sees.

One object plays the Great Invoker or any hero, chosen by the ``agent`` argument (its role; with no
agent, by the observation's length). It reads the observation vector through the env's named layout
and picks among the legal ids of the env's action table, never looking at the engine state; the
static game data (map, hero boards, Power card kinds) is public and read once at construction. Every
choice is a deterministic function of (observation, mask), so batched and single calls agree.

The Great Invoker: sacrifice every minion next to the Castle (a last life only while another minion
stays in play, or for the tenth gem), invoke minions while keeping an action to move them, move every
minion onto the spaces next to the Castle (the one the heroes threaten least), attack heroes he likely
beats, then spend spare actions on +3F/+1P/X3/X4 cards, Teleport and minion abilities; Fury and Dark
Power when they can turn a combat; track and token choices by value.

A hero: gain a life when knocked out, attack a minion on its space it likely beats (most eagerly those
next to the Castle and those it kills), otherwise walk to one it can reach and beat this turn, draw
at Power Centres when its hand is short, rest at inns, forge armour (weapon, amulet, boots, pack),
trade at the market toward a forge cost, explore for materials, and otherwise wait at the Portal, one
move from every space next to the Castle. In a combat it commits the cards that raise its chance of
winning most until that chance is high (one cheap card when the fight is hopeless), using books when
they help; a beaten minion is pushed as far from the Castle as it may go.
"""

from __future__ import annotations

from collections import deque
from math import comb
from typing import Any

import numpy as np
from mythzoo.policies.base import BasePolicy, check_mask


def _ri(x: float) -> int:
    """Nearest int (observation entries are scaled counts)."""
    return int(np.rint(x))


ICON_NAMES = ("", "+2F", "+1P", "chains", "draw")
PIECE_ORDER = (0, 1, 2, 3)  # weapon, amulet, boots, pack: forge priority


def _kinds_from_labels(labels: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(value, icon index) per Power card kind, parsed from action labels such as ``3+2F``."""
    values, icons = [], []
    for lab in labels:
        i = 0
        while i < len(lab) and lab[i].isdigit():
            i += 1
        values.append(int(lab[:i]))
        icons.append(ICON_NAMES.index(lab[i:]))
    return np.array(values), np.array(icons)


class MythsgateHeuristic(BasePolicy):
    """Greedy rule-based player of both Mythsgate roles (``invoker`` and ``hero_*``)."""

    name = "heuristic"

    def __init__(self, env: Any, seed: int | None = None):
        u = env.unwrapped
        self.rng = np.random.default_rng(seed)  # kept for the interface; every choice is deterministic
        self.role_of = u.agent_role
        inv_agent = next(a for a in u.possible_agents if u.agent_role(a) == "invoker")
        hero_agent = next(a for a in u.possible_agents if u.agent_role(a) != "invoker")
        self.L = {"invoker": u.observation_layout(inv_agent), "hero": u.observation_layout(hero_agent)}
        self.T = {"invoker": u.action_table(inv_agent), "hero": u.action_table(hero_agent)}
        self.size_role = {self.L[r].size: r for r in self.L}
        self.o = {r: {rg.name: rg.offset for rg in self.T[r].ranges} for r in self.T}
        lay = self.L["hero"]

        def axis(piece: str, i: int, layout: Any = lay) -> dict[str, int]:
            return {name: j for j, name in enumerate(layout.by_name[piece].axes[i])}

        self.phases = {name: j for j, name in enumerate(lay.by_name["phase"].axes[0])}
        self.gf = axis("game", 0)
        self.hf = axis("heroes", 1)
        self.mf = axis("minions", 1)
        self.cf = axis("combat", 0)
        self.bf = axis("invoker_board", 0)
        self.plf = axis("place", 0)
        self.locf = axis("pwyll_cards", 1)
        self.inv_status = axis("invoker_cards", 1, self.L["invoker"])
        self.mats = [n[4:] for n in self.hf if n.startswith("mat_")]
        self.M = len(self.mats)
        self.hf_at = self.hf[next(n for n in self.hf if n.startswith("at_"))]
        self.mf_at = self.mf[next(n for n in self.mf if n.startswith("at_"))]
        self.hf_mat = self.hf["mat_" + self.mats[0]]
        self.hf_char = self.hf["char_hood"]
        self.hf_arm = self.hf["armour_weapon"]
        # Power card kinds (from the action labels) and the printed deck.
        kinds = self.T["hero"].ranges[[r.name for r in self.T["hero"].ranges].index("commit")].labels
        self.value, self.icon = _kinds_from_labels(kinds)
        self.K = len(kinds)
        # Public static data: the map, the boards, the cards.
        gd = u.data
        self.S = gd.num_spaces
        self.adj = [tuple(a) for a in gd.adj]
        self.castle = np.array(gd.castle, dtype=bool)
        self.ca = np.array(gd.castle_adjacent, dtype=bool)  # spaces minions sacrifice from
        self.ca_spaces = [x for x in range(self.S) if self.ca[x]]
        self.inns = list(gd.inns)
        self.space_kind = list(gd.kind)
        self.portal = gd.portal
        self.pcs = [x for x in range(self.S) if gd.kind[x] == "power_centre"]
        self.forges = [x for x in range(self.S) if gd.kind[x] == "forge"]
        self.markets = [x for x in range(self.S) if gd.kind[x] == "market"]
        self.deck_of = [q if q < 3 else -1 for q in gd.quadrant]
        self.basic = np.array(gd.basic, dtype=bool)
        self.char_str = np.array([h.strength for h in gd.heroes])
        self.char_pow = np.array([h.power for h in gd.heroes])
        self.char_boots = np.array([h.boots for h in gd.heroes])
        self.char_costs = np.array([h.costs for h in gd.heroes])  # [char, piece, material]
        self.char_names = [h.ability for h in gd.heroes]
        self.piece_amount = tuple(gd.piece_amount)
        self.book_effect = tuple(gd.book_effect)
        self.power_counts = np.array(gd.power_counts, dtype=np.float64)
        self.minion_lives = np.array([gd.invoker_cards[c].lives for c in gd.minion_cards])
        self.minion_str = np.array([gd.invoker_cards[c].strength for c in gd.minion_cards])
        self.minion_ability = [gd.invoker_cards[c].ability for c in gd.minion_cards]
        self.card_minion = {c: m for m, c in enumerate(gd.minion_cards)}
        self.n_inv_cards = len(gd.invoker_cards)
        self.dist = self._all_pairs(self.adj)
        adj_out = [tuple(x for x in a if not self.castle[x]) for a in self.adj]
        self.mdist = self._all_pairs(adj_out)  # minion distances (never through the Castle)
        self.dist_ca = np.array([min(self.mdist[x][c] for c in self.ca_spaces) for x in range(self.S)])
        self.hero_dist_ca = np.array([min(self.dist[x][c] for c in self.ca_spaces) for x in range(self.S)])
        self.inv_eff = self.value + 2 * (self.icon == 1)  # a +2F card adds 2 Strength in its combat
        # basic materials per location deck (to choose where to explore)
        self.deck_mats = np.zeros((3, self.M))
        for c in gd.location_cards:
            if c.material >= 0:
                self.deck_mats[c.deck, c.material] += 1
        self.deck_mats /= np.array([max(1, sum(1 for c in gd.location_cards if c.deck == d)) for d in range(3)])[:, None]

    @staticmethod
    def _all_pairs(adj: list[tuple[int, ...]]) -> np.ndarray:
        n = len(adj)
        d = np.full((n, n), 99, dtype=np.int64)
        for s in range(n):
            d[s, s] = 0
            q = deque([s])
            while q:
                x = q.popleft()
                for y in adj[x]:
                    if d[s, y] > d[s, x] + 1:
                        d[s, y] = d[s, x] + 1
                        q.append(y)
        return d

    # ------------------------------------------------------------------ entry points
    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One legal action per row; every row is played by ``agent``'s role."""
        obs = np.asarray(observations, dtype=np.float32)
        masks = np.asarray(action_masks)
        if obs.ndim == 1:
            obs, masks = obs[None], masks[None]
        role = self._role(agent, obs.shape[1])
        return np.array([self._act_row(role, o, m) for o, m in zip(obs, masks)], dtype=np.int64)

    def _role(self, agent: str | None, size: int) -> str:
        if agent is not None:
            return "invoker" if self.role_of(agent) == "invoker" else "hero"
        if size not in self.size_role:
            raise ValueError(f"observation of length {size} is neither the Invoker's nor a hero's")
        return self.size_role[size]

    def _act_row(self, role: str, obs: np.ndarray, mask: np.ndarray) -> int:
        check_mask(mask)
        legal = set(np.flatnonzero(mask).tolist())
        v = self.L[role].views(obs)
        phase = int(np.argmax(v["phase"]))
        choice = self._invoker(v, phase, legal) if role == "invoker" else self._hero(v, phase, legal)
        if choice is None or choice not in legal:
            choice = self._fallback(role, legal)
        return int(choice)

    def _fallback(self, role: str, legal: set[int]) -> int:
        o = self.o[role]
        for name in ("end_turn", "fight", "end_trade", "end_sacrifice", "draw", "decline", "keep_all"):
            if name in o and o[name] in legal:
                return o[name]
        return min(legal)

    # ------------------------------------------------------------------ shared reading
    def _counts(self, row: np.ndarray, scale: float) -> np.ndarray:
        return np.rint(np.asarray(row, dtype=np.float64) * scale).astype(np.int64)

    def _space(self, onehot: np.ndarray) -> int:
        return int(np.argmax(onehot)) if onehot.any() else -1

    def _minions(self, v: dict) -> list[dict]:
        mf, out = self.mf, []
        for m, row in enumerate(v["minions"]):
            if row[mf["in_play"]] < 0.5:
                continue
            out.append({
                "m": m,
                "lives": _ri(row[mf["lives"]] * 3),
                "str": _ri(row[mf["strength"]] * 10),
                "draws": _ri(row[mf["draws"]] * 5),
                "space": self._space(row[self.mf_at:self.mf_at + self.S]),
            })
        return out

    def _heroes(self, v: dict) -> list[dict]:
        hf, out = self.hf, []
        for slot, row in enumerate(v["heroes"]):
            if row[hf["present"]] < 0.5:
                continue
            char = int(np.argmax(row[self.hf_char:self.hf_char + 5]))
            arm = row[self.hf_arm:self.hf_arm + 4] > 0.5
            out.append({
                "slot": slot,
                "char": char,
                "space": self._space(row[self.hf_at:self.hf_at + self.S]),
                "lives": _ri(row[hf["lives"]] * 2),
                "armour": arm,
                "mats": self._counts(row[self.hf_mat:self.hf_mat + self.M], 4),
                "hand": _ri(row[hf["hand_size"]] * 10),
                "books": [_ri(row[hf["books_" + b]] * 2) for b in ("yellow", "red", "green")],
                "done": row[hf["done"]] > 0.5,
                "strength": int(self.char_str[char] + (self.piece_amount[0] if arm[0] else 0) + round(row[hf["round_f"]] * 4)),
                "maxp": int(self.char_pow[char] + (self.piece_amount[1] if arm[1] else 0) + round(row[hf["round_p"]] * 2) - round(row[hf["chained"]] * 2)),
                "level": _ri(row[hf["boots_level"]] * 5),
                "hand_max": _ri(row[hf["hand_max"]] * 10),
                "boots_token": row[hf["boots_token"]] > 0.5,
            })
        return out

    def _draw_dist(self, comp: np.ndarray, n: int, kraken: bool = False, known: list[int] | None = None) -> np.ndarray:
        """Distribution of the Invoker side's card total for ``n`` draws (index = total)."""
        comp = np.maximum(np.asarray(comp, dtype=np.float64), 0)
        if comp.sum() <= 0:
            comp = self.power_counts.copy()
        hi = int(self.inv_eff.max())
        single = np.zeros(hi + 1)
        for k in range(self.K):
            single[self.inv_eff[k]] += comp[k]
        single /= single.sum()
        if kraken:  # it picks its cards among five: model each pick as the best of two draws
            cdf = np.cumsum(single)
            single = np.diff(np.concatenate([[0.0], cdf ** 2]))
        dist = np.zeros(1)
        dist[0] = 1.0
        fixed = 0
        for c in (known or [])[:n]:
            fixed += int(self.inv_eff[c])
        for _ in range(max(0, n - len(known or []))):
            dist = np.convolve(dist, single)
        if fixed:
            dist = np.concatenate([np.zeros(fixed), dist])
        return dist

    @staticmethod
    def _p_at_most(dist: np.ndarray, x: float) -> float:
        """P(total <= x)."""
        if x < 0:
            return 0.0
        i = int(np.floor(x))
        return float(dist[: i + 1].sum()) if i < len(dist) else 1.0

    # ================================================================== the Great Invoker
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
        if invokable and (not minions or left >= 2 or not far):
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
        # 3. move every minion next to the Castle
        if far and o["move_minions"] in legal:
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

    # ================================================================== the heroes
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
                return o["explore_two"] if o["explore_two"] in legal else o["explore"]
            return o["end_turn"]
        step = self._step_toward(sp, goal, legal)
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
        for p in PIECE_ORDER:
            if me["armour"][p]:
                continue
            missing = np.maximum(costs[p] - mats, 0)
            if missing.sum() != 1:
                continue
            u = int(np.argmax(missing))
            need_all = self._needs(me)
            spare = [t for t in range(self.M) if mats[t] > 0 and mats[t] > costs[p][t] and o["market"] + t * self.M + u in legal]
            if spare:
                t = max(spare, key=lambda t: (mats[t] - need_all[t], -t))
                return o["market"] + t * self.M + u
        return None

    def _goal(self, v: dict, me: dict, nhand: int, minions: list[dict], heroes: list[dict]) -> int:
        sp = me["space"]
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
        return self.portal

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
