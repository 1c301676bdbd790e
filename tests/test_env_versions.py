"""Retired env versions: every old name fails with one clear message that names the current version.

Issue-level rule: when observations, rules or rewards change, the env's version bumps, and the old
names (module, mythzoo name, PettingZoo id, Gymnasium id, CLI argument) say which name replaced them.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from mythzoo import envs as mz_envs
from mythzoo.envs import GAMES, RetiredEnvError

SHIPPED = [g for g in GAMES]


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.name)
def test_every_shipped_game_is_at_version_1_or_later(game):
    # issue 14 changed every game's observations, rules or rewards
    assert game.version >= 1
    assert mz_envs.resolve(game.name) == game.env_name == f"{game.name}_v{game.version}"


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.name)
def test_old_version_name_raises_retired_env_error_naming_the_current(game):
    old = f"{game.name}_v{game.version - 1}"
    with pytest.raises(RetiredEnvError) as err:
        mz_envs.resolve(old)
    assert err.value.replacement == game.env_name
    assert game.env_name in str(err.value) and old in str(err.value)
    assert isinstance(err.value, KeyError)  # callers catching KeyError still catch it
    assert mz_envs.retired(old) == game.env_name
    assert mz_envs.retired(game.env_name) is None
    assert mz_envs.retired(f"{game.name}_v{game.version + 1}") is None  # a future version is unknown, not retired
    with pytest.raises(KeyError) as unknown:
        mz_envs.resolve(f"{game.name}_v{game.version + 1}")
    assert not isinstance(unknown.value, RetiredEnvError)


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.name)
def test_old_version_module_import_fails_naming_the_current(game):
    for version in range(game.version):  # every older module, not only the last one
        old = f"mythzoo.envs.{game.name}_v{version}"
        sys.modules.pop(old, None)
        with pytest.raises(ImportError, match=game.env_name):
            importlib.import_module(old)
        with pytest.raises(RetiredEnvError, match=game.env_name):
            mz_envs.resolve(f"{game.name}_v{version}")
    assert importlib.import_module(game.module).env is not None


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.name)
def test_old_pettingzoo_id_names_the_available_version(game):
    from pettingzoo.env_registry.exceptions import VersionNotFound
    from pettingzoo.env_registry.registration import make as pz_make

    old = game.pettingzoo_id.rsplit("-v", 1)[0] + f"-v{game.version - 1}"
    with pytest.raises(VersionNotFound, match=f"v{game.version}"):
        pz_make("aec", old)


def test_old_gymnasium_id_is_deprecated_naming_the_current():
    import gymnasium

    (solo,) = [g for g in GAMES if g.gymnasium_id is not None]
    old = solo.gymnasium_id.rsplit("-v", 1)[0] + f"-v{solo.version - 1}"
    with pytest.raises(gymnasium.error.DeprecatedEnv, match=solo.gymnasium_id):
        gymnasium.make(old)


@pytest.mark.parametrize("command", [["eval", "mythic_baths_v0", "random", "random", "--games", "2"],
                                     ["train", "mythsgate_v0", "--dry-run"], ["eval", "mythsgate_v1", "random", "random", "--games", "2"],
                                     ["play", "mythwind_innkeeper_v0"], ["play", "mythwind_innkeeper_v1"], ["play", "mythwind_innkeeper_v2"], ["play", "mythwind_innkeeper_v3"], ["play", "mythwind_innkeeper_v4"]])
def test_cli_with_a_retired_env_prints_one_line_naming_the_current(command):
    done = subprocess.run([sys.executable, "-m", "mythzoo", *command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    current = mz_envs.resolve(command[1].rsplit("_v", 1)[0])
    assert "retired" in lines[0] and current in lines[0]
