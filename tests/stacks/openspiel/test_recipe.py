"""The OpenSpiel recipe (docs/stacks/openspiel.md) works as written: every ```python block runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[3] / "docs" / "stacks" / "openspiel.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_recipe_has_code() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_recipe_block_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name}[block {index}]", "exec"), {"__name__": f"recipe_{index}"})
