"""The schema of Mythsgate's three data files, as strict pydantic models.

Each file is one model (``MapFile``, ``CharactersFile``, ``CardsFile``): field types and ranges
are declared (an int is never a bool, a key the format does not know is an error), and the rules
that tie fields together (printed component counts, a connected map, every Annex minion present)
are the models' own validators. ``CardsFile`` names materials defined in ``characters.json``; it is
validated with those names as context. :func:`validate` turns the first error into one line that
names the file and the field. ``gamedata.parse_data`` builds the game's tables from the models.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

QUADRANTS = ("town", "mine", "forest", "castle")
DECKS = ("town", "mine", "forest")  # location deck of each explorable quadrant
SPACE_KINDS = ("plain", "inn", "market", "forge", "power_centre", "portal", "treasure")
HERO_ABILITIES = ("hood", "pwyll", "beowulf", "circe", "tiy")
MINION_ABILITIES = ("phoenix", "hippogriff", "balrog", "cyclops", "dragon", "hydra", "manticore", "kraken")
ICONS = ("none", "+2F", "+1P", "chains", "draw")
EFFECTS = ("+3F", "+1P", "X3", "X4", "teleport")
PIECES = ("weapon", "amulet", "boots", "pack")
IMPROVES = ("strength", "power", "boots", "hand")
BOOKS = ("yellow", "red", "green")
TOKENS = ("fury", "dark_power", "haste", "regenerate")
TRACKS = ("strength", "power")
# Printed component counts (rulebook, "Components").
PRINTED = {
    "heroes": 5, "minions": 12, "ability_tokens": 4, "resources": 52, "boots_tokens": 5, "gems": 10,
    "life_tokens": 15, "power_cards": 48, "invoker_cards": 20, "location_cards": 14,
}

M = TypeVar("M", bound=BaseModel)


def _int(lo: int, hi: int) -> Any:
    return Annotated[int, Field(ge=lo, le=hi)]


class _Closed(BaseModel):
    """Strict (no coercion: an int is never a bool or a string), closed (unknown keys are errors), frozen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _check(cond: Any, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


# ---------------------------------------------------------------------------------- map.json
class Space(_Closed):
    name: str
    quadrant: Literal[QUADRANTS]
    kind: Literal[SPACE_KINDS] = "plain"
    row: _int(0, 63) = 0
    col: _int(0, 63) = 0


class MapFile(_Closed):
    """Spaces, the paths inside a quadrant and the bridges between two."""

    name: str = ""  # a title, shown nowhere
    quadrants: list[Literal[QUADRANTS]] | None = None  # informational: the quadrants are fixed
    spaces: Annotated[list[Space], Field(min_length=4, max_length=64)]
    paths: list[list[str]]
    bridges: list[list[str]]

    @model_validator(mode="after")
    def _rules(self) -> MapFile:
        names = [s.name for s in self.spaces]
        for i, name in enumerate(names):
            _check(name not in names[:i], f"spaces[{i}]: duplicate space name {name!r}")
        for key, size, what in (("paths", 2, "a path joins two spaces"), ("bridges", 4, "a bridge touches exactly four spaces")):
            for i, group in enumerate(getattr(self, key)):
                _check(len(group) == size, f"{key}[{i}]: {what}")
                for x in group:
                    _check(x in names, f"{key}[{i}]: unknown space {x!r}")
        quad = {s.name: s.quadrant for s in self.spaces}
        for i, (a, b) in enumerate(self.paths):
            _check(a != b, f"paths[{i}]: a path joins two different spaces")
            _check(quad[a] == quad[b], f"paths[{i}]: paths stay inside a quadrant; quadrants are joined by bridges")
        for i, br in enumerate(self.bridges):
            _check(len(set(br)) == 4, f"bridges[{i}]: the four spaces of a bridge must differ")
            _check(len({quad[x] for x in br}) == 2, f"bridges[{i}]: a bridge joins two quadrants")
        kinds = [s.kind for s in self.spaces]
        castle = [s.quadrant == "castle" for s in self.spaces]
        adj = self.adjacency()
        portals, treasures = [i for i, x in enumerate(kinds) if x == "portal"], [i for i, x in enumerate(kinds) if x == "treasure"]
        _check(len(portals) == 1 and not castle[portals[0]], "exactly one 'portal' space, outside the castle quadrant (minions never enter the Castle)")
        _check(len(treasures) == 1 and castle[treasures[0]], "exactly one 'treasure' space, in the castle quadrant")
        _check(kinds.count("inn") == 2, "exactly two inns")
        for i, x in enumerate(kinds):
            _check(x not in ("inn", "market", "forge", "power_centre") or not castle[i], f"{names[i]}: location spaces lie outside the castle")
        _check(not any(castle[x] for x in adj[portals[0]]), "the portal must not touch the castle (a sacrifice sends the minion back to it: the way back must cost moves)")
        _check(any(not castle[i] and any(castle[x] for x in adj[i]) for i in range(len(names))), "some space outside the castle must be adjacent to it (sacrifices)")
        seen, todo = {0}, [0]
        while todo:
            for x in adj[todo.pop()]:
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
        _check(len(seen) == len(names), "the map must be connected")
        for q in DECKS:
            _check(q in {s.quadrant for s in self.spaces}, f"the {q} quadrant has no space")
        return self

    def adjacency(self) -> list[list[int]]:
        """Per space, the sorted spaces one step away (a path, or a bridge's four spaces)."""
        index = {s.name: i for i, s in enumerate(self.spaces)}
        adj: list[set[int]] = [set() for _ in self.spaces]
        for a, b in self.paths:
            adj[index[a]].add(index[b])
            adj[index[b]].add(index[a])
        for br in self.bridges:
            ids = [index[x] for x in br]
            for a in ids:
                adj[a].update(b for b in ids if b != a)
        return [sorted(a) for a in adj]


# --------------------------------------------------------------------------- characters.json
Costs = dict[str, _int(1, 10)]  # material name -> tokens


class Material(_Closed):
    name: str
    basic: bool = False  # yellow border: found on location cards, traded at the market
    count: _int(1, 52)


class ArmourPiece(_Closed):
    piece: Literal[PIECES]
    improves: Literal[IMPROVES]
    amount: _int(1, 5)


class Hero(_Closed):
    name: str
    ability: Literal[HERO_ABILITIES]
    strength: _int(0, 10)
    power: _int(1, 6)
    boots: _int(1, 6)
    hand: _int(1, 12)
    armour: dict[Literal[PIECES], Costs]

    @model_validator(mode="after")
    def _pieces(self) -> Hero:
        _check(set(self.armour) == set(PIECES), f"'armour' must give the cost of each piece {list(PIECES)}")
        for p in PIECES:
            _check(sum(self.armour[p].values()) >= 1, f"armour piece {p} must cost something")
        return self


class HeroLives(_Closed):
    start: _int(1, 3)
    max: _int(1, 3)

    @model_validator(mode="after")
    def _order(self) -> HeroLives:
        _check(self.start <= self.max, "hero_lives.max must be at least hero_lives.start")
        return self


class YellowBook(_Closed):
    strength: _int(1, 5)


class RedBook(_Closed):
    power: _int(1, 3)


class GreenBook(_Closed):
    boots: _int(1, 3)


class Books(_Closed):
    yellow: YellowBook
    red: RedBook
    green: GreenBook


class Track(_Closed):
    name: Literal[TRACKS]
    length: _int(1, 10)
    bonus_at: list[int] = []

    @model_validator(mode="after")
    def _bonus(self) -> Track:
        _check(all(1 <= x <= self.length for x in self.bonus_at), f"tracks.{self.name}.bonus_at must list spaces 1-{self.length}")
        return self


class InvokerBoard(_Closed):
    starting_hand: _int(1, 8) = 4
    starting_minions: _int(1, 4) = 1  # the starting hand is redealt until it holds this many minions
    draw_per_turn: _int(0, 3) = 1
    ability_tokens: list[str]
    tracks: list[Track]

    @model_validator(mode="after")
    def _board(self) -> InvokerBoard:
        _check(self.ability_tokens == list(TOKENS), f"'invoker.ability_tokens' must be {list(TOKENS)}")
        _check([t.name for t in self.tracks] == list(TRACKS), f"'invoker.tracks' must be {list(TRACKS)}")
        return self


class CharactersFile(_Closed):
    """Materials, armour pieces, the five hero boards and the Great Invoker's board."""

    materials: Annotated[list[Material], Field(min_length=1, max_length=12)]
    armour_pieces: list[ArmourPiece]
    heroes: list[Hero]
    hero_lives: HeroLives = HeroLives(start=1, max=2)
    life_tokens: int = PRINTED["life_tokens"]
    boots_tokens: int = PRINTED["boots_tokens"]
    gems: int = PRINTED["gems"]
    books: Books
    invoker: InvokerBoard

    @model_validator(mode="after")
    def _rules(self) -> CharactersFile:
        names = [m.name for m in self.materials]
        for i, name in enumerate(names):
            _check(name not in names[:i], f"materials[{i}]: duplicate material {name!r}")
        total = sum(m.count for m in self.materials)
        _check(total == PRINTED["resources"], f"{total} resource tokens; the game has {PRINTED['resources']}")
        _check(any(m.basic for m in self.materials), "at least one material must be basic (yellow border)")
        _check([p.piece for p in self.armour_pieces] == list(PIECES), f"'armour_pieces' must list the pieces {list(PIECES)} in this order")
        for p, improves in zip(self.armour_pieces, IMPROVES):
            _check(p.improves == improves, f"armour piece {p.piece} improves {improves}")
        _check(len(self.heroes) == PRINTED["heroes"], f"'heroes' must list the {PRINTED['heroes']} heroes")
        for i, h in enumerate(self.heroes):
            _check(h.ability == HERO_ABILITIES[i], f"heroes[{i}]: 'ability' must be {HERO_ABILITIES[i]!r} (heroes in the order {list(HERO_ABILITIES)})")
            for p in PIECES:
                for mat in h.armour[p]:
                    _check(mat in names, f"heroes[{i}].armour.{p}: unknown material {mat!r}; known: {names}")
        _check(self.life_tokens == PRINTED["life_tokens"], "the game has 15 life tokens")
        _check(self.boots_tokens == PRINTED["boots_tokens"], "the game has 5 -1 Boots tokens")
        _check(self.gems == PRINTED["gems"], "the game has 10 Power gems")
        return self


# -------------------------------------------------------------------------------- cards.json
Rune = Literal[-1, 0, 3, 6]  # 0/3/6: set aside at setup (the Draw icon brings it); -1: in the deck


class PowerCard(_Closed):
    value: _int(0, 9)
    icon: Literal[ICONS] = "none"
    count: _int(1, 48)


class StartingCards(_Closed):
    value: int  # plain (no icon) Power cards of this value
    count: _int(1, 10)


class MinionCard(_Closed):
    type: Literal["minion"]
    name: str | None = None  # the ability's when absent
    strength: _int(0, 12)
    power: _int(0, 5)
    lives: _int(1, 3)
    loot: list[str] = []  # material names, one token each
    ability: Literal[MINION_ABILITIES]
    rune: Rune = -1


class AbilityCard(_Closed):
    type: Literal["ability"]
    name: str | None = None  # the effect's when absent
    effect: Literal[EFFECTS]
    rune: Rune = -1


class MaterialLocation(_Closed):
    type: Literal["material"]
    material: str  # a basic material


class BookLocation(_Closed):
    type: Literal["book"]
    color: Literal[BOOKS]


class EncounterLocation(_Closed):
    type: Literal["encounter"]
    name: str = "encounter"
    strength: _int(0, 12)
    power: _int(0, 5)
    loot: list[str] = []


InvokerCard = Annotated[MinionCard | AbilityCard, Field(discriminator="type")]
LocationCard = Annotated[MaterialLocation | BookLocation | EncounterLocation, Field(discriminator="type")]


class LocationDecks(_Closed):
    town: list[LocationCard]
    mine: list[LocationCard]
    forest: list[LocationCard]


class CardsFile(_Closed):
    """Power cards, the Great Invoker's cards and the three location decks. Validated with the
    context ``{"materials": names, "basic": names of the basic ones}`` from ``characters.json``."""

    power_cards: list[PowerCard]
    starting_power_cards: list[StartingCards]
    power_centre_draw: _int(1, 5) = 3
    invoker_cards: list[InvokerCard]
    location_decks: LocationDecks

    @model_validator(mode="after")
    def _rules(self, info: ValidationInfo) -> CardsFile:
        ctx = info.context or {}
        mats, basic = ctx.get("materials", []), ctx.get("basic", [])
        kinds = []
        for i, c in enumerate(self.power_cards):
            _check((c.value, c.icon) not in kinds, f"power_cards[{i}]: duplicate entry for value {c.value} icon {c.icon}")
            kinds.append((c.value, c.icon))
        total = sum(c.count for c in self.power_cards)
        _check(total == PRINTED["power_cards"], f"{total} Power cards; the game has {PRINTED['power_cards']}")
        for i, c in enumerate(self.starting_power_cards):
            _check((c.value, "none") in kinds, f"starting_power_cards[{i}]: each entry names the 'value' of plain (no icon) Power cards that exist")
        n = len(self.invoker_cards)
        _check(n == PRINTED["invoker_cards"], f"'invoker_cards' must list {PRINTED['invoker_cards']} cards, not {n}")
        minions = [c for c in self.invoker_cards if c.type == "minion"]
        _check(len(minions) == PRINTED["minions"], f"{len(minions)} minion cards; the game has {PRINTED['minions']} monster tokens, one per minion card")
        _check(sorted(c.rune for c in self.invoker_cards if c.rune >= 0) == [0, 3, 6], "exactly three cards carry the runes 0, 3 and 6")
        _check({c.ability for c in minions} == set(MINION_ABILITIES), f"every minion of the Annex must appear: {list(MINION_ABILITIES)}")
        _check({c.effect for c in self.invoker_cards if c.type == "ability"} == set(EFFECTS), f"every ability card must appear: {list(EFFECTS)}")
        _check(any(c.rune < 0 for c in minions), "the Invoker's deck must hold a minion")
        for i, c in enumerate(self.invoker_cards):
            for x in getattr(c, "loot", ()):
                _check(x in mats, f"invoker_cards[{i}]: unknown material {x!r}; known: {mats}")
        for d in DECKS:
            deck = getattr(self.location_decks, d)
            _check(len(deck) == PRINTED["location_cards"], f"location deck {d!r} must hold {PRINTED['location_cards']} cards, not {len(deck)}")
            for i, c in enumerate(deck):
                if c.type == "material":
                    _check(c.material in basic, f"location_decks.{d}[{i}]: a material card gives a basic material ({basic}), not {c.material!r}")
                for x in getattr(c, "loot", ()):
                    _check(x in mats, f"location_decks.{d}[{i}]: unknown material {x!r}; known: {mats}")
        return self


# ------------------------------------------------------------------------------- validation
def _where(loc: tuple) -> str:
    """``('heroes', 1, 'boots')`` -> ``heroes[1].boots``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def validate(model: type[M], raw: Any, where: str, error: type[Exception], context: dict | None = None) -> M:
    """``raw`` as ``model``; ``error`` with one line (the file, the field, what is wrong) if it is not one."""
    try:
        return model.model_validate(raw, context=context)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        msg = err["msg"]
        for prefix in ("Value error, ", "Assertion failed, "):
            msg = msg.removeprefix(prefix)
        if err["type"] == "model_type" and not err["loc"]:
            msg = "the top level must be a JSON object"
        value = err.get("input")
        if err["type"] not in ("value_error", "missing") and isinstance(value, (bool, int, float, str)) and len(repr(value)) < 60:
            msg += f", got {value!r}"
        field = _where(err["loc"])
        raise error(f"{where}: {field}: {msg}" if field else f"{where}: {msg}") from None
