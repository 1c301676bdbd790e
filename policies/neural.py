"""Network policies in pure numpy: a trained actor served without torch.

A checkpoint is a dict of named float arrays plus an ``arch`` dict saying how to wire them.
The one architecture so far is a multilayer perceptron::

    arch = {"type": "mlp", "obs_size": 460, "action_size": 132, "hidden": [256, 256], "activation": "tanh"}

with weights ``layers.{i}.weight`` of shape ``(out, in)`` (as ``torch.nn.Linear`` stores them) and
``layers.{i}.bias`` of shape ``(out,)``, for ``i`` in ``0..len(hidden)``; the last layer gives the
action logits. :func:`mlp_weights_from_sb3` converts a Stable-Baselines3 (Maskable)PPO actor's
state dict (already turned into numpy arrays by the caller) to this layout, so serving a policy
needs neither torch nor SB3.

``MLPPolicy.act_batch`` runs one matrix product per layer for the whole batch, masks illegal
actions to ``-inf`` and takes the argmax (``deterministic=True``, the default) or samples from
the masked softmax with its own seeded ``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import re

import numpy as np

from mythzoo.policies.base import BasePolicy

ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0, out=x),
}
ARCH_KEYS = ("type", "obs_size", "action_size", "hidden", "activation")


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 1:
        raise ValueError(f"arch {what} must be a positive int, got {value!r}")
    return int(value)


def validate_arch(arch: Mapping[str, Any]) -> dict[str, Any]:
    """A normalized copy of an MLP ``arch`` dict; ``ValueError`` naming the first bad field."""
    if not isinstance(arch, Mapping):
        raise ValueError(f"arch must be a dict, got {type(arch).__name__}")
    if arch.get("type") != "mlp":
        raise ValueError(f"unknown arch type {arch.get('type')!r}; supported: 'mlp'")
    unknown = sorted(set(arch) - set(ARCH_KEYS))
    missing = [k for k in ARCH_KEYS if k not in arch]
    if unknown or missing:
        raise ValueError(f"arch keys must be exactly {list(ARCH_KEYS)}; missing {missing}, unknown {unknown}")
    hidden = arch["hidden"]
    if not isinstance(hidden, (list, tuple)):
        raise ValueError(f"arch hidden must be a list of positive ints, got {hidden!r}")
    if arch["activation"] not in ACTIVATIONS:
        raise ValueError(f"arch activation must be one of {sorted(ACTIVATIONS)}, got {arch['activation']!r}")
    return {
        "type": "mlp",
        "obs_size": _positive_int(arch["obs_size"], "obs_size"),
        "action_size": _positive_int(arch["action_size"], "action_size"),
        "hidden": [_positive_int(h, f"hidden[{i}]") for i, h in enumerate(hidden)],
        "activation": str(arch["activation"]),
    }


def mlp_weight_shapes(arch: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """The name and shape of every array an MLP with ``arch`` needs, in layer order."""
    a = validate_arch(arch)
    sizes = [a["obs_size"], *a["hidden"], a["action_size"]]
    shapes: dict[str, tuple[int, ...]] = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        shapes[f"layers.{i}.weight"] = (n_out, n_in)
        shapes[f"layers.{i}.bias"] = (n_out,)
    return shapes


# Tensors under this prefix are training state (e.g. the critic, for resuming); acting ignores them.
TRAINING_STATE_PREFIX = "train."


def validate_mlp_weights(weights: Mapping[str, Any], arch: Mapping[str, Any]) -> None:
    """Check that ``weights`` has exactly the arrays ``arch`` needs, with their shapes, finite floats."""
    shapes = mlp_weight_shapes(arch)
    missing = [k for k in shapes if k not in weights]
    unknown = sorted(k for k in set(weights) - set(shapes) if not k.startswith(TRAINING_STATE_PREFIX))
    if missing or unknown:
        raise ValueError(f"weights do not match arch: missing {missing}, unexpected {unknown}")
    for key, shape in shapes.items():
        w = np.asarray(weights[key])
        if w.shape != shape:
            raise ValueError(f"weight {key!r} has shape {w.shape}, arch {dict(arch)} needs {shape}")
        if not np.issubdtype(w.dtype, np.floating):
            raise ValueError(f"weight {key!r} has dtype {w.dtype}; expected a float dtype")
        if not np.isfinite(w).all():
            raise ValueError(f"weight {key!r} holds NaN or infinite values")


def mlp_weights_from_arrays(
    layers: Sequence[tuple[Any, Any]], activation: str = "tanh"
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(weights, arch)`` from ``[(W0, b0), (W1, b1), ...]``, each ``W`` shaped ``(out, in)``; last layer = logits."""
    if not layers:
        raise ValueError("need at least one (weight, bias) layer")
    weights: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(layers):
        weights[f"layers.{i}.weight"] = np.ascontiguousarray(np.asarray(w, dtype=np.float32))
        weights[f"layers.{i}.bias"] = np.ascontiguousarray(np.asarray(b, dtype=np.float32))
        if weights[f"layers.{i}.weight"].ndim != 2:
            raise ValueError(f"layer {i} weight must be 2-D (out, in), got shape {weights[f'layers.{i}.weight'].shape}")
    first = weights["layers.0.weight"]
    last = weights[f"layers.{len(layers) - 1}.weight"]
    arch = {
        "type": "mlp",
        "obs_size": int(first.shape[1]),
        "action_size": int(last.shape[0]),
        "hidden": [int(weights[f"layers.{i}.weight"].shape[0]) for i in range(len(layers) - 1)],
        "activation": activation,
    }
    validate_mlp_weights(weights, arch)
    return weights, arch


_SB3_POLICY_NET = re.compile(r"^mlp_extractor\.policy_net\.(\d+)\.weight$")


def mlp_weights_from_sb3(state_dict: Mapping[str, Any], activation: str = "tanh") -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(weights, arch)`` from an SB3 (Maskable)PPO policy state dict with numpy values.

    Uses the actor only: ``mlp_extractor.policy_net.{k}.weight/bias`` in order of ``k``, then
    ``action_net.weight/bias``. Convert tensors first (``{k: v.detach().cpu().numpy() ...}``); this
    function imports neither torch nor SB3. Assumes the flatten features extractor (no weights).
    """
    indices = sorted(int(m.group(1)) for k in state_dict if (m := _SB3_POLICY_NET.match(k)))
    if "action_net.weight" not in state_dict:
        raise ValueError("state dict has no 'action_net.weight': not an SB3 actor-critic policy")
    layers = [(state_dict[f"mlp_extractor.policy_net.{k}.weight"], state_dict[f"mlp_extractor.policy_net.{k}.bias"]) for k in indices]
    layers.append((state_dict["action_net.weight"], state_dict["action_net.bias"]))
    return mlp_weights_from_arrays(layers, activation)


def init_mlp_weights(
    obs_size: int, action_size: int, hidden: Sequence[int] = (64, 64), activation: str = "tanh", seed: int | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Freshly initialized ``(weights, arch)`` (scaled normal weights, small random biases) from ``seed``."""
    rng = np.random.default_rng(seed)
    sizes = [obs_size, *hidden, action_size]
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        layers.append((rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_out, n_in)), rng.normal(0.0, 0.1, n_out)))
    return mlp_weights_from_arrays(layers, activation)


class MLPPolicy(BasePolicy):
    """A numpy MLP actor: masked argmax (default) or masked-softmax sampling over its logits."""

    name = "mlp"

    def __init__(
        self,
        weights: Mapping[str, Any],
        arch: Mapping[str, Any],
        *,
        deterministic: bool = True,
        seed: int | None = None,
        name: str | None = None,
    ):
        self.arch = validate_arch(arch)
        validate_mlp_weights(weights, self.arch)
        n = len(self.arch["hidden"]) + 1
        # Stored transposed, (in, out), so a batch is x @ W: one matrix product per layer.
        self._layers = [
            (
                np.ascontiguousarray(np.asarray(weights[f"layers.{i}.weight"], dtype=np.float32).T),
                np.asarray(weights[f"layers.{i}.bias"], dtype=np.float32).copy(),
            )
            for i in range(n)
        ]
        self._activation = ACTIVATIONS[self.arch["activation"]]
        self.obs_size = self.arch["obs_size"]
        self.action_size = self.arch["action_size"]
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        if name is not None:
            self.name = name

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Unmasked action logits, shape ``(batch, action_size)``, for observations ``(batch, obs_size)``."""
        x = np.asarray(observations, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.obs_size:
            raise ValueError(f"observations must have shape (batch, {self.obs_size}), got {x.shape}")
        last = len(self._layers) - 1
        for i, (w, b) in enumerate(self._layers):
            x = x @ w
            x += b
            if i < last:
                x = self._activation(x)
        return x

    def _masked_logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks)
        if masks.ndim != 2 or masks.shape[1] != self.action_size:
            raise ValueError(f"action_masks must have shape (batch, {self.action_size}), got {masks.shape}")
        if masks.shape[0] != np.shape(observations)[0]:
            raise ValueError(f"{np.shape(observations)[0]} observations but {masks.shape[0]} action masks")
        legal = masks.astype(bool)
        if not legal.any(axis=1).all():
            raise ValueError("a row of action_masks has no legal action (is this agent to move?)")
        logits = self.logits(observations)
        logits[~legal] = -np.inf
        return logits

    def action_probs(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The masked softmax over actions per row (zero on illegal actions)."""
        z = self._masked_logits(observations, action_masks)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        return p

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One legal action per row: masked argmax, or a masked-softmax sample when not deterministic."""
        z = self._masked_logits(observations, action_masks)
        if not self.deterministic:
            # Gumbel-max: argmax(logits + Gumbel noise) is an exact sample from softmax(logits).
            z += self.rng.gumbel(size=z.shape).astype(np.float32)
        return z.argmax(axis=1).astype(np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """One legal action for one observation."""
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None], agent)[0])


# arch type -> builder(weights, arch, deterministic, seed, name); the registry serves any type listed here.
POLICY_BUILDERS: dict[str, Callable[..., BasePolicy]] = {"mlp": MLPPolicy}
ARCH_VALIDATORS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"mlp": validate_arch}
WEIGHT_VALIDATORS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], None]] = {"mlp": validate_mlp_weights}


def build_policy(
    weights: Mapping[str, Any], arch: Mapping[str, Any], *, deterministic: bool = True, seed: int | None = None, name: str | None = None
) -> BasePolicy:
    """The policy for ``arch['type']`` built from ``weights``."""
    kind = arch.get("type") if isinstance(arch, Mapping) else None
    if kind not in POLICY_BUILDERS:
        raise ValueError(f"unknown arch type {kind!r}; supported: {sorted(POLICY_BUILDERS)}")
    acting = {k: v for k, v in weights.items() if not k.startswith(TRAINING_STATE_PREFIX)}
    return POLICY_BUILDERS[kind](acting, arch, deterministic=deterministic, seed=seed, name=name)
