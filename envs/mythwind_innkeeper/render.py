"""Mythwind Innkeeper ansi rendering: the inn's 5x5 grid, the guests, coins and renown."""

from __future__ import annotations

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
        out.append(f"Final coins: {s.coins}")
    return "\n".join(out)
