"""Errors shared by every game (no gymnasium/pettingzoo imports, so engines can raise them)."""


class IllegalActionError(ValueError):
    """An action that is not legal now. The game and env are left unchanged."""
