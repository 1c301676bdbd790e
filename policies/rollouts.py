"""A policy with search where the game turns: ``rollouts:W:<ref>``, a base policy whose choices at
the game's search points are re-decided by paired rollouts over ``W`` sampled worlds
(``rollouts:WwK:<ref>``: a window ``K`` other than the game's default; ``rollouts:W+M:<ref>``: ``M``
more worlds for a close call).

The search points, by game (``SEARCH_POINTS``):

- Mythic Baths, the endgame: some player is at most ``K`` treatments (default 2) from the number
  that begins the last round, or the last round has begun. Its one network plays every seat of
  the rollouts; the outcome is the seat's win share.
- Mythwind: the Innkeeper, the day's actions: the character's Operate choice (24 a campaign) and
  each hired worker's choice (which die works which row, or none; about 26 a campaign with
  two or more actions), every day, or with ``wK`` the last ``K`` days only. Over a network base
  only its 3 likeliest actions and its own choice are rolled out (``top_k``; a worker choice has
  about 5 legal actions). The outcome is the campaign's worth (coins and the inn's sale value), the
  score.

Mythsgate has none (its two roles need two policies in the rollouts): it has the ``mcts:N``
search. ``<ref>`` is any policy that acts from observations: a checkpoint
(``rollouts:16:mythic_baths_v1-ppo-champion``, ``rollouts:16:58420b1021e4``), a code ref or
``heuristic``/``random``; not a search (``mcts:N``) nor another ``rollouts:``.

How a decision is made (``docs/search.md``, "Search in the endgame"):

- away from a search point, or with one legal action, the base policy's choice, and nothing searched;
- at a search point, ``W`` worlds consistent with what the seat knows are drawn
  (``rules.resample_hidden``); in each, every legal action is played and then the base policy
  plays every seat to the end, all games in lockstep (one ``act_batch`` call per step);
- the base policy's choice changes only for an action whose outcome, paired world by world,
  beats it by more than two standard errors (the largest such gain wins);
- with ``+M``, a close call (no action past two standard errors, but some ahead of the base's
  choice) draws ``M`` more worlds for the actions ahead and the choice, and decides again, by the
  same rule, over all ``W + M`` worlds: extra work only where the choice is in doubt.

Its choices depend only on what the seat may know and its seed (tested), as ``mcts:N``'s do. With
the shipped champion as the base, 16 worlds lift the win rate against heuristic opponents from 81.0%
to 87.7% at two players, 70.1% to 82.4% at three (88.1% with ``rollouts:16+16w3``) and 54.7% to 73.2%
at four, over 1,000 games each (``docs/results.md``); an endgame decision takes about 0.1 s at two
players and 0.2 s at three and four (0.33 s with window 3, 0.6 s with close calls too). Over the shipped Innkeeper champion
(0.957x the heuristic's net coins alone), 16 worlds make 1.107x the heuristic's over 240 campaigns,
at about 16 s of one core a campaign (searching the Operate choice alone: 1.043x; ``docs/results.md``). The
network's matrix products are small: one BLAS thread (``OPENBLAS_NUM_THREADS=1``) runs them several
times faster than two (``mythzoo.threads``).
"""

from __future__ import annotations

import copy
import math
from typing import Any, Callable, NamedTuple

import numpy as np

from mythzoo.policies.base import BasePolicy, live_env_agent

__all__ = ["DEFAULT_WINDOW", "INNKEEPER_TOP_K", "ROLLOUTS_PREFIX", "SEARCH_POINTS", "EndgameRollouts", "RolloutsRef", "RolloutsRefError",
           "SearchPoints", "is_rollouts_ref", "parse_rollouts_ref"]

ROLLOUTS_PREFIX = "rollouts"
DEFAULT_WINDOW = 2  # Mythic Baths' endgame: two treatments before the last round
INNKEEPER_TOP_K = 3  # a worker choice has about 5 legal actions: its 3 likeliest keep its search near an Operate choice's cost
MAX_WORLDS = 4096
MAX_WINDOW = 99
_USAGE = (f"expected rollouts:W:REF, rollouts:W+M:REF, rollouts:WwK:REF or rollouts:W+MwK:REF (W sampled worlds per searched "
          f"decision, 2 to {MAX_WORLDS}; M more worlds for a close call, 1 to {MAX_WORLDS}; K the "
          f"window, 0 to {MAX_WINDOW}: in Mythic Baths the treatments before the last round, default {DEFAULT_WINDOW}, in the "
          "Innkeeper the last K days, default every day; REF the base policy: a checkpoint, a code ref, heuristic or random), "
          "e.g. rollouts:16:mythic_baths_v1-ppo-champion, rollouts:16+16:67d34159c98a or rollouts:16w3:heuristic")


class RolloutsRefError(ValueError):
    """A malformed ``rollouts:`` ref, a base that cannot be rolled out, or a game without an endgame
    rule: one line, naming it."""


class RolloutsRef(NamedTuple):
    """The parts of ``rollouts:W[+M][wK]:REF``: worlds, window (None: the game's default), base ref,
    and the more worlds a close call gets (0: none)."""

    worlds: int
    window: int | None
    base: str
    more: int = 0

    def settings(self) -> str:
        """``W``, then ``+M`` when close calls get more worlds and ``wK`` when a window is given."""
        return f"{self.worlds}" + (f"+{self.more}" if self.more else "") + ("" if self.window is None else f"w{self.window}")

    def with_base(self, base: str) -> str:
        """The same search over another base ref (a checkpoint pinned to its id, say)."""
        return f"{ROLLOUTS_PREFIX}:{self.settings()}:{base}"


def is_rollouts_ref(ref: Any) -> bool:
    """True for text that names the endgame-rollouts policy (``rollouts`` with or without arguments)."""
    if not isinstance(ref, str):
        return False
    head, _, _ = ref.strip().partition(":")
    return head == ROLLOUTS_PREFIX


def parse_rollouts_ref(ref: str) -> RolloutsRef:
    """``RolloutsRef(worlds, window, base)`` for ``rollouts:W:REF`` or ``rollouts:WwK:REF`` (``window``
    None without ``wK``: the game's default); :class:`RolloutsRefError` (one line) otherwise."""
    parts = ref.strip().split(":", 2)
    if len(parts) != 3 or parts[0] != ROLLOUTS_PREFIX or not parts[2].strip():
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: {_USAGE}")
    settings, base = parts[1], parts[2].strip()
    worlds, has_window, k = settings.partition("w")
    w, has_more, m = worlds.partition("+")
    if not w.isdigit() or not 2 <= int(w) <= MAX_WORLDS:
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: the worlds {w!r} are not an integer from 2 to {MAX_WORLDS}; {_USAGE}")
    if has_more and (not m.isdigit() or not 1 <= int(m) <= MAX_WORLDS):
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: the more worlds {m!r} are not an integer from 1 to {MAX_WORLDS}; {_USAGE}")
    if has_window and (not k.isdigit() or int(k) > MAX_WINDOW):
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: the window {k!r} is not an integer from 0 to {MAX_WINDOW}; {_USAGE}")
    return RolloutsRef(int(w), int(k) if has_window else None, base, int(m) if has_more else 0)


class SearchPoints(NamedTuple):
    """Where a game's rollouts search: ``at(rules, state, window)`` is true at a searched decision
    (``window`` None: the game's whole default); ``default_window`` is what no ``wK`` means;
    ``top_k`` (None: every legal action) limits the actions rolled out to the base policy's ``top_k``
    most likely and its own choice, where the base gives probabilities (``action_probs``)."""

    at: Callable[[Any, Any, int | None], bool]
    default_window: int | None
    top_k: int | None = None


def _mythic_baths_endgame(rules: Any, s: Any, window: int | None) -> bool:
    window = DEFAULT_WINDOW if window is None else window
    return s.final_trigger >= 0 or max(len(c) for c in s.collected) >= rules.threshold - window


def _innkeeper_day_actions(rules: Any, s: Any, window: int | None) -> bool:
    # the day's actions: the character's one Operate choice and each hired worker's (which die works
    # which row, or none): what the inn does that day; the rest of a day follows from them
    from mythzoo.envs.mythwind_innkeeper.rules import P_OPERATE, P_WORKER

    return (s.phase == P_OPERATE or s.phase == P_WORKER) and (window is None or rules.total_days() - s.turn <= window)


# The games with search points, by env name (the base name, without its version).
SEARCH_POINTS: dict[str, SearchPoints] = {
    "mythic_baths": SearchPoints(_mythic_baths_endgame, DEFAULT_WINDOW),
    "mythwind_innkeeper": SearchPoints(_innkeeper_day_actions, None, INNKEEPER_TOP_K),
}


def _switch(actions: list[int], choice: int, shares: np.ndarray) -> tuple[int, list[int]]:
    """The action to play, given each action's outcomes (rows of ``shares``, paired by world): the
    one whose mean gain over ``choice`` is largest among those past two standard errors, else
    ``choice``; and the actions whose mean gain is above zero (ahead, perhaps by chance)."""
    mine = shares[actions.index(choice)]
    best, best_gain, ahead = choice, 0.0, []
    for j, a in enumerate(actions):
        if a == choice:
            continue
        d = shares[j] - mine
        mean, se = float(d.mean()), float(d.std(ddof=1)) / math.sqrt(d.size)
        if mean > 2 * se and mean > best_gain:
            best, best_gain = a, mean
        if mean > 0:
            ahead.append(a)
    return best, ahead


def _game(env: Any) -> str:
    from mythzoo import envs

    return envs.spec(env.unwrapped.env_name).name


class EndgameRollouts(BasePolicy):
    """``base``, with its choices at the game's search points (Mythic Baths' endgame, the
    Innkeeper's daily Operate and worker choices) re-decided by ``worlds`` paired rollouts per legal action.

    Built as ``EndgameRollouts(env, base, worlds=16, window=None, seed=0, more_worlds=0)``
    (``window`` None: the game's default; ``more_worlds``: the ``M`` of ``rollouts:W+M``) or through
    a ref (:func:`mythzoo.policies.refs.load_policy` ``("rollouts:16:<checkpoint>", env)``). Like the
    search baselines it decides from the game it plays in: mythzoo's game loops call
    :meth:`act_in_env` with the live env; :meth:`act` works on the env it was built with.
    ``asked``, ``extended`` and ``changed`` count the decisions searched, the close calls given more
    worlds, and the decisions whose choice changed.
    """

    def __init__(self, env: Any, base: Any, worlds: int = 16, window: int | None = None, seed: int | None = None,
                 base_name: str | None = None, more_worlds: int = 0):
        from mythzoo import envs

        game = _game(env)
        if game not in SEARCH_POINTS:
            raise RolloutsRefError(f"rollouts: is for {' and '.join(sorted(SEARCH_POINTS))} (one policy plays every seat of its "
                                   f"rollouts); {env.unwrapped.env_name} has none: use the search, mcts:N")
        if type(worlds) is not int or not 2 <= worlds <= MAX_WORLDS:
            raise RolloutsRefError(f"worlds must be an int from 2 to {MAX_WORLDS} (a paired standard error needs two), got {worlds!r}")
        if type(more_worlds) is not int or not 0 <= more_worlds <= MAX_WORLDS:
            raise RolloutsRefError(f"more_worlds must be an int from 0 to {MAX_WORLDS}, got {more_worlds!r}")
        if window is not None and (type(window) is not int or not 0 <= window <= MAX_WINDOW):
            raise RolloutsRefError(f"window must be None or an int from 0 to {MAX_WINDOW}, got {window!r}")
        if callable(getattr(base, "act_in_env", None)):
            raise RolloutsRefError(f"rollouts: cannot roll out {getattr(base, 'name', type(base).__name__)}: its base must act from "
                                   "observations (a checkpoint, a code ref, heuristic or random), not decide from the game")
        points = SEARCH_POINTS[game]
        window = points.default_window if window is None else window
        self.env, self.base, self.worlds, self.window, self.more_worlds = env, base, worlds, window, more_worlds
        self.search_point = points.at
        self.top_k = points.top_k if callable(getattr(base, "action_probs", None)) else None
        self.solo = envs.spec(env.unwrapped.env_name).kind == "solo"
        label = base_name or getattr(base, "checkpoint_id", None) or getattr(base, "name", None) or type(base).__name__
        # the game's default window is not written, so one policy has one name
        self.name = RolloutsRef(worlds, None if window == points.default_window else window, "", more_worlds).with_base(str(label))
        self.rng = np.random.default_rng(seed)
        self.asked = self.changed = self.extended = 0
        self._lanes: list[Any] = []  # observer copies, one per rollout: see _observer_lanes
        self._lanes_of: Any = None

    def reseed(self, seed: int | None) -> None:
        """Restart the policy's generator from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def in_endgame(self, s: Any) -> bool:
        """Whether state ``s`` is at one of the game's search points (the rules in the module docstring)."""
        return bool(self.search_point(self.env.unwrapped.rules, s, self.window))

    # ------------------------------------------------------------ acting
    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """The choice in the env this policy was built with (its agent to move)."""
        return self.act_in_env(self.env, live_env_agent(self.name, self.env, observation, action_mask, agent))

    def act_in_env(self, env: Any, agent: str) -> int:
        """The choice for ``agent`` (to move) in ``env``: the base policy's, or at a search point the rollouts'."""
        u = env.unwrapped
        rules, s0 = u.rules, u.state_
        seat = u._seat[agent]
        legal = [int(a) for a in rules.legal_actions(s0)]
        if not legal:
            raise ValueError(f"{agent} has no legal action (is it to move?)")
        mask = np.zeros(u.action_space(agent).n, dtype=np.int8)
        mask[legal] = 1
        choice = int(self.base.act(u.observer.observation(s0, seat), mask, agent))
        if len(legal) == 1 or not self.search_point(rules, s0, self.window):
            return choice
        self.asked += 1
        if self.top_k is not None and len(legal) > self.top_k:
            probs = self.base.action_probs(u.observer.observation(s0, seat)[None], mask[None])[0]
            likely = set(np.argsort(-probs, kind="stable")[: self.top_k].tolist()) | {choice}
            legal = [a for a in legal if a in likely]
        shares = self._rollouts(u, s0, seat, legal, self.worlds)
        best, ahead = _switch(legal, choice, shares)
        if best == choice and ahead and self.more_worlds:
            # A close call: some action is ahead of the base's choice, but not by two standard errors.
            # More worlds for those actions and the choice alone, judged over all the worlds.
            self.extended += 1
            keep = [choice] + ahead
            more = self._rollouts(u, s0, seat, keep, self.more_worlds)
            shares = np.concatenate([shares[[legal.index(a) for a in keep]], more], axis=1)
            best, _ = _switch(keep, choice, shares)
        self.changed += best != choice
        return best

    def _rollouts(self, u: Any, s0: Any, seat: int, actions: list[int], n: int) -> np.ndarray:
        """``seat``'s outcomes of each action (rows) in ``n`` fresh sampled worlds (columns), paired."""
        rules = u.rules
        worlds = [rules.resample_hidden(s0, seat, int(x)) for x in self.rng.integers(0, 2**62, size=n)]
        states = []
        for a in actions:
            for w in worlds:
                s = rules.clone(w)
                rules.apply(s, a)
                states.append(s)
        return self.outcomes(u, states, seat).reshape(len(actions), n)

    def outcomes(self, u: Any, states: list[Any], seat: int) -> np.ndarray:
        """``seat``'s outcome at the end of each state (``u``: the unwrapped env), every state played
        on by the base policy in every seat, in lockstep: its win share (a game cut by the turn cap
        scores 0, as in the env), or in a solo game its score."""
        rules, cap = u.rules, u.max_turns
        lanes = self._observer_lanes(u.observer, len(states))
        n_actions = u.action_space(u.possible_agents[0]).n
        live = list(range(len(states)))
        while live:
            obs, masks, moving = [], [], []
            for i in live:
                s = states[i]
                if rules.is_over(s) or (cap is not None and rules.turns_played(s) >= cap):
                    continue
                mask = np.zeros(n_actions, dtype=np.int8)
                mask[rules.legal_actions(s)] = 1
                obs.append(lanes[i].observation(s, rules.current_player(s)))
                masks.append(mask)
                moving.append(i)
            if not moving:
                break
            for i, a in zip(moving, self.base.act_batch(np.stack(obs), np.stack(masks))):
                rules.apply(states[i], int(a))
            live = moving
        out = np.zeros(len(states))
        for i, s in enumerate(states):
            if self.solo:
                out[i] = float(rules.scores(s)[seat])
            elif rules.is_over(s):
                w = rules.winners(s)
                out[i] = 1.0 / len(w) if seat in w else 0.0
        return out

    def _observer_lanes(self, observer: Any, n: int) -> list[Any]:
        """``n`` copies of ``observer``, one per rollout. An observer caches the pieces of the last state
        it encoded, which makes the next observation of the same game cheap; rollouts played in
        lockstep would evict them at every call, so each rollout keeps its own copy (a copy is
        made with empty caches, through the observer's ``__setstate__``). Kept across decisions."""
        if self._lanes_of is not observer:
            self._lanes, self._lanes_of = [], observer
        while len(self._lanes) < n:
            self._lanes.append(copy.copy(observer))
        return self._lanes
