"""Replaceable data files (cards, maps, rules tables): read once, validated, digested, cached.

A game names its default file (or folder of files) and a ``parse(raw, source)`` function that
validates the JSON and builds its immutable tables; :class:`DataFile` reads the JSON with clear
one-line errors, caches the result per resolved path (an edited file is read again: the cache
key holds its size and modification time) and gives :func:`canonical_digest` for the record that
states and checkpoints keep of which data they were made with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")
MAX_JSON_BYTES = 16 * 1024 * 1024  # a data file is kilobytes; anything near this is not one


def canonical_digest(data: Any) -> str:
    """sha256 hex digest of ``data`` as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_json(path: Path, error: type[Exception], what: str = "data file") -> Any:
    """The JSON in ``path``; ``error`` with a one-line message if it cannot be read or parsed
    (``what`` names the file's role in the message, e.g. ``card set``)."""
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise error(f"{path}: larger than {MAX_JSON_BYTES} bytes; not a data file")
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text ({e.reason})") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{path}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from e
    except RecursionError as e:
        raise error(f"{path}: JSON nested too deeply") from e


class DataFile(Generic[T]):
    """One game's data: ``load(path)`` parses the file (or the folder of ``files``) once per version.

    ``files=None``: ``path`` is one JSON file and ``parse(raw, source)`` gets its content.
    ``files=(...)``: ``path`` is a folder and ``parse(raws, source)`` gets a tuple, one per file.
    ``what`` names the data in the message of a file that cannot be read (``cannot read card set ...``).
    """

    def __init__(self, default: Path, parse: Callable[[Any, str], T], error: type[Exception], files: Sequence[str] | None = None,
                 what: str = "data file"):
        self.default = default
        self.what = what
        self.parse = parse
        self.error = error
        self.files = tuple(files) if files is not None else None
        self._cache: dict[tuple, T] = {}

    def load(self, path: str | Path | None = None) -> T:
        """The parsed data of ``path`` (the game's own data when ``None``)."""
        p = Path(path) if path is not None else self.default
        paths = [p] if self.files is None else [p / f for f in self.files]
        if self.files is not None and not p.is_dir():
            raise self.error(f"data must be a folder holding {list(self.files)}; {p} is not a folder")
        key = tuple((str(q.resolve()), *self._stamp(q)) for q in paths)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        raws = [read_json(q, self.error, self.what) for q in paths]
        data = self.parse(raws[0] if self.files is None else tuple(raws), str(p))
        self._cache[key] = data
        return data

    @staticmethod
    def _stamp(path: Path) -> tuple[int, int]:
        try:
            st = path.stat()
        except OSError:
            return (-1, -1)  # read_json reports the error
        return (st.st_size, st.st_mtime_ns)
