"""Training and judging policies. Training (needs the ``train`` extra): the typed config
(``config``, presets in ``mythzoo.configs``), masked PPO self-play (``ppo``, ``train_cli``), the
self-play vector envs in one process or many (``selfplay``, ``parallel``), the lean masked policy
(``masked_policy``) and the warm start by imitation (``pretrain``). Evaluation (the ``tools``
extra): single games, seat-balanced tournaments, ratings and replays (``evaluate``, ``eval_cli``), the leaderboards (``leaderboard_cli``),
lockstep evaluation during training (``batch_eval``) and human play (``play_cli``). Training may
import ``mythzoo.envs``, ``mythzoo.policies``, the command line's argument helpers (``mythzoo.cli``)
and the evaluation modules; the evaluation modules may import the same but never the training
modules, torch or Stable-Baselines3.
"""
