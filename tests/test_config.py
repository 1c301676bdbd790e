"""The typed training config: strict types, named unknown keys, documented fields, shipped presets."""

from __future__ import annotations

import pytest

pytest.importorskip("yaml")

from mythzoo.training.config import CONFIG_ROOT, ConfigError, TrainConfig, field_help, from_dict, load_config


def test_every_key_has_a_one_line_description_listed_by_the_help() -> None:
    help_text = field_help()
    for key, field in TrainConfig.model_fields.items():
        assert field.description and "\n" not in field.description, key
        assert f"  {key} (" in help_text


def test_an_unknown_key_is_named_with_the_known_ones_and_the_closest() -> None:
    with pytest.raises(ConfigError) as err:
        from_dict({"totl_timesteps": 5})
    message = str(err.value)
    assert "'totl_timesteps'" in message and "did you mean 'total_timesteps'" in message
    assert "'num_envs'" in message and "\n" not in message


@pytest.mark.parametrize("data, words", [
    ({"num_envs": "many"}, "config key 'num_envs': expected int"),
    ({"num_envs": 8.0}, "expected int"),
    ({"progress": 1}, "expected bool"),
    ({"net_arch": [16, "x"]}, "'net_arch' (item 1): expected int"),
    ({"baselines": ["random", 7]}, "put it in quotes"),
    ({"name": 7}, "config key 'name': expected text, got the number 7; put it in quotes"),
])
def test_values_are_not_coerced(data: dict, words: str) -> None:
    with pytest.raises(ValueError, match="^[^\n]*$") as err:
        from_dict(data)
    assert words in str(err.value)


def test_an_integer_where_a_float_belongs_is_a_float() -> None:
    cfg = from_dict({"learning_rate": 1, "opponent_mix": {"latest": 1, "past": 0, "baselines": 0}, "max_minutes": 5})
    assert isinstance(cfg.learning_rate, float) and cfg.opponent_mix == {"latest": 1.0, "past": 0.0, "baselines": 0.0}
    assert isinstance(cfg.max_minutes, float)


def test_assignment_is_checked_like_a_config_file() -> None:
    cfg = TrainConfig()
    cfg.total_timesteps = 2048
    with pytest.raises(ConfigError, match="num_envs"):
        cfg.num_envs = "many"
    with pytest.raises(ConfigError, match="unknown config keys"):
        cfg.totl_timesteps = 5  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="must be >= 1"):
        TrainConfig(n_epochs=0)


def test_the_presets_are_found_through_the_configs_package() -> None:
    import importlib.resources

    assert CONFIG_ROOT.samefile(str(importlib.resources.files("mythzoo.configs")))
    assert load_config(None, env="mythsgate_v2").env_kwargs == {"num_heroes": 2}
    assert load_config("mythic_baths/quick.yaml").total_timesteps == 150_000
