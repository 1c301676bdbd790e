"""What a game is, declared once: :class:`GameSpec`.

Every tool that needs to know a game (the env registry, the command line, evaluation, training,
the docs generator, the benchmarks, the conformance tests) reads its spec instead of probing the
env. A game declares one ``SPEC`` in ``envs/<game>/spec.py``; ``mythzoo.envs`` registers it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

GameKind = Literal["symmetric", "roles", "solo"]
# OpenSpiel's utility classes: zero-sum, constant-sum, general-sum, identical (one shared reward).
Utility = Literal["zero_sum", "constant_sum", "general_sum", "identical"]


@dataclass(frozen=True)
class GameSpec:
    """The declared facts of one versioned game.

    ``size_argument`` is the env keyword that sets how many sit at the table (``num_players``,
    ``num_heroes``; ``None`` for a fixed table); seats = size + ``seat_offset`` (Mythsgate: the
    Invoker plus ``num_heroes``). ``max_decisions(kwargs)`` bounds the decisions of one game made
    with those env kwargs (OpenSpiel's ``max_game_length``; buffer sizing).
    """

    name: str
    version: int
    title: str
    module: str  # import path of the versioned module exporting ``env`` and ``raw_env``
    kind: GameKind
    roles: tuple[str, ...]
    utility: Utility
    reward_modes: tuple[str, ...]
    heuristic: str  # "module:attribute" of the rule-based baseline; built as cls(env, seed)
    size_argument: str | None = None
    sizes: tuple[int, ...] = ()
    default_size: int | None = None
    seat_offset: int = 0
    team_roles: tuple[str, ...] = ()
    data_files: tuple[str, ...] = ()  # the replaceable data files, relative to the game's folder
    max_decisions: Callable[[Mapping[str, Any]], int] | None = None
    aliases: tuple[str, ...] = ()
    gymnasium_id: str | None = None
    gymnasium_entry_point: str | None = None  # "module:class" of the solo game's gymnasium.Env
    # The search baselines' return of a solo game is its score / search_scale, so that UCB's
    # exploration constant (tuned for returns spanning about [-1, 1]) fits (policies/search.py).
    search_scale: float = 1.0
    summary: str = field(default="", compare=False)
    # What only the generated docs (docs/gen_env_docs.py) need; all optional.
    docs_kwargs: Mapping[str, Any] = field(default_factory=dict, compare=False)  # env kwargs of the docs' seeded examples (rendering, rewards); empty: the default size
    players_text: str = field(default="", compare=False)  # who plays, as the README's env table says it (empty: the seat counts; a solo game "1 (solo)")
    reward_notes: Mapping[str, str] = field(default_factory=dict, compare=False)  # reward mode -> one line on what it pays
    state_notes: Mapping[str, str] = field(default_factory=dict, compare=False)  # game-state field -> meaning, for fields declared without a comment

    def __post_init__(self) -> None:
        if self.kind not in ("symmetric", "roles", "solo"):
            raise ValueError(f"{self.name}: kind must be symmetric, roles or solo, got {self.kind!r}")
        if (self.size_argument is None) != (not self.sizes):
            raise ValueError(f"{self.name}: size_argument and sizes go together")
        if self.size_argument is not None and self.default_size not in self.sizes:
            raise ValueError(f"{self.name}: default_size {self.default_size!r} is not among sizes {self.sizes}")
        if self.kind == "solo" and len(self.roles) != 1:
            raise ValueError(f"{self.name}: a solo game has one role")

    # ------------------------------------------------------------ names
    @property
    def env_name(self) -> str:
        """The versioned name, e.g. ``mythic_baths_v1`` (the env's ``metadata['name']``)."""
        return f"{self.name}_v{self.version}"

    @property
    def pettingzoo_id(self) -> str:
        """The id in PettingZoo's registry, e.g. ``mythzoo/mythic_baths-v1``."""
        return f"mythzoo/{self.name}-v{self.version}"

    # ------------------------------------------------------------ sizes
    def seat_counts(self) -> tuple[int, ...]:
        """Players at the table (every role counted) for every allowed size."""
        if self.size_argument is None:
            return (len(self.roles) + self.seat_offset,) if self.kind == "solo" else (self.seat_offset,)
        return tuple(n + self.seat_offset for n in self.sizes)

    def default_seats(self) -> int:
        """Players at the table with the default size."""
        if self.size_argument is None:
            return self.seat_counts()[0]
        return int(self.default_size) + self.seat_offset  # type: ignore[arg-type]

    def size_kwargs(self, seats: int | None, env_kwargs: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Env kwargs for a table of ``seats`` players (``None``: the default size, written out).

        A size also given in ``env_kwargs`` must agree; a fixed-size game takes only its own seat
        count. Raises ``ValueError`` naming the problem."""
        kw = dict(env_kwargs or {})
        if self.size_argument is None:
            if seats is not None and int(seats) != self.default_seats():
                n = self.default_seats()
                raise ValueError(f"{self.env_name} is played by {n} player{'s' if n > 1 else ''} and has no player-count argument; got {seats} players")
            return kw
        if seats is None:
            kw.setdefault(self.size_argument, self.default_size)
            return kw
        want = int(seats) - self.seat_offset
        if self.size_argument in kw and kw[self.size_argument] != want:
            raise ValueError(f"{seats} players means {self.size_argument}={want} in {self.env_name}, but {self.size_argument}={kw[self.size_argument]} was also given")
        if want not in self.sizes:
            raise ValueError(f"{self.env_name} seats {_span(self.seat_counts())} players; got {seats}")
        kw[self.size_argument] = want
        return kw

    # ------------------------------------------------------------ building
    def env_module(self) -> Any:
        """The module exporting ``env`` and ``raw_env``."""
        return importlib.import_module(self.module)

    def make(self, **kwargs: Any) -> Any:
        """``env(**kwargs)``: PettingZoo's standard wrapper behaviour."""
        return self.env_module().env(**kwargs)

    def make_raw(self, **kwargs: Any) -> Any:
        """``raw_env(**kwargs)``: an illegal action raises ``IllegalActionError``."""
        return self.env_module().raw_env(**kwargs)

    def heuristic_class(self) -> Any:
        """The rule-based baseline's class (imported on first use)."""
        module, attr = self.heuristic.split(":")
        return getattr(importlib.import_module(module), attr)

    def decision_bound(self, env_kwargs: Mapping[str, Any] | None = None) -> int | None:
        """The most decisions one game with these env kwargs can take (``None`` if undeclared)."""
        if self.max_decisions is None:
            return None
        return int(self.max_decisions(self.size_kwargs(None, env_kwargs)))


def _span(values: tuple[int, ...]) -> str:
    return f"{values[0]}-{values[-1]}" if len(values) > 1 else str(values[0])
