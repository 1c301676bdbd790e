"""The Mythsgate heuristic's reading: the public static data and the observation, decoded.

The map's distances, the hero boards and the Power card kinds are public and read once from the
env at construction; the observation is read through the env's named layout (minions, heroes)
and the odds of a card total are computed from the cards not yet seen. Never the engine state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np


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


class MythsgateReading:
    """What both roles read: the static game data (``__init__``) and the observation's pieces."""

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
        # where a hero waits when nothing else calls: every space next to the Castle in the fewest
        # moves, the Portal's way out as near as possible (the minions' road to the Castle)
        self.watch = min(range(self.S), key=lambda x: (max(self.dist[x][c] for c in self.ca_spaces),
                                                      sum(self.dist[x][c] for c in self.ca_spaces) + self.dist[x][self.portal], x))
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
