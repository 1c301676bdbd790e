"""An embedded checkpoint registry: learned opponents by name, version and alias, with no server.

A registry is one directory (``./registry`` by default, or ``$MYTHZOO_REGISTRY``, or a path)::

    registry/
      index.sqlite                      the index (WAL mode): checkpoints, aliases, tags, ratings, evals
      checkpoints/<id>/weights.safetensors   the network's arrays (safetensors, numpy flavour)
      checkpoints/<id>/spec.json        what the arrays are: env + signature, arch, algo, steps, parent...
      tmp/                              saves in progress (and leftovers of interrupted ones)

Refs name a policy: ``random`` / ``heuristic`` (baselines, served by :mod:`mythzoo.policies.refs`),
``<name>@<alias>``, ``<name>:<version>``, ``<name>`` (its latest version), or a checkpoint id or a
unique id prefix (4+ hex digits). ``latest`` is the automatic alias of a name's highest version;
any other alias (``best``, ``champion``...) is set and moved with :meth:`Registry.set_alias`.

Safety, all in this module (details in docs/registry.md):
- nothing is unpickled: arrays are safetensors, metadata JSON, the index SQLite;
- every load re-hashes both files (sha256) against the index and refuses a mismatch, so a
  corrupt or tampered checkpoint fails with an error naming it and nothing else is touched;
- a save writes its files into ``tmp/``, fsyncs them, then, holding SQLite's write lock, renames
  the folder into ``checkpoints/`` and inserts the index rows in one transaction: a process
  killed at any point leaves either the whole entry or none (a leftover folder is invisible to
  refs and reported, then removed, by :meth:`Registry.verify` / :meth:`Registry.gc`);
- version numbers are assigned inside that transaction, so concurrent registrations from many
  processes all land, with unique versions.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import io
import json
import math
import os
import re
import secrets
import shutil
import sqlite3
import tarfile
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mythzoo import __version__
from mythzoo.policies import neural
from mythzoo.policies.base import BasePolicy, EnvSpec
from mythzoo.policies.baselines import BASELINE_NAMES

REGISTRY_ENV_VAR = "MYTHZOO_REGISTRY"
DEFAULT_REGISTRY = "registry"
INDEX_FILE = "index.sqlite"
CHECKPOINTS_DIR = "checkpoints"
TMP_DIR = "tmp"
WEIGHTS_FILE = "weights.safetensors"
SPEC_FILE = "spec.json"
MANIFEST_FILE = "manifest.json"
SCHEMA_VERSION = 1
SPEC_FORMAT, SPEC_FORMAT_VERSION = "mythzoo-checkpoint", 1
EXPORT_FORMAT, EXPORT_FORMAT_VERSION = "mythzoo-registry-export", 1
LATEST = "latest"
BUSY_TIMEOUT_S = 60.0
DEFAULT_GRACE_S = 3600.0  # temp folders younger than this may belong to a save in progress
MAX_MANIFEST_BYTES = 64 << 20

_ID_RE = re.compile(r"^[0-9a-f]{12}$")
_PREFIX_RE = re.compile(r"^[0-9a-f]{4,12}$")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")
_ALIAS_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$")
_SHA_RE = re.compile(r"^[0-9a-f]{64}$")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS names (
    name         TEXT PRIMARY KEY,
    last_version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoints (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    version        INTEGER NOT NULL,
    env_name       TEXT NOT NULL,
    env_signature  TEXT NOT NULL,
    role           TEXT,
    algo           TEXT NOT NULL,
    arch_json      TEXT NOT NULL,
    steps          INTEGER NOT NULL,
    parent_id      TEXT,
    created        TEXT NOT NULL,
    weights_sha256 TEXT NOT NULL,
    weights_bytes  INTEGER NOT NULL,
    spec_sha256    TEXT NOT NULL,
    metrics_json   TEXT NOT NULL,
    UNIQUE (name, version)
);
CREATE INDEX IF NOT EXISTS checkpoints_parent ON checkpoints (parent_id);
CREATE INDEX IF NOT EXISTS checkpoints_env ON checkpoints (env_name, env_signature);
CREATE TABLE IF NOT EXISTS tags (
    checkpoint_id TEXT NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    tag           TEXT NOT NULL,
    PRIMARY KEY (checkpoint_id, tag)
);
CREATE TABLE IF NOT EXISTS aliases (
    name          TEXT NOT NULL,
    alias         TEXT NOT NULL,
    checkpoint_id TEXT NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    updated       TEXT NOT NULL,
    PRIMARY KEY (name, alias)
);
CREATE TABLE IF NOT EXISTS ratings (
    checkpoint_id TEXT NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    env_name      TEXT NOT NULL,
    num_players   INTEGER NOT NULL,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    ordinal       REAL NOT NULL,
    games         INTEGER NOT NULL,
    updated       TEXT NOT NULL,
    PRIMARY KEY (checkpoint_id, env_name, num_players)
);
CREATE TABLE IF NOT EXISTS evals (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    checkpoint_id TEXT NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    created       TEXT NOT NULL,
    result_json   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS evals_checkpoint ON evals (checkpoint_id);
"""


# ------------------------------------------------------------------- errors
class RegistryError(Exception):
    """Anything the registry refuses or cannot do."""


class RefError(RegistryError, LookupError):
    """A ref that names no checkpoint (or more than one)."""


class IntegrityError(RegistryError):
    """A file whose hash or content disagrees with the index, manifest or spec: refused, untouched."""


class EnvMismatchError(RegistryError, ValueError):
    """A checkpoint trained for another env, or another observation/action layout."""


# -------------------------------------------------------------------- records
@dataclass(frozen=True)
class CheckpointInfo:
    """One checkpoint's index entry (tags and aliases as they were when it was read)."""

    id: str
    name: str
    version: int
    env_name: str
    env_signature: str
    role: str | None
    algo: str
    arch: dict[str, Any]
    steps: int
    parent: str | None
    created: str
    weights_sha256: str
    weights_bytes: int
    spec_sha256: str
    metrics: dict[str, Any]
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def ref(self) -> str:
        """``name:version``, the ref that names this checkpoint forever."""
        return f"{self.name}:{self.version}"


@dataclass(frozen=True)
class Rating:
    """A skill rating of a checkpoint for one env and player count (e.g. OpenSkill's)."""

    env_name: str
    num_players: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    updated: str


@dataclass(frozen=True)
class EvalRecord:
    """One recorded evaluation result (free-form JSON)."""

    id: int
    name: str
    created: str
    results: dict[str, Any]


@dataclass(frozen=True)
class Alias:
    """A moving name for one checkpoint of ``name``."""

    name: str
    alias: str
    checkpoint_id: str
    version: int
    updated: str


@dataclass
class VerifyReport:
    """What :meth:`Registry.verify` found: errors fail verification; leftovers are harmless garbage."""

    checked: int = 0
    errors: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    cleaned: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every checked file matched its hash and the index agreed with the folders."""
        return not self.errors


class ParsedRef(NamedTuple):
    """A ref split into its form: ``baseline``, ``alias``, ``version`` or ``name_or_id``."""

    kind: str
    name: str
    alias: str | None = None
    version: int | None = None


# ------------------------------------------------------------------- helpers
def default_registry_path() -> Path:
    """``$MYTHZOO_REGISTRY`` if set, else ``./registry``."""
    return Path(os.environ.get(REGISTRY_ENV_VAR) or DEFAULT_REGISTRY)


def parse_ref(ref: str) -> ParsedRef:
    """Split ``ref`` into its form; ``ValueError`` for text that is no ref at all."""
    if not isinstance(ref, str) or not ref.strip():
        raise ValueError(f"a ref must be a non-empty string, got {ref!r}")
    ref = ref.strip()
    if ref in BASELINE_NAMES:
        return ParsedRef("baseline", ref)
    if "@" in ref:
        name, alias = ref.split("@", 1)
        if not _NAME_RE.match(name) or not _ALIAS_RE.match(alias):
            raise ValueError(f"bad ref {ref!r}: expected <name>@<alias>")
        return ParsedRef("alias", name, alias=alias)
    if ":" in ref:
        name, version = ref.rsplit(":", 1)
        digits = version[1:] if version[:1] in ("v", "V") else version
        if not _NAME_RE.match(name) or not digits.isdigit():
            raise ValueError(f"bad ref {ref!r}: expected <name>:<version> with an integer version")
        return ParsedRef("version", name, version=int(digits))
    if not _NAME_RE.match(ref):
        raise ValueError(f"bad ref {ref!r}: expected random, heuristic, <name>, <name>@<alias>, <name>:<version> or a checkpoint id")
    return ParsedRef("name_or_id", ref)


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dump_json(obj: Any) -> bytes:
    try:
        return (json.dumps(obj, indent=2, sort_keys=True, allow_nan=False) + "\n").encode()
    except (TypeError, ValueError) as e:
        raise ValueError(f"not plain JSON data (no NaN/inf, only dicts, lists, str, numbers, bool, null): {e}") from e


def _json_value(obj: Any, what: str) -> Any:
    """``obj`` round-tripped through strict JSON (numpy scalars become plain numbers)."""
    def default(o: Any) -> Any:
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        raise TypeError(f"{type(o).__name__} is not JSON serializable")

    try:
        return json.loads(json.dumps(obj, allow_nan=False, default=default))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must be plain JSON data (no NaN/inf): {e}") from e


def _write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    with open(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _fsync_dir(path: Path) -> None:
    """fsync a directory so a rename or new entry in it survives a crash (POSIX only)."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ValueError(f"bad checkpoint name {name!r}: use letters, digits, '_', '.', '-' (starting with a letter or digit, at most 100)")
    if name in BASELINE_NAMES:
        raise ValueError(f"{name!r} is a baseline ref and cannot name checkpoints")
    return name


def _check_alias(alias: str) -> str:
    if not isinstance(alias, str) or not _ALIAS_RE.match(alias):
        raise ValueError(f"bad alias {alias!r}: use letters, digits, '_', '.', '-' (starting with a letter, at most 64)")
    if alias == LATEST:
        raise ValueError(f"{LATEST!r} is automatic (the highest version of a name) and cannot be set")
    return alias


def _check_tag(tag: str) -> str:
    if not isinstance(tag, str) or not tag.strip() or len(tag) > 100 or any(ord(c) < 32 for c in tag):
        raise ValueError(f"bad tag {tag!r}: a tag is 1-100 printable characters")
    return tag.strip()


def _check_role_sizes(spec: EnvSpec, role: str | None, arch: Mapping[str, Any], error: type[Exception] = ValueError, what: str = "") -> None:
    """The agents ``role`` plays in ``spec`` must have the arch's observation and action sizes."""
    agents = [a for a in spec.agents if role is None or a.startswith(role)]
    if not agents:
        raise error(f"{what}role {role!r} matches none of {spec.env_name}'s agents {list(spec.agents)}")
    for a in agents:
        if spec.obs_sizes[a] != arch["obs_size"] or spec.action_sizes[a] != arch["action_size"]:
            raise error(
                f"{what}network takes {arch['obs_size']} observations and gives {arch['action_size']} actions, but "
                f"{spec.env_name}'s agent {a} has {spec.obs_sizes[a]} observations and {spec.action_sizes[a]} actions"
            )


def _validate_arch(arch: Mapping[str, Any]) -> dict[str, Any]:
    kind = arch.get("type") if isinstance(arch, Mapping) else None
    if kind not in neural.ARCH_VALIDATORS:
        raise ValueError(f"unknown arch type {kind!r}; the registry serves {sorted(neural.ARCH_VALIDATORS)}")
    return neural.ARCH_VALIDATORS[kind](arch)


def _validate_weights(tensors: Mapping[str, np.ndarray], arch: Mapping[str, Any]) -> None:
    neural.WEIGHT_VALIDATORS[arch["type"]](tensors, arch)


def validate_spec(spec: Any) -> dict[str, Any]:
    """Check a parsed ``spec.json`` against its schema; returns it, or raises ``ValueError``."""
    if not isinstance(spec, dict):
        raise ValueError("spec must be a JSON object")
    if spec.get("format") != SPEC_FORMAT or spec.get("format_version") != SPEC_FORMAT_VERSION:
        raise ValueError(f"spec format is {spec.get('format')!r} v{spec.get('format_version')!r}, expected {SPEC_FORMAT!r} v{SPEC_FORMAT_VERSION}")

    def need(key: str, types: type | tuple[type, ...], obj: dict[str, Any] = spec, where: str = "") -> Any:
        value = obj.get(key)
        if isinstance(value, bool) or not isinstance(value, types):  # no spec field is a bool
            raise ValueError(f"spec field {where}{key!r} is {value!r}; expected {types}")
        return value

    if not _ID_RE.match(need("id", str)):
        raise ValueError(f"spec id {spec['id']!r} is not 12 hex digits")
    _check_name(need("name", str))
    env = need("env", dict)
    need("name", str, env, "env.")
    need("signature", str, env, "env.")
    if spec.get("role") is not None:
        need("role", str)
    need("algo", str)
    _validate_arch(need("arch", dict))
    if need("steps", int) < 0:
        raise ValueError("spec steps must be >= 0")
    parent = spec.get("parent")
    if parent is not None and (not isinstance(parent, str) or not _ID_RE.match(parent)):
        raise ValueError(f"spec parent {parent!r} is not a checkpoint id")
    need("created", str)
    weights = need("weights", dict)
    if weights.get("file") != WEIGHTS_FILE or not _SHA_RE.match(str(weights.get("sha256"))) or not isinstance(weights.get("bytes"), int):
        raise ValueError(f"spec weights must name {WEIGHTS_FILE!r} with its sha256 and byte count")
    need("metrics", dict)
    return spec


def _info_from_spec(spec: Mapping[str, Any], version: int, spec_sha256: str) -> CheckpointInfo:
    return CheckpointInfo(
        id=spec["id"], name=spec["name"], version=version, env_name=spec["env"]["name"], env_signature=spec["env"]["signature"],
        role=spec.get("role"), algo=spec["algo"], arch=dict(spec["arch"]), steps=int(spec["steps"]), parent=spec.get("parent"),
        created=spec["created"], weights_sha256=spec["weights"]["sha256"], weights_bytes=int(spec["weights"]["bytes"]),
        spec_sha256=spec_sha256, metrics=dict(spec["metrics"]),
    )


def _load_safetensors(data: bytes, what: str) -> dict[str, np.ndarray]:
    from safetensors.numpy import load

    try:
        return load(data)
    except Exception as e:  # safetensors raises its own error types for malformed headers
        raise IntegrityError(f"{what}: {WEIGHTS_FILE} is not a valid safetensors file: {e}") from e


@dataclass
class _Staged:
    """A checkpoint whose files are written (and fsynced) in ``tmp/``, waiting for the commit."""

    spec: dict[str, Any]
    spec_sha256: str
    tmp_dir: Path
    tags: list[str] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    evals: list[dict[str, Any]] = field(default_factory=list)


# ------------------------------------------------------------------ registry
class Registry:
    """A checkpoint registry in one directory: SQLite index + one folder per checkpoint."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, create: bool = True):
        """Open the registry at ``path`` (default :func:`default_registry_path`); ``create=False`` refuses a missing one."""
        self.path = Path(path) if path is not None else default_registry_path()
        self.index_path = self.path / INDEX_FILE
        self.checkpoints_path = self.path / CHECKPOINTS_DIR
        self.tmp_path = self.path / TMP_DIR
        if not create and not self.index_path.exists():
            raise RegistryError(f"no registry at {self.path} (no {INDEX_FILE}); register a checkpoint there first, or pass --registry / set ${REGISTRY_ENV_VAR}")
        self.path.mkdir(parents=True, exist_ok=True)
        self.checkpoints_path.mkdir(exist_ok=True)
        self.tmp_path.mkdir(exist_ok=True)
        self._init_index()

    def __repr__(self) -> str:
        return f"Registry({str(self.path)!r})"

    # ------------------------------------------------------------- sqlite
    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        con = sqlite3.connect(self.index_path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            con.row_factory = sqlite3.Row
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            con.execute("PRAGMA foreign_keys = ON")
            yield con
        finally:
            con.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding SQLite's write lock from the start (BEGIN IMMEDIATE)."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: a consistent snapshot (WAL readers never block writers)."""
        with self._connect() as con:
            con.execute("BEGIN")
            try:
                yield con
            finally:
                con.execute("COMMIT")

    def _init_index(self) -> None:
        with self._connect() as con:
            if con.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                con.execute("PRAGMA journal_mode = WAL")  # persistent: set once, by whoever creates the index
            try:
                found = int(con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
            except (sqlite3.OperationalError, TypeError):  # no meta table (or row) yet: create the schema
                found = None
            if found is None:
                found = self._create_schema(con)
        if found != SCHEMA_VERSION:
            raise RegistryError(f"registry {self.path} has index schema {found}; this mythzoo reads schema {SCHEMA_VERSION}")

    @staticmethod
    def _create_schema(con: sqlite3.Connection) -> int:
        """Create every table in one transaction (idempotent, safe when several processes race to do it)."""
        con.execute("BEGIN IMMEDIATE")
        try:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    con.execute(statement)
            con.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            found = int(con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        return found

    # ------------------------------------------------------------ reading
    def _infos(self, con: sqlite3.Connection, where: str = "", params: Sequence[Any] = ()) -> list[CheckpointInfo]:
        rows = con.execute(f"SELECT * FROM checkpoints {where} ORDER BY name, version", tuple(params)).fetchall()
        if not rows:
            return []
        tags: dict[str, list[str]] = defaultdict(list)
        for r in con.execute("SELECT checkpoint_id, tag FROM tags ORDER BY tag"):
            tags[r[0]].append(r[1])
        aliases: dict[str, list[str]] = defaultdict(list)
        for r in con.execute("SELECT checkpoint_id, alias FROM aliases ORDER BY alias"):
            aliases[r[0]].append(r[1])
        latest = {r[0]: r[1] for r in con.execute("SELECT name, MAX(version) FROM checkpoints GROUP BY name")}
        return [
            CheckpointInfo(
                id=r["id"], name=r["name"], version=r["version"], env_name=r["env_name"], env_signature=r["env_signature"],
                role=r["role"], algo=r["algo"], arch=json.loads(r["arch_json"]), steps=r["steps"], parent=r["parent_id"],
                created=r["created"], weights_sha256=r["weights_sha256"], weights_bytes=r["weights_bytes"],
                spec_sha256=r["spec_sha256"], metrics=json.loads(r["metrics_json"]), tags=tuple(tags[r["id"]]),
                aliases=tuple(([LATEST] if latest.get(r["name"]) == r["version"] else []) + aliases[r["id"]]),
            )
            for r in rows
        ]

    def _info(self, con: sqlite3.Connection, checkpoint_id: str) -> CheckpointInfo:
        infos = self._infos(con, "WHERE id = ?", (checkpoint_id,))
        if not infos:
            raise RefError(f"no checkpoint with id {checkpoint_id!r}")
        return infos[0]

    def _names(self, con: sqlite3.Connection) -> list[str]:
        return [r[0] for r in con.execute("SELECT DISTINCT name FROM checkpoints ORDER BY name")]

    def _unknown_name(self, con: sqlite3.Connection, name: str, what: str = "") -> RefError:
        names = self._names(con)
        close = difflib.get_close_matches(name, names, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else (f"names here: {', '.join(names[:20])}" if names else "the registry is empty")
        return RefError(f"no checkpoint named {name!r}{what} in {self.path}; {hint}")

    def _resolve_id(self, con: sqlite3.Connection, ref: str) -> str:
        p = parse_ref(ref)
        if p.kind == "baseline":
            raise RefError(f"{ref!r} is a baseline policy, not a checkpoint; load it with mythzoo.policies.refs.load_policy")
        if p.kind == "alias":
            if p.alias == LATEST:
                row = con.execute("SELECT id FROM checkpoints WHERE name = ? ORDER BY version DESC LIMIT 1", (p.name,)).fetchone()
            else:
                row = con.execute("SELECT checkpoint_id FROM aliases WHERE name = ? AND alias = ?", (p.name, p.alias)).fetchone()
            if row:
                return row[0]
            if not con.execute("SELECT 1 FROM checkpoints WHERE name = ?", (p.name,)).fetchone():
                raise self._unknown_name(con, p.name)
            have = [r[0] for r in con.execute("SELECT alias FROM aliases WHERE name = ? ORDER BY alias", (p.name,))]
            raise RefError(f"{p.name!r} has no alias {p.alias!r}; its aliases: {', '.join([LATEST] + have)}")
        if p.kind == "version":
            row = con.execute("SELECT id FROM checkpoints WHERE name = ? AND version = ?", (p.name, p.version)).fetchone()
            if row:
                return row[0]
            versions = [r[0] for r in con.execute("SELECT version FROM checkpoints WHERE name = ? ORDER BY version", (p.name,))]
            if not versions:
                raise self._unknown_name(con, p.name)
            raise RefError(f"{p.name!r} has no version {p.version}; its versions: {', '.join(map(str, versions))}")
        row = con.execute("SELECT id FROM checkpoints WHERE name = ? ORDER BY version DESC LIMIT 1", (p.name,)).fetchone()
        if row:
            return row[0]
        if _PREFIX_RE.match(p.name):
            ids = [r[0] for r in con.execute("SELECT id FROM checkpoints WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 11", (len(p.name), p.name))]
            if len(ids) == 1:
                return ids[0]
            if len(ids) > 1:
                raise RefError(f"id prefix {p.name!r} is ambiguous: it matches {', '.join(ids[:10])}{'...' if len(ids) > 10 else ''}")
        id_note = " and no checkpoint id starting with it" if _PREFIX_RE.match(p.name) else ""
        raise self._unknown_name(con, p.name, id_note)

    def resolve(self, ref: str) -> CheckpointInfo:
        """The checkpoint ``ref`` names (``RefError`` if none, ``ValueError`` for malformed text)."""
        with self._read() as con:
            return self._info(con, self._resolve_id(con, ref))

    def list(self, name: str | None = None, *, env: str | None = None, tag: str | None = None) -> list[CheckpointInfo]:
        """Every checkpoint (of ``name``, for env ``env``, carrying ``tag``), by name then version."""
        clauses, params = [], []
        if name is not None:
            clauses.append("name = ?")
            params.append(name)
        if env is not None:
            clauses.append("env_name = ?")
            params.append(env)
        if tag is not None:
            clauses.append("id IN (SELECT checkpoint_id FROM tags WHERE tag = ?)")
            params.append(tag)
        with self._read() as con:
            return self._infos(con, ("WHERE " + " AND ".join(clauses)) if clauses else "", params)

    def names(self) -> list[str]:
        """Every checkpoint name in the registry, sorted."""
        with self._read() as con:
            return self._names(con)

    def aliases(self, name: str | None = None) -> list[Alias]:
        """The set aliases (of ``name``), by name then alias; ``latest`` is implicit and not listed."""
        sql = "SELECT a.name, a.alias, a.checkpoint_id, c.version, a.updated FROM aliases a JOIN checkpoints c ON c.id = a.checkpoint_id"
        with self._read() as con:
            rows = con.execute(sql + (" WHERE a.name = ?" if name else "") + " ORDER BY a.name, a.alias", (name,) if name else ()).fetchall()
        return [Alias(*r) for r in rows]

    def lineage(self, ref: str) -> list[CheckpointInfo]:
        """The checkpoint, its parent, grandparent... up to the first one without a parent in this registry."""
        chain: list[CheckpointInfo] = []
        with self._read() as con:
            info: CheckpointInfo | None = self._info(con, self._resolve_id(con, ref))
            seen: set[str] = set()
            while info is not None and info.id not in seen:
                chain.append(info)
                seen.add(info.id)
                found = self._infos(con, "WHERE id = ?", (info.parent,)) if info.parent else []
                info = found[0] if found else None
        return chain

    def children(self, ref: str) -> list[CheckpointInfo]:
        """Checkpoints whose parent is ``ref``."""
        with self._read() as con:
            return self._infos(con, "WHERE parent_id = ?", (self._resolve_id(con, ref),))

    def checkpoint_dir(self, checkpoint_id: str) -> Path:
        """The folder holding checkpoint ``checkpoint_id``'s files."""
        if not _ID_RE.match(checkpoint_id):
            raise ValueError(f"{checkpoint_id!r} is not a checkpoint id")
        return self.checkpoints_path / checkpoint_id

    # --------------------------------------------------------- verified IO
    def _read_verified(self, info: CheckpointInfo) -> tuple[dict[str, Any], dict[str, np.ndarray], bytes, bytes]:
        """Both files of ``info``, hashed against the index and cross-checked; ``IntegrityError`` otherwise."""
        what = f"checkpoint {info.ref} ({info.id})"
        folder = self.checkpoint_dir(info.id)
        blobs = {}
        for fname, expected in ((SPEC_FILE, info.spec_sha256), (WEIGHTS_FILE, info.weights_sha256)):
            try:
                data = (folder / fname).read_bytes()
            except FileNotFoundError:
                with self._read() as con:
                    if not con.execute("SELECT 1 FROM checkpoints WHERE id = ?", (info.id,)).fetchone():
                        raise RefError(f"{what} was removed while being read") from None
                raise IntegrityError(f"{what}: {folder / fname} is missing") from None
            got = sha256_bytes(data)
            if got != expected:
                raise IntegrityError(
                    f"{what}: {fname} has sha256 {got[:16]}..., the index recorded {expected[:16]}...: "
                    f"the file was modified or corrupted; refusing to load it ({folder / fname})"
                )
            blobs[fname] = data
        try:
            spec = validate_spec(json.loads(blobs[SPEC_FILE]))
        except ValueError as e:
            raise IntegrityError(f"{what}: {SPEC_FILE} is invalid: {e}") from e
        recorded = _info_from_spec(spec, info.version, info.spec_sha256)
        fields = ("id", "name", "env_name", "env_signature", "role", "algo", "arch", "steps", "parent", "weights_sha256", "weights_bytes")
        differ = [f for f in fields if getattr(recorded, f) != getattr(info, f)]
        if differ:
            raise IntegrityError(f"{what}: {SPEC_FILE} disagrees with the index on {', '.join(differ)}")
        if len(blobs[WEIGHTS_FILE]) != info.weights_bytes:
            raise IntegrityError(f"{what}: {WEIGHTS_FILE} has {len(blobs[WEIGHTS_FILE])} bytes, the spec says {info.weights_bytes}")
        tensors = _load_safetensors(blobs[WEIGHTS_FILE], what)
        try:
            _validate_weights(tensors, info.arch)
        except ValueError as e:
            raise IntegrityError(f"{what}: weights do not fit its arch: {e}") from e
        return spec, tensors, blobs[SPEC_FILE], blobs[WEIGHTS_FILE]

    def load_weights(self, ref: str) -> dict[str, np.ndarray]:
        """The arrays of checkpoint ``ref``, after checking both files' sha256 against the index."""
        return self._read_verified(self.resolve(ref))[1]

    def spec(self, ref: str) -> dict[str, Any]:
        """The verified ``spec.json`` of checkpoint ``ref``."""
        return self._read_verified(self.resolve(ref))[0]

    def check_env(self, ref: str | CheckpointInfo, env: Any) -> CheckpointInfo:
        """Refuse (``EnvMismatchError``) a checkpoint made for another env name, signature or size."""
        info = ref if isinstance(ref, CheckpointInfo) else self.resolve(ref)
        spec = env if isinstance(env, EnvSpec) else EnvSpec.from_env(env)
        what = f"checkpoint {info.ref} ({info.id})"
        if info.env_name != spec.env_name or info.env_signature != spec.signature:
            raise EnvMismatchError(
                f"{what} was made for env {info.env_name!r} (signature {info.env_signature}), but this env is "
                f"{spec.env_name!r} (signature {spec.signature}); the observation or action layout differs, so "
                f"the network would misread it. Use a checkpoint trained on {spec.env_name} signature {spec.signature}."
            )
        _check_role_sizes(spec, info.role, info.arch, EnvMismatchError, f"{what}: ")
        return info

    def load_policy(self, ref: str, env: Any, seed: int | None = None, *, deterministic: bool = True) -> BasePolicy:
        """A policy from checkpoint ``ref`` for ``env``; refuses another env/signature, verifies hashes."""
        info = self.check_env(ref, env)
        _, tensors, _, _ = self._read_verified(info)
        policy = neural.build_policy(tensors, info.arch, deterministic=deterministic, seed=seed, name=info.ref)
        policy.checkpoint_id = info.id  # type: ignore[attr-defined]
        return policy

    # -------------------------------------------------------------- writing
    def _hook(self, stage: str) -> None:
        """Called at each save stage (``staged``: files in tmp/; ``renamed``: folder in place, index not yet
        committed). Does nothing; tests replace it to kill a process mid-save."""

    def _stage(self, spec: dict[str, Any], spec_bytes: bytes, weights_bytes: bytes) -> _Staged:
        tmp = self.tmp_path / f"{spec['id']}-{os.getpid()}-{secrets.token_hex(4)}"
        tmp.mkdir()
        try:
            _write_file(tmp / WEIGHTS_FILE, weights_bytes)
            _write_file(tmp / SPEC_FILE, spec_bytes)
            _fsync_dir(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._hook("staged")
        return _Staged(spec=spec, spec_sha256=sha256_bytes(spec_bytes), tmp_dir=tmp)

    def _commit(self, staged: Sequence[_Staged]) -> list[str]:
        """Move staged folders into place and index them in ONE transaction; returns the ids committed."""
        moved: list[Path] = []
        committed: list[str] = []
        try:
            with self._write() as con:
                for st in staged:
                    spec, cid = st.spec, st.spec["id"]
                    row = con.execute("SELECT spec_sha256 FROM checkpoints WHERE id = ?", (cid,)).fetchone()
                    if row is not None:
                        if row[0] != st.spec_sha256:
                            raise RegistryError(f"checkpoint id {cid} already exists here with different content")
                        continue  # importing a checkpoint this registry already holds
                    final = self.checkpoint_dir(cid)
                    if final.exists():  # an orphan of an interrupted save: we hold the write lock, so nobody owns it
                        shutil.rmtree(final)
                    row = con.execute("SELECT last_version FROM names WHERE name = ?", (spec["name"],)).fetchone()
                    version = (row[0] if row else 0) + 1
                    con.execute(
                        "INSERT INTO names (name, last_version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_version = excluded.last_version",
                        (spec["name"], version),
                    )
                    os.rename(st.tmp_dir, final)
                    moved.append(final)
                    con.execute(
                        "INSERT INTO checkpoints (id, name, version, env_name, env_signature, role, algo, arch_json, steps, parent_id,"
                        " created, weights_sha256, weights_bytes, spec_sha256, metrics_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            cid, spec["name"], version, spec["env"]["name"], spec["env"]["signature"], spec.get("role"), spec["algo"],
                            json.dumps(spec["arch"], sort_keys=True), spec["steps"], spec.get("parent"), spec["created"],
                            spec["weights"]["sha256"], spec["weights"]["bytes"], st.spec_sha256, json.dumps(spec["metrics"], sort_keys=True),
                        ),
                    )
                    con.executemany("INSERT OR IGNORE INTO tags (checkpoint_id, tag) VALUES (?, ?)", [(cid, t) for t in st.tags])
                    for r in st.ratings:
                        con.execute(
                            "INSERT OR REPLACE INTO ratings (checkpoint_id, env_name, num_players, mu, sigma, ordinal, games, updated)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (cid, r["env_name"], r["num_players"], r["mu"], r["sigma"], r["ordinal"], r["games"], r["updated"]),
                        )
                    for e in st.evals:
                        con.execute(
                            "INSERT INTO evals (checkpoint_id, name, created, result_json) VALUES (?, ?, ?, ?)",
                            (cid, e["name"], e["created"], json.dumps(e["results"], sort_keys=True)),
                        )
                    committed.append(cid)
                _fsync_dir(self.checkpoints_path)
                self._hook("renamed")
        except BaseException:
            for folder in moved:  # rolled back: these folders are orphans now; nothing refers to them
                shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            for st in staged:
                if st.tmp_dir.exists():
                    shutil.rmtree(st.tmp_dir, ignore_errors=True)
        return committed

    def register(
        self,
        name: str,
        weights: Mapping[str, Any],
        arch: Mapping[str, Any],
        *,
        env_spec: EnvSpec | Any,
        algo: str,
        steps: int,
        parent: str | None = None,
        tags: Sequence[str] | None = None,
        role: str | None = None,
        metrics: Mapping[str, Any] | None = None,
    ) -> CheckpointInfo:
        """Save a new version of ``name``: weights + arch for ``env_spec`` (an ``EnvSpec`` or an env).

        ``parent`` is a ref to the checkpoint this one was trained from; ``role`` the agent-name
        prefix it plays (``None``: every agent); ``metrics`` free JSON kept in ``spec.json``.
        Atomic and safe to call from several processes at once.
        """
        _check_name(name)
        spec_env = env_spec if isinstance(env_spec, EnvSpec) else EnvSpec.from_env(env_spec)
        arch = _validate_arch(arch)
        tensors = {str(k): np.ascontiguousarray(np.asarray(v)) for k, v in weights.items()}
        _validate_weights(tensors, arch)
        if role is not None and (not isinstance(role, str) or not role):
            raise ValueError(f"role must be a non-empty agent-name prefix or None, got {role!r}")
        _check_role_sizes(spec_env, role, arch)
        if not isinstance(algo, str) or not algo.strip():
            raise ValueError(f"algo must be a non-empty string, got {algo!r}")
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
            raise ValueError(f"steps must be an int >= 0, got {steps!r}")
        tag_list = sorted({_check_tag(t) for t in (tags or ())})
        metrics_json = _json_value(dict(metrics or {}), "metrics")
        parent_id = self.resolve(parent).id if parent is not None else None
        from safetensors.numpy import save

        weights_bytes = save(tensors)
        with self._read() as con:
            while True:
                cid = secrets.token_hex(6)
                if not con.execute("SELECT 1 FROM checkpoints WHERE id = ?", (cid,)).fetchone():
                    break
        spec = {
            "format": SPEC_FORMAT,
            "format_version": SPEC_FORMAT_VERSION,
            "id": cid,
            "name": name,
            "env": {"name": spec_env.env_name, "signature": spec_env.signature, "config": _json_value(spec_env.config, "env config")},
            "role": role,
            "algo": algo.strip(),
            "arch": arch,
            "steps": int(steps),
            "parent": parent_id,
            "created": _now(),
            "weights": {
                "file": WEIGHTS_FILE,
                "sha256": sha256_bytes(weights_bytes),
                "bytes": len(weights_bytes),
                "tensors": {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in sorted(tensors.items())},
            },
            "metrics": metrics_json,
            "mythzoo_version": __version__,
        }
        staged = self._stage(spec, _dump_json(spec), weights_bytes)
        staged.tags = tag_list
        if parent_id is not None:
            with self._read() as con:
                if not con.execute("SELECT 1 FROM checkpoints WHERE id = ?", (parent_id,)).fetchone():
                    shutil.rmtree(staged.tmp_dir, ignore_errors=True)
                    raise RefError(f"parent {parent!r} ({parent_id}) was removed while saving")
        self._commit([staged])
        return self.resolve(cid)

    def set_alias(self, name: str, alias: str, ref: str | int) -> CheckpointInfo:
        """Point ``name@alias`` at ``ref`` (a ref, or a version number of ``name``); moves it if set.

        A string of digits is a version number unless it is a whole checkpoint id: ids are 12 hex
        digits, and about one in 280 of them has no letter in it.
        """
        _check_alias(alias)
        with self._write() as con:
            if isinstance(ref, str) and ref.strip().isdigit():
                is_id = _ID_RE.match(ref.strip()) and con.execute("SELECT 1 FROM checkpoints WHERE id = ?", (ref.strip(),)).fetchone()
                if not is_id:
                    ref = int(ref)
            if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
                ref = f"{name}:{int(ref)}"
            cid = self._resolve_id(con, ref)
            info = self._info(con, cid)
            if info.name != name:
                raise ValueError(f"{ref!r} is a checkpoint of {info.name!r}; an alias of {name!r} must point to a version of {name!r}")
            con.execute(
                "INSERT OR REPLACE INTO aliases (name, alias, checkpoint_id, updated) VALUES (?, ?, ?, ?)", (name, alias, cid, _now())
            )
            return self._info(con, cid)

    def remove_alias(self, name: str, alias: str) -> bool:
        """Delete ``name@alias``; False if it was not set."""
        _check_alias(alias)
        with self._write() as con:
            return con.execute("DELETE FROM aliases WHERE name = ? AND alias = ?", (name, alias)).rowcount > 0

    def set_tags(self, ref: str, add: Sequence[str] = (), remove: Sequence[str] = ()) -> CheckpointInfo:
        """Add and remove free-form tags of checkpoint ``ref``."""
        adds, removes = [_check_tag(t) for t in add], [_check_tag(t) for t in remove]
        with self._write() as con:
            cid = self._resolve_id(con, ref)
            con.executemany("INSERT OR IGNORE INTO tags (checkpoint_id, tag) VALUES (?, ?)", [(cid, t) for t in adds])
            con.executemany("DELETE FROM tags WHERE checkpoint_id = ? AND tag = ?", [(cid, t) for t in removes])
            return self._info(con, cid)

    def remove(self, ref: str) -> CheckpointInfo:
        """Delete checkpoint ``ref``: its index rows (aliases, tags, ratings, evals) first, then its folder.

        Its version number is never reused; children keep their parent id (their lineage stops there).
        """
        with self._write() as con:
            info = self._info(con, self._resolve_id(con, ref))
            con.execute("DELETE FROM checkpoints WHERE id = ?", (info.id,))
        # The index no longer names the folder; move it out of checkpoints/ then delete it. A crash
        # here leaves an orphan folder that verify reports and gc removes.
        folder = self.checkpoint_dir(info.id)
        trash = self.tmp_path / f"removed-{info.id}-{secrets.token_hex(4)}"
        with contextlib.suppress(FileNotFoundError):
            os.rename(folder, trash)
            shutil.rmtree(trash, ignore_errors=True)
        return info

    # ------------------------------------------------------ ratings / evals
    def record_rating(
        self, ref: str, *, mu: float, sigma: float, games: int, num_players: int, env_name: str | None = None, ordinal: float | None = None
    ) -> Rating:
        """Store (replace) ``ref``'s rating for an env and player count; ordinal defaults to mu - 3 sigma."""
        values = [float(mu), float(sigma)]
        if not all(math.isfinite(v) for v in values) or sigma < 0:
            raise ValueError(f"rating needs finite mu and sigma >= 0, got mu={mu!r} sigma={sigma!r}")
        if int(games) < 0 or int(num_players) < 1:
            raise ValueError(f"games must be >= 0 and num_players >= 1, got {games!r}, {num_players!r}")
        ordinal = float(mu) - 3.0 * float(sigma) if ordinal is None else float(ordinal)
        with self._write() as con:
            cid = self._resolve_id(con, ref)
            env = env_name or self._info(con, cid).env_name
            rating = Rating(env, int(num_players), float(mu), float(sigma), ordinal, int(games), _now())
            con.execute(
                "INSERT OR REPLACE INTO ratings (checkpoint_id, env_name, num_players, mu, sigma, ordinal, games, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, rating.env_name, rating.num_players, rating.mu, rating.sigma, rating.ordinal, rating.games, rating.updated),
            )
        return rating

    def ratings(self, ref: str) -> list[Rating]:
        """``ref``'s ratings, by env and player count."""
        with self._read() as con:
            cid = self._resolve_id(con, ref)
            rows = con.execute(
                "SELECT env_name, num_players, mu, sigma, ordinal, games, updated FROM ratings WHERE checkpoint_id = ? ORDER BY env_name, num_players",
                (cid,),
            ).fetchall()
        return [Rating(*r) for r in rows]

    def record_eval(self, ref: str, results: Mapping[str, Any], *, name: str = "eval") -> EvalRecord:
        """Append an evaluation result (free JSON) to checkpoint ``ref``."""
        data = _json_value(dict(results), "eval results")
        created = _now()
        with self._write() as con:
            cid = self._resolve_id(con, ref)
            cur = con.execute(
                "INSERT INTO evals (checkpoint_id, name, created, result_json) VALUES (?, ?, ?, ?)", (cid, str(name), created, json.dumps(data, sort_keys=True))
            )
            return EvalRecord(int(cur.lastrowid), str(name), created, data)

    def evals(self, ref: str) -> list[EvalRecord]:
        """``ref``'s recorded evaluations, oldest first."""
        with self._read() as con:
            cid = self._resolve_id(con, ref)
            rows = con.execute("SELECT id, name, created, result_json FROM evals WHERE checkpoint_id = ? ORDER BY id", (cid,)).fetchall()
        return [EvalRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # --------------------------------------------------------- verify / gc
    def verify(self, ref: str | None = None, *, clean: bool = False, grace_s: float = DEFAULT_GRACE_S) -> VerifyReport:
        """Re-hash every file (of ``ref``, or all) and check the index against the folders.

        Errors (a hash mismatch, a missing file, a spec that disagrees with the index) fail it;
        leftovers (folders of interrupted saves or removals) are reported, and removed when
        ``clean`` (temp folders only once older than ``grace_s``).
        """
        report = VerifyReport()
        if clean and ref is None:
            report.cleaned = [str(p) for p in self.gc(grace_s=grace_s)]
        infos = [self.resolve(ref)] if ref is not None else self.list()
        for info in infos:
            report.checked += 1
            try:
                self._read_verified(info)
            except IntegrityError as e:
                report.errors.append(str(e))
        if ref is not None:
            return report
        with self._read() as con:
            check = [r[0] for r in con.execute("PRAGMA quick_check")]
            if check != ["ok"]:
                report.errors.append(f"index {self.index_path}: SQLite quick_check: {'; '.join(check[:5])}")
            ids = {r[0] for r in con.execute("SELECT id FROM checkpoints")}
            for r in con.execute("SELECT name, alias, checkpoint_id FROM aliases WHERE checkpoint_id NOT IN (SELECT id FROM checkpoints)"):
                report.errors.append(f"alias {r[0]}@{r[1]} points to missing checkpoint {r[2]}")
        for entry in sorted(self.checkpoints_path.iterdir()):
            if entry.name not in ids:
                report.leftovers.append(f"{entry}: not in the index (left by an interrupted save or removal; gc removes it)")
        for entry in sorted(self.tmp_path.iterdir()):
            report.leftovers.append(f"{entry}: temp folder of a save in progress or interrupted (gc removes it after {grace_s:.0f} s)")
        return report

    def gc(self, *, grace_s: float = DEFAULT_GRACE_S) -> list[Path]:
        """Remove leftovers: checkpoint folders the index does not name, and temp folders older than ``grace_s``."""
        removed: list[Path] = []
        # Under the write lock no save is between its rename and its commit, so an unindexed folder is garbage.
        with self._write() as con:
            ids = {r[0] for r in con.execute("SELECT id FROM checkpoints")}
            for entry in sorted(self.checkpoints_path.iterdir()):
                if entry.name not in ids:
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink(missing_ok=True)
                    removed.append(entry)
        now = time.time()
        for entry in sorted(self.tmp_path.iterdir()):
            try:
                paths = [entry, *entry.iterdir()] if entry.is_dir() else [entry]
                newest = max(p.lstat().st_mtime for p in paths)
            except FileNotFoundError:
                continue  # its save just finished (renamed into place) or another gc took it
            if now - newest >= grace_s:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
                removed.append(entry)
        return removed

    # ------------------------------------------------------- export/import
    def export(self, ref: str, path: str | os.PathLike[str], *, with_lineage: bool = False) -> list[CheckpointInfo]:
        """Write checkpoint ``ref`` (and its ancestors if ``with_lineage``) to one tar file at ``path``.

        The tar holds ``manifest.json`` (every file's sha256 and size, tags, aliases, ratings,
        evals) and ``checkpoints/<id>/{weights.safetensors,spec.json}``; ``.tar.gz``/``.tgz``
        is gzipped. Files are verified before they are written; the tar appears atomically.
        """
        infos = self.lineage(ref) if with_lineage else [self.resolve(ref)]
        infos = infos[::-1]  # ancestors first: the order an import commits them in
        entries, blobs = [], []
        for info in infos:
            _, _, spec_bytes, weights_bytes = self._read_verified(info)
            entries.append({
                "id": info.id,
                "name": info.name,
                "version": info.version,
                "tags": list(info.tags),
                "aliases": [a for a in info.aliases if a != LATEST],
                "ratings": [dataclasses.asdict(r) for r in self.ratings(info.id)],
                "evals": [{"name": e.name, "created": e.created, "results": e.results} for e in self.evals(info.id)],
                "files": {
                    SPEC_FILE: {"sha256": sha256_bytes(spec_bytes), "bytes": len(spec_bytes)},
                    WEIGHTS_FILE: {"sha256": sha256_bytes(weights_bytes), "bytes": len(weights_bytes)},
                },
            })
            blobs.append((info.id, spec_bytes, weights_bytes))
        manifest = {
            "format": EXPORT_FORMAT,
            "format_version": EXPORT_FORMAT_VERSION,
            "created": _now(),
            "mythzoo_version": __version__,
            "root": infos[-1].id,
            "checkpoints": entries,
        }
        path = Path(path)
        mode = "w:gz" if path.name.endswith((".tar.gz", ".tgz")) else "w"
        tmp = path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")
        mtime = int(time.time())

        def add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), 0o644, mtime
            tar.addfile(ti, io.BytesIO(data))

        try:
            with open(tmp, "wb") as f:
                with tarfile.open(fileobj=f, mode=mode) as tar:
                    add(tar, MANIFEST_FILE, _dump_json(manifest))
                    for cid, spec_bytes, weights_bytes in blobs:
                        add(tar, f"{CHECKPOINTS_DIR}/{cid}/{SPEC_FILE}", spec_bytes)
                        add(tar, f"{CHECKPOINTS_DIR}/{cid}/{WEIGHTS_FILE}", weights_bytes)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return infos

    def import_(self, path: str | os.PathLike[str]) -> list[CheckpointInfo]:
        """Add the checkpoints of an export file, all or none, after verifying every hash.

        Ids, specs, tags, ratings and evals are kept; each gets the next version of its name here
        (aliases are this registry's own and are not imported). Re-importing is a no-op.
        """
        path = Path(path)
        what = f"export {path}"
        if not path.is_file():
            raise FileNotFoundError(f"no export file {path}")
        try:
            tar = tarfile.open(path, "r:*")
        except (tarfile.TarError, OSError, EOFError) as e:
            raise IntegrityError(f"{what} is not a readable tar archive: {e}") from e
        with tar:
            try:
                members = tar.getmembers()
            except (tarfile.TarError, OSError, EOFError) as e:
                raise IntegrityError(f"{what} is a damaged tar archive: {e}") from e
            by_name: dict[str, tarfile.TarInfo] = {}
            for m in members:
                if not m.isreg():
                    raise IntegrityError(f"{what}: member {m.name!r} is not a regular file (links and folders are refused)")
                if m.name in by_name:
                    raise IntegrityError(f"{what}: member {m.name!r} appears twice")
                by_name[m.name] = m

            def read(name: str, size: int | None, limit: int | None = None) -> bytes:
                m = by_name.get(name)
                if m is None:
                    raise IntegrityError(f"{what}: {name} is missing")
                if (size is not None and m.size != size) or (limit is not None and m.size > limit):
                    raise IntegrityError(f"{what}: {name} has {m.size} bytes, the manifest says {size}")
                f = tar.extractfile(m)
                try:
                    data = f.read() if f is not None else b""
                except Exception as e:  # zlib/tar errors of a damaged archive
                    raise IntegrityError(f"{what}: cannot read {name}: {e}") from e
                if len(data) != m.size:
                    raise IntegrityError(f"{what}: {name} is truncated")
                return data

            try:
                manifest = json.loads(read(MANIFEST_FILE, None, MAX_MANIFEST_BYTES))
            except (ValueError, UnicodeDecodeError) as e:
                raise IntegrityError(f"{what}: {MANIFEST_FILE} is not valid JSON: {e}") from e
            if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT or manifest.get("format_version") != EXPORT_FORMAT_VERSION:
                raise IntegrityError(f"{what}: not a {EXPORT_FORMAT} v{EXPORT_FORMAT_VERSION} archive")
            entries = manifest.get("checkpoints")
            if not isinstance(entries, list) or not entries:
                raise IntegrityError(f"{what}: the manifest lists no checkpoints")
            expected_members = {MANIFEST_FILE}
            loaded: list[tuple[dict[str, Any], bytes, bytes, dict[str, Any]]] = []
            for entry in entries:
                try:
                    cid = entry["id"]
                    files = entry["files"]
                    if not isinstance(cid, str) or not _ID_RE.match(cid):
                        raise ValueError(f"bad id {cid!r}")
                    sizes = {fn: (files[fn]["sha256"], int(files[fn]["bytes"])) for fn in (SPEC_FILE, WEIGHTS_FILE)}
                except (KeyError, TypeError, ValueError) as e:
                    raise IntegrityError(f"{what}: malformed manifest entry: {e!r}") from e
                blobs = {}
                for fn, (sha, size) in sizes.items():
                    name = f"{CHECKPOINTS_DIR}/{cid}/{fn}"
                    expected_members.add(name)
                    data = read(name, size)
                    got = sha256_bytes(data)
                    if got != sha:
                        raise IntegrityError(f"{what}: {name} has sha256 {got[:16]}..., the manifest says {str(sha)[:16]}...: the archive was modified or corrupted; nothing imported")
                    blobs[fn] = data
                try:
                    spec = validate_spec(json.loads(blobs[SPEC_FILE]))
                except (ValueError, UnicodeDecodeError) as e:
                    raise IntegrityError(f"{what}: checkpoint {cid}: invalid {SPEC_FILE}: {e}") from e
                if spec["id"] != cid:
                    raise IntegrityError(f"{what}: {CHECKPOINTS_DIR}/{cid}/{SPEC_FILE} is the spec of {spec['id']}")
                if spec["weights"]["sha256"] != sha256_bytes(blobs[WEIGHTS_FILE]) or spec["weights"]["bytes"] != len(blobs[WEIGHTS_FILE]):
                    raise IntegrityError(f"{what}: checkpoint {cid}: {WEIGHTS_FILE} does not match the hash its {SPEC_FILE} records")
                tensors = _load_safetensors(blobs[WEIGHTS_FILE], f"{what}: checkpoint {cid}")
                try:
                    _validate_weights(tensors, spec["arch"])
                except ValueError as e:
                    raise IntegrityError(f"{what}: checkpoint {cid}: weights do not fit its arch: {e}") from e
                loaded.append((spec, blobs[SPEC_FILE], blobs[WEIGHTS_FILE], entry))
            extra = sorted(set(by_name) - expected_members)
            if extra:
                raise IntegrityError(f"{what}: unexpected members {extra[:5]}")
        staged: list[_Staged] = []
        try:
            for spec, spec_bytes, weights_bytes, entry in loaded:
                st = self._stage(spec, spec_bytes, weights_bytes)
                staged.append(st)
                try:
                    st.tags = sorted({_check_tag(t) for t in entry.get("tags", [])})
                    st.ratings = [
                        {k: r[k] for k in ("env_name", "num_players", "mu", "sigma", "ordinal", "games", "updated")} for r in entry.get("ratings", [])
                    ]
                    st.evals = [{"name": str(e["name"]), "created": str(e["created"]), "results": _json_value(e["results"], "eval")} for e in entry.get("evals", [])]
                except (KeyError, TypeError, ValueError) as e:
                    raise IntegrityError(f"{what}: malformed tags/ratings/evals of {spec['id']}: {e!r}") from e
            self._commit(staged)
        finally:
            for st in staged:
                if st.tmp_dir.exists():
                    shutil.rmtree(st.tmp_dir, ignore_errors=True)
        with self._read() as con:
            return [self._info(con, spec["id"]) for spec, _, _, _ in loaded]
