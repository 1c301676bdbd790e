"""``mythzoo play``: a person plays any mythzoo env in the terminal against policies.

    mythzoo play mythic_baths --vs heuristic            # you in seat 0, the heuristic in seat 1
    mythzoo play mythic_baths --vs random random --seat 2 --seed 7 --save my_game.json

Before each of your decisions the table is drawn from your seat (``render_text(seat)``) and the
legal actions are listed with numbers and labels (``action_label``); type a number. Anything else
(a word, an empty line, a number out of range) is asked again; ``q`` quits; end of input (Ctrl-D)
quits too. The game is saved as a game record (the format of ``mythzoo eval --json``), finished
or not, and ``mythzoo replay FILE`` re-plays it. Input and output are injectable (``input_fn``,
``out``) so tests can script a game.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from mythzoo.training.evaluate import HUMAN, GameRecord, StopGame, _env_kwargs, _load_policy, derive_seed, make_env, run_game

QUIT_WORDS = ("q", "quit", "exit")
_TAG_POLICY = 0x5EED


class HumanPolicy:
    """A person at the terminal: shows the table from ``seat`` and reads a numbered choice."""

    name = HUMAN

    def __init__(self, env: Any, seat: int, input_fn: Callable[[str], str] = input, out: TextIO | None = None):
        self.env = env
        self.seat = seat
        self.input_fn = input_fn
        self.out = out or sys.stdout
        self.stop_reason: str | None = None

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """Ask until a listed number is typed; ``q`` or end of input raises :class:`StopGame`."""
        u = self.env.unwrapped
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        self._say("")
        self._say(u.render_text(self.seat))
        self._say(f"Your move, {agent}:")
        for i, a in enumerate(legal, 1):
            self._say(f"  {i:>3}) {u.action_label(a, agent)}")
        prompt = f"choose 1-{len(legal)} (q to quit): "
        while True:
            try:
                line = self.input_fn(prompt)
            except KeyboardInterrupt:
                self.stop_reason = "interrupted"
                self._say("")
                raise StopGame(self.stop_reason) from None
            except EOFError:
                self.stop_reason = "end of input"
                self._say("")
                raise StopGame(self.stop_reason) from None
            text = (line or "").strip()
            if text.lower() in QUIT_WORDS:
                self.stop_reason = "quit"
                raise StopGame(self.stop_reason)
            if not text:
                self._say(f"  type a number from 1 to {len(legal)}, or q to quit")
                continue
            try:
                choice = int(text)
            except ValueError:
                self._say(f"  {text!r} is not a number; type a number from 1 to {len(legal)}, or q to quit")
                continue
            if not 1 <= choice <= len(legal):
                self._say(f"  {choice} is not on the list; type a number from 1 to {len(legal)}, or q to quit")
                continue
            return legal[choice - 1]

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One prompt per row (a person plays one game at a time)."""
        return np.array([self.act(o, m, agent) for o, m in zip(observations, action_masks)], dtype=np.int64)


def play(
    env_name: str,
    vs: Sequence[str],
    seat: int = 0,
    seed: int | None = None,
    save: str | None = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    registry: Any = None,
    input_fn: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> GameRecord:
    """Play one game: a person in ``seat``, the policies ``vs`` in the other seats in order.
    Returns the game record (unfinished if the person quit) and saves it to ``save`` if given."""
    from mythzoo.envs import resolve

    out = out or sys.stdout
    env_name = resolve(env_name)
    n = 1 + len(vs)
    kw = _env_kwargs(n, env_kwargs)
    env = make_env(env_name, kw)
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    if seed is None:
        seed = secrets.randbelow(2**31)
    refs = list(vs[:seat]) + [HUMAN] + list(vs[seat:])
    pseeds = [None if r == HUMAN else derive_seed(seed, _TAG_POLICY, s) for s, r in enumerate(refs)]
    human = HumanPolicy(env, seat, input_fn, out)
    policies = [human if r == HUMAN else _load_policy(r, env, registry, ps) for r, ps in zip(refs, pseeds)]
    agents = list(env.unwrapped.possible_agents)
    out.write(f"mythzoo play: {env_name}, {n} players, seed {seed}. You are {agents[seat]} (seat {seat}); "
              + ", ".join(f"{agents[s]}: {r}" for s, r in enumerate(refs) if s != seat) + ".\n")

    def announce(agent: str, s: int, action: int) -> None:
        if s != seat:
            out.write(f"{agent} ({refs[s]}) plays {env.unwrapped.action_label(action, agent)}\n")

    record = GameRecord(env_name, kw, n, int(seed), refs, pseeds)
    run_game(env, policies, record, on_action=announce)
    if record.finished:
        out.write("\n" + env.unwrapped.render_text(seat) + "\n")
        rewards = record.final_rewards or []
        lines = [f"  {a}{' (you)' if s == seat else ''}: reward {r:+.3g}" + (f", {record.scores[s]:g} VP" if record.scores else "")
                 for s, (a, r) in enumerate(zip(agents, rewards))]
        out.write("Game over" + (" (turn cap)" if record.truncated else "") + ":\n" + "\n".join(lines) + "\n")
        share = record.win_shares()[seat]
        out.write(("You win!" if share == 1.0 else "You share the win." if share > 0 else "You lose.") + "\n")
    else:
        out.write(f"Game stopped ({human.stop_reason}) after {record.decisions} decisions.\n")
    if save:
        record.save(save)
        out.write(f"Record saved to {save}; watch it with: mythzoo replay {save}\n")
    out.flush()
    return record


# ------------------------------------------------------------------------------------- cli
def add_play_parser(subparsers: Any) -> None:
    """Add ``play`` to ``mythzoo``'s subparsers."""
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal against policies",
        description="Play ENV in the terminal against the policies given with --vs (one per other seat): "
        "the table is drawn from your seat, the legal actions are numbered; type a number, q to quit. "
        "The game record is saved (JSON) for `mythzoo replay`.",
    )
    p.add_argument("env", help="environment name (e.g. mythic_baths)")
    p.add_argument("--vs", nargs="+", required=True, metavar="REF", help="opponent policies, one per other seat (random, heuristic, checkpoint refs)")
    p.add_argument("--seat", type=int, default=0, metavar="I", help="your seat, 0-based (default 0: you move first)")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: a random one, printed and saved)")
    p.add_argument("--save", metavar="PATH", default=None, help="where to save the game record (default mythzoo_play_<env>_seed<S>.json)")
    p.add_argument("--no-save", action="store_true", help="do not save the game record")
    p.add_argument("--registry", metavar="PATH", default=None, help="checkpoint registry for checkpoint refs")
    p.add_argument("--env-arg", action="append", default=None, metavar="KEY=VALUE", help="extra env argument (repeatable)")
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace, input_fn: Callable[[str], str] = input, out: TextIO | None = None) -> int:
    """Check the arguments, play, save; 0 when the game ends or the player quits."""
    from mythzoo.training.eval_cli import _env_arg, _usage_error, check_policy_refs, env_kwargs_from, probe_env, resolve_env

    env_name = resolve_env(args.env)
    pairs = []
    for text in args.env_arg or []:
        try:
            pairs.append(_env_arg(text))
        except argparse.ArgumentTypeError as e:
            raise _usage_error(str(e)) from None
    kw = env_kwargs_from(pairs)
    n = 1 + len(args.vs)
    env = probe_env(env_name, n, kw)
    if not 0 <= args.seat < n:
        raise _usage_error(f"--seat {args.seat}: with {len(args.vs)} opponent{'s' if len(args.vs) > 1 else ''} the seats are 0-{n - 1}")
    if args.seed is not None and args.seed < 0:
        raise _usage_error(f"--seed must be non-negative, got {args.seed}")
    check_policy_refs(env, args.vs, args.registry)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    save = None if args.no_save else (args.save or f"mythzoo_play_{env_name}_seed{seed}.json")
    play(env_name, args.vs, args.seat, seed, save, env_kwargs=kw, registry=args.registry, input_fn=input_fn, out=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """A parser with just ``play``."""
    parser = argparse.ArgumentParser(prog="mythzoo", description="Play mythzoo games in the terminal.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_play_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, input_fn: Callable[[str], str] = input, out: TextIO | None = None) -> int:
    """Run ``play`` with ``argv``, reading choices from ``input_fn`` and writing to ``out`` (tests script both)."""
    from mythzoo.cli import dispatch

    return dispatch(build_parser(), argv, handler=lambda args: cmd_play(args, input_fn=input_fn, out=out))


if __name__ == "__main__":
    raise SystemExit(main())
