"""Random-simulation fuzzing of Mythsgate through the game-generic harness (tests/harness.py).

Every hero count 1-5, a few games each by default (``--fuzz-games N`` for N games per hero count,
``--fuzz-seed S`` for fresh games, ``--fuzz-thorough`` for every check at every step). The harness
checks, at every step, ``rules.validate`` (every card and token in exactly one place, gems 0-10
conserved, lives within bounds, positions legal on the map), exact masks, hidden information kept
hidden (``hidden_view``/``perturb_hidden`` below), state round trips and followers, and that every
game ends within the round cap with team-zero-sum rewards. A failure names the hero count, seed and
step: ``harness.play_game(MYTHSGATE, {"num_heroes": k}, seed)``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DEFAULT_FUZZ_GAMES
from harness import GameSpec, Options, play_game, run_simulation
from mythzoo.envs import mythsgate_v0

SMALL_DEFAULT_GAMES = 3  # per hero count when --fuzz-games is not given (the whole file in well under a minute)


def hidden_view(game: dict, seat: int):
    """Hidden from ``seat``: for the Invoker the heroes' hands; for a hero the Invoker's hand and deck
    and the Kraken's view; for both the order of the Power deck (beyond what they saw) and of the location decks."""
    deck = game["power_deck"]
    if seat == 0:
        keep = game["inv_known"]
        return ([list(h) for h in game["h_hand"]], deck[: len(deck) - keep], [list(d) for d in game["loc_deck"]])
    return (list(game["inv_hand"]), list(game["inv_deck"]), list(game["cb_kview"]), deck[:-1], [list(d) for d in game["loc_deck"]])


def perturb_hidden(game: dict, seat: int, rng: np.random.Generator):
    """For the Invoker: swap a card of a hero's hand with a different unseen card of the Power deck.
    For a hero: swap a card of the Invoker's hand with a card of his deck."""
    if seat == 0:
        deck = game["power_deck"]
        free = len(deck) - game["inv_known"]
        heroes = [h for h, hand in enumerate(game["h_hand"]) if sum(hand)]
        if not heroes or free <= 0:
            return None
        h = heroes[int(rng.integers(len(heroes)))]
        hand = game["h_hand"][h]
        kk = int(rng.choice([i for i, c in enumerate(hand) if c]))
        idx = [i for i in range(free) if deck[i] != kk]
        if not idx:
            return None
        i = int(rng.choice(idx))
        hand[kk] -= 1
        hand[deck[i]] += 1
        deck[i] = kk
        return game, 1 + h
    if not game["inv_hand"] or not game["inv_deck"]:
        return None
    i = int(rng.integers(len(game["inv_hand"])))
    j = int(rng.integers(len(game["inv_deck"])))
    game["inv_hand"][i], game["inv_deck"][j] = game["inv_deck"][j], game["inv_hand"][i]
    game["inv_hand"].sort()
    return game, 0


MYTHSGATE = GameSpec(
    name="mythsgate_v0",
    make_raw=mythsgate_v0.raw_env,
    hidden_view=hidden_view,
    perturb_hidden=perturb_hidden,
    zero_sum=True,
    team_of=lambda agent: "invoker" if agent == "invoker" else "league",
    max_decisions_per_turn=1500,  # a "turn" of the cap is a whole round: the Invoker's and every hero's decisions
)


@pytest.fixture
def sim_seeds(request: pytest.FixtureRequest) -> range:
    games = request.config.getoption("--fuzz-games")
    if games == DEFAULT_FUZZ_GAMES:
        games = SMALL_DEFAULT_GAMES
    first = request.config.getoption("--fuzz-seed")
    return range(first, first + games)


@pytest.mark.parametrize("num_heroes", [1, 2, 3, 4, 5], ids=lambda k: f"{k}heroes")
def test_random_games(num_heroes: int, sim_seeds: range, fuzz_options: Options) -> None:
    report = run_simulation(MYTHSGATE, {"num_heroes": num_heroes}, sim_seeds, fuzz_options)
    print(report.summary())
    assert report.games == len(sim_seeds)
    assert report.ok, "\n" + report.summary()


@pytest.mark.parametrize("num_heroes", [1, 5], ids=lambda k: f"{k}heroes")
def test_random_games_round_cap_truncates(num_heroes: int) -> None:
    """Short games cut by a small round cap: truncated exactly at the cap, a draw."""
    report = run_simulation(MYTHSGATE, {"num_heroes": num_heroes, "max_rounds": 2}, range(100, 106), Options(fork_every=15, env_exact_every=10))
    assert report.truncated + report.terminated == 6 and report.truncated >= 1, report.summary()
    assert report.ok, "\n" + report.summary()


def test_harness_detects_a_leak() -> None:
    """The harness is not vacuous here: an Invoker observation that shows a hero's hand is caught."""
    class Leaky(mythsgate_v0.raw_env):
        def observe(self, agent):
            o = super().observe(agent)
            if agent == "invoker":
                hand = self.state_.h_hand[0]
                o["observation"][: len(hand)] += np.asarray(hand, dtype=np.float32)
            return o

    spec = GameSpec("leaky", Leaky, hidden_view=hidden_view, perturb_hidden=perturb_hidden, zero_sum=True,
                    team_of=MYTHSGATE.team_of, max_decisions_per_turn=1500)
    report = Options(exact_every=50, fork_every=1000, hidden_every=1)
    rep = None
    for seed in range(3):
        rep = play_game(spec, {"num_heroes": 2}, seed, report)
        if "hidden information leaks into an observation" in rep.counts:
            break
    assert "hidden information leaks into an observation" in rep.counts, rep.summary()
