"""The registry's SQLite index: the schema, transactions, and every query, behind :class:`Index` and :class:`Tx`.

``index.sqlite`` runs in WAL mode (readers never block the writer); every write is one short
``BEGIN IMMEDIATE`` transaction with a 60 s busy timeout, so concurrent writers queue instead of
failing. Only this module writes SQL. It knows rows, not files (that is :mod:`.store`).

A registry whose folder or index file is not writable (a read-only mount, a shared store) is
opened read-only: reads use SQLite's ``mode=ro`` (or ``immutable=1`` where SQLite cannot share
the WAL index), and a write is refused with a :class:`RegistryError`. Every SQLite failure (a full
disk, a damaged file) leaves its transaction rolled back and is raised as a one-line ``RegistryError``.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import sqlite3
import urllib.parse
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from mythzoo.policies.registry.errors import RefError, RegistryError
from mythzoo.policies.registry.records import Alias, CheckpointInfo, EvalRecord, Rating
from mythzoo.policies.registry.refs import LATEST, is_id_prefix, parse_ref
from mythzoo.policies.registry.spec import validate_rating

__all__ = ["BUSY_TIMEOUT_S", "INDEX_FILE", "SCHEMA", "SCHEMA_VERSION", "Index", "Tx"]

INDEX_FILE = "index.sqlite"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 60.0

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


def sqlite_problem(error: sqlite3.Error, path: Path) -> RegistryError:
    """A one-line ``RegistryError`` for a SQLite failure on the index at ``path``."""
    text = str(error) or type(error).__name__
    hint = ""
    if "full" in text or "I/O" in text:
        hint = " (is the disk full?); the transaction was rolled back, nothing was changed"
    elif "readonly" in text or "read-only" in text:
        hint = " (the registry is on read-only media or lacks write permission)"
    return RegistryError(f"index {path}: {text}{hint}")


class Index:
    """The index of the registry at ``root`` (``root/index.sqlite``); opens one connection per transaction."""

    def __init__(self, root: Path):
        self.root = root
        self.path = root / INDEX_FILE
        self._read_uri: str | None = None  # set when the registry is read-only: how reads open the index

    @property
    def read_only(self) -> bool:
        """True when the registry was opened read-only (its folder or index file is not writable)."""
        return self._read_uri is not None

    def writable(self) -> bool:
        """Whether this process may write the index (and the files beside it)."""
        return os.access(self.root, os.W_OK) and (not self.path.exists() or os.access(self.path, os.W_OK))

    def _open(self, uri: str | None) -> sqlite3.Connection:
        if uri is None:
            return sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        return sqlite3.connect(uri, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=True)

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            con = self._open(self._read_uri)
        except sqlite3.Error as e:
            raise sqlite_problem(e, self.path) from None
        try:
            con.row_factory = sqlite3.Row
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            con.execute("PRAGMA foreign_keys = ON")
            yield con
        except sqlite3.Error as e:
            raise sqlite_problem(e, self.path) from None
        finally:
            con.close()

    def write(self) -> contextlib.AbstractContextManager[Tx]:
        """One write transaction holding SQLite's write lock from the start (BEGIN IMMEDIATE); rolled back on error."""
        if self.read_only:
            raise RegistryError(
                f"registry {self.root} is read-only (no write permission or read-only media): it can be listed, "
                "shown, verified and exported, but nothing can be saved, changed or cleaned there"
            )
        return self._transaction("BEGIN IMMEDIATE", on_error="ROLLBACK")

    def read(self) -> contextlib.AbstractContextManager[Tx]:
        """One read transaction: a consistent snapshot (WAL readers never block writers)."""
        return self._transaction("BEGIN", on_error="COMMIT")

    @contextlib.contextmanager
    def _transaction(self, begin: str, *, on_error: str) -> Iterator[Tx]:
        with self._connect() as con:
            try:
                con.execute(begin)
            except sqlite3.Error as e:
                raise sqlite_problem(e, self.path) from None
            try:
                yield Tx(con, self.root)
            except BaseException as e:
                with contextlib.suppress(sqlite3.Error):
                    con.execute(on_error)
                if isinstance(e, sqlite3.Error):
                    raise sqlite_problem(e, self.path) from None
                raise
            try:
                con.execute("COMMIT")
            except sqlite3.Error as e:  # a full disk at the commit: make sure nothing half-done stays
                with contextlib.suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
                raise sqlite_problem(e, self.path) from None

    def open_read_only(self) -> None:
        """Read the index without writing anything beside it (``mode=ro``; ``immutable=1`` if SQLite cannot
        share the WAL index there, which is safe only while nobody writes: true of read-only media)."""
        quoted = urllib.parse.quote(str(self.path.resolve()))
        self._read_uri = f"file:{quoted}?mode=ro"
        try:
            with self._connect() as con:
                con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return
        except RegistryError:
            pass
        wal = self.path.with_name(self.path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            self._read_uri = None
            raise RegistryError(
                f"index {self.path} cannot be read here: it is read-only and its write-ahead log {wal.name} holds "
                "changes SQLite can only read with write access (open it once where it is writable to fold them in)"
            )
        self._read_uri = f"file:{quoted}?immutable=1"

    def ensure_schema(self) -> None:
        """Create the schema if there is none; ``RegistryError`` for an index of another schema version.

        A registry this process cannot write is opened read-only instead (its schema is only checked)."""
        if self.path.exists() and not self.writable():
            self.open_read_only()
            with self.read() as tx:
                try:
                    found: int | None = int(tx.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
                except (sqlite3.Error, TypeError, ValueError):
                    found = None
            if found != SCHEMA_VERSION:
                raise RegistryError(f"registry {self.root} has index schema {found}; this mythzoo reads schema {SCHEMA_VERSION}")
            return
        try:
            self._ensure_schema_writable()
        except sqlite3.Error as e:
            raise sqlite_problem(e, self.path) from None

    def _ensure_schema_writable(self) -> None:
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
            raise RegistryError(f"registry {self.root} has index schema {found}; this mythzoo reads schema {SCHEMA_VERSION}")

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


class Tx:
    """Queries inside one transaction of an :class:`Index` (``root`` names the registry in messages)."""

    def __init__(self, con: sqlite3.Connection, root: Path):
        self.con = con
        self.root = root

    # ------------------------------------------------------------ checkpoints
    def infos(self, where: str = "", params: Sequence[Any] = ()) -> list[CheckpointInfo]:
        """The checkpoints matching the SQL ``where`` clause, by name then version, with tags and aliases."""
        rows = self.con.execute(f"SELECT * FROM checkpoints {where} ORDER BY name, version", tuple(params)).fetchall()
        if not rows:
            return []
        tags: dict[str, list[str]] = defaultdict(list)
        for r in self.con.execute("SELECT checkpoint_id, tag FROM tags ORDER BY tag"):
            tags[r[0]].append(r[1])
        aliases: dict[str, list[str]] = defaultdict(list)
        for r in self.con.execute("SELECT checkpoint_id, alias FROM aliases ORDER BY alias"):
            aliases[r[0]].append(r[1])
        latest = {r[0]: r[1] for r in self.con.execute("SELECT name, MAX(version) FROM checkpoints GROUP BY name")}
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

    def info(self, checkpoint_id: str) -> CheckpointInfo:
        """The checkpoint with this id; ``RefError`` if there is none."""
        infos = self.infos("WHERE id = ?", (checkpoint_id,))
        if not infos:
            raise RefError(f"no checkpoint with id {checkpoint_id!r}")
        return infos[0]

    def exists(self, checkpoint_id: str) -> bool:
        """True if the index has a checkpoint with this id."""
        return self.con.execute("SELECT 1 FROM checkpoints WHERE id = ?", (checkpoint_id,)).fetchone() is not None

    def ids(self) -> set[str]:
        """Every checkpoint id in the index."""
        return {r[0] for r in self.con.execute("SELECT id FROM checkpoints")}

    def names(self) -> list[str]:
        """Every checkpoint name, sorted."""
        return [r[0] for r in self.con.execute("SELECT DISTINCT name FROM checkpoints ORDER BY name")]

    def spec_sha256(self, checkpoint_id: str) -> str | None:
        """The recorded spec hash of a checkpoint (``None``: not in the index)."""
        row = self.con.execute("SELECT spec_sha256 FROM checkpoints WHERE id = ?", (checkpoint_id,)).fetchone()
        return None if row is None else row[0]

    def next_version(self, name: str) -> int:
        """Take the next version number of ``name`` (the counter never goes down, even after removals)."""
        row = self.con.execute("SELECT last_version FROM names WHERE name = ?", (name,)).fetchone()
        version = (row[0] if row else 0) + 1
        self.con.execute(
            "INSERT INTO names (name, last_version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_version = excluded.last_version",
            (name, version),
        )
        return version

    def insert_checkpoint(self, spec: Mapping[str, Any], version: int, spec_sha256: str) -> None:
        """Add the row of a validated ``spec`` as ``version`` of its name."""
        self.con.execute(
            "INSERT INTO checkpoints (id, name, version, env_name, env_signature, role, algo, arch_json, steps, parent_id,"
            " created, weights_sha256, weights_bytes, spec_sha256, metrics_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                spec["id"], spec["name"], version, spec["env"]["name"], spec["env"]["signature"], spec.get("role"), spec["algo"],
                json.dumps(spec["arch"], sort_keys=True), spec["steps"], spec.get("parent"), spec["created"],
                spec["weights"]["sha256"], spec["weights"]["bytes"], spec_sha256, json.dumps(spec["metrics"], sort_keys=True),
            ),
        )

    def delete(self, checkpoint_id: str) -> None:
        """Remove a checkpoint's row (its tags, aliases, ratings and evals go with it: ON DELETE CASCADE)."""
        self.con.execute("DELETE FROM checkpoints WHERE id = ?", (checkpoint_id,))

    # ------------------------------------------------------------------- refs
    def _unknown_name(self, name: str, what: str = "") -> RefError:
        names = self.names()
        close = difflib.get_close_matches(name, names, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else (f"names here: {', '.join(names[:20])}" if names else "the registry is empty")
        return RefError(f"no checkpoint named {name!r}{what} in {self.root}; {hint}")

    def resolve_id(self, ref: str) -> str:
        """The id of the checkpoint ``ref`` names; ``RefError`` with a hint if none, ``ValueError`` for no ref."""
        p = parse_ref(ref)
        if p.kind == "baseline":
            raise RefError(f"{ref!r} is a baseline policy, not a checkpoint; load it with mythzoo.policies.refs.load_policy")
        if p.kind == "alias":
            return self._resolve_alias(p.name, str(p.alias))
        if p.kind == "version":
            return self._resolve_version(p.name, int(p.version))  # type: ignore[arg-type]
        row = self.con.execute("SELECT id FROM checkpoints WHERE name = ? ORDER BY version DESC LIMIT 1", (p.name,)).fetchone()
        if row:
            return row[0]
        if is_id_prefix(p.name):
            ids = [r[0] for r in self.con.execute("SELECT id FROM checkpoints WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 11", (len(p.name), p.name))]
            if len(ids) == 1:
                return ids[0]
            if len(ids) > 1:
                raise RefError(f"id prefix {p.name!r} is ambiguous: it matches {', '.join(ids[:10])}{'...' if len(ids) > 10 else ''}")
        id_note = " and no checkpoint id starting with it" if is_id_prefix(p.name) else ""
        raise self._unknown_name(p.name, id_note)

    def _resolve_alias(self, name: str, alias: str) -> str:
        if alias == LATEST:
            row = self.con.execute("SELECT id FROM checkpoints WHERE name = ? ORDER BY version DESC LIMIT 1", (name,)).fetchone()
        else:
            row = self.con.execute("SELECT checkpoint_id FROM aliases WHERE name = ? AND alias = ?", (name, alias)).fetchone()
        if row:
            return row[0]
        if not self.con.execute("SELECT 1 FROM checkpoints WHERE name = ?", (name,)).fetchone():
            raise self._unknown_name(name)
        have = [r[0] for r in self.con.execute("SELECT alias FROM aliases WHERE name = ? ORDER BY alias", (name,))]
        raise RefError(f"{name!r} has no alias {alias!r}; its aliases: {', '.join([LATEST] + have)}")

    def _resolve_version(self, name: str, version: int) -> str:
        row = self.con.execute("SELECT id FROM checkpoints WHERE name = ? AND version = ?", (name, version)).fetchone()
        if row:
            return row[0]
        versions = [r[0] for r in self.con.execute("SELECT version FROM checkpoints WHERE name = ? ORDER BY version", (name,))]
        if not versions:
            raise self._unknown_name(name)
        raise RefError(f"{name!r} has no version {version}; its versions: {', '.join(map(str, versions))}")

    # ---------------------------------------------------------- aliases, tags
    def aliases(self, name: str | None = None) -> list[Alias]:
        """The set aliases (of ``name``), by name then alias."""
        sql = "SELECT a.name, a.alias, a.checkpoint_id, c.version, a.updated FROM aliases a JOIN checkpoints c ON c.id = a.checkpoint_id"
        rows = self.con.execute(sql + (" WHERE a.name = ?" if name else "") + " ORDER BY a.name, a.alias", (name,) if name else ()).fetchall()
        return [Alias(*r) for r in rows]

    def set_alias(self, name: str, alias: str, checkpoint_id: str, updated: str) -> None:
        """Point ``name@alias`` at a checkpoint (moving it if set)."""
        self.con.execute("INSERT OR REPLACE INTO aliases (name, alias, checkpoint_id, updated) VALUES (?, ?, ?, ?)", (name, alias, checkpoint_id, updated))

    def remove_alias(self, name: str, alias: str) -> bool:
        """Delete ``name@alias``; False if it was not set."""
        return self.con.execute("DELETE FROM aliases WHERE name = ? AND alias = ?", (name, alias)).rowcount > 0

    def add_tags(self, checkpoint_id: str, tags: Sequence[str]) -> None:
        """Add tags (already checked) to a checkpoint; tags it has stay."""
        self.con.executemany("INSERT OR IGNORE INTO tags (checkpoint_id, tag) VALUES (?, ?)", [(checkpoint_id, t) for t in tags])

    def remove_tags(self, checkpoint_id: str, tags: Sequence[str]) -> None:
        """Remove tags from a checkpoint (ones it lacks are ignored)."""
        self.con.executemany("DELETE FROM tags WHERE checkpoint_id = ? AND tag = ?", [(checkpoint_id, t) for t in tags])

    # -------------------------------------------------------- ratings, evals
    def put_rating(self, checkpoint_id: str, rating: Rating) -> None:
        """Store (replace) a checkpoint's rating for the rating's env and player count."""
        self.con.execute(
            "INSERT OR REPLACE INTO ratings (checkpoint_id, env_name, num_players, mu, sigma, ordinal, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (checkpoint_id, rating.env_name, rating.num_players, rating.mu, rating.sigma, rating.ordinal, rating.games, rating.updated),
        )

    def ratings(self, checkpoint_id: str) -> list[Rating]:
        """A checkpoint's ratings, by env and player count."""
        rows = self.con.execute(
            "SELECT env_name, num_players, mu, sigma, ordinal, games, updated FROM ratings WHERE checkpoint_id = ? ORDER BY env_name, num_players",
            (checkpoint_id,),
        ).fetchall()
        return [Rating(*r) for r in rows]

    def add_eval(self, checkpoint_id: str, name: str, created: str, results: Mapping[str, Any]) -> int:
        """Append an evaluation result (plain JSON); returns its id."""
        cur = self.con.execute(
            "INSERT INTO evals (checkpoint_id, name, created, result_json) VALUES (?, ?, ?, ?)",
            (checkpoint_id, name, created, json.dumps(results, sort_keys=True)),
        )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def evals(self, checkpoint_id: str) -> list[EvalRecord]:
        """A checkpoint's recorded evaluations, oldest first."""
        rows = self.con.execute("SELECT id, name, created, result_json FROM evals WHERE checkpoint_id = ? ORDER BY id", (checkpoint_id,)).fetchall()
        return [EvalRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # ----------------------------------------------------------------- health
    def problems(self) -> list[str]:
        """What is wrong with the index itself: SQLite's quick_check, aliases pointing nowhere."""
        found = []
        check = [r[0] for r in self.con.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            found.append(f"index {self.root / INDEX_FILE}: SQLite quick_check: {'; '.join(check[:5])}")
        for r in self.con.execute("SELECT name, alias, checkpoint_id FROM aliases WHERE checkpoint_id NOT IN (SELECT id FROM checkpoints)"):
            found.append(f"alias {r[0]}@{r[1]} points to missing checkpoint {r[2]}")
        rows = self.con.execute("SELECT checkpoint_id, env_name, num_players, mu, sigma, ordinal, games, updated FROM ratings ORDER BY checkpoint_id, env_name")
        for r in rows:  # written by an older mythzoo that took any value: SQLite columns are not typed
            try:
                validate_rating(env_name=r[1], num_players=r[2], mu=r[3], sigma=r[4], ordinal=r[5], games=r[6], updated=r[7])
            except ValueError as e:
                found.append(f"checkpoint {r[0]}: a rating in the index is invalid: {e}")
        return found
