"""Each game's spec agrees with its env and with the registries, and has its test-side adapter entry."""

from __future__ import annotations

import pytest

import mythzoo.envs
from conformance import games


@pytest.mark.parametrize("spec", games.spec_params())
def test_every_registered_game_has_an_adapter_entry(spec) -> None:
    entry = games.adapter(spec)
    assert isinstance(entry.turn_cap, dict) and entry.fuzz_games >= 1
    assert (entry.hidden_view is None) == (entry.perturb_hidden is None), "a game with hidden parts says how to change one"


@pytest.mark.parametrize("spec", games.spec_params())
def test_the_spec_describes_its_env(spec) -> None:
    module = spec.env_module()
    assert callable(module.env) and isinstance(module.raw_env, type)
    e, raw = spec.make(), spec.make_raw()
    assert isinstance(e, module.raw_env) and not e.strict, "env() is raw_env with PettingZoo's standard behaviour"
    assert raw.strict, "raw_env raises on an illegal action"
    assert e.unwrapped.env_name == spec.env_name
    assert len(e.possible_agents) == spec.default_seats()
    assert spec.kind != "solo" or spec.seat_counts() == (1,)
    for bad in (min(spec.seat_counts()) - 1, max(spec.seat_counts()) + 1):
        with pytest.raises(ValueError):
            spec.size_kwargs(bad)
    if spec.size_argument is not None:
        assert spec.size_kwargs(None) == {spec.size_argument: spec.default_size}


@pytest.mark.parametrize("spec", games.spec_params())
def test_the_spec_is_registered_everywhere(spec) -> None:
    from pettingzoo.env_registry.registration import aec_registry

    assert mythzoo.envs.SPECS[spec.env_name] is spec and mythzoo.envs.spec(spec.name) is spec
    assert spec.pettingzoo_id in aec_registry
    assert mythzoo.envs.ENVS[spec.env_name][1] == spec.pettingzoo_id
    if spec.gymnasium_id is not None:
        import gymnasium

        assert spec.gymnasium_id in gymnasium.registry and mythzoo.envs.GYMNASIUM_ENVS[spec.gymnasium_id] == spec.gymnasium_entry_point
    if spec.max_decisions is not None:
        assert spec.decision_bound() > 0


def test_the_shipped_games_are_the_games_tuple_and_the_toys_are_not_shipped() -> None:
    shipped = {s.env_name for s in mythzoo.envs.GAMES}
    assert shipped <= set(mythzoo.envs.SPECS)
    assert not any(s.module.startswith("toy") for s in mythzoo.envs.GAMES)
