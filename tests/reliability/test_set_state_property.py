"""Property: ``set_state`` given any mutation of a reachable state either refuses it with
``ValueError`` and leaves the env exactly as it was, or accepts it, and then seeded random play
continues to the end without any other exception, with ``legal_actions()``, the action mask and
``last()`` agreeing at every step and every state round-tripping through ``get_state()``.

Bounded for CI (the ``ci`` profile: 60 examples per game, derandomized); ``--fuzz-games N`` runs
``N`` examples per game instead (e.g. ``--fuzz-games 3000``, the size of the fuzz that found the
cases of ``test_env_state.py``).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from mythzoo.envs import GAMES

CI_EXAMPLES = 60
settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Values a mutation writes: the boundaries where a checker slips (off by one, negative, 64/128-bit
# overflow, float for int, bool for int, wrong container).
SPECIAL = [-1, 0, 1, 2, 3, 5, 10, 2**31, 2**32, 2**63, 2**64, 2**128, -(2**70), 10**6, 1.5, 2.0, float("inf"),
           float("nan"), True, False, None, "x", [], {}, [0], [[0]]]


def _leaves(x: Any, path: tuple = ()) -> list[tuple]:
    """Every path into ``x`` (containers and scalars)."""
    out = [path] if path else []
    if isinstance(x, dict):
        for k, v in x.items():
            out += _leaves(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _leaves(v, path + (i,))
    return out


def _get(x: Any, path: tuple) -> Any:
    for p in path:
        x = x[p]
    return x


def _kwargs(spec, size: int) -> dict:
    """The env kwargs of table size number ``size`` (modulo the game's sizes)."""
    return {spec.size_argument: spec.sizes[size % len(spec.sizes)]} if spec.size_argument else {}


def _reached(spec, seed: int, steps: int, size: int = 0):
    """``spec``'s raw env (table size number ``size``) after ``steps`` seeded random decisions (fewer if the game ends)."""
    e = spec.make_raw(**_kwargs(spec, size))
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = e.legal_actions()
        if not legal:
            break
        e.step(int(rng.choice(legal)))
    return e


def _check_agree(e) -> list[int]:
    obs, _, term, trunc, _ = e.last()
    legal = e.legal_actions()
    assert legal == [int(a) for a in np.flatnonzero(obs["action_mask"])], "legal_actions() and the mask disagree"
    if term or trunc:
        assert legal == [], "a done agent has legal actions"
    return legal


def _play_out(spec, e, seed: int, size: int = 0) -> None:
    """Random play to the end; every few steps the state goes through get_state/set_state on a fresh env."""
    rng = np.random.default_rng(seed)
    fresh = spec.make_raw(**_kwargs(spec, size))
    fresh.reset(seed=0)
    bound = e.max_decisions or 100_000
    for step in range(bound + len(e.possible_agents) + 1):
        if not e.agents:
            return
        legal = _check_agree(e)
        if step % 7 == 0:
            s = e.get_state()
            fresh.set_state(s)
            assert fresh.get_state() == s
        e.step(int(rng.choice(legal)) if legal else None)
    raise AssertionError(f"play did not end within {bound} decisions")


@st.composite
def mutations(draw):
    """(state seed, decisions before the mutation, mutated path choice, kind, new value, shift, table size)."""
    seed = draw(st.integers(0, 10**6))
    steps = draw(st.integers(0, 200))
    where = draw(st.integers(0, 2**31))
    # small shifts of an int most often: they are the mutations a range check can miss
    kind = draw(st.sampled_from(["shift", "shift", "shift", "special", "drop", "dup", "swap"]))
    special = draw(st.sampled_from(SPECIAL))
    shift = draw(st.sampled_from([-2, -1, 1, 2, 7, 100]))
    size = draw(st.integers(0, 4))
    return seed, steps, where, kind, special, shift, size


def _mutate(state: dict, where: int, kind: str, special: Any, shift: int) -> dict:
    s = copy.deepcopy(state)
    paths = _leaves(s["game"]) + [("__aec__",) + p for p in _leaves(s["aec"])]
    path = paths[where % len(paths)]
    root, path = (s["aec"], path[1:]) if path[0] == "__aec__" else (s["game"], path)
    if not path:
        return s
    parent, key = _get(root, path[:-1]), path[-1]
    old = parent[key]
    if kind == "shift" and type(old) is int:
        parent[key] = old + shift
    elif kind == "drop" and isinstance(parent, list):
        del parent[key]
    elif kind == "dup" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(old))
    elif kind == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = (key + 1 + shift % (len(parent) - 1)) % len(parent)
        parent[key], parent[other] = parent[other], old
    else:
        parent[key] = special
    return s


def _examples(request) -> int:
    n = request.config.getoption("--fuzz-games")
    return CI_EXAMPLES if n is None else n


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_set_state_refuses_or_plays_on(spec, request):
    @settings(settings.get_profile("ci"), max_examples=_examples(request))
    @given(mutations())
    def check(m):
        seed, steps, where, kind, special, shift, size = m
        e = _reached(spec, seed, steps, size)
        state = e.get_state()
        bad = _mutate(state, where, kind, special, shift)
        try:
            e.set_state(bad)
        except ValueError as err:
            assert "\n" not in str(err), "a refusal is one line"
            assert e.get_state() == state, "a refused state changed the env"
            if e.agents:
                _check_agree(e)
            event("refused")
            return
        event("accepted")
        _play_out(spec, e, seed, size)

    check()
