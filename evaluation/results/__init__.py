"""The three kinds of tournament result, one module each: symmetric games (ratings), team games
(pairings), solo games (returns). Each has ``table()``, ``to_dict()``, ``to_json()``, ``plot()``."""

from mythzoo.evaluation.results.base import RESULT_FORMAT, Result
from mythzoo.evaluation.results.roles import ROLES, PairingStats, RolePolicyStats, RoleTournamentResult, summarise_roles
from mythzoo.evaluation.results.solo import SOLO, SoloPolicyStats, SoloResult, summarise_solo
from mythzoo.evaluation.results.symmetric import PolicyStats, TournamentResult, summarise

SYMMETRIC = "symmetric"

__all__ = [
    "RESULT_FORMAT", "ROLES", "SOLO", "SYMMETRIC", "PairingStats", "PolicyStats", "Result", "RolePolicyStats",
    "RoleTournamentResult", "SoloPolicyStats", "SoloResult", "TournamentResult", "summarise", "summarise_roles", "summarise_solo",
]
