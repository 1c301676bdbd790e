"""The one game loop: many games in lockstep, one policy call per policy and role per round.

Everything in mythzoo that plays whole games goes through :func:`play_games`: tournaments and
``mythzoo play`` (one game at a time, ``batched=False``), ``mythzoo demo``, the training's fast
evaluation (``mythzoo.training.batch_eval.evaluate_vs``) and the warm start's demonstrations
(``mythzoo.training.pretrain.collect_demonstrations``), those two on batched games (``envs`` one
:class:`mythzoo.vector.VectorGames`: :class:`VectorGameInProgress`). Self-play
(``training/selfplay.py``) keeps its own loop over batched games: it stops each game at the
learner's turn for SB3, which no evaluation needs.

Each game is a :class:`Table`: a :class:`GameRecord` to fill (its ``seed`` is the env's reset
seed) and the policy key of every seat. Games are played in waves of ``len(envs)``: the games of a
wave start together; every round, each unfinished game has its agent to move, the pending
decisions are grouped by (the seat's policy key, the agent's role) in order of first appearance,
and each group is decided by one call: the policy's ``act_batch`` (``batched=False``: ``act`` per
decision, so a policy draws from its generator exactly as in a game played alone) or the caller's
``decide``. A policy with ``act_in_env(env, agent)`` (the search baselines) is given the game's
env instead, one decision at a time. The env is seen through the AEC API only (``reset``, ``last``, ``observe``, ``step``,
``agent_role``); a done agent takes its ``None`` step as in ``agent_iter``, and its final reward is
its ``last()`` reward then. A policy may raise :class:`StopGame` (a person who quits): the call
stops, and the games not over keep what they played, unfinished.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mythzoo.evaluation.records import GameRecord, decision_digest, env_scores


class StopGame(Exception):
    """Raised by a policy (e.g. a person who types ``q``) to stop a game; the record is kept, unfinished."""


@dataclass
class Table:
    """One game to play: the record to fill and the policy key of each seat."""

    record: GameRecord
    seats: Sequence[Hashable]


@dataclass
class Decision:
    """One pending decision: the game (index into the tables of the call), who moves, what it sees.
    On batched games (``mythzoo.vector``) ``observation`` and ``mask`` are views of the batch's rows,
    valid until the game's next step: copy what you keep."""

    game: int
    agent: str
    seat: int
    observation: np.ndarray
    mask: np.ndarray
    reward: float  # the agent's reward since its previous action (its ``last()`` reward)
    env: Any = None  # the game's env, for a policy that decides from the game (``act_in_env``: search)
    env_of: Callable[[], Any] | None = None  # or a function that gives it (batched games: built on demand)

    def live_env(self) -> Any:
        """The game's env for ``act_in_env`` (made on demand for games played through ``mythzoo.vector``)."""
        return self.env if self.env is not None or self.env_of is None else self.env_of()


# decide(policy key, decisions of one group) -> one action per decision
Decide = Callable[[Hashable, list[Decision]], Sequence[int]]
# on_action(game, agent, seat, action) after each action is chosen; on_end(game, record) as each game ends
OnAction = Callable[[int, str, int, int], None]
OnEnd = Callable[[int, GameRecord], None]


def stack(decisions: Sequence[Decision]) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of ``decisions`` as two arrays (one row each)."""
    return np.stack([d.observation for d in decisions]), np.stack([d.mask for d in decisions])


class GameInProgress:
    """One game in progress on one env: the bookkeeping that ends up in its record (the runner's,
    and :mod:`~mythzoo.evaluation.replay`'s, which steps a record's actions through it)."""

    __slots__ = ("env", "record", "seats", "seat_of", "role", "final", "returns")

    def __init__(self, env: Any, table: Table):
        u = env.unwrapped
        record = table.record
        env.reset(seed=record.seed)
        agents = list(u.possible_agents)
        record.agents, record.env_config = agents, dict(getattr(u, "config", {}) or {})
        self.env, self.record, self.seats = env, record, table.seats
        self.seat_of = {a: i for i, a in enumerate(agents)}
        self.role = {a: u.agent_role(a) for a in agents}
        self.final: dict[str, float] = {}
        self.returns = dict.fromkeys(agents, 0.0)

    def next_decision(self, game: int) -> Decision | None:
        """Step the done agents; the next decision, or None when the game is over (record filled)."""
        env, record = self.env, self.record
        while env.agents:
            agent = env.agent_selection
            _, reward, term, trunc, _ = env.last(observe=False)
            reward = float(reward)
            self.returns[agent] += reward
            if term or trunc:
                self.final[agent] = reward
                record.terminated |= bool(term)
                record.truncated |= bool(trunc)
                env.step(None)
                continue
            obs = env.observe(agent)
            return Decision(game, agent, self.seat_of[agent], obs["observation"], obs["action_mask"], reward, env)
        agents = record.agents
        record.final_rewards = [self.final.get(a, 0.0) for a in agents]
        record.returns = [self.returns[a] for a in agents]
        record.scores = env_scores(env, agents)
        record.finished = True
        return None

    def apply(self, decision: Decision, action: int, on_action: OnAction | None) -> None:
        """Record ``action`` (noting an illegal one), show it to ``on_action`` and play it."""
        _record_action(self.record, decision, action, on_action)
        self.env.step(action)


def _record_action(record: GameRecord, decision: Decision, action: int, on_action: OnAction | None) -> None:
    """Note ``action`` in the record (an illegal one, the chained digest) and show it to ``on_action``."""
    mask = decision.mask
    if 0 <= action < len(mask) and not mask[action]:
        record.illegal = {"seat": decision.seat, "decision": len(record.actions), "action": action}
    if record.digests is not None:
        previous = record.digests[-1] if record.digests else None
        record.digests.append(decision_digest(previous, decision.agent, decision.observation, mask, action))
    record.actions.append(action)
    if on_action is not None:
        on_action(decision.game, decision.agent, decision.seat, action)


class VectorGameInProgress:
    """:class:`GameInProgress` for game ``j`` of a :class:`mythzoo.vector.VectorGames`: the same
    decisions, rewards and record as the AEC env gives (an illegal action ends the game as the AEC
    env does: -1 for the offender), with the observation and mask read from the batch's rows."""

    __slots__ = ("games", "j", "record", "seats", "seat_of", "role", "final", "returns", "agents", "ended", "illegal_seat", "pending")

    def __init__(self, games: Any, j: int, table: Table, pending: list[tuple[VectorGameInProgress, int]]):
        record = table.record
        games.start_game(j, record.seed)
        agents = list(games.possible_agents)
        record.agents, record.env_config = agents, dict(games.game_env(j).config)
        self.games, self.j, self.record, self.seats, self.agents = games, j, record, table.seats, agents
        self.seat_of = {a: i for i, a in enumerate(agents)}
        self.role = {a: games.roles[games.seat_role[i]] for i, a in enumerate(agents)}
        self.final: dict[str, float] = {}
        self.returns = dict.fromkeys(agents, 0.0)
        self.ended: str | None = None  # "terminated" or "truncated" once the game is over
        self.illegal_seat = -1
        self.pending = pending  # the wave's queued actions, stepped by :meth:`flush`

    def next_decision(self, game: int) -> Decision | None:
        """The next decision, or None when the game is over (record filled)."""
        g, j, record = self.games, self.j, self.record
        seat = g.mover(j)
        if self.ended is None and seat >= 0:
            agent = self.agents[seat]
            reward = g._cum_rows[j][seat]  # the batch's cumulative_rewards[j, seat], as a Python float
            self.returns[agent] += reward
            role = self.role[agent]
            # Views of the batch's rows: valid until this game steps (a caller that keeps them copies).
            return Decision(game, agent, seat, g.batch.observations[role][j], g.batch.action_masks[role][j],
                            reward, env_of=lambda: g.game_env(j))
        sums = [float(x) for x in g.batch.cumulative_rewards[j]]
        if self.illegal_seat >= 0:  # the AEC env's ending for an illegal action: the offender's sum restarts at -1
            sums[self.illegal_seat] = -1.0
        for k, agent in enumerate(self.agents):
            self.final[agent] = sums[k]
            self.returns[agent] += sums[k]
        record.terminated |= self.ended == "terminated"
        record.truncated |= self.ended == "truncated"
        record.final_rewards = [self.final[a] for a in self.agents]
        record.returns = [self.returns[a] for a in self.agents]
        record.scores = [float(x) for x in g.scores(j)]
        record.finished = True
        return None

    def apply(self, decision: Decision, action: int, on_action: OnAction | None) -> None:
        """Record ``action`` (noting an illegal one), show it to ``on_action`` and play it."""
        mask = decision.mask
        if not 0 <= action < len(mask):
            raise ValueError(f"action {action} is outside {decision.agent}'s action space Discrete({len(mask)})")
        _record_action(self.record, decision, action, on_action)
        if not mask[action]:
            self.ended, self.illegal_seat = "terminated", decision.seat
            return
        self.pending.append((self, action))  # stepped with the rest of its group: one call for many games

    @staticmethod
    def flush(pending: list[tuple[VectorGameInProgress, int]]) -> None:
        """Step the games whose actions :meth:`apply` queued (one ``step_games`` call) and note their ends."""
        if not pending:
            return
        games = pending[0][0].games
        b = games.step_games([g.j for g, _ in pending], [a for _, a in pending])
        for g, _ in pending:
            if b.terminations[g.j]:
                g.ended = "terminated"
            elif b.truncations[g.j]:
                g.ended = "truncated"
        pending.clear()


def play_games(
    envs: Sequence[Any],
    tables: Sequence[Table],
    policies: Mapping[Hashable, Any] | None = None,
    *,
    batched: bool = True,
    decide: Decide | None = None,
    on_action: OnAction | None = None,
    on_end: OnEnd | None = None,
) -> list[GameRecord]:
    """Play every table's game on ``envs`` (waves of ``len(envs)`` games in lockstep) and return the
    records in table order. ``policies`` maps a seat's key to its policy (unused with ``decide``).
    ``envs`` may also be one :class:`mythzoo.vector.VectorGames` (``autoreset=False``): its slots
    play the waves, with the same records as AEC envs of that game give (tested)."""
    batched_games = hasattr(envs, "step_games")  # a mythzoo.vector.VectorGames (autoreset=False)
    if batched_games:
        if envs.autoreset:
            raise ValueError("play_games needs VectorGames made with autoreset=False")
        width = envs.num_envs
    elif not envs:
        raise ValueError("need at least one env")
    else:
        width = len(envs)
    if decide is None:
        if policies is None:
            raise ValueError("give the policies, or decide")
        decide = _batch_decide(policies) if batched else _row_decide(policies)
    try:
        for start in range(0, len(tables), width):
            wave = tables[start:start + width]
            pending: list[tuple[VectorGameInProgress, int]] = []
            if batched_games:
                games = {start + j: VectorGameInProgress(envs, j, t, pending) for j, t in enumerate(wave)}
            else:
                games = {start + j: GameInProgress(env, t) for j, (env, t) in enumerate(zip(envs, wave))}
            live = list(games)
            while live:
                groups: dict[tuple[Hashable, str], list[Decision]] = {}
                still = []
                for g in live:
                    game = games[g]
                    d = game.next_decision(g)
                    if d is None:
                        if on_end is not None:
                            on_end(g, game.record)
                        continue
                    groups.setdefault((game.seats[d.seat], game.role[d.agent]), []).append(d)
                    still.append(g)
                for (key, _), items in groups.items():
                    for d, a in zip(items, decide(key, items)):
                        games[d.game].apply(d, int(a), on_action)
                    VectorGameInProgress.flush(pending)  # batched games: the group's actions in one call
                live = still
    except StopGame:
        pass
    return [t.record for t in tables]


def _in_env(policy: Any) -> Any:
    """A policy's ``act_in_env(env, agent)`` when it decides from the game itself (search), else None."""
    fn = getattr(policy, "act_in_env", None)
    return fn if callable(fn) else None


def _batch_decide(policies: Mapping[Hashable, Any]) -> Decide:
    def decide(key: Hashable, items: list[Decision]) -> Sequence[int]:
        policy = policies[key]
        in_env = _in_env(policy)
        if in_env is not None:
            return [in_env(d.live_env(), d.agent) for d in items]
        obs, masks = stack(items)
        return policy.act_batch(obs, masks, items[0].agent)

    return decide


def _row_decide(policies: Mapping[Hashable, Any]) -> Decide:
    def decide(key: Hashable, items: list[Decision]) -> Sequence[int]:
        policy = policies[key]
        in_env = _in_env(policy)
        if in_env is not None:
            return [in_env(d.live_env(), d.agent) for d in items]
        return [policy.act(d.observation, d.mask, d.agent) for d in items]

    return decide


def play_one(env: Any, policies: Sequence[Any], record: GameRecord, on_action: OnAction | None = None) -> GameRecord:
    """Play ``record``'s game on ``env`` with ``policies[i]`` in seat ``i``, each decision through
    ``act()``; ``on_action(0, agent, seat, action)`` sees every decision. Returns ``record``, filled."""
    table = Table(record, range(len(policies)))
    return play_games([env], [table], dict(enumerate(policies)), batched=False, on_action=on_action)[0]
