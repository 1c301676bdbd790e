"""Mythic Baths rendering: the table as a player sitting at it would describe it (``ansi``), and
as an image of the board (``rgb_array``, :func:`render_image`)."""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core import raster
from mythzoo.envs.core.render import section, table
from mythzoo.envs.mythic_baths.actions import MAX_BATHS
from mythzoo.envs.mythic_baths.rules import (
    CERBERUS,
    PHASE_NAMES,
    SEA_LION,
    TATZELWURM,
    OWLBEAR,
    TOKEN_ACTIVE,
    TOKEN_USED,
    MythicBathsRules,
    State,
)


def _needs_text(rules: MythicBathsRules, needs: list[int] | tuple[int, ...]) -> str:
    ing = rules.cs.ingredients
    parts = [f"{c}x{ing[t]}" if c > 1 else ing[t] for t, c in enumerate(needs) if c > 0]
    return " ".join(parts) or "-"


def _guest_text(rules: MythicBathsRules, x: int) -> str:
    """A guest card as the table shows it: name, creature (or troublesome ability), needs, amber."""
    g, cs = rules.guests[x], rules.cs
    kind = f"TROUBLESOME {cs.creatures[g.ability]}" if g.troublesome else cs.creatures[g.creature]
    return f"{g.name} ({kind}), needs {_needs_text(rules, g.needs)}, {g.amber} amber"


def render_text(rules: MythicBathsRules, s: State, seat: int) -> str:
    """Baths with guests, needs and tokens; manager; supply; scores; and ``seat``'s own hand."""
    cs, n = rules.cs, rules.n
    out = []
    status = "GAME OVER" if s.over else f"turn {s.turn + 1}, player_{s.current} to move ({PHASE_NAMES[s.phase]})"
    if s.final_trigger >= 0 and not s.over:
        status += f", last round ({s.turns_left} turns left)"
    out.append(f"Mythic Baths, {n} players: {status}")
    out.append(f"Manager: {cs.manager_names[s.manager]}   deck {len(s.deck)}  discard {len(s.discard)}  guests left {len(s.guest_deck)}")
    if s.guest_deck:  # the guest deck's top card lies face up (dirty side)
        out.append(f"Next guest (top of the guest deck): {_guest_text(rules, s.guest_deck[-1])}")
    if s.manager_pile:
        out.append("Replaced managers: " + ", ".join(cs.manager_names[m] for m in s.manager_pile))
    rows = []
    for b in range(rules.num_baths):
        x = s.bath_guest[b]
        owner = rules.nourisher(s, b)
        notes = []
        if rules._adjacent_ability(s, b, TATZELWURM):
            notes.append("+extra (Tatzelwurm)")
        if rules._adjacent_ability(s, b, OWLBEAR):
            notes.append("no nourish (Owlbear)")
        if rules._adjacent_ability(s, b, SEA_LION):
            notes.append("no clean (Sea-Lion)")
        if x < 0:
            rows.append([b, "dirty" if s.bath_dirty[b] else "clean", "(empty)", "", "", "", ", ".join(notes)])
            continue
        g = rules.guests[x]
        kind = f"TROUBLESOME {cs.creatures[g.ability]}" if g.troublesome else cs.creatures[g.creature]
        remaining = [g.needs[t] - s.bath_filled[b][t] for t in range(rules.T)]
        if g.troublesome and g.ability == CERBERUS:
            notes.append("only its ingredient types")
        if s.bath_cards[b]:
            notes.append("cards placed: " + " ".join(cs.kind_label(k) for k in sorted(s.bath_cards[b])))
        rows.append([b, "clean", f"{g.name} ({kind})", g.amber, _needs_text(rules, remaining),
                     f"player_{owner}" if owner >= 0 else "", ", ".join(notes)])
    out.append(section("Baths", table(rows, ["bath", "tile", "guest", "amber", "needs", "nourished", "notes"])))
    supply = [cs.kind_label(k) if k >= 0 else "-" for k in s.supply]
    out.append(section("Supply", "  ".join(f"[{i}] {c}" for i, c in enumerate(supply))))
    scores = rules.scores(s)
    prow = []
    for p in range(n):
        toks = []
        for c in range(5):
            if s.tokens[p][c] == TOKEN_ACTIVE:
                toks.append(cs.creatures[c])
            elif s.tokens[p][c] == TOKEN_USED:
                toks.append(f"({cs.creatures[c]})")
        mark = "*" if p == s.current and not s.over else " "
        prow.append([f"{mark}player_{p}", sum(s.hands[p]), s.amber[p], len(s.collected[p]), scores[p], " ".join(toks) or "-"])
    out.append(section("Players", table(prow, ["player", "hand", "amber", "guests", "VP", "favour tokens ((used))"])))
    hand = [f"{c}x {cs.kind_label(k)}" for k, c in enumerate(s.hands[seat]) if c]
    out.append(section(f"Hand of player_{seat}", ", ".join(hand) or "(empty)"))
    if s.pay_bath >= 0:
        out.append(section("Treatment in progress", f"bath {s.pay_bath}: still needs {_needs_text(rules, s.pay_need)}"
                           + (f" +{s.pay_extra} extra" if s.pay_extra else "")
                           + f"; cards played: {', '.join(cs.kind_label(k) for k in s.pay_cards) or 'none'}"))
    if s.over:
        win = rules.winners(s)
        out.append("Winner: " + ", ".join(f"player_{p}" for p in win) + f" with {scores[win[0]]} VP")
    return "\n".join(out)


# ------------------------------------------------------------------ rgb_array
IMAGE_W, IMAGE_H = 960, 600
INGREDIENT_COLORS = [(122, 170, 92), (226, 226, 236), (214, 170, 60), (60, 140, 70), (128, 88, 56)]  # by ingredient type index
CREATURE_COLORS = [(170, 60, 60), (196, 150, 90), (150, 110, 175), (70, 120, 170), (110, 160, 90)]  # by creature index
PLAYER_COLORS = [(230, 120, 60), (80, 160, 230), (200, 90, 200), (90, 200, 140), (230, 200, 70)]
DIRTY, CLEAN = (96, 70, 46), (52, 96, 128)


def _card(img, x: int, y: int, w: int, h: int, rules: MythicBathsRules, kind: int) -> None:
    """An ingredient card: one colour band per ingredient it shows, its label below."""
    if kind < 0:
        raster.frame(img, x, y, w, h, raster.DIM)
        return
    types = rules.cs.kinds[kind]
    band = h // len(types)
    for i, t in enumerate(types):
        raster.fill(img, x, y + i * band, w, band if i < len(types) - 1 else h - i * band, INGREDIENT_COLORS[t % len(INGREDIENT_COLORS)])
    raster.frame(img, x, y, w, h, raster.BG)


def _next_guest(img, x: int, y: int, rules: MythicBathsRules, guest: int, left: int) -> None:
    """The top of the guest deck: a small tile in its creature's colour with its name, amber and needs."""
    g, cs = rules.guests[guest], rules.cs
    creature = g.ability if g.troublesome else g.creature
    raster.text(img, x, y, f"Next guest ({left} in the deck)", raster.HIGHLIGHT)
    w, h = IMAGE_W - 8 - x, 52
    raster.fill(img, x, y + 14, w, h, CREATURE_COLORS[creature % len(CREATURE_COLORS)])
    if g.troublesome:
        raster.frame(img, x, y + 14, w, h, raster.BAD, 3)
    kind = f"troublesome {cs.creatures[creature]}" if g.troublesome else cs.creatures[creature]
    raster.text(img, x + 4, y + 18, f"{g.name} ({kind})  amber {g.amber}", raster.BG, max_chars=(w - 8) // raster.CELL_W)
    units = [t for t in range(rules.T) for _ in range(g.needs[t])]
    for i, t in enumerate(units[:24]):
        raster.fill(img, x + 4 + i * 14, y + 34, 12, 12, INGREDIENT_COLORS[t % len(INGREDIENT_COLORS)])


def render_image(rules: MythicBathsRules, s: State, seat: int) -> np.ndarray:
    """The table as an image (``IMAGE_H x IMAGE_W x 3`` uint8): the baths as tiles (dirty brown,
    clean blue, a guest in its creature's colour, troublesome framed red, the nourishing player's
    colour as a stripe), the supply's cards in their ingredients' colours, the guest deck's face-up top card, every
    player's VP bar, and ``seat``'s hand."""
    cs, n = rules.cs, rules.n
    img = raster.canvas(IMAGE_W, IMAGE_H)
    lines = render_text(rules, s, seat).split("\n")
    raster.text(img, 8, 6, lines[0], raster.HIGHLIGHT, scale=2)
    raster.text(img, 8, 30, lines[1])
    # Baths: one tile each, MAX_BATHS places so the layout is the same for every player count.
    tile_w, tile_h, top = (IMAGE_W - 16) // MAX_BATHS - 6, 150, 48
    for b in range(rules.num_baths):
        x = 8 + b * (tile_w + 6)
        g_id = s.bath_guest[b]
        if g_id < 0:
            raster.fill(img, x, top, tile_w, tile_h, DIRTY if s.bath_dirty[b] else CLEAN)
            raster.text(img, x + 4, top + 4, f"bath {b}")
            raster.text(img, x + 4, top + 20, "dirty" if s.bath_dirty[b] else "empty", raster.DIM)
            continue
        g = rules.guests[g_id]
        creature = g.ability if g.troublesome else g.creature
        raster.fill(img, x, top, tile_w, tile_h, CREATURE_COLORS[creature % len(CREATURE_COLORS)])
        if g.troublesome:
            raster.frame(img, x, top, tile_w, tile_h, raster.BAD, 3)
        raster.text(img, x + 4, top + 4, f"bath {b}", raster.BG)
        cols = (tile_w - 8) // raster.CELL_W
        raster.text(img, x + 4, top + 18, g.name, raster.BG, max_chars=cols)
        raster.text(img, x + 4, top + 30, cs.creatures[creature], raster.BG, max_chars=cols)
        raster.text(img, x + 4, top + 44, f"amber {g.amber}", raster.BG)
        # What the guest still needs: one small block per unit, in the ingredient's colour.
        units = [t for t in range(rules.T) for _ in range(max(g.needs[t] - s.bath_filled[b][t], 0))]
        for i, t in enumerate(units[:12]):
            raster.fill(img, x + 4 + (i % 6) * 14, top + 62 + (i // 6) * 14, 12, 12, INGREDIENT_COLORS[t % len(INGREDIENT_COLORS)])
        if s.bath_cards[b]:
            raster.text(img, x + 4, top + 96, f"{len(s.bath_cards[b])} cards", raster.BG)
        owner = rules.nourisher(s, b)
        if owner >= 0:
            raster.fill(img, x, top + tile_h - 14, tile_w, 14, PLAYER_COLORS[owner % len(PLAYER_COLORS)])
            raster.text(img, x + 4, top + tile_h - 13, f"player_{owner}", raster.BG)
        if s.pay_bath == b:
            raster.frame(img, x - 3, top - 3, tile_w + 6, tile_h + 6, raster.HIGHLIGHT, 2)
    # Supply.
    top2 = top + tile_h + 16
    raster.text(img, 8, top2, "Supply", raster.HIGHLIGHT)
    for i, k in enumerate(s.supply):
        x = 8 + i * 96
        _card(img, x, top2 + 14, 88, 40, rules, k)
        raster.text(img, x, top2 + 58, f"[{i}] {cs.kind_label(k) if k >= 0 else '-'}", max_chars=15)
    # The guest deck's top card lies face up (Setup 2): the next guest, beside the supply.
    if s.guest_deck:
        _next_guest(img, 520, top2, rules, s.guest_deck[-1], len(s.guest_deck))
    # Players: VP bars.
    top3 = top2 + 80
    scores = rules.scores(s)
    best = max(max(scores), 1)
    raster.text(img, 8, top3, "Players (VP)", raster.HIGHLIGHT)
    for p in range(n):
        y = top3 + 16 + p * 22
        color = PLAYER_COLORS[p % len(PLAYER_COLORS)]
        mark = ">" if p == s.current and not s.over else " "
        raster.text(img, 8, y + 2, f"{mark}player_{p}", color)
        raster.bar(img, 100, y, 300, 16, scores[p] / best, color, raster.PANEL)
        raster.text(img, 408, y + 2, f"{scores[p]:3d} VP  hand {sum(s.hands[p])}  amber {s.amber[p]}  guests {len(s.collected[p])}")
    # The hand of ``seat``.
    x0 = 8
    top4 = top3 + 16 + 5 * 22 + 8
    raster.text(img, x0, top4, f"Hand of player_{seat}", raster.HIGHLIGHT)
    i = 0
    for k, c in enumerate(s.hands[seat]):
        for _ in range(c):
            if i < 20:
                _card(img, x0 + i * 46, top4 + 14, 40, 56, rules, k)
            i += 1
    legend_y = IMAGE_H - 22
    x = 8
    for t, name in enumerate(cs.ingredients):
        raster.fill(img, x, legend_y, 12, 12, INGREDIENT_COLORS[t % len(INGREDIENT_COLORS)])
        x = raster.text(img, x + 16, legend_y + 1, name, raster.DIM) + 12
    if s.over:
        win = rules.winners(s)
        raster.text(img, 620, top3 + 2, "Winner: " + ", ".join(f"player_{p}" for p in win), raster.GOOD, scale=2, max_chars=24)
    return img
