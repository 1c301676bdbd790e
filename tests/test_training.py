"""Training: configs, opponent sampling, credit assignment, and a short end-to-end run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import RandomPolicy
from mythzoo.training.config import CONFIG_ROOT, ConfigError, TrainConfig, from_dict, load_config
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv
from selfplay_spy import watch_moves


@pytest.mark.parametrize("path", sorted(CONFIG_ROOT.rglob("*.yaml")), ids=lambda p: str(p.relative_to(CONFIG_ROOT)))
def test_every_config_file_loads_and_validates(path: Path) -> None:
    cfg = load_config(path)
    assert isinstance(cfg, TrainConfig)
    assert cfg.total_timesteps > 0 and cfg.num_envs > 0


def test_config_rejects_unknown_keys_and_bad_values() -> None:
    with pytest.raises(ValueError, match="unknown config keys"):
        from_dict({"totl_timesteps": 5})
    with pytest.raises(ValueError, match="expected"):
        from_dict({"num_envs": "many"})
    with pytest.raises(ValueError, match="activation"):
        from_dict({"activation": "sigmoid"})
    with pytest.raises(ValueError, match="key=value"):
        load_config(None, ["seed"])
    assert load_config(None, ["seed=7", "net_arch=[32, 32]"]).net_arch == [32, 32]


def test_text_overrides_keep_a_checkpoint_id_made_of_digits() -> None:
    """``resume=255572601050`` (an id with no hex letter) stays that text; YAML would read a number."""
    cfg = load_config(None, ["resume=255572601050", "name=007", "seed=3", "resume=000000000002"])
    assert (cfg.resume, cfg.name, cfg.seed) == ("000000000002", "007", 3)
    assert load_config(None, ["resume=null"]).resume is None
    with pytest.raises(ValueError, match="put it in quotes"):
        from_dict({"resume": 255572601050})


def test_opponent_sampling_follows_configured_mix() -> None:
    pool = OpponentPool({"latest": 0.6, "past": 0.3, "baselines": 0.1}, seed=0)
    pool.add("latest", "latest", RandomPolicy(0))
    pool.add("past", "p1", RandomPolicy(1))
    pool.add("baselines", "b1", RandomPolicy(2))
    n = 20000
    draws = [pool.sample() for _ in range(n)]
    for key, p in (("latest", 0.6), ("p1", 0.3), ("b1", 0.1)):
        frac = draws.count(key) / n
        assert abs(frac - p) < 4 * np.sqrt(p * (1 - p) / n), (key, frac, p)


def test_opponent_sampling_skips_empty_categories() -> None:
    pool = OpponentPool({"latest": 0.5, "past": 0.5, "baselines": 0.0}, seed=0)
    pool.add("latest", "latest", RandomPolicy(0))
    assert {pool.sample() for _ in range(200)} == {"latest"}


@pytest.mark.parametrize("category", ["past", "baselines"])
def test_past_selves_and_baselines_weighted_toward_those_the_learner_loses_to(category: str) -> None:
    """PFSP: an opponent the learner always beats is drawn at the floor weight (0.1), one it
    always loses to at 1.1: a mastered baseline fades instead of taking a fixed share of games."""
    pool = OpponentPool({category: 1.0}, seed=0)
    pool.add(category, "easy", RandomPolicy(0))
    pool.add(category, "hard", RandomPolicy(1))
    n = 5000
    assert abs([pool.sample() for _ in range(n)].count("hard") / n - 0.5) < 0.03, "no results yet: uniform"
    for _ in range(200):
        pool.record("easy", 1.0)
        pool.record("hard", 0.0)
    frac = [pool.sample() for _ in range(n)].count("hard") / n
    assert abs(frac - 1.1 / 1.2) < 0.03, frac


def _vec(num_envs: int = 8, num_players: int = 2, seed: int = 0) -> SelfPlayVecEnv:
    pool = OpponentPool({"baselines": 1.0}, seed=seed)
    pool.add("baselines", "random", RandomPolicy(seed))
    return SelfPlayVecEnv("mythic_baths_v1", {"num_players": num_players}, num_envs, pool, seed=seed)


@pytest.mark.parametrize("num_players", [2, 3])
def test_learner_gets_final_reward_when_an_opponent_ends_the_game(num_players: int) -> None:
    vec = _vec(num_envs=8, num_players=num_players)
    ended_by: dict[int, str] = {}  # game slot -> agent whose move ended its latest game

    def on_move(i, mover, rewards, ended):
        if ended:
            ended_by[i] = mover

    watch_moves(vec, on_move)
    vec.reset()
    rng = np.random.default_rng(0)
    ended_by_opponent_with_reward = 0
    finished = 0
    while finished < 40:
        masks = vec.action_masks()
        assert masks.any(axis=1).all(), "the learner must never see an all-zero mask"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, dones, infos = vec.step(actions)
        for i in np.flatnonzero(dones):
            finished += 1
            info = infos[i]
            assert rewards[i] == pytest.approx(info["episode"]["r"])
            if info["TimeLimit.truncated"]:
                assert rewards[i] == 0
                continue
            # Zero-sum with a decisive result: the learner's reward is +1 or -1/(n-1), never lost.
            assert rewards[i] != 0 or num_players > 2
            if ended_by[i] != info["learner_agent"] and rewards[i] != 0:
                ended_by_opponent_with_reward += 1
    assert ended_by_opponent_with_reward > 0


def test_shaped_rewards_between_learner_moves_reach_the_learner() -> None:
    """``dense`` pays every step: the learner's rewards over a game sum to what the env paid its agent."""
    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense"}, 4, pool, seed=0)
    paid: list[dict[str, float]] = [{} for _ in range(vec.num_envs)]  # what each step paid per agent, current game
    ended: list[dict[str, float]] = [{} for _ in range(vec.num_envs)]  # the same, for the game that ended last

    def on_move(i, mover, rewards, game_over):
        for a, r in rewards.items():
            paid[i][a] = paid[i].get(a, 0.0) + r
        if game_over:
            ended[i] = dict(paid[i])

    watch_moves(vec, on_move, on_new_game=lambda i: paid[i].clear())
    vec.reset()
    rng = np.random.default_rng(0)
    got = [0.0] * vec.num_envs
    mid_game_nonzero = finished = 0
    while finished < 12:
        masks = vec.action_masks()
        _, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for i in range(vec.num_envs):
            got[i] += float(rewards[i])
            if dones[i]:
                finished += 1
                learner = infos[i]["learner_agent"]
                assert got[i] == pytest.approx(ended[i][learner], abs=1e-4)
                assert got[i] == pytest.approx(infos[i]["episode"]["r"], abs=1e-4)
                got[i] = 0.0
            elif rewards[i] != 0:
                mid_game_nonzero += 1
    assert mid_game_nonzero > 0, "dense rewards must reach the learner during the game, not only at its end"


def test_vecenv_is_deterministic_for_a_seed() -> None:
    def rollout() -> list[float]:
        vec = _vec(num_envs=4, seed=3)
        obs = vec.reset()
        rng = np.random.default_rng(1)
        out = [float(obs.sum())]
        for _ in range(200):
            masks = vec.action_masks()
            o, r, d, _ = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            out.append(float(o.sum()) + float(r.sum()))
        return out

    assert rollout() == rollout()


def _tiny_config(tmp_path: Path, **extra) -> TrainConfig:
    overrides = {
        "total_timesteps": 512, "num_envs": 4, "n_steps": 64, "batch_size": 128, "n_epochs": 1,
        "net_arch": [16, 16], "snapshot_every": 256, "eval_every": 512, "eval_games": 4,
        "registry": str(tmp_path / "registry"), "run_dir": str(tmp_path / "runs"), "progress": False,
        "name": "tiny", **extra,
    }
    return from_dict(overrides)


def test_short_training_run_registers_a_checkpoint_that_loads_and_plays(tmp_path: Path) -> None:
    from mythzoo.policies.registry import Registry
    from mythzoo.policies.refs import load_policy
    from mythzoo.training.ppo import train

    summary = train(_tiny_config(tmp_path))
    assert summary["steps"] >= 512
    run_dir = Path(summary["run_dir"])
    assert (run_dir / "config.yaml").exists() and (run_dir / "summary.json").exists()
    assert list(run_dir.rglob("events.out.tfevents.*")), "TensorBoard logs are written"
    reg = Registry(tmp_path / "registry")
    infos = reg.list("tiny")
    assert len(infos) >= 2, "snapshots every 256 steps plus the final one"
    latest = reg.resolve("tiny@latest")
    assert latest.steps == max(i.steps for i in infos) and latest.parent is not None
    assert reg.resolve("tiny@best").name == "tiny"
    assert reg.evals(latest.id), "the periodic evaluation is stored with the checkpoint"
    recorded = latest.metrics["config"]  # the run's config, less the places on this machine
    assert recorded["name"] == "tiny" and recorded["total_timesteps"] == _tiny_config(tmp_path).total_timesteps
    assert not {"registry", "run_dir", "ray_address"} & set(recorded)
    # The registered policy plays a whole game through the env API.
    env = mythic_baths_v1.env(num_players=2)
    policy = load_policy("tiny@latest", env, registry=reg, seed=0)
    env.reset(seed=5)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else policy.act(obs["observation"], obs["action_mask"]))
    assert not env.agents


def test_resume_continues_from_the_saved_step_count(tmp_path: Path) -> None:
    from mythzoo.policies.registry import Registry
    from mythzoo.training.ppo import train

    first = train(_tiny_config(tmp_path, eval_games=0))
    reg = Registry(tmp_path / "registry")
    start = reg.resolve("tiny@latest")
    second = train(_tiny_config(tmp_path, eval_games=0, resume="tiny@latest", total_timesteps=start.steps + 256))
    assert second["steps"] >= start.steps + 256
    resumed = reg.resolve("tiny@latest")
    assert resumed.steps == second["steps"] and resumed.id != start.id
    assert start.id in [i.id for i in reg.lineage(resumed.id)]
    assert first["checkpoint"] == start.id


def test_evaluation_counts_every_reward_of_the_game() -> None:
    """``evaluate_vs``'s mean reward is the learner's whole return (shaped per-step rewards included)."""
    from mythzoo.policies.base import BasePolicy
    from mythzoo.training.batch_eval import evaluate_vs

    class ObsHash(BasePolicy):  # varied play that depends only on the observation: reproducible anywhere
        def act_batch(self, observations, action_masks, agent=None):
            return np.array([pick(o, m) for o, m in zip(observations, action_masks)])

    def pick(obs, mask):
        legal = np.flatnonzero(mask)
        return int(legal[int(abs(float(obs.sum())) * 997) % legal.size])

    def make():
        return mythic_baths_v1.env(num_players=2, reward_mode="dense", max_turns=60)

    games, seed = 4, 7
    res = evaluate_vs(make, ObsHash(), ObsHash(), games, seed=seed)
    expected = []
    for g in range(games):
        env = make()
        env.reset(seed=seed + g)
        me = env.possible_agents[g % 2]
        total = 0.0
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            if agent == me:
                total += r
            env.step(None if term or trunc else pick(obs["observation"], obs["action_mask"]))
        expected.append(total)
    assert any(abs(t) > 1e-6 for t in expected)
    assert res["mean_reward"] == pytest.approx(float(np.mean(expected)), abs=1e-5)


def test_solo_game_trains_plainly_and_its_checkpoint_plays(tmp_path: Path) -> None:
    """The Innkeeper: no opponents to draw, evaluations report the mean return, the checkpoint plays."""
    from mythzoo.envs import mythwind_innkeeper_v5
    from mythzoo.policies.registry import Registry
    from mythzoo.policies.refs import load_policy
    from mythzoo.training.ppo import train

    cfg = _tiny_config(tmp_path, env="mythwind_innkeeper_v5", env_kwargs={"days_per_season": 2, "seasons": 1},
                       baselines=["random"], total_timesteps=256, n_steps=32, batch_size=64, snapshot_every=128, eval_every=256)
    summary = train(cfg)
    assert summary["roles"] is None and summary["steps"] >= 256 and summary["games_finished"] > 0
    assert "mean_reward" in summary["final_eval"] and not any(k.startswith("win_rate") for k in summary["final_eval"])
    env = mythwind_innkeeper_v5.env(days_per_season=2, seasons=1)
    policy = load_policy("tiny@latest", env, registry=Registry(tmp_path / "registry"), seed=0)
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else policy.act(obs["observation"], obs["action_mask"]))
    assert not env.agents


def test_warm_start_imitates_the_teacher_and_fits_the_critic(tmp_path: Path) -> None:
    """Behaviour cloning: after pretraining, the greedy policy mostly picks the teacher's actions,
    and the value head tracks the demonstrations' returns better than before."""
    import torch
    from sb3_contrib import MaskablePPO

    from mythzoo.policies.base import BasePolicy
    from mythzoo.training.pretrain import collect_demonstrations, pretrain

    class LastLegal(BasePolicy):  # an easy, consistent teacher
        def act_batch(self, observations, action_masks, agent=None):
            return np.array([int(np.flatnonzero(m)[-1]) for m in action_masks])

    def make():
        return mythic_baths_v1.env(num_players=2, reward_mode="dense", max_turns=40)

    data = collect_demonstrations(make, LastLegal(), ["player_0"], games=12, gamma=0.99, seed=0)
    n = len(data["actions"])
    assert n > 100 and data["obs"].shape == (n, 628) and data["masks"][np.arange(n), data["actions"]].all()
    assert np.abs(data["returns"]).max() > 0, "the dense rewards after each decision are in the returns"
    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense", "max_turns": 40}, 2, pool, seed=0)
    model = MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=32, seed=0, device="cpu", policy_kwargs={"net_arch": [64, 64]})
    obs = torch.as_tensor(data["obs"])
    with torch.no_grad():
        v_before = float(((model.policy.predict_values(obs).flatten() - torch.as_tensor(data["returns"])) ** 2).mean())
    stats = pretrain(model, data, epochs=30, batch_size=256, lr=3e-3)
    assert stats["agreement"] > 0.9, stats
    assert stats["value_loss"] < v_before, (stats, v_before)


def test_dagger_plays_the_actor_and_labels_with_the_teacher() -> None:
    """DAgger: the actor's moves drive the games, every recorded action is the teacher's choice in
    the state the actor reached; other seats are still played by the teacher."""
    from mythzoo.policies.base import BasePolicy
    from mythzoo.training.pretrain import collect_demonstrations

    class LastLegal(BasePolicy):
        def act_batch(self, observations, action_masks, agent=None):
            return np.array([int(np.flatnonzero(m)[-1]) for m in action_masks])

    class Spy(RandomPolicy):  # a random actor that remembers what it was shown
        seen: list[np.ndarray] = []

        def act_batch(self, observations, action_masks, agent=None):
            self.seen.extend(observations)
            return super().act_batch(observations, action_masks, agent)

    def make():
        return mythic_baths_v1.env(num_players=2, max_turns=30)

    teacher_only = collect_demonstrations(make, LastLegal(), ["player_0"], games=4, gamma=0.99, seed=0)
    spy = Spy(1)
    dagger = collect_demonstrations(make, LastLegal(), ["player_0"], games=4, gamma=0.99, seed=0, actor=spy)
    # The labels are the teacher's: the last legal action of each recorded state.
    last = np.array([np.flatnonzero(m)[-1] for m in dagger["masks"]])
    assert (dagger["actions"] == last).all()
    # The actor saw exactly the learner's recorded states, and its moves led elsewhere than the teacher's.
    assert len(spy.seen) == len(dagger["obs"]) and np.array_equal(np.stack(spy.seen), dagger["obs"])
    assert len(dagger["obs"]) != len(teacher_only["obs"]) or not np.array_equal(dagger["obs"], teacher_only["obs"])


def test_imitation_steps_pull_the_policy_toward_the_teacher() -> None:
    """The ``bc_coef`` regularizer: gradient steps on the imitation loss lower it."""
    from sb3_contrib import MaskablePPO

    from mythzoo.training.pretrain import imitation_steps

    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 2, pool, seed=0)
    model = MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=32, seed=0, device="cpu", policy_kwargs={"net_arch": [64, 64]})
    rng = np.random.default_rng(0)
    masks = rng.random((256, 132)) < 0.2
    masks[:, 3] = True
    data = {"obs": rng.normal(size=(256, 628)).astype(np.float32), "masks": masks,
            "actions": np.full(256, 3, dtype=np.int64), "returns": np.zeros(256, np.float32)}
    first = imitation_steps(model.policy, model.policy.optimizer, data, 1, 64, 1.0, np.random.default_rng(1))
    later = imitation_steps(model.policy, model.policy.optimizer, data, 60, 64, 1.0, np.random.default_rng(2))
    again = imitation_steps(model.policy, model.policy.optimizer, data, 1, 64, 1.0, np.random.default_rng(3))
    assert again < first and later < first


def test_training_with_dagger_and_imitation_regularizer_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pretrain_dagger_rounds`` and ``bc_coef`` end to end, the imitation term after every PPO
    update, also after a resume (which does not refit); ``bc_coef`` without a teacher is refused."""
    import json

    from mythzoo.training import pretrain as pretrain_module
    from mythzoo.training.ppo import train

    calls: list[int] = []
    real = pretrain_module.imitation_steps

    def counting(policy, optimizer, data, steps, *args, **kwargs):
        calls.append(len(data["actions"]))
        return real(policy, optimizer, data, steps, *args, **kwargs)

    monkeypatch.setattr(pretrain_module, "imitation_steps", counting)

    with pytest.raises(ValueError, match="bc_coef needs a pretrain_teacher"):
        from_dict({"bc_coef": 0.1})
    cfg = _tiny_config(tmp_path, env="mythwind_innkeeper_v5", env_kwargs={"days_per_season": 2, "seasons": 1},
                       baselines=["random"], total_timesteps=128, n_steps=32, batch_size=64, snapshot_every=128, eval_every=256,
                       pretrain_teacher="heuristic", pretrain_games=2, pretrain_epochs=1, pretrain_dagger_rounds=2, bc_coef=0.5)
    summary = train(cfg)
    rows = [json.loads(line) for line in (Path(summary["run_dir"]) / "pretrain.jsonl").read_text().splitlines()]
    assert [r["round"] for r in rows] == [0, 1, 2]
    assert rows[0]["decisions"] < rows[1]["decisions"] < rows[2]["decisions"], "each DAgger round adds its decisions"
    assert summary["steps"] >= 128
    assert calls and set(calls) == {rows[2]["decisions"]}, "every update is followed by imitation steps on all the demonstrations"
    calls.clear()
    resumed = train(from_dict({**{k: getattr(cfg, k) for k in ("env", "env_kwargs", "baselines", "n_steps", "batch_size", "num_envs", "n_epochs",
                                                                "net_arch", "snapshot_every", "eval_every", "eval_games", "registry", "run_dir",
                                                                "progress", "name", "pretrain_teacher", "pretrain_games", "bc_coef")},
                               "total_timesteps": summary["steps"] + 128, "resume": "tiny@latest"}))
    assert resumed["steps"] >= summary["steps"] + 128
    assert calls and all(n > 0 for n in calls), "a resumed run keeps the imitation term (teacher labels, no refit)"


def test_bfloat16_update_is_opt_in_and_keeps_float32_weights(tmp_path: Path) -> None:
    """``update_precision: bfloat16`` runs the update under autocast; the weights, and so the
    checkpoints, stay float32; any other value is refused."""
    import torch

    from mythzoo.policies.registry import Registry
    from mythzoo.training.ppo import train

    with pytest.raises(ValueError, match="update_precision"):
        from_dict({"update_precision": "float16"})
    assert TrainConfig().update_precision == "float32"
    summary = train(_tiny_config(tmp_path, update_precision="bfloat16", eval_games=0))
    assert summary["steps"] >= 512
    weights = Registry(tmp_path / "registry").load_weights("tiny@latest")
    assert weights and all(np.asarray(w).dtype == np.float32 for w in weights.values())
    assert not torch.is_autocast_enabled("cpu"), "the update's autocast context is left behind it"


def test_progress_bar_total_is_where_the_rounded_up_learn_calls_end(tmp_path: Path) -> None:
    from mythzoo.training.ppo import SelfPlayCallback, learn_end, train

    # 4 envs x 64 steps = 256 per rollout: 300 steps round up to 512, and the bar must say so.
    assert learn_end(0, 300, 300, 256) == 512
    assert learn_end(0, 512, 128, 256) == 512  # turns of 128 each still take a whole rollout
    assert learn_end(256, 600, 600, 256) == 768  # resumed from 256
    seen: dict[str, int] = {}
    close = SelfPlayCallback.close

    def record(self) -> None:
        if self.bar is not None:
            seen["n"], seen["total"] = self.bar.n, self.bar.total
        close(self)

    SelfPlayCallback.close = record  # type: ignore[method-assign]
    try:
        summary = train(_tiny_config(tmp_path, total_timesteps=300, eval_games=0, progress=True))
    finally:
        SelfPlayCallback.close = close  # type: ignore[method-assign]
    assert summary["steps"] == 512
    assert seen == {"n": 512, "total": 512}


def test_training_prints_its_run_dir_and_tensorboard_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.training.ppo import train

    summary = train(_tiny_config(tmp_path, total_timesteps=256, eval_games=0, progress=True))
    err = capsys.readouterr().err
    assert f"run directory: {summary['run_dir']}" in err
    assert f"tensorboard --logdir {summary['run_dir']}" in err
    assert "\r" not in err, "output that is not a terminal gets plain lines"


def test_ctrl_c_saves_a_snapshot_and_says_how_to_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shlex

    from mythzoo.policies.registry import Registry
    from mythzoo.training import ppo
    from mythzoo.training.train_cli import main

    on_step = ppo.SelfPlayCallback._on_step

    def interrupt(self) -> bool:
        if self.num_timesteps >= 256:
            raise KeyboardInterrupt
        return on_step(self)

    ppo.SelfPlayCallback._on_step = interrupt  # type: ignore[method-assign]
    try:
        rc = main(["train", "mythic_baths", "--registry", str(tmp_path / "registry"), "total_timesteps=1024", "num_envs=4", "n_steps=64",
                   "batch_size=128", "n_epochs=1", "net_arch=[16,16]", "snapshot_every=100000", "eval_games=0", "progress=false",
                   f"run_dir={tmp_path / 'runs'}", "name=tiny"])
    finally:
        ppo.SelfPlayCallback._on_step = on_step  # type: ignore[method-assign]
    assert rc == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err
    saved = Registry(tmp_path / "registry").resolve("tiny@latest")
    assert f"saved {saved.id}" in err and saved.steps >= 256
    command = err.split("resume with: ", 1)[1].strip().splitlines()[0]
    argv = shlex.split(command)
    assert argv[:3] == ["mythzoo", "train", "mythic_baths_v1"] and argv[-2:] == ["--resume", saved.id]
    assert main(argv[1:]) == 0  # the printed command continues the run to its total
    assert Registry(tmp_path / "registry").resolve("tiny@latest").steps == 1024


@pytest.mark.slow  # a real training process and its workers: about 20 s
def test_ctrl_c_in_a_terminal_stops_every_process_and_saves(tmp_path: Path) -> None:
    """A real Ctrl-C: SIGINT to the whole process group (what a terminal sends), with the game
    workers running in their own processes. The run exits 130 with no traceback, says where the
    snapshot is and how to resume, and leaves no process of its group behind."""
    from interrupting import ctrl_c_while_training, group_ends

    from mythzoo.policies.registry import Registry

    rc, err, pgid = ctrl_c_while_training([
        "mythic_baths", "--registry", str(tmp_path / "registry"), "total_timesteps=50000", "max_minutes=3", "num_envs=4", "num_workers=2",
        "n_steps=64", "batch_size=128", "n_epochs=1", "net_arch=[16,16]", "pretrain_teacher=null", "bc_coef=0",
        "snapshot_every=10000000", "eval_games=0", f"run_dir={tmp_path / 'runs'}", "name=tiny"])  # a progress line every 10%: soon
    assert rc == 130, err
    assert "Traceback" not in err, err
    saved = Registry(tmp_path / "registry").resolve("tiny@latest")
    assert f"saved {saved.id}" in err and "resume with: mythzoo train mythic_baths_v1" in err
    assert group_ends(pgid, 10), "processes of the interrupted run are still alive"  # the game workers exit with the main process


def test_learning_rate_final_anneals_linearly_over_the_step_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mythzoo.training import ppo

    rates: list[tuple[int, float]] = []
    update = ppo.ImitationRegularizedPPO.train

    def spy(self) -> None:
        update(self)
        rates.append((self.num_timesteps, self.policy.optimizer.param_groups[0]["lr"]))

    monkeypatch.setattr(ppo.ImitationRegularizedPPO, "train", spy)
    ppo.train(_tiny_config(tmp_path, total_timesteps=1024, eval_games=0, learning_rate=1e-3, learning_rate_final=1e-4,
                           pretrain_teacher=None, bc_coef=0.0))
    assert [t for t, _ in rates] == [256, 512, 768, 1024]  # one update per rollout of 4 games x 64 steps
    for t, lr in rates:
        assert lr == pytest.approx(1e-3 - 9e-4 * t / 1024)


def test_learning_rate_final_follows_the_clock_in_a_clock_bound_run() -> None:
    import time

    from mythzoo.training.ppo import UNBOUNDED_STEPS, AnnealedLearningRate

    schedule = AnnealedLearningRate(1e-3, 1e-4, UNBOUNDED_STEPS, 2.0, time.time() - 60)  # half of 2 minutes gone
    assert schedule(1.0) == pytest.approx(5.5e-4, rel=1e-2)
    late = AnnealedLearningRate(1e-3, 1e-4, UNBOUNDED_STEPS, 2.0, time.time() - 600)
    assert late(1.0) == pytest.approx(1e-4)  # never past the final rate


def test_a_learning_rate_that_is_not_positive_is_refused() -> None:
    with pytest.raises(ConfigError, match="learning_rate and learning_rate_final must be positive"):
        from_dict({"learning_rate_final": 0})
