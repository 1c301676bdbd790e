"""Checks for ``validate(state)`` and ``__init__`` arguments, one line each, shared by every game.

Booleans are never numbers here (``True`` is an ``int`` to Python, not to a game state), and
every failure is a ``ValueError`` whose message names the field.
"""

from __future__ import annotations

from typing import Any


def is_int(x: Any) -> bool:
    """A plain int (``bool`` excluded)."""
    return type(x) is int


def req(cond: bool, msg: str) -> None:
    """``ValueError("invalid game state: <msg>")`` unless ``cond``."""
    if not cond:
        raise ValueError(f"invalid game state: {msg}")


def check_int(v: Any, lo: int, hi: int, name: str) -> None:
    """``v`` is an int in ``[lo, hi]``."""
    req(type(v) is int and lo <= v <= hi, f"{name} must be an int in [{lo}, {hi}], got {v!r}")


def check_ints(v: Any, length: int | None, lo: int, hi: int, name: str) -> None:
    """``v`` is a list (of ``length`` entries, if given) of ints in ``[lo, hi]``."""
    req(type(v) is list, f"{name} must be a list")
    if length is not None:
        req(len(v) == length, f"{name} must have length {length}")
    req(all(type(x) is int and lo <= x <= hi for x in v), f"{name} entries must be ints in [{lo}, {hi}]")


def check_rows(v: Any, rows: int, length: int | None, lo: int, hi: int, name: str) -> None:
    """``v`` is a list of ``rows`` lists, each as :func:`check_ints` describes."""
    req(type(v) is list and len(v) == rows, f"{name} must list {rows} rows")
    for i, row in enumerate(v):
        check_ints(row, length, lo, hi, f"{name}[{i}]")


def check_arg(v: Any, lo: int, hi: int | None, name: str) -> int:
    """An env or engine argument: an int in ``[lo, hi]`` (``hi=None``: no upper bound), else ``ValueError``."""
    if type(v) is not int or v < lo or (hi is not None and v > hi):
        bound = f"in {lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be an int {bound}, got {v!r}")
    return v
