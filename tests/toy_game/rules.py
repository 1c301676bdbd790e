"""The toy game's rules on :class:`~mythzoo.envs.core.rules_base.RulesBase`.

Setup: the deck is shuffled and every player is dealt ``hand_size`` cards. A turn is one decision:
``play`` a card from the hand (score its value; the card goes face up to the discard), ``draw``
the top card (while the deck is not empty and the hand not full) or ``pass``. After ``rounds``
turns each the game ends; the highest score wins (ties share). Hidden: the other hands and the
order of the deck.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.core.rules_base import RulesBase, build_handlers, state_fields
from mythzoo.envs.core.validate import check_int, check_ints, check_rows, req
from toy_game.actions import build_table
from toy_game.cards import Cards


@dataclass
class State:
    """A game in progress."""

    rng: np.random.Generator  # the game's own generator (the deal and the deck's order came from it)
    deck: list[int]  # card kinds, top = end (hidden)
    hands: list[list[int]]  # player -> cards held of each kind (hidden from the others)
    discard: list[int]  # kind -> cards played (face up)
    scores: list[int]  # player -> points
    turn: int = 0  # turns played, one decision each
    current: int = 0  # seat to move (turn mod players)
    over: int = 0  # 1 once every player has had its rounds
    legal: list[int] | None = None  # cached legal ids (derived, never serialized)


class ToyRules(RulesBase):
    """Play, draw or pass, for 2-4 players."""

    State = State
    STATE_FIELDS = state_fields(State, ("legal",))

    def __init__(self, cards: Cards, num_players: int):
        self.cards = cards
        self.num_players = self.n = num_players
        self.K = len(cards.names)
        self.total_turns = cards.rounds * num_players
        self.table = build_table(cards)
        self.num_actions = self.table.n
        self.PLAY, self.DRAW, self.PASS = (self.table.offset(r) for r in ("play", "draw", "pass"))
        self.handlers = build_handlers(self, self.table)

    def initial_state(self, seed: int | None) -> State:
        rng = make_rng(seed)
        deck = [int(k) for k in rng.permutation([k for k, c in enumerate(self.cards.counts) for _ in range(c)])]
        hands = [[0] * self.K for _ in range(self.n)]
        for hand in hands:
            for _ in range(self.cards.hand_size):
                hand[deck.pop()] += 1
        return State(rng=rng, deck=deck, hands=hands, discard=[0] * self.K, scores=[0] * self.n)

    def _compute_legal(self, s: State) -> list[int]:
        if s.over:
            return []
        hand = s.hands[s.current]
        legal = [self.PLAY + k for k in range(self.K) if hand[k]]
        if s.deck and sum(hand) < self.cards.max_hand:
            legal.append(self.DRAW)
        return legal + [self.PASS]

    def act_play(self, s: State, kind: int) -> None:
        s.hands[s.current][kind] -= 1
        s.discard[kind] += 1
        s.scores[s.current] += self.cards.values[kind]
        self._end_turn(s)

    def act_draw(self, s: State, _: int) -> None:
        s.hands[s.current][s.deck.pop()] += 1
        self._end_turn(s)

    def act_pass(self, s: State, _: int) -> None:
        self._end_turn(s)

    def _end_turn(self, s: State) -> None:
        s.turn += 1
        s.current = s.turn % self.n
        s.over = int(s.turn >= self.total_turns)

    def turns_played(self, s: State) -> int:
        return s.turn

    def winners(self, s: State) -> list[int]:
        """Seats with the highest score."""
        best = max(s.scores)
        return [p for p, v in enumerate(s.scores) if v == best]

    def validate(self, s: State) -> None:
        n, K, c = self.n, self.K, self.cards
        top = max(c.counts)
        check_ints(s.deck, None, 0, K - 1, "deck")
        check_rows(s.hands, n, K, 0, top, "hands")
        check_ints(s.discard, K, 0, top, "discard")
        check_ints(s.scores, n, 0, c.total_value, "scores")
        check_int(s.turn, 0, self.total_turns, "turn")
        check_int(s.current, 0, n - 1, "current")
        check_int(s.over, 0, 1, "over")
        req(s.current == s.turn % n, "current must be turn mod the number of players")
        req(s.over == int(s.turn >= self.total_turns), "the over flag disagrees with the turn")
        for k in range(K):
            held = s.deck.count(k) + sum(h[k] for h in s.hands) + s.discard[k]
            req(held == c.counts[k], f"{c.names[k]} cards are not conserved ({held} of {c.counts[k]})")
        req(all(sum(h) <= c.max_hand for h in s.hands), f"a hand holds more than {c.max_hand} cards")
        req(sum(s.scores) == sum(v * d for v, d in zip(c.values, s.discard)), "the scores disagree with the cards played")

    def resample_hidden(self, s: State, observer: int, seed: int | None) -> State:
        """A copy in which the other hands and the deck are redealt from the cards ``observer`` has not seen."""
        c = self.clone(s)
        others = [p for p in range(self.n) if p != observer]
        pool = list(c.deck) + [k for p in others for k in range(self.K) for _ in range(c.hands[p][k])]
        pool = [int(k) for k in make_rng(seed).permutation(pool)] if pool else []
        for p in others:
            size, c.hands[p] = sum(c.hands[p]), [0] * self.K
            for _ in range(size):
                c.hands[p][pool.pop()] += 1
        c.deck = pool
        c.legal = None
        return c
