"""The toy game as text (``render_mode="ansi"``): scores, hand sizes, one hand, the deck and discard."""

from __future__ import annotations

from mythzoo.envs.core.render import section, table
from toy_game.rules import State, ToyRules


def render_text(rules: ToyRules, s: State, seat: int) -> str:
    """The table from ``seat``'s view: only that seat's hand is shown."""
    c = rules.cards
    head = f"Toy game: turn {s.turn}/{rules.total_turns}, " + ("game over" if s.over else f"player_{s.current} to move")
    rows = [[f"player_{p}", s.scores[p], sum(s.hands[p]), "<" if p == s.current and not s.over else ""] for p in range(rules.n)]
    hand = ", ".join(f"{c.names[k]} x{x}" for k, x in enumerate(s.hands[seat]) if x) or "(empty)"
    played = ", ".join(f"{c.names[k]} x{x}" for k, x in enumerate(s.discard) if x) or "(none)"
    return "\n".join([
        head,
        section("Players", table(rows, header=["player", "score", "cards", ""])),
        section(f"Hand of player_{seat}", hand),
        section("Table", f"deck: {len(s.deck)} cards; played: {played}"),
    ])
