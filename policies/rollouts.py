"""A policy with search in the endgame: ``rollouts:W:<ref>``, a base policy whose endgame choices
are re-decided by paired rollouts over ``W`` sampled worlds (``rollouts:WwK:<ref>``: the endgame
begins ``K`` treatments before the last round instead of 2).

Mythic Baths only (its one network plays every seat of the rollouts; Mythsgate's roles and the
solo Innkeeper have the ``mcts:N`` search). ``<ref>`` is any policy that acts from observations: a
checkpoint (``rollouts:16:mythic_baths_v1-ppo-champion``, ``rollouts:16:58420b1021e4``), a code ref
or ``heuristic``/``random``; not a search (``mcts:N``) nor another ``rollouts:``.

How a decision is made (``docs/search.md``, "Search in the endgame"):

- outside the endgame, or with one legal action, the base policy's choice, and nothing searched;
- the endgame: some player is at most ``window`` treatments (default 2) from the number that
  begins the last round, or the last round has begun;
- there, ``W`` worlds consistent with what the seat knows are drawn (``rules.resample_hidden``);
  in each, every legal action is played and then the base policy plays every seat to the end,
  all games in lockstep (one ``act_batch`` call per step);
- the base policy's choice changes only for an action whose win share, paired world by world,
  beats it by more than two standard errors (the largest such gain wins).

Its choices depend only on what the seat may know and its seed (tested), as ``mcts:N``'s do. With
the shipped champion as the base, 16 worlds lift the win rate against heuristic opponents from 81.0%
to 87.7% at two players, 70.1% to 82.4% at three (83.7% with ``rollouts:16w3``) and 54.7% to 73.2%
at four, over 1,000 games each (``docs/results.md``); an endgame decision takes about 0.1 s at two
players and 0.2 s at three and four (0.33 s with window 3). The network's matrix products are small: one BLAS thread (``OPENBLAS_NUM_THREADS=1``) runs
them several times faster than two (``mythzoo.threads``).
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple

import numpy as np

from mythzoo.policies.base import BasePolicy

__all__ = ["DEFAULT_WINDOW", "ROLLOUTS_PREFIX", "EndgameRollouts", "RolloutsRef", "RolloutsRefError", "is_rollouts_ref",
           "parse_rollouts_ref"]

ROLLOUTS_PREFIX = "rollouts"
DEFAULT_WINDOW = 2
MAX_WORLDS = 4096
MAX_WINDOW = 99
_USAGE = (f"expected rollouts:W:REF or rollouts:WwK:REF (W sampled worlds per endgame decision, 2 to {MAX_WORLDS}; K the "
          f"endgame window in treatments, 0 to {MAX_WINDOW}, default {DEFAULT_WINDOW}; REF the base policy: a checkpoint, a code "
          "ref, heuristic or random), e.g. rollouts:16:mythic_baths_v1-ppo-champion or rollouts:16w3:heuristic")


class RolloutsRefError(ValueError):
    """A malformed ``rollouts:`` ref, a base that cannot be rolled out, or a game without an endgame
    rule: one line, naming it."""


class RolloutsRef(NamedTuple):
    """The parts of ``rollouts:W:REF`` / ``rollouts:WwK:REF``: worlds, endgame window, base ref."""

    worlds: int
    window: int
    base: str

    def settings(self) -> str:
        """``W``, or ``WwK`` when the window is not the default."""
        return f"{self.worlds}" if self.window == DEFAULT_WINDOW else f"{self.worlds}w{self.window}"

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
    """``RolloutsRef(worlds, window, base)`` for ``rollouts:W:REF`` or ``rollouts:WwK:REF``;
    :class:`RolloutsRefError` (one line) otherwise."""
    parts = ref.strip().split(":", 2)
    if len(parts) != 3 or parts[0] != ROLLOUTS_PREFIX or not parts[2].strip():
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: {_USAGE}")
    settings, base = parts[1], parts[2].strip()
    w, has_window, k = settings.partition("w")
    if not w.isdigit() or not 2 <= int(w) <= MAX_WORLDS:
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: the worlds {w!r} are not an integer from 2 to {MAX_WORLDS}; {_USAGE}")
    if has_window and (not k.isdigit() or int(k) > MAX_WINDOW):
        raise RolloutsRefError(f"bad rollouts policy {ref!r}: the window {k!r} is not an integer from 0 to {MAX_WINDOW}; {_USAGE}")
    return RolloutsRef(int(w), int(k) if has_window else DEFAULT_WINDOW, base)


def _mythic_baths_endgame(rules: Any, s: Any, window: int) -> bool:
    return s.final_trigger >= 0 or max(len(c) for c in s.collected) >= rules.threshold - window


# The games with an endgame rule, by env name (the base name, without its version).
ENDGAMES: dict[str, Callable[[Any, Any, int], bool]] = {"mythic_baths": _mythic_baths_endgame}


def _game(env: Any) -> str:
    from mythzoo import envs

    return envs.spec(env.unwrapped.env_name).name


class EndgameRollouts(BasePolicy):
    """``base``, with its endgame choices re-decided by ``worlds`` paired rollouts per legal action.

    Built as ``EndgameRollouts(env, base, worlds=16, window=2, seed=0)`` or through a ref
    (:func:`mythzoo.policies.refs.load_policy` ``("rollouts:16:<checkpoint>", env)``). Like the
    search baselines it decides from the game it plays in: mythzoo's game loops call
    :meth:`act_in_env` with the live env; :meth:`act` works on the env it was built with.
    ``asked`` and ``changed`` count the endgame decisions searched and those whose choice changed.
    """

    def __init__(self, env: Any, base: Any, worlds: int = 16, window: int = DEFAULT_WINDOW, seed: int | None = None,
                 base_name: str | None = None):
        game = _game(env)
        if game not in ENDGAMES:
            raise RolloutsRefError(f"rollouts: is for {', '.join(sorted(ENDGAMES))} (one policy plays every seat of its rollouts); "
                                   f"{env.unwrapped.env_name} has none: use the search, mcts:N")
        if type(worlds) is not int or not 2 <= worlds <= MAX_WORLDS:
            raise RolloutsRefError(f"worlds must be an int from 2 to {MAX_WORLDS} (a paired standard error needs two), got {worlds!r}")
        if type(window) is not int or not 0 <= window <= MAX_WINDOW:
            raise RolloutsRefError(f"window must be an int from 0 to {MAX_WINDOW}, got {window!r}")
        if callable(getattr(base, "act_in_env", None)):
            raise RolloutsRefError(f"rollouts: cannot roll out {getattr(base, 'name', type(base).__name__)}: its base must act from "
                                   "observations (a checkpoint, a code ref, heuristic or random), not decide from the game")
        self.env, self.base, self.worlds, self.window = env, base, worlds, window
        self.endgame = ENDGAMES[game]
        label = base_name or getattr(base, "checkpoint_id", None) or getattr(base, "name", None) or type(base).__name__
        self.name = RolloutsRef(worlds, window, "").with_base(str(label))
        self.rng = np.random.default_rng(seed)
        self.asked = self.changed = 0

    def reseed(self, seed: int | None) -> None:
        """Restart the policy's generator from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def in_endgame(self, s: Any) -> bool:
        """Whether state ``s`` is in the endgame (the rule in the module docstring)."""
        return bool(self.endgame(self.env.unwrapped.rules, s, self.window))

    # ------------------------------------------------------------ acting
    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """The choice in the env this policy was built with (its agent to move)."""
        u = self.env.unwrapped
        if u.state_ is None or not u.agents:
            raise RuntimeError(f"{self.name} decides from the game it plays: its env has no game under way")
        agent = agent if agent is not None else u.agent_selection
        if agent != u.agent_selection:
            raise RuntimeError(f"{self.name} was asked for {agent!r}, but {u.agent_selection!r} is to move in its env")
        mask = np.asarray(action_mask)
        if mask.shape != (u.action_space(agent).n,) or np.flatnonzero(mask).tolist() != list(u.rules.legal_actions(u.state_)) \
                or not np.array_equal(np.asarray(observation, dtype=np.float32), u.observer.observation(u.state_, u._seat[agent])):
            raise RuntimeError(f"{self.name} decides from the game it plays: this observation is not its env's "
                               "(play it through mythzoo's game loops, which pass the live env)")
        return self.act_in_env(self.env, agent)

    def act_in_env(self, env: Any, agent: str) -> int:
        """The choice for ``agent`` (to move) in ``env``: the base policy's, or in the endgame the rollouts'."""
        u = env.unwrapped
        rules, s0 = u.rules, u.state_
        seat = u._seat[agent]
        legal = [int(a) for a in rules.legal_actions(s0)]
        if not legal:
            raise ValueError(f"{agent} has no legal action (is it to move?)")
        mask = np.zeros(u.action_space(agent).n, dtype=np.int8)
        mask[legal] = 1
        choice = int(self.base.act(u.observer.observation(s0, seat), mask, agent))
        if len(legal) == 1 or not self.endgame(rules, s0, self.window):
            return choice
        self.asked += 1
        worlds = [rules.resample_hidden(s0, seat, int(x)) for x in self.rng.integers(0, 2**62, size=self.worlds)]
        states = []
        for a in legal:
            for w in worlds:
                s = rules.clone(w)
                rules.apply(s, a)
                states.append(s)
        shares = self.win_shares(u, states, seat).reshape(len(legal), self.worlds)
        mine = shares[legal.index(choice)]
        best, best_gain = choice, 0.0
        for j, a in enumerate(legal):
            d = shares[j] - mine
            mean, se = float(d.mean()), float(d.std(ddof=1)) / math.sqrt(self.worlds)
            if a != choice and mean > 2 * se and mean > best_gain:
                best, best_gain = a, mean
        self.changed += best != choice
        return best

    def win_shares(self, u: Any, states: list[Any], seat: int) -> np.ndarray:
        """``seat``'s win share at the end of each state (``u``: the unwrapped env), every state played
        on by the base policy in every seat, in lockstep. A game cut by the turn cap scores 0, as in the env."""
        rules, observer, cap = u.rules, u.observer, u.max_turns
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
                obs.append(observer.observation(s, rules.current_player(s)))
                masks.append(mask)
                moving.append(i)
            if not moving:
                break
            for i, a in zip(moving, self.base.act_batch(np.stack(obs), np.stack(masks))):
                rules.apply(states[i], int(a))
            live = moving
        out = np.zeros(len(states))
        for i, s in enumerate(states):
            if rules.is_over(s):
                w = rules.winners(s)
                out[i] = 1.0 / len(w) if seat in w else 0.0
        return out
