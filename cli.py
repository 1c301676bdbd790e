"""The ``mythzoo`` command line (also ``python -m mythzoo``).

Each subcommand is one ``add_<name>(subparsers)`` function that declares its arguments and sets
``func``, a ``(args) -> int`` handler; ``main`` parses and dispatches. Modules are imported only
when their subcommand runs, so ``mythzoo envs`` needs neither torch nor the tools extra.
Bad input prints ``mythzoo: error: ...`` and returns 2; a command whose extra is not installed
prints which one to install (``mythzoo.extras``) and returns 1.

Subcommands:
- ``mythzoo envs``: the available environments.
- ``mythzoo demo``: uniform-random legal play of every env and player count, summarised.
- ``mythzoo train``: masked-PPO self-play against past selves and baselines (training extra).
- ``mythzoo eval``: seat-balanced tournament with win rates, Wilson intervals and OpenSkill ratings.
- ``mythzoo replay``: re-play and check a game record.
- ``mythzoo leaderboard``: the per-game leaderboards (regenerate them, or add a policy to one).
- ``mythzoo play``: play in the terminal against policies.
- ``mythzoo view``: watch a recorded game, or play one, in the browser.
- ``mythzoo registry``: the checkpoint registry (ls, show, alias, rm, export, import, verify).
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from mythzoo import __version__

DEMO_GAMES = 750


class UsageError(Exception):
    """Bad command-line input: printed as ``mythzoo: error: ...`` with exit code 2."""


# ------------------------------------------------------------------ helpers
def _env_registry() -> dict[str, tuple[Any, str, str]]:
    from mythzoo.envs import ENVS

    return ENVS


def _resolve_env(name: str) -> str:
    """The versioned env name for ``name``, or a :class:`UsageError` listing the available ones."""
    from mythzoo.envs import ALIASES, RetiredEnvError, resolve

    try:
        return resolve(name)
    except RetiredEnvError as e:
        raise UsageError(str(e)) from None
    except KeyError:
        names = sorted(_env_registry())
        aliases = sorted(f"{a} (= {v})" for a, v in ALIASES.items())
        raise UsageError(f"unknown env {name!r}; available: {', '.join(names + aliases)}") from None


@cache
def player_counts(name: str) -> tuple[int, ...]:
    """The ``num_players`` values env ``name`` accepts (its spec's sizes), or ``(0,)`` for an env whose
    table is not sized by ``num_players`` (``docs/gen_env_docs.py`` reads this)."""
    game = _spec(name)
    return tuple(game.sizes) if game.size_argument == "num_players" else (0,)


def _spec(name: str) -> Any:
    from mythzoo.envs import spec

    return spec(name)


def _make_env_seats(name: str, players: int) -> Any:
    """Env ``name`` with ``players`` seats (every role counted)."""
    game = _spec(name)
    return game.make(**game.size_kwargs(players))


def _span(values: Sequence[int]) -> str:
    """``2-5`` for a contiguous run, ``2, 4`` otherwise."""
    if len(values) > 2 and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ", ".join(str(v) for v in values)


def _number(text: str, kind: type, minimum: float, what: str) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if not value >= minimum:  # `not >=` also refuses NaN
        raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (every mythzoo subcommand uses these validators)."""
    return _number(text, int, 1, "a positive integer")


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _number(text, int, 0, "a non-negative integer")


def non_negative_float(text: str) -> float:
    """argparse type: a number of seconds >= 0."""
    return _number(text, float, 0.0, "a non-negative number of seconds")


# ---------------------------------------------------------------- mythzoo envs
def _add_envs(sub: Any) -> None:
    p = sub.add_parser("envs", help="list the available environments", description="List the available environments.")
    p.set_defaults(func=cmd_envs)


def cmd_envs(args: argparse.Namespace) -> int:
    """Print one row per registered env: name, PettingZoo id, players, sizes, description."""
    from mythzoo.evaluation import format_table

    rows = []
    for name, (_, pz_id, desc) in _env_registry().items():
        counts = _spec(name).seat_counts()
        env = _make_env_seats(name, counts[0])
        roles = env.unwrapped.roles()
        first = {r: agents[0] for r, agents in roles.items()}
        if len(roles) == 1:
            agent = env.possible_agents[0]
            obs: object = env.observation_space(agent)["observation"].shape[0]
            acts: object = env.action_space(agent).n
        else:  # per role
            obs = ", ".join(f"{r} {env.observation_space(a)['observation'].shape[0]}" for r, a in first.items())
            acts = ", ".join(f"{r} {env.action_space(a).n}" for r, a in first.items())
        rows.append([name, pz_id, _span(counts), obs, acts, desc])
    print(format_table(rows, ["env", "PettingZoo id", "players", "obs size", "actions", "description"]))
    return 0


# ---------------------------------------------------------------- mythzoo demo
@dataclass
class DemoGame:
    """One finished random game: its record and what the demo measures besides."""

    record: Any  # mythzoo.evaluation.GameRecord
    kind: str  # the game's kind: "symmetric", "roles" (asymmetric/team game) or "solo"
    turns: int
    natural: bool  # ended by the rules, not by the turn cap
    seconds: float
    first_seat_win: float  # seat 0's share of the win (ties share; 0 if truncated or a draw)
    role_wins: dict[str, float] | None = None  # roles games: each role's share of the win (all 0 for a draw)
    draw: bool = False  # roles games: every side the same result (the turn cap)

    @property
    def env(self) -> str:
        return self.record.env

    @property
    def players(self) -> int:
        return self.record.num_players

    @property
    def decisions(self) -> int:
        return self.record.decisions

    @property
    def scores(self) -> list[float]:
        return self.record.scores

    @property
    def returns(self) -> list[float]:
        return self.record.returns


def game_seeds(seed: int, env: str, players: int, index: int) -> tuple[int, np.random.Generator]:
    """The env seed and the policy Generator of game ``index``; independent of how games are split among workers."""
    ss = np.random.SeedSequence([seed, zlib.crc32(env.encode()), players, index])
    env_ss, policy_ss = ss.spawn(2)
    return int(env_ss.generate_state(1)[0]), np.random.Generator(np.random.PCG64(policy_ss))


_WORKER_ENVS: dict[tuple[str, int], Any] = {}


def play_random_game(env_name: str, players: int, seed: int, index: int) -> DemoGame:
    """Play one game between uniform-random legal policies (the shared runner; ``players``: seats)."""
    from mythzoo.evaluation import GameRecord, play_one
    from mythzoo.policies.base import RandomPolicy

    key = (env_name, players)
    env = _WORKER_ENVS.get(key)
    if env is None:
        env = _WORKER_ENVS[key] = _make_env_seats(env_name, players)
    env_seed, rng = game_seeds(seed, env_name, players, index)
    policy = RandomPolicy()
    policy.rng = rng  # one generator draws every seat's moves, in the order they are made
    record = GameRecord(env_name, _spec(env_name).size_kwargs(players), players, env_seed, ["random"] * players, [None] * players,
                        digests=None)  # summarised, never kept: no decision digests
    start = time.perf_counter()
    play_one(env, [policy] * players, record)
    seconds = time.perf_counter() - start
    raw = env.unwrapped
    rules, state = raw.rules, raw.state_
    if record.scores is None:  # an env without scores(): the rules' scores, else the final rewards
        record.scores = [float(x) for x in rules.scores(state)] if hasattr(rules, "scores") else list(record.final_rewards)
    natural = rules.is_over(state) and not record.truncated
    kind = _spec(env_name).kind
    agents = record.agents
    first = record.outcome([raw.agent_team(a) for a in agents]).seat_shares()[0] if natural else 0.0
    game = DemoGame(record, kind, rules.turns_played(state), natural, seconds, first)
    if kind == "roles":
        roles = list(raw.roles())
        result = record.outcome([raw.agent_role(a) for a in agents], order=roles)
        game.role_wins, game.draw = dict(zip(roles, result.shares)), result.draw
    return game


def _play_chunk(task: tuple[str, int, int, int, int]) -> list[DemoGame]:
    env_name, players, seed, first, count = task
    return [play_random_game(env_name, players, seed, i) for i in range(first, first + count)]


def _add_demo(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="play random games of every env and player count and summarise them",
        description="Play games between uniform-random legal policies for every available env and player "
        "count (through the PettingZoo AEC API) and print a summary per env and player count.",
    )
    p.add_argument("--games", type=positive_int, default=DEMO_GAMES, help=f"games per env and player count (default {DEMO_GAMES})")
    p.add_argument("--seed", type=int, default=0, help="seed of every game and policy draw (default 0)")
    p.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: one per available core)")
    p.add_argument("--env", action="append", default=None, metavar="NAME", help="only this env (repeatable; default: all)")
    p.add_argument("--players", type=positive_int, nargs="+", default=None, metavar="N",
                   help="only these player counts (players = seats, every role counted: Mythsgate N = the invoker and N-1 heroes)")
    p.set_defaults(func=cmd_demo)


def _demo_configs(envs: Iterable[str] | None, players: Sequence[int] | None) -> list[tuple[str, int]]:
    """(env, players) to play: every env (or those named) at every player count it takes (or those
    given; an env not named that takes none of them is left out)."""
    names = [_resolve_env(e) for e in envs] if envs else list(_env_registry())
    names = list(dict.fromkeys(names))
    configs = []
    for name in names:
        counts = _spec(name).seat_counts()
        chosen = counts if players is None else [n for n in players if n in counts]
        if not chosen and envs:
            raise UsageError(f"env {name!r} supports {_span(counts)} players, not {_span(sorted(set(players or [])))}")
        configs += [(name, n) for n in chosen]
    if not configs:
        raise UsageError(f"no env takes {_span(sorted(set(players or [])))} players; "
                         + "; ".join(f"{n}: {_span(_spec(n).seat_counts())}" for n in names))
    return configs


def _groups(records: Sequence[DemoGame]) -> dict[tuple[str, int], list[DemoGame]]:
    groups: dict[tuple[str, int], list[DemoGame]] = {}
    for r in records:
        groups.setdefault((r.env, r.players), []).append(r)
    return groups


def _rate(decisions: int, seconds: float) -> int:
    return round(decisions / seconds) if seconds > 0 else 0


def summarise(records: Sequence[DemoGame]) -> list[list[object]]:
    """One summary row per (env, players) of the symmetric games, in first-seen order (``DEMO_HEADER``)."""
    rows = []
    for (env, n), rs in _groups([r for r in records if r.kind == "symmetric"]).items():
        g = len(rs)
        natural = [r for r in rs if r.natural]
        decisions = sum(r.decisions for r in rs)
        seconds = sum(r.seconds for r in rs)
        rows.append([
            env, n if n else "-", g,
            round(decisions / g, 1),
            round(sum(r.turns for r in rs) / g, 1),
            round(sum(max(r.scores) for r in rs) / g, 1),
            round(sum(max(r.scores) - min(r.scores) for r in rs) / g, 1),
            f"{100 * len(natural) / g:.1f}%",
            f"{100 * (g - len(natural)) / g:.1f}%",
            f"{100 * sum(r.first_seat_win for r in natural) / len(natural):.1f}%" if natural else "-",
            _rate(decisions, seconds),
        ])
    return rows


def summarise_roles(records: Sequence[DemoGame]) -> list[list[object]]:
    """One row per (env, players) of the asymmetric (team) games (``DEMO_ROLES_HEADER``)."""
    rows = []
    for (env, n), rs in _groups([r for r in records if r.kind == "roles"]).items():
        g = len(rs)
        roles = list(rs[0].role_wins or {})
        decisions = sum(r.decisions for r in rs)
        draws = sum(r.draw for r in rs)
        trunc = sum(not r.natural for r in rs)
        wins = ", ".join(f"{role} {100 * sum((r.role_wins or {}).get(role, 0.0) for r in rs) / g:.1f}%" for role in roles)
        rows.append([env, n, g, round(decisions / g, 1), round(sum(r.turns for r in rs) / g, 1), wins,
                     f"{100 * draws / g:.1f}%", f"{100 * trunc / g:.1f}%", _rate(decisions, sum(r.seconds for r in rs))])
    return rows


def summarise_solo(records: Sequence[DemoGame]) -> list[list[object]]:
    """One row per solo env (``DEMO_SOLO_HEADER``)."""
    rows = []
    for (env, n), rs in _groups([r for r in records if r.kind == "solo"]).items():
        g = len(rs)
        decisions = sum(r.decisions for r in rs)
        rets = np.array([(r.returns or [0.0])[0] for r in rs])
        scores = np.array([r.scores[0] for r in rs])
        natural = sum(r.natural for r in rs)
        rows.append([env, g, round(decisions / g, 1), round(sum(r.turns for r in rs) / g, 1), round(float(rets.mean()), 2),
                     round(float(rets.std(ddof=1)), 2) if g > 1 else 0.0, round(float(scores.mean()), 2),
                     f"{100 * natural / g:.1f}%", f"{100 * (g - natural) / g:.1f}%", _rate(decisions, sum(r.seconds for r in rs))])
    return rows


DEMO_HEADER = ["env", "players", "games", "decisions/game", "turns/game", "winner VP", "VP spread", "ended", "truncated", "seat-0 wins", "decisions/s"]
DEMO_ROLES_HEADER = ["env", "players", "games", "decisions/game", "turns/game", "side wins", "draws", "truncated", "decisions/s"]
DEMO_SOLO_HEADER = ["env", "games", "decisions/game", "turns/game", "mean return", "return sd", "mean score", "ended", "truncated", "decisions/s"]


def cmd_demo(args: argparse.Namespace) -> int:
    """Play ``--games`` random games per env and player count, with a progress bar, then print the summary."""
    from mythzoo.evaluation import format_table
    from mythzoo.evaluation.pool import chunk_size, default_workers, run_tasks

    configs = _demo_configs(args.env, args.players)
    workers = args.workers or default_workers()
    chunk = chunk_size(args.games, workers)
    tasks = [(name, n, args.seed, first, min(chunk, args.games - first)) for name, n in configs for first in range(0, args.games, chunk)]
    total = args.games * len(configs)
    print(f"mythzoo demo: {args.games} games x {len(configs)} env/player-count configurations, uniform-random legal play, "
          f"seed {args.seed}, {workers} worker{'s' if workers > 1 else ''}", flush=True)
    start = time.perf_counter()
    records: list[DemoGame] = run_tasks(_play_chunk, tasks, workers, total=total, desc="demo")
    wall = time.perf_counter() - start
    order = {c: i for i, c in enumerate(configs)}
    records.sort(key=lambda r: order[(r.env, r.players)])
    decisions = sum(r.decisions for r in records)
    if any(r.kind == "symmetric" for r in records):
        print("\nsymmetric games (every seat the same role):")
        print(format_table(summarise(records), DEMO_HEADER))
        print("winner VP: mean score (VP) of the game's leader; VP spread: mean leader minus last; ended/truncated: by the rules / by the turn cap;")
        print("seat-0 wins: share of naturally ended games won by the first player (ties shared; fair is 1/players).")
    if any(r.kind == "roles" for r in records):
        print("\nasymmetric team games (players: every seat, e.g. the invoker and players-1 heroes):")
        print(format_table(summarise_roles(records), DEMO_ROLES_HEADER))
        print("side wins: share of games each role's side won (a role wins with the highest mean final reward of its seats);")
        print("draws: games no side won (every side the same reward, e.g. at the turn cap); truncated: ended by the turn cap.")
    if any(r.kind == "solo" for r in records):
        print("\nsolo games:")
        print(format_table(summarise_solo(records), DEMO_SOLO_HEADER))
        print("return: the sum of a campaign's rewards; score: env.scores() at its end; ended/truncated: by the rules / by the turn cap.")
    print("decisions/s: per worker process, including reset and observation.")
    print(f"{len(records)} games, {decisions} decisions in {wall:.1f} s wall ({decisions / wall:,.0f} decisions/s over {workers} worker{'s' if workers > 1 else ''})")
    return 0


# ---------------------------------------------------------------------- main
def _add_train(sub: Any) -> None:
    from mythzoo.training.train_cli import add_train_parser

    add_train_parser(sub)


def _add_eval(sub: Any) -> None:
    from mythzoo.training.eval_cli import add_eval_parser

    add_eval_parser(sub)  # adds `eval` and `replay`


def _add_exploit(sub: Any) -> None:
    from mythzoo.training.exploit_cli import add_exploit_parser

    add_exploit_parser(sub)


def _add_play(sub: Any) -> None:
    from mythzoo.training.play_cli import add_play_parser

    add_play_parser(sub)


def _add_view(sub: Any) -> None:
    from mythzoo.training.view_cli import add_view_parser

    add_view_parser(sub)


def _add_leaderboard(sub: Any) -> None:
    from mythzoo.training.leaderboard_cli import add_leaderboard_parser

    add_leaderboard_parser(sub)


def _add_registry(sub: Any) -> None:
    from mythzoo.policies.registry.cli import add_registry_parser

    add_registry_parser(sub)


SUBCOMMANDS: list[Callable[[Any], None]] = [_add_envs, _add_demo, _add_train, _add_eval, _add_leaderboard, _add_exploit, _add_play, _add_view,
                                            _add_registry]


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="mythzoo", description="Mythic tabletop games as PettingZoo environments.")
    parser.add_argument("--version", action="version", version=f"mythzoo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None, handler: Callable[[Any], int] | None = None) -> int:
    """Parse ``argv`` with ``parser`` and run the chosen subcommand (``handler`` overrides its ``func``);
    usage errors print ``mythzoo <cmd>: error: ...`` and return 2; a missing optional library prints
    the extra that installs it and returns 1. Every ``main`` in mythzoo uses this."""
    try:
        args, extra = parser.parse_known_args(argv)
        # `key=value` overrides may follow options (`train env --config f a=1`), which argparse's
        # positional matching cannot place; subcommands that take overrides collect them here.
        if extra and hasattr(args, "overrides") and all("=" in x and not x.startswith("-") for x in extra):
            args.overrides = list(args.overrides or []) + extra
        elif extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:  # argparse exits on --help (0) and on bad input (2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    if getattr(args, "command", None) is None:
        parser.print_help()
        return 2
    try:
        return (handler or args.func)(args)
    except UsageError as e:
        print(f"mythzoo {args.command}: error: {e}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        from mythzoo.extras import missing_extra_message

        message = missing_extra_message(e, f"mythzoo {args.command}")
        if message is None:  # not an optional library of mythzoo: a real error, with its traceback
            raise
        print(f"mythzoo {args.command}: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mythzoo`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    return dispatch(build_parser(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
