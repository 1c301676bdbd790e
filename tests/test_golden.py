"""The golden playthrough (tests/golden/mythic_baths_2p_seed7.txt) replays byte for byte.

Any change to the rules engine, card set, action labels or ansi rendering shows up here. If the
change is intended, regenerate with ``python tests/make_golden.py`` and review the file's diff.
"""

from __future__ import annotations

import make_golden


def test_golden_playthrough_is_unchanged() -> None:
    assert make_golden.GOLDEN.exists(), "golden file missing: run `python tests/make_golden.py`"
    expected = make_golden.GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = make_golden.generate().splitlines()
    if actual == expected:
        return
    first = next((i for i, (a, b) in enumerate(zip(actual, expected)) if a != b), min(len(actual), len(expected)))
    lo = max(0, first - 3)
    context = "\n".join(
        [f"  expected {i + 1:5d}: {line}" for i, line in enumerate(expected[lo : first + 4], lo)]
        + [f"  actual   {i + 1:5d}: {line}" for i, line in enumerate(actual[lo : first + 4], lo)]
    )
    raise AssertionError(
        f"the golden Mythic Baths playthrough changed at line {first + 1} "
        f"(expected {len(expected)} lines, got {len(actual)}):\n{context}\n"
        "If the rules, card set, labels or rendering changed ON PURPOSE, regenerate it with\n"
        "    python tests/make_golden.py\n"
        "and review the diff of tests/golden/mythic_baths_2p_seed7.txt. Otherwise this is a behaviour change (a bug)."
    )
