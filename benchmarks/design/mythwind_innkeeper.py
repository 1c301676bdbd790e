"""Design report for Mythwind: the Innkeeper: the measured figures behind its designed economy.

    python benchmarks/design_report.py mythwind_innkeeper --campaigns 1000 --jobs 2 --write

Plays seeded campaigns (seeds ``seed .. seed + campaigns - 1``) of the heuristic, of the heuristic
with one Operate action banned (Serve, Party, Pamper, Mingle, Improve: neither the character nor a
worker may take it, and the heuristic knows it: ``banned_rows``) or with skills banned (no
Longhouse), and of three weaker policies (random,
"mingle and seat", "seat only"), and prints every design target of
``docs/design/mythwind_innkeeper.md`` with a 95% interval and "met"/"missed":

* no income source (``State.income``: seating, party, pamper, adventure, skills, selling) above 40%
  of the coins earned (share of the pooled coins; bootstrap interval over campaigns);
* banning any one Operate action costs the heuristic at least 5% and at most 40% of its final coins
  (the same seeds, so a paired normal interval on the mean difference over the heuristic's mean);
* level III renown reached in at least 25% of campaigns (Wilson);
* every skill learned in at least 5% of campaigns (Wilson), and banning skills costs at least 5%;
* random, "mingle and seat" and "seat only" each far below the heuristic: their mean final coins
  at most half the heuristic's.

``--policy REF`` (a checkpoint export file such as ``checkpoints/mythwind_innkeeper_v5-ppo-champion.tar.gz``,
a registry ref with ``--registry``, a baseline, a ``py:`` code ref, or the search ``rollouts:W:REF`` over
one of these) adds the configuration
``policy``: that policy on the same seeds, and beside the heuristic its action profile (Operate
uses by row, hires, skills learned, income by source, level III; :func:`profile`).

``--json PATH`` keeps every campaign's figures as it ends, one JSON line each, after a first line
naming the run (configurations, policy, overrides). Run the same command again and the campaigns
already in the file are read back instead of replayed: a long run (a search plays about 16 s of
one core a campaign) stopped part way loses nothing, and goes on where it stopped.

A target is "met" when its point estimate meets it; the interval shows how sure that is. It also
prints why the heuristic's guests were left unseated at dusk (no slot of their furniture type, every
such slot taken, a service missing, the style missing): the service-missing guests bound what Serve
can earn.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from mythzoo.envs.mythwind_innkeeper.names import DIE_TYPES
from mythzoo.threads import one_blas_thread_pool

GAME = "mythwind_innkeeper"
ROWS = ("pamper", "improve", "serve", "mingle", "party")  # the Operate rows, top to bottom
BANNABLE = ("serve", "party", "pamper", "mingle", "improve")
SOURCE_CAP, BAN_MIN, BAN_MAX, LEVEL3_MIN, SKILL_MIN, WEAK_MAX = 0.40, 0.05, 0.40, 0.25, 0.05, 0.50
START, END = "<!-- report:start -->", "<!-- report:end -->"
DOC = Path(__file__).resolve().parents[2] / "docs" / "design" / f"{GAME}.md"


def _configs() -> list[str]:
    """Every configuration the report plays: the heuristic, its ablations, the weaker policies."""
    return ["heuristic"] + [f"ban_{r}" for r in BANNABLE] + ["ban_skills", "random", "mingle_and_seat", "seat_only"]


_policy_ref: list[tuple[str, str | None]] = []  # the ``policy`` configuration's (ref, registry path) in this process
_policy_loaded: dict[tuple[str, str | None], object] = {}


def _init_worker(overrides: list[tuple[str, object, float]], policy_ref: list[tuple[str, str | None]]) -> None:
    _set_overrides(overrides)
    _policy_ref[:] = policy_ref


def _the_policy(env):
    """The ``policy`` configuration's policy, loaded once per process (it acts greedily: the same
    object serves every campaign)."""
    from mythzoo.policies.refs import load_policy

    key = _policy_ref[0]
    if key not in _policy_loaded:
        _policy_loaded[key] = load_policy(key[0], env, registry=key[1], seed=0)
    return _policy_loaded[key]


def resolve_policy(ref: str, registry: str | None) -> tuple[tuple[str, str | None], str]:
    """``(ref, registry)`` the workers load, and the label the report names it by. A checkpoint
    export file is imported into a temporary registry (verified, as every import is), also as the
    base of ``rollouts:W:FILE``."""
    from mythzoo.policies.rollouts import is_rollouts_ref, parse_rollouts_ref

    if is_rollouts_ref(ref):
        parsed = parse_rollouts_ref(ref)
        (base, reg), label = resolve_policy(parsed.base, registry)
        return (parsed.with_base(base), reg), parsed.with_base(label)
    path = Path(ref)
    if path.suffix in (".tar", ".gz", ".tgz") and path.is_file():
        import tempfile

        from mythzoo.policies.registry import Registry

        tmp = Path(tempfile.mkdtemp(prefix="mythzoo-profile-")) / "registry"
        (info,) = Registry(tmp).import_(path)
        return (info.id, str(tmp)), f"{info.id} ({path.name})"
    return (ref, registry), ref


class _Ranges:
    """The action ids of the ranges the policies read (from the env's action table)."""

    def __init__(self, env) -> None:
        r = env.unwrapped.rules
        self.rules = r
        self.n_rows = len(ROWS)
        self.oper = r.A_OPER
        self.worker = r.A_WORKER
        self.learn = r.A_LEARN
        self.n_learn = r.NK * r.slots
        self.guest, self.slot, self.gossip, self.done = r.A_GUEST, r.A_SLOT, r.A_GOSSIP, r.A_DONE
        self.town_pass = r.A_PASS
        self.hire, self.n_hire = r.A_HIRE, len(DIE_TYPES)  # hire a die of each type

    def row_of(self, a: int) -> int:
        """The Operate row an action performs (character or worker), -1 for any other action."""
        if self.oper <= a < self.oper + self.n_rows:
            return a - self.oper
        if self.worker <= a < self.worker + self.rules.ND * self.n_rows:
            return (a - self.worker) % self.n_rows
        return -1

    def banned_mask(self, mask: np.ndarray, banned_rows: set[int], no_skills: bool) -> np.ndarray:
        """``mask`` less the banned actions; unchanged when nothing else would be legal."""
        out = mask.copy()
        for a in np.flatnonzero(mask):
            if self.row_of(int(a)) in banned_rows or (no_skills and self.learn <= a < self.learn + self.n_learn):
                out[a] = 0
        return out if out.any() else mask


class _Simple:
    """The "mingle and seat" and "seat only" policies: seat the first seatable guest in the first
    slot; on Operate, Mingle (mingle and seat) or the row that changes least (seat only: Improve
    and stop, else Serve, else whatever is legal); no town actions, no worker actions, no skills."""

    def __init__(self, ranges: _Ranges, mingle: bool) -> None:
        self.r, self.mingle = ranges, mingle

    def act(self, mask: np.ndarray) -> int:
        r = self.r
        legal = [int(a) for a in np.flatnonzero(mask)]
        if r.town_pass in legal:
            return r.town_pass
        ops = [a for a in legal if r.oper <= a < r.oper + r.n_rows]
        if ops:
            order = ("mingle", "serve", "improve") if self.mingle else ("improve", "serve", "mingle")
            for name in order:
                if r.oper + ROWS.index(name) in ops:
                    return r.oper + ROWS.index(name)
            return ops[0]
        if r.rules.PHASE_NAMES[self.phase] in ("seat_guest", "late_guest"):  # seat every guest it can
            return legal[0]
        if r.done in legal:  # end Improve, skip skills and workers
            return r.done
        return legal[0]


UNSEATED_WHY = ("no_furniture_type", "furniture_taken", "service_missing", "style_missing")
_unseated = [0] * len(UNSEATED_WHY)  # this process's tally for the campaign being played


def _count_unseated_at_dusk(rules) -> None:
    """Wrap these rules' host step (this env's only: the class stays as it is) to tally, when seating
    ends, why each drawn guest stayed unseated: the inn has no slot of its furniture type, every such
    slot is taken, a service it asks for is missing (what Serve can supply for a day), or its style is
    not embraced nearby."""
    from mythzoo.envs.mythwind_innkeeper.rules import P_SEAT_GUEST

    host = rules._host

    def tallying_host(s) -> None:
        have, _, by_type, _, _, _ = rules.inn_view(s)
        for g in s.drawn:
            free = [d for d in by_type.get(rules.gfurn[g], ()) if s.slot_guest[d] < 0]
            why = (0 if rules.gfurn[g] not in by_type else 1 if not free
                   else 2 if any(not have[t] for t in rules.gserv[g]) else 3)
            _unseated[why] += 1
        host(s)

    rules._done_steps[P_SEAT_GUEST] = tallying_host


HEURISTIC_MODULES = ("reading", "model", "phases")  # where the heuristic's constants are bound
_overrides: list[tuple[str, object, float]] = []  # this process's --set overrides, applied before each campaign


def parse_override(text: str) -> tuple[str, object, float]:
    """``NAME=VALUE`` (a number constant of the heuristic) or ``NAME.KEY=VALUE`` (an entry of a dict
    constant, such as ``OTHER_SKILL_USE.rumormonger`` or ``SKILL_USE_SHARE.2``); ValueError names
    what is wrong."""
    from mythzoo.policies.mythwind_innkeeper_heuristic import reading

    name, eq, value = text.partition("=")
    if not eq:
        raise ValueError(f"--set {text!r}: expected NAME=VALUE")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"--set {text!r}: {value!r} is not a number") from None
    name, dot, key = name.partition(".")
    current = getattr(reading, name, None) if name.isupper() else None
    if isinstance(current, dict) and dot:
        keys = {str(k): k for k in current}
        if key not in keys:
            raise ValueError(f"--set {text!r}: {name} has no entry {key!r} (it has {', '.join(keys)})")
        return name, keys[key], number
    if isinstance(current, (int, float)) and not isinstance(current, bool) and not dot:
        return name, None, number
    raise ValueError(f"--set {text!r}: not a number constant, or an entry of a dict constant, of the heuristic "
                     "(policies/mythwind_innkeeper_heuristic/reading.py)")


def _apply_overrides() -> None:
    import importlib

    for name, key, value in _overrides:
        for mod in HEURISTIC_MODULES:
            m = importlib.import_module(f"mythzoo.policies.mythwind_innkeeper_heuristic.{mod}")
            if not hasattr(m, name):
                continue
            if key is None:
                setattr(m, name, value)
            else:
                getattr(m, name)[key] = value  # the same dict object wherever it is imported


def _set_overrides(overrides: list[tuple[str, object, float]]) -> None:
    _overrides[:] = overrides
    _apply_overrides()


def _saved_constants(overrides: list[tuple[str, object, float]]) -> list[tuple[object, str, object, object]]:
    """(module, name, key, value) of what ``overrides`` would change, to put back afterwards."""
    import importlib

    saved = []
    for name, key, _ in overrides:
        for mod in HEURISTIC_MODULES:
            m = importlib.import_module(f"mythzoo.policies.mythwind_innkeeper_heuristic.{mod}")
            if hasattr(m, name):
                saved.append((m, name, key, getattr(m, name) if key is None else getattr(m, name)[key]))
    return saved


def play(config: str, seed: int) -> dict:
    """One seeded campaign of ``config``: final coins, income by source, the highest renown level,
    the skills learned and the Operate rows used (character and worker)."""
    from mythzoo.envs import mythwind_innkeeper_v5
    from mythzoo.envs.mythwind_innkeeper.rules import INCOME_SOURCES
    from mythzoo.policies.base import RandomPolicy
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    _unseated[:] = [0] * len(UNSEATED_WHY)
    env = mythwind_innkeeper_v5.env()
    env.reset(seed=seed)
    ranges = _Ranges(env)
    rules = ranges.rules
    banned = {ROWS.index(config[4:])} if config.startswith("ban_") and config != "ban_skills" else set()
    no_skills = config == "ban_skills"
    # The banned row is masked out, and the heuristic is told of it, as a player facing that rule
    # would be (no skill placed in it, no die hired for it).
    heuristic = (MythwindInnkeeperHeuristic(env, seed=seed, banned_rows=[ROWS[r] for r in banned])
                 if config == "heuristic" or config.startswith("ban_") else None)
    rand = RandomPolicy(seed) if config == "random" else None
    simple = _Simple(ranges, mingle=config == "mingle_and_seat") if config in ("mingle_and_seat", "seat_only") else None
    policy = _the_policy(env) if config == "policy" else None
    # A search plays its rollouts through these rules too: their guests are not the campaign's.
    searching = policy is not None and callable(getattr(policy, "act_in_env", None))
    if not searching:
        _count_unseated_at_dusk(rules)
    if policy is not None and callable(getattr(policy, "reseed", None)):
        policy.reseed(seed)  # a campaign's figures depend on its seed alone, however the work is split
    uses = [0] * len(ROWS)
    hires = 0
    top_level = 1
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        s = env.unwrapped.state_
        top_level = max(top_level, rules.levels[s.renown])
        mask = obs["action_mask"]
        if heuristic is not None:
            a = heuristic.act(obs["observation"], ranges.banned_mask(mask, banned, no_skills), agent)
        elif rand is not None:
            a = rand.act(obs["observation"], mask, agent)
        elif policy is not None:  # a search (rollouts:W:REF) decides from the live game
            a = int(policy.act_in_env(env, agent) if callable(getattr(policy, "act_in_env", None))
                    else policy.act(obs["observation"], mask, agent))
        else:
            simple.phase = s.phase
            a = simple.act(mask)
        row = ranges.row_of(a)
        if row >= 0:
            uses[row] += 1
        hires += ranges.hire <= a < ranges.hire + ranges.n_hire
        env.step(a)
    s = env.unwrapped.state_
    top_level = max(top_level, rules.levels[s.renown])
    return {
        "coins": rules.worth(s), "earned": s.earned, "income": dict(zip(INCOME_SOURCES, s.income)), "top_level": top_level,
        "skills": [k for k, r in enumerate(s.skill_row) if r >= 0], "uses": uses, "hires": hires,
        "unseated": None if searching else dict(zip(UNSEATED_WHY, _unseated)),
    }


def _play_star(args: tuple[str, int]) -> tuple[str, int, dict]:
    return args[0], args[1], play(*args)


# ---------------------------------------------------------------------------- statistics
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95% interval of a rate ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def mean_ci(x: np.ndarray, z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    m = float(np.mean(x))
    half = z * float(np.std(x, ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    return m, m - half, m + half


def share_ci(part: np.ndarray, whole: np.ndarray, seed: int = 0, boots: int = 400) -> tuple[float, float, float]:
    """Pooled share ``sum(part) / sum(whole)`` and its bootstrap 95% interval over campaigns."""
    share = float(part.sum() / max(1, whole.sum()))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(part), size=(boots, len(part)))
    b = part[idx].sum(axis=1) / np.maximum(1, whole[idx].sum(axis=1))
    return share, float(np.quantile(b, 0.025)), float(np.quantile(b, 0.975))


def ban_cost(base: np.ndarray, ban: np.ndarray, z: float = 1.96) -> tuple[float, float, float]:
    """Share of the heuristic's mean coins lost by a ban (same seeds): paired normal interval."""
    mb = float(base.mean())
    diff = base - ban
    m = float(diff.mean()) / mb
    half = z * float(np.std(diff, ddof=1)) / math.sqrt(len(diff)) / mb if len(diff) > 1 else 0.0
    return m, m - half, m + half


def _verdict(ok: bool) -> str:
    return "met" if ok else "missed"


def report(results: dict[str, list[dict]], command: str) -> tuple[str, bool]:
    """The markdown report of every design target, and whether all are met."""
    from mythzoo.envs.mythwind_innkeeper.components import load_data
    from mythzoo.envs.mythwind_innkeeper.rules import INCOME_SOURCES

    skills = [k.name for k in load_data().skills]
    h = results["heuristic"]
    n = len(h)
    coins = np.array([r["coins"] for r in h], dtype=float)
    earned = np.array([r["earned"] for r in h], dtype=float)
    lines = [f"Command: `{command}`", "", f"Campaigns per configuration: {n} (seeds as in the command).", ""]
    m, lo, hi = mean_ci(coins)
    lines += ["| Configuration | mean final coins (95% CI) | mean coins earned |", "|---|---|---|"]
    for cfg, rs in results.items():
        c = np.array([r["coins"] for r in rs], dtype=float)
        cm, cl, ch = mean_ci(c)
        lines.append(f"| {cfg} | {cm:.1f} ({cl:.1f}-{ch:.1f}) | {np.mean([r['earned'] for r in rs]):.1f} |")
    uses = np.array([r["uses"] for r in h], dtype=float).mean(axis=0)
    lines += ["", "Heuristic Operate uses per campaign (character and workers): "
              + ", ".join(f"{name} {u:.2f}" for name, u in zip(ROWS, uses)), ""]
    why = {k: np.mean([r["unseated"][k] for r in h]) for k in UNSEATED_WHY}
    lines += ["Heuristic guests left unseated at dusk, per campaign, by why: "
              + ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in why.items())
              + f" (seated guests earn {np.mean([r['income']['seating'] for r in h]):.1f} coins)", ""]
    all_met = True
    lines += ["| Target | figure (95% CI) | verdict |", "|---|---|---|"]

    def row(target: str, fig: tuple[float, float, float], ok: bool, pct: bool = True) -> None:
        nonlocal all_met
        all_met &= ok
        f = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:.1f}")
        lines.append(f"| {target} | {f(fig[0])} ({f(fig[1])}-{f(fig[2])}) | {_verdict(ok)} |")

    for src in INCOME_SOURCES:
        part = np.array([r["income"][src] for r in h], dtype=float)
        fig = share_ci(part, earned)
        row(f"income from {src} <= {SOURCE_CAP:.0%} of coins earned", fig, fig[0] <= SOURCE_CAP)
    for r in BANNABLE:
        ban = np.array([x["coins"] for x in results[f"ban_{r}"]], dtype=float)
        fig = ban_cost(coins, ban)
        row(f"banning {r} costs {BAN_MIN:.0%}-{BAN_MAX:.0%}", fig, BAN_MIN <= fig[0] <= BAN_MAX)
    k3 = sum(1 for r in h if r["top_level"] >= 3)
    row(f"level III renown reached in >= {LEVEL3_MIN:.0%}", (k3 / n, *wilson(k3, n)), k3 / n >= LEVEL3_MIN)
    for k, name in enumerate(skills):
        kk = sum(1 for r in h if k in r["skills"])
        row(f"skill {name} learned in >= {SKILL_MIN:.0%}", (kk / n, *wilson(kk, n)), kk / n >= SKILL_MIN)
    ban = np.array([x["coins"] for x in results["ban_skills"]], dtype=float)
    fig = ban_cost(coins, ban)
    row(f"banning skills costs >= {BAN_MIN:.0%}", fig, fig[0] >= BAN_MIN)
    for cfg in ("random", "mingle_and_seat", "seat_only"):
        c = np.array([x["coins"] for x in results[cfg]], dtype=float)
        cm, cl, ch = mean_ci(c)
        fig = (cm / m, cl / m, ch / m)
        row(f"{cfg} mean coins <= {WEAK_MAX:.0%} of the heuristic's", fig, fig[0] <= WEAK_MAX)
    lines += ["", f"Heuristic: mean final coins {m:.1f} ({lo:.1f}-{hi:.1f}). All targets met: {'yes' if all_met else 'no'}."]
    return "\n".join(lines) + "\n", all_met


def profile(results: dict[str, list[dict]], label: str) -> str:
    """The action profile of the ``policy`` configuration beside the heuristic's, on the same
    campaigns (markdown): final coins and the paired difference, Operate uses per campaign by row
    (character and workers), dice hired, level III, each skill's share of campaigns that learned
    it, and each income source's share of the coins earned."""
    from mythzoo.envs.mythwind_innkeeper.components import load_data
    from mythzoo.envs.mythwind_innkeeper.rules import INCOME_SOURCES

    cols = [("heuristic", results["heuristic"]), ("policy", results["policy"])]
    n = len(cols[0][1])
    lines = [f"| per campaign ({n} campaigns, the same seeds) | heuristic | `{label}` |", "|---|---|---|"]

    def add(name: str, f) -> None:
        lines.append(f"| {name} | " + " | ".join(f(rs) for _, rs in cols) + " |")

    def coins(rs: list[dict]) -> str:
        m, lo, hi = mean_ci(np.array([r["coins"] for r in rs], dtype=float))
        return f"{m:.1f} [{lo:.1f}, {hi:.1f}]"

    add("final coins (worth) [95% CI]", coins)
    d = np.array([b["coins"] - a["coins"] for a, b in zip(cols[0][1], cols[1][1])], dtype=float)
    m, lo, hi = mean_ci(d)
    lines.append(f"| minus the heuristic's, paired | - | {m:+.1f} [{lo:+.1f}, {hi:+.1f}] |")
    # The env's return is the worth less the starting coins (``reward_mode="terminal"``): its ratio.
    start = load_data().starting_coins
    net = [np.array([r["coins"] - start for r in rs], dtype=float) for _, rs in cols]
    lines.append(f"| net coins (the return: worth less the {start} starting coins) | "
                 + " | ".join(f"{x.mean():.1f}" for x in net) + " |")
    lines.append(f"| ratio to the heuristic's, net coins; worth | - | {net[1].mean() / net[0].mean():.3f}x; "
                 f"{(net[1].mean() + start) / (net[0].mean() + start):.3f}x |")
    for k, row in enumerate(ROWS):
        add(f"Operate: {row}", lambda rs, k=k: f"{np.mean([r['uses'][k] for r in rs]):.2f}")
    add("dice hired", lambda rs: f"{np.mean([r['hires'] for r in rs]):.2f}")
    add("level III reached", lambda rs: f"{np.mean([r['top_level'] >= 3 for r in rs]):.1%}")
    for k, sk in enumerate(load_data().skills):
        add(f"learned {sk.name}", lambda rs, k=k: f"{np.mean([k in r['skills'] for r in rs]):.1%}")
    for src in INCOME_SOURCES:
        add(f"income from {src}", lambda rs, src=src: f"{sum(r['income'][src] for r in rs) / max(1, sum(r['earned'] for r in rs)):.1%}")
    add("coins earned", lambda rs: f"{np.mean([r['earned'] for r in rs]):.1f}")
    return "\n".join(lines) + "\n"


def run(campaigns: int, seed: int, jobs: int, configs: list[str],
        overrides: list[tuple[str, object, float]] = (), policy_ref: tuple[str, str | None] | None = None,
        json_path: Path | None = None) -> dict[str, list[dict]]:
    """Every configuration over the same seeds, the heuristic's constants overridden as given (in
    this process and every worker); a progress line on stderr. With ``json_path`` each campaign is
    appended to that file as it ends, and the campaigns already there are read back, not replayed
    (:func:`open_results`)."""
    out: dict[str, list[tuple[int, dict]]] = {c: [] for c in configs}
    kept = open_results(json_path, configs, overrides, policy_ref) if json_path is not None else {}
    for (c, sd), res in kept.items():
        if c in out and seed <= sd < seed + campaigns:
            out[c].append((sd, res))
    tasks = [(c, seed + i) for c in configs for i in range(campaigns) if (c, seed + i) not in kept]
    t0 = time.time()
    saved = _saved_constants(list(overrides))
    _set_overrides(list(overrides))
    refs = [policy_ref] if policy_ref else []
    _policy_ref[:] = refs
    try:
        return _run_tasks(tasks, out, jobs, overrides, t0, refs, json_path)
    finally:  # this process's heuristic as it was (a caller, a test, plays on with the shipped constants)
        for m, name, key, value in reversed(saved):
            if key is None:
                setattr(m, name, value)
            else:
                getattr(m, name)[key] = value
        _overrides.clear()


def _run_tasks(tasks: list[tuple[str, int]], out: dict[str, list[tuple[int, dict]]], jobs: int,
               overrides: list[tuple[str, object, float]], t0: float, refs: list[tuple[str, str | None]],
               json_path: Path | None = None) -> dict[str, list[dict]]:
    done = 0
    # Spawned workers with one BLAS thread each: forked ones keep the parent's BLAS threads, which
    # spin against each other (a search over the champion ran 4x slower so on 2 cores).
    pool = one_blas_thread_pool(jobs, _init_worker, (list(overrides), refs)) if jobs > 1 and tasks else None
    # Small chunks when a file keeps the campaigns: a stopped run loses at most a chunk a worker.
    chunk = 1 if json_path is not None else 8
    it = pool.imap_unordered(_play_star, tasks, chunksize=chunk) if pool else map(_play_star, tasks)
    sink = json_path.open("a") if json_path is not None else None
    for cfg, sd, res in it:
        out[cfg].append((sd, res))
        if sink is not None:
            sink.write(json.dumps({"config": cfg, "seed": sd, "result": res}) + "\n")
            sink.flush()
        done += 1
        if done % 50 == 0 or done == len(tasks):
            print(f"\r{done}/{len(tasks)} campaigns, {time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
    if sink is not None:
        sink.close()
    if pool:
        pool.close()
        pool.join()
    print(file=sys.stderr)
    return {c: [r for _, r in sorted(v, key=lambda x: x[0])] for c, v in out.items()}


def open_results(path: Path, configs: list[str], overrides: list[tuple[str, object, float]],
                 policy_ref: tuple[str, str | None] | None) -> dict[tuple[str, int], dict]:
    """The campaigns already kept in ``path`` by a run of the same configurations, policy and
    overrides, by (configuration, seed); a new file is started with a first line naming the run.
    A file written by another run is refused (ValueError): its figures would be mixed with these.
    A last line cut by a stop mid-write is dropped (that campaign is played again)."""
    head = {"game": GAME, "configs": sorted(configs), "policy": policy_ref[0] if policy_ref else None,
            "set": [list(o) for o in overrides]}
    if not path.exists() or path.stat().st_size == 0:
        path.write_text(json.dumps({"run": head}) + "\n")
        return {}
    lines = [ln for ln in path.read_text().split("\n") if ln.strip()]
    try:
        first = json.loads(lines[0]).get("run")
    except (ValueError, AttributeError):
        first = None
    if first != head:
        raise ValueError(f"{path} holds another run's campaigns ({first}); give another --json file")
    kept: dict[tuple[str, int], dict] = {}
    for k, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line)
            kept[(rec["config"], int(rec["seed"]))] = rec["result"]
        except (ValueError, KeyError, TypeError):
            if k < len(lines):
                raise ValueError(f"{path}: line {k} is not a campaign's figures") from None
            path.write_text("\n".join(lines[:-1]) + "\n")  # the cut line goes, the next append starts clean
    return kept


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog=f"design_report.py {GAME}", description=__doc__.split("\n")[0])
    p.add_argument("--campaigns", "--games", type=int, default=1000, help="campaigns per configuration")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (the figures do not depend on it)")
    p.add_argument("--configs", default=",".join(_configs()), help="comma-separated configurations (all for the report)")
    p.add_argument("--write", action="store_true", help=f"also write the report into {DOC.relative_to(DOC.parents[2])}")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a design iteration: override one of the heuristic's constants (a number in "
                        "policies/mythwind_innkeeper_heuristic/reading.py, or NAME.KEY for a dict entry, "
                        "e.g. OTHER_SKILL_USE.rumormonger=1.5 or SKILL_USE_SHARE.2=0.4); repeatable")
    p.add_argument("--policy", metavar="REF",
                   help="also play this policy on the same seeds (configuration 'policy') and print its action profile beside "
                        "the heuristic's: a checkpoint export file, a registry ref (with --registry), a baseline or a py: code ref")
    p.add_argument("--registry", default=None, help="the registry a --policy checkpoint ref is read from (default $MYTHZOO_REGISTRY or ./registry)")
    p.add_argument("--json", type=Path, default=None, metavar="PATH",
                   help="keep each campaign's figures in PATH (JSON lines) as it ends; a rerun reads them back instead of replaying them")
    a = p.parse_args(argv)
    configs = a.configs.split(",")
    known = _configs() + (["policy"] if a.policy else [])
    unknown = [c for c in configs if c not in known]
    if unknown:
        p.error(f"unknown configuration(s) {', '.join(unknown)}: choose from {', '.join(known)}")
    if a.policy and a.write:
        p.error("--write records the design's figures: it cannot be combined with --policy")
    if a.policy and "policy" not in configs:
        configs.append("policy")
    try:
        overrides = [parse_override(t) for t in a.set]
    except ValueError as e:
        p.error(str(e))
    if overrides and a.write:
        p.error("--write records the shipped heuristic: it cannot be combined with --set")
    policy_ref = None
    if a.policy:
        from mythzoo.envs import mythwind_innkeeper_v5
        from mythzoo.policies.refs import load_policy

        try:  # refused here in one line (a wrong env, a bad ref) rather than in every worker
            policy_ref, label = resolve_policy(a.policy, a.registry)
            load_policy(policy_ref[0], mythwind_innkeeper_v5.env(), registry=policy_ref[1], seed=0)
        except Exception as e:  # noqa: BLE001 - any refusal is reported the same way
            p.error(f"--policy {a.policy}: {e}")
    try:
        results = run(a.campaigns, a.seed, a.jobs, configs, overrides, policy_ref, a.json)
    except ValueError as e:
        p.error(str(e))
    if a.policy and "heuristic" in results:
        print(f"Action profile, command: `python benchmarks/design_report.py {GAME} --campaigns {a.campaigns} --seed {a.seed} "
              f"--configs {','.join(c for c in configs if c != 'policy')} --policy {a.policy}`\n")
        print(profile(results, label))
    if set(configs) != set(_configs()):  # an iteration: the figures of what was played
        if a.set:
            print("heuristic constants overridden:", " ".join(a.set))
        for cfg, rs in results.items():
            c = np.array([r["coins"] for r in rs], dtype=float)
            inc = {k: np.mean([r["income"][k] for r in rs]) for k in rs[0]["income"]}
            print(cfg, "coins %.1f" % c.mean(), "earned %.1f" % np.mean([r["earned"] for r in rs]),
                  " ".join(f"{k}={v:.1f}" for k, v in inc.items()),
                  "L3 %.2f" % np.mean([r["top_level"] >= 3 for r in rs]),
                  "uses", np.round(np.mean([r["uses"] for r in rs], axis=0), 2),
                  "unseated", "n/a (a search)" if rs[0]["unseated"] is None else
                  {k: round(float(np.mean([r["unseated"][k] for r in rs])), 2) for k in UNSEATED_WHY},
                  "skills", np.round(np.bincount([k for r in rs for k in r["skills"]], minlength=10) / len(rs), 2))
        if "heuristic" in results:  # what each ban (or the weaker policies) costs, on the same seeds
            base = np.array([r["coins"] for r in results["heuristic"]], dtype=float)
            for cfg in (c for c in configs if c != "heuristic"):
                m, lo, hi = ban_cost(base, np.array([r["coins"] for r in results[cfg]], dtype=float))
                print(f"{cfg} costs {100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of the heuristic's final coins")
        return 0
    command = f"python benchmarks/design_report.py {GAME} --campaigns {a.campaigns} --seed {a.seed}" + "".join(f" --set {t}" for t in a.set)
    text, _ = report(results, command)
    print(text)
    if a.write:
        doc = DOC.read_text()
        i, j = doc.index(START) + len(START), doc.index(END)
        DOC.write_text(doc[:i] + "\n" + text + doc[j:])
    return 0
