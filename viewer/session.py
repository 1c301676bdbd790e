"""The games the viewer shows: a recorded game stepped frame by frame, or a live game against policies.

A session keeps one snapshot of the game's state per decision (the position before it) and one at
the end, so any frame can be drawn from any seat's view without replaying. Each game's view module
(``envs/<game>/view.py``, found beside the env's module) turns a state into the JSON view model the
page draws, names the board element an action points at and narrates what a decision changed.
"""

from __future__ import annotations

import importlib
import re
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from mythzoo.envs import make, resolve, spec
from mythzoo.evaluation.records import HUMAN, GameRecord
from mythzoo.evaluation.runner import Decision, GameInProgress, Table


class ViewerError(ValueError):
    """A request the viewer cannot serve: a frame out of range, an illegal action, an env without a view."""


def view_module(env: Any) -> ModuleType:
    """The view module of ``env``'s game (``envs/<game>/view.py``, beside its env module)."""
    package = type(env.unwrapped).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.view")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.view":
            raise
        raise ViewerError(f"{env.unwrapped.env_name} has no browser view ({package}.view)") from None


@dataclass
class Frame:
    """One position: the state before decision ``index`` (the final one: ``agent`` None)."""

    index: int
    state: Any
    agent: str | None = None
    seat: int | None = None
    action: int | None = None  # the decision taken from here (None at the end, or not yet taken)
    label: str | None = None


@dataclass
class LogEntry:
    """One decision, narrated: who took it, its label and what it changed."""

    index: int
    agent: str
    seat: int
    label: str
    effects: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "agent": self.agent, "seat": self.seat, "label": self.label, "effects": self.effects}


class Session:
    """Frames, their views and their narration; :class:`ReplaySession` and :class:`LiveSession` fill them."""

    mode = "replay"

    def __init__(self, record: GameRecord):
        self.record = record
        self.env = make(record.env, **record.env_kwargs)
        self.u = self.env.unwrapped
        self.view = view_module(self.env)
        self.game = GameInProgress(self.env, Table(record, range(record.num_players)))
        self.agents = list(self.u.possible_agents)
        self.frames: list[Frame] = []
        self.log: list[LogEntry] = []
        self.lock = threading.Lock()  # one request at a time changes or reads the frames
        self.pending: Decision | None = None
        self._views: dict[int, dict[str, Any]] = {}  # omniscient view model per frame (narration)

    # ---------------------------------------------------------------- stepping
    def _snapshot(self, decision: Decision | None) -> None:
        s = self.u.rules.clone(self.u.state_)
        if decision is None:
            self.frames.append(Frame(len(self.frames), s))
        else:
            self.frames.append(Frame(len(self.frames), s, decision.agent, decision.seat))

    def _next(self) -> Decision | None:
        """The next decision (snapshotting its position), or None once the game is over."""
        d = self.game.next_decision(0)
        self._snapshot(d)
        self.pending = d
        return d

    def _apply(self, action: int) -> None:
        """Play ``action`` for the pending decision and narrate it."""
        d = self.pending
        assert d is not None
        frame = self.frames[-1]
        frame.action, frame.label = action, self.u.action_label(action, d.agent)
        self.game.apply(d, action, None)
        self.pending = None
        self._next()
        before, after = self.view_model(frame.index, None), self.view_model(frame.index + 1, None)
        self.log.append(LogEntry(frame.index, d.agent, d.seat, frame.label, self.view.narrate(before, after)))

    # ---------------------------------------------------------------- reading
    def view_model(self, i: int, seat: int | None) -> dict[str, Any]:
        """Frame ``i``'s view model from ``seat`` (None: every hand)."""
        if not 0 <= i < len(self.frames):
            raise ViewerError(f"frame {i} is outside 0-{len(self.frames) - 1}")
        if seat is None and i in self._views:
            return self._views[i]
        vm = self.view.view_model(self.u.rules, self.frames[i].state, seat)
        if seat is None:
            self._views[i] = vm
        return vm

    def allowed_seat(self, seat: int | None) -> int | None:
        """The view a request may have: any seat or all in a replay."""
        if seat is not None and not 0 <= seat < len(self.agents):
            raise ViewerError(f"seat {seat} is outside 0-{len(self.agents) - 1}")
        return seat

    def legal(self, i: int) -> list[dict[str, Any]]:
        """The legal actions a person may click at frame ``i`` (none in a replay)."""
        return []

    def text(self, i: int, seat: int | None) -> str:
        """Frame ``i`` as the game's text render (from ``seat``, the mover's or seat 0 for None)."""
        f = self.frames[i]
        return self.view.text(self.u.rules, f.state, seat if seat is not None else (f.seat if f.seat is not None else 0))

    def meta(self) -> dict[str, Any]:
        """What the page shows once: the game, its seats and who plays them, the mode."""
        r = self.record
        return {
            "mode": self.mode, "env": r.env, "game": self.view.__name__.split(".")[-2], "title": spec(r.env).title,
            "agents": self.agents, "labels": list(r.labels or r.refs), "roles": [self.u.agent_role(a) for a in self.agents],
            "seed": r.seed, "frames": len(self.frames), "finished": r.finished, "final_rewards": r.final_rewards,
            "scores": r.scores, "human_seat": None, "saved": None,
        }

    def frame(self, i: int, seat: int | None) -> dict[str, Any]:
        """Frame ``i`` from ``seat``: its view model, the decision taken there, the text render, the legal actions."""
        seat = self.allowed_seat(seat)
        vm = self.view_model(i, seat)
        f = self.frames[i]
        return {"index": i, "frames": len(self.frames), "agent": f.agent, "seat": f.seat, "action": f.action, "label": f.label,
                "view": vm, "text": self.text(i, seat), "legal": self.legal(i), "finished": self.record.finished,
                "final_rewards": self.record.final_rewards if i == len(self.frames) - 1 else None}


class ReplaySession(Session):
    """A recorded game: checked by replaying it (:func:`~mythzoo.evaluation.replay.iter_replay`), then
    stepped once more to keep every position."""

    mode = "replay"

    def __init__(self, record: GameRecord):
        from mythzoo.evaluation.replay import iter_replay

        for _ in iter_replay(record, render=False):  # a ReplayError (a ValueError) for a record that does not replay
            pass
        fresh = GameRecord(record.env, record.env_kwargs, record.num_players, record.seed, record.refs, record.policy_seeds,
                           labels=record.labels, digests=None)
        super().__init__(fresh)
        self.original = record
        d = self._next()
        for action in record.actions:
            if d is None:
                break
            self._apply(action)
            d = self.pending
        self.record.finished = record.finished and self.record.finished


class LiveSession(Session):
    """A person in one seat against policies in the others: the policies move until it is the
    person's turn; :meth:`act` plays the person's choice. Only the person's view is served."""

    mode = "live"

    def __init__(self, env_name: str, vs: Sequence[str] = (), seat: int | None = None, seed: int | None = None, *,
                 role: str | None = None, env_kwargs: dict[str, Any] | None = None, registry: Any = None, save: str | None = None):
        from mythzoo.evaluation import ROLES, seat_seeds
        from mythzoo.evaluation.loading import name_policies
        from mythzoo.training.play_cli import plan_seats

        env_name = resolve(env_name)
        game_spec = spec(env_name)
        roles = list(make(env_name, **game_spec.size_kwargs(None, env_kwargs)).unwrapped.roles()) if vs else []
        named = name_policies(vs, roles if game_spec.kind == ROLES else ())
        kw, labels, seat = plan_seats(env_name, named.refs, seat, role, env_kwargs)
        if seed is None:
            seed = secrets.randbelow(2**31)
        n = len(labels)
        refs = [lab if lab == HUMAN or game_spec.kind != ROLES else lab.split(":", 1)[1] for lab in labels]
        pseeds = [None if r == HUMAN else ps for r, ps in zip(refs, seat_seeds(seed, n))]
        labels = [re.sub(r"<object:(.+)>", r"\1", lab) for lab in labels]
        super().__init__(GameRecord(env_name, kw, n, int(seed), refs, pseeds, labels=labels))
        self.human_seat = seat
        self.save_path = save
        self.saved: str | None = None
        self.policies = [None if r == HUMAN else named.loader(r, self.env, registry, ps) for r, ps in zip(refs, pseeds)]
        self._next()
        self._advance()

    def _advance(self) -> None:
        """Let the policies play until the person is to move or the game is over (then save it)."""
        while (d := self.pending) is not None and d.seat != self.human_seat:
            self._apply(int(self.policies[d.seat].act(d.observation, d.mask, d.agent)))
        if self.pending is None and self.save_path:
            self.save()

    def allowed_seat(self, seat: int | None) -> int | None:
        """Always the person's seat: a live game never shows the other hands."""
        return self.human_seat

    def legal(self, i: int) -> list[dict[str, Any]]:
        """The person's legal actions at the current frame: id, label and the board element it points at."""
        d = self.pending
        if d is None or i != len(self.frames) - 1:
            return []
        table = self.u.action_table(d.agent)
        out = []
        for a in self.u.legal_actions(d.agent):
            name, arg = table.decode(a)
            out.append({"action": int(a), "label": self.u.action_label(a, d.agent), "range": name, "target": self.view.action_target(name, arg)})
        return out

    def act(self, action: Any) -> None:
        """Play the person's ``action`` (a legal id), then the policies' moves up to the person's next turn."""
        d = self.pending
        if d is None:
            raise ViewerError("the game is over")
        if not isinstance(action, int) or isinstance(action, bool) or action not in self.u.legal_actions(d.agent):
            raise ViewerError(f"action {action!r} is not one of {d.agent}'s legal actions")
        self._apply(action)
        self._advance()

    def save(self) -> str:
        """Write the record (finished or not) to the save path; returns it."""
        if not self.save_path:
            raise ViewerError("this game has no save path (started with --no-save)")
        self.record.save(self.save_path)
        self.saved = self.save_path
        return self.save_path

    def meta(self) -> dict[str, Any]:
        m = super().meta()
        m.update(human_seat=self.human_seat, saved=self.saved, save_path=self.save_path)
        return m
