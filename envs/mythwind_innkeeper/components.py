"""Mythwind: the Innkeeper components: loading and validating the Town Charter data file.

The Innkeeper journal refers to a Town Charter (weather deck, seasons, alignment, worker dice,
skills' costs) and to tokens whose faces it does not print (guests, accommodations, gossip
cards). ``data/town_charter.json`` is our designed stand-in (every choice is an ASSUMPTION in
``docs/rules/mythwind_innkeeper.md``); a user with other data writes a file of the same shape and
passes ``data=<path>``. Every file is validated when it is loaded, so a broken file fails at
construction with a message naming the problem, never mid-game. The format is declared as
pydantic models in ``schema.py``; this module turns a valid file into the engine's immutable
tables (names become indices) and caches them per file (``DATA_FILE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mythzoo.envs.core.data import DataFile, canonical_digest
from mythzoo.envs.mythwind_innkeeper.names import (  # re-exported: the engine, tests and tools import them from here  # noqa: F401
    ACC_TYPES, ALIGNMENTS, COMPLAINT_KINDS, DIE_TYPES, EFFECT_KINDS, FURNITURE, PRINTED_COUNTS, SERVICES, SKILL_KEYS,
    SKILL_LEVELS, STYLES, WEATHER_TYPES,
)
from mythzoo.envs.mythwind_innkeeper.schema import Charter, first_error

DEFAULT_DATA = Path(__file__).parent / "data" / "town_charter.json"

WINDOW, DOOR, TABLE, BAR, FIREPLACE, KITCHEN, DRINK, FOOD, STAGE, MUSIC, PLAY = range(11)
CULTURED, IMPERIAL, FRONTIER = range(3)
SUNNY, CLOUDY, RAINY = range(3)
SPRITE, VILLAGER = range(2)
C_COINS, C_RENOWN, C_LOSE, C_DRAW = range(4)
E_COINS, E_RENOWN, E_PARTY = range(3)


class InnDataError(ValueError):
    """A Town Charter data file is missing, malformed, or breaks a printed count or rule."""


@dataclass(frozen=True)
class Guest:
    """One guest token: its level, requests (front) and complaints (back)."""

    gid: int
    name: str
    level: int  # 1..3
    furniture: int  # furniture type index (every guest requests exactly one furniture)
    services: tuple[int, ...]  # service type indices (ACC_TYPES indices)
    style: int  # style index or -1
    complaints: tuple[tuple[int, int], ...]  # (kind, amount or accommodation type)


@dataclass(frozen=True)
class Accommodation:
    """One accommodation token: type, cost (on its back), renown level required, style (-1 none)."""

    aid: int
    type: int
    cost: int
    renown: int
    style: int

    @property
    def furniture(self) -> bool:
        """Whether a guest can sit on it (every type before the services)."""
        return self.type < len(FURNITURE)


@dataclass(frozen=True)
class Gossip:
    """A gossip card: the accommodations printed at its bottom, style icons, adventure effect."""

    cid: int
    name: str
    accommodations: tuple[int, ...]  # service type indices
    styles: tuple[int, ...]
    effect: tuple[int, int]  # (kind, amount)


@dataclass(frozen=True)
class Skill:
    """A skill of the Skill Index: its key, printed name and level, and the cost to learn it."""

    sid: int
    key: str
    name: str
    level: int
    cost: int


@dataclass(frozen=True)
class WeatherCard:
    """A weather card: its type, event icon and the workers it aligns with."""

    wid: int
    type: int
    event: bool
    alignment: int


@dataclass(frozen=True)
class Season:
    """A season's effect: guests welcomed more or fewer each day, weather counted as an event."""

    name: str
    guest_modifier: int
    event_weather: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class InnData:
    """Everything the engine reads from the data file, validated."""

    guests: tuple[Guest, ...]
    accommodations: tuple[Accommodation, ...]
    gossip: tuple[Gossip, ...]
    skills: tuple[Skill, ...]
    weather: tuple[WeatherCard, ...]
    weather_modifier: tuple[int, int, int]
    seasons: tuple[Season, ...]
    renown_levels: tuple[int, ...]
    renown_guests: tuple[int, ...]
    party_min_slot: int
    dice_types: tuple[int, ...]  # die index -> SPRITE/VILLAGER
    die_faces: tuple[tuple[int, ...], tuple[int, ...]]  # per die type
    starting_coins: int
    starting_gossip: int
    starting_accommodations: tuple[tuple[int, ...], ...]  # per starting token: the ids one is dealt from (one id: fixed)
    skill_slots: int
    hire_cost: int
    encouragement_cost: int
    max_pips: int
    adventure_draws_per_dawn: int  # solo Mingle: adventure cards the town draws (and resolves for the inn) each dawn
    bag_by_level: tuple[tuple[int, int, int], ...]  # renown level 1..3 -> guests of each level
    skill_unlock_season: tuple[int, int, int]  # skill level -> first season (1-based) it can be gained
    digest: str
    path: str


def parse_data(raw: Any, path: str = "<data>") -> InnData:
    """Validate a decoded data file (:class:`~mythzoo.envs.mythwind_innkeeper.schema.Charter`) and
    build the engine's tables; ``InnDataError`` naming the first problem."""
    try:
        f = Charter.model_validate(raw)
    except ValidationError as e:
        raise InnDataError(f"{path}: {first_error(e)}") from None
    ru, wt = f.rules, f.weather
    guests = tuple(
        Guest(
            i, g.name, g.level, FURNITURE.index(g.requests.furniture),
            tuple(ACC_TYPES.index(x) for x in g.requests.services),
            _style(g.requests.style),
            tuple((COMPLAINT_KINDS.index(c.kind), ACC_TYPES.index(c.type) if c.kind == "lose" else c.amount) for c in g.complaints),  # type: ignore[misc]
        )
        for i, g in enumerate(f.guests)
    )
    accs = tuple(Accommodation(i, ACC_TYPES.index(a.type), a.cost, a.renown, _style(a.style)) for i, a in enumerate(f.accommodations))
    gossip = tuple(
        Gossip(i, c.name, tuple(ACC_TYPES.index(x) for x in c.accommodations), tuple(STYLES.index(x) for x in c.styles),
               (EFFECT_KINDS.index(c.effect.kind), c.effect.amount))
        for i, c in enumerate(f.gossip_cards)
    )
    skills = tuple(Skill(i, k.key, k.name, k.level, k.cost) for i, k in enumerate(f.skills))
    deck = tuple(WeatherCard(i, WEATHER_TYPES.index(c.type), c.event, ALIGNMENTS.index(c.alignment)) for i, c in enumerate(wt.deck))
    seasons = tuple(Season(se.name, se.guest_modifier, tuple(WEATHER_TYPES.index(x) for x in se.event_weather), se.text) for se in f.seasons)
    dice = (f.worker_dice.sprite, f.worker_dice.villager)  # DIE_TYPES order
    bag, unlock = ru.bag_by_renown_level, ru.skill_level_in_play_from_season
    return InnData(
        guests=guests, accommodations=accs, gossip=gossip, skills=skills, weather=deck,
        weather_modifier=(wt.guest_modifier.sunny, wt.guest_modifier.cloudy, wt.guest_modifier.rainy),
        seasons=seasons, renown_levels=tuple(f.renown_track.levels), renown_guests=tuple(f.renown_track.guests),
        party_min_slot=f.renown_track.party_min_slot,
        dice_types=tuple(t for t, d in enumerate(dice) for _ in range(d.count)),
        die_faces=(tuple(dice[0].faces), tuple(dice[1].faces)),
        starting_coins=ru.starting_coins, starting_gossip=ru.starting_gossip_cards,
        starting_accommodations=tuple(tuple(x) if isinstance(x, list) else (x,) for x in ru.starting_accommodations), skill_slots=ru.skill_slots, hire_cost=ru.hire_cost,
        encouragement_cost=ru.encouragement_cost, max_pips=ru.max_pips, adventure_draws_per_dawn=ru.adventure_draws_per_dawn,
        bag_by_level=(tuple(bag.level_1), tuple(bag.level_2), tuple(bag.level_3)),  # type: ignore[arg-type]
        skill_unlock_season=(unlock.level_1, unlock.level_2, unlock.level_3),
        # The record states and checkpoints keep of the data (``config["data"]``): never change how it is made.
        digest=canonical_digest(raw)[:16], path=path,
    )


def _style(name: str | None) -> int:
    return -1 if name is None else STYLES.index(name)


# Parsed once per file version (path, size, modification time): every env built with the same
# file shares one immutable InnData.
DATA_FILE: DataFile[InnData] = DataFile(DEFAULT_DATA, parse_data, InnDataError)


def load_data(path: str | Path | None = None) -> InnData:
    """Load and validate a data file (the designed default when ``path`` is None); cached."""
    return DATA_FILE.load(path)
