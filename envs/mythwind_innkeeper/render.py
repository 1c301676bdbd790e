"""Mythwind Innkeeper rendering: the inn's 5x5 grid, the guests, coins and renown, as text (``ansi``)
and as an image (``rgb_array``, :func:`render_image`)."""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core import raster
from mythzoo.envs.core.render import section, table
from mythzoo.envs.mythwind_innkeeper.actions import GRID, NUM_SLOTS, OPERATE
from mythzoo.envs.mythwind_innkeeper.components import ACC_TYPES, ALIGNMENTS, STYLES, WEATHER_TYPES
from mythzoo.envs.mythwind_innkeeper.rules import G_BAG, PHASE_NAMES, MythwindInnkeeperRules, State

ABBR = {"window": "Win", "door": "Dor", "table": "Tab", "bar": "Bar", "fireplace": "Fir", "kitchen": "Kit",
        "drink": "Drk", "food": "Fod", "stage": "Stg", "music": "Mus", "play": "Ply"}
STYLE_ABBR = {"cultured": "c", "imperial": "i", "frontier": "f"}


def guest_text(rules: MythwindInnkeeperRules, g: int) -> str:
    """``Merchant (II): table + drink food`` style summary of a guest's requests."""
    gu = rules.data.guests[g]
    req = [ACC_TYPES[gu.furniture]] + [ACC_TYPES[x] for x in gu.services]
    if gu.style >= 0:
        req.append(f"[{STYLES[gu.style]}]")
    return f"#{g} {gu.name} ({'I' * gu.level}): " + " ".join(req)


def cell(rules: MythwindInnkeeperRules, s: State, d: int) -> str:
    a = s.slot_acc[d]
    if a < 0:
        return " ..... " if not (d // GRID in (0, GRID - 1) or d % GRID in (0, GRID - 1)) else " ,,,,, "
    t = ABBR[ACC_TYPES[rules.acc_type[a]]]
    st = rules.acc_style[a]
    txt = (t.lower() if s.slot_dmg[d] else t) + (STYLE_ABBR[STYLES[st]] if st >= 0 else " ")
    g = s.slot_guest[d]
    mark = "  "
    if g >= 0:
        mark = ("b" if s.slot_back[d] else "@") + (str(g % 10))
    if s.party_slot == d:
        txt = txt[:3] + "*"
    return f"{txt}{mark} "


def render_text(rules: MythwindInnkeeperRules, s: State) -> str:
    """The campaign's status, the grid (lower case = damaged, @n = guest n seated, bn = pampered
    back facing, * = party token, ,,,,, = empty outer slot), the drawn guests and the hand."""
    d = rules.data
    out = []
    if s.over:
        status = f"CAMPAIGN OVER after {s.turn} days"
    else:
        status = f"season {s.season + 1}/{rules.num_seasons} ({d.seasons[s.season % len(d.seasons)].name}), day {s.day + 1}/{rules.days_per_season}, phase {PHASE_NAMES[s.phase]}"
    out.append(f"Mythwind: the Innkeeper: {status}")
    out.append(f"Coins {s.coins} (earned {s.earned})  Renown slot {s.renown + 1}/{rules.track_len} (level {'I' * rules.level(s)})  Party coins {s.party_coins}")
    if s.weather >= 0:
        w = d.weather[s.weather]
        out.append(f"Weather: {WEATHER_TYPES[w.type]}{' + event' if w.event else ''}, aligned with {ALIGNMENTS[w.alignment]}s (streak {s.streak})")
    rows = []
    for r in range(GRID):
        rows.append("|" + "|".join(cell(rules, s, r * GRID + c) for c in range(GRID)) + "|")
    out.append(section("Inn", "\n".join(rows)))
    emb = [STYLES[i] for i, e in enumerate(rules.embraced(s)) if e]
    out.append(f"Styles embraced: {', '.join(emb) or 'none'}")
    if s.drawn or s.quiet:
        out.append(section("Guests waiting", "\n".join(guest_text(rules, g) for g in s.drawn + s.quiet)))
    seated = [(dd, s.slot_guest[dd]) for dd in range(NUM_SLOTS) if s.slot_guest[dd] >= 0]
    if seated:
        out.append(section("Guests seated", "\n".join(f"r{dd // GRID}c{dd % GRID}: {guest_text(rules, g)}{' (back facing)' if s.slot_back[dd] else ''}" for dd, g in seated)))
    out.append(f"Bag: {sum(1 for x in s.guest_loc if x == G_BAG)} guests")
    hand = [d.gossip[c].name for c in s.hand]
    out.append(f"Gossip hand: {', '.join(hand) or '(empty)'}" + (f"; served: {', '.join(d.gossip[c].name for c in s.served)}" if s.served else ""))
    skills = [[d.skills[k].name, OPERATE[r]] for k, r in enumerate(s.skill_row) if r >= 0]
    if skills:
        out.append(section("Skills", table(skills, ["skill", "row"])))
    dice = [f"{('sprite', 'villager')[t]}:{s.dice[i]}" for i, t in enumerate(d.dice_types) if s.dice[i] >= 0]
    if dice:
        out.append("Hired dice: " + " ".join(dice))
    if s.over:
        out.append(f"Final coins: {s.coins}, worth (the score, with the inn's sale value): {rules.worth(s)}")
    return "\n".join(out)


# ------------------------------------------------------------------ rgb_array
IMAGE_W, IMAGE_H = 960, 640
SLOT = 84  # pixels per inn grid cell
FURNITURE_COLOR, SERVICE_COLOR = (150, 112, 70), (86, 132, 170)
STYLE_COLORS = [(210, 120, 200), (230, 190, 70), (110, 190, 110)]  # cultured, imperial, frontier
OUTER_EMPTY, INNER_EMPTY = (46, 58, 46), (62, 56, 48)
GUEST_COLOR = (240, 230, 210)


def render_image(rules: MythwindInnkeeperRules, s: State) -> np.ndarray:
    """The campaign as an image (``IMAGE_H x IMAGE_W x 3`` uint8): the inn's 5x5 grid (furniture
    brown, services blue, a damaged accommodation darkened and crossed, its style as a corner mark,
    a seated guest as a light disc with its number, the party token as a yellow frame), coins,
    earned coins and renown as gauges, and the guests, hand and skills as text panels."""
    img = raster.canvas(IMAGE_W, IMAGE_H)
    lines = render_text(rules, s).split("\n")
    raster.text(img, 8, 6, lines[0], raster.HIGHLIGHT, scale=2)
    for i, line in enumerate(lines[1:3]):
        if not line.startswith("== "):
            raster.text(img, 8, 30 + i * raster.CELL_H, line)
    top, left = 56, 8
    for d in range(NUM_SLOTS):
        r, c = divmod(d, GRID)
        x, y = left + c * (SLOT + 4), top + r * (SLOT + 4)
        outer = r in (0, GRID - 1) or c in (0, GRID - 1)
        a = s.slot_acc[d]
        if a < 0:
            raster.fill(img, x, y, SLOT, SLOT, OUTER_EMPTY if outer else INNER_EMPTY)
            continue
        kind = ACC_TYPES[rules.acc_type[a]]
        color = FURNITURE_COLOR if rules.acc_type[a] < 5 else SERVICE_COLOR
        if s.slot_dmg[d]:
            color = tuple(v // 2 for v in color)
        raster.fill(img, x, y, SLOT, SLOT, color)
        raster.text(img, x + 4, y + 4, kind, raster.BG if not s.slot_dmg[d] else raster.DIM, max_chars=13)
        st = rules.acc_style[a]
        if st >= 0:
            raster.fill(img, x + SLOT - 14, y + SLOT - 14, 12, 12, STYLE_COLORS[st % len(STYLE_COLORS)])
        if s.slot_dmg[d]:
            for k in range(SLOT):  # a cross over a damaged accommodation
                img[y + k, x + k] = raster.BAD
                img[y + k, x + SLOT - 1 - k] = raster.BAD
        g = s.slot_guest[d]
        if g >= 0:
            cy, cx, rad = y + SLOT // 2 + 4, x + SLOT // 2, 18
            yy, xx = np.ogrid[-rad : rad + 1, -rad : rad + 1]
            disc = xx * xx + yy * yy <= rad * rad
            img[cy - rad : cy + rad + 1, cx - rad : cx + rad + 1][disc] = (180, 200, 230) if s.slot_back[d] else GUEST_COLOR
            raster.text(img, cx - 8, cy - 5, f"{g:2d}", raster.BG)
        if s.party_slot == d:
            raster.frame(img, x, y, SLOT, SLOT, raster.HIGHLIGHT, 3)
    y = top + GRID * (SLOT + 4) + 8
    grid_w = GRID * (SLOT + 4)
    coin_cap = max(50, s.earned, s.coins)
    for name, value, most, color in (("coins", s.coins, coin_cap, raster.HIGHLIGHT), ("earned", s.earned, coin_cap, raster.GOOD),
                                     ("renown", s.renown + 1, rules.track_len, (170, 120, 220)), ("day", s.turn, rules.total_days(), (90, 140, 220))):
        raster.text(img, left, y + 2, f"{name} {value}/{most}" if name != "coins" and name != "earned" else f"{name} {value}")
        raster.bar(img, left + 130, y, grid_w - 140, 14, value / most if most else 0.0, color, raster.PANEL)
        y += 20
    x = left
    for i, name in enumerate(STYLES):
        raster.fill(img, x, y + 4, 10, 10, STYLE_COLORS[i])
        x = raster.text(img, x + 14, y + 4, name, raster.DIM) + 10
    _, blocks = raster.sections(render_text(rules, s))
    loose = ("Bag:", "Gossip hand:", "Hired dice:", "Styles embraced:", "Final coins:")  # lines outside any section
    rest = [(title, [line for line in body if not line.startswith(loose)]) for title, body in blocks if title != "Inn"]
    tail = [line for line in lines if line.startswith(loose)]
    raster.text_panels(img, left + grid_w + 8, top, IMAGE_W - grid_w - 24, IMAGE_H - top - 8, [("Campaign", tail)] + rest)
    return img
