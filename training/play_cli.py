"""``mythzoo play``: a person plays any mythzoo env in the terminal against policies.

    mythzoo play mythic_baths --vs heuristic            # you in seat 0, the heuristic in seat 1
    mythzoo play mythic_baths --vs random random --seat 2 --seed 7 --save my_game.json
    mythzoo play mythsgate --role hero --vs invoker:heuristic hero:random   # you and a random hero against the invoker
    mythzoo play mythwind_innkeeper                     # the solo campaign: no --vs

Before each of your decisions the table is drawn from your seat (``render_text(seat)``) and the
legal actions are listed with numbers and labels (``action_label``, with what a buy, hire or learn
costs or what a placement puts down where the game says); type a number. ``?`` prints the legend of
the board's abbreviations, a rules reminder for the phase and every legal action with what it does.
A decision with exactly one legal action plays itself (and says so). Every decision, yours and the
other players', is narrated with its effect (amber gained, a fight's result, coins earned). Anything
else (a word, an empty line, a number out of range) is asked again; ``q`` quits; end of input (Ctrl-D)
quits too. The game is saved as a game record (the format of ``mythzoo eval --json``), finished
or not, and ``mythzoo replay FILE`` re-plays it. Input and output are injectable (``input_fn``,
``out``) so tests can script a game.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import numpy as np
from mythzoo.envs import make, spec
from mythzoo.training.explain import Explainer
from mythzoo.evaluation import (
    HUMAN,
    ROLES,
    SOLO,
    GameRecord,
    StopGame,
    parse_role_refs,
    play_one,
    seat_seeds,
    split_role_ref,
)

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")


class HumanPolicy:
    """A person at the terminal: shows the table from ``seat`` and reads a numbered choice."""

    name = HUMAN

    def __init__(self, env: Any, seat: int, input_fn: Callable[[str], str] = input, out: TextIO | None = None,
                 explainer: Explainer | None = None):
        self.env = env
        self.seat = seat
        self.input_fn = input_fn
        self.out = out or sys.stdout
        self.stop_reason: str | None = None
        self.explainer = explainer or Explainer(env, seat, self._say)

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """Ask until a listed number is typed; ``q`` or end of input raises :class:`StopGame`."""
        u = self.env.unwrapped
        ex = self.explainer
        ex.flush()  # the last decision's effects come before the new board
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if len(legal) == 1:  # nothing to decide: it plays itself
            self._say(f"only one choice: {ex.choice(legal[0], agent)} — played")
            return legal[0]
        self._say("")
        self._say(u.render_text(self.seat))
        phase = ex.phase()
        self._say(f"Your move, {agent}:" + (f" phase {phase}" if phase else ""))
        for i, a in enumerate(legal, 1):
            self._say(f"  {i:>3}) {ex.choice(a, agent)}")
        prompt = f"choose 1-{len(legal)} (? for help, q to quit): "
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
            if text.lower() in HELP_WORDS:
                self._say(ex.help_text(legal, agent))
                continue
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


def plan_seats(
    env_name: str, vs: Sequence[str], seat: int | None = None, role: str | None = None, env_kwargs: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[str], int]:
    """Who sits where: ``(env kwargs, label per seat with "human" for the person, the person's seat)``.

    Symmetric game: the person in ``seat`` (default 0), ``vs`` in the other seats in order, so
    ``1 + len(vs)`` players. Asymmetric game: ``role`` is the person's role; every ref of ``vs``
    is ``ROLE:REF`` and fills one other seat of that role, in seat order, so the table is the
    person plus one seat per ref (Mythsgate: ``--role hero --vs invoker:heuristic hero:random`` is the
    invoker and two heroes); ``seat`` (optional) picks which seat of the role. Solo game: no ``vs``.
    Raises ValueError with what to fix."""
    game = spec(env_name)
    default = make(env_name, **game.size_kwargs(None, env_kwargs))
    kind = game.kind
    roles = default.unwrapped.roles()
    if kind == SOLO:
        if vs:
            raise ValueError(f"{env_name} is a solo game: there are no other seats, so no --vs")
        if seat not in (None, 0):
            raise ValueError(f"{env_name} is a solo game: the only seat is 0")
        if role is not None and role not in roles:
            raise ValueError(f"{env_name} has the role {next(iter(roles))}, not {role!r}")
        return game.size_kwargs(None, env_kwargs), [HUMAN], 0
    if not vs:
        raise ValueError(f"{env_name} needs opponents: give a policy for every other seat with --vs")
    n = 1 + len(vs)
    if kind != ROLES:
        if role is not None and role not in roles:
            raise ValueError(f"{env_name} has one role ({next(iter(roles))}); --role {role!r} does not apply")
        kw = game.size_kwargs(n, env_kwargs)
        make(env_name, **kw)  # a bad player count fails here
        seat = 0 if seat is None else seat
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat}: with {len(vs)} opponent{'s' if len(vs) > 1 else ''} the seats are 0-{n - 1}")
        return kw, list(vs[:seat]) + [HUMAN] + list(vs[seat:]), seat
    if role is None:
        raise ValueError(f"{env_name} is an asymmetric game: choose your role with --role ({', '.join(roles)})")
    if role not in roles:
        raise ValueError(f"unknown role {role!r}; {env_name}'s roles are {', '.join(roles)}")
    role_refs = parse_role_refs_for_play(default, vs, role)
    kw = game.size_kwargs(n, env_kwargs)
    env = make(env_name, **kw)
    table = env.unwrapped.roles()
    wanted = {r: sum(rr == r for rr, _ in role_refs) + (r == role) for r in roles}
    if any(len(table.get(r, [])) != c for r, c in wanted.items()):
        have = ", ".join(f"{len(a)} {r}" for r, a in table.items())
        raise ValueError(f"{env_name} with {n} players seats {have}; with you as {role}, --vs must give one ROLE:REF per other seat: "
                         + ", ".join(f"{len(table[r]) - (r == role)} {r}" for r in table))
    agents = list(env.unwrapped.possible_agents)
    mine = table[role]
    if seat is None:
        seat = agents.index(mine[0])
    elif not (0 <= seat < n and agents[seat] in mine):
        raise ValueError(f"--seat {seat} is not a {role} seat; the {role} seats are "
                         + ", ".join(f"{agents.index(a)} ({a})" for a in mine))
    queues = {r: [f"{rr}:{ref}" for rr, ref in role_refs if rr == r] for r in roles}
    labels = [HUMAN if s == seat else queues[env.unwrapped.agent_role(a)].pop(0) for s, a in enumerate(agents)]
    return kw, labels, seat


def parse_role_refs_for_play(env: Any, vs: Sequence[str], role: str) -> list[tuple[str, str]]:
    """``parse_role_refs`` without the rule that every role needs a policy (the person fills one)."""
    roles = env.unwrapped.roles()
    try:
        return parse_role_refs(env, vs)
    except ValueError as e:
        if "no policy for role" not in str(e):
            raise
    out = [split_role_ref(ref, list(roles)) for ref in vs]
    missing = [r for r in roles if r != role and all(rr != r for rr, _ in out)]
    if missing:
        raise ValueError(f"no policy for the {', '.join(missing)} seat{'s' if len(missing) > 1 else ''}: add e.g. {missing[0]}:random to --vs")
    return [(r, ref) for r, ref in out if r is not None]


def play(
    env_name: str,
    vs: Sequence[Any] | Mapping[str, Any] = (),
    seat: int | None = None,
    seed: int | None = None,
    save: str | None = None,
    *,
    role: str | None = None,
    env_kwargs: dict[str, Any] | None = None,
    registry: Any = None,
    input_fn: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> GameRecord:
    """Play one game: a person in ``seat``, the policies ``vs`` in the other seats (see
    :func:`plan_seats`: in order for a symmetric game, ``ROLE:REF`` with the person's ``role`` for an
    asymmetric one, nothing for a solo game). ``vs`` holds refs or policy objects (anything with
    ``act``/``act_batch``), or is a mapping label -> ref or object (``{"hero:mine": policy}`` in an
    asymmetric game). Returns the game record (unfinished if the person quit) and saves it to
    ``save`` if given."""
    from mythzoo.envs import resolve
    from mythzoo.evaluation.loading import name_policies

    out = out or sys.stdout
    env_name = resolve(env_name)
    roles_of_game = list(make(env_name, **spec(env_name).size_kwargs(None, env_kwargs)).unwrapped.roles()) if vs else []
    named = name_policies(vs, roles_of_game if spec(env_name).kind == ROLES else ())
    load = named.loader
    kw, labels, seat = plan_seats(env_name, named.refs, seat, role, env_kwargs)
    env = make(env_name, **kw)
    u = env.unwrapped
    kind = spec(env_name).kind
    n = len(labels)
    roles = list(u.roles())
    if seed is None:
        seed = secrets.randbelow(2**31)
    refs = [lab if lab == HUMAN or kind != ROLES else lab.split(":", 1)[1] for lab in labels]
    pseeds = [None if r == HUMAN else ps for r, ps in zip(refs, seat_seeds(seed, n))]
    human = HumanPolicy(env, seat, input_fn, out)
    explainer = human.explainer
    policies = [human if r == HUMAN else load(r, env, registry, ps) for r, ps in zip(refs, pseeds)]
    labels = [re.sub(r"<object:(.+)>", r"\1", lab) for lab in labels]  # an object by its name
    agents = list(u.possible_agents)
    if kind == SOLO:
        out.write(f"mythzoo play: {env_name} (solo), seed {seed}. You are {agents[0]}.\n")
    else:
        you = f"You are {agents[seat]} (seat {seat}" + (f", role {u.agent_role(agents[seat])}" if kind == ROLES else "") + ")"
        out.write(f"mythzoo play: {env_name}, {n} players, seed {seed}. {you}; "
                  + ", ".join(f"{agents[s]}: {r}" for s, r in enumerate(labels) if s != seat) + ".\n")
    legend = explainer.legend()
    if legend:
        out.write("Legend (type ? at any prompt to see it again):\n" + "".join(f"  {x}\n" for x in legend.splitlines()))

    def announce(_: int, agent: str, s: int, action: int) -> None:
        who = "you" if s == seat else f"{agent} ({labels[s]})"
        explainer.before(f"{who} {'play' if s == seat else 'plays'} {u.action_label(action, agent)}")

    record = GameRecord(env_name, kw, n, int(seed), refs, pseeds, labels=labels)
    play_one(env, policies, record, on_action=announce)
    explainer.flush()
    if record.finished:
        out.write("\n" + u.render_text(seat) + "\n")
        rewards = record.final_rewards or []
        returns = record.returns or rewards
        if kind == SOLO:
            line = f"Campaign over{' (turn cap)' if record.truncated else ''}: return {returns[0]:+.6g}"
            out.write(line + (f", final score {record.scores[0]:g}" if record.scores else "") + ".\n")
        else:
            lines = [f"  {a}{' (you)' if s == seat else ''}: reward {r:+.3g}" + (f", score {record.scores[s]:g}" if record.scores else "")
                     for s, (a, r) in enumerate(zip(agents, rewards))]
            out.write("Game over" + (" (turn cap)" if record.truncated else "") + ":\n" + "\n".join(lines) + "\n")
            if kind == ROLES:
                result = record.outcome([u.agent_role(a) for a in agents], order=roles)
                mine = u.agent_role(agents[seat])
                draw, share = result.draw, result.share(mine)
                out.write(("A draw: no side wins." if draw else f"Your side ({mine}) wins!" if share == 1.0
                           else f"Your side ({mine}) shares the win." if share > 0 else f"Your side ({mine}) loses.") + "\n")
            else:
                share = record.win_shares()[seat]
                out.write(("You win!" if share == 1.0 else "You share the win." if share > 0 else "You lose.") + "\n")
    else:
        out.write(f"Game stopped ({human.stop_reason}) after {record.decisions} decisions.\n")
    if save:
        try:
            record.save(save)
        except OSError as e:  # the game is never lost: saved elsewhere, and the error says where
            from mythzoo.training.eval_cli import rescue_text

            saved = rescue_text(json.dumps(record.to_dict()) + "\n", f"mythzoo_play_{env_name}_seed{seed}")
            out.flush()
            raise SaveError(f"cannot save the record to {save}: {e.strerror or e}; "
                            + (f"it is saved in {saved} (mythzoo replay {saved})" if saved else "it could not be saved anywhere"),
                            record, saved) from None
        out.write(f"Record saved to {save}; watch it with: mythzoo replay {save}\n")
    out.flush()
    return record


class SaveError(OSError):
    """The game was played but its record could not be written where asked: ``record`` holds it,
    ``saved`` the file it went to instead (None if none took it)."""

    def __init__(self, message: str, record: GameRecord, saved: str | None):
        super().__init__(message)
        self.record = record
        self.saved = saved


# ------------------------------------------------------------------------------------- cli
def add_play_parser(subparsers: Any) -> None:
    """Add ``play`` to ``mythzoo``'s subparsers."""
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal against policies",
        description="Play ENV in the terminal against the policies given with --vs (one per other seat): "
        "the table is drawn from your seat, the legal actions are numbered; type a number, q to quit. "
        "Asymmetric games (Mythsgate): choose your side with --role and give every other seat as ROLE:REF, "
        "e.g. `mythzoo play mythsgate --role hero --vs invoker:heuristic hero:random` (the invoker and two heroes). "
        "Solo games (mythwind_innkeeper): no --vs. The game record is saved (JSON) for `mythzoo replay`.",
    )
    p.add_argument("env", help="environment name (e.g. mythic_baths)")
    p.add_argument("--vs", nargs="+", default=[], metavar="REF",
                   help="policies for the other seats, one each, in seat order (random, heuristic, checkpoint refs, py:MODULE:FACTORY); ROLE:REF in an "
                   "asymmetric game; none in a solo game")
    p.add_argument("--role", default=None, metavar="ROLE", help="your role in an asymmetric game (Mythsgate: invoker or hero)")
    p.add_argument("--seat", type=int, default=None, metavar="I",
                   help="your seat, 0-based (default: 0, or the first seat of your --role)")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: a random one, printed and saved)")
    p.add_argument("--save", metavar="PATH", default=None, help="where to save the game record (default mythzoo_play_<env>_seed<S>.json)")
    p.add_argument("--no-save", action="store_true", help="do not save the game record")
    p.add_argument("--registry", metavar="PATH", default=None, help="checkpoint registry for checkpoint refs")
    p.add_argument("--env-arg", action="append", default=None, metavar="KEY=VALUE", help="extra env argument (repeatable)")
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace, input_fn: Callable[[str], str] = input, out: TextIO | None = None) -> int:
    """Check the arguments, play, save; 0 when the game ends or the player quits."""
    from mythzoo.training.eval_cli import (
        _env_arg,
        _usage_error,
        check_output_path,
        check_policy_refs,
        env_kwargs_from,
        resolve_env,
        seat_range,
    )
    env_name = resolve_env(args.env)
    pairs = []
    for text in args.env_arg or []:
        try:
            pairs.append(_env_arg(text))
        except argparse.ArgumentTypeError as e:
            raise _usage_error(str(e)) from None
    kw = env_kwargs_from(pairs)
    if args.seed is not None and args.seed < 0:
        raise _usage_error(f"--seed must be non-negative, got {args.seed}")
    try:
        env_kw, _, seat = plan_seats(env_name, args.vs, args.seat, args.role, kw)
    except ValueError as e:
        raise _usage_error(f"{e} ({env_name} takes players: {seat_range(env_name)})" if "players" in str(e) else str(e)) from None
    except TypeError as e:
        raise _usage_error(f"cannot make {env_name} with {kw}: {e}") from None
    env = make(env_name, **env_kw)
    if args.vs and spec(env_name).kind == ROLES:
        check_role_policy_refs_for_play(env, args.vs, args.role, args.registry)
    elif args.vs:
        check_policy_refs(env, args.vs, args.registry)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    save = None if args.no_save else (args.save or f"mythzoo_play_{env_name}_seed{seed}.json")
    if save:
        check_output_path(save, "--save")  # before the game: a game played for nothing is not lost later
    try:
        play(env_name, args.vs, seat, seed, save, role=args.role, env_kwargs=kw, registry=args.registry, input_fn=input_fn, out=out)
    except SaveError as e:
        print(f"mythzoo play: error: {e}", file=sys.stderr)
        return 1
    return 0


def check_role_policy_refs_for_play(env: Any, vs: Sequence[str], role: str, registry: Any) -> None:
    """Load every ``ROLE:REF`` once; a bad ref or a checkpoint of another role is a usage error."""
    from mythzoo.evaluation import check_role_refs
    from mythzoo.training.eval_cli import policy_load_errors

    with policy_load_errors():
        check_role_refs(env, parse_role_refs_for_play(env, vs, role), registry)


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
