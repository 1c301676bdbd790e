"""A rule-based Mythwind Innkeeper player that sees only what an agent sees: observation and mask.

It reads the observation through the env's named layout and the action table's ranges (never the
engine), so it plays from any observation source, batched or not. Its plan:

* **Seating** (dusk): a maximum matching of tonight's guests to the free furniture that meets their
  requests, built greedily in order of guest worth (1 coin plus the complaints avoided), so it
  seats as many guests as possible front facing and leaves the mildest guests unseated.
* **Buying** (Improve): a model of the nights to come. Every guest in the bag is drawn with
  probability ``guests per day / guests in the pool``; for each furniture type the expected number
  seated is ``E[min(demand, furniture of that type)]`` over the guests whose services and style the
  inn can meet. A token is bought when the extra guests it seats over the days left (plus the coins
  the learnt skills pay for it) exceed its cost; kitchens and stages are also valued together with
  the drink/food (music/play) they make room for; the score counts a token at its sale value, so
  half the cost comes back at the end. Damaged tokens are repaired on the same test; a sale gains
  nothing by itself (score-neutral), so a token is sold only when keeping it is worth less than nothing.
* **Operate**: the row worth most today: its skill's coins, plus the purchase (Improve), the gossip
  card that seats the most extra guests tonight (Serve), the best adventure effect (Mingle: the
  town draws one adventure card a day), a pampered guest who could not be seated anyway (Pamper)
  or the party bonus (Party, its two renown steps at half their worth: seating brings renown back),
  less the renown the action costs.
* **Skills**: coin skills (a coin per table, bar, door; per cultured or frontier token) are learnt
  when they pay back over the days left, into rows the alignment lets it play; after learning,
  the gained skills are rearranged while a swap puts a skill worth more into a row played more
  often; guest skills return guests who cannot be seated.
* **Workers**: one villager die, then one sprite die, are hired when coins are spare (a second of
  either type paid back less than it cost), and dice work the row worth most
  (often Mingle, whose adventure cards the town draws one a day).
* **Complaints and upkeep**: the token lost or damaged is the one worth least (damaged first).

The package, by concern: ``reading`` (the inn's constants and the observation decoded into a
plain view), ``model`` (tonight's seating and the worth of tokens, cards and rows over the days
left), ``phases`` (one choice per decision phase) and ``player`` (the policy,
:class:`MythwindInnkeeperHeuristic`). It imports ``mythzoo.policies.base`` and numpy only:
nothing from the engine, training or evaluation.
"""

from mythzoo.policies.mythwind_innkeeper_heuristic.player import MythwindInnkeeperHeuristic

__all__ = ["MythwindInnkeeperHeuristic"]
