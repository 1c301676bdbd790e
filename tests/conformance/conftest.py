"""Marks the expected failures listed in ``games.py`` (``ORACLES_PENDING``, ``KNOWN_GAPS``) as xfail."""

from __future__ import annotations

import pytest

from conformance import games


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = __import__("pathlib").Path(__file__).parent
    for item in items:
        if here not in item.path.parents:
            continue
        callspec = getattr(item, "callspec", None)
        spec = callspec.params.get("spec") if callspec else None
        if spec is None and callspec and "sim" in callspec.params:
            spec = callspec.params["sim"][0]
        for test, game, fragment, reason in games.EXPECTED_FAILURES:
            if item.originalname == test and (game is None or (spec is not None and spec.name == game)) and fragment in item.name:
                item.add_marker(pytest.mark.xfail(strict=False, reason=reason))
