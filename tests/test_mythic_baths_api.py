"""Mythic Baths' own promises on top of the conformance suite (``tests/conformance/``, which runs
PettingZoo's ``api_test``/``seed_test``/``render_test``, the spaces, seeding, state round trips,
copies, illegal actions and the turn cap for every game): the action space's size, the seed
deciding the deal, and the default turn cap.
"""

from __future__ import annotations

import pytest

from mythzoo.envs import mythic_baths_v1

PLAYER_COUNTS = [2, 3, 4, 5]
N_ACTIONS = 132


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_player_count_has_the_132_actions_of_five_ingredient_types(num_players: int) -> None:
    e = mythic_baths_v1.raw_env(num_players=num_players)
    assert e.rules.table.n == N_ACTIONS
    assert {e.action_space(a).n for a in e.possible_agents} == {N_ACTIONS}
    assert e.possible_agents == [f"player_{i}" for i in range(num_players)]


def test_the_seed_decides_the_deal() -> None:
    """Deck order, guests in the baths and hands: the same for one seed, different for another, and
    different on every unseeded reset."""
    def deal(seed):
        e = mythic_baths_v1.env(num_players=3)
        e.reset(seed=seed)
        g = e.get_state()["game"]
        return repr((g["deck"], g["bath_guest"], g["hands"]))

    assert deal(11) == deal(11)
    assert deal(11) != deal(12)
    assert len({deal(None) for _ in range(3)}) > 1


@pytest.mark.parametrize("num_players", [2, 5])
def test_default_turn_cap_is_120_turns_per_player(num_players: int) -> None:
    assert mythic_baths_v1.env(num_players=num_players).unwrapped.max_turns == 120 * num_players
    e = mythic_baths_v1.raw_env(num_players=num_players, max_turns=3)
    assert e.max_turns == 3 and e.config["max_turns"] == 3
