"""Mythsgate rendering: the map as a grid of spaces with the pieces on it, then the boards, as text
(``ansi``) and as an image (``rgb_array``, :func:`render_image`)."""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core import raster
from mythzoo.envs.core.render import section, table
from mythzoo.envs.mythsgate.actions import NUM_MINIONS
from mythzoo.envs.mythsgate.gamedata import BOOKS, PIECES, TOKENS, TRACKS
from mythzoo.envs.mythsgate.rules import PHASE_NAMES, MythsgateRules, State

KIND_MARK = {"inn": "Inn", "market": "Mkt", "forge": "Frg", "power_centre": "PwC", "portal": "POR", "treasure": "TRS", "plain": ""}
CELL = 16


def _map(rules: MythsgateRules, s: State) -> str:
    gd = rules.gd
    rows = max(r for r, _ in gd.rowcol) + 1
    cols = max(c for _, c in gd.rowcol) + 1
    grid = [[None] * cols for _ in range(rows)]
    for i, (r, c) in enumerate(gd.rowcol):
        grid[r][c] = i
    q_letter = "TMFC"
    lines = []
    sep = "+" + "+".join("-" * CELL for _ in range(cols)) + "+"
    for r in range(rows):
        lines.append(sep)
        top, bottom = [], []
        for c in range(cols):
            i = grid[r][c]
            if i is None:
                top.append(" " * CELL)
                bottom.append(" " * CELL)
                continue
            head = f"{i:>2}{q_letter[gd.quadrant[i]]} {KIND_MARK[gd.kind[i]]}"
            pieces = [f"H{h}" + ("x" if s.h_lives[h] == 0 else "") for h in range(rules.k) if s.h_space[h] == i]
            pieces += [f"{rules.minion[m].name[:2]}{m}" for m in range(NUM_MINIONS) if s.m_space[m] == i]
            top.append(head[:CELL].ljust(CELL))
            bottom.append(" ".join(pieces)[:CELL].ljust(CELL))
        lines.append("|" + "|".join(top) + "|")
        lines.append("|" + "|".join(bottom) + "|")
    lines.append(sep)
    lines.append("T town, M mine, F forest, C castle (minions never enter it, except at the Portal); H<n> hero (x: no life), <Mi><n> minion")
    return "\n".join(lines)


def render_text(rules: MythsgateRules, s: State, seat: int) -> str:
    """Map, Invoker board, heroes, minions, combat; ``seat``'s private cards (its hand or the League's)."""
    gd = rules.gd
    out = []
    if s.over:
        status = "GAME OVER: " + ("the Great Invoker wins" if s.winner == 0 else "the Atari League wins")
    else:
        who = "invoker" if s.actor == 0 else f"hero_{s.actor - 1}"
        status = f"round {s.round + 1}, {who} to move ({PHASE_NAMES[s.phase]})"
    out.append(f"Mythsgate, {rules.k} heroes: {status}")
    out.append(_map(rules, s))
    toks = " ".join(t + ("*" if s.tokens[i] else "") for i, t in enumerate(TOKENS))
    out.append(section("Great Invoker", f"gems stolen {s.gems}/10 (treasure {10 - s.gems}); actions left {s.inv_left}; tokens (* = available): {toks}; "
                       + ", ".join(f"{TRACKS[t]} track {s.tracks[t]}/{gd.track_length[t]}" for t in range(2))
                       + f"; hand {len(s.inv_hand)}, deck {len(s.inv_deck)}, discard {len(s.inv_discard)}, set aside {len(s.inv_aside)}"
                       + (" ; X3 banned" if s.ban3 else "") + (" ; X4 banned" if s.ban4 else "")))
    rows = []
    for h in range(rules.k):
        mats = " ".join(f"{gd.materials[t]}{c}" for t, c in enumerate(s.h_mats[h]) if c) or "-"
        arm = " ".join(PIECES[p] for p in range(4) if s.h_armour[h][p]) or "-"
        books = " ".join(BOOKS[rules.loc[c].color] for c in s.h_books[h]) or "-"
        mark = "*" if s.cur_hero == h else " "
        left = s.h_left if s.cur_hero == h and not s.over else ""  # the hero playing now: its actions still to take this turn
        rows.append([f"{mark}hero_{h}", rules.heroes[h].name, s.h_space[h], s.h_lives[h], sum(s.h_hand[h]), left, mats, arm, books, "yes" if s.h_done[h] else ""])
    out.append(section("Atari League", table(rows, ["hero", "character", "space", "lives", "cards", "actions left", "materials", "armour", "books", "played"])))
    mrows = [[m, rules.minion[m].name, s.m_space[m], s.m_lives[m], rules.minion_strength(s, m), rules.minion_power(s, m)]
             for m in range(NUM_MINIONS) if s.m_space[m] >= 0]
    out.append(section("Minions in play", table(mrows, ["id", "minion", "space", "lives", "strength", "draws"]) if mrows else "(none)"))
    out.append(section("Table", f"Power deck {len(s.power_deck)}, discard {len(s.power_discard)}; market: "
                       + (" ".join(f"{gd.materials[t]}{c}" for t, c in enumerate(s.market) if c) or "-")
                       + f"; life tokens {s.life_supply}; -1 Boots tokens {s.boots_supply}"))
    if s.cb_on:
        ht, it = rules.combat_totals(s)
        foe = rules.minion[s.cb_minion].name if s.cb_minion >= 0 else f"encounter {rules.loc[s.cb_enc].name}"
        out.append(section("Combat", f"hero_{s.cb_hero} vs {foe}: hero cards {[gd.kind_label(c) for c in s.cb_hcards]} total {ht}; "
                           f"Invoker cards {[gd.kind_label(c) for c in s.cb_icards]} total {it}"))
    if seat == 0:
        out.append(section("Invoker's hand", ", ".join(gd.invoker_cards[c].name for c in s.inv_hand) or "(empty)"))
    else:
        hands = []
        for h in range(rules.k):
            # One entry per card, lowest first ("2 2 2 3 3"): a hand reads as it is held.
            hands.append(f"hero_{h}: " + (" ".join(gd.kind_label(k) for k, c in enumerate(s.h_hand[h]) for _ in range(c)) or "(empty)"))
        out.append(section("League's hands", "\n".join(hands)))
    return "\n".join(out)


# ------------------------------------------------------------------ rgb_array
IMAGE_W, IMAGE_H = 1200, 720
QUADRANT_COLORS = [(176, 150, 104), (118, 118, 128), (74, 124, 74), (104, 76, 128)]  # town, mine, forest, castle
HERO_COLORS = [(80, 160, 230), (90, 200, 140), (230, 200, 70), (230, 120, 60), (200, 90, 200)]
MINION_COLOR = (196, 52, 52)
MAP_CELL_W, MAP_CELL_H = 136, 84


def render_image(rules: MythsgateRules, s: State, seat: int) -> np.ndarray:
    """The game as an image (``IMAGE_H x IMAGE_W x 3`` uint8): the map's spaces in their region's
    colour (town, mine, forest, castle) with every hero (a square in its colour, crossed out with no
    life) and minion (red) on it; the Invoker's gems and tracks as gauges; the boards as text panels."""
    gd = rules.gd
    img = raster.canvas(IMAGE_W, IMAGE_H)
    header, blocks = raster.sections(render_text(rules, s, seat))
    raster.text(img, 8, 6, header[0], raster.HIGHLIGHT, scale=2)
    top, left = 36, 8
    q_name = ("town", "mine", "forest", "castle")
    for i, (r, c) in enumerate(gd.rowcol):
        x, y = left + c * (MAP_CELL_W + 4), top + r * (MAP_CELL_H + 4)
        raster.fill(img, x, y, MAP_CELL_W, MAP_CELL_H, QUADRANT_COLORS[gd.quadrant[i] % len(QUADRANT_COLORS)])
        raster.text(img, x + 4, y + 3, f"{i} {q_name[gd.quadrant[i] % 4]}", raster.BG)
        mark = KIND_MARK.get(gd.kind[i], "")
        if mark:
            raster.text(img, x + 4, y + 15, gd.kind[i].replace("_", " "), raster.BG, max_chars=20)
        px, py = x + 4, y + 32
        for h in range(rules.k):
            if s.h_space[h] == i:
                col = HERO_COLORS[h % len(HERO_COLORS)]
                raster.fill(img, px, py, 24, 20, col)
                raster.text(img, px + 1, py + 5, f"H{h}", raster.BG)
                if s.h_lives[h] == 0:
                    raster.frame(img, px, py, 24, 20, raster.BAD, 2)
                if s.cur_hero == h and not s.over:
                    raster.frame(img, px - 2, py - 2, 28, 24, raster.HIGHLIGHT, 2)
                px += 28
                if px > x + MAP_CELL_W - 28:
                    px, py = x + 4, py + 24
        for m in range(NUM_MINIONS):
            if s.m_space[m] == i:
                raster.fill(img, px, py, 24, 20, MINION_COLOR)
                raster.text(img, px + 1, py + 5, rules.minion[m].name[:2], raster.TEXT)
                px += 28
                if px > x + MAP_CELL_W - 28:
                    px, py = x + 4, py + 24
    rows = max(r for r, _ in gd.rowcol) + 1
    cols = max(c for _, c in gd.rowcol) + 1
    map_w = cols * (MAP_CELL_W + 4)
    y = top + rows * (MAP_CELL_H + 4) + 8
    gauges = [("gems stolen", s.gems, 10, MINION_COLOR)] + [(f"{TRACKS[t]} track", s.tracks[t], gd.track_length[t], (200, 140, 60)) for t in range(2)]
    for name, value, most, color in gauges:
        raster.text(img, left, y + 2, f"{name} {value}/{most}")
        raster.bar(img, left + 150, y, map_w - 160, 14, value / most if most else 0.0, color, raster.PANEL)
        y += 20
    tokens = "  ".join(t + ("*" if s.tokens[i] else "") for i, t in enumerate(TOKENS))
    raster.text(img, left, y + 4, f"Invoker tokens (* available): {tokens}", raster.DIM, max_chars=map_w // raster.CELL_W)
    raster.text_panels(img, left + map_w + 8, top, IMAGE_W - map_w - 24, IMAGE_H - top - 8, blocks)
    return img

