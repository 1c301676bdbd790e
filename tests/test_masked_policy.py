"""The rollout policy's lean forward pass gives exactly what sb3-contrib's masked policy gives."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from mythzoo.training.masked_policy import LeanMaskablePolicy


def _pair(obs_size: int = 40, n_actions: int = 17):
    obs_space = spaces.Box(-np.inf, np.inf, (obs_size,), np.float32)
    act_space = spaces.Discrete(n_actions)
    kw = {"net_arch": {"pi": [32, 32], "vf": [32, 32]}, "activation_fn": torch.nn.Tanh}
    torch.manual_seed(0)
    ref = MaskableActorCriticPolicy(obs_space, act_space, lambda _: 3e-4, **kw)
    lean = LeanMaskablePolicy(obs_space, act_space, lambda _: 3e-4, **kw)
    lean.load_state_dict(ref.state_dict())
    return ref, lean


def _batch(rng: np.random.Generator, n: int, obs_size: int, n_actions: int) -> tuple[torch.Tensor, np.ndarray]:
    obs = torch.as_tensor(rng.normal(size=(n, obs_size)).astype(np.float32))
    masks = rng.random((n, n_actions)) < 0.3
    masks[np.arange(n), rng.integers(n_actions, size=n)] = True  # at least one legal action per row
    masks[0] = False
    masks[0, 5] = True  # one row with a single legal action
    return obs, masks


@pytest.mark.parametrize("deterministic", [False, True])
@pytest.mark.parametrize("masked", [True, False])
def test_lean_forward_is_bit_identical_to_sb3_contribs(deterministic: bool, masked: bool) -> None:
    ref, lean = _pair()
    rng = np.random.default_rng(1)
    for trial in range(20):
        obs, masks = _batch(rng, 32, 40, 17)
        m = masks if masked else None
        with torch.no_grad():
            torch.manual_seed(trial)
            a_ref, v_ref, lp_ref = ref(obs, deterministic=deterministic, action_masks=m)
            torch.manual_seed(trial)
            a_lean, v_lean, lp_lean = lean(obs, deterministic=deterministic, action_masks=m)
        assert a_lean.dtype == a_ref.dtype and a_lean.shape == a_ref.shape == (32,)
        assert torch.equal(a_lean, a_ref), trial
        assert torch.equal(v_lean, v_ref) and torch.equal(lp_lean, lp_ref), trial
        if masked:
            assert masks[np.arange(32), a_lean.numpy()].all(), "only legal actions are drawn"
            assert a_lean[0] == 5


def test_lean_log_probabilities_are_what_the_update_recomputes() -> None:
    # PPO's ratio is exp(new log-prob - stored log-prob): at the rollout's weights it must be 1.
    _, lean = _pair()
    obs, masks = _batch(np.random.default_rng(2), 64, 40, 17)
    with torch.no_grad():
        actions, values, log_prob = lean(obs, action_masks=masks)
        v_eval, lp_eval, _ = lean.evaluate_actions(obs, actions, action_masks=masks)
    torch.testing.assert_close(lp_eval, log_prob)
    torch.testing.assert_close(v_eval, values)


def test_lean_sampling_follows_the_masked_softmax() -> None:
    _, lean = _pair(obs_size=6, n_actions=4)
    obs = torch.zeros((1, 6)).repeat(20_000, 1)
    masks = np.tile(np.array([[True, False, True, True]]), (20_000, 1))
    torch.manual_seed(0)
    with torch.no_grad():
        actions, _, log_prob = lean(obs, action_masks=masks)
    freq = np.bincount(actions.numpy(), minlength=4) / 20_000
    probs = np.zeros(4)
    for a in (0, 2, 3):
        probs[a] = np.exp(log_prob[actions == a][0].item())
    assert freq[1] == 0.0
    np.testing.assert_allclose(probs.sum(), 1.0, atol=1e-5)
    np.testing.assert_allclose(freq, probs, atol=0.015)  # about 4 standard errors at n = 20,000
