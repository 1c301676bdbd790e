"""The recipes in docs/stacks/{torchrl,tianshou,supersuit}.md run as written.

Each page's ```python blocks run in order in one namespace, as a reader pasting them would.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[3] / "docs" / "stacks"
PAGES = ("torchrl.md", "tianshou.md", "supersuit.md")


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", page.read_text(), flags=re.S | re.M)


@pytest.mark.parametrize("page", PAGES)
def test_recipe_runs_as_written(page: str) -> None:
    blocks = python_blocks(DOCS / page)
    assert len(blocks) >= 2, f"{page} has no recipe"
    namespace: dict = {"__name__": f"docs_{page[:-3]}"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{DOCS / page}:block{i + 1}", "exec"), namespace)
