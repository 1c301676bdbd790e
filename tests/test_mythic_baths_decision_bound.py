"""The declared bound on decisions (``SPEC.max_decisions``) holds, and is not absurdly loose.

The bound is the turn cap times the most decisions one turn can take (derived in
``envs/mythic_baths/spec.py``). Random and turn-prolonging games must stay within it, turn by
turn and game by game, and the bound must be within 20x of the longest game observed.
"""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo.envs import mythic_baths_v1, spec
from mythzoo.envs.mythic_baths.cards import load_card_set
from mythzoo.envs.mythic_baths.env import TURNS_PER_PLAYER
from mythzoo.envs.mythic_baths.rules import MythicBathsRules

SPEC = spec("mythic_baths")
PER_TURN = 14  # (6 + 5) + 3 with the reconstructed cards: see max_decisions


def _play(R: MythicBathsRules, seed: int, max_turns: int, prolong: bool) -> tuple[int, int]:
    """Decisions of one game cut at ``max_turns`` turns as the env cuts it, and the most in one turn.
    ``prolong``: mostly the highest legal id (payments one unit at a time, stop treating, tokens
    before ending the turn), which keeps turns long and stalls games up to the cap."""
    rng = np.random.default_rng(seed)
    s = R.initial_state(seed)
    decisions = in_turn = most = 0
    turn = s.turn
    while not s.over and s.turn < max_turns:
        legal = R.legal_actions(s)
        a = legal[-1] if prolong and rng.random() < 0.7 else legal[int(rng.integers(len(legal)))]
        R.apply(s, a)
        decisions += 1
        in_turn += 1
        if s.turn != turn:
            most, in_turn, turn = max(most, in_turn), 0, s.turn
    return decisions, max(most, in_turn)


def test_the_bound_follows_the_kwargs() -> None:
    assert SPEC.decision_bound() == 2 * TURNS_PER_PLAYER * PER_TURN  # num_players=2 by default
    assert SPEC.decision_bound({"num_players": 5}) == 5 * TURNS_PER_PLAYER * PER_TURN
    assert SPEC.decision_bound({"num_players": 3, "max_turns": 7}) == 7 * PER_TURN
    assert SPEC.decision_bound({"num_players": 3, "max_turns": None}) == 3 * TURNS_PER_PLAYER * PER_TURN


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_and_prolonged_games_stay_within_the_bound(num_players: int) -> None:
    R = MythicBathsRules(load_card_set(), num_players)
    cap = TURNS_PER_PLAYER * num_players
    bound = SPEC.decision_bound({"num_players": num_players})
    longest = 0
    for seed in range(40):
        for prolong in (False, True):
            decisions, most_in_a_turn = _play(R, seed, cap, prolong)
            assert most_in_a_turn <= PER_TURN, (seed, prolong, most_in_a_turn)
            assert decisions <= bound, (seed, prolong, decisions)
            longest = max(longest, decisions)
    assert bound <= 20 * longest, f"bound {bound} is more than 20x the longest game observed ({longest})"


@pytest.mark.parametrize("max_turns", [1, 4, 15])
def test_env_games_cut_by_a_small_cap_stay_within_the_bound(max_turns: int) -> None:
    """Through the env, where the cap is what ends these games."""
    for num_players in (2, 5):
        bound = SPEC.decision_bound({"num_players": num_players, "max_turns": max_turns})
        e = mythic_baths_v1.env(num_players=num_players, max_turns=max_turns)
        for seed in range(15):
            e.reset(seed=seed)
            rng = np.random.default_rng(seed)
            decisions = 0
            for agent in e.agent_iter():
                _, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = e.legal_actions()
                e.step(legal[-1] if rng.random() < 0.7 else legal[int(rng.integers(len(legal)))])
                decisions += 1
            assert decisions <= bound, (num_players, seed, decisions, bound)
