"""The test-side adapter: what the conformance suite needs to know about a game beyond its GameSpec.

One :class:`Adapter` entry per game name in :data:`ADAPTERS`; a registered game without one fails
``test_spec.py::test_every_registered_game_has_an_adapter_entry``. The hooks read only the JSON of
``get_state()["game"]`` (the game's documented state fields), never the engine:

- ``hidden_view(game, seat)``: the parts of ``game`` hidden from ``seat`` that ``resample_hidden`` is
  expected to redraw (``None``: the game hides nothing, the "resample changes something" check is off);
- ``perturb_hidden(game, seat, rng)``: ``game`` changed only in a part hidden from ``seat``, as
  ``(game, seat whose own view changes, or None)``, or ``None`` when no such change is possible now
  (``None`` hook: no leak check);
- ``turn_cap``: env kwargs that cut games short by the turn cap (the truncation path);
- ``short``: env kwargs for a short whole game, for the checks that play many whole games;
- ``fuzz_games``: random games per seat count in the simulation when ``--fuzz-games`` is not given.

Also here: the expected failures, in one place (``ORACLES_PENDING``, ``KNOWN_GAPS``), the parameter
lists every conformance module uses (:func:`spec_params`, :func:`seat_params`, :func:`edge_seat_params`)
and the helpers that build a face of a game at a seat count (:func:`make`) or mid-game (:func:`started`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import mythzoo.envs
from mythzoo.envs.core.rng import make_rng, rng_to_json
from mythzoo.envs.core.spec import GameSpec

from conformance.harness import Target

DEFAULT_FUZZ_GAMES = 25
HiddenView = Callable[[dict, int], Any]
PerturbHidden = Callable[[dict, int, np.random.Generator], "tuple[dict, int | None] | None"]


@dataclass(frozen=True)
class Adapter:
    """One game's test-side hooks (see the module docstring)."""

    hidden_view: HiddenView | None
    perturb_hidden: PerturbHidden | None
    turn_cap: dict[str, Any]
    short: dict[str, Any] = field(default_factory=dict)
    fuzz_games: int = DEFAULT_FUZZ_GAMES


# ------------------------------------------------------------------ Mythic Baths
MYTHIC_BATHS_PAY_PHASE = 4  # ``phase`` of the payment step (docs/envs/mythic_baths.md, state fields)


def mythic_baths_hidden(game: dict, seat: int) -> Any:
    """Hidden from ``seat``: the other players' hands and the ingredient deck's order."""
    return ([h for p, h in enumerate(game["hands"]) if p != seat], list(game["deck"]))


def mythic_baths_perturb(game: dict, seat: int, rng: np.random.Generator) -> tuple[dict, int] | None:
    """Swap a card of another player's hand with a different card of the deck.

    Not the player to move while it pays for a treatment: its hand then constrains the legal
    payments, and a swap may leave it no legal action (not a state the observer could face).
    """
    n = len(game["hands"])
    cands = [q for q in range(n) if q != seat and sum(game["hands"][q]) and not (q == game["current"] and game["phase"] == MYTHIC_BATHS_PAY_PHASE)]
    if not cands or not game["deck"]:
        return None
    q = cands[int(rng.integers(len(cands)))]
    hand = game["hands"][q]
    k = int(rng.choice([i for i, c in enumerate(hand) if c]))
    idx = [i for i, c in enumerate(game["deck"]) if c != k]
    if not idx:
        return None
    i = int(rng.choice(idx))
    j = game["deck"][i]
    hand[k] -= 1
    hand[j] += 1
    game["deck"][i] = k
    return game, q


# ------------------------------------------------------------------ Mythsgate
def mythsgate_hidden(game: dict, seat: int) -> Any:
    """Hidden from ``seat``: for the Invoker the heroes' hands; for a hero the Invoker's hand and deck
    and the Kraken's view; for both the order of the Power deck (beyond what they saw) and of the location decks."""
    deck = game["power_deck"]
    if seat == 0:
        keep = game["inv_known"]
        return ([list(h) for h in game["h_hand"]], deck[: len(deck) - keep], [list(d) for d in game["loc_deck"]])
    return (list(game["inv_hand"]), list(game["inv_deck"]), list(game["cb_kview"]), deck[:-1], [list(d) for d in game["loc_deck"]])


def mythsgate_perturb(game: dict, seat: int, rng: np.random.Generator) -> tuple[dict, int] | None:
    """For the Invoker: swap a card of a hero's hand he does not know is there with a different unseen
    card of the Power deck. For a hero: swap a card of the Invoker's hand not publicly taken with a card of his deck."""
    if seat == 0:
        deck = game["power_deck"]
        free = len(deck) - game["inv_known"]
        unknown = [[c - kn for c, kn in zip(hand, known)] for hand, known in zip(game["h_hand"], game["h_known"])]
        heroes = [h for h, hand in enumerate(unknown) if sum(hand)]
        if not heroes or free <= 0:
            return None
        h = heroes[int(rng.integers(len(heroes)))]
        hand = game["h_hand"][h]
        kk = int(rng.choice([i for i, c in enumerate(unknown[h]) if c]))
        idx = [i for i in range(free) if deck[i] != kk]
        if not idx:
            return None
        i = int(rng.choice(idx))
        hand[kk] -= 1
        hand[deck[i]] += 1
        deck[i] = kk
        return game, 1 + h
    hidden = [i for i, c in enumerate(game["inv_hand"]) if c not in game["inv_hand_known"]]
    if not hidden or not game["inv_deck"]:
        return None
    i = hidden[int(rng.integers(len(hidden)))]
    j = int(rng.integers(len(game["inv_deck"])))
    game["inv_hand"][i], game["inv_deck"][j] = game["inv_deck"][j], game["inv_hand"][i]
    game["inv_hand"].sort()
    return game, 0


# ------------------------------------------------------------------ Mythwind: the Innkeeper
def innkeeper_hidden(game: dict, seat: int) -> Any:
    """Hidden: only the Generator (the bag, weather deck and gossip deck are sorted sets; their draws are the secret)."""
    return game["rng"]


def innkeeper_perturb(game: dict, seat: int, rng: np.random.Generator) -> tuple[dict, None]:
    """Replace the Generator (every future draw changes); the observation must not."""
    game["rng"] = rng_to_json(make_rng(int(rng.integers(2**62))))
    return game, None


# ------------------------------------------------------------------ the toy games of the tests
def toy_game_hidden(game: dict, seat: int) -> Any:
    """Hidden from ``seat``: the other hands and the deck's order."""
    return ([h for p, h in enumerate(game["hands"]) if p != seat], list(game["deck"]))


def toy_game_perturb(game: dict, seat: int, rng: np.random.Generator) -> tuple[dict, int] | None:
    """Swap a card of another player's hand with a card of another kind from the deck."""
    cands = [q for q in range(len(game["hands"])) if q != seat and sum(game["hands"][q])]
    if not cands or not game["deck"]:
        return None
    q = cands[int(rng.integers(len(cands)))]
    hand = game["hands"][q]
    k = int(rng.choice([i for i, c in enumerate(hand) if c]))
    idx = [i for i, c in enumerate(game["deck"]) if c != k]
    if not idx:
        return None
    i = int(rng.choice(idx))
    hand[k] -= 1
    hand[game["deck"][i]] += 1
    game["deck"][i] = k
    return game, q


def hide_seek_hidden(game: dict, seat: int) -> Any:
    """Hidden from the seeker: the box; from the hider: the hint."""
    return game["box"] if seat == 1 else game["hint"]


def hide_seek_perturb(game: dict, seat: int, rng: np.random.Generator) -> tuple[dict, int | None] | None:
    """Move the hider's box (the seeker's view, and the hider's, stay); or change the seeker's hint."""
    if game["box"] < 0:
        return None
    if seat == 1:
        game["box"] = (game["box"] + 1 + int(rng.integers(2))) % 3
        return game, None
    game["hint"] = (game["hint"] + 1 + int(rng.integers(2))) % 3
    return game, 1


ADAPTERS: dict[str, Adapter] = {
    "mythic_baths": Adapter(mythic_baths_hidden, mythic_baths_perturb, turn_cap={"max_turns": 12}),
    "mythsgate": Adapter(mythsgate_hidden, mythsgate_perturb, turn_cap={"max_rounds": 2}, fuzz_games=3),
    "mythwind_innkeeper": Adapter(innkeeper_hidden, innkeeper_perturb, turn_cap={"max_turns": 3}, short={"days_per_season": 2, "seasons": 2}),
    "toy_game": Adapter(toy_game_hidden, toy_game_perturb, turn_cap={"max_turns": 3}, fuzz_games=13),
    "toy_hide_seek": Adapter(hide_seek_hidden, hide_seek_perturb, turn_cap={"max_turns": 1}, fuzz_games=13),
}


# ------------------------------------------------------------------ expected failures, in ONE place
# Each line marks matching tests xfail(strict=False) (tests/conformance/conftest.py applies them):
# (test function, game name or None for every game, a substring of the test id or "", reason).
# Delete a line when its gap is closed; a test that then passes was only waiting for it.
ORACLES_PENDING = [
    ("test_observation_equals_the_oracle", game, "", "oracle lands with the game port")
    for game in ()
]
KNOWN_GAPS: list[tuple[str, str | None, str, str]] = []
EXPECTED_FAILURES = ORACLES_PENDING + KNOWN_GAPS


# ------------------------------------------------------------------ lookups and parameters
def adapter(spec: GameSpec) -> Adapter:
    """The adapter entry of ``spec``'s game; a clear failure when there is none."""
    entry = ADAPTERS.get(spec.name)
    if entry is None:
        pytest.fail(f"{spec.env_name} has no entry in tests/conformance/games.py ADAPTERS (hidden_view, perturb_hidden, turn_cap)", pytrace=False)
    return entry


def target(spec: GameSpec, make_raw: Callable[..., Any] | None = None) -> Target:
    """What the simulation harness plays: the game's raw env (or ``make_raw``), its hooks and its declared facts."""
    a = adapter(spec)
    return Target(
        name=spec.env_name,
        make_raw=make_raw or spec.make_raw,
        hidden_view=a.hidden_view,
        perturb_hidden=a.perturb_hidden,
        utility=spec.utility,
        decision_bound=spec.decision_bound,
    )


def specs() -> list[GameSpec]:
    """Every registered game (the shipped ones and the toys of ``tests/conftest.py``)."""
    return list(mythzoo.envs.SPECS.values())


def spec_params(only: Callable[[GameSpec], bool] | None = None) -> list[Any]:
    """One pytest param per registered game (``only``: those it accepts)."""
    return [pytest.param(s, id=s.name) for s in specs() if only is None or only(s)]


def seat_params(only: Callable[[GameSpec], bool] | None = None) -> list[Any]:
    """One pytest param ``(spec, seats)`` per registered game and seat count."""
    return [pytest.param(s, n, id=f"{s.name}-{n}p") for s in specs() if only is None or only(s) for n in s.seat_counts()]


def edge_seat_params(only: Callable[[GameSpec], bool] | None = None) -> list[Any]:
    """``(spec, seats)`` for the smallest and the largest table of every game (checks that play many whole games)."""
    return [pytest.param(s, n, id=f"{s.name}-{n}p") for s in specs() if only is None or only(s)
            for n in sorted({min(s.seat_counts()), max(s.seat_counts())})]


def make(spec: GameSpec, seats: int | None = None, face: str = "env", **kwargs: Any) -> Any:
    """``env()`` (``face="env"``) or ``raw_env`` of ``spec`` at ``seats`` players (``None``: the default)."""
    kw = spec.size_kwargs(seats, kwargs)
    return spec.make(**kw) if face == "env" else spec.make_raw(**kw)


def play_random(env: Any, steps: int, seed: int = 0) -> bool:
    """Reset with ``seed`` and play up to ``steps`` seeded random decisions; False if the game ended first."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return False
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    return bool(env.agents) and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection])


def started(spec: GameSpec, seats: int | None = None, face: str = "raw_env", steps: int = 20, **kwargs: Any) -> Any:
    """An env mid-game: ``steps`` random decisions in (fewer, trying later seeds, for short games), still live.

    The position is played once per game, table, face and arguments and then loaded with ``set_state``
    into a fresh env (the state round trip itself is tested in ``test_state.py``)."""
    key = (spec.env_name, seats, face, steps, json.dumps(kwargs, sort_keys=True, default=str))
    state = _STARTED.get(key)
    if state is None:
        env = make(spec, seats, face, **kwargs)
        for want in (steps, steps // 2, steps // 4, 1, 0):
            if any(play_random(env, want, seed) for seed in range(10)):
                break
        else:
            raise AssertionError(f"{spec.env_name}: no seed gives a live game after a decision")
        state = _STARTED[key] = env.get_state()
    env = make(spec, seats, face, **kwargs)
    env.set_state(copy.deepcopy(state))
    return env


_STARTED: dict[tuple, dict] = {}


def with_an_illegal_action(spec: GameSpec, seats: int | None = None, face: str = "raw_env", steps: int = 20) -> Any:
    """An env mid-game (``steps`` decisions in, fewer for short games) whose agent to move has an
    illegal action; skips the test if random play finds no such state."""
    for want in (steps, steps // 4, 1, 0):
        for seed in range(5):
            env = make(spec, seats, face)
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for i in range(10 * steps):
                if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                    break
                mask = env.observe(env.agent_selection)["action_mask"]
                if i >= want and not mask.all():
                    return env
                env.step(int(rng.choice(np.flatnonzero(mask))))
    pytest.skip(f"{spec.env_name}: every action is legal in every state random play reaches")
