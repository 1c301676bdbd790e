"""Search baselines: single-observer information-set MCTS (SO-ISMCTS) over ``resample_hidden``.

Named ``mcts:N`` (random rollouts) or ``mcts:N:heuristic`` (the game's heuristic plays the
rollouts), ``ismcts:`` being an alias; ``N`` is the number of simulations per decision. See
``docs/search.md`` for the algorithm and the choice behind it.

Each simulation draws a world consistent with what the searching seat knows (the rules'
``resample_hidden(state, seat, seed)``: other hands, deck orders and the future draws redrawn),
then walks one tree shared by every simulation, keyed by the action sequence from the decision.
A node's children are the actions legal in the world drawn; UCB1 counts a child's *availability*
(the simulations in which it was legal) instead of its parent's visits, as SO-ISMCTS does. Every
node keeps the vector of returns, one per seat, and each seat selects by its own component, so
free-for-all games of any size are searched the same way. Rollouts run on the rules engine
directly (no AEC wrapper, no observation unless the heuristic plays them).

Returns are the game's utility: the env's end-of-game rewards for a competitive game (win/loss in
the default reward modes; a truncated game is 0 for all), and for a solo game its score over the
spec's ``search_scale`` (so UCB's exploration constant means the same thing).

The search reads the env's game state to act, but only through ``resample_hidden`` for its own
seat: its choices are a function of what the seat may know and the seed (tested).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from mythzoo.policies.base import BasePolicy, live_env_agent

__all__ = ["SEARCH_PREFIXES", "SearchPolicy", "SearchRefError", "is_search_ref", "parse_search_ref"]

SEARCH_PREFIXES = ("mcts", "ismcts")
ROLLOUTS = ("random", "heuristic")
MAX_BUDGET = 1_000_000
DEFAULT_EXPLORATION = 1.4  # about sqrt(2): UCB1's constant for returns spanning [-1, 1]
_SEARCH_RE = re.compile(r"^(?:mcts|ismcts)(?::|$)")


class SearchRefError(ValueError):
    """A malformed search name (``mcts:abc``, ``mcts:0``, ``mcts:5:nope``): one line, naming it."""


def is_search_ref(ref: Any) -> bool:
    """True for text that names the search baseline (``mcts``/``ismcts``, with or without arguments)."""
    return isinstance(ref, str) and _SEARCH_RE.match(ref.strip()) is not None


def parse_search_ref(ref: str) -> tuple[int, str]:
    """``(simulations per decision, rollout policy)`` for ``mcts:N`` or ``mcts:N:ROLLOUT``.

    Raises :class:`SearchRefError` (one line) for anything else."""
    text = ref.strip()
    usage = f"expected mcts:N or mcts:N:ROLLOUT (N simulations per decision, 1 to {MAX_BUDGET}; ROLLOUT one of {', '.join(ROLLOUTS)})"
    parts = text.split(":")
    if parts[0] not in SEARCH_PREFIXES or len(parts) not in (2, 3):
        raise SearchRefError(f"bad search policy {ref!r}: {usage}")
    n = parts[1]
    if not n.isdigit() or not 1 <= int(n) <= MAX_BUDGET:
        raise SearchRefError(f"bad search policy {ref!r}: the budget {n!r} is not an integer from 1 to {MAX_BUDGET}; {usage}")
    rollout = parts[2] if len(parts) == 3 else "random"
    if rollout not in ROLLOUTS:
        raise SearchRefError(f"bad search policy {ref!r}: unknown rollout policy {rollout!r}; {usage}")
    return int(n), rollout


class _Node:
    """One action sequence from the decision: visits, availability and the summed return per seat."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, seats: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * seats


class SearchPolicy(BasePolicy):
    """SO-ISMCTS with ``budget`` simulations per decision and random or heuristic rollouts.

    Built as ``SearchPolicy(env, seed, budget=..., rollout=...)`` for any mythzoo env (or through
    a name: :func:`mythzoo.policies.baselines.make_baseline` ``("mcts:200", env)``). It decides
    from the game it plays in: mythzoo's game loops call :meth:`act_in_env` with the live env;
    :meth:`act` works on the env it was built with (one game at a time) and refuses an observation
    that is not that env's.
    """

    def __init__(self, env: Any, seed: int | None = None, budget: int = 100, rollout: str = "random",
                 exploration: float = DEFAULT_EXPLORATION):
        if type(budget) is not int or not 1 <= budget <= MAX_BUDGET:
            raise SearchRefError(f"budget must be an int from 1 to {MAX_BUDGET}, got {budget!r}")
        if rollout not in ROLLOUTS:
            raise SearchRefError(f"unknown rollout policy {rollout!r}; use {', '.join(ROLLOUTS)}")
        if not (isinstance(exploration, (int, float)) and math.isfinite(exploration) and exploration >= 0):
            raise SearchRefError(f"exploration must be a finite number >= 0, got {exploration!r}")
        from mythzoo import envs

        self.env = env
        u = env.unwrapped
        self.spec = envs.spec(u.env_name)
        self.budget = budget
        self.rollout = rollout
        self.exploration = float(exploration)
        self.name = f"mcts:{budget}" + (":heuristic" if rollout == "heuristic" else "")
        self.solo = self.spec.kind == "solo"
        self.scale = float(self.spec.search_scale)
        self._seed = seed
        self.rng = np.random.default_rng(seed)
        self._heuristic = self.spec.heuristic_class()(env, seed) if rollout == "heuristic" else None

    # ------------------------------------------------------------ seeding
    def reseed(self, seed: int | None) -> None:
        """Restart the policy's generator (and its rollout heuristic's) from ``seed``."""
        self._seed = seed
        self.rng = np.random.default_rng(seed)
        if self._heuristic is not None:
            self._heuristic.rng = np.random.default_rng(seed)

    # ------------------------------------------------------------ acting
    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """The search's action in the env this policy was built with (its agent to move)."""
        return self.act_in_env(self.env, live_env_agent(self.name, self.env, observation, action_mask, agent))

    def act_in_env(self, env: Any, agent: str) -> int:
        """The search's action for ``agent`` (to move) in ``env``, from ``budget`` simulations."""
        u = env.unwrapped
        rules, s = u.rules, u.state_
        seat = u._seat[agent]
        legal = rules.legal_actions(s)
        if not legal:
            raise ValueError(f"{agent} has no legal action (is it to move?)")
        if len(legal) == 1:
            return int(legal[0])
        n = len(u.possible_agents)
        root = _Node(n)
        seeds = self.rng.integers(0, 2**63, size=self.budget)
        for k in range(self.budget):
            world = rules.resample_hidden(s, seat, int(seeds[k]))
            self._simulate(u, world, root, n)
        # the most visited action (ties: the better mean for the seat, then the lowest id)
        best = max(sorted(root.children.items()), key=lambda kv: (kv[1].visits, kv[1].total[seat] / max(kv[1].visits, 1)))
        return int(best[0])

    # ------------------------------------------------------------ one simulation
    def _simulate(self, u: Any, s: Any, root: _Node, n: int) -> None:
        rules, rng, c = u.rules, self.rng, self.exploration
        cap = u.max_turns
        path = [root]
        node = root
        while not rules.is_over(s) and not (cap is not None and rules.turns_played(s) >= cap):
            legal = rules.legal_actions(s)
            p = rules.current_player(s)
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                a = untried[int(rng.integers(len(untried)))]
                child = children[a] = _Node(n)
                child.avail = 1
                rules.apply(s, a, checked=True)
                path.append(child)
                break
            best_a, best_v = legal[0], -math.inf
            for a in legal:
                ch = children[a]
                v = ch.total[p] / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if v > best_v:
                    best_a, best_v = a, v
            rules.apply(s, best_a, checked=True)
            node = children[best_a]
            path.append(node)
        self._rollout(u, s)
        ret = self._returns(u, s)
        for nd in path:
            nd.visits += 1
            tot = nd.total
            for i in range(n):
                tot[i] += ret[i]

    def _rollout(self, u: Any, s: Any) -> None:
        rules, rng, cap = u.rules, self.rng, u.max_turns
        heuristic = self._heuristic
        agents = u.possible_agents
        while not rules.is_over(s) and not (cap is not None and rules.turns_played(s) >= cap):
            legal = rules.legal_actions(s)
            if heuristic is None or len(legal) == 1:
                a = legal[int(rng.integers(len(legal)))] if len(legal) > 1 else legal[0]
            else:
                p = rules.current_player(s)
                agent = agents[p]
                mask = np.zeros(u.action_space(agent).n, dtype=np.int8)
                mask[legal] = 1
                a = int(heuristic.act(u.observer.observation(s, p), mask, agent))
            rules.apply(s, a, checked=True)

    def _returns(self, u: Any, s: Any) -> list[float]:
        """The utility of a finished (or truncated) simulated game, one entry per seat."""
        if self.solo:
            return [float(score) / self.scale for score in u.rules.scores(s)]
        if u.rules.is_over(s):
            return [float(r) for r in u._final_rewards(s)]
        return [0.0] * len(u.possible_agents)  # truncated by the turn cap: no winner
