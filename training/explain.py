"""Terminal play and replays that explain themselves: each decision narrated with its effect, a
legend for the text render's abbreviations, and a rules reminder for the phase being played.

The narration reuses each game's view module (``envs/<game>/view.py``, as the browser viewer does):
``narrate(before, after)`` diffs two view models. A view module may also carry ``LEGEND`` (text:
what every abbreviation and symbol of its render means), ``REMINDERS`` (phase name -> one short
rules reminder) and ``describe(rules, state, name, arg)`` (what an action costs or places, or None);
any it lacks is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _view(env: Any) -> Any:
    from mythzoo.viewer.session import ViewerError, view_module

    try:
        return view_module(env)
    except ViewerError:  # a game without a view module is played unexplained, as before
        return None


class Explainer:
    """Narrates one game on ``env`` as seen from ``seat`` (None: every hand, for a replay).

    Call :meth:`before` with each decision before it is played (who and what) and :meth:`flush`
    once it has been played (or just before the next one is shown): it writes the decision and what
    it changed through ``write``."""

    def __init__(self, env: Any, seat: int | None, write: Callable[[str], None]):
        self.env = env
        self.u = env.unwrapped
        self.seat = seat
        self.write = write
        self.view = _view(env)
        self._pending: tuple[str, dict[str, Any] | None] | None = None

    def model(self) -> dict[str, Any] | None:
        """The current position's view model from this seat (None without a view module)."""
        if self.view is None:
            return None
        return self.view.view_model(self.u.rules, self.u.state_, self.seat)

    def before(self, line: str) -> None:
        """A decision is about to be played: ``line`` says who plays what."""
        self.flush()
        self._pending = (line, self.model())

    def flush(self) -> None:
        """Write the pending decision with the effects it had (nothing if none is pending)."""
        if self._pending is None:
            return
        line, before = self._pending
        self._pending = None
        self.write(line)
        after = self.model()
        if before is not None and after is not None:
            for effect in self.view.narrate(before, after):
                self.write(f"     -> {effect}")

    def legend(self) -> str:
        """What the text render's abbreviations and symbols mean ('' if the game gives none)."""
        return str(getattr(self.view, "LEGEND", "") or "").strip()

    def phase(self) -> str | None:
        """The name of the phase being played (None if the game does not say)."""
        names = getattr(self.u.rules, "PHASE_NAMES", None)
        ph = getattr(self.u.state_, "phase", None)
        if names is None or not isinstance(ph, (int, np.integer)) or not 0 <= ph < len(names):
            return None
        return str(names[ph])

    def reminder(self) -> str | None:
        """A short rules reminder for the current phase, or None."""
        reminders = getattr(self.view, "REMINDERS", None) or {}
        ph = self.phase()
        return reminders.get(ph) if ph is not None else None

    def choice(self, action: int, agent: str | None) -> str:
        """The choice list's line for ``action``: its label, plus what it costs or places when the game says."""
        label = self.u.action_label(action, agent)
        describe = getattr(self.view, "describe", None)
        if describe is None:
            return label
        name, arg = self.u.action_table(agent).decode(action)
        extra = describe(self.u.rules, self.u.state_, name, arg)
        return f"{label}  [{extra}]" if extra else label

    def meaning(self, action: int, agent: str | None) -> str:
        """What the action's kind does, from the game's action table (its documentation line)."""
        table = self.u.action_table(agent)
        name, _ = table.decode(action)
        doc = next((r.doc for r in table.ranges if r.name == name), "")
        return doc

    def help_text(self, legal: list[int], agent: str | None) -> str:
        """``?``: the legend, the phase's reminder and every legal action with one line each."""
        lines = []
        legend = self.legend()
        if legend:
            lines += ["Legend:", *("  " + x for x in legend.splitlines())]
        ph = self.phase()
        if ph is not None:
            lines.append(f"Phase {ph}: {self.reminder() or 'no reminder for this phase'}")
        lines.append("Legal actions:")
        for i, a in enumerate(legal, 1):
            meaning = self.meaning(a, agent)
            lines.append(f"  {i:>3}) {self.choice(a, agent)}" + (f" — {meaning}" if meaning else ""))
        return "\n".join(lines)
