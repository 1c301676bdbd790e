"""Mythsgate for the browser viewer (``mythzoo view``): the map and boards as a JSON view model, the
board element each action points at, and the narration of a decision's effect.

The view model holds what the text render shows (``render.py``) as plain data: the map's spaces
(region, kind, place on the grid), the paths inside a region and the bridges between two, the
Portal and the Treasure Chamber; the heroes (character, space, lives, cards, materials, armour,
books) and the minions in play; the Great Invoker's gems, tracks, tokens and piles; the combat in
progress; and the hands ``seat`` may see (the Invoker's to seat 0, the League's to the heroes, all
with ``seat=None``). The page draws it (``viewer/static/mythsgate.js``).
"""

from __future__ import annotations

from typing import Any

from mythzoo.envs.mythsgate.actions import NUM_MINIONS
from mythzoo.envs.mythsgate.gamedata import BOOKS, PIECES, QUADRANTS, TOKENS, TRACKS
from mythzoo.envs.mythsgate.render import render_text
from mythzoo.envs.mythsgate.rules import PHASE_NAMES, MythsgateRules, State

SPACE_ACTIONS = ("move", "place")  # both roles: the argument is a space
MINION_ACTIONS = ("invoke", "ability", "card_plus_f", "card_plus_p", "card_teleport", "token_regenerate", "sacrifice")


def _links(rules: MythsgateRules) -> tuple[list[list[int]], list[list[int]]]:
    """The map's links: paths (inside a region) and bridge crossings (between two), each pair once."""
    gd = rules.gd
    paths, bridges = [], []
    for a, near in enumerate(gd.adj):
        for b in near:
            if a < b:
                (paths if gd.quadrant[a] == gd.quadrant[b] else bridges).append([a, b])
    return paths, bridges


def view_model(rules: MythsgateRules, s: State, seat: int | None) -> dict[str, Any]:
    """The game from ``seat``'s view (0 the Invoker, 1.. a hero) or, with ``seat=None``, every hand."""
    gd = rules.gd
    paths, bridges = _links(rules)
    league_sees = seat is None or seat >= 1
    heroes = []
    for h in range(rules.k):
        hero = rules.heroes[h]
        heroes.append({
            "index": h, "name": f"hero_{h}", "character": hero.name, "ability": hero.ability, "space": s.h_space[h],
            "lives": s.h_lives[h], "max_lives": gd.hero_lives_max, "cards": sum(s.h_hand[h]),
            "materials": {gd.materials[t]: c for t, c in enumerate(s.h_mats[h]) if c},
            "armour": [PIECES[p] for p in range(len(PIECES)) if s.h_armour[h][p]],
            "books": [BOOKS[rules.loc[c].color] for c in s.h_books[h]],
            "played": bool(s.h_done[h]), "current": s.cur_hero == h and not s.over,
            "actions_left": s.h_left if s.cur_hero == h and not s.over else None,
            "hand": [{"label": gd.kind_label(k), "count": c} for k, c in enumerate(s.h_hand[h]) if c] if league_sees else None,
        })
    minions = [{"index": m, "name": rules.minion[m].name, "space": s.m_space[m], "lives": s.m_lives[m], "max_lives": rules.minion[m].lives,
                "strength": rules.minion_strength(s, m), "draws": rules.minion_power(s, m)}
               for m in range(NUM_MINIONS) if s.m_space[m] >= 0]
    combat = None
    if s.cb_on:
        ht, it = rules.combat_totals(s)
        foe = rules.minion[s.cb_minion].name if s.cb_minion >= 0 else f"encounter {rules.loc[s.cb_enc].name}"
        combat = {"hero": f"hero_{s.cb_hero}", "foe": foe, "space": s.cb_space, "hero_cards": [gd.kind_label(c) for c in s.cb_hcards],
                  "hero_total": ht, "invoker_cards": [gd.kind_label(c) for c in s.cb_icards], "invoker_total": it}
    actor = None if s.over else ("invoker" if s.actor == 0 else f"hero_{s.actor - 1}")
    return {
        "game": "mythsgate",
        "status": render_text(rules, s, 0 if seat is None else seat).split("\n", 1)[0],
        "round": s.round + 1, "actor": actor, "phase": PHASE_NAMES[s.phase], "over": bool(s.over),
        "winner": None if not s.over else ("the Great Invoker" if s.winner == 0 else "the Atari League"),
        "regions": list(QUADRANTS),
        "spaces": [{"index": i, "name": gd.space_names[i], "region": QUADRANTS[gd.quadrant[i]], "kind": gd.kind[i],
                    "row": r, "col": c} for i, (r, c) in enumerate(gd.rowcol)],
        "paths": paths, "bridges": bridges, "portal": gd.portal, "treasure": gd.treasure,
        "heroes": heroes, "minions": minions,
        "invoker": {
            "gems": s.gems, "treasure": 10 - s.gems, "actions_left": s.inv_left,
            "tokens": [{"name": t, "available": bool(s.tokens[i])} for i, t in enumerate(TOKENS)],
            "tracks": [{"name": TRACKS[t], "value": s.tracks[t], "length": gd.track_length[t], "bonus_at": list(gd.track_bonus_at[t])}
                       for t in range(len(TRACKS))],
            "hand_size": len(s.inv_hand), "deck": len(s.inv_deck), "discard": len(s.inv_discard), "aside": len(s.inv_aside),
            "bans": [b for b, on in (("X3", s.ban3), ("X4", s.ban4)) if on],
            "hand": [gd.invoker_cards[c].name for c in s.inv_hand] if seat is None or seat == 0 else None,
        },
        "table": {"power_deck": len(s.power_deck), "power_discard": len(s.power_discard),
                  "market": {gd.materials[t]: c for t, c in enumerate(s.market) if c}, "life_supply": s.life_supply,
                  "boots_supply": s.boots_supply},
        "combat": combat,
    }


def text(rules: MythsgateRules, s: State, seat: int) -> str:
    """The position as the game's text render from ``seat`` (the page's text view)."""
    return render_text(rules, s, seat)


def action_target(name: str, arg: int) -> str | None:
    """The board element an action points at (``space:5``, ``minion:2``), or None."""
    if name in SPACE_ACTIONS:
        return f"space:{arg}"
    if name in MINION_ACTIONS:
        return f"minion:{arg}"
    return None


def narrate(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a decision changed, from two view models: moves, lives, materials, armour and books,
    minions invoked or beaten, gems stolen, tracks and tokens, a combat's start and result, the end."""
    out = []
    names = {sp["index"]: sp["name"] for sp in after["spaces"]}
    for h0, h1 in zip(before["heroes"], after["heroes"]):
        who = f"{h1['name']} ({h1['character']})"
        if h1["space"] != h0["space"] and h1["space"] >= 0:
            out.append(f"{who} moves to {names.get(h1['space'], h1['space'])}")
        if h1["lives"] != h0["lives"]:
            out.append(f"{who} {'gains' if h1['lives'] > h0['lives'] else 'loses'} {abs(h1['lives'] - h0['lives'])} life (now {h1['lives']})")
        if h1["cards"] != h0["cards"]:
            d = h1["cards"] - h0["cards"]
            out.append(f"{who}: {d:+d} Power card{'s' if abs(d) > 1 else ''} (now {h1['cards']})")
        if h1["materials"] != h0["materials"]:
            diff = {m: h1["materials"].get(m, 0) - h0["materials"].get(m, 0) for m in set(h0["materials"]) | set(h1["materials"])}
            out.append(f"{who}: " + ", ".join(f"{d:+d} {m}" for m, d in sorted(diff.items()) if d))
        for piece in h1["armour"]:
            if piece not in h0["armour"]:
                out.append(f"{who} forges the {piece}")
        if len(h1["books"]) > len(h0["books"]):
            out.append(f"{who} finds a {h1['books'][-1]} book")
    m0 = {m["index"]: m for m in before["minions"]}
    m1 = {m["index"]: m for m in after["minions"]}
    for i, m in m1.items():
        if i not in m0:
            out.append(f"the Invoker invokes the {m['name']} onto {names.get(m['space'], m['space'])}")
        elif m["space"] != m0[i]["space"]:
            out.append(f"the {m['name']} moves to {names.get(m['space'], m['space'])}")
        elif m["lives"] != m0[i]["lives"]:
            out.append(f"the {m['name']} {'loses' if m['lives'] < m0[i]['lives'] else 'regains'} a life (now {m['lives']})")
    for i, m in m0.items():
        if i not in m1:
            out.append(f"the {m['name']} is beaten and leaves the map")
    i0, i1 = before["invoker"], after["invoker"]
    if i1["gems"] != i0["gems"]:
        out.append(f"the Invoker steals a gem ({i1['gems']}/10)" if i1["gems"] > i0["gems"] else f"gems stolen: {i1['gems']}/10")
    for t0, t1 in zip(i0["tracks"], i1["tracks"]):
        if t1["value"] != t0["value"]:
            out.append(f"the {t1['name']} track advances to {t1['value']}/{t1['length']}")
    for t0, t1 in zip(i0["tokens"], i1["tokens"]):
        if t1["available"] != t0["available"]:
            out.append(f"the {t1['name']} token is {'flipped (available)' if t1['available'] else 'used'}")
    c0, c1 = before["combat"], after["combat"]
    if c1 and not c0:
        out.append(f"combat: {c1['hero']} against the {c1['foe']}")
    if c0 and not c1:
        # The totals are settled by the draw that ends the combat; who won shows in the lives lost.
        hero = next(h for h in after["heroes"] if h["name"] == c0["hero"])
        hurt = hero["lives"] < next(h for h in before["heroes"] if h["name"] == c0["hero"])["lives"]
        foe_hurt = any(i not in m1 or m1[i]["lives"] < m["lives"] for i, m in m0.items() if m["name"] == c0["foe"])
        result = f"{c0['hero']} wins" if foe_hurt else f"the {c0['foe']} wins" if hurt else "no one is hurt"
        out.append(f"fight result: {result} ({c0['hero']} against the {c0['foe']})")
    elif c0 and c1 and (c1["hero_total"], c1["invoker_total"]) != (c0["hero_total"], c0["invoker_total"]):
        out.append(f"combat totals: {c1['hero']} {c1['hero_total']}, the {c1['foe']} {c1['invoker_total']}")
    if after["over"] and not before["over"]:
        out.append(f"game over: {after['winner']} wins")
    return out


# ------------------------------------------------------------------ terminal help (mythzoo play / replay)
LEGEND = """\
map cells: <n><region> <kind>: space number, region T town / M mine / F forest / C castle
kinds: Inn inn, Mkt market (buy materials), Frg forge (armour), PwC power centre, POR the Portal, TRS the Treasure Chamber
pieces: H<n> hero n (Hnx: no life left), <Mi><n> minion n (first two letters of its name)
hero rows: * = the hero playing now; cards = Power cards in hand; actions left = the playing hero's actions still to take; played = has had its turn this round
tokens: fury, dark_power, haste, regenerate; * after one = still available to the Invoker
hands: one value per Power card, e.g. 2 2 3 (a suffix is the card's icon: +2F strength, +1P power, chains, draw)"""

REMINDERS = {
    "sacrifice": "the Invoker may sacrifice a minion at the start of the round.",
    "invoker_main": "the Invoker spends its actions (actions left on its board): invoke minions, move them, use abilities and cards, or end.",
    "choose_hero": "the League chooses which hero who has not played this round takes the next turn.",
    "hero_main": "the hero moves, trades, buys at a market, forges at a forge, fights a minion on its space, or ends its turn.",
    "trade": "heroes on the same space swap materials or cards.",
    "commit": "combat: each side commits Power cards face down; the higher total wins, the loser loses a life.",
    "draw": "combat: cards are drawn to the combat from the deck.",
    "place": "place the piece (hero or minion) on one of the spaces offered.",
    "track": "advance one of the Invoker's tracks (strength or power); bonuses come at marked steps.",
    "token": "choose which used token is flipped back to available.",
    "discard": "hand over the limit: choose cards to discard.",
    "kraken": "the Kraken's ability resolves: choose its target.",
    "manticore": "the Manticore's ability resolves: choose its target.",
    "dragon": "the Dragon's ability resolves: choose its target.",
    "cyclops": "the Cyclops's ability resolves: choose its target.",
    "pwyll": "Pwyll's ability resolves: choose its effect.",
}
