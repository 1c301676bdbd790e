"""Mythsgate game data: the map, the character boards and the cards, loaded from replaceable JSON.

The rulebook names the components but prints neither the map nor the card contents. The files in
``data/`` are our design (``docs/rules/mythsgate.md`` explains every choice): ``map.json`` (spaces,
paths, bridges), ``characters.json`` (materials, armour, hero boards, the Invoker's board) and
``cards.json`` (Power cards, Great Invoker cards, the three location decks). A user passes
``data=<folder>`` holding files of the same shape; every file is validated when it is loaded, so a
broken file fails at construction with a message naming the file and the problem, never mid-game.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).parent / "data"
FILES = ("map.json", "characters.json", "cards.json")

# Printed component counts (rulebook, "Components").
PRINTED = {
    "heroes": 5, "minions": 12, "ability_tokens": 4, "resources": 52, "boots_tokens": 5, "gems": 10,
    "life_tokens": 15, "power_cards": 48, "invoker_cards": 20, "location_cards": 14,
}
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
LOC_MATERIAL, LOC_BOOK, LOC_ENCOUNTER = 0, 1, 2


class DataError(ValueError):
    """A data file is missing, malformed, or breaks a printed count or a rule."""


def _req(cond: Any, where: str, msg: str) -> None:
    if not cond:
        raise DataError(f"{where}: {msg}")


def _int(v: Any, where: str, name: str, lo: int, hi: int) -> int:
    _req(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi, where, f"{name!r} must be an integer {lo}-{hi}, got {v!r}")
    return v


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


def _materials(ch: dict, where: str) -> tuple[list[str], list[bool], list[int]]:
    mats = ch.get("materials")
    _req(isinstance(mats, list) and 1 <= len(mats) <= 12, where, "'materials' must list 1-12 materials")
    names, basic, counts = [], [], []
    for i, m in enumerate(mats):
        w = f"{where}: materials[{i}]"
        _req(isinstance(m, dict) and isinstance(m.get("name"), str), w, "needs a 'name'")
        _req(m["name"] not in names, w, f"duplicate material {m['name']!r}")
        names.append(m["name"])
        basic.append(bool(m.get("basic", False)))
        counts.append(_int(m.get("count"), w, "count", 1, 52))
    _req(sum(counts) == PRINTED["resources"], where, f"{sum(counts)} resource tokens; the game has {PRINTED['resources']}")
    _req(any(basic), where, "at least one material must be basic (yellow border)")
    return names, basic, counts


def _mat_counts(v: Any, names: list[str], where: str, as_dict: bool) -> tuple[int, ...]:
    out = [0] * len(names)
    items = v.items() if as_dict else ((x, 1) for x in v)
    _req(isinstance(v, dict) if as_dict else isinstance(v, list), where, "materials must be " + ("an object {material: count}" if as_dict else "a list of material names"))
    for name, c in items:
        _req(name in names, where, f"unknown material {name!r}; known: {names}")
        out[names.index(name)] += _int(c, where, name, 1, 10)
    return tuple(out)


def parse_data(m: Any, ch: Any, cards: Any, source: str = "<data>") -> GameData:
    """Validate the three data dicts (map, characters, cards) and build :class:`GameData`."""
    # ------------------------------------------------------------------ map
    w = f"{source}/map.json"
    _req(isinstance(m, dict), w, "the top level must be a JSON object")
    for key in ("spaces", "paths", "bridges"):
        _req(key in m, w, f"missing key {key!r}")
    sp = m["spaces"]
    _req(isinstance(sp, list) and 4 <= len(sp) <= 64, w, "'spaces' must list 4-64 spaces")
    names, quad, kind, rc = [], [], [], []
    for i, s in enumerate(sp):
        ws = f"{w}: spaces[{i}]"
        _req(isinstance(s, dict) and isinstance(s.get("name"), str), ws, "needs a 'name'")
        _req(s["name"] not in names, ws, f"duplicate space name {s['name']!r}")
        _req(s.get("quadrant") in QUADRANTS, ws, f"'quadrant' must be one of {list(QUADRANTS)}")
        _req(s.get("kind", "plain") in SPACE_KINDS, ws, f"'kind' must be one of {list(SPACE_KINDS)}")
        names.append(s["name"])
        quad.append(QUADRANTS.index(s["quadrant"]))
        kind.append(s.get("kind", "plain"))
        rc.append((_int(s.get("row", 0), ws, "row", 0, 63), _int(s.get("col", 0), ws, "col", 0, 63)))
    n = len(names)
    adj = [set() for _ in range(n)]

    def idx(name: Any, where: str) -> int:
        _req(name in names, where, f"unknown space {name!r}")
        return names.index(name)

    for i, p in enumerate(m["paths"]):
        wp = f"{w}: paths[{i}]"
        _req(isinstance(p, list) and len(p) == 2, wp, "a path joins two spaces")
        a, b = idx(p[0], wp), idx(p[1], wp)
        _req(a != b, wp, "a path joins two different spaces")
        _req(quad[a] == quad[b], wp, "paths stay inside a quadrant; quadrants are joined by bridges")
        adj[a].add(b)
        adj[b].add(a)
    for i, br in enumerate(m["bridges"]):
        wb = f"{w}: bridges[{i}]"
        _req(isinstance(br, list) and len(br) == 4, wb, "a bridge touches exactly four spaces")
        ids = [idx(x, wb) for x in br]
        _req(len(set(ids)) == 4, wb, "the four spaces of a bridge must differ")
        _req(len({quad[x] for x in ids}) == 2, wb, "a bridge joins two quadrants")
        for a in ids:
            for b in ids:
                if a != b:
                    adj[a].add(b)
    castle = [q == 3 for q in quad]
    portals = [i for i in range(n) if kind[i] == "portal"]
    treas = [i for i in range(n) if kind[i] == "treasure"]
    inns = [i for i in range(n) if kind[i] == "inn"]
    _req(len(portals) == 1 and castle[portals[0]], w, "exactly one 'portal' space, in the castle quadrant")
    _req(len(treas) == 1 and castle[treas[0]], w, "exactly one 'treasure' space, in the castle quadrant")
    _req(len(inns) == 2, w, "exactly two inns")
    for i in range(n):
        if kind[i] in ("inn", "market", "forge", "power_centre"):
            _req(not castle[i], w, f"{names[i]}: location spaces lie outside the castle")
    _req(any(not castle[x] for x in adj[portals[0]]), w, "the portal must touch a space outside the castle (minions leave through it)")
    cadj = [not castle[i] and any(castle[x] for x in adj[i]) for i in range(n)]
    _req(any(cadj), w, "some space outside the castle must be adjacent to it (sacrifices)")
    seen, todo = {0}, [0]
    while todo:
        for x in adj[todo.pop()]:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    _req(len(seen) == n, w, "the map must be connected")
    for q in range(3):
        _req(q in quad, w, f"the {QUADRANTS[q]} quadrant has no space")
    # -------------------------------------------------------- characters
    w = f"{source}/characters.json"
    _req(isinstance(ch, dict), w, "the top level must be a JSON object")
    for key in ("materials", "armour_pieces", "heroes", "invoker"):
        _req(key in ch, w, f"missing key {key!r}")
    mnames, basic, mcounts = _materials(ch, w)
    pieces = ch["armour_pieces"]
    _req(isinstance(pieces, list) and [p.get("piece") for p in pieces if isinstance(p, dict)] == list(PIECES), w, f"'armour_pieces' must list the pieces {list(PIECES)} in this order")
    amounts = []
    for i, p in enumerate(pieces):
        _req(p.get("improves") == IMPROVES[i], w, f"armour piece {PIECES[i]} improves {IMPROVES[i]}")
        amounts.append(_int(p.get("amount"), f"{w}: armour_pieces[{i}]", "amount", 1, 5))
    hs = ch["heroes"]
    _req(isinstance(hs, list) and len(hs) == PRINTED["heroes"], w, f"'heroes' must list the {PRINTED['heroes']} heroes")
    heroes = []
    for i, h in enumerate(hs):
        wh = f"{w}: heroes[{i}]"
        _req(isinstance(h, dict) and isinstance(h.get("name"), str), wh, "needs a 'name'")
        _req(h.get("ability") == HERO_ABILITIES[i], wh, f"'ability' must be {HERO_ABILITIES[i]!r} (heroes in the order {list(HERO_ABILITIES)})")
        arm = h.get("armour")
        _req(isinstance(arm, dict) and set(arm) == set(PIECES), wh, f"'armour' must give the cost of each piece {list(PIECES)}")
        costs = tuple(_mat_counts(arm[p], mnames, f"{wh}: armour.{p}", True) for p in PIECES)
        for p, c in zip(PIECES, costs):
            _req(sum(c) >= 1, wh, f"armour piece {p} must cost something")
        heroes.append(Hero(h["name"], h["ability"], _int(h.get("strength"), wh, "strength", 0, 10), _int(h.get("power"), wh, "power", 1, 6),
                           _int(h.get("boots"), wh, "boots", 1, 6), _int(h.get("hand"), wh, "hand", 1, 12), costs))
    lives = ch.get("hero_lives", {"start": 1, "max": 2})
    _req(isinstance(lives, dict), w, "'hero_lives' must be an object")
    lstart = _int(lives.get("start"), w, "hero_lives.start", 1, 3)
    lmax = _int(lives.get("max"), w, "hero_lives.max", lstart, 3)
    _req(ch.get("life_tokens", 15) == PRINTED["life_tokens"], w, "the game has 15 life tokens")
    _req(ch.get("boots_tokens", 5) == PRINTED["boots_tokens"], w, "the game has 5 -1 Boots tokens")
    _req(ch.get("gems", 10) == PRINTED["gems"], w, "the game has 10 Power gems")
    books = ch.get("books", {})
    _req(isinstance(books, dict) and set(books) == set(BOOKS), w, f"'books' must give the effect of each colour {list(BOOKS)}")
    book_effect = (_int(books["yellow"].get("strength"), w, "books.yellow.strength", 1, 5), _int(books["red"].get("power"), w, "books.red.power", 1, 3),
                   _int(books["green"].get("boots"), w, "books.green.boots", 1, 3))
    inv = ch["invoker"]
    _req(isinstance(inv, dict), w, "'invoker' must be an object")
    _req(inv.get("ability_tokens") == list(TOKENS), w, f"'invoker.ability_tokens' must be {list(TOKENS)}")
    tr = inv.get("tracks")
    _req(isinstance(tr, list) and [t.get("name") for t in tr if isinstance(t, dict)] == list(TRACKS), w, f"'invoker.tracks' must be {list(TRACKS)}")
    tlen, tbon = [], []
    for t in tr:
        L = _int(t.get("length"), w, f"tracks.{t['name']}.length", 1, 10)
        b = t.get("bonus_at", [])
        _req(isinstance(b, list) and all(isinstance(x, int) and 1 <= x <= L for x in b), w, f"tracks.{t['name']}.bonus_at must list spaces 1-{L}")
        tlen.append(L)
        tbon.append(tuple(sorted(b)))
    # -------------------------------------------------------------- cards
    w = f"{source}/cards.json"
    _req(isinstance(cards, dict), w, "the top level must be a JSON object")
    for key in ("power_cards", "starting_power_cards", "invoker_cards", "location_decks"):
        _req(key in cards, w, f"missing key {key!r}")
    kinds, kcounts = [], []
    for i, c in enumerate(cards["power_cards"]):
        wc = f"{w}: power_cards[{i}]"
        _req(isinstance(c, dict), wc, "each entry is an object")
        v = _int(c.get("value"), wc, "value", 0, 9)
        _req(c.get("icon", "none") in ICONS, wc, f"'icon' must be one of {list(ICONS)}")
        key = (v, ICONS.index(c.get("icon", "none")))
        _req(key not in kinds, wc, f"duplicate entry for value {v} icon {c.get('icon', 'none')}")
        kinds.append(key)
        kcounts.append(_int(c.get("count"), wc, "count", 1, 48))
    _req(sum(kcounts) == PRINTED["power_cards"], w, f"{sum(kcounts)} Power cards; the game has {PRINTED['power_cards']}")
    start = [0] * len(kinds)
    for i, c in enumerate(cards["starting_power_cards"]):
        wc = f"{w}: starting_power_cards[{i}]"
        _req(isinstance(c, dict) and (c.get("value"), 0) in kinds, wc, "each entry names the 'value' of plain (no icon) Power cards that exist")
        start[kinds.index((c["value"], 0))] += _int(c.get("count"), wc, "count", 1, 10)
    for k in range(len(kinds)):
        _req(start[k] * PRINTED["heroes"] <= kcounts[k], w, f"not enough plain Power {kinds[k][0]} cards for 5 heroes' starting hands")
    pcd = _int(cards.get("power_centre_draw", 3), w, "power_centre_draw", 1, 5)
    ic = cards["invoker_cards"]
    _req(isinstance(ic, list) and len(ic) == PRINTED["invoker_cards"], w, f"'invoker_cards' must list {PRINTED['invoker_cards']} cards")
    inv_cards, minions, runes = [], [], []
    for i, c in enumerate(ic):
        wc = f"{w}: invoker_cards[{i}]"
        _req(isinstance(c, dict) and c.get("type") in ("minion", "ability"), wc, "'type' must be 'minion' or 'ability'")
        rune = c.get("rune", -1)
        _req(rune in (-1, 0, 3, 6), wc, "'rune' must be 0, 3 or 6 (or absent)")
        if rune >= 0:
            runes.append(rune)
        if c["type"] == "minion":
            _req(c.get("ability") in MINION_ABILITIES, wc, f"'ability' must be one of {list(MINION_ABILITIES)}")
            minions.append(i)
            inv_cards.append(InvokerCard(i, str(c.get("name", c["ability"])), True, _int(c.get("strength"), wc, "strength", 0, 12),
                                         _int(c.get("power"), wc, "power", 0, 5), _int(c.get("lives"), wc, "lives", 1, 3),
                                         _mat_counts(c.get("loot", []), mnames, wc, False), c["ability"], rune))
        else:
            _req(c.get("effect") in EFFECTS, wc, f"'effect' must be one of {list(EFFECTS)}")
            inv_cards.append(InvokerCard(i, str(c.get("name", c["effect"])), False, rune=rune, effect=c["effect"]))
    _req(len(minions) == PRINTED["minions"], w, f"{len(minions)} minion cards; the game has {PRINTED['minions']} monster tokens, one per minion card")
    _req(sorted(runes) == [0, 3, 6], w, "exactly three cards carry the runes 0, 3 and 6")
    _req({inv_cards[i].ability for i in minions} == set(MINION_ABILITIES), w, f"every minion of the Annex must appear: {list(MINION_ABILITIES)}")
    _req({c.effect for c in inv_cards if not c.minion} == set(EFFECTS), w, f"every ability card must appear: {list(EFFECTS)}")
    _req(any(inv_cards[i].rune < 0 for i in minions), w, "the Invoker's deck must hold a minion")
    ld = cards["location_decks"]
    _req(isinstance(ld, dict) and set(ld) == set(DECKS), w, f"'location_decks' must have the decks {list(DECKS)}")
    loc = []
    for d, dname in enumerate(DECKS):
        deck = ld[dname]
        _req(isinstance(deck, list) and len(deck) == PRINTED["location_cards"], w, f"location deck {dname!r} must hold {PRINTED['location_cards']} cards")
        for i, c in enumerate(deck):
            wc = f"{w}: location_decks.{dname}[{i}]"
            t = c.get("type") if isinstance(c, dict) else None
            gid = d * PRINTED["location_cards"] + i
            if t == "material":
                _req(c.get("material") in mnames and basic[mnames.index(c["material"])], wc, "a material card gives a basic material")
                loc.append(LocationCard(gid, d, LOC_MATERIAL, material=mnames.index(c["material"])))
            elif t == "book":
                _req(c.get("color") in BOOKS, wc, f"'color' must be one of {list(BOOKS)}")
                loc.append(LocationCard(gid, d, LOC_BOOK, color=BOOKS.index(c["color"])))
            elif t == "encounter":
                loc.append(LocationCard(gid, d, LOC_ENCOUNTER, name=str(c.get("name", "encounter")), strength=_int(c.get("strength"), wc, "strength", 0, 12),
                                        power=_int(c.get("power"), wc, "power", 0, 5), loot=_mat_counts(c.get("loot", []), mnames, wc, False)))
            else:
                _req(False, wc, "'type' must be 'material', 'book' or 'encounter'")
    canonical = json.dumps([m, ch, cards], sort_keys=True, separators=(",", ":")).encode()
    return GameData(
        space_names=tuple(names), quadrant=tuple(quad), kind=tuple(kind), rowcol=tuple(rc),
        adj=tuple(tuple(sorted(a)) for a in adj), castle=tuple(castle), portal=portals[0], treasure=treas[0],
        inns=tuple(inns), castle_adjacent=tuple(cadj),
        materials=tuple(mnames), basic=tuple(basic), material_counts=tuple(mcounts), piece_amount=tuple(amounts),
        heroes=tuple(heroes), hero_lives_start=lstart, hero_lives_max=lmax, book_effect=book_effect,
        inv_starting_hand=_int(inv.get("starting_hand", 4), f"{source}/characters.json", "invoker.starting_hand", 1, 8),
        inv_draw_per_turn=_int(inv.get("draw_per_turn", 1), f"{source}/characters.json", "invoker.draw_per_turn", 0, 3),
        track_length=(tlen[0], tlen[1]), track_bonus_at=(tbon[0], tbon[1]),
        power_kinds=tuple(kinds), power_counts=tuple(kcounts), starting_hand=tuple(start), power_centre_draw=pcd,
        invoker_cards=tuple(inv_cards), minion_cards=tuple(minions), location_cards=tuple(loc),
        digest=hashlib.sha256(canonical).hexdigest(),
    )


_CACHE: dict[str, GameData] = {}


def _read(p: Path) -> Any:
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(f"cannot read data file {p}: {e.strerror or e}") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{p}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from e


def load_data(path: str | Path | None = None) -> GameData:
    """Load and validate a data folder holding map.json, characters.json and cards.json (ours when None)."""
    p = Path(path) if path is not None else DEFAULT_DATA
    if not p.is_dir():
        raise DataError(f"data must be a folder holding {list(FILES)}; {p} is not a folder")
    key = str(p.resolve())
    if key in _CACHE:
        return _CACHE[key]
    gd = parse_data(*(_read(p / f) for f in FILES), source=str(p))
    _CACHE[key] = gd
    return gd
