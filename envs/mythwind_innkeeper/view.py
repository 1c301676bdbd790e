"""Mythwind: the Innkeeper for the browser viewer (``mythzoo view``): the campaign as a JSON view
model, the board element each action points at, and the narration of a decision's effect.

The view model holds what the text render shows (``render.py``) as plain data: the inn's 5x5 grid
(each slot's accommodation with its type, style and damage, the seated guest facing front or back,
the party token), coins and coins earned, the renown track and level, the season, the day and the
weather, the styles embraced, the guests waiting, the bag, the gossip hand, skills and hired dice,
and the last dusk's seating. It is a solo game: every seat sees the same. The page draws it
(``viewer/static/mythwind_innkeeper.js``).
"""

from __future__ import annotations

from typing import Any

from mythzoo.envs.mythwind_innkeeper.actions import GRID, NUM_SLOTS, OPERATE, slot_name
from mythzoo.envs.mythwind_innkeeper.names import ACC_TYPES, ALIGNMENTS, FURNITURE, STYLES, WEATHER_TYPES
from mythzoo.envs.mythwind_innkeeper.render import render_text
from mythzoo.envs.mythwind_innkeeper.rules import G_BAG, INCOME_SOURCES, P_SETUP, PHASE_NAMES, MythwindInnkeeperRules, State

SLOT_ACTIONS = ("slot", "move", "sell", "repair")  # the argument is an inn slot


def _guest(rules: MythwindInnkeeperRules, g: int) -> dict[str, Any]:
    gu = rules.data.guests[g]
    return {"id": g, "name": gu.name, "level": gu.level, "furniture": ACC_TYPES[gu.furniture],
            "services": [ACC_TYPES[x] for x in gu.services], "style": STYLES[gu.style] if gu.style >= 0 else None}


def view_model(rules: MythwindInnkeeperRules, s: State, seat: int | None = None) -> dict[str, Any]:
    """The campaign (a solo game: ``seat`` changes nothing)."""
    d = rules.data
    slots = []
    for i in range(NUM_SLOTS):
        r, c = divmod(i, GRID)
        a, g = s.slot_acc[i], s.slot_guest[i]
        acc = None
        if a >= 0:
            t = rules.acc_type[a]
            acc = {"id": a, "type": ACC_TYPES[t], "furniture": t < len(FURNITURE), "style": STYLES[rules.acc_style[a]] if rules.acc_style[a] >= 0 else None,
                   "damaged": bool(s.slot_dmg[i]), "cost": d.accommodations[a].cost}
        slots.append({"index": i, "name": slot_name(i), "row": r, "col": c, "outer": r in (0, GRID - 1) or c in (0, GRID - 1),
                      "accommodation": acc, "guest": dict(_guest(rules, g), back=bool(s.slot_back[i])) if g >= 0 else None,
                      "party": s.party_slot == i})
    weather = None
    if s.weather >= 0:
        w = d.weather[s.weather]
        weather = {"type": WEATHER_TYPES[w.type], "event": bool(w.event), "alignment": ALIGNMENTS[w.alignment], "streak": s.streak}
    season = d.seasons[s.season % len(d.seasons)]
    return {
        "game": "mythwind_innkeeper",
        "status": render_text(rules, s).split("\n", 1)[0],
        "phase": PHASE_NAMES[s.phase], "over": bool(s.over),
        "season": {"index": s.season + 1, "count": rules.num_seasons, "name": season.name},
        "day": s.day + 1, "days_per_season": rules.days_per_season, "days_done": s.turn, "total_days": rules.total_days(),
        "coins": s.coins, "earned": s.earned, "party_coins": s.party_coins,
        "income": dict(zip(INCOME_SOURCES, s.income)),
        "renown": {"slot": s.renown + 1, "length": rules.track_len, "level": rules.level(s), "levels": list(rules.levels)},
        "weather": weather, "styles": list(STYLES), "embraced": [STYLES[i] for i, e in enumerate(rules.embraced(s)) if e],
        "grid": GRID, "slots": slots,
        "waiting": [_guest(rules, g) for g in s.drawn], "quiet": [_guest(rules, g) for g in s.quiet],
        "bag": sum(1 for x in s.guest_loc if x == G_BAG),
        "hand": [d.gossip[c].name for c in s.hand], "served": [d.gossip[c].name for c in s.served],
        "skills": [{"name": d.skills[k].name, "row": OPERATE[r]} for k, r in enumerate(s.skill_row) if r >= 0],
        "dice": [{"type": ("sprite", "villager")[t], "pips": s.dice[i]} for i, t in enumerate(d.dice_types) if s.dice[i] >= 0],
        "last_dusk": {"seated": s.last_seated, "unseated": s.last_unseated},
        "worth": rules.worth(s) if s.over else None,
    }


def text(rules: MythwindInnkeeperRules, s: State, seat: int) -> str:
    """The position as the game's text render from ``seat`` (the page's text view)."""
    return render_text(rules, s)


def action_target(name: str, arg: int) -> str | None:
    """The board element an action points at (``slot:12``), or None."""
    return f"slot:{arg}" if name in SLOT_ACTIONS else None


def narrate(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a decision changed, from two view models: coins (and those earned at dusk), renown,
    accommodations bought, moved, sold, damaged or repaired, guests seated or leaving, a new day,
    season and weather, the campaign's end."""
    out = []
    dusk = after["days_done"] > before["days_done"]
    if dusk:
        ld = after["last_dusk"]
        out.append(f"dusk of day {before['day']}: {ld['seated']} guest{'s' if ld['seated'] != 1 else ''} seated, {ld['unseated']} left unseated")
    if after["coins"] != before["coins"]:
        d = after["coins"] - before["coins"]
        out.append(f"{d:+d} coin{'s' if abs(d) != 1 else ''}{' at dusk' if dusk else ''} (now {after['coins']})")
    if after["renown"]["slot"] != before["renown"]["slot"]:
        out.append(f"renown {after['renown']['slot'] - before['renown']['slot']:+d} (slot {after['renown']['slot']}/{after['renown']['length']}, level {after['renown']['level']})")
    for s0, s1 in zip(before["slots"], after["slots"]):
        a0, a1, at = s0["accommodation"], s1["accommodation"], s1["name"]
        if a1 and (not a0 or a0["id"] != a1["id"]):
            out.append(f"{a1['type']}{' (' + a1['style'] + ')' if a1['style'] else ''} placed in {at}")
        elif a0 and not a1:
            out.append(f"the {a0['type']} leaves {at}")
        elif a0 and a1 and a0["damaged"] != a1["damaged"]:
            out.append(f"the {a1['type']} in {at} is {'damaged' if a1['damaged'] else 'repaired'}")
        g0, g1 = s0["guest"], s1["guest"]
        if g1 and (not g0 or g0["id"] != g1["id"]):
            out.append(f"{g1['name']} is seated at the {a1['type'] if a1 else 'slot'} in {at}{' (pampered, back facing)' if g1['back'] else ''}")
        elif g0 and not g1 and not dusk:
            out.append(f"{g0['name']} leaves {at}")
        if s1["party"] and not s0["party"]:
            out.append(f"the party token goes on {at}")
    if len(after["waiting"]) > len(before["waiting"]):
        arrived = [g["name"] for g in after["waiting"] if g["id"] not in {x["id"] for x in before["waiting"]}]
        if arrived:
            out.append("guests arrive: " + ", ".join(arrived))
    if after["season"]["index"] != before["season"]["index"]:
        out.append(f"season {after['season']['index']}/{after['season']['count']} begins: {after['season']['name']}")
    w0, w1 = before["weather"], after["weather"]
    if w1 and w1 != w0 and (not w0 or w1["type"] != w0["type"] or after["day"] != before["day"]):
        out.append(f"weather: {w1['type']}{' with an event' if w1['event'] else ''}, favouring {w1['alignment']}s")
    for k in after["skills"]:
        if k not in before["skills"]:
            out.append(f"skill learned: {k['name']} (row {k['row']})")
    if len(after["dice"]) > len(before["dice"]):
        out.append(f"a {after['dice'][-1]['type']} die is hired")
    if after["over"] and not before["over"]:
        out.append(f"campaign over: {after['coins']} coins, worth {after['worth']}")
    return out


# ------------------------------------------------------------------ terminal help (mythzoo play / replay)
LEGEND = """\
inn cells (row r, column c: r0c0 top left): an accommodation's three letters, then its style, then who sits there
accommodations: Win window, Dor door, Tab table, Bar bar, Fir fireplace, Kit kitchen, Drk drink, Fod food, Stg stage, Mus music, Ply play
lower case (e.g. tab) = damaged; style letter c cultured, i imperial, f frontier; * in place of the 4th letter = the party token
@n = guest n seated facing front, bn = guest n pampered (facing back); the number is the guest's id's last digit
,,,,, = an empty outer slot (the inn's edge); ..... = an empty inner slot
guests: #id name (level I-III): furniture + services [style] they want"""

REMINDERS = {
    "setup": "place the starting table (anywhere), then the window and the door (outer slots only).",
    "town": "one town action: hire a worker die, learn a skill at the Longhouse, or pass.",
    "operate": "the character's action: one Operate row allowed by today's alignment (sprites: pamper, improve, serve; villagers: serve, mingle, party).",
    "pamper_guest": "Pamper: choose a drawn guest to seat facing back (1 coin, renown -1).",
    "pamper_slot": "Pamper: choose a free furniture slot; the guest's requests are ignored.",
    "improve": "Improve: at most one purchase, one move and one sale, plus any repairs; done ends it.",
    "buy_slot": "choose the slot for the token bought (doors and windows outer; drinks and food next to a kitchen; music and plays next to a stage).",
    "move_dest": "choose where the moved accommodation goes (the same placement rules).",
    "serve": "Serve: a gossip card's services and style icons count for the inn until tonight.",
    "mingle": "Mingle: a gossip card goes into the town's adventure deck (it pays when the town draws it at a dawn); then draw gossip cards equal to the renown level.",
    "party": "Party: renown -2; choose the furniture whose type earns the party coins tonight.",
    "skill": "resolve the skill in this Operate row, or skip it.",
    "skill_guest": "choose the drawn guest the skill returns to the bag.",
    "favorite_pick": "Favorite: choose the guest from the bag who replaces the one returned.",
    "entertainer": "Entertainer: a party coin, or the party action.",
    "worker": "each hired die may work once: spend a pip to perform its row's action, or done to end the day.",
    "seat_guest": "dusk: choose a waiting guest to seat (their furniture, services and style must be met), or done.",
    "seat_slot": "dusk: choose the slot where the guest sits (it needs the furniture they request).",
    "lose": "a complaint takes an accommodation of the type shown: choose which.",
    "late_guest": "a late guest arrives: seat them or decline.",
    "damage": "season's upkeep: choose which accommodation is damaged.",
    "arrange": "a skill was gained: move any gained skill into any row's slot, or done to keep the arrangement.",
}


SKILL_EFFECTS = {
    "musical_ear": "1 coin per bar", "waxed_furniture": "1 coin per table", "rumormonger": "return a guest to the bag",
    "quartermaster": "1 coin per door", "waiting_list": "return two guests to the bag",
    "entertainer": "cloudy day: a party coin or the party action", "patron": "2 coins per cultured accommodation",
    "worker_encouragement": "pay {enc} coins: every hired die +1 pip", "favorite": "swap a drawn guest for one from the bag",
    "charming": "3 coins per frontier accommodation",
}
_PLACE = {"window": "outer slot", "door": "outer slot", "drink": "next to a kitchen", "food": "next to a kitchen",
          "music": "next to a stage", "play": "next to a stage"}


def describe(rules: MythwindInnkeeperRules, s: State, name: str, arg: int) -> str | None:
    """What an action costs, requires or places, for the choice list of ``mythzoo play`` (None: nothing to add)."""
    d = rules.data
    if name == "hire":
        faces = d.die_faces[arg]
        return f"costs {d.hire_cost} coins (you have {s.coins}); faces {'/'.join(map(str, faces))}, blanks rerolled"
    if name in ("learn", "arrange"):
        k, r = divmod(arg, d.skill_slots)
        sk = d.skills[k]
        effect = SKILL_EFFECTS.get(sk.key, "").format(enc=d.encouragement_cost)
        where = f"resolves when you operate {OPERATE[r]}"
        if name == "arrange":
            return f"{sk.name}: {effect}; {where}"
        return f"costs {sk.cost} coins (you have {s.coins}), level {sk.level}; {effect}; {where}"
    if name == "buy":
        a = d.accommodations[arg]
        kind = ACC_TYPES[a.type]
        style = f", {STYLES[a.style]}" if a.style >= 0 else ""
        place = _PLACE.get(kind, "any empty slot")
        return f"costs {a.cost} coins (you have {s.coins}), needs renown {'I' * a.renown}{style}; goes in {place}"
    if name == "slot" and s.phase == P_SETUP and s.setup:
        return f"places the starting {ACC_TYPES[rules.acc_type[s.setup[0]]]} here"
    if name in ("sell", "repair") and s.slot_acc[arg] >= 0:
        cost = d.accommodations[s.slot_acc[arg]].cost
        return f"gains {cost // 2} coins" if name == "sell" else f"costs {(cost + 1) // 2} coins (you have {s.coins})"
    if name == "gossip":
        c = d.gossip[arg]
        serv = ", ".join(ACC_TYPES[x] for x in c.accommodations) or "no services"
        styles = "".join(f", {STYLES[x]} icon" for x in c.styles)
        kind, amount = c.effect
        effect = {0: f"{amount} coins", 1: f"renown +{amount}", 2: f"{amount} party coin"}.get(kind, "")
        return f"serves {serv}{styles}; mingled: {effect}"
    if name == "operate":
        k = rules.skill_in_row(s, arg)
        return f"then {d.skills[k].name} may resolve" if k >= 0 else None
    if name == "worker":
        die, r = divmod(arg, len(OPERATE))
        return f"{s.dice[die]} pip{'s' if s.dice[die] != 1 else ''} left"
    if name == "guest":
        g = rules.data.guests[arg]
        wants = " + ".join([ACC_TYPES[g.furniture], *(ACC_TYPES[x] for x in g.services)])
        style = f" [{STYLES[g.style]}]" if g.style >= 0 else ""
        return f"level {'I' * g.level}: wants {wants}{style}"
    return None
