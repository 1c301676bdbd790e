"""The toy game's replaceable data (``data/cards.json``): card kinds and the deal, read with ``DataFile``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mythzoo.envs.core.data import DataFile, canonical_digest

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "cards.json"
MAX_PLAYERS = 4


class ToyDataError(ValueError):
    """A data file that is not a valid toy card set (the message names the file and the problem)."""


@dataclass(frozen=True)
class Cards:
    """The card kinds (name, value, copies in the deck) and the deal sizes."""

    names: tuple[str, ...]
    values: tuple[int, ...]
    counts: tuple[int, ...]
    hand_size: int  # cards dealt to each player
    max_hand: int  # a player may draw only while holding fewer
    rounds: int  # turns each player takes
    digest: str  # sha256 of the file's canonical JSON (recorded in the env config)

    @property
    def total_value(self) -> int:
        """Points of every card together."""
        return sum(v * c for v, c in zip(self.values, self.counts))


def parse(raw: Any, source: str) -> Cards:
    """Validate the JSON of a card set and build its tables."""

    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise ToyDataError(f"{source}: {msg}")

    need(isinstance(raw, dict), "top level must be a JSON object")
    for key in ("cards", "hand_size", "max_hand", "rounds"):
        need(key in raw, f"missing key {key!r}")
    cards = raw["cards"]
    need(isinstance(cards, list) and len(cards) > 0, "'cards' must be a non-empty list")
    for i, c in enumerate(cards):
        need(isinstance(c, dict) and isinstance(c.get("name"), str) and c["name"] != "", f"cards[{i}]: 'name' must be a non-empty string")
        for k in ("value", "count"):
            need(type(c.get(k)) is int and c[k] >= 1, f"cards[{i}]: {k!r} must be an int >= 1")
    names = tuple(c["name"] for c in cards)
    need(len(set(names)) == len(names), "card names must be distinct")
    for k in ("hand_size", "max_hand", "rounds"):
        need(type(raw[k]) is int and raw[k] >= 1, f"{k!r} must be an int >= 1")
    need(raw["hand_size"] <= raw["max_hand"], "'hand_size' must not exceed 'max_hand'")
    counts = tuple(c["count"] for c in cards)
    need(sum(counts) >= MAX_PLAYERS * raw["hand_size"], f"{sum(counts)} cards cannot deal {MAX_PLAYERS} hands")
    return Cards(names, tuple(c["value"] for c in cards), counts, raw["hand_size"], raw["max_hand"], raw["rounds"], canonical_digest(raw))


CARDS: DataFile[Cards] = DataFile(DEFAULT_DATA, parse, ToyDataError)


def load_cards(path: str | Path | None = None) -> Cards:
    """The card set in ``path`` (the default set when ``None``), read once per file version."""
    return CARDS.load(path)
