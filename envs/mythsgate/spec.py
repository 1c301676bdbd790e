"""Mythsgate, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mythzoo.envs.core.spec import GameSpec


def max_decisions(kwargs: Mapping[str, Any]) -> int:
    """A true upper bound on the decisions of one game made with these env kwargs.

    The env truncates a game once ``max_rounds`` (R) rounds are complete, so a game is the setup
    (one inn choice per hero) and at most R rounds of the Invoker's turn then the League's. Every
    decision is charged below either to its own turn or to an earlier decision that made it
    possible, so nothing is counted twice and nothing is missed (k heroes, data from the files):

    * per game: k setup placements, and at most 10 sacrifices (each steals one of the 10 gems; the
      tenth ends the game).
    * a combat against a minion, besides the hero's cards and books (charged below): ``fight``,
      ``draw``, at most VIEW Kraken picks, one track/token choice, the token use a flip makes
      possible later (Fury, Dark Power, Haste, Regenerate: a token is used only after it is
      flipped, and every one starts unflipped), one push: 5 + VIEW, one more with Beowulf (the
      card he recovers is played or discarded later). Against an encounter (no Kraken, no choice,
      no token): 3, or 4 with Beowulf.
    * the Invoker's turn: one ``end_sacrifice``, one ``end_turn``; k + 1 actions, plus one per
      Haste used. Haste is used at most once per flip plus once if it was up at the start, and it
      is flipped only after he wins a combat, which costs a hero a life (at most k * max lives:
      heroes regain none in his turn). So at most k + 2 actions are not attacks (each at most 1 +
      12 places: moving every minion) and at most k + 2 + k * max lives are attacks.
    * the League's turn: k - 1 choices of who plays next and k ``end_turn``; hero h takes at most
      boots_h + the Boots piece actions, plus one per green book used, and only books held when
      the round began can be (a book is used before the turn's first action, and a hero gets books
      only by exploring in its own turn): at most all the green books. An action costs at most
      1 + a minion combat (an attack); trading costs 2 + the transfers, exploring two plus a pick,
      the book the explore may bring (its use later) and an encounter, a Power Centre 1 + its
      draws (each drawn card is played or discarded at most once this round), the rest 1.
    * cards: each card played in a combat or discarded at the end of the League's turn was in a
      hand when the round began (at most hand + Pack per hero, after the last discard; the
      starting hand in round one) or was drawn or recovered this round (charged above).
    """
    from mythzoo.envs.mythsgate.actions import NUM_MINIONS, TRADE_TRANSFERS, VIEW
    from mythzoo.envs.mythsgate.env import DEFAULT_MAX_ROUNDS
    from mythzoo.envs.mythsgate.gamedata import BOOKS, LOC_BOOK, PIECES, PRINTED, load_data

    k = int(kwargs.get("num_heroes", 2))
    rounds = int(kwargs.get("max_rounds", DEFAULT_MAX_ROUNDS))
    gd = load_data(kwargs.get("data"))
    heroes = [gd.heroes[c] for c in (kwargs.get("characters") or range(k))]
    boots_piece, pack_piece = gd.piece_amount[PIECES.index("boots")], gd.piece_amount[PIECES.index("pack")]
    green = BOOKS.index("green")
    greens = sum(1 for c in gd.location_cards if c.kind == LOC_BOOK and c.color == green)
    beowulf = int(any(h.ability == "beowulf" for h in heroes))
    minion_combat = 5 + VIEW + beowulf
    encounter = 3 + beowulf
    action = max(1 + minion_combat, 2 + TRADE_TRANSFERS, 1 + 1 + 1 + encounter, 1 + gd.power_centre_draw)
    invoker_turn = 2 + (k + 2) * (1 + NUM_MINIONS) + (k + 2 + k * gd.hero_lives_max) * (1 + minion_combat)
    hero_actions = sum(h.boots + boots_piece for h in heroes) + greens * gd.book_effect[green]
    hands = sum(max(sum(gd.starting_hand), h.hand + pack_piece) for h in heroes)
    league_turn = (k - 1) + k + hero_actions * action + hands
    return k + PRINTED["gems"] + rounds * (invoker_turn + league_turn)


SPEC = GameSpec(
    name="mythsgate",
    version=2,
    title="Mythsgate: the Great Invoker against 1-5 heroes of the Atari League",
    module="mythzoo.envs.mythsgate_v2",
    kind="roles",
    roles=("invoker", "hero"),
    team_roles=("hero",),  # "every hero gets the League's reward"
    utility="zero_sum",  # the winner's side +1, the other -1; a truncated game is 0 for all
    reward_modes=("zero_sum",),
    heuristic="mythzoo.policies.mythsgate_heuristic:MythsgateHeuristic",
    size_argument="num_heroes",
    sizes=(1, 2, 3, 4, 5),
    default_size=2,
    seat_offset=1,  # the Invoker
    data_files=("data/cards.json", "data/characters.json", "data/map.json"),
    players_text="2-6: the invoker and 1-5 heroes",
    reward_notes={
        "zero_sum": "at the end: the winning side +1, the other -1; every hero gets the League's reward",
    },
    max_decisions=max_decisions,
)
