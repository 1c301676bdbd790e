"""mythzoo in other RL stacks: one module per library, each importing its library only when used.

Every adapter sees a game only through its public env API and its declared
:class:`~mythzoo.envs.core.spec.GameSpec` (roles, sizes, teams, utility, the bound on decisions),
so it works for every registered game. Importing this package imports none of those libraries;
each module needs its extra (``pip install mythzoo[<stack>]``) and says which when it is missing.

Layer: adapters import envs, policies and evaluation, never training.
"""
