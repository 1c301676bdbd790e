"""Mythsgate's observation caches never go stale: the observer keeps each packed block next to a copy
of the state values it was packed from, so whatever state it is given (the next one of a game, a
clone, another game's, one edited by hand) it returns exactly the from-scratch reference
(``tests/oracles/mythsgate.py``). Checked at every step of seeded random games for every number of
heroes and every seat; the rules and the state carry no observation bookkeeping at all."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v2
from mythzoo.envs.mythsgate.gamedata import load_data
from mythzoo.envs.mythsgate.rules import DERIVED_FIELDS, STATE_FIELDS, State
from oracles.mythsgate import reference_observation

GD = load_data(None)
CHARACTER_SETS = {
    1: [None, [1], [2], [3], [4]],
    2: [None, [4, 3], [1, 2]],
    3: [None, [2, 3, 4]],
    4: [None, [1, 2, 3, 4]],
    5: [None, [4, 3, 2, 1, 0]],
}


def _assert_reference(e, agent: str, obs: np.ndarray, where: str, expected: np.ndarray | None = None) -> np.ndarray:
    if expected is None:
        expected = reference_observation(e, agent)
    assert obs.dtype == np.float32 and obs.shape == expected.shape
    if not np.array_equal(obs, expected):
        bad = np.flatnonzero(obs != expected)
        feats = e.observation_features(agent)
        raise AssertionError(f"{where} {agent}: stale {[(feats[i], float(obs[i]), float(expected[i])) for i in bad[:5]]}")
    return expected


def _play_and_compare(e, seed: int, rng: np.random.Generator) -> int:
    """One game of the raw env; every seat's observation checked at every step, also by an observer
    that has cached nothing (its caches emptied before each call)."""
    e.reset(seed=seed)
    cold = copy.copy(e.observer)  # shares the tables, not the caches once cleared
    steps = 0
    while True:
        for seat, agent in enumerate(e.possible_agents):
            expected = _assert_reference(e, agent, e.observe(agent)["observation"], f"seed {seed} step {steps}")
            cold._clear_caches()
            _assert_reference(e, agent, cold.observation(e.state_, seat), f"cold seed {seed} step {steps}", expected)
        if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
            return steps
        legal = e.legal_actions()
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1


@pytest.mark.parametrize("num_heroes", [1, 2, 3, 4, 5])
def test_observation_equals_the_reference_at_every_step(num_heroes: int) -> None:
    steps = 0
    for chars in CHARACTER_SETS[num_heroes]:
        e = mythsgate_v2.raw_env(num_heroes=num_heroes, characters=chars)
        rng = np.random.default_rng(100 + num_heroes)
        games = (4 if chars is None else 2) if num_heroes <= 2 else (2 if chars is None else 1)  # longer games with more heroes
        for game in range(games):
            steps += _play_and_compare(e, 1000 * num_heroes + game, rng)
    assert steps > 300


def test_env_observation_equals_the_reference_through_the_aec_loop() -> None:
    e = mythsgate_v2.env(num_heroes=3)
    rng = np.random.default_rng(7)
    for game in range(3):
        e.reset(seed=game)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            _assert_reference(e, agent, obs["observation"], f"game {game}")
            assert obs["observation"].flags.writeable
            legal = np.flatnonzero(obs["action_mask"])
            e.step(None if term or trunc else int(legal[rng.integers(legal.size)]))


def test_interleaved_states_share_one_observer() -> None:
    """Two games (and clones of their states) observed in turn through the same observer: a block
    cached for one state is never shown for the other."""
    a, b = mythsgate_v2.raw_env(num_heroes=3), mythsgate_v2.raw_env(num_heroes=3)
    b.observer = a.observer  # one observer (as deep copies of an env share theirs)
    a.reset(seed=1)
    b.reset(seed=2)
    rng = np.random.default_rng(1)
    for step in range(150):
        for e in (a, b, a):
            for agent in e.possible_agents:
                _assert_reference(e, agent, e.observe(agent)["observation"], f"step {step}")
        for e in (a, b):
            if not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
                e.step(int(rng.choice(e.legal_actions())))
        # a clone observed in place of the state it was taken from: the same values, the same vector
        c = a.rules.clone(a.state_)
        np.testing.assert_array_equal(a.observer.observation(c, 1), a.observe("hero_0")["observation"])


def test_rules_and_state_carry_no_observation_bookkeeping() -> None:
    names = {f.name for f in fields(State)}
    assert DERIVED_FIELDS == ("legal",)
    assert names == set(STATE_FIELDS) | {"rng", "legal"}  # the game and the legal-action cache, nothing else
    e = mythsgate_v2.env(num_heroes=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.integers(legal.size)]))
    before = e.rules.to_json(e.state_)
    for a in e.possible_agents:
        e.observe(a)
    assert e.rules.to_json(e.state_) == before  # observing changes nothing in the state
    assert set(before) == set(STATE_FIELDS) | {"rng"}


def test_get_state_set_state_deepcopy_and_pickle_give_the_same_observations() -> None:
    e = mythsgate_v2.env(num_heroes=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.integers(legal.size)]))
    before = {a: e.observe(a)["observation"].copy() for a in e.possible_agents}
    other = mythsgate_v2.env(num_heroes=2)
    other.set_state(e.get_state())
    for a in e.possible_agents:
        np.testing.assert_array_equal(other.observe(a)["observation"], before[a])
    # a deep copy shares the observer; playing on in it leaves the original's observations intact
    dc = copy.deepcopy(e)
    assert dc.observer is e.observer
    for _ in range(10):
        legal = np.flatnonzero(dc.observe(dc.agent_selection)["action_mask"])
        dc.step(int(legal[0]))
        for a in e.possible_agents:
            np.testing.assert_array_equal(e.observe(a)["observation"], before[a])
            _assert_reference(dc, a, dc.observe(a)["observation"], "deep copy")
    # pickling drops the caches (rebuilt on use) and keeps the tables
    ob = pickle.loads(pickle.dumps(e.observer))
    assert ob._c_heroes is None
    for seat, a in enumerate(e.possible_agents):
        np.testing.assert_array_equal(ob.observation(e.state_, seat), before[a])


def test_state_edited_by_hand_is_observed_as_it_is() -> None:
    """Scenario code edits a state in place, without telling anyone (not even ``legal = None``):
    the next observations show the edited values."""
    e = mythsgate_v2.raw_env(num_heroes=2)
    e.reset(seed=5)
    for a in e.possible_agents:
        e.observe(a)
    s = e.state_
    s.h_lives[0] = 2
    s.life_supply -= 1
    s.m_space[0], s.m_lives[0] = GD.portal, 1
    s.life_supply -= 1
    for pile in (s.inv_hand, s.inv_deck, s.inv_discard, s.inv_aside):
        if GD.minion_cards[0] in pile:
            pile.remove(GD.minion_cards[0])
    s.h_mats[1][0] += 1
    s.supply[0] -= 1
    s.tokens[2] = 1
    s.power_discard.append(s.power_deck.pop())
    for a in e.possible_agents:
        _assert_reference(e, a, e.observe(a)["observation"], "edited")
    s.round, s.h_taken, s.inv_left, s.ban4 = 77, 23, 31, 2  # values past what a game reaches (validate rejects some)
    for a in e.possible_agents:
        _assert_reference(e, a, e.observe(a)["observation"], "out of range")


def test_observation_shows_which_minions_ability_awaits_its_target() -> None:
    """Rulebook, Dragon and Cyclops: the Invoker chooses the target of one minion's ability. Two states
    that differ only in which Cyclops resolves have different legal targets, so the observation (not
    only the mask) says which minion it is (``ability_minion``, new in mythsgate_v2)."""
    import json
    from pathlib import Path

    from mythzoo.envs.mythsgate.rules import P_CYCLOPS, P_DRAGON

    data = json.loads((Path(__file__).parent / "data" / "mythsgate_two_cyclopes.json").read_text())
    e = mythsgate_v2.raw_env(num_heroes=2)
    e.reset(seed=0)
    rules, observer = e.rules, e.observer
    piece = e.observation_layout("invoker").by_name["ability_minion"]
    views = []
    for key in ("a", "b"):
        s = rules.from_json(data[key])
        assert s.phase == P_CYCLOPS and rules.current_player(s) == 0
        obs = observer.observation(s, 0)
        one_hot = obs[piece.offset : piece.offset + piece.size]
        assert one_hot.tolist() == [1.0 if m == s.ab_minion else 0.0 for m in range(piece.size)]
        views.append((obs, rules.legal_actions(s)))
    (obs_a, legal_a), (obs_b, legal_b) = views
    assert legal_a != legal_b and not np.array_equal(obs_a, obs_b)
    # Outside those phases the piece is zero, for every seat, over random play.
    rng = np.random.default_rng(5)
    s = rules.initial_state(5)
    seen_pending = 0
    for _ in range(3000):
        if rules.current_player(s) < 0:
            s = rules.initial_state(int(rng.integers(1 << 30)))
            continue
        for seat, agent in enumerate(e.possible_agents):
            p = e.observation_layout(agent).by_name["ability_minion"]
            got = observer.observation(s, seat)[p.offset : p.offset + p.size]
            pending = s.phase in (P_DRAGON, P_CYCLOPS)
            seen_pending += pending
            assert got.sum() == (1.0 if pending else 0.0) and (not pending or got[s.ab_minion] == 1.0)
        legal = rules.legal_actions(s)
        rules.apply(s, int(legal[rng.integers(len(legal))]))
    assert seen_pending > 0
