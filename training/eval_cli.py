"""``mythzoo eval`` and ``mythzoo replay``: seat-balanced tournaments with ratings, and game replays.

``add_eval_parser(subparsers)`` declares both subcommands on ``mythzoo``'s subparsers (each sets
``func``, an ``(args) -> int`` handler); ``main(argv)`` runs them standalone (tests use it).

    mythzoo eval mythic_baths random heuristic --games 200 --players 2 --workers 4 \\
        --json runs/eval.json --plot runs/eval.png
    mythzoo replay runs/eval.json --game 3 --step-delay 0.2

The method (seat rotation, ties, Wilson intervals, ratings, JSON fields) is in docs/evaluation.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from mythzoo.cli import non_negative_float, non_negative_int, positive_int
from mythzoo.text import printable

DEFAULT_GAMES = 100


def _usage_error(message: str) -> Exception:
    """``mythzoo.cli.UsageError`` (printed as ``mythzoo <cmd>: error: ...``, exit 2), imported late:
    ``mythzoo.cli`` imports this module."""
    from mythzoo.cli import UsageError

    return UsageError(message)


def _env_arg(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``; the value is read as JSON when it parses (numbers, true/false, null), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def env_kwargs_from(pairs: Sequence[tuple[str, Any]] | None) -> dict[str, Any]:
    """The env keyword arguments from ``--env-arg KEY=VALUE`` pairs."""
    kw = dict(pairs or [])
    if "num_players" in kw:
        raise _usage_error("give the player count with --players, not --env-arg num_players=...")
    return kw


def resolve_env(name: str) -> str:
    """The versioned env name, or a usage error listing the envs."""
    from mythzoo.envs import ENVS, RetiredEnvError, resolve

    try:
        return resolve(name)
    except RetiredEnvError as e:
        raise _usage_error(str(e)) from None
    except KeyError:
        raise _usage_error(f"unknown env {name!r}; available: {', '.join(sorted(ENVS))}") from None


PLAYERS_HELP = ("players at the table, every seat counted (default: the env's default). Mythic Baths: 2-5; Mythsgate: "
                "2-6, the invoker and N-1 heroes (the same as --env-arg num_heroes=N-1); the solo Mythwind Innkeeper: 1 only")


def seat_range(env_name: str) -> str:
    """The player counts ``env_name`` accepts, as text (``2-5``, ``2-6 (num_heroes = players - 1)``, ``1 (solo)``)."""
    from mythzoo.envs import spec

    game = spec(env_name)
    counts = game.seat_counts()
    if game.size_argument is None:
        return f"{counts[0]} (fixed)" if counts[0] > 1 else "1 (solo)"
    text = f"{counts[0]}-{counts[-1]}"
    if game.seat_offset:
        text += f" ({game.size_argument} = players - {game.seat_offset})"
    return text


def probe_env(env_name: str, num_players: int | None, env_kwargs: dict[str, Any]) -> Any:
    """Build the env once, turning a bad player count or argument into a usage error."""
    from mythzoo.envs import make, spec

    try:
        return make(env_name, **spec(env_name).size_kwargs(num_players, env_kwargs))
    except (TypeError, ValueError) as e:
        players = "" if num_players is None else f"{num_players} players "
        raise _usage_error(f"cannot make {env_name} with {players}{env_kwargs or ''}".rstrip() + f": {e} ({env_name} takes players: "
                           f"{seat_range(env_name)})") from None


def _load_errors() -> tuple[type[Exception], ...]:
    import sqlite3

    errors: tuple[type[Exception], ...] = (KeyError, ValueError, LookupError, OSError, RuntimeError, sqlite3.Error)
    try:
        from mythzoo.policies.registry import RegistryError

        errors += (RegistryError,)
    except ImportError:
        pass
    return errors


@contextlib.contextmanager
def policy_load_errors() -> Iterator[None]:
    """A policy that does not load (a bad ref, a missing registry, a checkpoint of another role)
    becomes a usage error."""
    try:
        yield
    except _load_errors() as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        raise _usage_error(f"cannot load policy: {msg}") from None


def check_role_policy_refs(env: Any, refs: Sequence[str], registry: Any) -> list[tuple[str, str]]:
    """For an asymmetric or solo game: ``(role, ref)`` per ref (``ROLE:REF``; the role prefix is optional
    in a solo game), every ref loaded once and a checkpoint of another role refused: usage errors."""
    from mythzoo.envs import spec
    from mythzoo.evaluation import SOLO, check_role_refs, parse_role_refs, split_role_ref

    try:
        if spec(env.unwrapped.env_name).kind == SOLO:
            roles = list(env.unwrapped.roles())
            role_refs = [(roles[0], split_role_ref(r, roles)[1]) for r in refs]
        else:
            role_refs = parse_role_refs(env, refs)
    except ValueError as e:
        raise _usage_error(str(e)) from None
    with policy_load_errors():
        check_role_refs(env, role_refs, registry)
    return role_refs


def check_policy_refs(env: Any, refs: Sequence[str], registry: Any) -> None:
    """Load every ref once; a ref that does not load is a usage error."""
    from mythzoo.evaluation import check_refs

    with policy_load_errors():
        check_refs(env, refs, registry)


# ---------------------------------------------------------------------------- output files
def check_output_path(path: str, option: str) -> None:
    """Before any game: ``path`` can be written (a usage error naming ``option`` otherwise). The path
    must not be a folder; a file there must be writable; its nearest existing folder must take a new
    file (tried with an empty probe file, removed at once). Nothing is created or changed."""
    import os
    import tempfile
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        raise _usage_error(f"{option} {path}: is a folder, not a file")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise _usage_error(f"{option} {path}: the file is not writable")
    ancestor = p.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise _usage_error(f"{option} {path}: {ancestor} is a file, not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=ancestor, prefix=".mythzoo-probe-")
    except OSError as e:
        raise _usage_error(f"{option} {path}: cannot write in {ancestor}: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(probe)


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (its folders made) through a temporary file renamed over it, so a
    failed write leaves no half file."""
    import os
    import tempfile
    from pathlib import Path

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def rescue_text(text: str, name: str) -> str | None:
    """Write ``text`` (results that could not go where asked) to ``name`` in the current folder, else
    in the temporary folder; the path written, or None if neither takes it."""
    import os
    import tempfile
    from pathlib import Path

    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        with contextlib.suppress(OSError):
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=name + ".", suffix=".json")
            with os.fdopen(fd, "w") as f:
                f.write(text)
            return tmp
    return None


# ------------------------------------------------------------------------------------ eval
def add_eval_parser(subparsers: Any) -> None:
    """Add ``eval`` and ``replay`` to ``mythzoo``'s subparsers."""
    p = subparsers.add_parser(
        "eval",
        help="play a seat-balanced tournament between policies and rate them",
        description="Evaluate the policies REFS (random, heuristic, NAME@ALIAS, NAME:VERSION, checkpoint id, or your own code as "
        "py:MODULE:FACTORY, imported and called with the env spec; see docs/usage.md) on ENV. "
        "Symmetric games (Mythic Baths): a seat-balanced tournament, every policy in every seat equally often; "
        "table of games, wins, win rate with a 95% Wilson interval, mean reward and score, OpenSkill "
        "Plackett-Luce rating, cross-play matrix. Asymmetric team games (Mythsgate): give each ref as ROLE:REF "
        "(invoker:heuristic hero:random ...); every policy of one role plays every policy of the others, on the "
        "same deals; table of each side's win rate per pairing with Wilson intervals and draws. Solo games "
        "(Mythwind Innkeeper): every policy plays the same campaigns; mean return and score with 95% t "
        "intervals and paired differences against the first policy. See docs/evaluation.md.",
    )
    p.add_argument("env", help="environment name (e.g. mythic_baths)")
    p.add_argument("refs", nargs="+", metavar="REF",
                   help="policies; a repeated ref plays as REF#2, ...; ROLE:REF in an asymmetric game (e.g. invoker:random hero:heuristic)")
    p.add_argument("--games", type=positive_int, default=DEFAULT_GAMES,
                   help=f"games to play in all, rounded up to whole cycles: seat rotations; deals played by every pairing (asymmetric); "
                   f"campaigns played by every policy (solo) (default {DEFAULT_GAMES})")
    p.add_argument("--players", type=positive_int, default=None, help=PLAYERS_HELP)
    p.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: one per core, about 20 games each)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of every deal and policy draw (default 0)")
    p.add_argument("--json", metavar="PATH", default=None, help="write the results and every game record as JSON")
    p.add_argument("--plot", metavar="PATH", default=None, help="write a PNG: ratings, win rates, cross-play heatmap")
    p.add_argument("--registry", metavar="PATH", default=None, help="checkpoint registry: resolves refs; stores ratings and results")
    p.add_argument("--env-arg", type=_env_arg, action="append", default=None, metavar="KEY=VALUE",
                   help="extra env argument, e.g. reward_mode=score (repeatable)")
    p.add_argument("--anchor", default="auto", metavar="LABEL",
                   help="policy whose rating is pinned (default auto: random, else heuristic; 'none' for no anchor); symmetric games only")
    p.add_argument("--no-records", action="store_true", help="leave the game records out of the --json file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_eval)
    add_replay_parser(subparsers)


def require_eval_libraries(kind: str, refs: Sequence[str], plot: bool, roles: Sequence[str] = ()) -> None:
    """Before any game: the tools extra's libraries this evaluation will need (ratings for a
    symmetric game, t intervals for a solo one, the plot, checkpoints), or the extra to install."""
    from mythzoo.evaluation import SOLO, SYMMETRIC, split_role_ref
    from mythzoo.extras import require
    from mythzoo.policies.refs import uses_registry

    needed = ["openskill"] if kind == SYMMETRIC else ["scipy"] if kind == SOLO else []
    if plot:
        needed.append("matplotlib")
    if any(uses_registry(split_role_ref(r, list(roles))[1]) for r in refs):
        needed.append("safetensors")
    require(needed, "mythzoo eval")


def cmd_eval(args: argparse.Namespace) -> int:
    """Run the tournament, print the table, write the JSON and the PNG."""
    from mythzoo.envs import spec
    from mythzoo.evaluation import ROLES, SOLO, SYMMETRIC, default_workers, tournament, unique_labels

    env_name = resolve_env(args.env)
    kw = env_kwargs_from(args.env_arg)
    env = probe_env(env_name, args.players, kw)
    n = len(env.unwrapped.possible_agents)
    kind = spec(env_name).kind
    require_eval_libraries(kind, args.refs, bool(args.plot), list(env.unwrapped.roles()) if kind != SYMMETRIC else ())
    anchor = None if args.anchor == "none" else args.anchor
    if kind != SYMMETRIC:
        if args.anchor != "auto":
            raise _usage_error(f"--anchor: {env_name} is {'a solo' if kind == SOLO else 'an asymmetric'} game; ratings (and their anchor) are "
                               "only for symmetric games")
        check_role_policy_refs(env, args.refs, args.registry)
    else:
        if anchor not in (None, "auto") and anchor not in unique_labels(args.refs):
            raise _usage_error(f"--anchor {anchor!r} is not one of the policies {unique_labels(args.refs)}")
        check_policy_refs(env, args.refs, args.registry)
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path:
            check_output_path(path, option)
    if args.json and args.plot and os.path.abspath(args.json) == os.path.abspath(args.plot):
        raise _usage_error(f"--json and --plot are the same file ({args.json})")
    workers = args.workers or default_workers(args.games)
    if kind == ROLES:
        table = ", ".join(f"{r}: {len(a)} seat{'s' if len(a) > 1 else ''}" for r, a in env.unwrapped.roles().items())
        what = f"{n} players ({table})"
    elif kind == SOLO:
        what = "solo"
    else:
        what = f"{n} players"
    print(f"mythzoo eval: {env_name}, {what}, {len(args.refs)} policies, {args.games} games requested, seed {args.seed}, "
          f"{workers} worker{'s' if workers > 1 else ''}", flush=True)
    from mythzoo.evaluation.pool import WorkerError

    try:
        result = tournament(env_name, args.refs, args.games, num_players=args.players, workers=workers, seed=args.seed,
                            registry=args.registry, env_kwargs=kw, anchor=anchor, progress=not args.quiet)
    except WorkerError as e:
        print(f"mythzoo eval: error: {e}", file=sys.stderr)
        return 1
    print()
    print(result.table())
    print()
    truncated = sum(r.truncated for r in result.records)
    if kind == ROLES:
        if result.games != args.games:
            print(f"{result.games} games: {args.games} rounded up to whole deals ({len(result.pairings)} pairings play every deal).")
        print(f"{truncated} game{'s' if truncated != 1 else ''} hit the turn cap. A role wins when its seats' mean final reward is the "
              "highest; a draw (every side the same, e.g. the turn cap) is no win for either side.")
        print(f"95% CI: Wilson score interval; games on the same deal are paired, not independent; {result.seconds:.1f} s.")
    elif kind == SOLO:
        if result.games != args.games:
            print(f"{result.games} games: {args.games} rounded up to whole campaigns (every policy plays each campaign).")
        if truncated:
            print(f"{truncated} campaigns hit the turn cap.")
        print("return: the sum of the rewards of a campaign; score: env.scores() at its end; 95% CI: Student t; the difference "
              f"against {result.labels[0]} is paired by campaign; {result.seconds:.1f} s.")
    else:
        if result.games != args.games:
            print(f"{result.games} games: {args.games} rounded up to whole cycles of {len(result.cycle)} (lineups x seat rotations).")
        if truncated:
            print(f"{truncated} games hit the turn cap (all seats tie: each gets 1/{n} of a win).")
        print("games count seats; a win shared by k seats counts 1/k; 95% CI: Wilson score interval; mu/sigma: OpenSkill "
              "Plackett-Luce" + (f", {result.anchor} pinned at mu 25" if result.anchor else "") + f"; {result.seconds:.1f} s.")
    for note in result.registry_notes:
        print(f"registry: {note}")
    return write_eval_outputs(result, args, env_name)


def write_eval_outputs(result: Any, args: argparse.Namespace, env_name: str) -> int:
    """Write ``--json`` then ``--plot``. The paths were checked before the games, but a write can
    still fail (a full disk, a folder removed meanwhile): then the results (with every record) go to
    a file in the current folder (else the temporary one), one line says where, and the exit code is 1."""
    failed: list[str] = []
    text = json.dumps(result.to_dict(include_records=not args.no_records), indent=1) + "\n"
    if args.json:
        try:
            write_text_atomic(args.json, text)
            print(f"wrote {args.json}")
        except OSError as e:
            failed.append(f"cannot write --json {args.json}: {e.strerror or e}")
    if args.plot:
        try:
            result.plot(args.plot)
            print(f"wrote {args.plot}")
        except (OSError, ValueError) as e:
            failed.append(f"cannot write --plot {args.plot}: {getattr(e, 'strerror', None) or e}")
    if not failed:
        return 0
    if not args.json or any(f.startswith("cannot write --json") for f in failed) or args.no_records:
        full = json.dumps(result.to_dict(include_records=True), indent=1) + "\n"
        saved = rescue_text(full, f"mythzoo_eval_{env_name}_seed{args.seed}")
        where = f"the results are saved in {saved}" if saved else "the results could not be saved anywhere (the table above has them)"
    else:
        where = f"the results are in {args.json}"
    print(f"mythzoo eval: error: {'; '.join(failed)}; {where}", file=sys.stderr)
    return 1


# ---------------------------------------------------------------------------------- replay
def add_replay_parser(subparsers: Any) -> None:
    """Add ``replay`` to ``mythzoo``'s subparsers."""
    p = subparsers.add_parser(
        "replay",
        help="re-play a recorded game turn by turn, checking it",
        description="Re-play a game record (a `mythzoo play --save` file, or one game of a `mythzoo eval --json` file) "
        "from its seed and actions, every decision narrated with its effect: in a terminal each decision is redrawn in place "
        "(the table and what it did; --step-delay paces it); otherwise plain lines, the table at the start, every --board-every "
        "decisions and at the end. An illegal action is refused, and the final rewards and scores must equal the record's.",
    )
    p.add_argument("record", help="JSON file: one game record, a list of them, or an eval result")
    p.add_argument("--game", type=non_negative_int, default=0, metavar="I", help="which game of the file (default 0)")
    p.add_argument("--step-delay", type=non_negative_float, default=0.0, metavar="SECONDS", help="pause after each decision (default 0)")
    p.add_argument("--seat", type=non_negative_int, default=None, help="render from this seat's view (default: the player to move)")
    p.add_argument("--board-every", type=non_negative_int, default=0, metavar="N",
                   help="plain output (not a terminal): print the table every N decisions as well (default 0: at the start and end only)")
    p.add_argument("--check", action="store_true", help="only check the record replays; print one line")
    p.set_defaults(func=cmd_replay)


def record_from_args(args: argparse.Namespace) -> Any:
    """The game record ``args.record`` names at index ``args.game``, checked against ``args.seat``
    (``replay`` and ``view`` read a record the same way); bad input is a usage error."""
    from mythzoo.evaluation import load_records

    try:
        records = load_records(args.record)
    except (OSError, ValueError, TypeError) as e:
        raise _usage_error(f"cannot read game records from {args.record}: {getattr(e, 'strerror', None) or e}") from None
    if not records:
        raise _usage_error(f"{args.record} holds no game records")
    if args.game >= len(records):
        raise _usage_error(f"--game {args.game}: {args.record} holds {len(records)} game{'s' if len(records) > 1 else ''} (0-{len(records) - 1})")
    record = records[args.game]
    if args.seat is not None and args.seat >= record.num_players:
        raise _usage_error(f"--seat {args.seat}: the game has {record.num_players} seats")
    return record


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay one record; exit 1 if it does not replay."""
    from mythzoo.evaluation import ReplayError, replay

    record = record_from_args(args)
    labels = [printable(x) for x in (record.labels or record.refs)]  # text from a file, printed escaped
    print(f"replay: {ascii(record.env)[1:-1]} {ascii(record.env_kwargs)}, seed {record.seed}, {record.decisions} decisions; "
          + ", ".join(f"seat {i}: {lab}" for i, lab in enumerate(labels)), flush=True)
    try:
        result = replay(record, render=not args.check, step_delay=args.step_delay, seat=args.seat,
                        board_every=args.board_every)
    except ReplayError as e:
        print(f"mythzoo replay: the record does not replay: {e}", file=sys.stderr)
        return 1
    if args.check:
        state = "finished" if result.finished else "unfinished"
        print(f"replay ok: {result.decisions} decisions ({state}); final rewards {result.final_rewards}, scores {result.scores}"
              + (f", returns {result.returns}" if result.returns is not None and result.returns != result.final_rewards else ""))
    if not result.bound:
        print(f"note: {record.format} record without decision digests: its actions were checked for legality and the result, "
              "not one by one (a changed legal action that leaves the result equal goes unnoticed)")
    return 0


# ------------------------------------------------------------------------------------ main
def build_parser() -> argparse.ArgumentParser:
    """A parser with just ``eval`` and ``replay`` (what ``mythzoo`` adds to its own)."""
    parser = argparse.ArgumentParser(prog="mythzoo", description="Evaluate mythzoo policies and replay games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_eval_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``eval``/``replay`` with ``argv``; returns the exit code (2 on bad input)."""
    from mythzoo.cli import dispatch

    return dispatch(build_parser(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
