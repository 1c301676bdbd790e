"""Behaviour fingerprint: one hash per env configuration over many seeded random games.

Every decision of every game feeds the hash: the acting agent's observation and mask bytes,
its accumulated reward, termination, truncation and info; at each game's end every agent's
``last()`` and the final ``get_state()``. A refactor that claims "behaviour unchanged" must
print the same hashes before and after (``--check`` compares with a saved JSON).

    python benchmarks/behaviour_hash.py --games 500 --json /tmp/after.json
    python benchmarks/behaviour_hash.py --games 500 --check docs/behaviour_hashes.json

``--no-infos`` leaves the infos out (every ``last()`` info and the final state's ``aec.infos``): a
change meant to touch infos alone must leave these hashes unchanged. ``--no-infos-json PATH``
writes them too, from the same games, while the main hashes keep the infos.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

import numpy as np

def _configs() -> list[tuple[str, dict[str, Any]]]:
    from mythzoo.envs import SPECS

    return [(s.env_name, {s.size_argument: n} if s.size_argument else {}) for s in SPECS.values() for n in (s.sizes or (None,))]


# (env name, kwargs) for every size of every game in mythzoo.envs.SPECS.
CONFIGS: list[tuple[str, dict[str, Any]]] = _configs()


def config_key(name: str, kwargs: dict[str, Any]) -> str:
    """A stable label such as ``mythic_baths_v1 num_players=3``."""
    return " ".join([name] + [f"{k}={v}" for k, v in sorted(kwargs.items())])


def fingerprint(name: str, kwargs: dict[str, Any], games: int, first_seed: int = 0, infos: bool = True) -> tuple[str, int]:
    """The hex digest over ``games`` seeded random games (``infos=False``: infos left out), and the
    number of decisions played."""
    with_infos, without_infos, decisions = fingerprints(name, kwargs, games, first_seed)
    return (with_infos if infos else without_infos), decisions


def fingerprints(name: str, kwargs: dict[str, Any], games: int, first_seed: int = 0) -> tuple[str, str, int]:
    """Both digests of the same games, with and without the infos, and the number of decisions."""
    from mythzoo.envs import make

    env = make(name, **kwargs)
    h, bare = hashlib.sha256(), hashlib.sha256()
    decisions = 0
    for seed in range(first_seed, first_seed + games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed + 1_000_003)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            for x in (h, bare):
                x.update(agent.encode())
                x.update(obs["observation"].tobytes())
                x.update(obs["action_mask"].tobytes())
            h.update(repr((float(reward), bool(term), bool(trunc), json.dumps(info, sort_keys=True))).encode())
            bare.update(repr((float(reward), bool(term), bool(trunc))).encode())
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                decisions += 1
            env.step(action)
        state = env.get_state()
        h.update(json.dumps(state, sort_keys=True).encode())
        del state["aec"]["infos"]
        bare.update(json.dumps(state, sort_keys=True).encode())
    return h.hexdigest(), bare.hexdigest(), decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="seeded games per configuration (default %(default)s)")
    ap.add_argument("--json", help="write {config: digest} and the settings to this file")
    ap.add_argument("--check", help="compare with a JSON written by --json; exit 1 on any difference")
    ap.add_argument("--no-infos", action="store_true", help="leave the infos out of the hashes")
    ap.add_argument("--no-infos-json", help="also write the hashes without the infos (same games) to this file")
    args = ap.parse_args(argv)
    expected = json.load(open(args.check)) if args.check else None
    if expected is not None and expected.get("infos", True) != (not args.no_infos):
        print(f"{args.check} was made {'without' if expected.get('infos', True) is False else 'with'} infos; pass --no-infos accordingly", file=sys.stderr)
        return 2
    if expected is not None and expected["games"] != args.games:
        print(f"{args.check} was made with --games {expected['games']}; pass the same", file=sys.stderr)
        return 2
    out: dict[str, Any] = {"games": args.games, "hashes": {}}
    if args.no_infos:
        out["infos"] = False
    bare_out: dict[str, Any] = {"games": args.games, "infos": False, "hashes": {}}
    bad = 0
    for name, kwargs in CONFIGS:
        t = time.perf_counter()
        with_infos, without_infos, decisions = fingerprints(name, kwargs, args.games)
        digest = without_infos if args.no_infos else with_infos
        key = config_key(name, kwargs)
        out["hashes"][key] = digest
        bare_out["hashes"][key] = without_infos
        verdict = ""
        if expected is not None:
            same = expected["hashes"].get(key) == digest
            bad += not same
            verdict = "  same" if same else "  DIFFERENT"
        print(f"{key:34s} {digest[:16]}  {decisions:8d} decisions  {time.perf_counter() - t:6.1f} s{verdict}", flush=True)
    for path, data in ((args.json, out), (args.no_infos_json, bare_out)):
        if path:
            with open(path, "w") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
