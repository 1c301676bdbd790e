"""``mythzoo view``: a recorded game or a live game in the browser.

    mythzoo view my_game.json                        # step through a record (mythzoo play --save, eval --json)
    mythzoo view runs/eval.json --game 3 --port 8765
    mythzoo view --play mythic_baths --vs heuristic  # play in the browser; the record is saved
    mythzoo view --play mythsgate --role hero --vs invoker:heuristic hero:random

The page is served on 127.0.0.1 (``--port``, default a free one); the URL is printed and opened in
the default browser unless ``--no-browser``. Ctrl-C stops the server (a live game's record is
saved as it ends, and with the page's Save button).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import webbrowser
from collections.abc import Sequence
from typing import Any

from mythzoo.cli import non_negative_int


def add_view_parser(subparsers: Any) -> None:
    """Add ``view`` to ``mythzoo``'s subparsers."""
    p = subparsers.add_parser(
        "view",
        help="watch a recorded game, or play one, in the browser",
        description="Serve a page on 127.0.0.1 that draws the game: step through a game record (forward, back, jump, play at a "
        "speed, from any seat's view or all), with every decision narrated; or, with --play ENV --vs REF..., play against "
        "policies by clicking (the record is saved for `mythzoo replay` and `mythzoo view`).",
    )
    p.add_argument("record", nargs="?", default=None, help="JSON file: one game record, a list of them, or an eval result")
    p.add_argument("--game", type=non_negative_int, default=0, metavar="I", help="which game of the record file (default 0)")
    p.add_argument("--play", metavar="ENV", default=None, help="play a live game of ENV instead of viewing a record")
    p.add_argument("--vs", nargs="+", default=[], metavar="REF",
                   help="with --play: policies for the other seats (as for mythzoo play; ROLE:REF in an asymmetric game; none solo)")
    p.add_argument("--role", default=None, metavar="ROLE", help="with --play: your role in an asymmetric game")
    p.add_argument("--seat", type=non_negative_int, default=None, metavar="I", help="with --play: your seat (default 0); "
                   "with a record: the seat whose view the page opens on (default: all)")
    p.add_argument("--seed", type=non_negative_int, default=None, help="with --play: the game's seed (default: a random one)")
    p.add_argument("--save", metavar="PATH", default=None, help="with --play: where the record goes (default mythzoo_play_<env>_seed<S>.json)")
    p.add_argument("--no-save", action="store_true", help="with --play: do not save the record")
    p.add_argument("--registry", metavar="PATH", default=None, help="checkpoint registry for checkpoint refs")
    p.add_argument("--env-arg", action="append", default=None, metavar="KEY=VALUE", help="with --play: extra env argument (repeatable)")
    p.add_argument("--port", type=non_negative_int, default=0, help="port on 127.0.0.1 (default 0: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the URL without opening a browser")
    p.set_defaults(func=cmd_view)


def make_session(args: argparse.Namespace) -> Any:
    """The session ``args`` ask for: a replay of a record or a live game; usage errors say what to fix."""
    from mythzoo.training.eval_cli import _env_arg, _usage_error, check_output_path, env_kwargs_from, record_from_args, resolve_env
    from mythzoo.viewer import LiveSession, ReplaySession, ViewerError

    if (args.record is None) == (args.play is None):
        raise _usage_error("give a game record file to view, or --play ENV to play (not both)")
    if args.play is None:
        from mythzoo.evaluation import ReplayError

        for name in ("vs", "role", "seed", "save", "env_arg"):
            if getattr(args, name):
                raise _usage_error(f"--{name.replace('_', '-')} goes with --play, not with a record")
        record = record_from_args(args)
        try:
            return ReplaySession(record)
        except ReplayError as e:
            raise _usage_error(f"the record does not replay: {e}") from None
        except ViewerError as e:
            raise _usage_error(str(e)) from None
    env_name = resolve_env(args.play)
    pairs = []
    for text in args.env_arg or []:
        try:
            pairs.append(_env_arg(text))
        except argparse.ArgumentTypeError as e:
            raise _usage_error(str(e)) from None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    save = None if args.no_save else (args.save or f"mythzoo_play_{env_name}_seed{seed}.json")
    if save:
        check_output_path(save, "--save")
    from mythzoo.training.eval_cli import policy_load_errors

    try:
        with policy_load_errors():
            return LiveSession(env_name, args.vs, args.seat, seed, role=args.role, env_kwargs=env_kwargs_from(pairs),
                               registry=args.registry, save=save)
    except (ValueError, TypeError) as e:
        raise _usage_error(str(e)) from None


def cmd_view(args: argparse.Namespace) -> int:
    """Start the server, print the URL (and open it), serve until Ctrl-C."""
    from mythzoo.training.eval_cli import _usage_error
    from mythzoo.viewer import ViewerServer

    session = make_session(args)
    try:
        server = ViewerServer(session, args.port)
    except OSError as e:
        raise _usage_error(f"cannot listen on 127.0.0.1:{args.port}: {e.strerror or e}") from None
    url = server.url + (f"?seat={args.seat}" if args.seat is not None and args.play is None else "")
    what = f"live {session.record.env}" if args.play else f"{session.record.env}, {len(session.frames) - 1} decisions"
    print(f"mythzoo view: {what} at {url}  (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        saved = getattr(session, "saved", None)
        if saved:
            print(f"Record saved to {saved}; watch it with: mythzoo view {saved}", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``view`` with ``argv`` (a parser with just this subcommand)."""
    from mythzoo.cli import dispatch

    parser = argparse.ArgumentParser(prog="mythzoo", description="View mythzoo games in the browser.")
    add_view_parser(parser.add_subparsers(dest="command", metavar="COMMAND"))
    return dispatch(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
