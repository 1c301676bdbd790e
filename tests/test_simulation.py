"""Random-simulation fuzzing of Mythic Baths through the game-generic harness (tests/harness.py).

Default: ``--fuzz-games`` (25) games per player count 2-5 with every check of the harness at
its default schedule; ``pytest tests/test_simulation.py --fuzz-games 2000 -n 16`` for a long run
(``--fuzz-seed`` for fresh games, ``--fuzz-thorough`` for every check at every step). A failure message
lists every failing check with its category and the player count, game seed and step that
reproduce it: ``harness.play_game(MYTHIC_BATHS, {"num_players": n}, seed)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from harness import GameSpec, Options, play_game, run_simulation
from mythzoo.envs import mythic_baths_v0
from mythzoo.envs.mythic_baths.rules import P_PAY


def hidden_view(game: dict, seat: int):
    """Hidden from ``seat``: the other players' hands and the ingredient deck's order."""
    return ([h for p, h in enumerate(game["hands"]) if p != seat], list(game["deck"]))


def perturb_hidden(game: dict, seat: int, rng: np.random.Generator):
    """Swap a card of another player's hand with a different card of the deck.

    Not the player to move while it pays for a treatment: its hand then constrains the legal
    payments, and a swap may leave it no legal action (not a state the observer could face).
    """
    n = len(game["hands"])
    cands = [q for q in range(n) if q != seat and sum(game["hands"][q]) and not (q == game["current"] and game["phase"] == P_PAY)]
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


MYTHIC_BATHS = GameSpec(
    name="mythic_baths_v0",
    make_raw=mythic_baths_v0.raw_env,
    hidden_view=hidden_view,
    perturb_hidden=perturb_hidden,
    zero_sum=True,
)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5], ids=lambda n: f"{n}p")
def test_random_games(num_players: int, fuzz_seeds: range, fuzz_options: Options) -> None:
    report = run_simulation(MYTHIC_BATHS, {"num_players": num_players}, fuzz_seeds, fuzz_options)
    print(report.summary())
    assert report.games == len(fuzz_seeds)
    assert report.ok, "\n" + report.summary()


@pytest.mark.parametrize("num_players", [2, 5], ids=lambda n: f"{n}p")
def test_random_games_score_mode_and_turn_cap(num_players: int) -> None:
    """Short games cut by a small turn cap (truncation path), and the score reward mode."""
    report = run_simulation(MYTHIC_BATHS, {"num_players": num_players, "max_turns": 12}, range(1000, 1004), Options(fork_every=15, env_exact_every=10))
    assert report.truncated == 4, report.summary()
    assert report.ok, "\n" + report.summary()
    report = run_simulation(MYTHIC_BATHS, {"num_players": num_players, "reward_mode": "score"}, range(2000, 2003), Options(exact_every=3))
    assert report.terminated == 3, report.summary()
    assert report.ok, "\n" + report.summary()


def test_harness_detects_a_leak() -> None:
    """The harness is not vacuous: an observer that shows another player's hand is caught."""
    class Leaky(mythic_baths_v0.raw_env):
        def observe(self, agent):
            o = super().observe(agent)
            seat = self.possible_agents.index(agent)
            other = self.state_.hands[(seat + 1) % self.rules.n]
            o["observation"][: len(other)] += np.asarray(other, dtype=np.float32)  # corrupts phase one-hot with a hand
            return o

    spec = GameSpec("leaky", Leaky, hidden_view=hidden_view, perturb_hidden=perturb_hidden, zero_sum=True)
    report = play_game(spec, {"num_players": 3}, 0, Options(exact_every=50, fork_every=1000))
    assert "hidden information leaks into an observation" in report.counts, report.summary()


def test_harness_detects_a_stale_mask() -> None:
    """The harness is not vacuous: a mask that disagrees with the engine is caught."""
    class Stale(mythic_baths_v0.raw_env):
        def observe(self, agent):
            o = super().observe(agent)
            if self.state_.turn == 5 and o["action_mask"].any():
                o["action_mask"][131] ^= 1
            return o

    report = play_game(GameSpec("stale", Stale), {"num_players": 2}, 0, Options(exact_every=50, hidden_every=1000, fork_every=1000))
    assert "mask != engine legal actions" in report.counts, report.summary()


def test_harness_detects_a_lossy_set_state() -> None:
    """The harness is not vacuous: a set_state that drops part of the state (here the RNG) is caught."""
    from mythzoo.envs.core.rng import make_rng

    class Lossy(mythic_baths_v0.raw_env):
        def set_state(self, state):
            super().set_state(state)
            self.state_.rng = make_rng(0)

    report = play_game(GameSpec("lossy", Lossy), {"num_players": 2}, 0, Options(exact_every=50, hidden_every=1000))
    assert "JSON follower diverges" in report.counts, report.summary()
