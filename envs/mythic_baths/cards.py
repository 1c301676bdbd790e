"""Mythic Baths card sets: loading, validation and the derived tables the engine uses.

The rulebook prints the component counts but no card contents. ``data/reconstructed.json``
is our reconstruction; a user with the real cards writes a file of the same shape and passes
``card_set=<path>``. Every file is validated when it is loaded, so a broken file fails at
``reset``-time construction with a message that names the problem, never mid-game.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_CARD_SET = Path(__file__).parent / "data" / "reconstructed.json"

# Printed component counts (rulebook, "Components").
PRINTED_COUNTS = {
    "regular_guests": 35,
    "troublesome_guests": 10,
    "ingredient_cards": 50,
    "managers": 10,
    "favour_tokens": 25,
}
CREATURES = ("cerberus", "jackalope", "owlbear", "sea_lion", "tatzelwurm")
MANAGER_EFFECTS = (
    "amber_appraiser",
    "bathing_curator",
    "creature_whisperer",
    "earth_mage",
    "gardener",
    "fire_mage",
    "head_chef",
    "spirit_caretaker",
    "water_mage",
    "wind_mage",
)


class CardSetError(ValueError):
    """A card-set file is missing, malformed, or breaks a printed count or rule."""


@dataclass(frozen=True)
class Guest:
    """One guest card. ``needs`` counts each ingredient type; ``ability`` is set for troublesome guests."""

    gid: int
    name: str
    creature: int
    needs: tuple[int, ...]
    amber: int
    troublesome: bool
    ability: int  # creature index of the troublesome ability, -1 for regular guests


@dataclass(frozen=True)
class CardSet:
    """A validated card set plus the tables derived from it once."""

    name: str
    ingredients: tuple[str, ...]
    creatures: tuple[str, ...]
    tokens_per_creature: int
    # Ingredient-card kinds: every multiset of 1 or 2 ingredient types, in a fixed order,
    # so the action table and observation sizes depend only on the number of ingredient types.
    kinds: tuple[tuple[int, ...], ...]
    kind_units: tuple[tuple[int, ...], ...]  # kind -> units per ingredient type
    kind_counts: tuple[int, ...]  # kind -> copies in the deck
    guests: tuple[Guest, ...]
    managers: tuple[str, ...]  # effect names, by manager id
    manager_names: tuple[str, ...]
    digest: str  # sha256 of the canonical JSON, recorded in states and checkpoints

    @property
    def num_types(self) -> int:
        """Number of ingredient types."""
        return len(self.ingredients)

    @property
    def num_kinds(self) -> int:
        """Number of ingredient-card kinds (all 1- and 2-ingredient multisets)."""
        return len(self.kinds)

    def kind_label(self, kind: int) -> str:
        """Human-readable name of an ingredient-card kind, e.g. ``tea+salts``."""
        return "+".join(self.ingredients[t] for t in self.kinds[kind])


def all_kinds(num_types: int) -> tuple[tuple[int, ...], ...]:
    """Singles first, then pairs (a <= b), in lexicographic order."""
    singles = [(t,) for t in range(num_types)]
    pairs = [(a, b) for a in range(num_types) for b in range(a, num_types)]
    return tuple(singles + pairs)


def _require(cond: bool, where: str, msg: str) -> None:
    if not cond:
        raise CardSetError(f"{where}: {msg}")


def _ingredient_index(name: Any, ingredients: tuple[str, ...], where: str) -> int:
    _require(isinstance(name, str) and name in ingredients, where, f"unknown ingredient {name!r}; known: {list(ingredients)}")
    return ingredients.index(name)


def parse_card_set(data: Any, source: str = "<card set>") -> CardSet:
    """Validate a card-set dict (the JSON file's content) and build a :class:`CardSet`."""
    _require(isinstance(data, dict), source, "the top level must be a JSON object")
    for key in ("ingredients", "ingredient_cards", "regular_guests", "troublesome_guests", "managers"):
        _require(key in data, source, f"missing key {key!r}")
    ingredients = data["ingredients"]
    _require(
        isinstance(ingredients, list) and 2 <= len(ingredients) <= 8 and all(isinstance(i, str) for i in ingredients),
        source,
        "'ingredients' must be a list of 2 to 8 names",
    )
    _require(len(set(ingredients)) == len(ingredients), source, "ingredient names must be unique")
    ingredients = tuple(ingredients)
    creatures = tuple(data.get("creatures", CREATURES))
    _require(creatures == CREATURES, source, f"'creatures' must be {list(CREATURES)} (the five favour-token creatures)")
    per_creature = data.get("favour_tokens_per_creature", 5)
    _require(
        isinstance(per_creature, int) and per_creature * len(CREATURES) == PRINTED_COUNTS["favour_tokens"],
        source,
        f"favour tokens must total {PRINTED_COUNTS['favour_tokens']} (5 per creature)",
    )

    kinds = all_kinds(len(ingredients))
    counts = [0] * len(kinds)
    for i, card in enumerate(data["ingredient_cards"]):
        where = f"{source}: ingredient_cards[{i}]"
        _require(isinstance(card, dict) and "ingredients" in card, where, "needs an 'ingredients' list")
        ing = card["ingredients"]
        _require(isinstance(ing, list) and 1 <= len(ing) <= 2, where, "a card shows 1 or 2 ingredients")
        key = tuple(sorted(_ingredient_index(x, ingredients, where) for x in ing))
        count = card.get("count", 1)
        _require(isinstance(count, int) and count >= 1, where, "'count' must be a positive integer")
        counts[kinds.index(key)] += count
    _require(
        sum(counts) == PRINTED_COUNTS["ingredient_cards"],
        source,
        f"{sum(counts)} ingredient cards; the game has {PRINTED_COUNTS['ingredient_cards']}",
    )

    guests: list[Guest] = []
    for section, troublesome in (("regular_guests", False), ("troublesome_guests", True)):
        rows = data[section]
        _require(
            isinstance(rows, list) and len(rows) == PRINTED_COUNTS[section],
            source,
            f"'{section}' must list {PRINTED_COUNTS[section]} cards, got {len(rows) if isinstance(rows, list) else type(rows).__name__}",
        )
        for i, row in enumerate(rows):
            where = f"{source}: {section}[{i}]"
            _require(isinstance(row, dict), where, "each guest is an object")
            creature_name = row.get("ability" if troublesome else "creature")
            _require(creature_name in CREATURES, where, f"creature/ability {creature_name!r} is not one of {list(CREATURES)}")
            needs_list = row.get("needs")
            _require(isinstance(needs_list, list) and len(needs_list) >= 1, where, "'needs' must list the required ingredients")
            if troublesome:
                _require(len(needs_list) == 6, where, "troublesome guests require exactly 6 ingredients (rulebook)")
            needs = [0] * len(ingredients)
            for x in needs_list:
                needs[_ingredient_index(x, ingredients, where)] += 1
            amber = row.get("amber")
            _require(isinstance(amber, int) and 0 <= amber <= 20, where, "'amber' must be an integer 0-20")
            c = CREATURES.index(creature_name)
            guests.append(
                Guest(
                    gid=len(guests),
                    name=str(row.get("name", f"{section}_{i}")),
                    creature=c,
                    needs=tuple(needs),
                    amber=amber,
                    troublesome=troublesome,
                    ability=c if troublesome else -1,
                )
            )
    managers = data["managers"]
    _require(isinstance(managers, list) and len(managers) == PRINTED_COUNTS["managers"], source, "there must be 10 managers")
    effects = []
    for i, m in enumerate(managers):
        _require(isinstance(m, dict) and m.get("effect") in MANAGER_EFFECTS, f"{source}: managers[{i}]", f"'effect' must be one of {list(MANAGER_EFFECTS)}")
        effects.append(m["effect"])
    _require(sorted(effects) == sorted(MANAGER_EFFECTS), source, "each of the 10 manager effects must appear exactly once")

    kind_units = []
    for k in kinds:
        units = [0] * len(ingredients)
        for t in k:
            units[t] += 1
        kind_units.append(tuple(units))
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return CardSet(
        name=str(data.get("name", source)),
        ingredients=ingredients,
        creatures=CREATURES,
        tokens_per_creature=per_creature,
        kinds=kinds,
        kind_units=tuple(kind_units),
        kind_counts=tuple(counts),
        guests=tuple(guests),
        managers=tuple(effects),
        manager_names=tuple(str(m.get("name", m["effect"])) for m in managers),
        digest=hashlib.sha256(canonical).hexdigest(),
    )


_CACHE: dict[str, CardSet] = {}


def load_card_set(path: str | Path | None = None) -> CardSet:
    """Load and validate a card-set JSON file (the reconstruction when ``path`` is None)."""
    p = Path(path) if path is not None else DEFAULT_CARD_SET
    key = str(p.resolve())
    if key in _CACHE:
        return _CACHE[key]
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise CardSetError(f"cannot read card set {p}: {e.strerror or e}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardSetError(f"{p}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from e
    cs = parse_card_set(data, str(p))
    _CACHE[key] = cs
    return cs
