"""The checkpoint registry and the numpy MLP policy it serves.

Covers: the MLP forward pass and masking; register -> alias -> load acting exactly like the
original weights on real observations; every ref form; version numbering; moving aliases;
lineage; tampered files and exports refused; wrong-env checkpoints refused; concurrent
registration from several processes; a process killed mid-save; export/import; the CLI.
"""

from __future__ import annotations

import dataclasses
import io
import json
import multiprocessing
import os
import signal
import tarfile
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import mythic_baths_v1
from mythzoo.policies import baselines
from mythzoo.policies.base import EnvSpec, RandomPolicy
from mythzoo.policies.neural import MLPPolicy, init_mlp_weights, mlp_weights_from_arrays, mlp_weights_from_sb3
from mythzoo.policies.refs import load_policy
from mythzoo.policies.registry import (
    EnvMismatchError,
    IntegrityError,
    RefError,
    Registry,
    RegistryError,
    parse_ref,
)
from mythzoo.policies.registry.cli import main as registry_main

HIDDEN = (32, 16)


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def env():
    e = mythic_baths_v1.env(num_players=2)
    e.reset(seed=0)
    return e


@pytest.fixture(scope="module")
def spec(env) -> EnvSpec:
    return EnvSpec.from_env(env)


@pytest.fixture(scope="module")
def samples() -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) of ~600 real decisions from random 2- and 3-player games."""
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for players, seed in [(2, 0), (2, 1), (3, 2)]:
        e = mythic_baths_v1.env(num_players=players)
        e.reset(seed=seed)
        for agent in e.agent_iter():
            o, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            obs.append(o["observation"].copy())
            masks.append(o["action_mask"].copy())
            e.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.stack(obs), np.stack(masks)


@pytest.fixture
def reg(tmp_path: Path) -> Registry:
    return Registry(tmp_path / "reg")


def net(seed: int, activation: str = "tanh"):
    return init_mlp_weights(628, 132, HIDDEN, activation, seed=seed)


def add(reg: Registry, spec: EnvSpec, name: str = "ppo", seed: int = 0, **kw):
    w, arch = net(seed)
    return reg.register(name, w, arch, env_spec=spec, algo=kw.pop("algo", "ppo"), steps=kw.pop("steps", 1000 * (seed + 1)), **kw)


def flip_byte(path: Path, offset: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    i = len(data) // 2 if offset is None else offset
    data[i] ^= 0xFF
    path.write_bytes(bytes(data))


# ---------------------------------------------------------------- MLP policy
def test_mlp_forward_matches_a_plain_loop_and_masks_illegal_actions(samples):
    obs, masks = samples
    w, arch = net(1, "relu")
    policy = MLPPolicy(w, arch)
    x = obs[:50].astype(np.float64)
    for i in range(3):
        x = x @ w[f"layers.{i}.weight"].T.astype(np.float64) + w[f"layers.{i}.bias"]
        if i < 2:
            x = np.maximum(x, 0)
    np.testing.assert_allclose(policy.logits(obs[:50]), x, rtol=1e-4, atol=1e-4)
    actions = policy.act_batch(obs, masks)
    assert all(masks[i, a] for i, a in enumerate(actions)), "argmax picked an illegal action"
    masked = np.where(masks[:50].astype(bool), x, -np.inf)
    np.testing.assert_array_equal(actions[:50], masked.argmax(axis=1))
    assert [policy.act(o, m) for o, m in zip(obs[:20], masks[:20])] == actions[:20].tolist()
    probs = policy.action_probs(obs[:10], masks[:10])
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    assert (probs[~masks[:10].astype(bool)] == 0).all()


def test_mlp_sampling_is_legal_seeded_and_follows_the_softmax(samples):
    obs, masks = samples
    w, arch = net(2)
    a = MLPPolicy(w, arch, deterministic=False, seed=7).act_batch(obs, masks)
    b = MLPPolicy(w, arch, deterministic=False, seed=7).act_batch(obs, masks)
    np.testing.assert_array_equal(a, b)
    assert all(masks[i, x] for i, x in enumerate(a))
    row = int(np.argmax(masks.sum(axis=1)))  # the row with the most legal actions
    p = MLPPolicy(w, arch, deterministic=False, seed=3)
    draws = p.act_batch(np.repeat(obs[row : row + 1], 20000, axis=0), np.repeat(masks[row : row + 1], 20000, axis=0))
    freq = np.bincount(draws, minlength=132) / draws.size
    np.testing.assert_allclose(freq, p.action_probs(obs[row : row + 1], masks[row : row + 1])[0], atol=0.02)


def test_mlp_refuses_bad_shapes_and_arch():
    w, arch = net(0)
    with pytest.raises(ValueError, match="layers.1.weight.*shape"):
        MLPPolicy({**w, "layers.1.weight": np.zeros((16, 31), np.float32)}, arch)
    with pytest.raises(ValueError, match="missing.*layers.2.bias"):
        MLPPolicy({k: v for k, v in w.items() if k != "layers.2.bias"}, arch)
    with pytest.raises(ValueError, match="activation"):
        MLPPolicy(w, {**arch, "activation": "gelu"})
    with pytest.raises(ValueError, match="unknown arch type"):
        MLPPolicy(w, {**arch, "type": "cnn"})
    with pytest.raises(ValueError, match="NaN"):
        MLPPolicy({**w, "layers.0.bias": np.full(32, np.nan, np.float32)}, arch)
    policy = MLPPolicy(w, arch)
    with pytest.raises(ValueError, match=r"\(batch, 628\)"):
        policy.act_batch(np.zeros((2, 459), np.float32), np.ones((2, 132), np.int8))
    with pytest.raises(ValueError, match="no legal action"):
        policy.act_batch(np.zeros((2, 628), np.float32), np.zeros((2, 132), np.int8))


def test_sb3_state_dict_conversion_keeps_the_actor_only():
    rng = np.random.default_rng(0)
    sd = {
        "mlp_extractor.policy_net.0.weight": rng.normal(size=(8, 5)), "mlp_extractor.policy_net.0.bias": rng.normal(size=8),
        "mlp_extractor.policy_net.2.weight": rng.normal(size=(4, 8)), "mlp_extractor.policy_net.2.bias": rng.normal(size=4),
        "mlp_extractor.value_net.0.weight": rng.normal(size=(8, 5)), "mlp_extractor.value_net.0.bias": rng.normal(size=8),
        "action_net.weight": rng.normal(size=(3, 4)), "action_net.bias": rng.normal(size=3),
        "value_net.weight": rng.normal(size=(1, 8)), "value_net.bias": rng.normal(size=1),
    }
    w, arch = mlp_weights_from_sb3(sd)
    assert arch == {"type": "mlp", "obs_size": 5, "action_size": 3, "hidden": [8, 4], "activation": "tanh"}
    w2, _ = mlp_weights_from_arrays([(sd["mlp_extractor.policy_net.0.weight"], sd["mlp_extractor.policy_net.0.bias"]),
                                     (sd["mlp_extractor.policy_net.2.weight"], sd["mlp_extractor.policy_net.2.bias"]),
                                     (sd["action_net.weight"], sd["action_net.bias"])])
    assert sorted(w) == sorted(w2) and all(np.array_equal(w[k], w2[k]) for k in w)


# ------------------------------------------------------- register and load
def test_register_alias_load_acts_exactly_like_the_original(reg, env, spec, samples):
    obs, masks = samples
    w, arch = net(5)
    original = MLPPolicy(w, arch)
    info = reg.register("ppo", w, arch, env_spec=spec, algo="ppo", steps=123, tags=["smoke"], metrics={"return": 0.5})
    assert (info.version, info.steps, info.tags, info.aliases, info.metrics) == (1, 123, ("smoke",), ("latest",), {"return": 0.5})
    add(reg, spec, seed=6)  # a newer version, so best != latest
    reg.set_alias("ppo", "best", 1)
    loaded = load_policy("ppo@best", env, registry=reg)
    assert loaded.name == "ppo:1" and loaded.checkpoint_id == info.id
    np.testing.assert_array_equal(loaded.logits(obs), original.logits(obs))
    np.testing.assert_array_equal(loaded.act_batch(obs, masks), original.act_batch(obs, masks))
    assert [loaded.act(o, m) for o, m in zip(obs[:100], masks[:100])] == original.act_batch(obs[:100], masks[:100]).tolist()
    weights = reg.load_weights(info.id)
    assert sorted(weights) == sorted(w) and all(np.array_equal(weights[k], w[k]) for k in w)
    sampler_a = load_policy("ppo@best", env, registry=reg, seed=11, deterministic=False)
    sampler_b = MLPPolicy(w, arch, deterministic=False, seed=11)
    np.testing.assert_array_equal(sampler_a.act_batch(obs, masks), sampler_b.act_batch(obs, masks))
    spec_json = json.loads((reg.checkpoint_dir(info.id) / "spec.json").read_text())
    assert spec_json["env"] == {"name": "mythic_baths_v1", "signature": spec.signature, "config": spec.config}
    assert spec_json["weights"]["tensors"]["layers.0.weight"] == {"dtype": "float32", "shape": [32, 628]}


def test_every_ref_form(reg, env, spec, monkeypatch):
    a = add(reg, spec, seed=0)
    b = add(reg, spec, seed=1)
    reg.set_alias("ppo", "champion", a.id)
    assert isinstance(load_policy("random", env, seed=0), RandomPolicy)
    assert type(load_policy("heuristic", env, seed=0)) is type(baselines.make_baseline("heuristic", env, 0))
    for ref, want in [("ppo", b), ("ppo@latest", b), ("ppo:1", a), ("ppo:v2", b), ("ppo@champion", a), (a.id, a), (b.id[:6], b)]:
        assert reg.resolve(ref).id == want.id, ref
        assert load_policy(ref, env, registry=reg.path).checkpoint_id == want.id
    monkeypatch.setenv("MYTHZOO_REGISTRY", str(reg.path))
    assert load_policy("ppo:1", env).checkpoint_id == a.id  # default registry from $MYTHZOO_REGISTRY
    with pytest.raises(RefError, match="did you mean ppo"):
        reg.resolve("ppp")
    with pytest.raises(RefError, match="no version 9; its versions: 1, 2"):
        reg.resolve("ppo:9")
    with pytest.raises(RefError, match="no alias 'best'; its aliases: latest, champion"):
        reg.resolve("ppo@best")
    with pytest.raises(RefError, match="baseline"):
        reg.resolve("random")
    with pytest.raises(ValueError, match="bad ref"):
        reg.resolve("ppo@@x")
    assert parse_ref("ppo:3") == ("version", "ppo", None, 3)
    # an ambiguous id prefix names no checkpoint
    ids = iter(["abcd00000001", "abcd00000002"])
    real = __import__("secrets").token_hex
    monkeypatch.setattr("mythzoo.policies.registry.registry.secrets.token_hex", lambda n: next(ids) if n == 6 else real(n))
    add(reg, spec, name="x", seed=2)
    add(reg, spec, name="x", seed=3)
    with pytest.raises(RefError, match="ambiguous"):
        reg.resolve("abcd")
    assert reg.resolve("abcd00000002").version == 2
    with pytest.raises(RegistryError, match="no registry"):
        load_policy("ppo", env, registry=reg.path.parent / "nowhere")


def test_versions_increment_per_name_and_are_never_reused(reg, spec):
    assert [add(reg, spec, seed=i).version for i in range(3)] == [1, 2, 3]
    assert add(reg, spec, name="other", seed=9).version == 1
    reg.remove("ppo:3")
    assert add(reg, spec, seed=4).version == 4
    assert [i.ref for i in reg.list("ppo")] == ["ppo:1", "ppo:2", "ppo:4"]
    assert reg.resolve("ppo").version == 4
    with pytest.raises(ValueError, match="baseline"):
        add(reg, spec, name="random")
    with pytest.raises(ValueError, match="bad checkpoint name"):
        add(reg, spec, name="a/b")


def test_aliases_move_and_follow_removal(reg, env, spec):
    v1, v2 = add(reg, spec, seed=0), add(reg, spec, seed=1)
    add(reg, spec, name="other", seed=2)
    reg.set_alias("ppo", "best", "ppo:1")
    assert load_policy("ppo@best", env, registry=reg).checkpoint_id == v1.id
    reg.set_alias("ppo", "best", 2)  # moves
    assert reg.resolve("ppo@best").id == v2.id
    assert [(a.alias, a.version) for a in reg.aliases("ppo")] == [("best", 2)]
    assert reg.resolve("ppo:2").aliases == ("latest", "best")
    with pytest.raises(ValueError, match="automatic"):
        reg.set_alias("ppo", "latest", 1)
    with pytest.raises(ValueError, match="must point to a version of 'ppo'"):
        reg.set_alias("ppo", "best", "other")
    reg.remove("ppo@best")
    with pytest.raises(RefError, match="no alias 'best'"):
        reg.resolve("ppo@best")
    assert reg.resolve("ppo@latest").id == v1.id


def test_an_alias_can_point_at_a_checkpoint_id_made_only_of_digits(reg, spec, monkeypatch):
    """About one id in 280 has no hex letter; ``set_alias`` took such an id for a version number."""
    from mythzoo.policies.registry import registry as registry_module

    fake = iter(["255572601050", "000000000002"])
    real_token_hex = registry_module.secrets.token_hex
    monkeypatch.setattr(registry_module.secrets, "token_hex", lambda n: next(fake) if n == 6 else real_token_hex(n))
    v1, v2 = add(reg, spec, seed=0), add(reg, spec, seed=1)
    assert (v1.id, v2.id) == ("255572601050", "000000000002")
    reg.set_alias("ppo", "best", v1.id)
    assert reg.resolve("ppo@best").version == 1
    reg.set_alias("ppo", "best", "2")  # a short digit string is still a version number
    assert reg.resolve("ppo@best").id == v2.id
    reg.set_alias("ppo", "best", v1.id)
    assert reg.resolve("ppo@best").id == v1.id
    assert reg.resolve(v1.id).id == v1.id
    with pytest.raises(RefError, match="no version 3"):
        reg.set_alias("ppo", "best", "3")


def test_lineage_ratings_evals_and_tags(reg, spec):
    a = add(reg, spec, seed=0)
    b = add(reg, spec, seed=1, parent="ppo:1")
    c = add(reg, spec, name="ft", seed=2, parent=b.id, role="player")
    assert [i.id for i in reg.lineage("ft")] == [c.id, b.id, a.id]
    assert [i.id for i in reg.children(a.id)] == [b.id]
    with pytest.raises(RefError):
        add(reg, spec, seed=3, parent="ppo:99")
    r = reg.record_rating("ft", mu=27.0, sigma=2.0, games=40, num_players=3)
    assert (r.ordinal, r.env_name) == (21.0, "mythic_baths_v1")
    reg.record_rating("ft", mu=28.0, sigma=1.5, games=80, num_players=3)  # replaces
    assert [(x.num_players, x.mu, x.games) for x in reg.ratings("ft")] == [(3, 28.0, 80)]
    reg.record_eval("ft", {"win_rate": 0.6, "vs": "random"}, name="vs_random")
    assert reg.evals("ft")[0].results == {"vs": "random", "win_rate": 0.6}
    assert reg.set_tags("ft", add=["league", "gen2"], remove=[]).tags == ("gen2", "league")
    assert [i.ref for i in reg.list(tag="league")] == ["ft:1"]
    reg.remove(b.id)  # the child keeps its parent id; its lineage stops there
    assert [i.id for i in reg.lineage("ft")] == [c.id] and reg.resolve("ft").parent == b.id


# -------------------------------------------------------------- tampering
def test_tampered_weights_are_refused_and_nothing_else_is_touched(reg, env, spec):
    good, bad = add(reg, spec, seed=0), add(reg, spec, name="bad", seed=1)
    path = reg.checkpoint_dir(bad.id) / "weights.safetensors"
    before = {p: p.read_bytes() for p in reg.path.rglob("*") if p.is_file() and p.suffix != ".sqlite" and "-wal" not in p.name}
    flip_byte(path)
    with pytest.raises(IntegrityError, match=r"bad:1 .*weights.safetensors has sha256 .* refusing to load"):
        reg.load_weights("bad")
    with pytest.raises(IntegrityError):
        load_policy("bad", env, registry=reg)
    load_policy("ppo", env, registry=reg)  # the other checkpoint is fine
    report = reg.verify()
    assert not report.ok and len(report.errors) == 1 and bad.id in report.errors[0]
    assert reg.verify("ppo").ok
    assert (reg.checkpoint_dir(good.id) / "weights.safetensors").read_bytes() == before[reg.checkpoint_dir(good.id) / "weights.safetensors"]
    assert path.exists() and reg.resolve("bad").id == bad.id  # refused, not deleted


def test_tampered_or_missing_spec_is_refused(reg, spec):
    info = add(reg, spec, seed=0)
    spec_path = reg.checkpoint_dir(info.id) / "spec.json"
    data = json.loads(spec_path.read_text())
    data["steps"] = 10**9
    spec_path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    with pytest.raises(IntegrityError, match="spec.json has sha256"):
        reg.load_weights(info.id)
    spec_path.unlink()
    with pytest.raises(IntegrityError, match="missing"):
        reg.load_weights(info.id)


def test_checkpoint_for_another_env_is_refused(reg, env, spec):
    w, arch = net(0)
    other_sig = reg.register("alien", w, arch, env_spec=dataclasses.replace(spec, signature="0" * 16), algo="ppo", steps=1)
    other_env = reg.register("alien2", w, arch, env_spec=dataclasses.replace(spec, env_name="mythic_baths_v9"), algo="ppo", steps=1)
    with pytest.raises(EnvMismatchError) as e:
        load_policy("alien", env, registry=reg)
    assert "0000000000000000" in str(e.value) and spec.signature in str(e.value) and "alien:1" in str(e.value)
    with pytest.raises(EnvMismatchError, match="'mythic_baths_v9'.*'mythic_baths_v1'"):
        load_policy(other_env.id, env, registry=reg)
    assert other_sig.env_signature == "0" * 16
    small, small_arch = init_mlp_weights(10, 132, (8,), seed=0)
    with pytest.raises(ValueError, match="takes 10 observations"):
        reg.register("small", small, small_arch, env_spec=spec, algo="ppo", steps=1)
    with pytest.raises(ValueError, match="matches none"):
        reg.register("nobody", w, arch, env_spec=spec, algo="ppo", steps=1, role="wizard_")


# ------------------------------------------------------------ concurrency
def _ctx() -> multiprocessing.context.BaseContext:
    return multiprocessing.get_context("spawn")  # children start clean (no fork of a possibly threaded pytest)


def _register_many(path: str, spec: EnvSpec, worker: int, count: int, barrier, results) -> None:
    reg = Registry(path)
    w, arch = init_mlp_weights(628, 132, (8,), seed=worker)
    barrier.wait(30)  # all workers register at the same moment
    ids = [reg.register("league", w, arch, env_spec=spec, algo="ppo", steps=worker * 100 + i, tags=[f"w{worker}"]).id for i in range(count)]
    results.put(ids)


def test_concurrent_registration_loses_nothing(reg, spec):
    ctx = _ctx()
    barrier, results = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_register_many, args=(str(reg.path), spec, k, 10, barrier, results)) for k in range(4)]
    for p in procs:
        p.start()
    ids = [i for _ in procs for i in results.get(timeout=60)]
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    infos = reg.list("league")
    assert len(ids) == 40 == len(set(ids)) == len(infos)
    assert sorted(i.version for i in infos) == list(range(1, 41))
    assert {i.id for i in infos} == set(ids)
    assert all(len(reg.list(tag=f"w{k}")) == 10 for k in range(4))
    report = reg.verify()
    assert report.ok and report.checked == 40 and not report.leftovers


def _die_during_save(path: str, spec: EnvSpec, stage: str) -> None:
    def hook(self: Registry, s: str) -> None:
        if s == stage:
            if hasattr(signal, "SIGKILL"):
                os.kill(os.getpid(), signal.SIGKILL)
            os._exit(17)

    Registry._hook = hook  # only in this child process
    w, arch = init_mlp_weights(628, 132, (8,), seed=0)
    Registry(path).register("victim", w, arch, env_spec=spec, algo="ppo", steps=1)
    os._exit(0)  # not reached if the kill worked


@pytest.mark.parametrize("stage", ["staged", "renamed"])
def test_process_killed_mid_save_leaves_a_consistent_registry(reg, env, spec, stage):
    keep = add(reg, spec, seed=0)
    proc = _ctx().Process(target=_die_during_save, args=(str(reg.path), spec, stage))
    proc.start()
    proc.join(30)
    assert proc.exitcode in (-getattr(signal, "SIGKILL", 9), 17)
    assert [i.id for i in reg.list()] == [keep.id]  # no half entry visible, no entry lost
    with pytest.raises(RefError):
        reg.resolve("victim")
    report = reg.verify()
    assert report.ok and len(report.leftovers) == 1  # the dead save's folder, reported as a leftover
    assert ("tmp" if stage == "staged" else "not in the index") in report.leftovers[0]
    assert len(reg.gc(grace_s=0)) == 1
    assert not reg.verify().leftovers
    load_policy("ppo", env, registry=reg)
    assert add(reg, spec, name="victim", seed=1).version == 1  # the dead save took no version


def test_failed_save_in_process_cleans_up(reg, spec, monkeypatch):
    def boom(self: Registry, stage: str) -> None:
        if stage == "renamed":
            raise OSError("disk on fire")

    monkeypatch.setattr(Registry, "_hook", boom)
    with pytest.raises(OSError, match="disk on fire"):
        add(reg, spec, seed=0)
    monkeypatch.undo()
    assert reg.list() == [] and not reg.verify().leftovers


# ---------------------------------------------------------- export/import
def test_export_import_round_trip(reg, tmp_path, env, spec, samples):
    obs, masks = samples
    add(reg, spec, seed=0)
    b = add(reg, spec, seed=1, parent="ppo:1", tags=["keep"])
    reg.record_rating(b.id, mu=30.0, sigma=1.0, games=10, num_players=2)
    reg.record_eval(b.id, {"win_rate": 0.7})
    out = tmp_path / "ppo.tar"
    exported = reg.export("ppo:2", out, with_lineage=True)
    assert [i.version for i in exported] == [1, 2]
    other = Registry(tmp_path / "other")
    add(other, spec, seed=5)  # the target already has a ppo:1, so the imports become ppo:2 and ppo:3
    imported = other.import_(out)
    for src, dst in zip(exported, imported):
        assert (dst.id, dst.weights_sha256, dst.spec_sha256, dst.parent) == (src.id, src.weights_sha256, src.spec_sha256, src.parent)
    assert [i.version for i in imported] == [2, 3]
    assert other.resolve(b.id).tags == ("keep",) and other.ratings(b.id)[0].mu == 30.0 and other.evals(b.id)[0].results == {"win_rate": 0.7}
    assert [i.id for i in other.lineage(b.id)] == [i.id for i in reg.lineage(b.id)]
    np.testing.assert_array_equal(
        load_policy(b.id, env, registry=other).act_batch(obs, masks), load_policy(b.id, env, registry=reg).act_batch(obs, masks)
    )
    assert [i.version for i in other.import_(out)] == [2, 3]  # importing again changes nothing
    assert len(other.list()) == 3 and other.verify().ok
    gz = tmp_path / "one.tar.gz"
    reg.export(b.id, gz)
    third = Registry(tmp_path / "third")
    assert [i.id for i in third.import_(gz)] == [b.id]  # without lineage: the parent id dangles
    assert [i.id for i in third.lineage(b.id)] == [b.id]


def _rewrite_tar(src: Path, dst: Path, change) -> None:
    with tarfile.open(src) as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar.getmembers()]
    with tarfile.open(dst, "w") as tar:
        for m, data in change(members):
            ti = tarfile.TarInfo(m.name if isinstance(m, tarfile.TarInfo) else m)
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))


def test_tampered_export_is_refused(reg, tmp_path, spec):
    info = add(reg, spec, seed=0)
    out = tmp_path / "x.tar"
    reg.export(info.id, out)
    target = Registry(tmp_path / "target")

    def unchanged() -> bool:
        return target.list() == [] and not any(target.checkpoints_path.iterdir()) and not any(target.tmp_path.iterdir())

    flipped = tmp_path / "flipped.tar"
    flipped.write_bytes(out.read_bytes())
    with tarfile.open(flipped) as tar:
        offset = tar.getmember(f"checkpoints/{info.id}/weights.safetensors").offset_data
    flip_byte(flipped, offset + 500)
    with pytest.raises(IntegrityError, match="weights.safetensors has sha256 .* the manifest says"):
        target.import_(flipped)
    assert unchanged()

    def consistent_forgery(members):  # new weights, with the manifest's hash updated to match them
        w, _ = net(99)
        from safetensors.numpy import save

        fake = save(w)
        out_members = []
        for m, data in members:
            if m.name == "manifest.json":
                manifest = json.loads(data)
                files = manifest["checkpoints"][0]["files"]
                files["weights.safetensors"] = {"sha256": __import__("hashlib").sha256(fake).hexdigest(), "bytes": len(fake)}
                data = json.dumps(manifest).encode()
            elif m.name.endswith("weights.safetensors"):
                data = fake
            out_members.append((m, data))
        return out_members

    forged = tmp_path / "forged.tar"
    _rewrite_tar(out, forged, consistent_forgery)
    with pytest.raises(IntegrityError, match="does not match the hash its spec.json records"):
        target.import_(forged)
    evil = tmp_path / "evil.tar"
    _rewrite_tar(out, evil, lambda ms: ms + [("../../evil.txt", b"pwned")])
    with pytest.raises(IntegrityError, match="unexpected members"):
        target.import_(evil)
    assert not (tmp_path / "evil.txt").exists() and not (target.path.parent / "evil.txt").exists()
    garbage = tmp_path / "garbage.tar"
    garbage.write_bytes(b"not a tar at all" * 100)
    with pytest.raises(IntegrityError, match="not a readable tar"):
        target.import_(garbage)
    assert unchanged()


# -------------------------------------------------------------------- CLI
def test_cli_end_to_end(reg, tmp_path, spec, capsys):
    def cli(*argv: str) -> tuple[int, str, str]:
        code = registry_main(["--registry", str(reg.path), *argv])
        out, err = capsys.readouterr()
        return code, out, err

    a = add(reg, spec, seed=0, tags=["first"])
    b = add(reg, spec, seed=1, parent="ppo:1")
    code, out, _ = cli("ls")
    assert code == 0 and out.splitlines()[0].split()[:4] == ["ref", "id", "aliases", "env"]
    assert "ppo:1" in out and "ppo:2" in out and "first" in out and b.id in out
    code, out, _ = cli("alias", "ppo", "best", "1")
    assert code == 0 and out.strip() == f"ppo@best -> ppo:1 ({a.id})"
    code, out, _ = cli("alias", "ppo", "best", "ppo:2")
    assert code == 0 and "(was ppo:1)" in out
    code, out, _ = cli("alias")
    assert code == 0 and "best" in out and "(automatic)" in out
    code, out, _ = cli("show", "ppo@best")
    assert code == 0 and "lineage         ppo:2 <- ppo:1" in out and "signature" in out and spec.signature in out
    code, out, _ = cli("show", "ppo:1", "--json")
    assert code == 0 and json.loads(out)["id"] == a.id
    code, out, _ = cli("verify")
    assert code == 0 and "verified 2 checkpoints" in out and "OK" in out
    tar = tmp_path / "e.tar"
    code, out, _ = cli("export", "ppo@best", str(tar), "--with-lineage")
    assert code == 0 and "exported 2 checkpoints" in out
    code, out = registry_main(["import", str(tar), "--registry", str(tmp_path / "copy")]), capsys.readouterr().out
    assert code == 0 and "imported 2 checkpoints" in out and Registry(tmp_path / "copy").resolve(b.id).weights_sha256 == b.weights_sha256
    code, out, _ = cli("rm", "ppo:2")
    assert code == 0 and "removed ppo:2" in out and "best" in out
    code, _, err = cli("show", "ppo:2")
    assert code == 2 and "no version 2" in err
    code, _, err = cli("alias", "ppo", "best", "--rm")
    assert code == 2 and "not set" in err
    flip_byte(reg.checkpoint_dir(a.id) / "weights.safetensors")
    code, out, _ = cli("verify")
    assert code == 1 and "ERROR" in out and a.id in out and "FAILED" in out
    code, _, err = cli("export", "ppo", str(tmp_path / "bad.tar"))
    assert code == 1 and "verification failed" in err
    with tarfile.open(tar) as t:
        offset = t.getmember(f"checkpoints/{b.id}/weights.safetensors").offset_data
    flip_byte(tar, offset + 1000)
    code, err = registry_main(["import", str(tar), "--registry", str(tmp_path / "copy2")]), capsys.readouterr().err
    assert code == 1 and "verification failed" in err
    assert registry_main(["--registry", str(tmp_path / "nowhere"), "ls"]) == 2
    assert "no registry" in capsys.readouterr().err
    assert registry_main(["ls", "--bogus"]) == 2
    assert registry_main([]) == 2
    assert registry_main(["--help"]) == 0
