"""The shipped training presets, one folder per game: ``<game>/ppo.yaml`` (the real run) and
``<game>/quick.yaml`` (a few minutes on 2 cores). ``mythzoo.training.config`` finds them
through this package, so an installed wheel carries them. YAML data only: nothing here
imports anything.
"""
