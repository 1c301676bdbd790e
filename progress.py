"""One progress display for training and evaluation.

A terminal gets a tqdm bar that redraws in place; anything else (a log file, a pipe, CI) gets
plain lines, one per 10% of the total or per 30 s, whichever comes first, with no carriage
returns piling up in the file.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class PlainProgress:
    """A tqdm stand-in that writes whole lines: ``desc: n/total unit (p%) postfix``."""

    def __init__(self, total: int, desc: str, unit: str, initial: int = 0, file: TextIO | None = None,
                 every_fraction: float = 0.1, every_seconds: float = 30.0, disable: bool = False):
        self.total, self.desc, self.unit, self.n = int(total), desc, unit, int(initial)
        self.file = file if file is not None else sys.stderr
        self.every_fraction, self.every_seconds, self.disable = every_fraction, every_seconds, disable
        self.postfix = ""
        self._start = self._last_time = time.monotonic()
        self._last_n = self._initial = self.n
        self._closed = False

    def update(self, n: int = 1) -> None:
        """Count ``n`` more; print a line when 10% more is done or 30 s have passed."""
        self.n += int(n)
        now = time.monotonic()
        step = max(1, int(self.total * self.every_fraction)) if self.total else 0
        if (step and self.n - self._last_n >= step) or now - self._last_time >= self.every_seconds:
            self._line()

    def set_postfix(self, values: dict[str, Any] | None = None, refresh: bool = True, **kw: Any) -> None:
        """Extra ``key=value`` figures shown at the end of each line (as tqdm's)."""
        items = {**(values or {}), **kw}
        self.postfix = ", ".join(f"{k}={v}" for k, v in items.items())

    def _line(self) -> None:
        self._last_n, self._last_time = self.n, time.monotonic()
        if self.disable:
            return
        pct = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        rate = (self.n - self._initial) / max(self._last_time - self._start, 1e-9)
        post = f", {self.postfix}" if self.postfix else ""
        print(f"{self.desc}: {self.n}/{self.total} {self.unit}{pct}, {rate:.1f} {self.unit}/s{post}", file=self.file, flush=True)

    def close(self) -> None:
        """Print the last line (unless it was just printed)."""
        if not self._closed:
            self._closed = True
            if self.n != self._last_n:
                self._line()

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(total: int, desc: str, unit: str, initial: int = 0, file: TextIO | None = None, disable: bool = False) -> Any:
    """A tqdm bar when ``file`` (default stderr) is a terminal, else a :class:`PlainProgress`.

    Both take ``update(n)``, ``set_postfix(dict)``, ``close()`` and work as context managers.
    """
    stream = file if file is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, unit=unit, desc=desc, dynamic_ncols=True, file=stream, disable=disable)
    return PlainProgress(total, desc, unit, initial=initial, file=stream, disable=disable)
