"""What every rules engine shares, written once: :class:`RulesBase`.

A game's engine subclasses it and writes only its rules: the ``State`` dataclass, setup
(``initial_state``), ``_compute_legal``, one handler per action range (``act_<range name>``),
``validate`` and ``resample_hidden``. The base gives, the same way for every game: the legal-action
cache, ``current_player``/``is_over``, legality checks with one-line errors, dispatch of an action
id to its range's handler (by the decoded range, never by the order of id ranges), JSON round trips
and cheap clones (RNG included).

State conventions the base relies on: a dataclass with ``over`` (0/1), ``legal`` (the cached
sorted legal ids, or ``None``), ``rng`` (the game's own ``numpy.random.Generator``) and the
player to move in ``current`` (an engine whose mover lives elsewhere overrides
:meth:`current_player`). Fields listed in ``DERIVED_FIELDS`` are caches: never serialized,
reset to their dataclass defaults by :meth:`clone` (``legal`` is copied).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import MISSING, fields
from typing import Any, ClassVar

import numpy as np

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.core.rng import copy_rng
from mythzoo.envs.core.serialize import fields_from_json, fields_to_json

Handler = Callable[[Any, int], None]


def state_fields(state_cls: type, derived: Sequence[str]) -> tuple[str, ...]:
    """The serialized fields of a game's ``State``: every field but ``rng`` and the caches."""
    return tuple(f.name for f in fields(state_cls) if f.name != "rng" and f.name not in derived)


def build_handlers(owner: Any, table: ActionTable, prefix: str = "act_") -> list[tuple[Handler, int]]:
    """Per action id, ``(handler, argument)``: the method ``<prefix><range name>`` of ``owner`` and
    the id's argument within its range. A range without a handler is an error here, at build time,
    so a table edit can never send an action to the wrong code."""
    out: list[tuple[Handler, int]] = []
    for r in table.ranges:
        handler = getattr(owner, prefix + r.name, None)
        if handler is None:
            raise TypeError(f"{type(owner).__name__} has no handler {prefix}{r.name} for action range {r.name!r}")
        out.extend((handler, arg) for arg in range(r.size))
    return out


class RulesBase:
    """The shared mechanics of a rules engine (see the module docstring for the contract).

    Subclasses set the class attributes ``State``, ``STATE_FIELDS``, ``DERIVED_FIELDS`` and
    ``PHASE_NAMES``, and in ``__init__`` ``self.table`` (the action table) and ``self.handlers``
    (:func:`build_handlers`). Engines whose actions depend on who moves (one table per role)
    override :meth:`table_for` and :meth:`handlers_for`.
    """

    State: ClassVar[type]
    STATE_FIELDS: ClassVar[tuple[str, ...]]
    DERIVED_FIELDS: ClassVar[tuple[str, ...]] = ("legal",)
    PHASE_NAMES: ClassVar[tuple[str, ...]] = ()
    num_players: int
    table: ActionTable
    handlers: list[tuple[Handler, int]]

    def __deepcopy__(self, memo: dict) -> RulesBase:
        """Static tables, never mutated: a deep copy of an env shares them."""
        return self

    # ------------------------------------------------------------ the game writes these
    def initial_state(self, seed: int | None) -> Any:
        """A new game, every random draw determined by ``seed``."""
        raise NotImplementedError

    def _compute_legal(self, s: Any) -> list[int]:
        """Sorted legal ids of the player to move, from the state alone (empty when over)."""
        raise NotImplementedError

    def validate(self, s: Any) -> None:
        """Every invariant of a state; ``ValueError`` naming the first one broken."""
        raise NotImplementedError

    def turns_played(self, s: Any) -> int:
        """Completed turns (the env's turn cap counts these)."""
        raise NotImplementedError

    def _after_action(self, s: Any) -> None:
        """What follows every handler: by default, the new legal actions."""
        s.legal = self._compute_legal(s)

    # ------------------------------------------------------------ queries
    def legal_actions(self, s: Any) -> list[int]:
        """Sorted legal action ids of the player to move (empty when the game is over)."""
        legal = s.legal
        if legal is None:
            legal = s.legal = self._compute_legal(s)
        return legal

    def current_player(self, s: Any) -> int:
        """Seat to move, -1 once the game is over."""
        return -1 if s.over else s.current

    def is_over(self, s: Any) -> bool:
        """Whether the game has ended by its rules."""
        return bool(s.over)

    def table_for(self, s: Any) -> ActionTable:
        """The action table of the player to move."""
        return self.table

    def handlers_for(self, s: Any) -> list[tuple[Handler, int]]:
        """The dispatch list (see :func:`build_handlers`) of the player to move."""
        return self.handlers

    def phase_name(self, s: Any) -> str:
        """The phase's name for messages (``PHASE_NAMES[s.phase]`` by default)."""
        phase = getattr(s, "phase", None)
        return self.PHASE_NAMES[phase] if isinstance(phase, int) and 0 <= phase < len(self.PHASE_NAMES) else str(phase)

    # ------------------------------------------------------------ step
    def apply(self, s: Any, action: int, checked: bool = False) -> None:
        """Apply ``action`` for the player to move, in place; ``IllegalActionError`` (state unchanged)
        unless it is legal. ``checked=True`` skips the test when the caller has just made it."""
        if not checked:
            if type(action) is not int:
                if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                    raise IllegalActionError(self._illegal_message(s, action))
                action = int(action)
            if action not in self.legal_actions(s):
                raise IllegalActionError(self._illegal_message(s, action))
        handler, arg = self.handlers_for(s)[action]
        handler(s, arg)
        self._after_action(s)

    def _illegal_message(self, s: Any, action: Any) -> str:
        """One line: the action, why it is not legal, and what is."""
        table = self.table_for(s)
        try:
            what = table.label(int(action))
        except (ValueError, TypeError):
            what = "out of range"
        if s.over:
            return f"action {action!r} ({what}): the game is over"
        legal = ", ".join(table.label(a) for a in self.legal_actions(s))
        return f"action {action!r} ({what}) is not legal for player {self.current_player(s)} in phase {self.phase_name(s)}; legal: {legal}"

    # ------------------------------------------------------------ state as data
    def to_json(self, s: Any) -> dict[str, Any]:
        """The whole state as JSON-ready data (RNG included)."""
        return fields_to_json(s, self.STATE_FIELDS)

    def from_json(self, d: Any) -> Any:
        """Validate and rebuild a state; ``ValueError`` naming the first inconsistency."""
        kw = fields_from_json(d, self.STATE_FIELDS)
        try:
            s = self.State(**kw)
        except TypeError as e:
            raise ValueError(f"malformed game state: {e}") from e
        self.validate(s)
        s.legal = self._compute_legal(s)
        if not s.over and not s.legal:
            raise ValueError("invalid game state: no legal action for the player to move but the game is not over")
        return s

    def clone(self, s: Any) -> Any:
        """An independent copy: lists copied two levels deep, the RNG's state copied, caches reset."""
        c = copy.copy(s)
        for name in self.STATE_FIELDS:
            v = getattr(s, name)
            if type(v) is list:
                setattr(c, name, [list(x) if type(x) is list else x for x in v])
        c.rng = copy_rng(s.rng)
        for name, default in self._cache_defaults():
            setattr(c, name, copy.copy(default))
        c.legal = list(s.legal) if s.legal is not None else None
        return c

    def _cache_defaults(self) -> list[tuple[str, Any]]:
        cached = self.__dict__.get("_cache_defaults_memo")
        if cached is None:
            cached = []
            for f in fields(self.State):
                if f.name in self.DERIVED_FIELDS and f.name != "legal":
                    if f.default is not MISSING:
                        cached.append((f.name, f.default))
                    elif f.default_factory is not MISSING:
                        cached.append((f.name, f.default_factory()))
                    else:
                        raise TypeError(f"derived field {f.name!r} of {self.State.__name__} needs a default")
            self.__dict__["_cache_defaults_memo"] = cached
        return cached
