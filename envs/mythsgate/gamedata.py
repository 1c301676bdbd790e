"""Mythsgate game data: the map, the character boards and the cards, loaded from replaceable JSON.

The rulebook names the components but prints neither the map nor the card contents. The files in
``data/`` are our design (``docs/rules/mythsgate.md`` explains every choice): ``map.json`` (spaces,
paths, bridges), ``characters.json`` (materials, armour, hero boards, the Invoker's board) and
``cards.json`` (Power cards, Great Invoker cards, the three location decks). A user passes
``data=<folder>`` holding files of the same shape; every file is validated when it is loaded, so a
broken file fails at construction with a message naming the file and the problem, never mid-game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mythzoo.envs.core.data import DataFile, canonical_digest
from mythzoo.envs.mythsgate import datafiles as df
from mythzoo.envs.mythsgate.datafiles import (  # noqa: F401 (the game's names, re-exported)
    BOOKS,
    DECKS,
    EFFECTS,
    HERO_ABILITIES,
    ICONS,
    IMPROVES,
    MINION_ABILITIES,
    PIECES,
    PRINTED,
    QUADRANTS,
    SPACE_KINDS,
    TOKENS,
    TRACKS,
)

DEFAULT_DATA = Path(__file__).parent / "data"
FILES = ("map.json", "characters.json", "cards.json")
LOC_MATERIAL, LOC_BOOK, LOC_ENCOUNTER = 0, 1, 2


class DataError(ValueError):
    """A data file is missing, malformed, or breaks a printed count or a rule."""


@dataclass(frozen=True)
class Hero:
    name: str
    ability: str
    strength: int
    power: int
    boots: int
    hand: int
    costs: tuple[tuple[int, ...], ...]  # piece -> material counts


@dataclass(frozen=True)
class InvokerCard:
    cid: int
    name: str
    minion: bool
    strength: int = 0
    power: int = 0
    lives: int = 0
    loot: tuple[int, ...] = ()  # material counts
    ability: str = ""
    rune: int = -1  # 0/3/6: set aside at setup (Draw icon); -1: in the deck
    effect: str = ""


@dataclass(frozen=True)
class LocationCard:
    gid: int  # global id: deck * 14 + index
    deck: int
    kind: int  # LOC_MATERIAL / LOC_BOOK / LOC_ENCOUNTER
    material: int = -1
    color: int = -1
    name: str = ""
    strength: int = 0
    power: int = 0
    loot: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameData:
    """Validated data plus the tables derived from it once."""

    # map
    space_names: tuple[str, ...]
    quadrant: tuple[int, ...]
    kind: tuple[str, ...]
    rowcol: tuple[tuple[int, int], ...]
    adj: tuple[tuple[int, ...], ...]
    castle: tuple[bool, ...]
    portal: int
    treasure: int
    inns: tuple[int, ...]
    castle_adjacent: tuple[bool, ...]  # outside the Castle, next to one of its spaces
    # materials, armour, boards
    materials: tuple[str, ...]
    basic: tuple[bool, ...]
    material_counts: tuple[int, ...]
    piece_amount: tuple[int, ...]  # per piece (weapon, amulet, boots, pack)
    heroes: tuple[Hero, ...]
    hero_lives_start: int
    hero_lives_max: int
    book_effect: tuple[int, int, int]  # yellow strength, red power, green boots
    inv_starting_hand: int
    inv_starting_minions: int
    inv_draw_per_turn: int
    track_length: tuple[int, int]
    track_bonus_at: tuple[tuple[int, ...], tuple[int, ...]]
    # cards
    power_kinds: tuple[tuple[int, int], ...]  # kind -> (value, icon index)
    power_counts: tuple[int, ...]
    starting_hand: tuple[int, ...]  # counts per kind
    power_centre_draw: int
    invoker_cards: tuple[InvokerCard, ...]
    minion_cards: tuple[int, ...]  # minion index -> invoker card id
    location_cards: tuple[LocationCard, ...]
    digest: str

    @property
    def num_spaces(self) -> int:
        return len(self.space_names)

    @property
    def num_materials(self) -> int:
        return len(self.materials)

    @property
    def num_kinds(self) -> int:
        return len(self.power_kinds)

    def kind_label(self, k: int) -> str:
        v, ic = self.power_kinds[k]
        return f"{v}" if ic == 0 else f"{v}{ICONS[ic]}"


def parse_data(m: Any, ch: Any, cards: Any, source: str = "<data>") -> GameData:
    """Validate the three data dicts (map, characters, cards) and build :class:`GameData`;
    :class:`DataError` naming the file and the field otherwise."""
    mp = df.validate(df.MapFile, m, f"{source}/map.json", DataError)
    chars = df.validate(df.CharactersFile, ch, f"{source}/characters.json", DataError)
    mnames = [x.name for x in chars.materials]
    ctx = {"materials": mnames, "basic": [x.name for x in chars.materials if x.basic]}
    cd = df.validate(df.CardsFile, cards, f"{source}/cards.json", DataError, context=ctx)
    # map
    names = [s.name for s in mp.spaces]
    quad = [QUADRANTS.index(s.quadrant) for s in mp.spaces]
    kind = [s.kind for s in mp.spaces]
    adj = mp.adjacency()
    castle = [q == 3 for q in quad]
    n = len(names)
    # characters
    def counts(costs: Any) -> tuple[int, ...]:  # {material: count} or [material, ...] -> counts per material
        out = [0] * len(mnames)
        for name, c in (costs.items() if isinstance(costs, dict) else ((x, 1) for x in costs)):
            out[mnames.index(name)] += c
        return tuple(out)

    heroes = tuple(Hero(h.name, h.ability, h.strength, h.power, h.boots, h.hand, tuple(counts(h.armour[p]) for p in PIECES)) for h in chars.heroes)
    # cards
    kinds = [(c.value, ICONS.index(c.icon)) for c in cd.power_cards]
    start = [0] * len(kinds)
    for c in cd.starting_power_cards:
        start[kinds.index((c.value, 0))] += c.count
    kcounts = [c.count for c in cd.power_cards]
    for k in range(len(kinds)):
        if start[k] * PRINTED["heroes"] > kcounts[k]:
            raise DataError(f"{source}/cards.json: not enough plain Power {kinds[k][0]} cards for 5 heroes' starting hands")
    inv_cards = []
    for i, c in enumerate(cd.invoker_cards):
        if c.type == "minion":
            inv_cards.append(InvokerCard(i, c.name if c.name is not None else c.ability, True, c.strength, c.power, c.lives, counts(c.loot), c.ability, c.rune))
        else:
            inv_cards.append(InvokerCard(i, c.name if c.name is not None else c.effect, False, rune=c.rune, effect=c.effect))
    loc = []
    for d, dname in enumerate(DECKS):
        for i, c in enumerate(getattr(cd.location_decks, dname)):
            gid = d * PRINTED["location_cards"] + i
            if c.type == "material":
                loc.append(LocationCard(gid, d, LOC_MATERIAL, material=mnames.index(c.material)))
            elif c.type == "book":
                loc.append(LocationCard(gid, d, LOC_BOOK, color=BOOKS.index(c.color)))
            else:
                loc.append(LocationCard(gid, d, LOC_ENCOUNTER, name=c.name, strength=c.strength, power=c.power, loot=counts(c.loot)))
    inv = chars.invoker
    return GameData(
        space_names=tuple(names), quadrant=tuple(quad), kind=tuple(kind), rowcol=tuple((s.row, s.col) for s in mp.spaces),
        adj=tuple(tuple(a) for a in adj), castle=tuple(castle), portal=kind.index("portal"), treasure=kind.index("treasure"),
        inns=tuple(i for i in range(n) if kind[i] == "inn"),
        castle_adjacent=tuple(not castle[i] and any(castle[x] for x in adj[i]) for i in range(n)),
        materials=tuple(mnames), basic=tuple(x.basic for x in chars.materials), material_counts=tuple(x.count for x in chars.materials),
        piece_amount=tuple(p.amount for p in chars.armour_pieces), heroes=heroes,
        hero_lives_start=chars.hero_lives.start, hero_lives_max=chars.hero_lives.max,
        book_effect=(chars.books.yellow.strength, chars.books.red.power, chars.books.green.boots),
        inv_starting_hand=inv.starting_hand, inv_starting_minions=min(inv.starting_minions, inv.starting_hand), inv_draw_per_turn=inv.draw_per_turn,
        track_length=(inv.tracks[0].length, inv.tracks[1].length),
        track_bonus_at=(tuple(sorted(inv.tracks[0].bonus_at)), tuple(sorted(inv.tracks[1].bonus_at))),
        power_kinds=tuple(kinds), power_counts=tuple(kcounts), starting_hand=tuple(start), power_centre_draw=cd.power_centre_draw,
        invoker_cards=tuple(inv_cards), minion_cards=tuple(c.cid for c in inv_cards if c.minion), location_cards=tuple(loc),
        digest=canonical_digest([m, ch, cards]),  # of the files as written: recorded in configs and states
    )


DATA = DataFile(DEFAULT_DATA, lambda raws, source: parse_data(*raws, source=source), DataError, files=FILES)


def load_data(path: str | Path | None = None) -> GameData:
    """The validated data of a folder holding map.json, characters.json and cards.json (ours when
    None); read once per version of the files."""
    return DATA.load(path)
