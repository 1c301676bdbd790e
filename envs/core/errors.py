"""Errors shared by every game (no gymnasium/pettingzoo imports, so engines can raise them)."""


class IllegalActionError(ValueError):
    """An action that is not legal now. The game and env are left unchanged."""


class RetiredEnvError(KeyError):
    """An env version that a newer one replaced (its rules, observations or rewards changed).

    The message names the replacement; ``str(error)`` is that message, without ``KeyError``'s quotes."""

    def __init__(self, name: str, replacement: str):
        self.name, self.replacement = name, replacement
        super().__init__(
            f"env {name!r} is retired: {replacement} replaced it (rules, observations or rewards changed, so "
            f"results and checkpoints of {name} do not carry over); use {replacement!r}"
        )

    def __str__(self) -> str:
        return str(self.args[0])
