"""A tiny card game used only by the tests, built on the shared core exactly as a real game is.

Each player holds a hidden hand dealt from a shuffled deck; on a turn one plays a card (scoring
its value), draws the top card, or passes; after ``rounds`` turns each the highest score wins.
It has what the conformance suite needs to mean something (hidden hands, a hidden deck order,
2-4 players, two reward modes) in a few dozen lines of rules. The rooms are those of a real game:
``cards.py`` (the data file), ``actions.py``, ``rules.py``, ``observation.py``, ``render.py``,
``env.py``, ``spec.py`` and ``heuristic.py``.
"""
