"""Replays: re-play a game record from its seed and actions, checking every step and the result.

The actions go through the game runner's bookkeeping (:class:`~.runner.GameInProgress`), so a
replay computes final rewards, returns and scores exactly as the game did.

A replay needs no policy: the env's seed and the actions determine everything. An env that cannot
be made from the record (an unknown env, bad ``env_kwargs``, seats that are not the env's), an
illegal action (unless the record says the game ended by it), a decision whose digest differs from
the record's (a changed action, or a different position before it), a record longer or shorter
than the game, or final rewards, returns or scores that differ from the record's raise
:class:`ReplayError`. A record without digests (format ``mythzoo-game/1``) binds no decision: its
replay checks legality and the result only (``ReplayResult.bound`` is False).
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
from mythzoo.text import printable


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
    effects: list[str] | None = None  # what ``action`` changed (``narrate=True`` only)


CLEAR = "\x1b[H\x1b[2J"  # ANSI: cursor home, clear the screen (a terminal redraws the frame in place)


def _close(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b))


def iter_replay(record: GameRecord, render: bool = True, seat: int | None = None, narrate: bool = False) -> Iterator[ReplayStep]:
    """Re-play ``record`` from its seed and actions, yielding a frame before each action and one at
    the end. ``narrate``: each action's frame also carries ``effects``, what it changed (the game's
    view narration), and is yielded once the action has been played. Raises :class:`ReplayError` on an illegal action (unless the record says the game ended
    by it), on a record longer or shorter than the game, or on final rewards/scores that differ.
    ``seat``: whose view to render (default: the player to move)."""
    env = _make_env(record)
    u = env.unwrapped
    config = dict(getattr(u, "config", {}) or {})
    if record.env_config and config != record.env_config:
        raise ReplayError(f"the env's config {_short(config)} differs from the record's {_short(record.env_config)}")
    agents = list(u.possible_agents)
    if record.num_players != len(agents):
        raise ReplayError(f"the record has {record.num_players} seats but {record.env} {_short(record.env_kwargs)} has {len(agents)}")
    if record.agents and list(record.agents) != agents:
        raise ReplayError(f"the record's agents {_short(record.agents)} are not the env's {agents}")
    for name in ("refs", "labels", "policy_seeds"):
        value = getattr(record, name)
        if value is not None and len(value) != len(agents):
            raise ReplayError(f"the record's {name} has {len(value)} entries for {len(agents)} seats")
    if record.seed is not None and not (isinstance(record.seed, int) and not isinstance(record.seed, bool) and record.seed >= 0):
        raise ReplayError(f"the record's seed {record.seed!r} is not a non-negative integer")
    digests = record.digests
    # The runner's bookkeeping, filled afresh (the record being checked is never touched).
    game = GameInProgress(env, Table(GameRecord(record.env, record.env_kwargs, record.num_players, record.seed, record.refs,
                                                record.policy_seeds), ()))
    view = None
    if narrate:
        from mythzoo.viewer.session import ViewerError, view_module

        try:
            view = view_module(env)
        except ViewerError:
            view = None
    k = 0
    while (d := game.next_decision(0)) is not None:
        agent = d.agent
        if k >= len(record.actions):
            if record.finished:
                raise ReplayError(f"the record ends after {k} decisions but the game goes on ({agent} to move)")
            if digests is not None and len(digests) != k:
                raise ReplayError(f"the record has {len(digests)} decision digests for {k} actions")
            yield ReplayStep(k, agent, None, None, u.render_text(seat) if render else None)
            return
        action = record.actions[k]
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < len(d.mask):
            raise ReplayError(f"decision {k}: action {action!r} is outside {agent}'s action space")
        if not d.mask[action]:
            ill = record.illegal or {}
            if not (ill.get("decision") == k and ill.get("action") == action and ill.get("seat") == d.seat):
                raise ReplayError(f"decision {k}: action {action} ({u.action_label(action)}) is not legal for {agent}")
        step = ReplayStep(k, agent, action, u.action_label(action), u.render_text(seat) if render else None)
        if not narrate:
            yield step
        before = view.view_model(u.rules, u.state_, seat) if view is not None else None
        game.apply(d, action, None)
        if narrate:
            step.effects = view.narrate(before, view.view_model(u.rules, u.state_, seat)) if view is not None else []
            yield step
        if digests is not None and k >= len(digests):
            raise ReplayError(f"decision {k}: the record has {len(digests)} decision digests for {len(record.actions)} actions")
        if digests is not None and game.record.digests[k] != digests[k]:
            raise ReplayError(f"decision {k}: the digest differs from the record's: the action ({action}, {u.action_label(action)}) "
                              "or the position before it is not the one recorded")
        k += 1
    if k < len(record.actions):
        raise ReplayError(f"the game ended after {k} decisions but the record has {len(record.actions)} actions")
    if digests is not None and len(digests) != k:
        raise ReplayError(f"the record has {len(digests)} decision digests for {k} actions")
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


def _short(value: object) -> str:
    text = ascii(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _make_env(record: GameRecord) -> object:
    """The record's env, or a :class:`ReplayError` saying why it cannot be made."""
    from mythzoo.envs import RetiredEnvError, resolve

    if not isinstance(record.env, str):
        raise ReplayError(f"the record's env {_short(record.env)} is not an env name")
    if not isinstance(record.env_kwargs, dict):
        raise ReplayError(f"the record's env_kwargs {_short(record.env_kwargs)} is not an object")
    try:
        resolve(record.env)
    except RetiredEnvError as e:
        raise ReplayError(str(e)) from None
    except KeyError:
        raise ReplayError(f"unknown env {_short(record.env)}") from None
    try:
        return make(record.env, **dict(record.env_kwargs))
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        raise ReplayError(f"cannot make {record.env} with {_short(record.env_kwargs)}: {' '.join(str(e).split())}") from None


@dataclass
class ReplayResult:
    """What a successful replay found. ``bound``: the record has decision digests, so every action
    was checked against the game (False for an old record: legality and the result only)."""

    decisions: int
    final_rewards: list[float] | None
    scores: list[float] | None
    finished: bool
    returns: list[float] | None = None
    bound: bool = True


def replay(
    record: GameRecord,
    render: bool = True,
    out: TextIO | None = None,
    step_delay: float = 0.0,
    seat: int | None = None,
    board_every: int = 0,
    redraw: bool | None = None,
) -> ReplayResult:
    """Re-play ``record`` (see :func:`iter_replay`) to ``out`` (stdout) when ``render``, every decision
    narrated with its effect; raises :class:`ReplayError` if it does not match.

    ``redraw`` (default: whether ``out`` is a terminal): each decision is one frame, the table before
    it and what it did, drawn in place (ANSI clear and home between frames; ``step_delay`` seconds
    each). Otherwise plain lines: the table at the start, one narrated line per decision (its effects
    below it), the table again every ``board_every`` decisions (0: never) and at the end."""
    out = out or sys.stdout
    if redraw is None:
        isatty = getattr(out, "isatty", None)
        redraw = bool(isatty and isatty())
    labels = [printable(x) for x in (record.labels or record.refs)]  # text from a file, printed escaped
    last: ReplayStep | None = None
    total = len(record.actions)
    for step in iter_replay(record, render=render, seat=seat, narrate=render):
        last = step
        if not render:
            continue
        if step.action is None:  # the end (or where an unfinished record stops)
            out.write((CLEAR if redraw else "\n") + step.text + "\n")
            out.flush()
            continue
        who = labels[record.agents.index(step.agent)] if step.agent in record.agents else "?"
        line = f"[{step.decision + 1}/{total}] {step.agent} ({who}) plays {step.label}"
        effects = "".join(f"     -> {e}\n" for e in step.effects or [])
        if redraw:
            out.write(CLEAR + step.text + "\n\n" + line + "\n" + effects)
        else:
            if step.decision == 0 or (board_every > 0 and step.decision % board_every == 0):
                out.write(("\n" if step.decision else "") + step.text + "\n\n")
            out.write(line + "\n" + effects)
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
                        last.returns if done else None, record.digests is not None)

