"""The Town Charter file format as pydantic models: what a data file may say, declared once.

Strict throughout (``true`` is not a number, ``1`` is not ``true``, a number is not a name), every
object is closed (a misspelt key is an error, not silently ignored), every range is declared on
its field. Checks that need several fields (one entry per renown slot, the Setup tokens, the
bag counts against the guests of each level) sit on the model that holds them, so an error
names the innermost field it concerns. :func:`first_error` turns pydantic's report into the one
line ``InnDataError`` carries.

The models only check; ``components.parse_data`` builds the engine's tables from a valid file.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from mythzoo.envs.mythwind_innkeeper.names import (
    ACC_TYPES, ALIGNMENTS, COMPLAINT_KINDS, EFFECT_KINDS, FURNITURE, NUM_ROWS, PRINTED_COUNTS, SERVICES, SKILL_KEYS,
    SKILL_LEVELS, STYLES, WEATHER_TYPES,
)

Furniture = Literal[FURNITURE]  # type: ignore[valid-type]  (a tuple of names: Literal of each)
Service = Literal[SERVICES]  # type: ignore[valid-type]
AccType = Literal[ACC_TYPES]  # type: ignore[valid-type]
Style = Literal[STYLES]  # type: ignore[valid-type]
WeatherType = Literal[WEATHER_TYPES]  # type: ignore[valid-type]
Alignment = Literal[ALIGNMENTS]  # type: ignore[valid-type]
ComplaintKind = Literal[COMPLAINT_KINDS]  # type: ignore[valid-type]
EffectKind = Literal[EFFECT_KINDS]  # type: ignore[valid-type]


def span(lo: int, hi: int) -> Any:
    """An int in ``[lo, hi]``."""
    return Annotated[int, Field(ge=lo, le=hi)]


class Closed(BaseModel):
    """Strict, closed and immutable: the base of every object in the file."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ----------------------------------------------------------------------------- guests
class Requests(Closed):
    """A guest's front: one furniture, any services, at most one style."""

    furniture: Furniture
    services: list[Service]
    style: Style | None

    @field_validator("services")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"lists a service twice: {v}")
        return v


class Complaint(Closed):
    """One complaint on a guest's back: ``lose`` names an accommodation type, the others an amount."""

    kind: ComplaintKind
    amount: span(1, 10) | None = None
    type: AccType | None = None

    @model_validator(mode="after")
    def _argument(self) -> Complaint:
        if self.kind == "lose":
            if self.type is None or self.amount is not None:
                raise ValueError("a 'lose' complaint names the accommodation type it takes (type), and no amount")
        elif self.amount is None or self.type is not None:
            raise ValueError(f"a {self.kind!r} complaint gives an amount (1..10), and no type")
        return self


class Guest(Closed):
    """One guest token."""

    id: int
    name: Annotated[str, Field(min_length=1)]
    level: span(1, 3)
    requests: Requests
    # At most 10: a state records the next complaint to resolve as 0..10.
    complaints: Annotated[list[Complaint], Field(max_length=10)]


# ------------------------------------------------------------------ accommodations, gossip
class Accommodation(Closed):
    """One accommodation token: type, cost on its back, renown level required, style."""

    id: int
    type: AccType
    cost: span(0, 99)
    renown: span(1, 3)
    style: Style | None


class Effect(Closed):
    """What a mingled gossip card does at the next dawn."""

    kind: EffectKind
    amount: span(1, 10)


class GossipCard(Closed):
    """A gossip card: the services printed at its bottom, its style icons and adventure effect."""

    id: int
    name: str
    accommodations: list[Service]
    styles: list[Style]
    effect: Effect


class Skill(Closed):
    """A skill of the Skill Index (its key, level and place in the list are printed)."""

    key: str
    name: str
    level: int
    cost: span(0, 999)


# ------------------------------------------------------------------- weather and seasons
class WeatherModifier(Closed):
    """Guests welcomed per day of streak, by weather type."""

    sunny: span(-10, 10)
    cloudy: span(-10, 10)
    rainy: span(-10, 10)


class WeatherCard(Closed):
    """A weather card: its type, event icon and the workers it aligns with."""

    type: WeatherType
    event: bool
    alignment: Alignment


class Weather(Closed):
    """The weather deck and what each type does to the guests welcomed."""

    types: list[str]
    guest_modifier: WeatherModifier
    deck: Annotated[list[WeatherCard], Field(min_length=1, max_length=60)]

    @field_validator("types")
    @classmethod
    def _printed(cls, v: list[str]) -> list[str]:
        if v != list(WEATHER_TYPES):
            raise ValueError(f"must be {list(WEATHER_TYPES)}, got {v}")
        return v


class Season(Closed):
    """A season: guests welcomed more or fewer each day, weather counted as an event, its text."""

    name: str
    guest_modifier: span(-10, 10)
    event_weather: list[WeatherType]
    text: str = ""


class RenownTrack(Closed):
    """Per slot of the track: its renown level and the guests welcomed each day."""

    levels: Annotated[list[span(1, 3)], Field(min_length=2, max_length=30)]
    guests: list[span(0, 30)]
    party_min_slot: Annotated[int, Field(ge=0)]

    @field_validator("levels")
    @classmethod
    def _rising(cls, v: list[int]) -> list[int]:
        if v[0] != 1 or v != sorted(v):
            raise ValueError("must start at level 1 and never decrease")
        return v

    @field_validator("guests")
    @classmethod
    def _per_slot(cls, v: list[int], info: ValidationInfo) -> list[int]:
        levels = info.data.get("levels")
        if levels is not None and len(v) != len(levels):
            raise ValueError(f"must have one entry per slot ({len(levels)}), has {len(v)}")
        return v

    @field_validator("party_min_slot")
    @classmethod
    def _on_track(cls, v: int, info: ValidationInfo) -> int:
        levels = info.data.get("levels")
        if levels is not None and v >= len(levels):
            raise ValueError(f"must be a slot of the track (0..{len(levels) - 1}), got {v}")
        return v


# ------------------------------------------------------------------------ dice and rules
class DieType(Closed):
    """One type of worker die: how many there are and their faces (pips; 0 is a blank)."""

    count: span(0, 4)
    faces: Annotated[list[span(0, 6)], Field(min_length=1)]

    @field_validator("faces")
    @classmethod
    def _pips(cls, v: list[int]) -> list[int]:
        if not any(x > 0 for x in v):
            raise ValueError("must have a face with pips")
        return v


class WorkerDice(Closed):
    """The worker dice by type."""

    sprite: DieType
    villager: DieType


class BagCounts(Closed):
    """Per renown level: how many guests of level I, II and III the bag holds."""

    level_1: Annotated[list[Annotated[int, Field(ge=0)]], Field(alias="1", min_length=3, max_length=3)]
    level_2: Annotated[list[Annotated[int, Field(ge=0)]], Field(alias="2", min_length=3, max_length=3)]
    level_3: Annotated[list[Annotated[int, Field(ge=0)]], Field(alias="3", min_length=3, max_length=3)]

    @field_validator("level_1", "level_2", "level_3")
    @classmethod
    def _someone(cls, v: list[int]) -> list[int]:
        if not sum(v):
            raise ValueError("must put some guest in the bag")
        return v


class SkillSeasons(Closed):
    """Per skill level: the first season (1-based) its skills can be gained."""

    level_1: Annotated[span(1, 1000), Field(alias="1")]
    level_2: Annotated[span(1, 1000), Field(alias="2")]
    level_3: Annotated[span(1, 1000), Field(alias="3")]


class Rules(Closed):
    """The Town Charter's numbers: Setup, costs, skill slots, the bag and when skills come into play."""

    starting_coins: span(0, 1000)
    starting_gossip_cards: Annotated[int, Field(ge=0)]
    # One entry per starting token (table, window, door): a token id, or a list of ids of one type
    # from which the campaign's seed deals one (Setup "a table": which one is the Town Charter's, A2).
    starting_accommodations: list[Annotated[int, Field(ge=0)] | Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)]]
    skill_slots: span(1, NUM_ROWS)  # one slot per Operate row at most (the action labels name the row)
    hire_cost: span(0, 100)
    encouragement_cost: span(0, 100)
    max_pips: span(1, 6)
    adventure_draws_per_dawn: span(0, 100) = 1  # mingled cards the town draws from the adventure deck each dawn (solo Mingle)
    bag_by_renown_level: BagCounts
    skill_level_in_play_from_season: SkillSeasons


# ------------------------------------------------------------------------------ the file
class Charter(Closed):
    """A whole Town Charter file."""

    name: str | None = None
    version: int | None = None
    notes: str | None = None
    rules: Rules
    weather: Weather
    seasons: Annotated[list[Season], Field(min_length=1, max_length=12)]
    renown_track: RenownTrack
    worker_dice: WorkerDice
    skills: list[Skill]
    gossip_cards: list[GossipCard]
    guests: list[Guest]
    accommodations: list[Accommodation]

    @field_validator("guests")
    @classmethod
    def _guests(cls, v: list[Guest]) -> list[Guest]:
        n = PRINTED_COUNTS["guests"]
        if len(v) != n:
            raise ValueError(f"the journal prints {n} guest tokens, the file has {len(v)}")
        _ids_are_positions(v)
        by_level = [sum(1 for g in v if g.level == lv) for lv in (1, 2, 3)]
        if tuple(by_level) != PRINTED_COUNTS["guests_by_level"]:
            raise ValueError(f"the journal has 12 level I, 9 level II and 9 level III tokens, the file has {by_level}")
        return v

    @field_validator("accommodations")
    @classmethod
    def _accommodations(cls, v: list[Accommodation]) -> list[Accommodation]:
        n = PRINTED_COUNTS["accommodations"]
        if len(v) != n:
            raise ValueError(f"the journal prints {n} tokens, the file has {len(v)}")
        _ids_are_positions(v)
        return v

    @field_validator("gossip_cards")
    @classmethod
    def _gossip(cls, v: list[GossipCard]) -> list[GossipCard]:
        n = PRINTED_COUNTS["gossip_cards"]
        if len(v) != n:
            raise ValueError(f"the journal prints {n} cards, the file has {len(v)}")
        _ids_are_positions(v)
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: list[Skill]) -> list[Skill]:
        n = PRINTED_COUNTS["skills"]
        if len(v) != n:
            raise ValueError(f"the journal has {n} skills, the file has {len(v)}")
        for i, k in enumerate(v):
            if k.key != SKILL_KEYS[i]:
                raise ValueError(f"entry {i} must be {SKILL_KEYS[i]!r} (the skill index order), got {k.key!r}")
            if k.level != SKILL_LEVELS[i]:
                raise ValueError(f"entry {i} ({k.key}) must have level {SKILL_LEVELS[i]} as printed, got {k.level!r}")
        return v

    @model_validator(mode="after")
    def _across_sections(self) -> Charter:
        ru = self.rules
        start = [x if isinstance(x, list) else [x] for x in ru.starting_accommodations]
        if any(a >= len(self.accommodations) for x in start for a in x):
            raise ValueError(f"rules.starting_accommodations must be token ids 0..{len(self.accommodations) - 1}, got {ru.starting_accommodations}")
        if any(len(set(x)) != len(x) or len({self.accommodations[a].type for a in x}) != 1 for x in start):
            raise ValueError(f"rules.starting_accommodations: a list to deal from must name distinct tokens of one type, got {ru.starting_accommodations}")
        if len(start) != 3 or sorted(self.accommodations[x[0]].type for x in start) != sorted(["table", "window", "door"]):
            raise ValueError("rules.starting_accommodations must name one table, one window and one door token (Setup)")
        if ru.starting_gossip_cards > len(self.gossip_cards):
            raise ValueError(f"rules.starting_gossip_cards must be at most the {len(self.gossip_cards)} gossip cards, got {ru.starting_gossip_cards}")
        have = [sum(1 for g in self.guests if g.level == lv) for lv in (1, 2, 3)]
        for lv, row in (("1", ru.bag_by_renown_level.level_1), ("2", ru.bag_by_renown_level.level_2), ("3", ru.bag_by_renown_level.level_3)):
            for j, x in enumerate(row):
                if x > have[j]:
                    raise ValueError(f"rules.bag_by_renown_level.{lv}[{j}] asks for {x} level {'I' * (j + 1)} guests; the file has {have[j]}")
        return self


def _ids_are_positions(items: list[Any]) -> None:
    for i, x in enumerate(items):
        if x.id != i:
            raise ValueError(f"entry {i} has id {x.id}; ids are the list positions")


# ------------------------------------------------------------------------------ messages
def _where(loc: tuple[Any, ...]) -> str:
    """``("guests", 3, "requests", "furniture")`` -> ``guests[3].requests.furniture``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def first_error(err: ValidationError) -> str:
    """The first problem pydantic found, as one line naming the field (and how many more there are)."""
    problems = err.errors(include_url=False)
    e = problems[0]
    loc, kind = tuple(e["loc"]), e["type"]
    where = _where(loc)
    if kind == "missing":
        text = f"{_where(loc[:-1]) or 'the file'} is missing {loc[-1]!r}"
    elif kind == "extra_forbidden":
        text = f"{where}: unknown key (misspelt? this object's keys are fixed)"
    else:
        msg = e["msg"].removeprefix("Value error, ")
        if kind != "value_error":  # a type or range error: show what was there
            shown = repr(e.get("input"))
            msg += f", got {shown if len(shown) <= 60 else shown[:57] + '...'}"
        text = f"{where}: {msg}" if where else msg
    more = len(problems) - 1
    return text + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
