"""mythzoo in TorchRL: TorchRL's own ``PettingZooWrapper``, with one fix for a finished game.

TorchRL's AEC path takes the action mask of ``agent_selection`` from its observation and gives
every other agent an all-true mask (its action is ignored). It does so even when ``agent_selection``
is already terminated or truncated: mythzoo, like PettingZoo's chess, reports an all-zero mask for an
agent that has nothing left to do, and TorchRL puts that mask on its action spec. Anything that then
samples the spec at the terminal state fails with "invalid multinomial distribution"; ``check_env_specs``
does exactly that (``env.rand_action`` on the last step of its 3-step rollout), so it fails on every
seed whose game ends within 3 decisions (Mythsgate seeds 0, 1 and 2, where the Invoker's first
``end_turn`` ends the game).

:class:`PettingZooWrapper` below gives a finished ``agent_selection`` the all-true mask TorchRL gives
every agent that is not to act; the masks of agents that must act are the env's, unchanged. Use it
exactly as ``torchrl.envs.PettingZooWrapper``.

Needs the ``torchrl`` extra: ``pip install mythzoo[torchrl]``.
"""

from __future__ import annotations

import warnings
from typing import Any

try:
    from torchrl.data import Categorical, OneHot
    from torchrl.envs import PettingZooWrapper as _TorchRLPettingZooWrapper
except ImportError as e:  # one line, naming the extra
    raise ImportError(f"mythzoo.adapters.torchrl needs TorchRL ({e.name} is missing): pip install mythzoo[torchrl]") from None

__all__ = ["PettingZooWrapper"]


class PettingZooWrapper(_TorchRLPettingZooWrapper):
    """``torchrl.envs.PettingZooWrapper`` whose action spec stays sampleable once the game is over.

    Same arguments (``env=``, ``use_mask=True`` for an AEC env, ``group_map=``, ``return_state=``,
    ...). The one difference: a terminated or truncated ``agent_selection`` gets an all-true action
    mask, as TorchRL gives every agent that is not to act, instead of its all-zero one.
    """

    def _init_env(self) -> None:
        # TorchRL sizes the info specs with torch.as_tensor, which warns on a read-only array; the
        # role padder's idle masks are read-only on purpose (nothing may make a padded id legal).
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
            super()._init_env()

    def _update_action_mask(self, td: Any, observation_dict: dict, info_dict: dict) -> tuple[dict, dict]:
        observation_dict, info_dict = super()._update_action_mask(td, observation_dict, info_dict)
        if self.parallel:
            return observation_dict, info_dict
        env = self._env
        agent = env.agent_selection
        if not (env.terminations.get(agent, True) or env.truncations.get(agent, True)):
            return observation_dict, info_dict  # an agent to act keeps the env's mask
        for group, agents in self.group_map.items():
            if agent in agents and self.has_action_mask[group]:
                group_mask = td.get((group, "action_mask"))
                group_mask[agents.index(agent)] = True
                spec = self.input_spec["full_action_spec", group, "action"]
                if isinstance(spec, (Categorical, OneHot)):
                    spec.update_mask(group_mask.clone())
        return observation_dict, info_dict
