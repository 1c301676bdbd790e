"""Text-rendering helpers shared by the games' ansi renderers."""

from __future__ import annotations

from collections.abc import Sequence


def table(rows: Sequence[Sequence[object]], header: Sequence[str] | None = None) -> str:
    """A plain monospace table: columns padded to their widest cell."""
    cells = [[str(c) for c in r] for r in ([header] if header else []) + list(rows)]
    if not cells:
        return ""
    widths = [max(len(r[i]) for r in cells if i < len(r)) for i in range(max(len(r) for r in cells))]
    lines = ["  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in cells]
    if header:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def section(title: str, body: str) -> str:
    """A titled block."""
    return f"== {title} ==\n{body}"
