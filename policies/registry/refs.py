"""Refs and the names inside them: what text names a checkpoint, and which names, aliases and tags are allowed.

A ref is ``random`` / ``heuristic`` (a baseline), ``<name>@<alias>``, ``<name>:<version>``
(or ``<name>:v<version>``), ``<name>`` (its latest version), or a checkpoint id or unique id
prefix (4+ hex digits). Checking a ref's form needs no index; looking it up is :mod:`.index`'s job.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from mythzoo.policies.baselines import is_baseline_name

__all__ = [
    "ALIAS_RE", "ID_RE", "LATEST", "NAME_RE", "PREFIX_RE", "SHA_RE", "ParsedRef",
    "check_alias", "check_name", "check_tag", "is_checkpoint_id", "is_id_prefix", "parse_ref",
]

LATEST = "latest"  # the automatic alias of a name's highest version

ID_RE = re.compile(r"^[0-9a-f]{12}$")
PREFIX_RE = re.compile(r"^[0-9a-f]{4,12}$")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")
ALIAS_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")


class ParsedRef(NamedTuple):
    """A ref split into its form: ``baseline``, ``alias``, ``version`` or ``name_or_id``."""

    kind: str
    name: str
    alias: str | None = None
    version: int | None = None


def parse_ref(ref: str) -> ParsedRef:
    """Split ``ref`` into its form; ``ValueError`` for text that is no ref at all."""
    if not isinstance(ref, str) or not ref.strip():
        raise ValueError(f"a ref must be a non-empty string, got {ref!r}")
    ref = ref.strip()
    if is_baseline_name(ref):
        return ParsedRef("baseline", ref)
    if "@" in ref:
        name, alias = ref.split("@", 1)
        if not NAME_RE.match(name) or not ALIAS_RE.match(alias):
            raise ValueError(f"bad ref {ref!r}: expected <name>@<alias>")
        return ParsedRef("alias", name, alias=alias)
    if ":" in ref:
        name, version = ref.rsplit(":", 1)
        digits = version[1:] if version[:1] in ("v", "V") else version
        if not NAME_RE.match(name) or not digits.isdigit():
            raise ValueError(f"bad ref {ref!r}: expected <name>:<version> with an integer version")
        return ParsedRef("version", name, version=int(digits))
    if not NAME_RE.match(ref):
        raise ValueError(f"bad ref {ref!r}: expected random, heuristic, <name>, <name>@<alias>, <name>:<version> or a checkpoint id")
    return ParsedRef("name_or_id", ref)


def is_checkpoint_id(text: str) -> bool:
    """True for a whole checkpoint id (12 lowercase hex digits)."""
    return isinstance(text, str) and ID_RE.match(text) is not None


def is_id_prefix(text: str) -> bool:
    """True for text that may abbreviate a checkpoint id (4 to 12 lowercase hex digits)."""
    return isinstance(text, str) and PREFIX_RE.match(text) is not None


def check_name(name: str) -> str:
    """``name`` if it may name checkpoints, else ``ValueError`` saying what a name is."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ValueError(f"bad checkpoint name {name!r}: use letters, digits, '_', '.', '-' (starting with a letter or digit, at most 100)")
    if is_baseline_name(name):
        raise ValueError(f"{name!r} is a baseline ref and cannot name checkpoints")
    if name == "rollouts":
        raise ValueError("'rollouts' names the endgame-rollouts policy (rollouts:W:REF) and cannot name checkpoints")
    return name


def check_alias(alias: str) -> str:
    """``alias`` if it may be set, else ``ValueError`` (``latest`` is automatic)."""
    if not isinstance(alias, str) or not ALIAS_RE.match(alias):
        raise ValueError(f"bad alias {alias!r}: use letters, digits, '_', '.', '-' (starting with a letter, at most 64)")
    if alias == LATEST:
        raise ValueError(f"{LATEST!r} is automatic (the highest version of a name) and cannot be set")
    return alias


def check_tag(tag: str) -> str:
    """``tag`` stripped of surrounding blanks, else ``ValueError``: a tag is 1-100 printable characters."""
    if not isinstance(tag, str) or not tag.strip() or len(tag) > 100 or any(ord(c) < 32 for c in tag):
        raise ValueError(f"bad tag {tag!r}: a tag is 1-100 printable characters")
    return tag.strip()
