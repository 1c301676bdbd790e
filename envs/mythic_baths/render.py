"""Mythic Baths ansi rendering: the table as a player sitting at it would describe it."""

from __future__ import annotations

from mythzoo.envs.core.render import section, table
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


def render_text(rules: MythicBathsRules, s: State, seat: int) -> str:
    """Baths with guests, needs and tokens; manager; supply; scores; and ``seat``'s own hand."""
    cs, n = rules.cs, rules.n
    out = []
    status = "GAME OVER" if s.over else f"turn {s.turn + 1}, player_{s.current} to move ({PHASE_NAMES[s.phase]})"
    if s.final_trigger >= 0 and not s.over:
        status += f", last round ({s.turns_left} turns left)"
    out.append(f"Mythic Baths, {n} players: {status}")
    out.append(f"Manager: {cs.manager_names[s.manager]}   deck {len(s.deck)}  discard {len(s.discard)}  guests left {len(s.guest_deck)}")
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
            notes.append(f"{len(s.bath_cards[b])} cards placed")
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
