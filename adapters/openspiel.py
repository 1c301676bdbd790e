"""Every mythzoo game as an OpenSpiel game: ``pyspiel.load_game("mythzoo_mythic_baths(players=3)")``.

Importing this module registers one pyspiel Python game per shipped game (``mythzoo_<name>``,
following the newest version, and the versioned ``mythzoo_<name>_v<N>``). What each game is comes
from its :class:`~mythzoo.envs.core.spec.GameSpec` and its raw env, never from game-specific code
here (the one exception, utility bounds the spec does not declare, is :data:`UTILITY_BOUNDS`):

* **Players.** One OpenSpiel player per side: every seat is its own player, except that the seats
  of a team role (``GameSpec.team_roles``) form one player. Mythsgate is thus a two-player game,
  player 0 the Invoker and player 1 the League, which acts for whichever hero is to move. The
  Innkeeper is a one-player game.
* **Game parameters.** ``players`` (symmetric games) or the spec's size argument (``num_heroes``),
  ``seed``, and every integer argument of the env (``max_turns``, ``max_rounds``,
  ``days_per_season``, ``seasons``; 0 for an argument whose env default is ``None`` means that
  default). The k-th game started from one loaded game object (k = 0, 1, ...) is the env's game
  ``reset(seed=seed + k)``: ``state.env_seed()`` says which.
* **Chance** is sampled (``SAMPLED_STOCHASTIC``): the env draws with the state's own seeded RNG;
  there are no chance nodes. ``clone`` copies that RNG (the env's cheap clone), so a clone replays
  the same draws; ``resample_from_infostate`` redraws every hidden part and reseeds the RNG
  (the env's ``resample_hidden``).
* **Rewards** are paid at the end (``RewardModel.TERMINAL``), in the env's default reward mode or,
  if that pays every step, its first mode that pays only at the end (the Innkeeper: ``terminal``,
  the net coin total). A truncated game (the env's turn cap) returns 0 to everyone, as the env does.
  A team player's return is its team's shared reward. The utility class is the spec's.
* **Observations.** ``observation_tensor(p)`` is mythzoo's observation of player p's seat (for a
  team player: the seat to move if it is the team's turn, else the team's first seat). When seats
  have observations of different sizes or a player stands for several seats (Mythsgate), every
  tensor is that observation zero-padded to the largest role's size, followed by a one-hot ``view``
  over the game's most seats (6 for Mythsgate: invoker, hero_0 ... hero_4) saying whose view it is.
  ``observation_string(p)`` names the seat and a digest of the tensor and, for the player to
  move, of its legal actions (equal exactly when those are); ``state.render(p)`` is the readable
  board. mythzoo's observations are not perfect-recall histories, so information states are not
  provided: OpenSpiel's ISMCTS bot runs with ``use_observation_string=True``.
* ``max_game_length`` is the spec's bound on decisions for the given parameters
  (``GameSpec.decision_bound``).
* Serialization (``state.serialize()``, ``game.deserialize_state(text)``) carries the env's JSON
  state, validated by the env when read back.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised only without the extra
    raise ImportError("mythzoo.adapters.openspiel needs OpenSpiel: pip install mythzoo[openspiel]") from None

from mythzoo.envs import GAMES
from mythzoo.envs.core.spec import GameSpec

__all__ = ["GAME_NAMES", "UTILITY_BOUNDS", "MythzooGame", "MythzooState", "game_name", "register"]

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}
_INT_ARG = re.compile(r"^int( \| None)?$")
_NOT_PARAMETERS = ("render_mode", "reward_mode")


def _mythic_baths_bounds(env: Any, num_players: int, decisions: int) -> tuple[float, float]:
    # zero_sum mode: a sole winner +1, every loser -1/(n-1) (ties share the win), truncation 0.
    return -1.0 / (num_players - 1), 1.0


def _mythsgate_bounds(env: Any, num_players: int, decisions: int) -> tuple[float, float]:
    # The winning side +1, the other -1, truncation 0 (a team player gets its team's reward).
    return -1.0, 1.0


def _innkeeper_bounds(env: Any, num_players: int, decisions: int) -> tuple[float, float]:
    # terminal mode: final coins - starting coins. Coins never go below 0 (every cost is paid only
    # when affordable, a complaint takes at most what is there), so the least is -start; the most
    # is _innkeeper_income_bound (far above any campaign).
    return -float(env.data.starting_coins), float(_innkeeper_income_bound(env, decisions))


def _innkeeper_income_bound(env: Any, decisions: int) -> int:
    """An upper bound on the coins one campaign can earn (loose: no campaign comes near it).

    Every gain (``rules._gain``) is one of: hosting at dusk, once a day, at most 1 per slot plus
    the party bonus of at most ``MAX_PARTY_COINS`` per slot; the gossip cards' coin effects at
    dawn, once a day, at most every card's; and, each following a decision, a skill (at most 3 per
    slot), a sale (half the dearest accommodation's cost) or a single coin. So: (days + 1) x
    (hosting + gossip) + decisions x the largest of the per-decision gains.
    """
    from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS
    from mythzoo.envs.mythwind_innkeeper.components import E_COINS
    from mythzoo.envs.mythwind_innkeeper.rules import MAX_PARTY_COINS

    d = env.data
    days = int(env.max_turns) + 1  # a dawn may follow the last counted day before the cap ends it
    hosting = NUM_SLOTS * (1 + MAX_PARTY_COINS)
    gossip = sum(max(0, c.effect[1]) for c in d.gossip if c.effect[0] == E_COINS)
    per_decision = max(3 * NUM_SLOTS, max(a.cost for a in d.accommodations) // 2, 1)
    return days * (hosting + gossip) + decisions * per_decision


# Utility bounds per game (OpenSpiel's min/max utility), in the reward mode the adapter plays:
# ``(env, players, decision bound) -> (least, most)``. GameSpec declares no such bounds yet.
UTILITY_BOUNDS: dict[str, Callable[[Any, int, int], tuple[float, float]]] = {
    "mythic_baths": _mythic_baths_bounds,
    "mythsgate": _mythsgate_bounds,
    "mythwind_innkeeper": _innkeeper_bounds,
}


def game_name(spec: GameSpec, versioned: bool = False) -> str:
    """The OpenSpiel short name of a game: ``mythzoo_mythic_baths`` (or ``mythzoo_mythic_baths_v1``)."""
    return f"mythzoo_{spec.env_name if versioned else spec.name}"


# ---------------------------------------------------------------------------------- parameters
def _size_parameter(spec: GameSpec) -> str | None:
    """``players`` where the size counts OpenSpiel players one for one, else the size argument."""
    if spec.size_argument is None:
        return None
    return "players" if spec.kind == "symmetric" and spec.seat_offset == 0 and not spec.team_roles else spec.size_argument


def _env_int_arguments(spec: GameSpec) -> dict[str, int]:
    """The env's integer keyword arguments and their defaults (0 standing for ``None``)."""
    sig = inspect.signature(spec.env_module().raw_env.__init__)
    out = {}
    for name, p in sig.parameters.items():
        if name == "self" or name.startswith("_") or name in _NOT_PARAMETERS or name == spec.size_argument:
            continue
        annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", str(p.annotation))
        if not _INT_ARG.match(str(annotation)):
            continue
        if p.default is None or (type(p.default) is int):
            out[name] = 0 if p.default is None else int(p.default)
    return out


def _none_defaults(spec: GameSpec) -> set[str]:
    """The env's integer arguments whose default is ``None`` (given as 0 in OpenSpiel)."""
    sig = inspect.signature(spec.env_module().raw_env.__init__)
    return {name for name in _env_int_arguments(spec) if sig.parameters[name].default is None}


def _parameter_specification(spec: GameSpec) -> dict[str, int]:
    params: dict[str, int] = {}
    size = _size_parameter(spec)
    if size is not None:
        params[size] = int(spec.default_size) if size != "players" else spec.default_seats()
    params["seed"] = 0
    params.update(_env_int_arguments(spec))
    return params


def _env_kwargs(spec: GameSpec, params: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The env kwargs for OpenSpiel game parameters, and the first game's seed."""
    known = _parameter_specification(spec)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{game_name(spec)}: unknown parameter(s) {unknown}; known: {sorted(known)}")
    kw: dict[str, Any] = {}
    size = _size_parameter(spec)
    none_defaults = _none_defaults(spec)
    for name, default in known.items():
        value = params.get(name, default)
        if type(value) is not int:
            raise ValueError(f"{game_name(spec)}: parameter {name} must be an int, got {value!r}")
        if name == "seed":
            if value < 0:
                raise ValueError(f"{game_name(spec)}: seed must be >= 0, got {value}")
            continue
        if name == size:
            kw = {**spec.size_kwargs(value, None), **kw} if name == "players" else {**kw, name: value}
            continue
        if value == 0 and name in none_defaults:
            continue  # the env's own default (None)
        kw[name] = value
    if size is not None and size != "players" and kw.get(size) not in spec.sizes:
        raise ValueError(f"{game_name(spec)}: {size} must be one of {list(spec.sizes)}, got {kw.get(size)}")
    return kw, int(params.get("seed", 0))


def _terminal_reward_mode(spec: GameSpec, kw: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A raw env in a reward mode that pays only at the end (the default one if it does), and its kwargs."""
    env = spec.make_raw(**kw)
    if not env.shaped:
        return env, kw
    for mode in spec.reward_modes:
        env = spec.make_raw(**kw, reward_mode=mode)
        if not env.shaped:
            return env, {**kw, "reward_mode": mode}
    raise ValueError(f"{spec.env_name}: no reward mode pays only at the end")


# ---------------------------------------------------------------------------------- shared data
class _Shared:
    """What every state of one loaded game shares: the env (its rules, observer, tables) and the
    seat/player mapping. Never copied (a clone shares it); pickled as the game's name and parameters."""

    def __init__(self, spec: GameSpec, short_name: str, params: dict[str, Any]):
        self.spec = spec
        self.short_name = short_name
        self.params = dict(params)
        kw, seed = _env_kwargs(spec, params)
        env, self.kwargs = _terminal_reward_mode(spec, kw)
        self.env = env
        self.rules = env.rules
        self.observer = env.observer
        self.max_turns = env.max_turns
        self.next_seed = seed
        self.resamples = 0
        agents = env.possible_agents
        self.agents = list(agents)
        teams: list[str] = []
        for a in agents:
            t = env.agent_team(a)
            if t not in teams:
                teams.append(t)
        self.player_of_seat = [teams.index(env.agent_team(a)) for a in agents]
        self.seats_of_player = [[i for i, p in enumerate(self.player_of_seat) if p == q] for q in range(len(teams))]
        self.num_players = len(teams)
        # A team player (the League) names the seat it acts for in its action strings.
        self.team_player = [len(seats) > 1 or env.agent_role(agents[seats[0]]) in spec.team_roles
                            for seats in self.seats_of_player]
        self.tables = [env.action_table(a) for a in agents]
        sizes = [env.observation_layout(a).size for a in agents]
        self.obs_size = max(sizes)
        # Padding and a view one-hot where the tensor would otherwise not say whose view it is or
        # would change size between seats; the one-hot spans the game's largest table.
        self.view_size = max(spec.seat_counts()) if (len(set(sizes)) > 1 or any(len(s) > 1 for s in self.seats_of_player)) else 0
        self.tensor_size = self.obs_size + self.view_size
        self.num_distinct_actions = max(env.action_space(a).n for a in agents)
        self.max_game_length = int(spec.decision_bound(kw))
        lo, hi = UTILITY_BOUNDS[spec.name](env, self.num_players, self.max_game_length)
        self.min_utility, self.max_utility = float(lo), float(hi)
        self._peek: tuple[int, Any] | None = None
        self.list_observer = _Observer(self, None, None)  # the Python fast paths' observer
        self.game: Any = None  # the MythzooGame, set by it

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        return (_shared_of, (self.short_name, self.params))

    def initial(self, seed: int) -> Any:
        """The env's initial game state for ``seed``, to play."""
        return self.rules.clone(self.peek(seed))

    def peek(self, seed: int) -> Any:
        """The env's initial game state for ``seed``, only to look at (the last one is kept:
        OpenSpiel sizes every observation tensor on a fresh state)."""
        peek = self._peek
        if peek is not None and peek[0] == seed:
            return peek[1]
        s = self.rules.initial_state(seed)
        self._peek = (seed, s)
        return s

    def view_seat(self, s: Any, player: int) -> int:
        """The seat whose observation ``player`` gets: its seat to move, else its first seat."""
        mover = self.rules.current_player(s)
        if mover >= 0 and self.player_of_seat[mover] == player:
            return mover
        return self.seats_of_player[player][0]


def _shared_of(short_name: str, params: dict[str, Any]) -> _Shared:
    return pyspiel.load_game(short_name, params)._shared


class _Pending:
    """A state not yet started: its seed is taken from the game when it is first played (or copied:
    a clone of a fresh state plays the same game)."""

    __slots__ = ("seed",)

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def __deepcopy__(self, memo: dict) -> _Pending:
        return self  # the clone and the original then start from one seed

    def __reduce__(self) -> tuple:
        return (_Pending, (self.seed,))


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Live:
    """One started game: the env's game state and the OpenSpiel bookkeeping around it. Copied
    with the env's cheap clone; pickled as the env's JSON state (validated when read back)."""

    __slots__ = ("g", "s", "env_seed", "returns", "terminal", "truncated", "player")

    def __init__(self, g: _Shared, s: Any, env_seed: int, returns: list[float], terminal: bool, truncated: bool):
        self.g = g
        self.s = s
        self.env_seed = env_seed
        self.returns = returns
        self.terminal = terminal
        self.truncated = truncated
        # the OpenSpiel player to move, kept up to date: OpenSpiel asks for it several times a step
        self.player = _TERMINAL if terminal else g.player_of_seat[g.rules.current_player(s)]

    def __deepcopy__(self, memo: dict) -> _Live:
        return _Live(self.g, self.g.rules.clone(self.s), self.env_seed, list(self.returns), self.terminal, self.truncated)

    def __reduce__(self) -> tuple:
        return (_live_from_json, (self.g, self.g.rules.to_json(self.s), self.env_seed, list(self.returns), self.terminal, self.truncated))


def _live_from_json(g: _Shared, game: Any, env_seed: int, returns: list[float], terminal: bool, truncated: bool) -> _Live:
    return _Live(g, g.rules.from_json(game), int(env_seed), [float(r) for r in returns], bool(terminal), bool(truncated))


# ---------------------------------------------------------------------------------- the state
class MythzooState(pyspiel.State):
    """One mythzoo game in progress, as a pyspiel state (see the module docstring)."""

    def __init__(self, game: MythzooGame):
        super().__init__(game)
        self._g: _Shared = game._shared
        self._c: Any = _Pending()

    # -- starting --------------------------------------------------------------------------
    def _start(self) -> _Live:
        g = self._g
        pending = self._c
        seed = pending.seed
        if seed is None:
            seed = pending.seed = g.next_seed
        g.next_seed = max(g.next_seed, seed + 1)
        live = self._c = _Live(g, g.initial(seed), seed, [0.0] * g.num_players, False, False)
        return live

    def _live(self) -> _Live:
        c = self._c
        return c if type(c) is _Live else self._start()

    def env_seed(self) -> int:
        """The seed of this game in the env: ``raw_env.reset(seed=state.env_seed())`` plays it."""
        return self._live().env_seed

    def agent_to_move(self) -> str | None:
        """The env agent whose decision this is (``hero_1`` while the League plays), ``None`` once over."""
        c = self._live()
        if c.terminal:
            return None
        return self._g.agents[self._g.rules.current_player(c.s)]

    def env_state(self) -> dict[str, Any]:
        """The env's game state as JSON data (``rules.to_json``: every field, the RNG included)."""
        return self._g.rules.to_json(self._live().s)

    # -- the pyspiel API -------------------------------------------------------------------
    def current_player(self) -> int:
        """The OpenSpiel player to move (``TERMINAL`` once over)."""
        c = self._c
        return c.player if type(c) is _Live else self._start().player

    def _legal_actions(self, player: int) -> list[int]:
        """The env's legal action ids for the seat to move (ascending)."""
        c = self._c
        if type(c) is not _Live:
            c = self._start()
        return c.g.rules.legal_actions(c.s)

    def _apply_action(self, action: int) -> None:
        """One env decision; the end (or the turn cap) fixes the returns."""
        c = self._c
        if type(c) is not _Live:
            c = self._start()
        g = c.g
        rules = g.rules
        s = c.s
        rules.apply(s, int(action))  # IllegalActionError (state unchanged) unless legal
        mover = rules.current_player(s)
        if mover < 0:
            final = g.env._final_rewards(s)  # the env's end-of-game rewards: what its step() pays then
            c.returns = [float(final[seats[0]]) for seats in g.seats_of_player]
            c.terminal = True
            c.player = _TERMINAL
        elif g.max_turns is not None and rules.turns_played(s) >= g.max_turns:
            c.terminal = c.truncated = True
            c.player = _TERMINAL
        else:
            c.player = g.player_of_seat[mover]

    # -- Python fast paths: the same answers as pyspiel.State's C++ methods (tested), without
    # their round trips (LegalActions asks four Python hooks; ObservationTensor first sizes the
    # tensor on a fresh state, then copies it into a new list). C++ callers still take the hooks.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of ``player`` (the player to move by default): empty for anyone else."""
        c = self._c
        if type(c) is not _Live:
            c = self._start()
        if c.terminal or (player is not None and player != c.player):
            return []
        return list(c.g.rules.legal_actions(c.s))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (the player to move by default) as a list."""
        g = self._g
        p = self._check_player(player)
        obs = g.list_observer
        obs.set_from(self, p)
        return obs.tensor.tolist()

    def observation_string(self, player: int | None = None) -> str:
        """``player``'s observation string (the player to move by default)."""
        return self._g.list_observer.string_from(self, self._check_player(player))

    def _check_player(self, player: int | None) -> int:
        p = self.current_player() if player is None else int(player)
        if not 0 <= p < self._g.num_players:
            raise ValueError(f"{self._g.short_name}: no observation for player {p} (players are 0..{self._g.num_players - 1})")
        return p

    def _action_to_string(self, player: int, action: int) -> str:
        """The env's action label; a team player's names the seat to move (``hero_1: end_turn``)."""
        g = self._g
        s = self._live().s
        if player < 0:
            return f"chance {action}"
        seat = g.view_seat(s, player)
        label = g.tables[seat].label(int(action))
        return f"{g.agents[seat]}: {label}" if g.team_player[player] else label

    def is_terminal(self) -> bool:
        """Whether the game has ended (by its rules or at the env's turn cap)."""
        c = self._c
        return c.terminal if type(c) is _Live else self._start().terminal

    def returns(self) -> list[float]:
        """Each player's return: 0 until the end, then the env's final reward of its seat (or team)."""
        return list(self._live().returns)

    def is_truncated(self) -> bool:
        """Whether the game ended at the env's turn cap (every return 0) rather than by its rules."""
        return self._live().truncated

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MythzooState:
        """A state ``player_id`` cannot tell from this one (its observation unchanged), every hidden
        part redrawn and the RNG reseeded: the env's ``resample_hidden``.

        The redraw is seeded by one draw of ``probability_sampler`` mixed with a per-game count of
        resamples (OpenSpiel's Python ISMCTS passes an identically seeded sampler on every call)."""
        c = self._live()
        g = self._g
        u = float(probability_sampler()) if probability_sampler is not None else 0.0
        g.resamples += 1
        seed = int(np.random.SeedSequence([int(u * 2**53), g.resamples]).generate_state(1, np.uint64)[0])
        seat = g.view_seat(c.s, int(player_id))
        s = g.rules.resample_hidden(c.s, seat, seed)
        out = g.game.new_initial_state()
        out._c = _Live(g, s, c.env_seed, list(c.returns), c.terminal, c.truncated)
        return out

    def render(self, player: int | None = None) -> str:
        """The env's text rendering from ``player``'s view seat (the player to move by default)."""
        g = self._g
        s = self._live().s
        if player is None:
            seat = max(g.rules.current_player(s), 0)
        else:
            seat = g.view_seat(s, int(player))
        return type(g.env).renderer(g.rules, s, seat)

    def __str__(self) -> str:
        """The whole state as compact JSON (the env's game state, RNG included, and the returns):
        equal strings mean equal states."""
        c = self._live()
        return json.dumps({"game": self._g.rules.to_json(c.s), "returns": c.returns, "terminal": c.terminal,
                           "truncated": c.truncated, "env_seed": c.env_seed}, separators=(",", ":"))


# ---------------------------------------------------------------------------------- observer
class _Observer:
    """OpenSpiel's PyObserver face over mythzoo's observer: ``tensor``, ``dict``, ``set_from``,
    ``string_from``. ``dict`` holds ``observation`` (the view seat's observation, zero-padded to
    the largest role's) and, where the game needs it, ``view`` (a one-hot of the view seat)."""

    def __init__(self, g: _Shared, iig_obs_type: Any, params: Mapping[str, Any] | None):
        if params:
            raise ValueError(f"{g.short_name}: observation parameters are not supported, got {dict(params)}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError(f"{g.short_name} provides observations, not perfect-recall information states; "
                             "use observation_tensor/observation_string (ISMCTS: use_observation_string=True)")
        self._g = g
        self.seat = 0  # the seat of the last observation written
        self.tensor = np.zeros(g.tensor_size, np.float32)
        self.dict = {"observation": self.tensor[: g.obs_size]}
        if g.view_size:
            self.dict["view"] = self.tensor[g.obs_size:]

    def _state_of(self, state: MythzooState) -> Any:
        c = state._c
        if type(c) is _Live:
            return c.s
        # A fresh state (OpenSpiel sizes tensors on one): the game it will start, not started.
        g = self._g
        return g.peek(c.seed if c.seed is not None else g.next_seed)

    def set_from(self, state: MythzooState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        g = self._g
        c = state._c
        s = c.s if type(c) is _Live else self._state_of(state)
        mover = g.rules.current_player(s)
        seat = mover if mover >= 0 and g.player_of_seat[mover] == player else g.seats_of_player[player][0]
        self.seat = seat
        obs = g.observer.observation(s, seat)
        t = self.tensor
        n = obs.shape[0]
        t[:n] = obs
        if n < g.obs_size:
            t[n:g.obs_size] = 0.0
        if g.view_size:
            t[g.obs_size:] = 0.0
            t[g.obs_size + seat] = 1.0

    def string_from(self, state: MythzooState, player: int) -> str:
        """The view seat's name and a digest of ``player``'s observation tensor and, when ``player``
        is to move, of its legal actions: a player knows what it may do, and the tensor alone does
        not always say it (which of two Mythsgate Cyclopes is resolving its ability is in the mask,
        not the tensor), while OpenSpiel's ISMCTS keys its tree nodes on this string and needs one
        action set per key."""
        self.set_from(state, player)
        digest = hashlib.blake2b(self.tensor.tobytes(), digest_size=16)
        c = state._c
        if type(c) is _Live and not c.terminal and c.player == player:
            digest.update(np.asarray(self._g.rules.legal_actions(c.s), np.int32).tobytes())
        return f"{self._g.agents[self.seat]} {digest.hexdigest()}"


# ---------------------------------------------------------------------------------- the game
class MythzooGame(pyspiel.Game):
    """A mythzoo game loaded through OpenSpiel (see the module docstring for the mapping)."""

    # Set on each registered subclass (OpenSpiel needs a class as the factory: a closure as the
    # factory aborts the interpreter at exit, when OpenSpiel's registry frees it without the GIL).
    _game_type: Any = None
    _spec: GameSpec | None = None

    def __init__(self, params: Mapping[str, Any] | None = None):
        game_type, spec = self._game_type, self._spec
        if game_type is None or spec is None:
            raise TypeError("load a mythzoo game through pyspiel.load_game('mythzoo_<name>')")
        params = dict(params or {})
        g = _Shared(spec, game_type.short_name, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=g.num_players,
            min_utility=g.min_utility,
            max_utility=g.max_utility,
            utility_sum=0.0 if spec.utility == "zero_sum" else None,
            max_game_length=g.max_game_length,
        )
        super().__init__(game_type, info, params)
        self._shared = g
        g.game = self

    def new_initial_state(self) -> MythzooState:
        """A new game; it takes its seed (the next one) when first played."""
        return MythzooState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> _Observer:
        """mythzoo's observation (see :class:`_Observer`); no perfect-recall information state."""
        return _Observer(self._shared, iig_obs_type, params)

    def env_kwargs(self) -> dict[str, Any]:
        """The env kwargs of this game: ``spec.make_raw(**game.env_kwargs())`` is its env."""
        return dict(self._shared.kwargs)

    def agents_of(self, player: int) -> list[str]:
        """The env agents OpenSpiel ``player`` acts for (``["hero_0", "hero_1"]`` for the League)."""
        g = self._shared
        return [g.agents[i] for i in g.seats_of_player[player]]


def _game_type(spec: GameSpec, short_name: str) -> Any:
    params = _parameter_specification(spec)
    counts = spec.seat_counts()
    # OpenSpiel players: the seats, except that a team role's seats are one player (Mythsgate: the
    # Invoker and the League at every size).
    if spec.team_roles:
        lo = hi = len([r for r in spec.roles if r not in spec.team_roles]) + len(spec.team_roles)
    else:
        lo, hi = min(counts), max(counts)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"mythzoo {spec.title} (v{spec.version})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[spec.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


GAME_NAMES: list[str] = []
_GAME_CLASSES: dict[str, type] = {}


def register(spec: GameSpec) -> list[str]:
    """Register ``spec`` with OpenSpiel under ``mythzoo_<name>`` and ``mythzoo_<name>_v<N>``
    (each once per process); returns the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for short in (game_name(spec), game_name(spec, versioned=True)):
        if short not in registered:
            game_type = _game_type(spec, short)
            cls = type(f"MythzooGame_{short}", (MythzooGame,), {"_game_type": game_type, "_spec": spec, "__module__": __name__})
            _GAME_CLASSES[short] = cls
            pyspiel.register_game(game_type, cls)
        if short not in GAME_NAMES:
            GAME_NAMES.append(short)
        names.append(short)
    return names


for _spec in GAMES:
    register(_spec)
