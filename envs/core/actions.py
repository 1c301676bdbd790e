"""Action tables: one flat ``Discrete(n)`` space cut into named ranges.

Each game declares its ranges once (name, labels of the arguments); encoding, decoding,
labels and the documentation table all come from that one declaration.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ActionRange:
    """A contiguous block of action ids sharing one meaning, e.g. ``nourish`` with one id per bath."""

    name: str
    offset: int
    labels: tuple[str, ...]
    doc: str

    @property
    def size(self) -> int:
        """Number of ids in the range."""
        return len(self.labels)


class ActionTable:
    """Named ranges over ``0..n-1`` with ``encode``/``decode``/``label`` and a markdown table."""

    def __init__(self, ranges: Sequence[tuple[str, Sequence[str], str]]):
        self.ranges: list[ActionRange] = []
        self._by_name: dict[str, ActionRange] = {}
        offset = 0
        for name, labels, doc in ranges:
            if name in self._by_name:
                raise ValueError(f"duplicate action range {name!r}")
            r = ActionRange(name, offset, tuple(labels), doc)
            self.ranges.append(r)
            self._by_name[name] = r
            offset += r.size
        self.n = offset
        self._starts = [r.offset for r in self.ranges]

    def __len__(self) -> int:
        return self.n

    def offset(self, name: str) -> int:
        """First id of range ``name``."""
        return self._by_name[name].offset

    def encode(self, name: str, arg: int = 0) -> int:
        """Id of argument ``arg`` in range ``name``."""
        r = self._by_name[name]
        if not 0 <= arg < r.size:
            raise ValueError(f"argument {arg} out of range for action {name!r} (size {r.size})")
        return r.offset + arg

    def decode(self, action: int) -> tuple[str, int]:
        """``(range name, argument)`` of an id."""
        if not 0 <= action < self.n:
            raise ValueError(f"action {action} out of range 0..{self.n - 1}")
        r = self.ranges[bisect_right(self._starts, action) - 1]
        return r.name, action - r.offset

    def label(self, action: int) -> str:
        """Readable name of an id, e.g. ``nourish(bath 3)``."""
        name, arg = self.decode(action)
        r = self._by_name[name]
        return name if r.size == 1 and not r.labels[0] else f"{name}({r.labels[arg]})"

    def markdown(self) -> str:
        """The documentation table: id range, name, arguments, meaning."""
        lines = ["| ids | action | argument | meaning |", "|---|---|---|---|"]
        for r in self.ranges:
            ids = f"{r.offset}" if r.size == 1 else f"{r.offset}-{r.offset + r.size - 1}"
            args = "" if r.size == 1 and not r.labels[0] else f"{r.labels[0]} ... {r.labels[-1]}" if r.size > 2 else ", ".join(r.labels)
            lines.append(f"| {ids} | `{r.name}` | {args} | {r.doc} |")
        return "\n".join(lines)
