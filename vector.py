"""``mythzoo.vector``: many games of one env stepped together into preallocated arrays.

``mythzoo.vector.make("mythic_baths", num_envs=256, num_players=2)``; see :mod:`mythzoo.envs.vector`."""

from mythzoo.envs.vector import Batch, SoloVectorEnv, VectorGames, make, make_gymnasium

__all__ = ["Batch", "SoloVectorEnv", "VectorGames", "make", "make_gymnasium"]
