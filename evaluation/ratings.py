"""OpenSkill Plackett-Luce ratings of a symmetric tournament, with one policy pinned as the anchor.

The method (one free-for-all match per game, ranks by final reward, several seats of one policy,
the anchor) is in ``docs/evaluation.md``. ``openskill`` (the ``tools`` extra) is imported on use.
"""

from __future__ import annotations

from collections.abc import Sequence

from mythzoo.evaluation.outcome import outcome

# OpenSkill scale: the model's defaults (mu 25, sigma 25/3); the anchor is pinned at ANCHOR_MU with a
# small ANCHOR_SIGMA (it is a known reference point, not a player whose skill is being estimated).
MODEL_MU = 25.0
MODEL_SIGMA = 25.0 / 3.0
ANCHOR_MU = 25.0
ANCHOR_SIGMA = 1.0


def rate_games(
    games: Sequence[tuple[Sequence[str], Sequence[float]]],
    labels: Sequence[str],
    anchor: str | None = None,
    anchor_mu: float = ANCHOR_MU,
    anchor_sigma: float = ANCHOR_SIGMA,
) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett-Luce ratings ``{label: (mu, sigma)}`` from games given in order as
    (label per seat, final reward per seat).

    Each game is one free-for-all match, one seat per team, ranked by final reward (ties share a
    rank). A policy in several seats of one game rates each seat from its current rating and
    moves by the mean change of its seats (sigma: the mean new sigma). ``anchor``'s rating is
    reset to (``anchor_mu``, ``anchor_sigma``) before the first and after every game, so the
    scale is fixed: ratings read relative to it."""
    from mythzoo.extras import import_optional

    PlackettLuce = import_optional("openskill.models", "OpenSkill ratings").PlackettLuce
    model = PlackettLuce(mu=MODEL_MU, sigma=MODEL_SIGMA)
    ratings = {lab: (MODEL_MU, MODEL_SIGMA) for lab in labels}
    if anchor is not None:
        if anchor not in ratings:
            raise ValueError(f"anchor {anchor!r} is not among the policies {list(labels)}")
        ratings[anchor] = (anchor_mu, anchor_sigma)
    for seat_labels, rewards in games:
        if len(set(seat_labels)) < 2:
            continue  # one policy against itself says nothing about its rating
        teams = [[model.rating(mu=ratings[lab][0], sigma=ratings[lab][1])] for lab in seat_labels]
        ranks = [float(r) for r in outcome(rewards).seat_ranks()]
        new = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = {}
        for lab, team in zip(seat_labels, new):
            moves.setdefault(lab, []).append((team[0].mu - ratings[lab][0], team[0].sigma))
        for lab, m in moves.items():
            ratings[lab] = (ratings[lab][0] + sum(d for d, _ in m) / len(m), sum(s for _, s in m) / len(m))
        if anchor is not None:
            ratings[anchor] = (anchor_mu, anchor_sigma)
    return ratings
