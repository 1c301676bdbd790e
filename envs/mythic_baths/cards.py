"""Mythic Baths card sets: the file format, its validation and the derived tables the engine uses.

The rulebook prints the component counts but no card contents. ``data/reconstructed.json``
is our reconstruction; a user with the real cards writes a file of the same shape and passes
``card_set=<path>``. The format is declared once, as typed models (:class:`CardSetFile` and the
models it holds): strict types (a ``true`` is never a number), declared ranges, and no unknown
keys. Every file is validated when it is loaded, so a broken file fails at construction with a
one-line message naming the file, the entry and the field, never mid-game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, field_validator, model_validator

from mythzoo.envs.core.data import DataFile, canonical_digest

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
TROUBLESOME_NEEDS = 6  # "Troublesome guests require 6 ingredients" (rulebook)


class CardSetError(ValueError):
    """A card-set file is missing, malformed, or breaks a printed count or rule."""


# ------------------------------------------------------------------------- the file format
def _exactly(n: int, noun: str) -> AfterValidator:
    """A list of exactly ``n`` entries (a printed count), with the count's own words in the message."""

    def check(v: list) -> list:
        if len(v) != n:
            raise ValueError(f"must list {n} {noun}, got {len(v)}")
        return v

    return AfterValidator(check)


class _Closed(BaseModel):
    """A closed JSON object: strict types, no unknown keys, immutable once read."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Creature = Literal[CREATURES]
Amber = Annotated[StrictInt, Field(ge=0, le=20)]


class IngredientCardEntry(_Closed):
    """``{"ingredients": ["tea", "oil"], "count": 2}``: ``count`` copies of a card showing these 1 or 2 ingredients."""

    ingredients: list[StrictStr]
    count: StrictInt = Field(default=1, ge=1)

    @field_validator("ingredients")
    @classmethod
    def _one_or_two(cls, v: list[str]) -> list[str]:
        if not 1 <= len(v) <= 2:
            raise ValueError(f"a card shows 1 or 2 ingredients, got {len(v)}")
        return v


class RegularGuestEntry(_Closed):
    """A regular guest: its creature, the ingredients it needs (a type listed once per unit) and its amber."""

    name: StrictStr | None = None
    creature: Creature
    needs: list[StrictStr] = Field(min_length=1)
    amber: Amber


class TroublesomeGuestEntry(_Closed):
    """A troublesome guest: the creature whose ability it has, its 6 ingredients and its amber."""

    name: StrictStr | None = None
    ability: Creature
    needs: list[StrictStr]
    amber: Amber

    @field_validator("needs")
    @classmethod
    def _six(cls, v: list[str]) -> list[str]:
        if len(v) != TROUBLESOME_NEEDS:
            raise ValueError(f"troublesome guests require exactly {TROUBLESOME_NEEDS} ingredients (rulebook), got {len(v)}")
        return v


class ManagerEntry(_Closed):
    """A manager card: its effect (one of :data:`MANAGER_EFFECTS`) and printed name."""

    name: StrictStr | None = None
    effect: Literal[MANAGER_EFFECTS]


class CardSetFile(_Closed):
    """A whole card-set file. Checks that span entries (known ingredient names, the printed card
    total, each manager effect once) run after every entry is valid."""

    name: StrictStr | None = None
    description: StrictStr | None = None
    ingredients: list[StrictStr]
    creatures: list[StrictStr] = list(CREATURES)
    favour_tokens_per_creature: StrictInt = 5
    ingredient_cards: list[IngredientCardEntry]
    regular_guests: Annotated[list[RegularGuestEntry], _exactly(PRINTED_COUNTS["regular_guests"], "cards")]
    troublesome_guests: Annotated[list[TroublesomeGuestEntry], _exactly(PRINTED_COUNTS["troublesome_guests"], "cards")]
    managers: Annotated[list[ManagerEntry], _exactly(PRINTED_COUNTS["managers"], "managers")]

    @field_validator("ingredients")
    @classmethod
    def _ingredient_names(cls, v: list[str]) -> list[str]:
        if not 2 <= len(v) <= 8:
            raise ValueError(f"must be a list of 2 to 8 names, got {len(v)}")
        if len(set(v)) != len(v):
            raise ValueError("ingredient names must be unique")
        return v

    @field_validator("creatures")
    @classmethod
    def _five_creatures(cls, v: list[str]) -> list[str]:
        if tuple(v) != CREATURES:
            raise ValueError(f"must be {list(CREATURES)} (the five favour-token creatures)")
        return v

    @field_validator("favour_tokens_per_creature")
    @classmethod
    def _tokens(cls, v: int) -> int:
        if v * len(CREATURES) != PRINTED_COUNTS["favour_tokens"]:
            raise ValueError(f"favour tokens must total {PRINTED_COUNTS['favour_tokens']} (5 per creature), got {v} per creature")
        return v

    @model_validator(mode="after")
    def _across_entries(self) -> CardSetFile:
        known = self.ingredients
        for section, rows in (("ingredient_cards", self.ingredient_cards), ("regular_guests", self.regular_guests),
                              ("troublesome_guests", self.troublesome_guests)):
            for i, row in enumerate(rows):
                for x in row.ingredients if section == "ingredient_cards" else row.needs:
                    if x not in known:
                        raise ValueError(f"{section}[{i}]: unknown ingredient {x!r}; known: {list(known)}")
        total = sum(c.count for c in self.ingredient_cards)
        if total != PRINTED_COUNTS["ingredient_cards"]:
            raise ValueError(f"{total} ingredient cards; the game has {PRINTED_COUNTS['ingredient_cards']}")
        if sorted(m.effect for m in self.managers) != sorted(MANAGER_EFFECTS):
            raise ValueError(f"each of the {len(MANAGER_EFFECTS)} manager effects must appear exactly once")
        return self


def _error_line(e: ValidationError, source: str) -> str:
    """The first validation error as one line: ``<file>: <entry>: '<field>' <what is wrong>``."""
    err = e.errors(include_url=False)[0]
    loc = err["loc"]
    last = max((i for i, x in enumerate(loc) if isinstance(x, str)), default=-1)
    place = "".join(f"[{x}]" if isinstance(x, int) else (f".{x}" if i else x) for i, x in enumerate(loc[:last])) if last > 0 else ""
    field = "".join(f"[{x}]" if isinstance(x, int) else x for x in loc[last:]) if last >= 0 else ""
    kind, ctx, got = err["type"], err.get("ctx") or {}, err.get("input")
    if kind == "missing":
        what = f"missing key {field!r}"
    elif kind == "extra_forbidden":
        what = f"unknown key {field!r}"
    elif kind in ("model_type", "model_attributes_type", "dict_type"):
        what = f"{field!r} must be a JSON object" if field else "the top level must be a JSON object"
    elif kind == "value_error":
        what = f"{field!r} {ctx['error']}" if field else str(ctx["error"])
    else:
        text = {
            "literal_error": f"must be one of {ctx.get('expected', '')}",
            "int_type": "must be an integer", "string_type": "must be a string", "list_type": "must be a list",
            "greater_than_equal": f"must be >= {ctx.get('ge')}", "less_than_equal": f"must be <= {ctx.get('le')}",
            "too_short": f"must list at least {ctx.get('min_length')} entries",
        }.get(kind, err["msg"][:1].lower() + err["msg"][1:])
        what = f"{field!r} {text}, got {got!r}"
    return ": ".join(x for x in (source, place, what) if x)


# ----------------------------------------------------------------------- the engine's tables
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


def parse_card_set(data: Any, source: str = "<card set>") -> CardSet:
    """Validate a card-set file's content (:class:`CardSetFile`) and build a :class:`CardSet`."""
    try:
        f = CardSetFile.model_validate(data)
    except ValidationError as e:
        raise CardSetError(_error_line(e, source)) from None
    ingredients = tuple(f.ingredients)
    kinds = all_kinds(len(ingredients))
    counts = [0] * len(kinds)
    for card in f.ingredient_cards:
        counts[kinds.index(tuple(sorted(ingredients.index(x) for x in card.ingredients)))] += card.count
    guests: list[Guest] = []
    for section, rows in (("regular_guests", f.regular_guests), ("troublesome_guests", f.troublesome_guests)):
        troublesome = section == "troublesome_guests"
        for i, row in enumerate(rows):
            needs = [0] * len(ingredients)
            for x in row.needs:
                needs[ingredients.index(x)] += 1
            c = CREATURES.index(row.ability if troublesome else row.creature)  # type: ignore[union-attr]
            guests.append(Guest(gid=len(guests), name=row.name if row.name is not None else f"{section}_{i}", creature=c,
                                needs=tuple(needs), amber=row.amber, troublesome=troublesome, ability=c if troublesome else -1))
    kind_units = []
    for k in kinds:
        units = [0] * len(ingredients)
        for t in k:
            units[t] += 1
        kind_units.append(tuple(units))
    return CardSet(
        name=f.name if f.name is not None else source,
        ingredients=ingredients,
        creatures=CREATURES,
        tokens_per_creature=f.favour_tokens_per_creature,
        kinds=kinds,
        kind_units=tuple(kind_units),
        kind_counts=tuple(counts),
        guests=tuple(guests),
        managers=tuple(m.effect for m in f.managers),
        manager_names=tuple(m.name if m.name is not None else m.effect for m in f.managers),
        digest=canonical_digest(data),  # of the file as written: states and checkpoints record it
    )


CARD_SETS = DataFile(DEFAULT_CARD_SET, parse_card_set, CardSetError, what="card set")


def load_card_set(path: str | Path | None = None) -> CardSet:
    """Load and validate a card-set JSON file (the reconstruction when ``path`` is None); read once
    per version of the file."""
    return CARD_SETS.load(path)
