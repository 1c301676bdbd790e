"""A game-generic random-simulation harness for mythzoo's AEC environments.

In the manner of OpenSpiel's ``random_sim_test``: play many games with a seeded random
policy over the legal actions and, at every step, check everything the env promises. It
works only through the PettingZoo AEC API plus a few hooks every mythzoo game has:

- ``env.unwrapped.rules``: ``validate(state)``, ``legal_actions``, ``apply``, ``clone``,
  ``is_over``, ``turns_played``, ``to_json``/``from_json`` (the ``GameRules`` protocol of
  ``mythzoo.envs.core.aec``) and ``env.unwrapped.state_``;
- ``get_state()``/``set_state()``, ``resample_hidden(agent, seed)``, ``copy.deepcopy(env)``,
  ``agent_team(agent)`` (the side an agent wins or loses with);
- optional: ``env.unwrapped.scores()`` (never negative), ``observation_features()``;
- what differs per game comes in a :class:`Target`, which ``conformance.games.target(spec)``
  builds from the game's ``GameSpec`` (utility, declared ``max_decisions``) and its test-side
  adapter entry (which part of a ``get_state()["game"]`` dict is hidden from a seat, and how
  to change such a hidden part).

Checks, and how often they run (``Options``; with the defaults a Mythic Baths game of ~400
decisions costs ~1 s of CPU; ``Options.thorough()`` (``--fuzz-thorough``) runs the
engine-level checks at every step):

every step
  * ``rules.validate`` on the live state (each card in one place, conservation, ranges);
  * scores (``scores()`` if the env has it) are finite and never negative;
  * turns played never exceed the env's turn cap;
  * every agent's observation is inside its declared space, has the declared size (one
    feature name per entry when ``observation_features`` exists) and is finite; the action
    mask is 0/1, all zero for agents not to move, never all zero for the agent to move, and
    equals the engine's legal actions recomputed from scratch (``from_json(to_json(state))``,
    which bypasses any legal-action cache) and ``env.legal_actions()``;
  * ``Options.illegal_samples`` masked-out actions (sampled) raise ``IllegalActionError`` on
    the raw env and leave ``get_state()`` unchanged;
  * the checks themselves leave ``get_state()`` unchanged (no aliasing through ``clone``).

every ``Options.exact_every``-th step (default 2: every other step, ~0.2 ms per action)
  * the mask is exact at the engine level: EVERY unmasked action, applied with
    ``rules.apply`` to a ``rules.clone`` of the state, succeeds and leaves a valid state
    (``rules.validate``) that is over or still has a legal action (no dead end);

every ``Options.env_exact_every``-th step (and the first)
  * the mask is exact at the env level: every unmasked action is stepped on a
    ``copy.deepcopy(env)`` (1-2 ms each, hence not every step) and the copy stays valid;
  * ``resample_hidden`` with the same seed twice gives the same state.

every ``Options.hidden_every``-th step
  * ``resample_hidden(mover, seed)`` and ``resample_hidden(another agent, seed)``: JSON data,
    loads with ``set_state`` on a fresh env (hence valid), that agent's observation and mask
    are unchanged, the loaded game can take a step; over a game some resample changes a hidden
    part (``Target.hidden_view``: e.g. another player's hand or the deck order);
  * no leak: ``Target.perturb_hidden`` changes a part hidden from a seat (e.g. swaps a card
    between another player's hand and the deck); loaded with ``set_state`` the observer's
    observation must not change (and the changed player's own view must).

every ``Options.fork_every``-th step (and the first)
  * two followers are forked: ``copy.deepcopy(env)`` and a fresh env loaded from
    ``json.loads(json.dumps(get_state()))``. They receive the same actions as the original to
    the end of the game (including the final ``None`` steps); their ``agent_selection`` is
    compared every step, their ``last()`` and ``get_state()`` every ``Options.compare_every``
    follower steps and at the end.

per game
  * the game ends (terminated or truncated) within the turn cap, and within the decisions the
    spec declares (``max_decisions``; without a declaration a generous bound per turn catches a
    loop inside a turn); truncation happens exactly at the cap; every agent gets its final
    ``last()`` with terminated/truncated set;
  * the utility as declared, on every agent's rewards summed over the whole game (shaped modes
    included): ``zero_sum``: every member of a side (``agent_team``) gets the same total and the
    sides' totals sum to 0; ``identical``: every agent the same total; ``constant_sum``: the
    totals' sum is the same in every game of a run (``run_simulation``).

Failures do not stop the run: each is recorded under a category with its reproduction (player
count, game seed, step), at most ``Options.max_examples`` examples per category, and
:meth:`Report.summary` lists them all, so one bug does not hide another. A failure that makes
the game impossible to continue (a legal step raising) abandons that game only.

A game is reproduced by ``play_game(target, env_kwargs, game_seed, options)``: the env is
``reset(seed=game_seed)`` and the policy draws from ``np.random.default_rng(game_seed)``.
"""

from __future__ import annotations

import copy
import json
import math
import time
from typing import Any

import numpy as np

from mythzoo.envs.core.errors import IllegalActionError

from conformance.harness_report import Failure, Options, Report, Target

__all__ = ["Options", "Report", "Target", "play_game", "run_simulation"]


class _Abandon(Exception):
    """The game cannot continue (already recorded)."""


def _err(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:600]


def _obs_equal(a: dict, b: dict) -> bool:
    return (
        a.keys() == b.keys()
        and all(np.array_equal(a[k], b[k]) and np.asarray(a[k]).dtype == np.asarray(b[k]).dtype for k in a)
    )


def _last_equal(a: tuple, b: tuple) -> bool:
    (oa, *ra), (ob, *rb) = a, b
    return _obs_equal(oa, ob) and ra == rb


class _Game:
    """One game's run: the env, its followers and the checks."""

    def __init__(self, target: Target, env_kwargs: dict, game_seed: int, opts: Options, report: Report):
        self.target, self.kwargs, self.seed, self.opts, self.report = target, dict(env_kwargs), game_seed, opts, report
        self.env = target.make_raw(**self.kwargs)
        self.u = self.env.unwrapped
        self.rng = np.random.default_rng(game_seed)
        self.check_rng = np.random.default_rng([game_seed, 1])  # for sampling checks; never drives the game
        self.step_no = 0
        self.followers: list[tuple[str, int, Any]] = []
        self.resamples = 0
        self.hidden_changed = False
        self._scratch = None
        self.has_features = hasattr(self.u, "observation_features")
        # Feature names are static: fetched once per game per agent (names are checked in the API tests).
        self.n_features = {a: len(self.u.observation_features(a)) for a in self.env.possible_agents} if self.has_features else {}
        self.has_scores = callable(getattr(self.u, "scores", None))

    # ------------------------------------------------------------ plumbing
    def where(self) -> str:
        agent = getattr(self.env, "agent_selection", "?")
        return f"{self.target.name} {self.kwargs} seed={self.seed} step={self.step_no} agent={agent}"

    def fail(self, category: str, message: str) -> None:
        self.report.add(category, self.where(), message)

    def fresh_env(self) -> Any:
        return self.target.make_raw(**self.kwargs)

    def scratch_env(self) -> Any:
        """One env per game reused for loading resampled/perturbed states (set_state overwrites everything)."""
        if self._scratch is None:
            self._scratch = self.fresh_env()
        return self._scratch

    # ------------------------------------------------------------- the run
    def run(self) -> None:
        env, u = self.env, self.u
        try:
            env.reset(seed=self.seed)
        except Exception as e:  # noqa: BLE001
            self.fail("reset raises", _err(e))
            self.report.abandoned += 1
            return
        n = len(env.possible_agents)
        max_turns = getattr(u, "max_turns", None)
        bound = None
        if self.target.decision_bound is not None:
            try:
                bound = self.target.decision_bound(self.kwargs)
            except Exception as e:  # noqa: BLE001
                self.fail("max_decisions raises", _err(e))
        cap = bound + n + 1 if bound is not None else ((max_turns or 10_000) + 1) * FALLBACK_DECISIONS_PER_TURN + n
        final_seen: dict[str, tuple[bool, bool, float]] = {}
        totals = dict.fromkeys(env.possible_agents, 0.0)  # every reward last() gave each agent
        outcome = None
        try:
            for agent in env.agent_iter(cap):
                obs, reward, term, trunc, info = env.last()
                totals[agent] += float(reward)
                if term or trunc:
                    if agent in final_seen:
                        self.fail("end of game", f"{agent} got its final last() twice")
                    final_seen[agent] = (term, trunc, float(reward))
                    outcome = outcome or ("terminated" if term else "truncated")
                    self._step(None)
                    continue
                if bound is not None and self.step_no >= bound:
                    self.fail("more decisions than the declared max_decisions", f"decision {self.step_no + 1} of a game; max_decisions({self.kwargs}) = {bound}")
                    raise _Abandon
                if u.state_ is not None and self.step_no % self.opts.fork_every == 0:
                    self._fork()
                legal = self._check_step(agent)
                action = int(self.rng.choice(legal))
                self._step(action)
                self.step_no += 1
                self.report.steps += 1
        except _Abandon:
            self.report.abandoned += 1
            self.report.games += 1
            return
        self.report.games += 1
        # ---- end of game
        if env.agents:
            self.fail("game does not end within the turn cap", f"still running after {cap} agent iterations (turn cap {max_turns}, max_decisions {bound})")
            return
        if set(final_seen) != set(env.possible_agents):
            self.fail("end of game", f"agents that got a final last(): {sorted(final_seen)}; expected all of {env.possible_agents}")
        kinds = {(t, tr) for t, tr, _ in final_seen.values()}
        if len(kinds) != 1:
            self.fail("end of game", f"agents disagree on terminated/truncated: {final_seen}")
        if outcome == "terminated":
            self.report.terminated += 1
            if not u.rules.is_over(u.state_):
                self.fail("end of game", "terminated but rules.is_over() is False")
        elif outcome == "truncated":
            self.report.truncated += 1
            if max_turns is None or u.rules.turns_played(u.state_) != max_turns:
                self.fail("turn cap", f"truncated after {u.rules.turns_played(u.state_)} turns; cap {max_turns}")
            if u.rules.is_over(u.state_):
                self.fail("turn cap", "truncated although the game is over (should be terminated)")
        self._check_utility(totals)
        if self.resamples >= 5 and self.target.hidden_view is not None and not self.hidden_changed:
            self.fail("resample_hidden changes nothing hidden", f"{self.resamples} resamples in the game, none changed hidden_view")
        self._finish_followers()

    def _check_utility(self, totals: dict[str, float]) -> None:
        """The declared utility on each agent's rewards summed over the game."""
        utility, eps = self.target.utility, 1e-9
        if utility == "zero_sum":
            sides: dict[str, list[float]] = {}
            for a, r in totals.items():
                sides.setdefault(self.u.agent_team(a), []).append(r)
            if any(max(rs) - min(rs) > eps for rs in sides.values()):
                self.fail("zero-sum rewards", f"members of a side got different game totals: {totals}")
            elif abs(sum(rs[0] for rs in sides.values())) > eps:
                self.fail("zero-sum rewards", f"the sides' game totals {({t: rs[0] for t, rs in sides.items()})} do not sum to 0")
        elif utility == "identical":
            if max(totals.values()) - min(totals.values()) > eps:
                self.fail("identical rewards", f"agents got different game totals: {totals}")
        elif utility == "constant_sum":
            self.report.reward_sums.append(sum(totals.values()))

    # ------------------------------------------------------------- stepping
    def _step(self, action: int | None) -> None:
        env = self.env
        agent = env.agent_selection
        try:
            env.step(action)
        except Exception as e:  # noqa: BLE001
            self.fail("legal step raises", f"step({action}) raised {_err(e)}")
            raise _Abandon from e
        alive = []
        for kind, start, f in self.followers:
            try:
                if f.agent_selection != agent:
                    self.fail(f"{kind} follower diverges", f"forked at step {start}: agent_selection {f.agent_selection} != {agent}")
                    continue
                f.step(action)
            except Exception as e:  # noqa: BLE001
                self.fail(f"{kind} follower diverges", f"forked at step {start}: step({action}) raised {_err(e)}")
                continue
            if action is not None and (self.step_no - start) % self.opts.compare_every == self.opts.compare_every - 1:
                if not self._compare_follower(kind, start, f):
                    continue
            alive.append((kind, start, f))
        self.followers = alive

    def _fork(self) -> None:
        env = self.env
        try:
            state = env.get_state()
            text = json.dumps(state)
        except Exception as e:  # noqa: BLE001
            self.fail("get_state is not JSON", _err(e))
            return
        try:
            dc = copy.deepcopy(env)
            if not _obs_equal(dc.observe(env.agent_selection), env.observe(env.agent_selection)):
                self.fail("deepcopy follower diverges", "observation differs right after deepcopy")
            else:
                self.followers.append(("deepcopy", self.step_no, dc))
        except Exception as e:  # noqa: BLE001
            self.fail("deepcopy follower diverges", f"deepcopy raised {_err(e)}")
        try:
            js = self.fresh_env()
            js.set_state(json.loads(text))
            if js.get_state() != state:
                self.fail("JSON follower diverges", "get_state() after set_state(json round trip) differs from the original")
            elif not all(_obs_equal(js.observe(a), env.observe(a)) for a in env.possible_agents):
                self.fail("JSON follower diverges", "observation differs right after set_state")
            else:
                self.followers.append(("JSON", self.step_no, js))
        except Exception as e:  # noqa: BLE001
            self.fail("JSON follower diverges", f"set_state(json round trip) raised {_err(e)}")

    def _compare_follower(self, kind: str, start: int, f: Any) -> bool:
        env = self.env
        try:
            if f.get_state() != env.get_state():
                self.fail(f"{kind} follower diverges", f"forked at step {start}: get_state() differs")
                return False
            if env.agents and not _last_equal(f.last(), env.last()):
                self.fail(f"{kind} follower diverges", f"forked at step {start}: last() differs")
                return False
        except Exception as e:  # noqa: BLE001
            self.fail(f"{kind} follower diverges", f"forked at step {start}: comparing raised {_err(e)}")
            return False
        return True

    def _finish_followers(self) -> None:
        for kind, start, f in self.followers:
            if f.agents:
                self.fail(f"{kind} follower diverges", f"forked at step {start}: still has agents {f.agents} after the original ended")
                continue
            self._compare_follower(kind, start, f)
        self.followers = []

    # --------------------------------------------------------------- checks
    def _check_step(self, agent: str) -> list[int]:
        """All per-step checks; returns the legal actions (from the mask) to choose from."""
        env, u, opts = self.env, self.u, self.opts
        rules = u.rules
        try:
            snapshot = env.get_state()
        except Exception as e:  # noqa: BLE001
            self.fail("get_state raises", _err(e))
            raise _Abandon from e
        # Invariants of the live state.
        try:
            rules.validate(u.state_)
        except Exception as e:  # noqa: BLE001
            self.fail("invariant (rules.validate)", _err(e))
        if self.has_scores:
            try:
                sc = u.scores()
                items = sc.items() if isinstance(sc, dict) else enumerate(sc)
                bad = {a: v for a, v in items if not (isinstance(v, (int, float, np.integer, np.floating)) and math.isfinite(v) and v >= 0)}
                if bad:
                    self.fail("negative or non-finite score", f"scores {sc}")
            except Exception as e:  # noqa: BLE001
                self.fail("scores() raises", _err(e))
        max_turns = getattr(u, "max_turns", None)
        if max_turns is not None and rules.turns_played(u.state_) > max_turns:
            self.fail("turn cap", f"{rules.turns_played(u.state_)} turns played, cap {max_turns}")
        # Observations and masks of every agent.
        mask = self._check_observations(agent)
        legal = [int(a) for a in np.flatnonzero(mask)]
        if not legal:
            self.fail("empty mask for the agent to move", f"{agent} has an all-zero mask in a live game")
            raise _Abandon
        try:
            fresh = rules.from_json(snapshot["game"])
            engine = sorted(int(a) for a in rules.legal_actions(fresh))
            if engine != legal:
                self.fail("mask != engine legal actions", f"mask {legal}; engine from scratch {engine}")
            cached = sorted(int(a) for a in rules.legal_actions(u.state_))
            if cached != engine:
                self.fail("stale legal-action cache", f"live {cached}; from scratch {engine}")
            if hasattr(env, "legal_actions") and sorted(env.legal_actions()) != legal:
                self.fail("env.legal_actions() != mask", f"{sorted(env.legal_actions())} vs {legal}")
        except Exception as e:  # noqa: BLE001
            self.fail("get_state does not reload (rules.from_json)", _err(e))
        # Exactness of the mask at the engine level: every unmasked action works and leads somewhere.
        if self.step_no % opts.exact_every == 0:
            for a in legal:
                self._check_child_rules(a)
        if self.step_no % opts.env_exact_every == 0:
            self._check_children_env(legal)
        # Masked-out actions raise and change nothing.
        masked_out = np.flatnonzero(mask == 0)
        if len(masked_out) and opts.illegal_samples:
            picks = self.check_rng.choice(masked_out, size=min(opts.illegal_samples, len(masked_out)), replace=False)
            for a in picks:
                try:
                    env.step(int(a))
                except IllegalActionError:
                    continue
                except Exception as e:  # noqa: BLE001
                    self.fail("masked-out action: wrong error", f"action {int(a)} raised {_err(e)}, expected IllegalActionError")
                else:
                    self.fail("masked-out action accepted", f"action {int(a)} ({env.action_label(int(a))}) was accepted")
                    raise _Abandon
        if self.step_no % opts.hidden_every == 0:
            self._check_hidden(agent, snapshot)
        try:
            after = env.get_state()
        except Exception as e:  # noqa: BLE001
            self.fail("get_state raises", _err(e))
            raise _Abandon from e
        if after != snapshot:
            diff = sorted(k for k in snapshot["game"] if snapshot["game"].get(k) != after["game"].get(k))
            self.fail("checks changed the env", f"get_state changed (rejected actions / clone / resample aliasing); game fields {diff}")
            raise _Abandon
        return legal

    def _check_observations(self, mover: str) -> np.ndarray:
        env = self.env
        mover_mask = None
        for a in env.possible_agents:
            try:
                o = env.observe(a)
            except Exception as e:  # noqa: BLE001
                self.fail("observe raises", _err(e))
                raise _Abandon from e
            space = env.observation_space(a)
            try:
                inside = space.contains(o)
            except Exception:  # noqa: BLE001
                inside = False
            if not inside:
                self.fail("observation outside its space", f"{a}: shapes/dtypes {[(k, v.shape, v.dtype) for k, v in o.items()]}")
            vec, m = o["observation"], o["action_mask"]
            if not np.all(np.isfinite(vec)):
                self.fail("observation not finite", f"{a}: {np.flatnonzero(~np.isfinite(vec))[:10]}")
            if self.has_features:
                nfeat = self.n_features[a]
                if vec.shape != (nfeat,):
                    self.fail("observation size", f"{a}: shape {vec.shape}, {nfeat} feature names")
            if not np.isin(m, (0, 1)).all() or m.dtype != np.int8:
                self.fail("mask not int8 0/1", f"{a}: dtype {m.dtype}")
            if a == mover:
                mover_mask = m
            elif m.any():
                self.fail("mask set for an agent not to move", f"{a}: {np.flatnonzero(m).tolist()}")
        return mover_mask

    def _check_child_rules(self, a: int) -> None:
        rules, s = self.u.rules, self.u.state_
        try:
            c = rules.clone(s)
            rules.apply(c, a)
        except Exception as e:  # noqa: BLE001
            self.fail("unmasked action fails (engine)", f"action {a} ({self.env.action_label(a)}): {_err(e)}")
            return
        try:
            rules.validate(c)
        except Exception as e:  # noqa: BLE001
            self.fail("unmasked action leaves an invalid state", f"action {a} ({self.env.action_label(a)}): {_err(e)}")
            return
        if not rules.is_over(c) and not rules.legal_actions(c):
            self.fail("dead end after an unmasked action", f"action {a} ({self.env.action_label(a)}): not over, no legal action")

    def _check_children_env(self, legal: list[int]) -> None:
        env = self.env
        for a in legal:
            try:
                c = copy.deepcopy(env)
                c.step(a)
            except Exception as e:  # noqa: BLE001
                self.fail("unmasked action fails (env deepcopy)", f"action {a} ({env.action_label(a)}): {_err(e)}")
                continue
            cu = c.unwrapped
            try:
                cu.rules.validate(cu.state_)
            except Exception as e:  # noqa: BLE001
                self.fail("unmasked action leaves an invalid state", f"env deepcopy, action {a}: {_err(e)}")
                continue
            done = all(c.terminations.get(x, False) or c.truncations.get(x, False) for x in c.agents)
            if not done and not c.observe(c.agent_selection)["action_mask"].any():
                self.fail("dead end after an unmasked action", f"env deepcopy, action {a}: live game, all-zero mask for {c.agent_selection}")

    def _check_hidden(self, mover: str, snapshot: dict) -> None:
        env = self.env
        agents = env.possible_agents
        others = [a for a in agents if a != mover]
        targets = [("mover", mover)]
        if others:
            targets.append(("non-mover", others[int(self.check_rng.integers(len(others)))]))
        deep = self.step_no % self.opts.env_exact_every == 0
        for role, a in targets:
            seat = agents.index(a)
            cat = f"resample_hidden({role})"
            rseed = int(self.check_rng.integers(2**31))
            try:
                r = env.resample_hidden(a, rseed)
            except Exception as e:  # noqa: BLE001
                self.fail(cat, f"resample_hidden({a!r}, {rseed}) raised {_err(e)}")
                continue
            self.resamples += 1
            try:
                text = json.dumps(r)
            except Exception as e:  # noqa: BLE001
                self.fail(cat, f"resample_hidden({a!r}, {rseed}) is not JSON data: {_err(e)}")
                continue
            if deep:
                try:
                    if env.resample_hidden(a, rseed) != r:
                        self.fail(cat, f"resample_hidden({a!r}, {rseed}) is not deterministic in its seed")
                except Exception as e:  # noqa: BLE001
                    self.fail(cat, f"second resample_hidden({a!r}, {rseed}) raised {_err(e)}")
            scratch = self.scratch_env()
            try:
                scratch.set_state(json.loads(text))
            except Exception as e:  # noqa: BLE001
                self.fail(cat, f"resample_hidden({a!r}, {rseed}) does not load with set_state: {_err(e)}")
                continue
            if not _obs_equal(scratch.observe(a), env.observe(a)):
                self.fail(cat, f"resample_hidden({a!r}, {rseed}) changes {a}'s own observation or mask")
            if self.target.hidden_view is not None and not self.hidden_changed:
                if self.target.hidden_view(r["game"], seat) != self.target.hidden_view(snapshot["game"], seat):
                    self.hidden_changed = True
            try:  # the resampled game can go on
                if scratch.agents and not (scratch.terminations[scratch.agent_selection] or scratch.truncations[scratch.agent_selection]):
                    m = scratch.observe(scratch.agent_selection)["action_mask"]
                    scratch.step(int(self.check_rng.choice(np.flatnonzero(m))))
                    scratch.unwrapped.rules.validate(scratch.unwrapped.state_)
            except Exception as e:  # noqa: BLE001
                self.fail(cat, f"stepping the resampled game ({a!r}, {rseed}) failed: {_err(e)}")
        # No leak: change something hidden from a seat; its observation must not move.
        if self.target.perturb_hidden is None:
            return
        a = agents[int(self.check_rng.integers(len(agents)))]
        seat = agents.index(a)
        pert = self.target.perturb_hidden(copy.deepcopy(snapshot["game"]), seat, self.check_rng)
        if pert is None:
            return
        game, changed_seat = pert
        state = dict(snapshot)
        state["game"] = game
        scratch = self.scratch_env()
        try:
            scratch.set_state(state)
        except Exception as e:  # noqa: BLE001
            self.fail("perturb_hidden hook gives an invalid state", f"observer {a}: {_err(e)}")
            return
        if not _obs_equal(scratch.observe(a), env.observe(a)):
            o1, o2 = scratch.observe(a)["observation"], env.observe(a)["observation"]
            idx = np.flatnonzero(o1 != o2)
            feats = env.observation_features(a) if self.has_features else None
            names = [feats[i] for i in idx[:8]] if feats else idx[:8].tolist()
            self.fail("hidden information leaks into an observation", f"observer {a}: entries {names} change with a hidden change")
        if changed_seat is not None:
            b = agents[changed_seat]
            if _obs_equal(scratch.observe(b), env.observe(b)):
                self.fail("hidden change invisible to its owner", f"{b}'s observation ignores a change to its own hidden part")


def play_game(target: Target, env_kwargs: dict, game_seed: int, options: Options | None = None, report: Report | None = None) -> Report:
    """Play and check one game; returns the report (or adds to ``report``)."""
    options = options or Options()
    report = report if report is not None else Report(max_examples=options.max_examples)
    t0 = time.perf_counter()
    _Game(target, env_kwargs, game_seed, options, report).run()
    report.seconds += time.perf_counter() - t0
    return report


def run_simulation(target: Target, env_kwargs: dict, game_seeds: range | list[int], options: Options | None = None) -> Report:
    """Play and check one game per seed."""
    options = options or Options()
    report = Report(max_examples=options.max_examples)
    for s in game_seeds:
        play_game(target, env_kwargs, s, options, report)
    if target.utility == "constant_sum" and report.reward_sums and max(report.reward_sums) - min(report.reward_sums) > 1e-9:
        report.add("constant-sum rewards", f"{target.name} {env_kwargs}", f"the game totals sum to different values: {sorted(set(report.reward_sums))[:6]}")
    return report
