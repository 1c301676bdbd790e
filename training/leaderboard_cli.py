"""``mythzoo leaderboard``: regenerate the per-game leaderboards, or add an entry to one.

    mythzoo leaderboard --all --out docs/leaderboard.md                  # every board (about 40 minutes)
    mythzoo leaderboard mythic_baths --add my_agent@latest --registry registry --players 2

The boards, their schedule, figures and board file are :mod:`mythzoo.evaluation.leaderboard`;
the page says how it was made (docs/leaderboard.md). Bad input (an unknown game, a ref that does
not load, an entry already on the board, a missing or corrupt board file, a bad ``--players``) is
one line and exit 2, checked before any game, and nothing is written.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from mythzoo.cli import non_negative_int, positive_int
from mythzoo.training.eval_cli import (
    _usage_error,
    check_output_path,
    policy_load_errors,
    resolve_env,
    write_text_atomic,
)

DEFAULT_OUT = "leaderboard.md"


def _budgets(text: str) -> tuple[int, ...]:
    """``--budgets``: simulations per decision, comma-separated (``none``: no search entries)."""
    if text.strip().lower() == "none":
        return ()
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected budgets like 2,8,32 (or none), got {text!r}") from None
    if any(v < 1 for v in values) or len(set(values)) != len(values):
        raise argparse.ArgumentTypeError(f"expected distinct positive budgets, got {text!r}")
    return values


def add_leaderboard_parser(subparsers: Any) -> None:
    """Add ``leaderboard`` to ``mythzoo``'s subparsers."""
    from mythzoo.evaluation.leaderboard import SEARCH_BUDGETS, SEARCH_ROLLOUT

    p = subparsers.add_parser(
        "leaderboard",
        help="regenerate the per-game leaderboards, or add your policy to one",
        description="Regenerate the leaderboards (--all, or one GAME's boards): random, heuristic, the search baseline at three "
        "budgets and every shipped champion, on every board (Mythic Baths at 2, 3 and 4 players, Mythsgate with 2 heroes, the "
        "Innkeeper); OpenSkill ratings with intervals, cross-play or side win rates, mean coins, seconds per decision. Or add "
        "an entry (--add REF) to a stored board: it plays its games against the stored entries and the board is re-rated. "
        "Writes the page (--out) and its board file beside it (.json). See docs/leaderboard.md.",
    )
    p.add_argument("game", nargs="?", default=None, help="the game (mythic_baths, mythsgate, innkeeper); omit with --all")
    p.add_argument("--all", action="store_true", help="regenerate every board")
    p.add_argument("--add", metavar="REF", default=None,
                   help="add this entry to the GAME's board: a checkpoint ref (with --registry), py:MODULE:FACTORY, a search name; "
                   "ROLE:REF in Mythsgate")
    p.add_argument("--players", type=positive_int, default=None, help="the board's players, every seat counted (Mythic Baths: 2, 3 or 4)")
    p.add_argument("--registry", metavar="PATH", default=None, help="the registry an --add checkpoint ref is read from (only read)")
    p.add_argument("--board", metavar="FILE", default=None,
                   help="the board file --add starts from (default: the shipped docs/leaderboard.json)")
    p.add_argument("--out", metavar="PATH", default=DEFAULT_OUT,
                   help=f"the page to write (.md); its board file goes beside it (.json) (default {DEFAULT_OUT} here)")
    p.add_argument("--games", type=positive_int, default=None,
                   help="deals of every multi-player board: per lineup (each played in every seat rotation) or per pairing "
                   "(default: each board's own, see docs/leaderboard.md)")
    p.add_argument("--campaigns", type=positive_int, default=None, help="campaigns of the solo board (default: its own, 100)")
    p.add_argument("--budgets", type=_budgets, default=SEARCH_BUDGETS, metavar="B,B,B",
                   help=f"search budgets of the search entries (default {','.join(map(str, SEARCH_BUDGETS))}; none for no search entries)")
    p.add_argument("--rollout", choices=("random", "heuristic"), default=SEARCH_ROLLOUT,
                   help=f"the search entries' rollout policy (default {SEARCH_ROLLOUT})")
    p.add_argument("--no-champions", action="store_true", help="leave the shipped champions out (a quick board)")
    p.add_argument("--render", action="store_true",
                   help="only write the page (--out) again from the board file (--board; default the shipped one): after a change "
                   "of the page's text, no game played")
    p.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="the board seed (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_leaderboard)


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run (the options that matter, as given)."""
    from mythzoo.evaluation.leaderboard import SEARCH_BUDGETS, SEARCH_ROLLOUT

    parts = ["mythzoo", "leaderboard"]
    parts += ["--all"] if args.all else [args.game]
    if args.add:
        parts += ["--add", args.add]
    if args.players is not None:
        parts += ["--players", str(args.players)]
    for option, value in (("--registry", args.registry), ("--board", args.board)):
        if value is not None:
            parts += [option, value]
    if not args.add:
        if args.games is not None:
            parts += ["--games", str(args.games)]
        if args.campaigns is not None:
            parts += ["--campaigns", str(args.campaigns)]
        if tuple(args.budgets) != SEARCH_BUDGETS:
            parts += ["--budgets", ",".join(map(str, args.budgets)) or "none"]
        if args.rollout != SEARCH_ROLLOUT:
            parts += ["--rollout", args.rollout]
        if args.no_champions:
            parts.append("--no-champions")
        if args.seed:
            parts += ["--seed", str(args.seed)]
    parts += ["--out", args.out]
    return " ".join(shlex.quote(p) for p in parts)


def _chosen_specs(args: argparse.Namespace) -> list[Any]:
    """The boards named by GAME/--all and --players (usage errors for anything else)."""
    from mythzoo.evaluation.leaderboard import BOARDS, boards_for

    if args.all and args.game:
        raise _usage_error(f"give a game or --all, not both (got {args.game!r} and --all)")
    if args.all:
        if args.add or args.players is not None:
            raise _usage_error("--add and --players take a game, not --all")
        return list(BOARDS)
    if not args.game:
        raise _usage_error("give a game (mythic_baths, mythsgate, innkeeper) or --all")
    env_name = resolve_env(args.game)
    specs = boards_for(env_name)
    if not specs:
        names = sorted({b.env for b in BOARDS})
        raise _usage_error(f"{env_name} has no leaderboard; the boards are of {', '.join(names)}")
    if args.players is not None:
        chosen = [b for b in specs if b.players == args.players]
        if not chosen:
            counts = ", ".join(str(b.players) for b in specs)
            raise _usage_error(f"--players {args.players}: {env_name}'s board{'s are' if len(specs) > 1 else ' is'} for {counts} players")
        return chosen
    if args.add and len(specs) > 1:
        raise _usage_error(f"--add: give the board with --players ({env_name} has boards for {', '.join(str(b.players) for b in specs)} players)")
    return specs


def _outputs(out: str) -> tuple[str, str]:
    """The page and board-file paths of ``--out``, checked writable (usage errors)."""
    if not out.endswith(".md"):
        raise _usage_error(f"--out {out}: name the page, a .md file (its board file goes beside it as .json)")
    json_path = str(Path(out).with_suffix(".json"))
    check_output_path(out, "--out")
    check_output_path(json_path, "--out (board file)")
    return out, json_path


@contextlib.contextmanager
def _temporary_registry() -> Iterator[str]:
    """A fresh registry in a temporary folder, removed afterwards: the path."""
    with tempfile.TemporaryDirectory(prefix="mythzoo-leaderboard-") as tmp:
        path = str(Path(tmp) / "registry")
        from mythzoo.policies.registry import Registry

        Registry(path)
        yield path


def _import_champions(registry: str, files: Sequence[Path] | None = None) -> list[tuple[str, Any]]:
    """Import the shipped champions (``checkpoints/*.tar*``, or ``files``) into ``registry``:
    ``(source as checkpoints/FILE, CheckpointInfo)`` per checkpoint."""
    from mythzoo.evaluation.leaderboard import ROOT
    from mythzoo.policies.registry import Registry

    reg = Registry(registry, create=False)
    paths = sorted((ROOT / "checkpoints").glob("*.tar*")) if files is None else list(files)
    out = []
    for path in paths:
        for info in reg.import_(path):
            out.append((f"checkpoints/{path.name}", info))
    return out


def _exploitability(board_file: str) -> list[dict[str, Any]]:
    """The entries of ``exploitability.json`` beside the board file (none if there is none)."""
    from mythzoo.evaluation.leaderboard import LeaderboardError, load_exploitability

    path = Path(board_file).with_name("exploitability.json")
    if not path.exists():
        return []
    try:
        return load_exploitability(path)
    except LeaderboardError as e:
        raise _usage_error(str(e)) from None


def _write(boards: Sequence[Any], meta: dict[str, Any], page: str, json_path: str, quiet: bool = False) -> None:
    from mythzoo.evaluation.leaderboard import render_page, to_json

    write_text_atomic(json_path, to_json(boards, meta))
    write_text_atomic(page, render_page(boards, meta, _exploitability(json_path)))
    if not quiet:
        print(f"wrote {page} and {json_path}")


def _meta(args: argparse.Namespace, budgets: Sequence[int], rollout: str, commands: list[str]) -> dict[str, Any]:
    import os

    from mythzoo.evaluation.leaderboard import TIMING_POSITIONS, versions

    v = versions()
    return {"commands": commands, "seed": args.seed, "search": {"budgets": list(budgets), "rollout": rollout},
            "timing": {"positions": TIMING_POSITIONS, "machine": f"{v.pop('machine')}, {os.cpu_count()} cores"},
            "generated": time.strftime("%Y-%m-%d", time.gmtime()), "versions": v}


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """Regenerate the chosen boards, or add ``--add`` to one; write the page and its board file."""
    from mythzoo.extras import require

    if args.render:
        return _render(args)
    specs = _chosen_specs(args)
    page, json_path = _outputs(args.out)
    require(["openskill", "scipy", "safetensors"], "mythzoo leaderboard")
    if args.add:
        if args.games is not None or args.campaigns is not None:
            raise _usage_error("--games/--campaigns: an added entry plays the board's own deals; give them when regenerating")
        return _add(args, specs[0], page, json_path)
    return _regenerate(args, specs, page, json_path)


def _render(args: argparse.Namespace) -> int:
    from mythzoo.evaluation.leaderboard import ROOT, LeaderboardError, load_board_file, render_page

    if args.all or args.game or args.add:
        raise _usage_error("--render takes no game, --all or --add: it rewrites the page of --board")
    page, _ = _outputs(args.out)
    source = args.board or str(ROOT / "docs" / "leaderboard.json")
    try:
        meta, boards = load_board_file(source)
    except LeaderboardError as e:
        raise _usage_error(str(e)) from None
    write_text_atomic(page, render_page(boards, meta, _exploitability(source)))
    print(f"wrote {page}")
    return 0


def _regenerate(args: argparse.Namespace, specs: Sequence[Any], page: str, json_path: str) -> int:
    from mythzoo.evaluation import default_workers
    from mythzoo.evaluation.leaderboard import BOARDS, new_board, play_board, standard_entries, time_entries

    workers = args.workers or default_workers()
    command = _command(args)
    print(f"mythzoo leaderboard: {len(specs)} board{'s' if len(specs) > 1 else ''}, search {', '.join(f'mcts:{b}' for b in args.budgets) or 'none'} "
          f"({args.rollout} rollouts), seed {args.seed}, {workers} worker{'s' if workers > 1 else ''}", flush=True)
    done: dict[str, Any] = {}
    meta = _meta(args, args.budgets, args.rollout, [command])
    meta["workers"] = workers
    kept = _kept_boards(args, specs, json_path, meta)
    order = [s.key for s in BOARDS]
    began = time.perf_counter()
    # The costliest boards (3 and 4 players) go last; the files are written after each board, so a
    # run stopped early keeps the boards it finished (the page says which were played).
    cost = {"mythic_baths-3p": 1, "mythic_baths-4p": 2}
    with _temporary_registry() as registry:
        champions = [] if args.no_champions else _import_champions(registry)
        for spec in sorted(specs, key=lambda s: cost.get(s.key, 0)):
            board = new_board(spec, args.seed, args.campaigns if spec.players == 1 else args.games)
            board.entries = standard_entries(board, args.budgets, args.rollout, champions)
            start = time.perf_counter()
            board.games = play_board(board, registry=registry, workers=workers, progress=not args.quiet)
            board.seconds = round(time.perf_counter() - start, 1)  # as the JSON stores it, so page and file agree
            time_entries(board, board.labels(), registry, progress=not args.quiet)
            print(f"{spec.key}: {len(board.games)} games in {board.seconds:.0f} s", flush=True)
            done[spec.key] = board
            if not kept:  # the page's regeneration time, when this run made every board on it
                meta["seconds"] = round(time.perf_counter() - began, 1)
            boards = {**{b.key: b for b in kept}, **done}
            _write([boards[k] for k in order if k in boards], meta, page, json_path, quiet=len(done) < len(specs))
    return 0


def _kept_boards(args: argparse.Namespace, specs: Sequence[Any], json_path: str, meta: dict[str, Any]) -> list[Any]:
    """The boards of the board file already at ``json_path`` that this run does not regenerate: one
    game's boards are replaced on the page, the others stay (their commands are kept in ``meta``).
    They must share this run's seed and search set-up (usage error otherwise: one page, one scale)."""
    from mythzoo.evaluation.leaderboard import LeaderboardError, load_board_file

    if args.all or not Path(json_path).exists():
        return []
    try:
        old_meta, old = load_board_file(json_path)
    except LeaderboardError as e:
        raise _usage_error(f"{e}: regenerating one game keeps the other boards of that file; give another --out, or --all") from None
    kept = [b for b in old if b.key not in {s.key for s in specs}]
    if kept and (old_meta.get("seed") != meta["seed"] or old_meta.get("search") != meta["search"]):
        was = old_meta.get("search", {})
        raise _usage_error(f"{json_path} has boards made with seed {old_meta.get('seed')}, budgets "
                           f"{','.join(map(str, was.get('budgets', []))) or 'none'} and {was.get('rollout')} rollouts; regenerating "
                           "one game keeps them, so give the same, or --all, or another --out")
    if kept:
        old_commands = [c for c in old_meta.get("commands", []) if c != meta["commands"][0]]
        meta["commands"] = old_commands + meta["commands"]
        for key in ("notes",):
            if key in old_meta:
                meta[key] = old_meta[key]
    return kept


def _import_checkpoint(user_registry: Any, registry: Any, ref: str) -> str:
    """Copy the checkpoint ``ref`` names in the user's registry into ``registry``; its id."""
    from mythzoo.policies.refs import open_registry

    info = open_registry(user_registry).resolve(ref)
    with tempfile.TemporaryDirectory(prefix="mythzoo-leaderboard-add-") as tmp:
        archive = Path(tmp) / "entry.tar"
        open_registry(user_registry).export(info.id, archive)
        _import_champions(registry, [archive])
    return info.id


def _add(args: argparse.Namespace, spec: Any, page: str, json_path: str) -> int:
    from mythzoo.envs import make
    from mythzoo.evaluation import check_refs, check_role_refs, default_workers, split_role_ref
    from mythzoo.evaluation.leaderboard import ROOT, Entry, LeaderboardError, load_board_file, play_board, time_entries
    from mythzoo.policies.refs import is_registry_ref, open_registry, uses_registry
    from mythzoo.policies.registry import RegistryError
    from mythzoo.policies.rollouts import parse_rollouts_ref
    from mythzoo.policies.search import is_search_ref

    source = args.board or str(ROOT / "docs" / "leaderboard.json")
    try:
        meta, boards = load_board_file(source)
    except LeaderboardError as e:
        raise _usage_error(str(e)) from None
    board = next((b for b in boards if b.key == spec.key), None)
    if board is None:
        raise _usage_error(f"the board file {source} has no {spec.key} board (it has {', '.join(b.key for b in boards) or 'none'})")
    ref, role = args.add.strip(), None
    if board.kind != "symmetric":
        role, bare = split_role_ref(ref, board.roles)
        if board.kind == "roles" and role is None:
            raise _usage_error(f"--add {ref}: give the role, as {' or '.join(f'{r}:REF' for r in board.roles)}")
        role = role or board.roles[0]
        ref = bare
    label = f"{role}:{ref}" if board.kind == "roles" else ref
    if label in board.labels():
        raise _usage_error(f"--add {args.add}: {label} is already on the {board.key} board")
    same = next((e for e in board.entries if e.played_as == ref and e.role == (role if board.kind == "roles" else None)), None)
    if same is not None:  # a checkpoint id that is on the board already, needing no registry to tell
        raise _usage_error(f"--add {args.add}: it is already on the {board.key} board as {same.label}")
    env = make(board.env, **board.env_kwargs)
    workers = args.workers or default_workers()
    with _temporary_registry() as registry:
        # the stored champions come from the shipped files, the new checkpoint from the user's registry
        files = sorted({e.source for e in board.entries if e.source.startswith("checkpoints/")})
        missing = [f for f in files if not (ROOT / f).exists()]
        if missing:
            raise _usage_error(f"the board's champion {missing[0]} is not in this installation")
        _import_champions(registry, [ROOT / f for f in files])
        play_ref = ref
        with policy_load_errors():
            if is_registry_ref(ref) and not is_search_ref(ref):
                play_ref = _import_checkpoint(args.registry, registry, ref)
            elif uses_registry(ref):  # rollouts:W:<checkpoint>: a champion of the board, or one of the user's registry
                parsed = parse_rollouts_ref(ref)
                try:
                    base_id = open_registry(registry).resolve(parsed.base).id
                except RegistryError:
                    base_id = _import_checkpoint(args.registry, registry, parsed.base)
                play_ref = parsed.with_base(base_id)
            if board.kind == "symmetric":
                played_as = check_refs(env, [play_ref], registry)[0]
            else:
                played_as = check_role_refs(env, [(role, play_ref)], registry)[0]
        same = next((e for e in board.entries if e.played_as == played_as), None)
        if same is not None:
            raise _usage_error(f"--add {args.add}: it plays as {played_as}, already on the {board.key} board as {same.label}")
        board.entries.append(Entry(label, ref, played_as, role if board.kind == "roles" else None, "added"))
        per = {"symmetric": "deals per lineup", "roles": "deals per pairing", "solo": "campaigns"}[board.kind]
        print(f"mythzoo leaderboard: adding {label} to {board.key} ({board.deals} {per}, {workers} worker{'s' if workers > 1 else ''})",
              flush=True)
        start = time.perf_counter()
        games = play_board(board, [label], registry=registry, workers=workers, progress=not args.quiet)
        board.games += games
        board.seconds = round(board.seconds + time.perf_counter() - start, 1)  # as the JSON stores it
        time_entries(board, [label], registry, progress=not args.quiet)
    print(f"{board.key}: {len(games)} new games; {len(board.games)} in all")
    row = next(r for r in board.summary()["entries"] if r["label"] == label)
    if "mu" in row:
        print(f"{label}: mu {row['mu']:.2f}, sigma {row['sigma']:.2f} (mu ± 2 sigma {row['mu_minus_2sigma']:.2f} to {row['mu_plus_2sigma']:.2f})")
    else:
        print(f"{label}: mean coins {row['mean_score']:.1f}")
    meta["commands"] = list(meta.get("commands", [])) + [_command(args)]
    _write(boards, meta, page, json_path)
    return 0
