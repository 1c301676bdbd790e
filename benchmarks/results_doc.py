"""``docs/results.md`` is shared by every game's learning benchmark: each owns one marked section.

A script replaces its own section (between ``<!-- results:<key>:start -->`` and
``<!-- results:<key>:end -->``) and leaves the others as they are, so the games' results can be
re-run one at a time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mythzoo.evaluation import wilson_interval

TITLE = "# Results: does it learn?"
# Section order in the file (the profile: design_report.py --policy; the headroom:
# innkeeper_search_headroom.py; the endgame search: mythic_baths_endgame_search.py; the Innkeeper
# champion with search: mythzoo eval; the last three written by hand).
ORDER = ("mythic_baths", "mythic_baths_endgame", "mythsgate", "mythwind_innkeeper", "mythwind_innkeeper_profile",
         "mythwind_innkeeper_headroom", "mythwind_innkeeper_search")


def update_section(path: Path, key: str, lines: list[str]) -> None:
    """Write ``lines`` as section ``key`` of the results file at ``path`` (created if missing)."""
    text = path.read_text() if path.exists() else TITLE + "\n"
    sections: dict[str, str] = {}
    for k in set(ORDER) | {key}:
        start, end = f"<!-- results:{k}:start -->", f"<!-- results:{k}:end -->"
        i, j = text.find(start), text.find(end)
        if i >= 0 and j > i:
            sections[k] = text[i : j + len(end)]
    sections[key] = f"<!-- results:{key}:start -->\n" + "\n".join(lines).rstrip() + f"\n<!-- results:{key}:end -->"
    keys = [k for k in ORDER if k in sections] + sorted(k for k in sections if k not in ORDER)
    path.write_text(TITLE + "\n\n" + "\n\n".join(sections[k] for k in keys) + "\n")


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``p`` of ``n`` games (``mythzoo.evaluation.wilson_interval``)."""
    return wilson_interval(min(max(p, 0.0), 1.0) * n, n, z)


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval."""
    a = np.asarray(values, dtype=np.float64)
    if a.size == 0:
        return 0.0, 0.0, 0.0
    m = float(a.mean())
    half = z * float(a.std(ddof=1)) / np.sqrt(a.size) if a.size > 1 else 0.0
    return m, m - half, m + half
