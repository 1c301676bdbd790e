"""Helpers of the browser tests (a module of its own: both conftest.py files are named ``conftest``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest


def wait_for(driver: Any, condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Poll ``condition`` until it is true; fail naming ``what`` (and the page's status line) after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    status = driver.execute_script("return (document.getElementById('status') || {}).textContent")
    pytest.fail(f"timed out waiting for {what} (status: {status!r})")
