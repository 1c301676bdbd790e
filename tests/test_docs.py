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
    """Each registered env gets docs/envs/<game>.md."""
    gen = _generator()
    for name in gen.ENVS:
        assert ROOT / "docs" / "envs" / f"{gen.game_name(name)}.md" in GENERATED
