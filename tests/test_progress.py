"""The shared progress display: plain lines when the stream is not a terminal."""

from __future__ import annotations

import io

from mythzoo.progress import PlainProgress, progress_bar


def test_a_stream_that_is_not_a_terminal_gets_plain_lines_every_tenth() -> None:
    out = io.StringIO()
    with progress_bar(100, "eval", "game", file=out) as bar:
        assert isinstance(bar, PlainProgress)
        for _ in range(100):
            bar.update(1)
        bar.set_postfix({"vs random": "0.50"})
    text = out.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) == 10  # one per 10%
    assert lines[0].startswith("eval: 10/100 game (10%)") and lines[-1].startswith("eval: 100/100 game (100%)")


def test_plain_progress_prints_the_last_count_on_close_and_nothing_when_disabled() -> None:
    out = io.StringIO()
    bar = progress_bar(1000, "train", "step", file=out)
    bar.update(5)
    bar.set_postfix({"vs heuristic": "0.25"})
    bar.close()
    bar.close()
    assert out.getvalue().splitlines() == [out.getvalue().splitlines()[0]]
    assert out.getvalue().startswith("train: 5/1000 step (0%)") and "vs heuristic=0.25" in out.getvalue()
    quiet = io.StringIO()
    with progress_bar(10, "x", "game", file=quiet, disable=True) as bar:
        bar.update(10)
    assert quiet.getvalue() == ""


def test_a_terminal_gets_tqdm() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    from tqdm import tqdm

    bar = progress_bar(10, "x", "game", file=Tty())
    assert isinstance(bar, tqdm)
    bar.close()
