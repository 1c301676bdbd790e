"""``python -m mythzoo`` runs the command line interface."""

from mythzoo.cli import main

raise SystemExit(main())
