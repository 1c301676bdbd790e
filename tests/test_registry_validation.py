"""Typed validation of the registry's formats: spec.json, an export's manifest, ratings.

Every field is checked by type and range before anything is written: a bool where an int belongs,
text where a number belongs, NaN/inf, an integer past SQLite's int64, an unknown key. Each is
refused with a one-line error naming the field, and the registry is left exactly as it was.
The shipped champions in checkpoints/ still import, verify and play.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import re
import sqlite3
import tarfile
from pathlib import Path

import numpy as np
import pytest

from mythzoo import envs
from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import EnvSpec
from mythzoo.policies.neural import init_mlp_weights
from mythzoo.policies.refs import load_policy
from mythzoo.policies.registry import IntegrityError, Registry, validate_manifest, validate_spec

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "checkpoints").glob("*.tar*"))
BIG = 10**30


@pytest.fixture(scope="module")
def env_spec() -> EnvSpec:
    return EnvSpec.from_env(mythic_baths_v1.env(num_players=2))


@pytest.fixture
def reg(tmp_path: Path) -> Registry:
    return Registry(tmp_path / "reg")


def save(reg: Registry, env_spec: EnvSpec, **kw):
    weights, arch = init_mlp_weights(628, 132, (8,), seed=0)
    args = {"algo": "ppo", "steps": 100, **kw}
    return reg.register(args.pop("name", "ppo"), weights, arch, env_spec=env_spec, **args)


def contents(reg: Registry) -> tuple:
    """Everything a registry holds: index rows and files (what a refused call must leave alone)."""
    files = sorted(str(p.relative_to(reg.path)) for p in reg.path.rglob("*") if p.is_file() and not p.name.startswith("index.sqlite"))
    rows = [(i.ref, i.tags, reg.ratings(i.id), [e.results for e in reg.evals(i.id)]) for i in reg.list()]
    return files, rows


def one_line(e: pytest.ExceptionInfo) -> str:
    text = str(e.value)
    assert "\n" not in text, text
    return text


# ------------------------------------------------------------- register
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"steps": True}, r"spec field 'steps' is True: input should be a valid integer"),
        ({"steps": BIG}, r"spec field 'steps' is 1000000000000000000000000000000: input should be less than or equal to 9223372036854775807"),
        ({"steps": "5"}, r"spec field 'steps' is '5': input should be a valid integer"),
        ({"steps": -1}, r"spec field 'steps' is -1: input should be greater than or equal to 0"),
        ({"steps": 2.0}, r"spec field 'steps' is 2.0: input should be a valid integer"),
        ({"algo": 7}, r"spec field 'algo' is 7: input should be a valid string"),
        ({"role": ""}, r"spec field 'role' is '': string should have at least 1 character"),
        ({"metrics": {"loss": float("nan")}}, r"metrics must be plain JSON data \(no NaN/inf\)"),
        ({"metrics": {"loss": np.float32("inf")}}, r"metrics must be plain JSON data \(no NaN/inf\)"),
        ({"tags": ["ok", ""]}, r"bad tag ''"),
    ],
)
def test_register_refuses_a_bad_field_and_writes_nothing(reg, env_spec, change, message):
    save(reg, env_spec)
    before = contents(reg)
    with pytest.raises(ValueError, match=message) as e:
        save(reg, env_spec, **change)
    one_line(e)
    assert contents(reg) == before
    assert not any(reg.tmp_path.iterdir())


def test_register_takes_numpy_integers_and_the_int64_limit(reg, env_spec):
    assert save(reg, env_spec, steps=np.int64(7)).steps == 7
    assert save(reg, env_spec, steps=2**63 - 1).steps == 2**63 - 1
    assert reg.verify().ok


# ------------------------------------------------------------- spec.json
@pytest.fixture
def spec_json(reg, env_spec) -> dict:
    info = save(reg, env_spec, metrics={"loss": 0.5})
    return json.loads((reg.checkpoint_dir(info.id) / "spec.json").read_text())


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format_version",), True, r"spec field 'format_version' is True: input should be a valid integer"),
        (("steps",), BIG, r"spec field 'steps' is .*less than or equal to 9223372036854775807"),
        (("weights", "bytes"), True, r"spec field 'weights.bytes' is True: input should be a valid integer"),
        (("weights", "bytes"), "1024", r"spec field 'weights.bytes' is '1024'"),
        (("weights", "tensors", "layers.0.bias", "shape", 0), False, r"spec field 'weights.tensors.layers.0.bias.shape\[0\]' is False"),
        (("metrics", "loss"), float("nan"), r"spec field 'metrics': loss is nan: numbers must be finite"),
        (("env", "config", "deep"), [1, float("-inf")], r"spec field 'env.config': deep\[1\] is -inf: numbers must be finite"),
        (("parent",), "not-an-id", r"spec field 'parent': 'not-an-id' is not a checkpoint id"),
        (("created",), "yesterday", r"spec field 'created': 'yesterday' is not an ISO 8601 time"),
        (("weights", "sha256"), "0" * 63, r"spec field 'weights.sha256': '0+' is not a sha256"),
        (("name",), "random", r"spec field 'name': 'random' is a baseline ref"),
        (("surprise",), 1, r"spec field 'surprise' is not part of the format \(unknown key\)"),
        (("env", "surprise"), 1, r"spec field 'env.surprise' is not part of the format"),
        (("arch", "hidden"), [8, 0], r"spec field 'arch': arch hidden\[1\] must be a positive int"),
    ],
)
def test_validate_spec_names_the_bad_field_in_one_line(spec_json, path, value, message):
    validate_spec(spec_json)
    bad = copy.deepcopy(spec_json)
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ValueError, match=message) as e:
        validate_spec(bad)
    one_line(e)


def test_validate_spec_requires_every_key_and_counts_the_other_problems(spec_json):
    bad = {k: v for k, v in spec_json.items() if k != "algo"} | {"steps": True}
    with pytest.raises(ValueError, match=r"spec field 'algo' is missing \(and 1 more problem\)"):
        validate_spec(bad)
    with pytest.raises(ValueError, match="spec format is 'x' v1"):
        validate_spec({**spec_json, "format": "x"})


def test_a_spec_json_with_nan_is_refused_on_load_even_with_a_matching_hash(reg, env_spec):
    """JSON parsers take NaN; the spec on disk is validated after its hash, so a consistent edit fails too."""
    info = save(reg, env_spec)
    path = reg.checkpoint_dir(info.id) / "spec.json"
    data = json.loads(path.read_text())
    data["metrics"] = {"loss": float("nan")}
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    with contextlib.closing(sqlite3.connect(reg.index_path)) as con, con:  # the index agrees with the edit: only validation is left
        con.execute("UPDATE checkpoints SET spec_sha256 = ? WHERE id = ?", (hashlib.sha256(path.read_bytes()).hexdigest(), info.id))
    with pytest.raises(IntegrityError, match=r"spec.json is invalid: spec field 'metrics': loss is nan") as e:
        reg.load_weights(info.id)
    one_line(e)


# --------------------------------------------------------------- manifest
def read_tar(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def write_tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w") as tar:
        for name, data in members.items():
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))
    return path


@pytest.fixture
def export(reg, env_spec, tmp_path) -> dict[str, bytes]:
    info = save(reg, env_spec, tags=["keep"])
    reg.record_rating(info.id, mu=25.0, sigma=2.0, games=10, num_players=2)
    reg.record_eval(info.id, {"win_rate": 0.5})
    reg.export(info.id, tmp_path / "good.tar")
    return read_tar(tmp_path / "good.tar")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m["checkpoints"][0].update(version=True), r"'checkpoints\[0\].version' is True: input should be a valid integer"),
        (lambda m: m["checkpoints"][0].update(version=BIG), r"'checkpoints\[0\].version' is .*less than or equal to 9223372036854775807"),
        (lambda m: m["checkpoints"][0]["ratings"][0].update(mu=float("nan")), r"'checkpoints\[0\].ratings\[0\].mu' is nan: input should be a finite number"),
        (lambda m: m["checkpoints"][0]["ratings"][0].update(games=BIG), r"'checkpoints\[0\].ratings\[0\].games' is .*less than or equal to"),
        (lambda m: m["checkpoints"][0]["ratings"][0].update(num_players=True), r"'checkpoints\[0\].ratings\[0\].num_players' is True"),
        (lambda m: m["checkpoints"][0]["ratings"][0].update(extra=1), r"'checkpoints\[0\].ratings\[0\].extra' is not part of the format"),
        (lambda m: m["checkpoints"][0]["evals"][0]["results"].update(win_rate=float("inf")), r"'checkpoints\[0\].evals\[0\].results': win_rate is inf"),
        (lambda m: m["checkpoints"][0]["files"]["spec.json"].update(bytes="12"), r"'checkpoints\[0\].files.spec.json.bytes' is '12': input should be a valid integer"),
        (lambda m: m["checkpoints"][0]["files"].update(extra={}), r"'checkpoints\[0\].files.extra' is not part of the format"),
        (lambda m: m["checkpoints"][0].update(tags=[""]), r"'checkpoints\[0\].tags\[0\]': bad tag ''"),
        (lambda m: m["checkpoints"][0].update(aliases=["latest"]), r"'checkpoints\[0\].aliases\[0\]': 'latest' is automatic"),
        (lambda m: m.update(extra=True), r"'extra' is not part of the format"),
        (lambda m: m.update(root="0" * 12), r"root '000000000000' is none of the listed checkpoints"),
        (lambda m: m["checkpoints"].append(copy.deepcopy(m["checkpoints"][0])), r"are listed more than once"),
        (lambda m: m["checkpoints"][0].pop("files"), r"'checkpoints\[0\].files' is missing"),
    ],
)
def test_import_refuses_a_bad_manifest_field_and_writes_nothing(tmp_path, export, change, message):
    manifest = json.loads(export["manifest.json"])
    change(manifest)
    archive = write_tar(tmp_path / "bad.tar", {**export, "manifest.json": json.dumps(manifest).encode()})
    target = Registry(tmp_path / "target")
    before = contents(target)
    with pytest.raises(IntegrityError, match=r"^export .*bad.tar: manifest(:| field) .*" + message) as e:
        target.import_(archive)
    one_line(e)
    assert contents(target) == before and not any(target.tmp_path.iterdir())
    with pytest.raises(ValueError):
        validate_manifest(manifest)


def test_import_refuses_a_spec_past_int64_even_when_every_hash_matches(tmp_path, export):
    manifest = json.loads(export["manifest.json"])
    entry = manifest["checkpoints"][0]
    name = f"checkpoints/{entry['id']}/spec.json"
    spec = json.loads(export[name])
    spec["steps"] = BIG
    data = (json.dumps(spec, indent=2, sort_keys=True) + "\n").encode()
    entry["files"]["spec.json"] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    archive = write_tar(tmp_path / "big.tar", {**export, "manifest.json": json.dumps(manifest).encode(), name: data})
    target = Registry(tmp_path / "target")
    with pytest.raises(IntegrityError, match=r"invalid spec.json: spec field 'steps' is .*less than or equal to 9223372036854775807"):
        target.import_(archive)
    assert contents(target) == ([], [])


def test_a_good_export_round_trips_its_validated_manifest(tmp_path, export):
    manifest = validate_manifest(json.loads(export["manifest.json"]))
    (entry,) = manifest.checkpoints
    assert (entry.tags, entry.ratings[0].mu, entry.evals[0].results) == (["keep"], 25.0, {"win_rate": 0.5})
    imported = Registry(tmp_path / "copy").import_(write_tar(tmp_path / "again.tar", export))
    assert [i.id for i in imported] == [entry.id]


# ---------------------------------------------------------------- ratings
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"games": True}, r"rating field 'games' is True: input should be a valid integer"),
        ({"games": BIG}, r"rating field 'games' is .*less than or equal to 9223372036854775807"),
        ({"games": "3"}, r"rating field 'games' is '3'"),
        ({"mu": float("nan")}, r"rating field 'mu' is nan: input should be a finite number"),
        ({"sigma": -1.0}, r"rating field 'sigma' is -1.0: input should be greater than or equal to 0"),
        ({"num_players": 0}, r"rating field 'num_players' is 0: input should be greater than or equal to 1"),
        ({"ordinal": float("inf")}, r"rating field 'ordinal' is inf"),
    ],
)
def test_record_rating_refuses_a_bad_field_and_writes_nothing(reg, env_spec, change, message):
    info = save(reg, env_spec)
    with pytest.raises(ValueError, match=message) as e:
        reg.record_rating(info.id, **{"mu": 25.0, "sigma": 1.0, "games": 3, "num_players": 2, **change})
    one_line(e)
    assert reg.ratings(info.id) == []


def test_record_rating_takes_numpy_numbers(reg, env_spec):
    info = save(reg, env_spec)
    r = reg.record_rating(info.id, mu=np.float64(27.0), sigma=np.float32(2.0), games=np.int64(4), num_players=np.int32(2))
    assert (r.mu, r.sigma, r.ordinal, r.games, r.num_players) == (27.0, 2.0, 21.0, 4, 2)
    assert reg.ratings(info.id) == [r]


# --------------------------------------------------------- shipped models
@pytest.mark.parametrize("archive", SHIPPED, ids=lambda p: p.name)
def test_shipped_checkpoints_import_verify_and_play(tmp_path, archive):
    reg = Registry(tmp_path / "reg")
    (info,) = reg.import_(archive)
    manifest = json.loads(read_tar(archive)["manifest.json"])
    assert info.id == manifest["root"] and info.weights_sha256 == manifest["checkpoints"][0]["files"]["weights.safetensors"]["sha256"]
    assert reg.verify().ok and [i.id for i in reg.import_(archive)] == [info.id]  # a second import changes nothing
    env = envs.make(info.env_name)
    policy = load_policy(info.id, env, registry=reg)
    env.reset(seed=0)
    acted = 0
    for agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if info.role is None or agent.startswith(info.role):
            action = policy.act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1
            acted += 1
        else:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
    assert acted > 0
    assert len(SHIPPED) == 4


@pytest.mark.parametrize("archive", SHIPPED, ids=lambda p: p.name)
def test_shipped_checkpoints_name_no_place_on_the_machine_that_trained_them(archive):
    """A checkpoint travels: its recorded config leaves out the registry, run directory and cluster
    address (``LOCAL_CONFIG_KEYS``), and no file in it holds an absolute path."""
    files = read_tar(archive)
    for name, data in files.items():
        text = data.decode("utf-8", "replace") if name.endswith(".json") else ""
        assert not re.search(r'"(/|[A-Za-z]:\\\\)[^"]*"', text), f"{name} holds an absolute path"
        if name.endswith("spec.json"):
            config = json.loads(data)["metrics"]["config"]
            assert config and not set(config) & {"registry", "run_dir", "ray_address"}


# ----------------------------------------------------------------- layout
LAYERS = ["errors", "refs", "fields", "records", "spec", "index", "store", "archive", "registry", "cli"]


def test_registry_modules_import_only_the_layers_below_them():
    """The order ``mythzoo.policies.registry``'s docstring gives: each module imports only modules listed before it."""
    import ast

    folder = ROOT / "policies" / "registry"
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted([*LAYERS, "__init__"])
    for i, layer in enumerate(LAYERS):
        source = (folder / f"{layer}.py").read_text()
        assert len(source.splitlines()) < 600, layer
        imported = {
            node.module.split(".")[3] if node.module.count(".") >= 3 else "__init__"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mythzoo.policies.registry")
        }
        assert imported <= set(LAYERS[:i]) | ({"__init__"} if layer == "cli" else set()), (layer, sorted(imported - set(LAYERS[:i])))
