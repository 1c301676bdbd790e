"""Observers: named pieces laid out in ONE flat float32 buffer.

A game declares its pieces once as ``(name, shape, doc)``. The flat size, the per-entry feature
names (``observation_features()``), the docs' observation table and the offsets used by the
encoder all derive from that declaration, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np


def write_bytes(data: bytes | bytearray, out: np.ndarray) -> None:
    """Write a float32 vector's bytes into ``out``: straight into a contiguous float32 row (no
    temporary array), else through numpy (which converts, or says why the shapes differ)."""
    try:
        view = memoryview(out)
        if view.format != "f":  # only float32 may take the bytes as they are
            raise TypeError
        view.cast("B")[:] = data
    except (TypeError, ValueError):
        out[:] = np.frombuffer(data, np.float32)


@dataclass(frozen=True)
class Piece:
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    offset: int
    doc: str
    axes: tuple[Sequence[str], ...] | None = None  # optional labels per axis, for feature names

    @property
    def size(self) -> int:
        """Number of floats in the piece."""
        return prod(self.shape)


class ObservationLayout:
    """The declared pieces with their offsets; ``features()`` names every entry."""

    def __init__(self, pieces: Sequence[tuple]):
        self.pieces: list[Piece] = []
        self.by_name: dict[str, Piece] = {}
        offset = 0
        for spec in pieces:
            name, shape, doc = spec[0], tuple(spec[1]), spec[2]
            axes = tuple(spec[3]) if len(spec) > 3 else None
            if name in self.by_name:
                raise ValueError(f"duplicate observation piece {name!r}")
            p = Piece(name, shape, offset, doc, axes)
            self.pieces.append(p)
            self.by_name[name] = p
            offset += p.size
        self.size = offset

    def offset(self, name: str) -> int:
        """Flat offset of piece ``name``."""
        return self.by_name[name].offset

    def views(self, buffer: np.ndarray) -> dict[str, np.ndarray]:
        """Named, shaped views into a flat buffer."""
        spans = self.__dict__.get("_spans")
        if spans is None or len(spans) != len(self.pieces):  # worked out once (heuristics read every observation)
            spans = self.__dict__["_spans"] = [(p.name, p.offset, p.offset + p.size, p.shape) for p in self.pieces]
        return {name: buffer[a:b].reshape(shape) for name, a, b, shape in spans}

    def features(self) -> list[str]:
        """One name per entry of the flat vector, e.g. ``bath.guest_needs[2,salts]``."""
        names: list[str] = []
        for p in self.pieces:
            if p.size == 1 and p.shape in ((), (1,)):
                names.append(p.name)
                continue
            for idx in np.ndindex(*p.shape):
                parts = []
                for axis, i in enumerate(idx):
                    labels = p.axes[axis] if p.axes is not None and axis < len(p.axes) else None
                    parts.append(str(labels[i]) if labels is not None else str(i))
                names.append(f"{p.name}[{','.join(parts)}]")
        return names

    def markdown(self) -> str:
        """The documentation table: offset, name, shape, meaning."""
        lines = ["| offset | piece | shape | meaning |", "|---|---|---|---|"]
        for p in self.pieces:
            lines.append(f"| {p.offset} | `{p.name}` | {list(p.shape)} | {p.doc} |")
        lines.append(f"| {self.size} | (total) | | |")
        return "\n".join(lines)
