"""docs/usage.md works as written: its Python blocks run, its command runs, its card-set excerpt is the format.

Python blocks run in order in one namespace, in a fresh folder (with ``checkpoints/`` of this
repository linked in, as a clone has it). A block whose first line is ``# file: NAME`` is written
to that file instead (the ``py:`` ref example imports it); a block whose first line is
``# needs: <stack>`` needs another RL stack and runs only in that stack's venv (``MYTHZOO_STACK``).
The ``PYTHONPATH=. mythzoo ...`` command lines of the ``sh`` blocks run after the Python blocks.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "usage.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(DOC.read_text()) if lang == language]


def test_the_page_has_its_recipes_and_the_readme_links_it() -> None:
    python = blocks("python")
    assert len(python) >= 5
    assert any(b.startswith("# file: ") for b in python)
    assert "docs/usage.md" in (ROOT / "README.md").read_text()
    for page in ("rllib", "openspiel", "torchrl", "tianshou", "supersuit"):
        assert f"(stacks/{page}.md)" in DOC.read_text(), page


@pytest.mark.slow
def test_the_python_blocks_and_the_command_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "checkpoints").symlink_to(ROOT / "checkpoints")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    stack = os.environ.get("MYTHZOO_STACK")
    namespace: dict[str, object] = {"__name__": "usage_doc"}
    ran = 0
    for i, body in enumerate(blocks("python")):
        first = body.splitlines()[0]
        if first.startswith("# file: "):
            (tmp_path / first.removeprefix("# file: ").strip()).write_text(body)
            continue
        if first.startswith("# needs: ") and first.removeprefix("# needs: ").strip() != stack:
            continue
        try:
            exec(compile(body, f"docs/usage.md python block {i}", "exec"), namespace)
        except Exception as e:  # name the block that broke
            raise AssertionError(f"docs/usage.md python block {i} failed: {type(e).__name__}: {e}") from e
        ran += 1
    assert ran >= 5
    assert (tmp_path / "my_registry").is_dir() and (tmp_path / "my_cards.json").exists()
    commands = [line for body in blocks("sh") for line in body.splitlines() if line.startswith("PYTHONPATH=. mythzoo ")]
    assert commands
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        assert "first_legal" not in done.stderr and "py:my_policies:make_policy" in done.stdout


def test_the_card_set_excerpt_is_the_format() -> None:
    """Every key and entry of the abridged file is valid; what it lacks is only the printed counts."""
    from mythzoo.envs.mythic_baths.cards import (
        CardSetError,
        CardSetFile,
        IngredientCardEntry,
        ManagerEntry,
        RegularGuestEntry,
        TroublesomeGuestEntry,
        parse_card_set,
    )

    (excerpt,) = blocks("json")
    data = json.loads(excerpt)
    assert set(data) <= set(CardSetFile.model_fields)
    models = {"ingredient_cards": IngredientCardEntry, "regular_guests": RegularGuestEntry,
              "troublesome_guests": TroublesomeGuestEntry, "managers": ManagerEntry}
    for key, model in models.items():
        assert data[key], key
        for entry in data[key]:
            model.model_validate(entry)
            for name in entry.get("ingredients", entry.get("needs", [])):
                assert name in data["ingredients"]
    with pytest.raises(CardSetError, match="must list 35 cards, got 1"):
        parse_card_set(data, "excerpt")
