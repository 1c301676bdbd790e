"""Plain-text output shared by every command: the one table formatter and the escaping of text
that came from a file.

Lives at the package root so that every layer may use it (``policies`` cannot import
``evaluation``); it imports nothing from mythzoo.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Number


def format_table(rows: Sequence[Sequence[object]], header: Sequence[str], right: Sequence[int] | range | None = None) -> str:
    """A monospace table: columns padded to their widest cell, ``None`` shown empty; ``right``: the
    right-aligned columns (default: the columns whose every cell is a number, booleans excepted)."""
    cells = [[str(c) for c in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    if right is None:
        right = [i for i in range(len(header)) if rows and all(isinstance(r[i], Number) and not isinstance(r[i], bool) for r in rows)]
    right_set = set(right)

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right_set else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def printable(value: object) -> str:
    """``value`` as text with every non-printable character (escape sequences, newlines, bidi
    controls) escaped, for printing what came from a file (names, labels, errors)."""
    text = str(value)
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
