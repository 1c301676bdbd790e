"""``mythzoo registry``: list, inspect, alias, remove, export, import and verify checkpoints.

``add_registry_parser(subparsers)`` adds the ``registry`` subcommand to the main CLI; ``main(argv)``
runs it on its own (``main(["ls"])`` is ``mythzoo registry ls``). Every subcommand takes
``--registry PATH`` (default ``$MYTHZOO_REGISTRY`` or ``./registry``). Exit codes: 0 ok,
1 verification failure (a hash mismatch, a tampered export), 2 bad input (unknown ref, bad
arguments, no registry there). Every error is one line on stderr, never a traceback. Text that
came from a file (names, env, role, algo, tags, metrics, error details) is printed with control
characters escaped (``\\x1b``, ``\\n``), so a checkpoint cannot drive the terminal or forge lines.

    mythzoo registry ls [NAME] [--env ENV] [--tag TAG]
    mythzoo registry show REF [--json]
    mythzoo registry alias [NAME [ALIAS [REF]]] [--rm]
    mythzoo registry rm REF [REF ...]
    mythzoo registry export REF PATH [--with-lineage]
    mythzoo registry import PATH
    mythzoo registry verify [REF] [--clean] [--grace SECONDS]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from mythzoo.cli import non_negative_float
from mythzoo.text import format_table, printable
from mythzoo.policies.registry import (
    LATEST,
    CheckpointInfo,
    IntegrityError,
    Registry,
    RegistryError,
    default_registry_path,
)

PROG = "mythzoo registry"
EXIT_OK, EXIT_VERIFY_FAILED, EXIT_BAD_INPUT = 0, 1, 2


safe = printable  # what came from a file is printed escaped


def _cells(rows: Sequence[Sequence[object]]) -> list[list[object]]:
    """Table rows with every text cell escaped (numbers stay numbers, so they keep right-aligning)."""
    return [[c if isinstance(c, (int, float)) and not isinstance(c, bool) else safe(c) for c in r] for r in rows]


def _standard_json(value: Any) -> Any:
    """``value`` with every non-finite number as text, so ``show --json`` prints standard JSON even for a value
    an older registry let in."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _standard_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_standard_json(v) for v in value]
    return value


def _number(x: object) -> object:
    """A rating's number rounded for the table; anything else (a value an older registry let in) as escaped text."""
    return round(x, 3) if isinstance(x, (int, float)) and not isinstance(x, bool) else safe(repr(x))


def _when(iso: str) -> str:
    """``2025-01-02T03:04:05.678Z`` -> ``2025-01-02 03:04``."""
    return safe(iso[:16].replace("T", " "))


def _parent_ref(reg: Registry, info: CheckpointInfo) -> str:
    if info.parent is None:
        return "-"
    try:
        return reg.resolve(info.parent).ref
    except RegistryError:
        return f"{info.parent} (gone)"


# ---------------------------------------------------------------- commands
def cmd_ls(reg: Registry, args: argparse.Namespace) -> int:
    """Table of checkpoints."""
    infos = reg.list(args.name, env=args.env, tag=args.tag)
    if not infos:
        print(safe(f"no checkpoints{' named ' + repr(args.name) if args.name else ''} in {reg.path}"))
        return EXIT_OK
    rows = [
        [i.ref, i.id, ",".join(i.aliases) or "-", i.env_name, i.role or "-", i.algo, i.steps, _parent_ref(reg, i), _when(i.created), ",".join(i.tags) or "-"]
        for i in infos
    ]
    print(format_table(_cells(rows), ["ref", "id", "aliases", "env", "role", "algo", "steps", "parent", "created", "tags"]))
    return EXIT_OK


def cmd_show(reg: Registry, args: argparse.Namespace) -> int:
    """Everything about one checkpoint."""
    info = reg.resolve(args.ref)
    lineage = reg.lineage(info.id)
    ratings = reg.ratings(info.id)
    evals = reg.evals(info.id)
    if args.json:
        out = dataclasses.asdict(info) | {
            "ref": info.ref,
            "lineage": [i.id for i in lineage],
            "ratings": [dataclasses.asdict(r) for r in ratings],
            "evals": [dataclasses.asdict(e) for e in evals],
        }
        print(json.dumps(_standard_json(out), indent=2, sort_keys=True, default=repr))
        return EXIT_OK
    chain = " <- ".join(i.ref for i in lineage)
    if lineage[-1].parent is not None:
        chain += f" <- {lineage[-1].parent} (not in this registry)"
    a = info.arch
    arch = f"{a['type']} {a['obs_size']} -> {' -> '.join(map(str, a.get('hidden', [])))}{' -> ' if a.get('hidden') else ''}{a['action_size']} ({a.get('activation')})"
    fields = [
        ("ref", info.ref), ("id", info.id), ("aliases", ", ".join(info.aliases) or "-"), ("env", info.env_name),
        ("signature", info.env_signature), ("role", info.role or "- (every agent)"), ("algo", info.algo), ("steps", f"{info.steps:,}"),
        ("arch", arch), ("parent", _parent_ref(reg, info)), ("lineage", chain), ("created", info.created),
        ("tags", ", ".join(info.tags) or "-"), ("weights", f"{reg.checkpoint_dir(info.id)}/weights.safetensors ({info.weights_bytes:,} bytes)"),
        ("weights sha256", info.weights_sha256), ("spec sha256", info.spec_sha256),
        ("metrics", json.dumps(info.metrics, sort_keys=True) if info.metrics else "-"),
    ]
    width = max(len(k) for k, _ in fields)
    print("\n".join(f"{k.ljust(width)}  {safe(v)}" for k, v in fields))
    if ratings:
        print()
        print(format_table(_cells([[r.env_name, r.num_players, _number(r.mu), _number(r.sigma), _number(r.ordinal), r.games, _when(str(r.updated))] for r in ratings]),
                           ["env", "players", "mu", "sigma", "ordinal", "games", "updated"]))
    if evals:
        print()
        rows = []
        for e in evals:
            text = json.dumps(e.results, sort_keys=True)
            rows.append([e.id, e.name, _when(e.created), text if len(text) <= 80 else text[:77] + "..."])
        print(format_table(_cells(rows), ["eval", "name", "created", "results"]))
    return EXIT_OK


def cmd_alias(reg: Registry, args: argparse.Namespace) -> int:
    """List, show, set, move or remove aliases."""
    if args.rm:
        if args.name is None or args.alias is None or args.ref is not None:
            raise ValueError("--rm takes NAME ALIAS (and no REF)")
        if not reg.remove_alias(args.name, args.alias):
            raise LookupError(f"{args.name}@{args.alias} is not set")
        print(safe(f"removed {args.name}@{args.alias}"))
        return EXIT_OK
    if args.ref is not None:
        before = None
        try:
            before = reg.resolve(f"{args.name}@{args.alias}")
        except (RegistryError, ValueError):
            pass
        info = reg.set_alias(args.name, args.alias, args.ref)
        moved = f" (was {before.ref})" if before is not None and before.id != info.id else ""
        print(safe(f"{args.name}@{args.alias} -> {info.ref} ({info.id}){moved}"))
        return EXIT_OK
    if args.alias is not None:
        info = reg.resolve(f"{args.name}@{args.alias}")
        print(safe(f"{args.name}@{args.alias} -> {info.ref} ({info.id})"))
        return EXIT_OK
    if args.name is not None:
        reg.resolve(f"{args.name}@{LATEST}")  # an unknown name fails here, with suggestions
    rows = [[a.name, a.alias, f"{a.name}:{a.version}", a.checkpoint_id, _when(a.updated)] for a in reg.aliases(args.name)]
    for name in [args.name] if args.name else reg.names():  # the automatic alias too, for completeness
        latest = reg.resolve(f"{name}@{LATEST}")
        rows.append([name, LATEST, latest.ref, latest.id, "(automatic)"])
    rows.sort(key=lambda r: (r[0], r[1]))
    if not rows:
        print(safe(f"no aliases in {reg.path}"))
        return EXIT_OK
    print(format_table(_cells(rows), ["name", "alias", "ref", "id", "updated"]))
    return EXIT_OK


def cmd_rm(reg: Registry, args: argparse.Namespace) -> int:
    """Remove checkpoints."""
    infos = [reg.resolve(ref) for ref in args.refs]  # every ref must resolve before anything is removed
    for info in {i.id: i for i in infos}.values():
        children = reg.children(info.id)
        reg.remove(info.id)
        set_aliases = [a for a in info.aliases if a != LATEST]
        extra = f"; aliases removed: {', '.join(set_aliases)}" if set_aliases else ""
        kids = f"; children keep it as parent: {', '.join(c.ref for c in children)}" if children else ""
        print(safe(f"removed {info.ref} ({info.id}){extra}{kids}"))
    return EXIT_OK


def cmd_export(reg: Registry, args: argparse.Namespace) -> int:
    """Write checkpoints to one tar file."""
    infos = reg.export(args.ref, args.path, with_lineage=args.with_lineage)
    print(format_table(_cells([[i.ref, i.id, i.weights_sha256[:16]] for i in infos]), ["ref", "id", "weights sha256"]))
    print(safe(f"exported {len(infos)} checkpoint{'s' if len(infos) != 1 else ''} to {args.path}"))
    return EXIT_OK


def cmd_import(reg: Registry, args: argparse.Namespace) -> int:
    """Add the checkpoints of an export file."""
    infos = reg.import_(args.path)
    print(format_table(_cells([[i.ref, i.id, i.env_name, i.weights_sha256[:16]] for i in infos]), ["ref", "id", "env", "weights sha256"]))
    print(safe(f"imported {len(infos)} checkpoint{'s' if len(infos) != 1 else ''} into {reg.path} (all hashes verified)"))
    return EXIT_OK


def cmd_verify(reg: Registry, args: argparse.Namespace) -> int:
    """Re-hash files and check the index against the folders; exit 1 on any error."""
    report = reg.verify(args.ref, clean=args.clean, grace_s=args.grace)
    for path in report.cleaned:
        print(f"cleaned  {safe(path)}")
    for line in report.leftovers:
        print(f"leftover {safe(line)}")
    for line in report.errors:
        print(f"ERROR    {safe(line)}")
    status = "OK" if report.ok else f"FAILED ({len(report.errors)} error{'s' if len(report.errors) != 1 else ''})"
    print(safe(f"verified {report.checked} checkpoint{'s' if report.checked != 1 else ''} in {reg.path}: {status}"))
    return EXIT_OK if report.ok else EXIT_VERIFY_FAILED


COMMANDS = {"ls": cmd_ls, "show": cmd_show, "alias": cmd_alias, "rm": cmd_rm, "export": cmd_export, "import": cmd_import, "verify": cmd_verify}
CREATES = {"import"}  # the only subcommand that may create a registry where there is none


# ------------------------------------------------------------------ parser
def _populate(p: argparse.ArgumentParser) -> None:
    """Add ``--registry`` and the subcommands to ``p``."""
    p.add_argument("--registry", metavar="PATH", default=None, help="registry directory (default $MYTHZOO_REGISTRY or ./registry)")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--registry", metavar="PATH", default=argparse.SUPPRESS, help="registry directory (default $MYTHZOO_REGISTRY or ./registry)")
    sub = p.add_subparsers(dest="registry_command", metavar="SUBCOMMAND")

    s = sub.add_parser("ls", parents=[common], help="list checkpoints", description="List checkpoints: ref, id, aliases, env, algo, steps, parent, tags.")
    s.add_argument("name", nargs="?", help="only this name")
    s.add_argument("--env", help="only checkpoints for this env (e.g. mythic_baths_v1)")
    s.add_argument("--tag", help="only checkpoints carrying this tag")

    s = sub.add_parser("show", parents=[common], help="everything about one checkpoint", description="Show a checkpoint: spec, hashes, lineage, ratings, evals.")
    s.add_argument("ref", help="name, name@alias, name:version or id")
    s.add_argument("--json", action="store_true", help="print JSON instead of text")

    s = sub.add_parser(
        "alias", parents=[common], help="list, set, move or remove aliases",
        description="NAME ALIAS REF points NAME@ALIAS at REF (a version number or ref of NAME); NAME ALIAS shows it; "
        "NAME lists NAME's aliases; nothing lists all; --rm NAME ALIAS removes one. 'latest' is automatic.",
    )
    s.add_argument("name", nargs="?")
    s.add_argument("alias", nargs="?")
    s.add_argument("ref", nargs="?")
    s.add_argument("--rm", action="store_true", help="remove NAME@ALIAS")

    s = sub.add_parser("rm", parents=[common], help="remove checkpoints", description="Remove checkpoints (index rows, aliases, ratings, evals, files). Versions are never reused.")
    s.add_argument("refs", nargs="+", metavar="REF")

    s = sub.add_parser("export", parents=[common], help="write a checkpoint to one .tar file", description="Export a checkpoint (and optionally its ancestors) to one tar file with a manifest of sha256 hashes.")
    s.add_argument("ref")
    s.add_argument("path", help="output file (.tar, or .tar.gz/.tgz to compress)")
    s.add_argument("--with-lineage", action="store_true", help="also export every ancestor in this registry")

    s = sub.add_parser("import", parents=[common], help="add the checkpoints of an export file", description="Import an export file; every hash is verified first, and nothing is added unless all verify.")
    s.add_argument("path")

    s = sub.add_parser("verify", parents=[common], help="re-hash every file and check the index", description="Verify hashes and index/folder agreement; exit 1 on any error.")
    s.add_argument("ref", nargs="?", help="only this checkpoint")
    s.add_argument("--clean", action="store_true", help="remove leftovers of interrupted saves")
    s.add_argument("--grace", type=non_negative_float, default=3600.0, metavar="SECONDS", help="with --clean: keep temp folders younger than this (default 3600)")


def add_registry_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``registry`` (and its subcommands) to the main CLI's subparsers; its ``func`` returns the exit code."""
    p = subparsers.add_parser(
        "registry", help="list, show, alias, remove, export, import and verify checkpoints",
        description="The checkpoint registry: learned opponents by name, version and alias.",
    )
    _populate(p)
    p.set_defaults(func=run, _registry_parser=p)
    return p


def build_parser() -> argparse.ArgumentParser:
    """The standalone ``mythzoo registry`` parser."""
    p = argparse.ArgumentParser(prog=PROG, description="The checkpoint registry: learned opponents by name, version and alias.")
    _populate(p)
    p.set_defaults(_registry_parser=p)
    return p


def run(args: argparse.Namespace) -> int:
    """Run the parsed ``registry`` subcommand; errors become a message and exit code 1 or 2."""
    command = getattr(args, "registry_command", None)
    if command is None:
        args._registry_parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        path = args.registry if args.registry is not None else default_registry_path()
        reg = Registry(path, create=command in CREATES)
        return COMMANDS[command](reg, args)
    except IntegrityError as e:
        print(f"{PROG} {command}: verification failed: {safe(e)}", file=sys.stderr)
        return EXIT_VERIFY_FAILED
    except (RegistryError, LookupError, ValueError, OSError) as e:
        message = e.args[0] if isinstance(e, LookupError) and e.args else e
        print(f"{PROG} {command}: error: {safe(message)}", file=sys.stderr)
        return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """``mythzoo registry`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse exits 0 on --help, 2 on bad input
        return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_BAD_INPUT)
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
