"""Hostile values in an export never get in: each is refused with one line naming the field, the exit is
non-zero, there is no traceback, and the registry is left as it was (issue 15: ``mu: "abc"`` imported
and then broke ``show``; 10**30 gave ``OverflowError``, NaN an ``sqlite3.IntegrityError``, ``{}`` an
``sqlite3.ProgrammingError``, 200,000-deep JSON a ``RecursionError``; ``metrics: NaN`` was accepted)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from mythzoo.policies.registry import Registry

from .helpers import assert_one_line_error, assert_unchanged, cli, forge, snapshot

DEEP = b"[" * 200_000 + b"]" * 200_000


def _rating(key, value):
    def edit(m):
        m["checkpoints"][0]["ratings"][0][key] = value
    return edit


def _spec(path, value):
    def edit(s):
        *outer, last = path
        d = s
        for k in outer:
            d = d[k]
        d[last] = value
    return edit


CASES = {
    "rating mu text": (dict(manifest=_rating("mu", "abc")), "ratings[0].mu"),
    "rating mu NaN": (dict(manifest=_rating("mu", math.nan)), "ratings[0].mu"),
    "rating games 10**30": (dict(manifest=_rating("games", 10**30)), "ratings[0].games"),
    "rating num_players {}": (dict(manifest=_rating("num_players", {})), "ratings[0].num_players"),
    "spec steps 10**30": (dict(spec=_spec(["steps"], 10**30)), "steps"),
    "spec metrics NaN": (dict(spec=_spec(["metrics"], {"loss": math.nan})), "metrics"),
    "spec steps a bool": (dict(spec=_spec(["steps"], True)), "steps"),
    "manifest 200,000 deep": (dict(manifest_bytes=DEEP), "nests deeper"),
    "spec 200,000 deep": (dict(spec_bytes=DEEP), "nests deeper"),
    "manifest truncated": (dict(manifest_bytes=b'{"format": "mythzoo-registry-ex'), "not valid JSON"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_value_in_an_export_is_refused_and_nothing_changes(case, reg: Registry, kept, export: Path, tmp_path: Path) -> None:
    edits, needle = CASES[case]
    bad = forge(export, tmp_path / "bad.tar", **edits)
    before = snapshot(reg)
    line = assert_one_line_error(cli("import", str(bad), "--registry", str(reg.path)), "mythzoo registry import:", needle)
    assert "Traceback" not in line
    assert_unchanged(reg, before)
    assert cli("show", kept.ref, "--registry", str(reg.path)).returncode == 0  # the registry still works


def test_show_json_prints_standard_json(reg: Registry, kept) -> None:
    import json

    out = cli("show", kept.ref, "--json", "--registry", str(reg.path))
    assert out.returncode == 0
    json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))


def test_register_refuses_deep_metrics_with_a_value_error(reg: Registry, env_spec) -> None:
    from .helpers import save

    deep: dict = {}
    for _ in range(100_000):
        deep = {"x": deep}
    before = snapshot(reg)
    with pytest.raises(ValueError, match="nests too deeply"):
        save(reg, env_spec, metrics=deep)
    assert_unchanged(reg, before)


def test_bad_values_an_older_registry_let_in_are_shown_and_reported_by_verify(reg: Registry, kept) -> None:
    """A registry written before validation may hold ``mu: "abc"`` or an infinite sigma: ``show`` still works
    (text escaped, standard JSON), and ``verify`` fails naming the rating."""
    import contextlib
    import json
    import sqlite3

    with contextlib.closing(sqlite3.connect(reg.index_path)) as con, con:
        con.execute("UPDATE ratings SET mu = 'abc\x1b[2J', sigma = ? WHERE checkpoint_id = ?", (math.inf, kept.id))
    show = cli("show", kept.ref, "--registry", str(reg.path))
    assert show.returncode == 0, show.stderr
    assert "abc\\x1b[2J" in show.stdout and "\x1b" not in show.stdout
    shown = cli("show", kept.ref, "--json", "--registry", str(reg.path))
    assert shown.returncode == 0, shown.stderr
    rating = json.loads(shown.stdout, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))["ratings"][0]
    assert rating["mu"] == "abc\x1b[2J" and rating["sigma"] == "inf"
    verify = cli("verify", "--registry", str(reg.path))
    assert verify.returncode == 1 and "a rating in the index is invalid" in verify.stdout and "ratings" not in verify.stderr
