"""The TorchRL / Tianshou / SuperSuit stack: quiet loggers (their notices are not failures)."""

from __future__ import annotations

import logging
import warnings

logging.getLogger("torchrl").setLevel(logging.WARNING)  # a line per check_env_specs
warnings.filterwarnings("ignore", message=".*only 1D sequences are supported.*")  # Tianshou's 2-D return stats
