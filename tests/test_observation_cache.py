"""The observer's cached bath rows never go stale: at every step, for every seat, the cached
encoding equals one computed from scratch (a missed ``bath_version`` bump in the rules fails here),
and the byte-built observation vector equals the list encoding."""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo.envs.mythic_baths.cards import load_card_set
from mythzoo.envs.mythic_baths.observation import MythicBathsObserver
from mythzoo.envs.mythic_baths.rules import MythicBathsRules


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_cached_observation_equals_fresh_encoding_at_every_step(num_players: int) -> None:
    rules = MythicBathsRules(load_card_set(), num_players)
    observer = MythicBathsObserver(rules)
    rng = np.random.default_rng(num_players)
    for game in range(6):
        s = rules.initial_state(100 + game)
        while not s.over:
            for seat in range(num_players):
                cached = observer.encode_list(s, seat)
                fresh_state = rules.clone(s)  # a clone starts with no observation cache
                assert fresh_state.obs_cache is None
                assert cached == observer.encode_list(fresh_state, seat), (game, s.turn, seat)
                # The byte-built vector the env returns holds exactly these values.
                np.testing.assert_array_equal(observer.observation(s, seat), np.array(cached, dtype=np.float32))
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.integers(len(legal)))])
