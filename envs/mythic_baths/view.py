"""Mythic Baths for the browser viewer (``mythzoo view``): the table as a JSON view model, the board
element each action points at, and the narration of a decision's effect.

The view model holds what the text render shows (``render.py``) as plain data: the baths with their
guests, what each still needs, the nourish tokens and dirty tiles; the supply; the manager; every
player's VP, amber, guests, favour tokens and hand size; the hands ``seat`` may see (its own, or all
with ``seat=None``: an omniscient replay); the treatment in progress. The page draws it
(``viewer/static/mythic_baths.js``); :func:`narrate` compares two view models, so it narrates only
what they show.
"""

from __future__ import annotations

from typing import Any

from mythzoo.envs.mythic_baths.rules import (
    CERBERUS,
    OWLBEAR,
    PHASE_NAMES,
    SEA_LION,
    TATZELWURM,
    TOKEN_ACTIVE,
    TOKEN_USED,
    MythicBathsRules,
    State,
)
from mythzoo.envs.mythic_baths.render import render_text

# Actions whose argument is a bath or a supply slot: clicking that element of the board plays them.
BATH_ACTIONS = ("nourish", "treat", "token_owlbear")
SUPPLY_ACTIONS = ("gather_supply", "gardener", "token_cerberus")


def _guest(rules: MythicBathsRules, x: int, filled: list[int] | None = None) -> dict[str, Any]:
    g, cs = rules.guests[x], rules.cs
    creature = g.ability if g.troublesome else g.creature
    remaining = [max(g.needs[t] - (filled[t] if filled else 0), 0) for t in range(rules.T)]
    return {
        "id": x, "name": g.name, "creature": cs.creatures[creature], "troublesome": bool(g.troublesome), "amber": g.amber,
        "needs": [{"ingredient": cs.ingredients[t], "count": c} for t, c in enumerate(g.needs) if c],
        "remaining": [{"ingredient": cs.ingredients[t], "count": c} for t, c in enumerate(remaining) if c],
    }


def _cards(rules: MythicBathsRules, counts: list[int]) -> list[dict[str, Any]]:
    cs = rules.cs
    return [{"label": cs.kind_label(k), "ingredients": [cs.ingredients[t] for t in cs.kinds[k]], "count": c}
            for k, c in enumerate(counts) if c]


def view_model(rules: MythicBathsRules, s: State, seat: int | None) -> dict[str, Any]:
    """The table from ``seat``'s view (its own hand shown) or, with ``seat=None``, every hand."""
    cs, n = rules.cs, rules.n
    scores = rules.scores(s)
    baths = []
    for b in range(rules.num_baths):
        x = s.bath_guest[b]
        notes = []
        if rules._adjacent_ability(s, b, TATZELWURM):
            notes.append("+1 extra ingredient (Tatzelwurm next door)")
        if rules._adjacent_ability(s, b, OWLBEAR):
            notes.append("cannot be nourished (Owlbear next door)")
        if rules._adjacent_ability(s, b, SEA_LION):
            notes.append("cannot be cleaned (Sea-Lion next door)")
        guest = None
        if x >= 0:
            guest = _guest(rules, x, s.bath_filled[b])
            if rules.guests[x].troublesome and rules.guests[x].ability == CERBERUS:
                notes.append("only its own ingredient types")
        owner = rules.nourisher(s, b) if x >= 0 else -1
        baths.append({
            "index": b, "dirty": bool(s.bath_dirty[b]), "guest": guest, "nourished_by": owner if owner >= 0 else None,
            "cards": [cs.kind_label(k) for k in sorted(s.bath_cards[b])], "notes": notes, "paying": s.pay_bath == b,
        })
    players = []
    for p in range(n):
        tokens = [{"creature": cs.creatures[c], "used": s.tokens[p][c] == TOKEN_USED}
                  for c in range(len(cs.creatures)) if s.tokens[p][c] in (TOKEN_ACTIVE, TOKEN_USED)]
        shown = seat is None or seat == p
        players.append({
            "seat": p, "name": f"player_{p}", "vp": scores[p], "amber": s.amber[p], "hand_size": sum(s.hands[p]),
            "guests": [rules.guests[x].name for x in s.collected[p]], "tokens": tokens,
            "nourish": s.nourish[p] if s.nourish[p] >= 0 else None,
            "current": p == s.current and not s.over, "hand": _cards(rules, s.hands[p]) if shown else None,
        })
    treatment = None
    if s.pay_bath >= 0:
        treatment = {"bath": s.pay_bath, "needs": [{"ingredient": cs.ingredients[t], "count": c} for t, c in enumerate(s.pay_need) if c],
                     "extra": s.pay_extra, "cards": [cs.kind_label(k) for k in s.pay_cards]}
    return {
        "game": "mythic_baths",
        "status": render_text(rules, s, 0 if seat is None else seat).split("\n", 1)[0],
        "turn": s.turn + 1, "current": None if s.over else s.current, "phase": PHASE_NAMES[s.phase], "over": bool(s.over),
        "last_round": s.turns_left if s.final_trigger >= 0 and not s.over else None,
        "manager": cs.manager_names[s.manager], "replaced_managers": [cs.manager_names[m] for m in s.manager_pile],
        "deck": len(s.deck), "discard": len(s.discard), "guests_left": len(s.guest_deck),
        "next_guest": _guest(rules, s.guest_deck[-1]) if s.guest_deck else None,  # the guest deck's top lies face up
        "ingredients": list(cs.ingredients),
        "token_supply": {cs.creatures[c]: s.token_supply[c] for c in range(len(cs.creatures))},
        "baths": baths,
        "supply": [None if k < 0 else {"slot": i, "label": cs.kind_label(k), "ingredients": [cs.ingredients[t] for t in cs.kinds[k]]}
                   for i, k in enumerate(s.supply)],
        "players": players, "treatment": treatment,
        "winners": [f"player_{p}" for p in rules.winners(s)] if s.over else None,
    }


def text(rules: MythicBathsRules, s: State, seat: int) -> str:
    """The position as the game's text render from ``seat`` (the page's text view)."""
    return render_text(rules, s, seat)


def action_target(name: str, arg: int) -> str | None:
    """The board element an action of range ``name`` with argument ``arg`` points at (``bath:3``, ``supply:1``), or None."""
    if name in BATH_ACTIONS:
        return f"bath:{arg}"
    if name in SUPPLY_ACTIONS:
        return f"supply:{arg}"
    return None


def narrate(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a decision changed, from two view models: VP and amber gained, guests treated, tokens won,
    baths cleaned or dirtied, guests arriving, cards gathered, the manager replaced, the game's end."""
    out = []
    for p0, p1 in zip(before["players"], after["players"]):
        who = p1["name"]
        won = p1["guests"][len(p0["guests"]):] if p1["guests"][: len(p0["guests"])] == p0["guests"] else []
        for g in won:
            out.append(f"{who} completes the treatment of {g}")
        gains = []
        if p1["vp"] != p0["vp"]:
            gains.append(f"{p1['vp'] - p0['vp']:+d} VP (now {p1['vp']})")
        if p1["amber"] != p0["amber"]:
            gains.append(f"{p1['amber'] - p0['amber']:+d} amber (now {p1['amber']})")
        if p1["hand_size"] != p0["hand_size"]:
            gains.append(f"{p1['hand_size'] - p0['hand_size']:+d} card{'s' if abs(p1['hand_size'] - p0['hand_size']) > 1 else ''} in hand (now {p1['hand_size']})")
        if gains:
            out.append(f"{who}: " + ", ".join(gains))
        t0 = {(t["creature"], t["used"]) for t in p0["tokens"]}
        for t in p1["tokens"]:
            if (t["creature"], t["used"]) not in t0:
                out.append(f"{who} {'uses' if t['used'] else 'wins'} the {t['creature']} favour token")
        if p1["nourish"] != p0["nourish"] and p1["nourish"] is not None:
            out.append(f"{who} nourishes the guest in bath {p1['nourish']}")
    for b0, b1 in zip(before["baths"], after["baths"]):
        g0, g1 = b0["guest"], b1["guest"]
        if g1 is not None and (g0 is None or g0["id"] != g1["id"]):
            out.append(f"{g1['name']} ({'troublesome ' if g1['troublesome'] else ''}{g1['creature']}, {g1['amber']} amber) arrives in bath {b1['index']}")
        elif g0 is not None and g1 is not None and g0["remaining"] != g1["remaining"]:
            left = ", ".join(f"{r['count']}x {r['ingredient']}" for r in g1["remaining"]) or "nothing"
            out.append(f"bath {b1['index']}: {g1['name']} now needs {left}")
        if b0["dirty"] and not b1["dirty"]:
            out.append(f"bath {b1['index']} is cleaned")
        elif b1["dirty"] and not b0["dirty"]:
            out.append(f"bath {b1['index']} is left dirty")
    if after["manager"] != before["manager"]:
        out.append(f"the manager is now {after['manager']}")
    if after["treatment"] and not before["treatment"]:
        out.append(f"treatment of bath {after['treatment']['bath']} begins")
    if after["last_round"] is not None and before["last_round"] is None:
        out.append(f"the last round begins ({after['last_round']} turns left)")
    if after["over"] and not before["over"]:
        out.append("game over: " + ", ".join(after["winners"] or []) + " win" + ("s" if len(after["winners"] or []) == 1 else ""))
    return out


# ------------------------------------------------------------------ terminal help (mythzoo play / replay)
LEGEND = """\
baths: tile clean or dirty; guest (creature, or TROUBLESOME and its ability); amber = points for completing it
needs: what the guest still wants (2xtea = two tea); nourished = who has put a card in that bath
supply: [i] the face-up ingredient cards you can take; a+b = a card with two ingredients
hands: ingredient cards by their ingredients; tokens are the creature tokens earned (active or used)"""

REMINDERS = {
    "turn": "take cards from the supply, gather, or nourish a guest with cards from your hand.",
    "gather": "gathering: take the cards offered.",
    "earth_mage": "the Earth Mage manager: choose the extra card.",
    "discard": "your hand is over the limit: discard down to it.",
    "pay": "pay the cost with cards from your hand.",
    "take": "choose which card to take.",
}
