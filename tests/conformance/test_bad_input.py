"""Bad input to any game: every mistake gives a clear error (type and message) and changes nothing.

Constructor arguments (found by signature: the size argument, ``render_mode``, ``reward_mode``,
``max_turns``, every other int argument, the data path), ``reset`` seeds, actions (out of range,
not an int, illegal, for a finished agent, after the end, before reset), unknown agents, and
``set_state`` with broken states (not a dict, wrong schema, env or config, not JSON, missing or
unknown fields, a broken RNG, a broken or inconsistent ``aec`` section). A game's own broken
states and data files are tested in its own ``test_<game>_bad_input.py``.
"""

from __future__ import annotations

import copy
import inspect
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from conformance import games
from mythzoo.envs import IllegalActionError

FACES = ["env", "raw_env"]


def _params(spec) -> dict[str, inspect.Parameter]:
    """The public constructor arguments of the game's raw env."""
    sig = inspect.signature(spec.env_module().raw_env.__init__)
    return {k: p for k, p in list(sig.parameters.items())[1:] if not k.startswith("_")}


def _data_param(spec) -> str | None:
    """The argument that takes the game's data file (or folder of files)."""
    return next((k for k, p in _params(spec).items() if "Path" in str(p.annotation)), None)


def _bad_kwargs(spec) -> list[tuple[dict, type, str]]:
    """(kwargs, error, message pattern) for every argument the signature shows."""
    # An unknown render_mode warns and renders nothing, as Gymnasium does (test_conventions.py).
    out: list[tuple[dict, type, str]] = [
        ({"no_such_option": 1}, TypeError, "no_such_option"),
    ]
    params = _params(spec)
    if spec.size_argument is not None:
        arg = spec.size_argument
        for v in (min(spec.sizes) - 1, max(spec.sizes) + 1, str(spec.default_size), float(spec.default_size), True, None):
            out.append(({arg: v}, ValueError, ""))
    if "reward_mode" in params:
        out.append(({"reward_mode": "no_such_mode"}, ValueError, "reward_mode"))
    if "max_turns" in params:
        out += [({"max_turns": v}, ValueError, "max_turns") for v in (0, -5, 2.5, "10", True)]
    for k, p in params.items():
        if k not in (spec.size_argument, "max_turns") and type(p.default) is int:
            out += [({k: v}, ValueError, k) for v in (str(p.default), p.default + 0.5, True, -1)]
    return out


def _kw_id(case) -> str:
    return "-".join(f"{k}={v!r}" for k, v in case[0].items())


BAD_KWARGS = [pytest.param(spec, *case, id=f"{spec.name}-{_kw_id(case)}") for spec in games.specs() for case in _bad_kwargs(spec)]


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize(("spec", "kwargs", "error", "match"), BAD_KWARGS)
def test_bad_constructor_arguments(spec, kwargs: dict, error: type, match: str, face: str) -> None:
    make = spec.make if face == "env" else spec.make_raw
    with pytest.raises(error, match=match) as info:
        make(**kwargs)
    assert str(info.value), "the error says what is wrong"


@pytest.mark.parametrize(("spec", "kwargs", "error", "match"), [p for p in BAD_KWARGS if p.values[0].gymnasium_entry_point])
def test_bad_constructor_arguments_of_the_gym_env(spec, kwargs: dict, error: type, match: str) -> None:
    module, attr = spec.gymnasium_entry_point.split(":")
    cls = getattr(__import__(module, fromlist=[attr]), attr)
    with pytest.raises(error, match=match):
        cls(**kwargs)


@pytest.mark.parametrize("spec", games.spec_params())
@pytest.mark.parametrize("seed", ["1", 1.5, True, [1]])
def test_reset_seed_must_be_an_int(spec, seed) -> None:
    e = games.make(spec)
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=seed)
    e.reset(seed=np.int64(3))  # numpy ints are ints


# ------------------------------------------------------------------ data files
def _game_folder(spec) -> Path:
    raw = spec.make_raw()
    return Path(sys.modules[type(raw).__module__].__file__).resolve().parent


def _data_copy(spec, tmp_path: Path) -> Path:
    """A copy of the game's data: the file itself (one data file) or the folder holding them."""
    folder = _game_folder(spec)
    for f in spec.data_files:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / f, tmp_path / f)
    if len(spec.data_files) == 1:
        return tmp_path / spec.data_files[0]
    parents = {(tmp_path / f).parent for f in spec.data_files}
    assert len(parents) == 1, "several data files live in one folder"
    return parents.pop()


DATA = games.spec_params(lambda s: bool(s.data_files))


@pytest.mark.parametrize("spec", DATA)
def test_declared_data_files_exist_and_a_copy_gives_the_same_game(spec, tmp_path: Path) -> None:
    arg = _data_param(spec)
    assert arg is not None, f"{spec.env_name} declares data files but its env takes no data path argument"
    for f in spec.data_files:
        assert (_game_folder(spec) / f).is_file(), f"declared data file {f} is missing"
    path = _data_copy(spec, tmp_path)
    ref = spec.make()
    ref.reset(seed=0)
    for e in (spec.make(**{arg: path}), spec.make_raw(**{arg: str(path)})):
        e.reset(seed=0)
        assert e.get_state() == ref.get_state(), "the same data, the same digest in the config, the same game"


@pytest.mark.parametrize("spec", DATA)
def test_a_missing_data_path_is_a_clear_error(spec, tmp_path: Path) -> None:
    missing = tmp_path / ("nope.json" if len(spec.data_files) == 1 else "nope")
    with pytest.raises(ValueError, match="nope"):
        spec.make(**{_data_param(spec): missing})


@pytest.mark.parametrize("spec", DATA)
def test_a_data_file_that_is_not_json_is_a_clear_error(spec, tmp_path: Path) -> None:
    path = _data_copy(spec, tmp_path)
    broken = tmp_path / spec.data_files[-1]
    broken.write_text("{oops", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON") as info:
        spec.make(**{_data_param(spec): path})
    assert broken.name in str(info.value), "the message names the file"


# ------------------------------------------------------------------ actions
def _bad_actions(n: int):
    outside = rf"outside .*Discrete\({n}\)"
    return [
        (-1, ValueError, outside), (n, ValueError, outside), (10**9, ValueError, outside),
        ("3", TypeError, "action must be an int"), (1.5, TypeError, "action must be an int"),
        (None, TypeError, "action must be an int"), (True, TypeError, "action must be an int"),
        (np.array([3]), TypeError, "action must be an int"),
    ]


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_bad_actions_raise_and_change_nothing(spec, seats: int, face: str) -> None:
    e = games.started(spec, seats, face)
    n = e.action_space(e.agent_selection).n
    before = e.get_state()
    for action, error, match in _bad_actions(n):
        with pytest.raises(error, match=match):
            e.step(action)
        assert e.get_state() == before, f"step({action!r}) was refused but changed the env"


@pytest.mark.parametrize("spec", games.spec_params())
def test_numpy_integer_actions_are_accepted(spec) -> None:
    for cast in (np.int64, np.int32, np.uint8, np.array):
        e = games.started(spec, None, "raw_env", steps=0)
        a = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
        e.step(cast(a))


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_illegal_action_raw_env_raises_with_a_useful_message_and_changes_nothing(spec, seats: int) -> None:
    e = games.with_an_illegal_action(spec, seats, "raw_env")
    agent = e.agent_selection
    before, obs_before = e.get_state(), e.observe(agent)
    mask = obs_before["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    for bad in illegal[:: max(1, len(illegal) // 5)]:
        with pytest.raises(IllegalActionError) as info:
            e.step(int(bad))
        msg = str(info.value)
        assert agent in msg and str(int(bad)) in msg and e.action_label(int(bad), agent) in msg and "legal" in msg, msg
        assert e.get_state() == before
    np.testing.assert_array_equal(e.observe(agent)["observation"], obs_before["observation"])
    assert issubclass(IllegalActionError, ValueError)
    e.step(int(np.flatnonzero(mask)[0]))  # still playable


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_illegal_action_env_ends_the_game_with_minus_one_for_the_offender(spec, seats: int) -> None:
    e = games.with_an_illegal_action(spec, seats, "env")
    offender = e.agent_selection
    bad = int(np.flatnonzero(e.observe(offender)["action_mask"] == 0)[0])
    e.step(bad)
    expected = {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.cumulative_rewards() == expected
    assert e.rewards == expected, "env.rewards holds the game-ending step's rewards"
    assert e.infos[offender].get("illegal_action") == bad
    seen = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert term and not trunc and not obs["action_mask"].any()
        seen[agent] = (reward, info.get("illegal_action"))
        e.step(None)
    assert seen == {a: ((-1.0, bad) if a == offender else (0.0, -1)) for a in e.possible_agents}


@pytest.mark.parametrize("spec", games.spec_params(lambda s: s.kind == "roles"))
def test_an_action_id_of_a_larger_role_is_out_of_range(spec) -> None:
    e = games.started(spec, None, "raw_env")
    sizes = {e.action_space(a).n for a in e.possible_agents}
    agent = e.agent_selection
    n = e.action_space(agent).n
    if max(sizes) <= n:
        e = games.started(spec, None, "raw_env", steps=1)
        agent, n = e.agent_selection, e.action_space(e.agent_selection).n
    before = e.get_state()
    for other in sizes - {n}:
        if other > n:
            with pytest.raises(ValueError, match="outside"):
                e.step(other - 1)
    assert e.get_state() == before


# ------------------------------------------------------------------ the AEC order
def _finished(spec, face: str):
    e = games.make(spec, None, face, **games.adapter(spec).short)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(e.terminations.values()) and not any(e.truncations.values()):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    return e


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("spec", games.spec_params())
def test_steps_after_the_end(spec, face: str) -> None:
    e = _finished(spec, face)
    before = e.get_state()
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)
    assert e.get_state() == before
    while e.agents:
        e.step(None)
    before = e.get_state()
    for action in (0, None):
        with pytest.raises((RuntimeError, ValueError), match=r"(?i)reset|over|ended|finished|no agents"):
            e.step(action)
        assert e.get_state() == before


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("spec", games.spec_params())
def test_use_before_reset(spec, face: str) -> None:
    e = games.make(spec, None, face, render_mode="ansi")
    a = e.possible_agents[0]
    for call in (lambda: e.step(0), lambda: e.observe(a), lambda: e.get_state(), lambda: e.render(),
                 lambda: e.legal_actions(), lambda: e.resample_hidden(a, 0), lambda: e.last()):
        with pytest.raises((RuntimeError, AttributeError), match="reset"):
            call()
    e.reset(seed=0)  # and it still works afterwards
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))


@pytest.mark.parametrize("spec", games.spec_params())
def test_an_unknown_agent_is_a_clear_error(spec) -> None:
    e = games.started(spec, None, "raw_env", steps=0)
    with pytest.raises(KeyError, match="no_such_agent_9"):
        e.observe("no_such_agent_9")
    with pytest.raises(KeyError, match="no_such_agent_9"):
        e.resample_hidden("no_such_agent_9", 0)


# ------------------------------------------------------------------ set_state
def _first_int_path(d, path=()):
    """The path of the first int leaf in JSON data (a game state field to corrupt)."""
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        if type(v) is int:
            return (*path, k)
        found = _first_int_path(v, (*path, k))
        if found:
            return found
    return None


def _put(path, value):
    def f(st):
        d = st
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value if not callable(value) else value(d[path[-1]])
        return st
    return f


def _delete(path):
    def f(st):
        d = st
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
        return st
    return f


def _numpy_int(st):
    path = ("game", *_first_int_path(st["game"]))
    return _put(path, lambda v: np.int64(v))(st)


def _wrong_mover(st):
    sel = st["aec"]["agent_selection"]
    others = [a for a in st["aec"]["agents"] if a != sel]
    if not others:
        return None
    st["aec"]["agent_selection"] = others[0]
    return st


def _drop_live_agent(st):
    others = [a for a in st["aec"]["agents"] if a != st["aec"]["agent_selection"]]
    if not others:
        return None
    st["aec"]["agents"].remove(others[0])
    for k in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
        del st["aec"][k][others[0]]
    return st


def _aec_put(key, value):
    def f(st):
        st["aec"][key][st["aec"]["agents"][0]] = value
        return st
    return f


STATE_MUTATIONS = [
    ("not_a_dict", lambda st: [st], "must be a dict"),
    ("json_text", lambda st: json.dumps(st), "must be a dict"),
    ("none", lambda st: None, "must be a dict"),
    ("wrong_schema", _put(("schema",), 99), "schema"),
    ("wrong_env", _put(("env",), "no_such_game_v0"), "env"),
    ("wrong_config", _put(("config", "no_such_setting"), 1), "config"),
    ("config_missing", _delete(("config",)), "config"),
    ("missing_game", _delete(("game",)), "game state must be a dict"),
    ("game_not_a_dict", _put(("game",), [1, 2]), "game state must be a dict"),
    ("missing_rng", _delete(("game", "rng")), "missing"),
    ("unknown_game_field", _put(("game", "no_such_field"), 1), "unknown fields"),
    ("bad_rng", _put(("game", "rng", "bit_generator"), "MT19937"), "bit generator"),
    ("rng_not_a_dict", _put(("game", "rng"), 7), "rng"),
    ("missing_aec", _delete(("aec",)), "aec"),
    ("aec_not_a_dict", _put(("aec",), []), "aec"),
    ("missing_aec_agents", _delete(("aec", "agents")), "aec"),
    ("unknown_agent_selection", _put(("aec", "agent_selection"), "no_such_agent_9"), "agent_selection"),
    ("wrong_agent_to_move", _wrong_mover, "agent_selection"),  # (games of more than one agent)
    ("non_json_set", _put(("aec", "infos", "__set__"), {1, 2}), "JSON"),
    ("non_json_numpy_int", _numpy_int, "JSON"),
    ("non_json_object", lambda st: _aec_put("infos", object())(st), "JSON"),
    ("termination_as_string", _aec_put("terminations", "False"), "termination"),
    ("terminated_in_a_live_game", _aec_put("terminations", True), "termination"),
    ("reward_nan", _aec_put("rewards", float("nan")), "reward"),
    ("cumulative_reward_inf", _aec_put("cumulative_rewards", float("inf")), "reward"),
    ("reward_as_bool", _aec_put("rewards", True), "reward"),
    ("info_not_a_dict", _aec_put("infos", 5), "info"),
    ("live_agent_missing", _drop_live_agent, "agent"),
    ("agent_listed_twice", lambda st: (st["aec"]["agents"].append(st["aec"]["agents"][0]), st)[1], "agent"),
]


def _check_refused(target, broken, match: str, then_step: bool = True) -> None:
    """``set_state(broken)`` raises ``ValueError`` matching ``match`` and leaves ``target`` as it was (and playable)."""
    before = target.get_state()
    agent = target.agent_selection
    obs_before = target.observe(agent)
    with pytest.raises(ValueError, match=f"(?i){match}"):
        target.set_state(broken)
    assert target.get_state() == before, "a refused set_state changed the env"
    np.testing.assert_array_equal(target.observe(agent)["observation"], obs_before["observation"])
    if then_step:
        playable = copy.deepcopy(target)
        playable.step(int(np.flatnonzero(playable.observe(agent)["action_mask"])[0]))


MULTI_AGENT_ONLY = {"wrong_agent_to_move", "live_agent_missing"}
MUTATION_PARAMS = [
    pytest.param(spec, mutate, match, id=f"{spec.name}-{name}")
    for spec in games.specs() for name, mutate, match in STATE_MUTATIONS
    if name not in MULTI_AGENT_ONLY or spec.default_seats() > 1
]


@pytest.mark.parametrize(("spec", "mutate", "match"), MUTATION_PARAMS)
def test_set_state_refuses_broken_states_and_changes_nothing(spec, mutate, match: str) -> None:
    state = games.started(spec, None, "raw_env", steps=30).get_state()
    target = games.started(spec, None, "raw_env", steps=10)
    _check_refused(target, mutate(copy.deepcopy(state)), match)


@pytest.mark.parametrize("spec", games.spec_params())
def test_set_state_refuses_a_state_missing_any_game_field(spec) -> None:
    state = games.started(spec, None, "raw_env").get_state()
    target = games.started(spec, None, "raw_env", steps=5)
    for key in state["game"]:
        _check_refused(target, _delete(("game", key))(copy.deepcopy(state)), f"missing.*{key}", then_step=False)
    _check_refused(target, state | {"game": {}}, "missing")


@pytest.mark.parametrize("spec", games.spec_params())
def test_set_state_refuses_a_bool_or_float_where_the_game_has_an_int(spec) -> None:
    """``True`` is an int to Python, not to a game state; neither is ``1.0``."""
    state = games.started(spec, None, "raw_env").get_state()
    target = games.started(spec, None, "raw_env", steps=5)
    ints = [k for k, v in state["game"].items() if type(v) is int]
    assert ints, "no int field to corrupt"
    for key in ints:
        for bad in (bool(state["game"][key]), float(state["game"][key])):
            _check_refused(target, _put(("game", key), bad)(copy.deepcopy(state)), "", then_step=False)
    _check_refused(target, _put(("game", ints[0]), None)(copy.deepcopy(state)), "")


@pytest.mark.parametrize("spec", games.spec_params(lambda s: len(s.seat_counts()) > 1))
def test_set_state_refuses_a_state_of_another_seat_count(spec) -> None:
    counts = spec.seat_counts()
    for src, dst in ((counts[0], counts[1]), (counts[-1], counts[0])):
        state = games.started(spec, src, "raw_env", steps=5).get_state()
        _check_refused(games.started(spec, dst, "raw_env", steps=3), state, "config")


@pytest.mark.parametrize("spec", games.spec_params())
def test_set_state_refuses_a_state_made_with_another_turn_cap_or_game(spec) -> None:
    cap = games.adapter(spec).turn_cap
    state = games.started(spec, None, "raw_env", steps=1).get_state()
    _check_refused(games.started(spec, None, "raw_env", steps=1, **cap), state, "config")
    for other in games.specs():
        if other.env_name != spec.env_name:
            _check_refused(games.started(spec, None, "raw_env", steps=1), games.started(other, None, "raw_env", steps=1).get_state(), "env")
            break
