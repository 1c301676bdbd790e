"""Replays: re-play a game record from its seed and actions, checking every step and the result.

The actions go through the game runner's bookkeeping (:class:`~.runner.GameInProgress`), so a
replay computes final rewards, returns and scores exactly as the game did.

A replay needs no policy: the env's seed and the actions determine everything. An illegal action
(unless the record says the game ended by it), a record longer or shorter than the game, or final
rewards, returns or scores that differ from the record's raise :class:`ReplayError`.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from mythzoo.envs import make
from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.runner import GameInProgress, Table


class ReplayError(ValueError):
    """A record that does not replay: an illegal action, a wrong length, or a different result."""


@dataclass
class ReplayStep:
    """One frame of a replay: the position before ``action`` (or the final position: ``action`` None)."""

    decision: int
    agent: str | None
    action: int | None
    label: str | None
    text: str | None  # the ansi rendering (None when rendering is off)
    final_rewards: list[float] | None = None
    scores: list[float] | None = None
    returns: list[float] | None = None


def _close(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b))


def iter_replay(record: GameRecord, render: bool = True, seat: int | None = None) -> Iterator[ReplayStep]:
    """Re-play ``record`` from its seed and actions, yielding a frame before each action and one at
    the end. Raises :class:`ReplayError` on an illegal action (unless the record says the game ended
    by it), on a record longer or shorter than the game, or on final rewards/scores that differ.
    ``seat``: whose view to render (default: the player to move)."""
    env = make(record.env, **dict(record.env_kwargs or {}))
    u = env.unwrapped
    config = dict(getattr(u, "config", {}) or {})
    if record.env_config and config != record.env_config:
        raise ReplayError(f"the env's config {config} differs from the record's {record.env_config}")
    # The runner's bookkeeping, filled afresh (the record being checked is never touched).
    game = GameInProgress(env, Table(GameRecord(record.env, record.env_kwargs, record.num_players, record.seed, record.refs,
                                                record.policy_seeds), ()))
    k = 0
    while (d := game.next_decision(0)) is not None:
        agent = d.agent
        if k >= len(record.actions):
            if record.finished:
                raise ReplayError(f"the record ends after {k} decisions but the game goes on ({agent} to move)")
            yield ReplayStep(k, agent, None, None, u.render_text(seat) if render else None)
            return
        action = record.actions[k]
        if not isinstance(action, int) or not 0 <= action < len(d.mask):
            raise ReplayError(f"decision {k}: action {action!r} is outside {agent}'s action space")
        if not d.mask[action]:
            ill = record.illegal or {}
            if not (ill.get("decision") == k and ill.get("action") == action and ill.get("seat") == d.seat):
                raise ReplayError(f"decision {k}: action {action} ({u.action_label(action)}) is not legal for {agent}")
        yield ReplayStep(k, agent, action, u.action_label(action), u.render_text(seat) if render else None)
        game.apply(d, action, None)
        k += 1
    if k < len(record.actions):
        raise ReplayError(f"the game ended after {k} decisions but the record has {len(record.actions)} actions")
    played = game.record
    rewards, scores, returns = played.final_rewards, played.scores, played.returns
    if record.finished:
        if not _close(rewards, record.final_rewards):
            raise ReplayError(f"final rewards {rewards} differ from the record's {record.final_rewards}")
        if record.scores is not None and not _close(scores, record.scores):
            raise ReplayError(f"scores {scores} differ from the record's {record.scores}")
        if record.returns is not None and not _close(returns, record.returns):
            raise ReplayError(f"returns {returns} differ from the record's {record.returns}")
    yield ReplayStep(k, None, None, None, u.render_text(seat if seat is not None else 0) if render else None, rewards, scores, returns)


@dataclass
class ReplayResult:
    """What a successful replay found."""

    decisions: int
    final_rewards: list[float] | None
    scores: list[float] | None
    finished: bool
    returns: list[float] | None = None


def replay(
    record: GameRecord,
    render: bool = True,
    out: TextIO | None = None,
    step_delay: float = 0.0,
    seat: int | None = None,
) -> ReplayResult:
    """Re-play ``record`` (see :func:`iter_replay`), printing the ansi rendering turn by turn to
    ``out`` (stdout) when ``render``; raises :class:`ReplayError` if it does not match."""
    out = out or sys.stdout
    labels = record.labels or record.refs
    last: ReplayStep | None = None
    for step in iter_replay(record, render=render, seat=seat):
        last = step
        if not render:
            continue
        out.write(step.text + "\n")
        if step.action is not None:
            who = labels[record.agents.index(step.agent)] if step.agent in record.agents else "?"
            out.write(f"-> decision {step.decision + 1}/{len(record.actions)}: {step.agent} ({who}) plays {step.label}\n\n")
        out.flush()
        if step_delay > 0:
            time.sleep(step_delay)
    assert last is not None
    done = last.final_rewards is not None and record.finished
    if render:
        if done:
            parts = [f"{a} ({lab}) {r:+.3g}" + (f", {s:g} VP" if last.scores else "") for a, lab, r, s in
                     zip(record.agents, labels, last.final_rewards, last.scores or [0.0] * len(labels))]
            out.write(f"replay ok: {last.decision} decisions; final rewards match the record: " + "; ".join(parts) + "\n")
        else:
            out.write(f"replay ok: the record stops after {len(record.actions)} decisions (unfinished game)\n")
    return ReplayResult(len(record.actions), last.final_rewards if done else None, last.scores if done else None, done,
                        last.returns if done else None)

