"""Write the golden Mythic Baths playthrough checked by ``tests/test_golden.py``.

    python tests/make_golden.py          # rewrites tests/golden/mythic_baths_2p_seed7.txt

Run it only when the rules, the card set, the action labels or the ansi rendering change ON
PURPOSE, and review the diff of the golden file before committing it: every other change to
``envs/`` (optimizations, refactors) must leave the playthrough byte for byte identical.

The playthrough: 2 players, ``reset(seed=7)``, a policy drawing uniformly among the legal
actions with ``np.random.default_rng(7)`` (legal ids in increasing order); one line per
decision (step, agent, action id, action label), the ansi render every ``RENDER_EVERY`` steps
and at the end, then every agent's final reward and the scores.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from mythzoo.envs import mythic_baths_v1

GOLDEN = Path(__file__).resolve().parent / "golden" / "mythic_baths_2p_seed7.txt"
NUM_PLAYERS = 2
SEED = 7
POLICY_SEED = 7
RENDER_EVERY = 40


def generate() -> str:
    """The golden playthrough as text (deterministic)."""
    env = mythic_baths_v1.raw_env(num_players=NUM_PLAYERS, render_mode="ansi")
    env.reset(seed=SEED)
    rng = np.random.default_rng(POLICY_SEED)
    out = [
        f"# Mythic Baths golden playthrough: {NUM_PLAYERS} players, reset(seed={SEED}), uniform random legal policy np.random.default_rng({POLICY_SEED})",
        "# regenerate with: python tests/make_golden.py  (only when the rules or rendering change on purpose)",
        "",
        "== render at step 0 ==",
        env.render(),
        "",
    ]
    step = 0
    rendered_end = False
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if not rendered_end:
                out += ["", f"== render at the end (step {step}) ==", env.render(), ""]
                rendered_end = True
            out.append(f"final {agent}: reward {reward:+.6f} terminated={term} truncated={trunc}")
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        out.append(f"{step:4d} {agent} {action:3d} {env.action_label(action)}")
        env.step(action)
        step += 1
        if step % RENDER_EVERY == 0 and env.agents and not any(env.terminations.values()) and not any(env.truncations.values()):
            out += ["", f"== render at step {step} ==", env.render(), ""]
    out.append("scores: " + ", ".join(f"{a}={v}" for a, v in env.scores().items()))
    return "\n".join(out) + "\n"


def main() -> int:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(generate(), encoding="utf-8")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
