"""Mythic Baths: what lies face up on the table is in the observation, and what does not is not.

Through the public API only (``get_state``/``set_state``, ``step``, observations, ``render``,
``resample_hidden``). The rulebook's Setup 2 places the guest deck "dirty side up" (name, needs,
banner showing), so its top card is public; ingredient cards placed above a troublesome guest and
the replaced managers lie face up too. See docs/rules/mythic_baths.md (Setup, Troublesome guests,
Managers) for the passages and the decisions.
"""

from __future__ import annotations

import numpy as np

from mythzoo.envs import mythic_baths_v1


def _env(n: int = 2, seed: int = 3):
    e = mythic_baths_v1.raw_env(num_players=n, render_mode="ansi")
    e.reset(seed=seed)
    return e


def _view(e, agent: str, piece: str) -> np.ndarray:
    layout = e.observation_layout(agent)
    return layout.views(e.observe(agent)["observation"].copy())[piece]


def test_top_guest_of_the_guest_deck_is_public_in_the_observation_and_the_render():
    e = _env()
    g = e.rules.guests[e.get_state()["game"]["guest_deck"][-1]]
    cs = e.rules.cs
    fields = e.observation_layout("player_0").by_name["guest_deck_top"].axes[0]
    for agent in e.possible_agents:  # every seat sees it
        top = dict(zip(fields, _view(e, agent, "guest_deck_top")))
        assert top["present"] == 1.0 and top["troublesome"] == float(g.troublesome)
        assert abs(top["amber"] - g.amber / 10) < 1e-6 and top[f"creature_{cs.creatures[g.creature]}"] == 1.0
        assert [round(top[f"needs_{i}"] * 3) for i in cs.ingredients] == list(g.needs)
    assert f"Next guest (top of the guest deck): {g.name}" in e.render()
    state = e.get_state()
    state["game"]["collected"][1] += state["game"]["guest_deck"]  # an empty guest deck shows no top guest
    state["game"]["guest_deck"] = []
    e.set_state(state)
    assert not _view(e, "player_0", "guest_deck_top").any() and "Next guest" not in e.render()


def test_top_guest_of_the_guest_deck_is_shown_in_the_rgb_array_image():
    e = mythic_baths_v1.raw_env(num_players=2, render_mode="rgb_array")
    e.reset(seed=3)
    panel = (slice(214, 282), slice(520, 952))  # the "Next guest" tile beside the supply row
    state = e.get_state()
    deck = state["game"]["guest_deck"]
    before = e.render()[panel].copy()
    other = next(i for i in range(len(deck) - 1) if e.rules.guests[deck[i]].name != e.rules.guests[deck[-1]].name)
    deck[-1], deck[other] = deck[other], deck[-1]  # another guest on top, nothing else changed
    e.set_state(state)
    after = e.render()[panel]
    assert (before != after).any()
    state["game"]["collected"][1] += state["game"]["guest_deck"]
    state["game"]["guest_deck"] = []
    e.set_state(state)
    empty = e.render()[panel]
    assert len(np.unique(empty.reshape(-1, 3), axis=0)) == 1  # no tile, only the background


def test_resample_hidden_keeps_the_top_guest_and_redraws_the_rest():
    e = _env()
    deck = e.get_state()["game"]["guest_deck"]
    redrawn = [e.resample_hidden("player_1", seed=i)["game"]["guest_deck"] for i in range(8)]
    assert all(d[-1] == deck[-1] and sorted(d) == sorted(deck) for d in redrawn)
    assert len({tuple(d[:-1]) for d in redrawn}) > 1  # the face-down rest is still redrawn


def test_ingredient_kinds_on_a_partly_treated_troublesome_guest_are_observed():
    e = _env()
    state = e.get_state()
    g = state["game"]
    R = e.rules
    b = next(i for i, x in enumerate(g["bath_guest"]))
    trouble = next(x for x in g["guest_deck"] if R.guests[x].troublesome)
    g["guest_deck"][g["guest_deck"].index(trouble)] = g["bath_guest"][b]
    g["bath_guest"][b] = trouble
    need = R.guests[trouble].needs
    t = next(t for t in range(R.T) if need[t])
    k = R.kind_of_single[t]
    g["deck"].remove(k)
    g["bath_cards"][b] = [k]
    g["bath_filled"][b][t] = 1
    e.set_state(state)
    for agent in e.possible_agents:
        cards = _view(e, agent, "bath_cards")
        assert abs(cards[b, k] - 1 / 3) < 1e-6 and cards.sum() * 3 == 1.0
    assert f"cards placed: {R.cs.kind_label(k)}" in e.render()


def test_replaced_managers_are_observed():
    e = _env()
    state = e.get_state()
    g = state["game"]
    gone = g["manager_deck"].pop()
    g["manager_pile"] = [gone]
    e.set_state(state)
    v = _view(e, "player_0", "managers_gone")
    assert v[gone] == 1.0 and v.sum() == 1.0


def test_assumption_opponent_supply_takes_are_not_observed_only_hand_sizes():
    e = _env()
    obs = e.observe("player_0")["observation"].copy()
    state = e.get_state()
    g = state["game"]
    hand = g["hands"][1]
    k_out = next(k for k, c in enumerate(hand) if c)
    k_in = next(k for k in g["deck"] if k != k_out)
    hand[k_out] -= 1
    hand[k_in] += 1  # player 1 holds another card (as if it had taken another supply card)
    g["deck"].remove(k_in)
    g["deck"].append(k_out)
    e.set_state(state)
    assert np.array_equal(e.observe("player_0")["observation"], obs)
