"""The AEC face every mythzoo game shares.

A game supplies a rules object (plain-data state, legal actions, step function) and an
observer (named pieces in one float32 vector). This base turns them into a PettingZoo
``AECEnv`` and owns, once for all games: agent bookkeeping, reward accumulation, the turn cap,
illegal-action handling, observation dicts with int8 masks, deepcopy, ``get_state``/``set_state``
with validation, ``resample_hidden``, the PRIVILEGED global ``state()`` (``envs/core/state.py``),
and rendering.

Two faces, as PettingZoo classic has:
- ``raw_env``: an illegal action raises :class:`IllegalActionError` and changes nothing.
- ``env()``: PettingZoo's standard wrapper behaviour (order enforcing, bounds checks, an illegal
  action ends the game with -1 for the offender and 0 for the others), built into this class
  (``strict=False``) instead of three wrapper layers whose attribute forwarding halves the speed.
"""

from __future__ import annotations

import copy
import inspect
import json
import re
import warnings
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.state import HiddenEncoder, NoHidden, StateEncoder

STATE_SCHEMA_VERSION = 1
NO_ILLEGAL_ACTION = -1  # infos["illegal_action"] until an illegal action ends the game
_INT8 = np.dtype(np.int8)  # a dtype instance: np.frombuffer converts a type object on every call
_INDEX_SUFFIX = re.compile(r"_\d+$")
__all__ = ["IllegalActionError", "MythzooAECEnv", "NO_ILLEGAL_ACTION", "GameRules", "Observer", "STATE_SCHEMA_VERSION", "role_of", "shared_win_rewards"]


def shared_win_rewards(num_players: int, winners: Sequence[int]) -> list[float]:
    """Zero-sum end rewards of a free-for-all: a sole winner +1, the others -1/(n-1); tied winners
    share the win (each winner's reward is its share less the mean, scaled so a sole win is +1)."""
    n = num_players
    share = 1.0 / len(winners)
    scale = n / (n - 1)
    return [((share if p in winners else 0.0) - 1.0 / n) * scale for p in range(n)]


def role_of(agent: str) -> str:
    """An agent's role from its name: ``player_3`` -> ``player``, ``invoker`` -> ``invoker``."""
    return _INDEX_SUFFIX.sub("", agent)


class GameRules(Protocol):
    """What a game's rules object offers the AEC base (no gymnasium/pettingzoo inside)."""

    num_players: int

    def initial_state(self, seed: int | None) -> Any:
        """A new game, every random draw determined by ``seed``."""
    def legal_actions(self, s: Any) -> list[int]:
        """Sorted legal action ids of the player to move (empty when over)."""
    def apply(self, s: Any, action: int, checked: bool = False) -> None:
        """Apply an action in place; ``IllegalActionError`` (state unchanged) unless legal."""
    def current_player(self, s: Any) -> int:
        """Seat to move, -1 when the game is over."""
    def is_over(self, s: Any) -> bool:
        """Whether the game has ended by its rules."""
    def turns_played(self, s: Any) -> int:
        """Completed turns (the env's turn cap counts these)."""
    def to_json(self, s: Any) -> dict[str, Any]:
        """The whole state, RNG included, as plain JSON data."""
    def from_json(self, d: Any) -> Any:
        """Validate and rebuild a state (``ValueError`` naming the first problem)."""
    def clone(self, s: Any) -> Any:
        """An independent copy, RNG included."""
    def resample_hidden(self, s: Any, observer: int, seed: int | None) -> Any:
        """A copy consistent with what ``observer`` sees, hidden parts redrawn."""


class Observer(Protocol):
    """Encodes a state from one seat's point of view into a flat float32 vector."""

    def layout(self, seat: int) -> ObservationLayout:
        """The named pieces of ``seat``'s observation vector."""
    def encode(self, s: Any, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out``."""
    def observation(self, s: Any, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new float32 vector."""


class MythzooAECEnv(AECEnv):
    """A PettingZoo AEC environment around a mythzoo game's rules and observer."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False, "render_fps": 4}
    env_name: str = "mythzoo_game_v0"
    # The game's text rendering, ``render(rules, state, seat) -> str`` (see :meth:`render_text`).
    renderer: Any = None
    # The game's board image, ``image_renderer(rules, state, seat) -> uint8[H, W, 3]``, one size per
    # env (see :meth:`render_image`); ``None``: the text on coloured panels.
    image_renderer: Any = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game class that names its ``env_name`` gets PettingZoo's ``metadata`` with that name."""
        super().__init_subclass__(**kwargs)
        if "env_name" in cls.__dict__ and "metadata" not in cls.__dict__:
            base = MythzooAECEnv.metadata
            cls.metadata = {"render_modes": list(base["render_modes"]), "name": cls.env_name,
                            "is_parallelizable": base["is_parallelizable"], "render_fps": base["render_fps"]}
    # Every agent's info keys, the same at every step from reset on (TorchRL and other libraries
    # allocate one slot per key when they first see them), with what each holds. A game that adds
    # keys lists them here too and fills them in _initial_info.
    info_docs: dict[str, str] = {
        "illegal_action": "`-1`; on the offender's info, the action id once an illegal action has ended the game (`env()` face; `raw_env` raises instead)",
    }
    shaped: bool = False  # True: per-step rewards from _potential (a game's shaped reward mode)
    team_roles: tuple[str, ...] = ()  # roles whose agents play as one team with a shared reward

    def __new__(cls, *args: Any, **kwargs: Any) -> MythzooAECEnv:
        """Keeps the constructor's arguments: :attr:`max_decisions` is the game spec's bound for them."""
        self = super().__new__(cls)
        self._ctor_args = (args, kwargs)
        return self

    def __init__(
        self,
        rules: GameRules,
        observer: Observer,
        agent_names: Sequence[str],
        action_sizes: Sequence[int],
        *,
        config: dict[str, Any],
        render_mode: str | None = None,
        strict: bool = True,
        max_turns: int | None = None,
        hidden: HiddenEncoder | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            # As Gymnasium does for an env made with a mode it lacks: warn, and render nothing.
            warnings.warn(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}; rendering is off (render() returns None)", stacklevel=2)
            render_mode = None
        if max_turns is not None and (type(max_turns) is not int or max_turns < 1):  # a bool is no turn cap
            raise ValueError(f"max_turns must be a positive int or None, got {max_turns!r}")
        self.rules = rules
        self.observer = observer
        self.render_mode = render_mode
        self.strict = strict
        self.max_turns = max_turns
        self.config = dict(config)
        self.possible_agents = list(agent_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._layouts = [observer.layout(i) for i in range(len(self.possible_agents))]
        self._action_sizes = list(action_sizes)
        self._n_actions = {a: self._action_sizes[i] for i, a in enumerate(self.possible_agents)}  # per agent, for step()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self._layouts[i].size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self._action_sizes[i],), dtype=np.int8),
                }
            )
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self._action_sizes[i]) for i, a in enumerate(self.possible_agents)}
        role_sizes = {role_of(a): self._layouts[i].size for i, a in enumerate(self.possible_agents)}
        self._state_encoder = StateEncoder(hidden or NoHidden(self.possible_agents), observer, self._seat, role_sizes, role_of)
        # PRIVILEGED global state (see state()): the same shape for every table size of a game.
        self.state_space = spaces.Box(low=-np.inf, high=np.inf, shape=(self._state_encoder.size,), dtype=np.float32)
        self.state_: Any = None
        self._pot: list[float] = []
        # The most decisions one game of this env can take (OpenSpiel's max_game_length, buffer
        # sizing): the game spec's max_decisions for this env's arguments; None if undeclared.
        self.max_decisions: int | None = self._decision_bound()
        self.metadata = {**type(self).metadata, "max_decisions": self.max_decisions}

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=Box(float32), action_mask=Box(int8))`` for ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(n)`` for ``agent``."""
        return self.action_spaces[agent]

    def observation_layout(self, agent: str | None = None) -> ObservationLayout:
        """The named pieces of ``agent``'s observation vector (offsets, shapes, docs)."""
        return self._layouts[0 if agent is None else self._seat[agent]]

    def action_table(self, agent: str | None = None) -> Any:
        """``agent``'s action table (named ranges with encode/decode/label): the rules' one table
        by default; a game with a table per role overrides."""
        return self.rules.table

    def agent_role(self, agent: str) -> str:
        """The role ``agent`` plays: its name without a trailing ``_<index>`` (``hero_2`` -> ``hero``).

        Agents of one role share observation and action sizes and can share one policy; an
        asymmetric game has several roles (``invoker``, ``hero``), a symmetric one a single role.
        """
        return role_of(agent)

    def roles(self) -> dict[str, list[str]]:
        """Every role and its agents, in the order of ``possible_agents``."""
        out: dict[str, list[str]] = {}
        for a in self.possible_agents:
            out.setdefault(self.agent_role(a), []).append(a)
        return out

    def agent_team(self, agent: str) -> str:
        """The side ``agent`` wins or loses with. Agents of a role listed in ``team_roles`` form one
        team named after the role (they share one reward); every other agent is a side of its own."""
        role = self.agent_role(agent)
        return role if role in self.team_roles else agent

    def observation_features(self, agent: str | None = None) -> list[str]:
        """A name for every entry of ``agent``'s observation vector (the first agent's by default)."""
        seat = 0 if agent is None else self._seat[agent]
        return self._layouts[seat].features()

    def _decision_bound(self) -> int | None:
        from mythzoo.envs import SPECS  # the registry imports this module: look it up at run time

        spec = SPECS.get(self.env_name)
        if spec is None or spec.max_decisions is None:
            return None
        args, kwargs = getattr(self, "_ctor_args", ((), {}))
        try:
            given = inspect.signature(type(self).__init__).bind(self, *args, **kwargs).arguments
        except TypeError:  # a subclass that calls this base with other arguments: no bound
            return None
        game_kwargs = {k: v for k, v in list(given.items())[1:] if not k.startswith("_") and k != "render_mode"}
        return spec.decision_bound(game_kwargs)

    # ------------------------------------------------------------ global state
    def state(self) -> np.ndarray:
        """PRIVILEGED global state for centralised critics: a flat float32 vector (``state_space``).

        It holds hidden information (every agent's own observation, hands included, the next cards
        of every shuffled deck, the game's next random draws): train critics on it, never feed it to
        a policy that plays. Its size is the same for every table size of the game; absent agents'
        slots are zero. ``state_layout()`` and ``state_features()`` describe every entry.
        """
        s = self.state_
        if s is None:
            self._check_reset()
        return self._state_encoder.encode(s)

    def state_layout(self) -> ObservationLayout:
        """The named pieces of :meth:`state` (agents' observation slots, hidden pieces, ``rng_next``)."""
        return self._state_encoder.layout

    def state_features(self) -> list[str]:
        """A name for every entry of :meth:`state`, e.g. ``player_1/hand[salts]``, ``deck_top[0,salts]``."""
        role_features: dict[str, list[str]] = {}
        for i, a in enumerate(self.possible_agents):
            role_features.setdefault(role_of(a), self._layouts[i].features())
        return self._state_encoder.features(role_features)

    # ------------------------------------------------------------ game hooks
    def _final_rewards(self, s: Any) -> list[float]:
        """Per-seat rewards when the game ends naturally. Games override."""
        raise NotImplementedError

    def action_label(self, action: int, agent: str | None = None) -> str:
        """Readable name of an action id of ``agent``'s table, e.g. ``treat(bath 3)``."""
        return self.action_table(agent).label(action)

    def render_text(self, seat: int | None = None) -> str:
        """The ansi rendering from ``seat``'s view (``None``: the player to move, seat 0 once over)."""
        self._check_reset()
        if self.renderer is None:
            raise NotImplementedError(f"{type(self).__name__} declares no renderer")
        s = self.state_
        if seat is None:
            seat = max(self.rules.current_player(s), 0)
        return type(self).renderer(self.rules, s, seat)

    def scores(self) -> dict[str, int]:
        """Every agent's current score (the rules' ``scores``: victory points, gems, coins)."""
        self._check_reset()
        sc = self.rules.scores(self.state_)
        return {a: sc[i] for i, a in enumerate(self.possible_agents)}

    # -------------------------------------------------------------- infos
    def info_keys(self) -> tuple[str, ...]:
        """The keys of every agent's info at every step from ``reset`` on (declared in ``info_docs``)."""
        return tuple(self.info_docs)

    def _initial_info(self, agent: str) -> dict[str, Any]:
        """``agent``'s info at reset: every declared key with its default. Games with keys of their own extend it."""
        return {"illegal_action": NO_ILLEGAL_ACTION}

    # -------------------------------------------------------------- lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` determines every random draw of it."""
        if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool)):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        self.state_ = self.rules.initial_state(None if seed is None else int(seed))
        self._start_episode()
        if self.shaped:
            self._pot = self._potential(self.state_)

    def _start_episode(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self._initial_info(a) for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.rules.current_player(self.state_)]

    def _check_reset(self) -> None:
        if self.state_ is None:
            raise RuntimeError("reset() must be called before step(), observe(), render() or get_state()")

    def step(self, action: int | None) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for an agent that is already done)."""
        if self.state_ is None:
            self._check_reset()
        if not self.agents:
            raise RuntimeError("the game is over and every agent has taken its final step; call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int:  # the common case, checked first
            a = action
        elif action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
                a = int(action)
            else:
                raise TypeError(f"action must be an int in 0..{self._action_sizes[self._seat[agent]] - 1}, got {action!r}")
        else:
            a = int(action)
        if not 0 <= a < self._n_actions[agent]:
            raise ValueError(f"action {a} is outside {agent}'s action space Discrete({self._n_actions[agent]})")
        s = self.state_
        rules = self.rules
        if a not in rules.legal_actions(s):
            if self.strict:
                raise IllegalActionError(f"{agent}: illegal action {a} ({self.action_label(a, agent)}); legal: {self.rules.legal_actions(s)}")
            self._end_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        rules.apply(s, a, checked=True)
        shaped = self.shaped
        rewards = self.rewards
        if shaped:
            # Potential-based shaping: each step pays every seat the change of its potential; the
            # terms telescope, so a game's total is the final reward plus the end potential.
            pot = self._potential(s)
            old = self._pot
            seat = self._seat
            for ag in self.agents:
                i = seat[ag]
                rewards[ag] = pot[i] - old[i]
            self._pot = pot
        mover = rules.current_player(s)
        if mover < 0:  # the game is over
            final = self._final_rewards(s)
            seat, terminations = self._seat, self.terminations
            for ag in self.agents:
                r = float(final[seat[ag]])
                rewards[ag] = rewards[ag] + r if shaped else r
                terminations[ag] = True
        elif self.max_turns is not None and rules.turns_played(s) >= self.max_turns:
            for ag in self.agents:
                self.truncations[ag] = True
        else:
            self.agent_selection = self.possible_agents[mover]
            if not shaped:
                return  # unshaped mid-game steps carry no reward: nothing to accumulate
        # Rewards stay in ``rewards`` for this step (PettingZoo reads them there); the dead steps
        # that follow a game's end clear them. (``_accumulate_rewards``, inlined.)
        cum = self._cumulative_rewards
        for ag, r in rewards.items():
            cum[ag] += r

    def _potential(self, s: Any) -> list[float]:
        """Per-seat shaping potential (games with a shaped reward mode override)."""
        raise NotImplementedError

    def _end_illegal(self, agent: str, action: int) -> None:
        """What PettingZoo's TerminateIllegalWrapper does: the game ends, -1 for the offender."""
        self._cumulative_rewards[agent] = 0.0
        for ag in self.agents:
            self.terminations[ag] = True
            self.rewards[ag] = -1.0 if ag == agent else 0.0
        self.infos[agent] = {**self.infos[agent], "illegal_action": int(action)}
        self._accumulate_rewards()

    # ----------------------------------------------------------- observation
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation from its own seat, and its action mask (all zero unless it is to move)."""
        s = self.state_
        if s is None:
            self._check_reset()
        seat = self._seat[agent]
        mask = bytearray(self._action_sizes[seat])  # set bytes in Python, then view as int8: no numpy per-element calls
        if agent == self.agent_selection and not (self.terminations.get(agent, True) or self.truncations[agent]):
            rules = self.rules
            if rules.current_player(s) == seat:
                for a in rules.legal_actions(s):
                    mask[a] = 1
        return {"observation": self.observer.observation(s, seat), "action_mask": np.frombuffer(mask, _INT8)}

    def cumulative_reward(self, agent: str) -> float:
        """``agent``'s reward accumulated since it last acted: what ``last()`` returns for it."""
        return self._cumulative_rewards[agent]

    def cumulative_rewards(self) -> dict[str, float]:
        """Every live agent's :meth:`cumulative_reward` (a copy)."""
        return dict(self._cumulative_rewards)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, accumulated reward, termination, truncation and info of ``agent_selection``."""
        if self.state_ is None:
            self._check_reset()
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """Legal action ids of ``agent`` (the agent to move by default); empty if it is not to move."""
        self._check_reset()
        agent = self.agent_selection if agent is None else agent
        if agent != self.agent_selection or self.terminations.get(agent, True) or self.truncations.get(agent, True):
            return []
        return list(self.rules.legal_actions(self.state_))

    # ---------------------------------------------------------------- render
    def render(self) -> str | np.ndarray | None:
        """``ansi`` returns the text; ``human`` prints it; ``rgb_array`` returns the board as an
        image (:meth:`render_image`). Nothing without a render mode."""
        self._check_reset()
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            return self.render_image()
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_image(self, seat: int | None = None) -> np.ndarray:
        """The board as a ``uint8`` RGB image ``(H, W, 3)`` from ``seat``'s view (``None``: the player
        to move, seat 0 once over); every frame of an env has the same shape."""
        self._check_reset()
        s = self.state_
        if seat is None:
            seat = max(self.rules.current_player(s), 0)
        if self.image_renderer is None:
            from mythzoo.envs.core.raster import text_image

            return text_image(self.render_text(seat))
        return type(self).image_renderer(self.rules, s, seat)

    def close(self) -> None:
        """Nothing to release (no windows, no files)."""

    # --------------------------------------------------------------- research
    def get_state(self) -> dict[str, Any]:
        """The whole env as a JSON-serializable dict, RNG included (schema in the game's docs)."""
        self._check_reset()
        return {
            "schema": STATE_SCHEMA_VERSION,
            "env": self.env_name,
            "config": copy.deepcopy(self.config),
            "game": self.rules.to_json(self.state_),
            "aec": {
                "agents": list(self.agents),
                "agent_selection": self.agent_selection,
                "rewards": dict(self.rewards),
                "cumulative_rewards": dict(self._cumulative_rewards),
                "terminations": dict(self.terminations),
                "truncations": dict(self.truncations),
                "infos": copy.deepcopy(self.infos),
            },
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Validate ``state`` (from :meth:`get_state`) and restore it; on any error the env is unchanged."""
        if not isinstance(state, dict):
            raise ValueError(f"state must be a dict from get_state(), got {type(state).__name__}")
        if state.get("schema") != STATE_SCHEMA_VERSION:
            raise ValueError(f"state schema {state.get('schema')!r} is not the supported {STATE_SCHEMA_VERSION}")
        if state.get("env") != self.env_name:
            raise ValueError(f"state is for env {state.get('env')!r}, this is {self.env_name!r}")
        if state.get("config") != self.config:
            raise ValueError(f"state was made with config {state.get('config')!r}; this env has {self.config!r}")
        try:
            json.dumps(state)
        except (TypeError, ValueError) as e:
            raise ValueError(f"state is not plain JSON data: {e}") from e
        game = self.rules.from_json(state.get("game"))
        aec = state.get("aec")
        if not isinstance(aec, dict):
            raise ValueError("state['aec'] must be a dict")
        try:
            agents = list(aec["agents"])
            if len(set(agents)) != len(agents) or any(a not in self._seat for a in agents):
                raise ValueError(f"aec['agents'] must list distinct agents of this env, got {agents}")
            sel = aec["agent_selection"]
            if sel not in agents and agents:
                raise ValueError(f"agent_selection {sel!r} is not among the live agents")
            dicts: dict[str, dict[str, Any]] = {}
            for key in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
                d = aec[key]
                if not isinstance(d, dict) or set(d) != set(agents):
                    raise ValueError(f"aec[{key!r}] must be a dict with exactly the live agents as keys")
                for a, v in d.items():
                    if key in ("terminations", "truncations") and not isinstance(v, bool):
                        raise ValueError(f"aec[{key!r}][{a!r}] must be a bool, got {v!r}")
                    if key in ("rewards", "cumulative_rewards") and (isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v)):
                        raise ValueError(f"aec[{key!r}][{a!r}] must be a finite number, got {v!r}")
                    if key == "infos" and not isinstance(v, dict):
                        raise ValueError(f"aec['infos'][{a!r}] must be a dict, got {type(v).__name__}")
                dicts[key] = dict(d)
            over = self.rules.is_over(game)
            truncated = any(dicts["truncations"].values())
            # The turn cap truncates every live agent at once, and only a game still on.
            if truncated and not all(dicts["truncations"].values()):
                raise ValueError("some live agents are truncated and others not; the turn cap truncates every agent at once")
            if truncated and (over or any(dicts["terminations"].values())):
                raise ValueError("agents are truncated but the game is over or they are terminated; a game ends one way")
            if not over and not truncated:
                if set(agents) != set(self.possible_agents):
                    raise ValueError("every agent is live while the game is on; aec['agents'] lacks some")
                if any(dicts["terminations"].values()):
                    raise ValueError("terminations are set but the game is not over")
                if sel != self.possible_agents[self.rules.current_player(game)]:
                    raise ValueError("agent_selection disagrees with the game's player to move")
            elif over and not all(dicts["terminations"].values()):
                raise ValueError("the game is over but some live agent is not terminated")
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed state['aec']: {e!r}") from e
        self.state_ = game
        self.agents = agents
        self.agent_selection = sel
        self.rewards = {a: float(v) for a, v in dicts["rewards"].items()}
        self._cumulative_rewards = {a: float(v) for a, v in dicts["cumulative_rewards"].items()}
        self.terminations = dicts["terminations"]
        self.truncations = dicts["truncations"]
        self.infos = copy.deepcopy(dicts["infos"])
        for a, info in self.infos.items():  # a state saved before a key was declared gets its default
            for key, value in self._initial_info(a).items():
                info.setdefault(key, value)
        if self.shaped:
            self._pot = self._potential(game)
        self._skip_agent_selection = None

    def resample_hidden(self, agent: str, seed: int | None = None) -> dict[str, Any]:
        """A ``get_state()``-style dict consistent with all ``agent`` knows, hidden parts redrawn."""
        self._check_reset()
        state = self.get_state()
        state["game"] = self.rules.to_json(self.rules.resample_hidden(self.state_, self._seat[agent], seed))
        return state
