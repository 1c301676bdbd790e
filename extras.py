"""Which extra brings which optional library, and the one-line error for a missing one.

mythzoo's core (the envs, the baselines, playing games) needs only its required dependencies;
everything else comes with an extra (``pyproject.toml``): ``tools`` (the checkpoint registry,
ratings, intervals, plots) and ``train`` (PPO self-play: torch, Stable-Baselines3, sb3-contrib,
YAML configs, TensorBoard logs; it includes ``tools``). A command that needs a missing library
says which extra installs it (``mythzoo.cli.dispatch`` turns :class:`ModuleNotFoundError` into
that message). Imports nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable
from types import ModuleType

__all__ = ["EXTRA_OF", "MissingExtraError", "extra_of", "import_optional", "missing_extra_message", "missing_modules", "require"]

# The top-level module of each optional library -> the extra that installs it.
EXTRA_OF: dict[str, str] = {
    "safetensors": "tools",
    "openskill": "tools",
    "matplotlib": "tools",
    "scipy": "tools",
    "yaml": "train",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
}
# The name pip knows each by, where it differs from the module's.
DISTRIBUTION_OF = {"yaml": "pyyaml", "stable_baselines3": "stable-baselines3", "sb3_contrib": "sb3-contrib"}


class MissingExtraError(ModuleNotFoundError):
    """An optional library is not installed; the message names the extra that brings it."""


def extra_of(module: str | None) -> str | None:
    """The extra that installs ``module`` (or a submodule of it), or None if no extra does."""
    return EXTRA_OF.get((module or "").split(".")[0])


def missing_modules(modules: Iterable[str]) -> list[str]:
    """Those of ``modules`` that cannot be imported (not installed, or blocked), without importing them."""
    out = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # ValueError: sys.modules[name] is None (import blocked)
            found = False
        if not found:
            out.append(name)
    return out


def _message(modules: list[str], what: str) -> str:
    extras = sorted({EXTRA_OF[m.split(".")[0]] for m in modules}, key=["train", "tools"].index)
    names = ", ".join(DISTRIBUTION_OF.get(m, m) for m in modules)
    # train includes tools: one extra to install covers both
    extra = "train" if "train" in extras else extras[0]
    return f"{what} needs {names}, which {'is' if len(modules) == 1 else 'are'} not installed: pip install 'mythzoo[{extra}]'"


def missing_extra_message(error: ImportError, what: str = "this command") -> str | None:
    """The one-line message for ``error`` when it is a missing optional library, else None."""
    if isinstance(error, MissingExtraError):
        return str(error)
    name = getattr(error, "name", None)
    if not isinstance(error, ModuleNotFoundError) or extra_of(name) is None:
        return None
    return _message([name.split(".")[0]], what)


def require(modules: Iterable[str], what: str) -> None:
    """Raise :class:`MissingExtraError` naming the extra to install when any of ``modules`` is missing."""
    missing = missing_modules(modules)
    if missing:
        raise MissingExtraError(_message(missing, what), name=missing[0])


def import_optional(module: str, what: str) -> ModuleType:
    """``import module``, or :class:`MissingExtraError` naming the extra when its library is missing."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if extra_of(e.name) is None:
            raise
        raise MissingExtraError(_message([e.name.split(".")[0]], what), name=e.name) from None
