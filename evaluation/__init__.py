"""mythzoo.evaluation: playing and judging policies in every mythzoo game.

What lives here, one concern per module:

- ``records``: :class:`GameRecord` (one game, enough to replay it), load and save;
- ``outcome``: who won, the one definition: win shares, ranks and side results from final rewards;
- ``runner``: the one game loop (:func:`play_games`: many games in lockstep, one policy call per
  policy and role per round), used by tournaments, ``mythzoo play``, ``mythzoo demo``, the
  training's fast evaluation and the warm start's demonstrations;
- ``loading``: policies by ref or as objects for the seats (naming objects, pinning checkpoints,
  role refs, reuse between games);
- ``schedules``: seat-balanced cycles, role pairings, solo campaigns, the seeds of every game;
- ``pool``: the one worker pool and :func:`default_workers`;
- ``play``: :func:`tournament` and :func:`play_game`;
- ``replay``: re-play and check a record;
- ``stats``: Wilson and Student-t intervals; ``ratings``: OpenSkill Plackett-Luce with an anchor;
- ``results``: the result of each kind of game (symmetric, roles, solo); ``report``: the one
  monospace table and the plots;
- ``leaderboard``: the per-game leaderboards (``mythzoo leaderboard``), their board file and page.

The method is in ``docs/evaluation.md``. This package may import ``mythzoo.envs`` and
``mythzoo.policies``, never ``mythzoo.training`` or torch: a tournament between baselines and
checkpoints runs without the training extra (``openskill``, ``scipy`` and ``matplotlib`` come with
the ``tools`` extra and are imported when first needed).
"""

from mythzoo.evaluation.loading import (
    BASELINES,
    NamedPolicies,
    ObjectLoader,
    Policies,
    PolicyLike,
    check_refs,
    check_role_refs,
    checkpoint_role,
    load_policy,
    name_policies,
    open_registry,
    parse_role_refs,
    split_role_ref,
)
from mythzoo.evaluation.outcome import Outcome, outcome, score_from_return
from mythzoo.evaluation.play import play_game, tournament
from mythzoo.evaluation.pool import default_workers, run_tasks
from mythzoo.evaluation.ratings import ANCHOR_MU, ANCHOR_SIGMA, MODEL_MU, MODEL_SIGMA, rate_games
from mythzoo.evaluation.records import HUMAN, RECORD_FORMAT, GameRecord, load_records
from mythzoo.evaluation.replay import ReplayError, ReplayResult, ReplayStep, iter_replay, replay
from mythzoo.evaluation.report import format_table
from mythzoo.evaluation.results import (
    RESULT_FORMAT,
    ROLES,
    SOLO,
    SYMMETRIC,
    PairingStats,
    PolicyStats,
    RolePolicyStats,
    RoleTournamentResult,
    SoloPolicyStats,
    SoloResult,
    TournamentResult,
    summarise,
    summarise_roles,
    summarise_solo,
)
from mythzoo.evaluation.runner import Decision, StopGame, Table, play_games, play_one
from mythzoo.evaluation.schedules import derive_seed, seat_seeds, seatings, unique_labels
from mythzoo.evaluation.stats import mean_interval, t_quantile, wilson_interval

__all__ = [
    "ANCHOR_MU", "ANCHOR_SIGMA", "BASELINES", "HUMAN", "MODEL_MU", "MODEL_SIGMA", "RECORD_FORMAT", "RESULT_FORMAT", "ROLES", "SOLO",
    "SYMMETRIC", "Decision", "GameRecord", "NamedPolicies", "ObjectLoader", "Policies", "PolicyLike", "Outcome", "PairingStats", "PolicyStats", "ReplayError", "ReplayResult", "ReplayStep",
    "RolePolicyStats", "RoleTournamentResult", "SoloPolicyStats", "SoloResult", "StopGame", "Table", "TournamentResult",
    "check_refs", "check_role_refs", "checkpoint_role", "default_workers", "derive_seed", "format_table", "iter_replay",
    "load_policy", "load_records", "name_policies", "mean_interval", "open_registry", "outcome", "parse_role_refs", "play_game", "play_games",
    "play_one", "rate_games", "replay", "run_tasks", "score_from_return", "seat_seeds", "seatings", "split_role_ref",
    "summarise", "summarise_roles", "summarise_solo", "t_quantile", "tournament", "unique_labels", "wilson_interval",
]
