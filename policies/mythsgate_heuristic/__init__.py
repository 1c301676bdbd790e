"""A rule-based Mythsgate player for either side that sees only what an agent sees.

One object plays the Great Invoker or any hero, chosen by the ``agent`` argument (its role; with no
agent, by the observation's length). It reads the observation vector through the env's named layout
and picks among the legal ids of the env's action table, never looking at the engine state; the
static game data (map, hero boards, Power card kinds) is public and read once at construction. Every
choice is a deterministic function of (observation, mask), so batched and single calls agree.

The Great Invoker: sacrifice every minion next to the Castle (a last life only while another minion
stays in play, or for the tenth gem), invoke minions while keeping an action to move them (never
leaving a lone minion when he can invoke a second), move every minion onto the spaces next to the
Castle (the one the heroes threaten least; a small band waits on the Portal's side while moving would
only bring it into the heroes' reach), attack heroes he likely
beats, then spend spare actions on +3F/+1P/X3/X4 cards, Teleport and minion abilities; Fury and Dark
Power when they can turn a combat; track and token choices by value.

A hero: gain a life when knocked out, attack a minion on its space it likely beats (most eagerly those
next to the Castle and those it kills; with three heroes or more, none on the Portal or next to it
unless it is the last minion in play, and with three cards or fewer no last move there), otherwise walk to one it can reach and beat this turn, draw
at Power Centres when its hand is short, rest at inns, forge armour (weapon, amulet, boots, pack),
walk to the market when one trade there completes a piece, explore for materials, and otherwise wait
where every space next to the Castle is one move away. In a combat it commits the cards that raise its chance of
winning most until that chance is high (one cheap card when the fight is hopeless), using books when
they help; a beaten minion is pushed as far from the Castle as it may go.

The package, by concern: ``reading`` (the static data and the observation decoded), ``invoker``
(the Great Invoker's choices), ``heroes`` (a hero's choices) and ``player`` (the policy that
combines them, :class:`MythsgateHeuristic`). It imports ``mythzoo.policies.base`` and numpy only:
nothing from the engine, training or evaluation.
"""

from mythzoo.policies.mythsgate_heuristic.player import MythsgateHeuristic

__all__ = ["MythsgateHeuristic"]
