"""Game records: enough to replay a game exactly (env, kwargs, seeds, refs, every action, results).

The format (``mythzoo-game/2``) is described in ``docs/evaluation.md``; ``mythzoo eval --json``
and ``mythzoo play --save`` write it, ``mythzoo replay`` reads it and the older ``mythzoo-game/1``
(no decision digests: its replay checks legality and the result, not each decision). Every field
is checked by type and range when a record is read (:meth:`GameRecord.from_dict`), so a malformed
file is one ``ValueError`` naming the field.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.evaluation.outcome import Outcome, outcome

RECORD_FORMAT = "mythzoo-game/2"
OLD_RECORD_FORMATS = ("mythzoo-game/1",)  # read (without digests), never written
DIGEST_BYTES = 8  # each decision digest: 16 hex digits


_SHA256 = hashlib.sha256()  # copied per digest: cheaper than a new context
_HEADS: dict[tuple[str, np.dtype, tuple[int, ...]], bytes] = {}  # (agent, dtype, shape) -> its bytes in the digest


def _canonical(a: Any, byte_mask: bool = False) -> np.ndarray:
    """``a`` as a C-contiguous little-endian array (a mask: one byte per action, 0 or 1), without
    a copy when it is one already (what the envs hand out)."""
    if type(a) is np.ndarray and a.flags.c_contiguous:
        if byte_mask and a.dtype.itemsize == 1:
            return a
        if not byte_mask and (a.dtype.byteorder in "<|" or (a.dtype.byteorder == "=" and sys.byteorder == "little")):
            return a
    if byte_mask:
        return np.ascontiguousarray(np.asarray(a) != 0)
    a = np.asarray(a)
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))


def decision_digest(previous: str | None, agent: str, observation: np.ndarray, mask: np.ndarray, action: int) -> str:
    """The digest of one decision, chained to the one before (``previous``; None for the first):
    the first 8 bytes of SHA-256 over the previous digest, the agent, the observation's dtype and
    shape, the action, the observation's little-endian bytes and the action mask (a byte per action).
    A changed action, or any change of the position before it, changes this digest and every later
    one. It binds a record to its game; it is no signature (anyone can recompute it). It costs about
    6 µs timed alone for Mythic Baths' 2.5 KB observation, 10-14 µs of a tournament's time per
    decision (docs/evaluation.md); records nobody keeps (the demo, training's evaluations, demonstrations)
    pass ``digests=None``."""
    obs = _canonical(observation)
    key = (agent, obs.dtype, obs.shape)
    head = _HEADS.get(key)
    if head is None:
        head = _HEADS[key] = f"{agent}\0{obs.dtype.str}{obs.shape}\0".encode()
    h = _SHA256.copy()
    if previous:
        h.update(bytes.fromhex(previous))
    h.update(head)
    h.update(int(action).to_bytes(8, "little", signed=True))
    h.update(obs)
    h.update(_canonical(mask, byte_mask=True))
    return h.hexdigest()[: 2 * DIGEST_BYTES]


HUMAN = "human"  # the ref of a person's seat


@dataclass
class GameRecord:
    """One game, enough to replay it exactly: env, kwargs, seeds, refs per seat, every action, results."""

    env: str
    env_kwargs: dict[str, Any]
    num_players: int
    seed: int | None  # the env's reset seed: every random draw of the game
    refs: list[str]  # the policy ref per seat ("human" for a person)
    policy_seeds: list[int | None]  # each seat's policy RNG seed
    actions: list[int] = field(default_factory=list)  # every decision, in order
    final_rewards: list[float] | None = None  # per seat; None while unfinished
    scores: list[float] | None = None  # per seat (VP) when the env has scores(); None otherwise
    terminated: bool = False  # ended by the rules (or by an illegal action)
    truncated: bool = False  # ended by the turn cap
    finished: bool = False  # False: stopped early (a person quit); replays up to its last action
    labels: list[str] | None = None  # display names per seat (refs made unique); defaults to refs
    agents: list[str] = field(default_factory=list)
    env_config: dict[str, Any] = field(default_factory=dict)  # env.unwrapped.config, checked on replay
    illegal: dict[str, int] | None = None  # {"seat", "decision", "action"} if an illegal action ended the game
    index: int = 0  # position in a tournament
    returns: list[float] | None = None  # per seat: the sum of every reward the seat got (shaped rewards included)
    digests: list[str] | None = field(default_factory=list)  # per action: decision_digest, chained; None: not recorded (old records)
    format: str = RECORD_FORMAT

    def __post_init__(self) -> None:
        if self.labels is None:
            self.labels = list(self.refs)

    @property
    def decisions(self) -> int:
        """Number of actions taken."""
        return len(self.actions)

    def outcome(self, sides: Sequence[Hashable] | None = None, *, order: Sequence[Hashable] | None = None,
                draws: bool = True) -> Outcome:
        """The game's :class:`~mythzoo.evaluation.outcome.Outcome` (all rewards 0 while unfinished)."""
        return outcome(self.final_rewards or [0.0] * self.num_players, sides, order=order, draws=draws)

    def win_shares(self) -> list[float]:
        """Each seat's share of the win in a free-for-all: 1/k for each of the k seats with the top
        final reward (an all-way tie shares the win); all 0 while unfinished."""
        if not self.final_rewards:
            return [0.0] * self.num_players
        return self.outcome(draws=False).seat_shares()

    def ranks(self) -> list[int]:
        """Competition ranks from the final rewards (1 = best; tied seats share a rank)."""
        return self.outcome().seat_ranks()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`: refuses another format and any field of the wrong type or range
        (``ValueError`` naming it). An old ``mythzoo-game/1`` record reads with ``digests`` None."""
        if not isinstance(d, dict):
            raise ValueError(f"not a game record (a JSON {type(d).__name__}, not an object)")
        fmt = d.get("format", OLD_RECORD_FORMATS[0])
        if fmt != RECORD_FORMAT and fmt not in OLD_RECORD_FORMATS:
            raise ValueError(f"not a game record of a known format ({RECORD_FORMAT} or {', '.join(OLD_RECORD_FORMATS)}): format {_show(fmt)}")
        names = {f for f in cls.__dataclass_fields__}
        data = {k: v for k, v in d.items() if k in names}
        if fmt in OLD_RECORD_FORMATS:
            data["digests"] = None  # an old record binds no decision
        elif "digests" not in data:
            raise ValueError(f"a {RECORD_FORMAT} record must have digests (null if none were recorded)")
        _check_fields(data)
        data["format"] = fmt
        return cls(**data)

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")  # renamed over the file: a failed write leaves no half record
        try:
            tmp.write_text(json.dumps(self.to_dict()) + "\n")
            os.replace(tmp, p)
        finally:
            tmp.unlink(missing_ok=True)


def _show(value: Any) -> str:
    """``value`` for an error message: its repr, cut to 60 characters (escape sequences stay escaped)."""
    text = ascii(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _check_fields(d: dict[str, Any]) -> None:
    """Every field of a record's data by type and range (``ValueError`` naming the first bad one)."""
    required = ("env", "env_kwargs", "num_players", "seed", "refs", "policy_seeds")
    missing = [k for k in required if k not in d]
    if missing:
        raise ValueError(f"a game record needs {', '.join(missing)}")

    def bad(name: str, what: str) -> ValueError:
        return ValueError(f"field {name!r} must be {what}, got {_show(d[name])}")

    if not isinstance(d["env"], str) or not d["env"]:
        raise bad("env", "an env name")
    if not isinstance(d["env_kwargs"], dict) or not all(isinstance(k, str) for k in d["env_kwargs"]):
        raise bad("env_kwargs", "an object of keyword arguments")
    if not _is_int(d["num_players"]) or not 1 <= d["num_players"] <= 64:
        raise bad("num_players", "an integer from 1 to 64")
    n = d["num_players"]
    if d["seed"] is not None and (not _is_int(d["seed"]) or not 0 <= d["seed"] < 2**64):
        raise bad("seed", "a non-negative integer below 2**64, or null")
    for name in ("refs", "labels", "agents"):
        if name in d and d[name] is not None and (not isinstance(d[name], list) or not all(isinstance(x, str) for x in d[name])):
            raise bad(name, "a list of strings")
    for name in ("refs", "labels"):
        if d.get(name) is not None and len(d[name]) != n:
            raise bad(name, f"one entry per seat ({n})")
    if d.get("agents") and len(d["agents"]) != n:
        raise bad("agents", f"one agent per seat ({n})")
    ps = d["policy_seeds"]
    if not isinstance(ps, list) or len(ps) != n or not all(x is None or (_is_int(x) and 0 <= x < 2**64) for x in ps):
        raise bad("policy_seeds", f"a list of {n} non-negative integers or nulls")
    actions = d.get("actions", [])
    if not isinstance(actions, list):
        raise bad("actions", "a list of integers")
    for k, a in enumerate(actions):
        if not _is_int(a) or a < 0:
            raise ValueError(f"field 'actions': decision {k} is {_show(a)}, not a non-negative integer")
    for name in ("final_rewards", "scores", "returns"):
        v = d.get(name)
        if v is not None and (not isinstance(v, list) or len(v) != n or not all(_is_number(x) for x in v)):
            raise bad(name, f"null or a list of {n} finite numbers")
    for name in ("terminated", "truncated", "finished"):
        if name in d and not isinstance(d[name], bool):
            raise bad(name, "true or false")
    if "env_config" in d and not isinstance(d["env_config"], dict):
        raise bad("env_config", "an object")
    ill = d.get("illegal")
    if ill is not None and (not isinstance(ill, dict) or set(ill) != {"seat", "decision", "action"} or not all(_is_int(v) for v in ill.values())):
        raise bad("illegal", "null or an object of integers seat, decision and action")
    if "index" in d and (not _is_int(d["index"]) or d["index"] < 0):
        raise bad("index", "a non-negative integer")
    dg = d.get("digests")
    if dg is not None:
        if not isinstance(dg, list) or not all(isinstance(x, str) and len(x) == 2 * DIGEST_BYTES and _is_hex(x) for x in dg):
            raise bad("digests", f"null or a list of {2 * DIGEST_BYTES}-digit hex strings")
        if len(dg) != len(actions):
            raise ValueError(f"field 'digests' has {len(dg)} entries for {len(actions)} actions")


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def load_records(path: str | Path) -> list[GameRecord]:
    """Every game record in a JSON file: one record, a list of them, or an eval result's ``records``.
    ``ValueError`` for a file that is not JSON (truncated, too deeply nested) or holds a malformed record."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"not valid JSON (line {e.lineno}, column {e.colno}): {e.msg}") from None
    except RecursionError:
        raise ValueError("not a game record file: JSON nested too deeply") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"not a text file ({e.reason} at byte {e.start})") from None
    if isinstance(data, dict) and "records" in data:
        data = data["records"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError(f"{path}: no game records")
    records = []
    for i, d in enumerate(data):
        try:
            records.append(GameRecord.from_dict(d))
        except ValueError as e:
            raise ValueError(f"game {i}: {e}" if len(data) > 1 else str(e)) from None
    return records


def env_scores(env: Any, agents: Sequence[str]) -> list[float] | None:
    """Each agent's score (``env.unwrapped.scores()``, a dict or a list), or None for an env without scores."""
    u = env.unwrapped
    if not callable(getattr(u, "scores", None)):
        return None
    sc = u.scores()
    return [float(sc[a]) for a in agents] if isinstance(sc, dict) else [float(x) for x in sc]
