"""The generated docs are checked in; they must equal what ``docs/gen_env_docs.py`` writes now."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_env_docs", ROOT / "docs" / "gen_env_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATED = _generator().generate()


@pytest.mark.parametrize("path", sorted(GENERATED), ids=lambda p: str(p.relative_to(ROOT)))
def test_generated_docs_are_up_to_date(path: Path) -> None:
    """Docs cannot drift from the code: regenerate with ``make docs`` after changing an env."""
    rel = path.relative_to(ROOT)
    assert path.exists(), f"{rel} is missing; run `make docs` and commit it"
    assert path.read_text() == GENERATED[path], f"{rel} is out of date with the code; run `make docs` and commit the result"


def test_every_env_has_a_generated_page() -> None:
    """Each registered game gets docs/envs/<game>.md."""
    from mythzoo.envs import SPECS

    for spec in SPECS.values():
        assert ROOT / "docs" / "envs" / f"{spec.name}.md" in GENERATED


def _games() -> tuple[str, ...]:
    from mythzoo.envs import SPECS

    return tuple(spec.name for spec in SPECS.values())


GAMES = _games()


@pytest.mark.parametrize("game", GAMES)
def test_rules_doc_names_only_tests_that_exist_and_every_rules_test(game: str) -> None:
    """docs/rules/<game>.md maps rules to tests: each test it names exists, and each rules test is named."""
    import re

    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    named = set(re.findall(r"\b(test_[A-Za-z0-9_]+)", doc)) - {f"test_{game}_{kind}" for kind in ("rules", "simulation", "api", "bad_input", "rewards", "heuristic")}
    defined: set[str] = set()
    for path in (ROOT / "tests").glob(f"test_{game}*.py"):
        defined |= set(re.findall(r"^def (test_[A-Za-z0-9_]+)", path.read_text(), flags=re.M))
    assert named, f"docs/rules/{game}.md names no test"
    assert not sorted(named - defined), f"docs/rules/{game}.md names tests that do not exist: {sorted(named - defined)}"
    rules_tests = set(re.findall(r"^def (test_[A-Za-z0-9_]+)", (ROOT / "tests" / f"test_{game}_rules.py").read_text(), flags=re.M))
    assert not sorted(rules_tests - named), f"rules tests missing from docs/rules/{game}.md: {sorted(rules_tests - named)}"
