"""Game records: enough to replay a game exactly (env, kwargs, seeds, refs, every action, results).

The format (``mythzoo-game/1``) is described in ``docs/evaluation.md``; ``mythzoo eval --json``
and ``mythzoo play --save`` write it, ``mythzoo replay`` reads it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mythzoo.evaluation.outcome import Outcome, outcome

RECORD_FORMAT = "mythzoo-game/1"
HUMAN = "human"  # the ref of a person's seat


@dataclass
class GameRecord:
    """One game, enough to replay it exactly: env, kwargs, seeds, refs per seat, every action, results."""

    env: str
    env_kwargs: dict[str, Any]
    num_players: int
    seed: int | None  # the env's reset seed: every random draw of the game
    refs: list[str]  # the policy ref per seat ("human" for a person)
    policy_seeds: list[int | None]  # each seat's policy RNG seed
    actions: list[int] = field(default_factory=list)  # every decision, in order
    final_rewards: list[float] | None = None  # per seat; None while unfinished
    scores: list[float] | None = None  # per seat (VP) when the env has scores(); None otherwise
    terminated: bool = False  # ended by the rules (or by an illegal action)
    truncated: bool = False  # ended by the turn cap
    finished: bool = False  # False: stopped early (a person quit); replays up to its last action
    labels: list[str] | None = None  # display names per seat (refs made unique); defaults to refs
    agents: list[str] = field(default_factory=list)
    env_config: dict[str, Any] = field(default_factory=dict)  # env.unwrapped.config, checked on replay
    illegal: dict[str, int] | None = None  # {"seat", "decision", "action"} if an illegal action ended the game
    index: int = 0  # position in a tournament
    returns: list[float] | None = None  # per seat: the sum of every reward the seat got (shaped rewards included)
    format: str = RECORD_FORMAT

    def __post_init__(self) -> None:
        if self.labels is None:
            self.labels = list(self.refs)

    @property
    def decisions(self) -> int:
        """Number of actions taken."""
        return len(self.actions)

    def outcome(self, sides: Sequence[Hashable] | None = None, *, order: Sequence[Hashable] | None = None,
                draws: bool = True) -> Outcome:
        """The game's :class:`~mythzoo.evaluation.outcome.Outcome` (all rewards 0 while unfinished)."""
        return outcome(self.final_rewards or [0.0] * self.num_players, sides, order=order, draws=draws)

    def win_shares(self) -> list[float]:
        """Each seat's share of the win in a free-for-all: 1/k for each of the k seats with the top
        final reward (an all-way tie shares the win); all 0 while unfinished."""
        if not self.final_rewards:
            return [0.0] * self.num_players
        return self.outcome(draws=False).seat_shares()

    def ranks(self) -> list[int]:
        """Competition ranks from the final rewards (1 = best; tied seats share a rank)."""
        return self.outcome().seat_ranks()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict` (refuses another format)."""
        if not isinstance(d, dict) or d.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} game record")
        names = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in names})

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")  # renamed over the file: a failed write leaves no half record
        try:
            tmp.write_text(json.dumps(self.to_dict()) + "\n")
            os.replace(tmp, p)
        finally:
            tmp.unlink(missing_ok=True)


def load_records(path: str | Path) -> list[GameRecord]:
    """Every game record in a JSON file: one record, a list of them, or an eval result's ``records``."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, dict) and "records" in data:
        data = data["records"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError(f"{path}: no game records")
    return [GameRecord.from_dict(d) for d in data]


def env_scores(env: Any, agents: Sequence[str]) -> list[float] | None:
    """Each agent's score (``env.unwrapped.scores()``, a dict or a list), or None for an env without scores."""
    u = env.unwrapped
    if not callable(getattr(u, "scores", None)):
        return None
    sc = u.scores()
    return [float(sc[a]) for a in agents] if isinstance(sc, dict) else [float(x) for x in sc]
