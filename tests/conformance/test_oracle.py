"""Observations equal an oracle: for every game, ``tests/oracles/<spec.name>.py`` exposes
``reference_observation(env, agent) -> np.ndarray``, an independent statement of what ``agent``
sees (written from the rules text, reading ``get_state()``), and at every step of seeded random
games every agent's observation equals it exactly. A game without an oracle file fails here with
a message saying so (the pending ones are listed in ``games.ORACLES_PENDING``)."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from conformance import games

ORACLES = Path(__file__).resolve().parents[1] / "oracles"
GAMES_PER_SEAT_COUNT = 2


def _oracle(spec):
    path = ORACLES / f"{spec.name}.py"
    if not path.exists():
        pytest.fail(f"{spec.env_name} has no observation oracle: write tests/oracles/{spec.name}.py with "
                    "reference_observation(env, agent) -> np.ndarray", pytrace=False)
    module = importlib.import_module(f"oracles.{spec.name}")
    assert callable(getattr(module, "reference_observation", None)), f"{path} defines no reference_observation(env, agent)"
    return module.reference_observation


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_observation_equals_the_oracle(spec, seats: int) -> None:
    reference = _oracle(spec)
    env = games.make(spec, seats, "raw_env", **games.adapter(spec).short)
    for seed in range(GAMES_PER_SEAT_COUNT):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        step = 0
        while env.agents and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            for agent in env.possible_agents:
                got, want = env.observe(agent)["observation"], np.asarray(reference(env, agent))
                if got.shape != want.shape or not np.array_equal(got, want):
                    bad = np.flatnonzero(got != want)[:8] if got.shape == want.shape else []
                    names = [env.observation_features(agent)[i] for i in bad]
                    pytest.fail(f"seed {seed} step {step} {agent}: observation {got.shape} differs from the oracle's {want.shape}"
                                f" at {names}: {got[bad].tolist()} vs {want[bad].tolist()}", pytrace=False)
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            step += 1
        for agent in env.possible_agents:  # the final position too
            np.testing.assert_array_equal(env.observe(agent)["observation"], np.asarray(reference(env, agent)))
