"""Mythwind: the Innkeeper components: loading and validating the Town Charter data file.

The Innkeeper journal refers to a Town Charter (weather deck, seasons, alignment, worker dice,
skills' costs) and to tokens whose faces it does not print (guests, accommodations, gossip
cards). ``data/town_charter.json`` is our designed stand-in (every choice is an ASSUMPTION in
``docs/rules/mythwind_innkeeper.md``); a user with other data writes a file of the same shape and
passes ``data=<path>``. Every file is validated when it is loaded, so a broken file fails at
construction with a message naming the problem, never mid-game.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).parent / "data" / "town_charter.json"

# Printed in the journal ("Innkeeper Journal: Components", "Basic Concepts", "Skill Index").
FURNITURE = ("window", "door", "table", "bar", "fireplace")
SERVICES = ("kitchen", "drink", "food", "stage", "music", "play")
ACC_TYPES = FURNITURE + SERVICES
STYLES = ("cultured", "imperial", "frontier")
WEATHER_TYPES = ("sunny", "cloudy", "rainy")
ALIGNMENTS = ("sprite", "villager")
DIE_TYPES = ("sprite", "villager")
SKILL_KEYS = (
    "musical_ear", "waxed_furniture", "rumormonger", "quartermaster",
    "waiting_list", "entertainer", "patron",
    "worker_encouragement", "favorite", "charming",
)
SKILL_LEVELS = (1, 1, 1, 1, 2, 2, 2, 3, 3, 3)
COMPLAINT_KINDS = ("coins", "renown", "lose", "draw")
EFFECT_KINDS = ("coins", "renown", "party")
PRINTED_COUNTS = {"guests": 30, "guests_by_level": (12, 9, 9), "accommodations": 29, "gossip_cards": 6, "skills": 10}

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
    sid: int
    key: str
    name: str
    level: int
    cost: int


@dataclass(frozen=True)
class WeatherCard:
    wid: int
    type: int
    event: bool
    alignment: int


@dataclass(frozen=True)
class Season:
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
    starting_accommodations: tuple[int, ...]
    skill_slots: int
    hire_cost: int
    encouragement_cost: int
    max_pips: int
    bag_by_level: tuple[tuple[int, int, int], ...]  # renown level 1..3 -> guests of each level
    skill_unlock_season: tuple[int, int, int]  # skill level -> first season (1-based) it can be gained
    digest: str
    path: str


def _req(cond: bool, msg: str) -> None:
    if not cond:
        raise InnDataError(msg)


def _int(v: Any, lo: int, hi: int, where: str) -> int:
    _req(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi, f"{where} must be an int in [{lo}, {hi}], got {v!r}")
    return v


def _name(v: Any, names: tuple[str, ...], where: str) -> int:
    _req(isinstance(v, str) and v in names, f"{where} must be one of {list(names)}, got {v!r}")
    return names.index(v)


def _list(v: Any, where: str) -> list:
    _req(isinstance(v, list), f"{where} must be a list, got {type(v).__name__}")
    return v


def _dict(v: Any, where: str, keys: tuple[str, ...]) -> dict:
    _req(isinstance(v, dict), f"{where} must be an object, got {type(v).__name__}")
    missing = [k for k in keys if k not in v]
    _req(not missing, f"{where} is missing {missing}")
    return v


def parse_data(raw: Any, path: str = "<data>") -> InnData:
    """Validate a decoded data file and build the engine's tables (``InnDataError`` naming the problem)."""
    top = _dict(raw, "data file", ("rules", "weather", "seasons", "renown_track", "worker_dice", "skills", "gossip_cards", "guests", "accommodations"))
    # ---- guests
    guests = []
    gl = _list(top["guests"], "guests")
    _req(len(gl) == PRINTED_COUNTS["guests"], f"guests: the journal prints 30 guest tokens, the file has {len(gl)}")
    for i, g in enumerate(gl):
        w = f"guests[{i}]"
        g = _dict(g, w, ("id", "name", "level", "requests", "complaints"))
        _req(g["id"] == i, f"{w}.id must be {i} (ids are list positions), got {g['id']!r}")
        _req(isinstance(g["name"], str) and g["name"], f"{w}.name must be a non-empty string")
        level = _int(g["level"], 1, 3, f"{w}.level")
        r = _dict(g["requests"], f"{w}.requests", ("furniture", "services", "style"))
        furn = _name(r["furniture"], FURNITURE, f"{w}.requests.furniture")
        serv = tuple(len(FURNITURE) + _name(x, SERVICES, f"{w}.requests.services") for x in _list(r["services"], f"{w}.requests.services"))
        _req(len(set(serv)) == len(serv), f"{w}.requests.services has a duplicate")
        style = -1 if r["style"] is None else _name(r["style"], STYLES, f"{w}.requests.style")
        comps = []
        for j, c in enumerate(_list(g["complaints"], f"{w}.complaints")):
            cw = f"{w}.complaints[{j}]"
            c = _dict(c, cw, ("kind",))
            kind = _name(c["kind"], COMPLAINT_KINDS, f"{cw}.kind")
            if kind == C_LOSE:
                comps.append((kind, _name(c.get("type"), ACC_TYPES, f"{cw}.type")))
            else:
                comps.append((kind, _int(c.get("amount"), 1, 10, f"{cw}.amount")))
        guests.append(Guest(i, g["name"], level, furn, serv, style, tuple(comps)))
    by_level = tuple(sum(1 for g in guests if g.level == lv) for lv in (1, 2, 3))
    _req(by_level == PRINTED_COUNTS["guests_by_level"], f"guests: the journal has 12 level I, 9 level II and 9 level III tokens, the file has {list(by_level)}")
    # ---- accommodations
    accs = []
    al = _list(top["accommodations"], "accommodations")
    _req(len(al) == PRINTED_COUNTS["accommodations"], f"accommodations: the journal prints 29 tokens, the file has {len(al)}")
    for i, a in enumerate(al):
        w = f"accommodations[{i}]"
        a = _dict(a, w, ("id", "type", "cost", "renown", "style"))
        _req(a["id"] == i, f"{w}.id must be {i} (ids are list positions), got {a['id']!r}")
        t = _name(a["type"], ACC_TYPES, f"{w}.type")
        cost = _int(a["cost"], 0, 99, f"{w}.cost")
        ren = _int(a["renown"], 1, 3, f"{w}.renown")
        style = -1 if a["style"] is None else _name(a["style"], STYLES, f"{w}.style")
        accs.append(Accommodation(i, t, cost, ren, style))
    # ---- gossip
    gossip = []
    gsl = _list(top["gossip_cards"], "gossip_cards")
    _req(len(gsl) == PRINTED_COUNTS["gossip_cards"], f"gossip_cards: the journal prints 6 cards, the file has {len(gsl)}")
    for i, c in enumerate(gsl):
        w = f"gossip_cards[{i}]"
        c = _dict(c, w, ("id", "name", "accommodations", "styles", "effect"))
        _req(c["id"] == i, f"{w}.id must be {i}, got {c['id']!r}")
        acc_t = tuple(len(FURNITURE) + _name(x, SERVICES, f"{w}.accommodations") for x in _list(c["accommodations"], f"{w}.accommodations"))
        sty = tuple(_name(x, STYLES, f"{w}.styles") for x in _list(c["styles"], f"{w}.styles"))
        e = _dict(c["effect"], f"{w}.effect", ("kind", "amount"))
        eff = (_name(e["kind"], EFFECT_KINDS, f"{w}.effect.kind"), _int(e["amount"], 1, 10, f"{w}.effect.amount"))
        gossip.append(Gossip(i, str(c["name"]), acc_t, sty, eff))
    # ---- skills
    skills = []
    sl = _list(top["skills"], "skills")
    _req(len(sl) == PRINTED_COUNTS["skills"], f"skills: the journal has 10 skills, the file has {len(sl)}")
    for i, k in enumerate(sl):
        w = f"skills[{i}]"
        k = _dict(k, w, ("key", "name", "level", "cost"))
        _req(k["key"] == SKILL_KEYS[i], f"{w}.key must be {SKILL_KEYS[i]!r} (the skill index order), got {k['key']!r}")
        _req(k["level"] == SKILL_LEVELS[i], f"{w}.level must be {SKILL_LEVELS[i]} as printed, got {k['level']!r}")
        skills.append(Skill(i, k["key"], str(k["name"]), k["level"], _int(k["cost"], 0, 999, f"{w}.cost")))
    # ---- weather
    wt = _dict(top["weather"], "weather", ("types", "guest_modifier", "deck"))
    _req(wt["types"] == list(WEATHER_TYPES), f"weather.types must be {list(WEATHER_TYPES)}")
    gm = _dict(wt["guest_modifier"], "weather.guest_modifier", WEATHER_TYPES)
    wmod = tuple(_int(gm[t], -10, 10, f"weather.guest_modifier.{t}") for t in WEATHER_TYPES)
    deck = []
    dl = _list(wt["deck"], "weather.deck")
    _req(1 <= len(dl) <= 60, f"weather.deck must hold 1..60 cards, has {len(dl)}")
    for i, c in enumerate(dl):
        w = f"weather.deck[{i}]"
        c = _dict(c, w, ("type", "event", "alignment"))
        _req(isinstance(c["event"], bool), f"{w}.event must be true or false")
        deck.append(WeatherCard(i, _name(c["type"], WEATHER_TYPES, f"{w}.type"), c["event"], _name(c["alignment"], ALIGNMENTS, f"{w}.alignment")))
    # ---- seasons
    seasons = []
    ssl = _list(top["seasons"], "seasons")
    _req(1 <= len(ssl) <= 12, f"seasons must list 1..12 seasons, has {len(ssl)}")
    for i, se in enumerate(ssl):
        w = f"seasons[{i}]"
        se = _dict(se, w, ("name", "guest_modifier", "event_weather"))
        ew = tuple(_name(x, WEATHER_TYPES, f"{w}.event_weather") for x in _list(se["event_weather"], f"{w}.event_weather"))
        seasons.append(Season(str(se["name"]), _int(se["guest_modifier"], -10, 10, f"{w}.guest_modifier"), ew, str(se.get("text", ""))))
    # ---- renown track
    rt = _dict(top["renown_track"], "renown_track", ("levels", "guests", "party_min_slot"))
    levels = tuple(_int(x, 1, 3, "renown_track.levels") for x in _list(rt["levels"], "renown_track.levels"))
    _req(2 <= len(levels) <= 30, "renown_track.levels must have 2..30 slots")
    _req(levels[0] == 1 and list(levels) == sorted(levels), "renown_track.levels must start at level 1 and never decrease")
    rg = tuple(_int(x, 0, 30, "renown_track.guests") for x in _list(rt["guests"], "renown_track.guests"))
    _req(len(rg) == len(levels), "renown_track.guests must have one entry per slot")
    pms = _int(rt["party_min_slot"], 0, len(levels) - 1, "renown_track.party_min_slot")
    # ---- dice
    wd = _dict(top["worker_dice"], "worker_dice", DIE_TYPES)
    faces, dice_types = [], []
    for ti, t in enumerate(DIE_TYPES):
        d = _dict(wd[t], f"worker_dice.{t}", ("count", "faces"))
        n = _int(d["count"], 0, 4, f"worker_dice.{t}.count")
        f = tuple(_int(x, 0, 6, f"worker_dice.{t}.faces") for x in _list(d["faces"], f"worker_dice.{t}.faces"))
        _req(len(f) >= 1 and any(x > 0 for x in f), f"worker_dice.{t}.faces must have a face with pips")
        faces.append(f)
        dice_types.extend([ti] * n)
    # ---- rules
    ru = _dict(top["rules"], "rules", ("starting_coins", "starting_gossip_cards", "starting_accommodations", "skill_slots", "hire_cost",
                                       "encouragement_cost", "max_pips", "bag_by_renown_level", "skill_level_in_play_from_season"))
    start = tuple(_int(x, 0, len(accs) - 1, "rules.starting_accommodations") for x in _list(ru["starting_accommodations"], "rules.starting_accommodations"))
    _req(sorted(accs[x].type for x in start) == sorted([TABLE, WINDOW, DOOR]) and len(set(start)) == 3,
         "rules.starting_accommodations must name one table, one window and one door token (Setup)")
    bag = []
    bbl = _dict(ru["bag_by_renown_level"], "rules.bag_by_renown_level", ("1", "2", "3"))
    for lv in ("1", "2", "3"):
        row = _list(bbl[lv], f"rules.bag_by_renown_level.{lv}")
        _req(len(row) == 3, f"rules.bag_by_renown_level.{lv} must give 3 counts (level I, II, III guests)")
        for j, x in enumerate(row):
            _int(x, 0, by_level[j], f"rules.bag_by_renown_level.{lv}[{j}]")
        _req(sum(row) > 0, f"rules.bag_by_renown_level.{lv} must put some guest in the bag")
        bag.append(tuple(row))
    su = _dict(ru["skill_level_in_play_from_season"], "rules.skill_level_in_play_from_season", ("1", "2", "3"))
    unlock = tuple(_int(su[k], 1, 1000, f"rules.skill_level_in_play_from_season.{k}") for k in ("1", "2", "3"))
    canon = json.dumps(raw, sort_keys=True, separators=(",", ":"))
    return InnData(
        guests=tuple(guests), accommodations=tuple(accs), gossip=tuple(gossip), skills=tuple(skills), weather=tuple(deck),
        weather_modifier=wmod, seasons=tuple(seasons), renown_levels=levels, renown_guests=rg, party_min_slot=pms,
        dice_types=tuple(dice_types), die_faces=(faces[0], faces[1]),
        starting_coins=_int(ru["starting_coins"], 0, 1000, "rules.starting_coins"),
        starting_gossip=_int(ru["starting_gossip_cards"], 0, len(gossip), "rules.starting_gossip_cards"),
        starting_accommodations=start,
        skill_slots=_int(ru["skill_slots"], 1, 10, "rules.skill_slots"),
        hire_cost=_int(ru["hire_cost"], 0, 100, "rules.hire_cost"),
        encouragement_cost=_int(ru["encouragement_cost"], 0, 100, "rules.encouragement_cost"),
        max_pips=_int(ru["max_pips"], 1, 6, "rules.max_pips"),
        bag_by_level=tuple(bag), skill_unlock_season=unlock,  # type: ignore[arg-type]
        digest=hashlib.sha256(canon.encode()).hexdigest()[:16], path=path,
    )


def load_data(path: str | Path | None = None) -> InnData:
    """Load and validate a data file (the designed default when ``path`` is None)."""
    p = Path(DEFAULT_DATA if path is None else path)
    try:
        text = p.read_text()
    except OSError as e:
        raise InnDataError(f"cannot read data file {str(p)!r}: {e}") from e
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise InnDataError(f"data file {str(p)!r} is not valid JSON: {e}") from e
    return parse_data(raw, str(p))
