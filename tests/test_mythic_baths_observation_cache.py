"""Mythic Baths observations: the fast encoder equals the oracle, and its caches cannot go stale.

The observer keeps blocks between calls (bath rows, discard counts, a seat's hand, what a player's
guests give), each with copies of the state values it was built from; the rules keep two memos for
legality (adjacency, nourish/clean legality) the same way. Nothing on the state is bookkeeping for
them. So at every step, for every seat, ``observe()`` must equal ``tests/oracles/mythic_baths.py``
(computed from scratch), also when states are edited by hand, restored, copied or shared.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest

from mythzoo.envs import mythic_baths_v1
from mythzoo.envs.mythic_baths.cards import load_card_set
from mythzoo.envs.mythic_baths.rules import DERIVED_FIELDS, STATE_FIELDS, MythicBathsRules, State
from oracles.mythic_baths import reference_observation


def _random_step(e, rng: np.random.Generator) -> bool:
    """One uniform-random legal step; False once the game is over or cut."""
    if any(e.terminations.values()) or any(e.truncations.values()):
        return False
    legal = e.legal_actions()
    e.step(int(legal[rng.integers(len(legal))]))
    return True


def _assert_all_seats_match(e, where) -> None:
    for a in e.possible_agents:
        np.testing.assert_array_equal(e.observe(a)["observation"], reference_observation(e, a), err_msg=f"{where} {a}")


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observation_equals_oracle_at_every_step(num_players: int) -> None:
    e = mythic_baths_v1.raw_env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    for game in range(3 if num_players <= 3 else 2):  # longer games at larger tables
        e.reset(seed=100 + game)
        step = 0
        while True:
            _assert_all_seats_match(e, (game, step))
            step += 1
            if not _random_step(e, rng):
                break


def test_observations_are_fresh_writable_arrays() -> None:
    """Callers may change what they get (the harness's leak test adds to it): never a cached buffer."""
    e = mythic_baths_v1.raw_env(num_players=3)
    e.reset(seed=1)
    a = e.agent_selection
    first = e.observe(a)["observation"]
    assert first.flags.writeable and first.dtype == np.float32
    first += 7.0
    np.testing.assert_array_equal(e.observe(a)["observation"], reference_observation(e, a))


def _a_card(s) -> int:
    """A card taken from the deck, or from a hand when the deck is empty."""
    if s.deck:
        return s.deck.pop()
    hand = next(h for h in s.hands if sum(h))
    k = next(k for k, c in enumerate(hand) if c)
    hand[k] -= 1
    return k


def _edits():
    """In-place edits of a state that no rule made: each changes a value some cache is keyed on."""

    def move_nourish(s, R):
        free = [b for b in range(R.num_baths) if s.bath_guest[b] >= 0 and not R.guests[s.bath_guest[b]].troublesome and b not in s.nourish]
        s.nourish[0] = free[0] if free else -1

    def dirty_an_empty_bath(s, R):
        b = next((b for b in range(R.num_baths) if s.bath_guest[b] < 0), None)
        if b is None:
            s.guest_deck.append(s.bath_guest[0])
            s.bath_guest[0] = -1
            s.nourish = [-1 if x == 0 else x for x in s.nourish]
            b = 0
        s.bath_dirty[b] = 1 - s.bath_dirty[b]

    def swap_guest(s, R):  # same number of guests in play, another guest in bath 0
        b = next(b for b in range(R.num_baths) if s.bath_guest[b] >= 0)
        s.bath_guest[b], s.guest_deck[-1] = s.guest_deck[-1], s.bath_guest[b]
        s.nourish = [-1 if x == b else x for x in s.nourish]

    def troublesome_progress(s, R):  # a troublesome guest in bath 1, partly treated
        x = next(g.gid for g in R.guests if g.troublesome and g.gid in s.guest_deck)
        s.guest_deck[s.guest_deck.index(x)] = s.bath_guest[1] if s.bath_guest[1] >= 0 else s.guest_deck.pop()
        s.bath_guest[1], s.bath_dirty[1] = x, 0
        s.nourish = [-1 if b == 1 else b for b in s.nourish]
        t = next(t for t in range(R.T) if R.guests[x].needs[t])
        s.bath_filled[1] = [1 if u == t else 0 for u in range(R.T)]
        s.bath_cards[1] = [_a_card(s)]

    def more_progress(s, R):
        b = next((b for b in range(R.num_baths) if s.bath_guest[b] >= 0 and R.guests[s.bath_guest[b]].troublesome), None)
        if b is not None:
            s.bath_cards[b].append(_a_card(s))
            s.bath_extra[b] = 1

    def same_length_discard(s, R):  # the pile's length stays, its content changes
        if not s.discard:
            s.discard.append(_a_card(s))
        k = s.discard[0]
        i = next((i for i, c in enumerate(s.deck) if c != k), None)
        if i is not None:
            s.discard[0], s.deck[i] = s.deck[i], k

    def grown_discard_with_another_first_card(s, R):  # longer, but not by appending: counted again
        k = s.discard[0]
        i = next((i for i, c in enumerate(s.deck) if c != k), None)
        if i is not None:
            s.discard[0], s.deck[i] = s.deck[i], k
        s.discard.append(_a_card(s))

    def grown_discard(s, R):  # appended to: the new cards are added to the kept counts
        s.discard.extend([_a_card(s), _a_card(s)])

    def own_hand(s, R):
        p = s.current
        k = next(k for k in range(R.K) if s.hands[p][k] == 0)
        s.hands[p][k] += 1

    def collect_a_guest(s, R):
        s.collected[1].append(s.guest_deck.pop())

    def supply_and_tokens(s, R):
        s.supply[0] = -1 if s.supply[0] >= 0 else _a_card(s)
        s.tokens[1][2] = 1

    return [move_nourish, dirty_an_empty_bath, swap_guest, troublesome_progress, more_progress, same_length_discard,
            grown_discard_with_another_first_card, grown_discard, own_hand, collect_a_guest, supply_and_tokens]


@pytest.mark.parametrize("num_players", [2, 5])
def test_caches_follow_edits_made_behind_their_back(num_players: int) -> None:
    """No rule runs between these edits, so nothing could have told a cache: only its keys can."""
    e = mythic_baths_v1.raw_env(num_players=num_players)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(25):
        _random_step(e, rng)
    _assert_all_seats_match(e, "before the edits")  # every cache warm
    for edit in _edits():
        edit(e.state_, e.rules)
        _assert_all_seats_match(e, edit.__name__)


def test_one_observer_serving_diverging_copies() -> None:
    """A deep copy of an env shares its observer and rules (static tables, value-keyed caches):
    interleaved, each copy still gets its own state's observation."""
    e = mythic_baths_v1.raw_env(num_players=3)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(20):
        _random_step(e, rng)
    f = copy.deepcopy(e)
    assert f.observer is e.observer and f.rules is e.rules
    rng_e, rng_f = np.random.default_rng(1), np.random.default_rng(2)
    for step in range(150):
        live_e, live_f = _random_step(e, rng_e), _random_step(f, rng_f)
        _assert_all_seats_match(e, ("e", step))
        _assert_all_seats_match(f, ("f", step))
        if not (live_e or live_f):
            break


def test_set_state_into_an_env_with_warm_caches() -> None:
    src = mythic_baths_v1.raw_env(num_players=4)
    src.reset(seed=11)
    dst = mythic_baths_v1.raw_env(num_players=4)
    dst.reset(seed=12)
    rng = np.random.default_rng(0)
    for _ in range(60):
        _random_step(src, rng)
        _random_step(dst, rng)
    _assert_all_seats_match(dst, "warm")
    dst.set_state(src.get_state())
    _assert_all_seats_match(dst, "restored")
    for a in src.possible_agents:
        np.testing.assert_array_equal(dst.observe(a)["observation"], src.observe(a)["observation"])


def test_pickled_env_rebuilds_its_caches() -> None:
    e = mythic_baths_v1.env(num_players=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        _random_step(e, rng)
    _assert_all_seats_match(e, "warm")
    p = pickle.loads(pickle.dumps(e))
    assert not p.observer._bath_cache and p.rules._board is None  # caches are not carried over
    _assert_all_seats_match(p, "unpickled")
    for a in e.possible_agents:
        np.testing.assert_array_equal(p.observe(a)["observation"], e.observe(a)["observation"])


def test_state_carries_no_cache_bookkeeping() -> None:
    """The state is the game: no version counters, no encoder caches (only RulesBase's legal-action cache)."""
    assert DERIVED_FIELDS == ("legal",)
    names = {f.name for f in dataclasses.fields(State)}
    assert names == set(STATE_FIELDS) | {"rng", "legal"}
    assert not {n for n in names if "version" in n or "cache" in n or n in ("board", "board_legal", "discard_counts")}
    e = mythic_baths_v1.raw_env(num_players=2)
    e.reset(seed=0)
    assert set(e.get_state()["game"]) == set(STATE_FIELDS) | {"rng"}


@pytest.mark.parametrize("num_players", [2, 4])
def test_rules_memos_equal_a_fresh_engine(num_players: int) -> None:
    """The legality memos (adjacency, nourish/clean legality) live in the rules object and are keyed on
    values: the legal actions of the live engine equal those of a new engine with empty memos,
    at every step and after edits no rule made."""
    cs = load_card_set()
    R = MythicBathsRules(cs, num_players)
    rng = np.random.default_rng(num_players)
    for game in range(4):
        s = R.initial_state(game)
        while not s.over:
            assert R._compute_legal(s) == MythicBathsRules(cs, num_players)._compute_legal(R.clone(s)) == R.legal_actions(s)
            legal = R.legal_actions(s)
            R.apply(s, legal[int(rng.integers(len(legal)))])
    s = R.initial_state(9)
    R.legal_actions(s)
    s.bath_dirty[0], s.guest_deck = 1, s.guest_deck + [s.bath_guest[0]]
    s.bath_guest[0] = -1
    assert R._compute_legal(s) == MythicBathsRules(cs, num_players)._compute_legal(R.clone(s))
