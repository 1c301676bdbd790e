"""Design report: the measured figures behind every designed rule of one game, with intervals.

    python benchmarks/design_report.py mythic_baths
    python benchmarks/design_report.py mythsgate --games 400
    python benchmarks/design_report.py mythwind_innkeeper --campaigns 1000
    python benchmarks/design_report.py mythsgate --write      # also rewrites docs/design/mythsgate.md's figures

Each game's measurements live in ``benchmarks/design/<game>.py`` (a ``main(argv)`` taking its
own options); this script only picks the game. The output kept in ``docs/design/<game>.md``
comes from the command printed at its top.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from mythzoo.threads import one_blas_thread_here  # loads no numpy

# One BLAS thread, set before numpy loads: with --jobs 1 the campaigns (a search over a network
# among them) run in this process, on one core as asked; numpy's default threads took a second
# core for a sixth less wall time, and beside other work spun against it (mythzoo/threads.py).
# With --jobs N the spawned workers get one thread each anyway.
one_blas_thread_here()

GAMES = ("mythic_baths", "mythsgate", "mythwind_innkeeper")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in GAMES:
        given = f"unknown game {argv[0]!r}; " if argv and argv[0] not in ("-h", "--help") else ""
        print(f"{given}usage: python benchmarks/design_report.py {{{','.join(GAMES)}}} [options]", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    module = importlib.import_module(f"design.{argv[0]}")
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
