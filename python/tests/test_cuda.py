"""The CUDA backend through DLPack: zero-copy observations in torch, the consumer's stream
honoured, device actions read in place. Skips (with the reason) without a GPU or torch."""

import numpy as np
import pytest

import fleetdyn


def _cuda_torch():
    if not fleetdyn.built_with_cuda:
        pytest.skip("fleetdyn was built without CUDA")
    ok, why = fleetdyn.cuda_available()
    if not ok:
        pytest.skip(why)  # "no CUDA device (the runtime's reason)"
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    return torch


def test_observations_zero_copy_into_torch():
    torch = _cuda_torch()
    n = 256
    env = fleetdyn.VectorEnv(num_envs=n, backend="cuda", seed=1)
    try:
        obs, _ = env.reset(seed=1)
        assert isinstance(obs, fleetdyn.BufferView) and obs.__dlpack_device__()[0] == 2
        t = torch.from_dlpack(obs)
        assert t.is_cuda and t.dtype == torch.float32 and tuple(t.shape) == obs.shape
        assert t.data_ptr() == obs.data_ptr  # no copy
        np.testing.assert_array_equal(t.cpu().numpy(), obs.numpy())
        # A consumer on its own stream sees the finished step (the env's stream is waited for).
        actions = torch.zeros((n, 3), device="cuda")
        actions[:, 1] = 0.5
        side = torch.cuda.Stream()
        for _ in range(5):
            obs, reward, terminated, truncated, info = env.step(actions)
            with torch.cuda.stream(side):
                t = torch.from_dlpack(obs).clone()
                r = torch.from_dlpack(reward).clone()
            side.synchronize()
            np.testing.assert_array_equal(t.cpu().numpy(), obs.numpy())
            np.testing.assert_array_equal(r.cpu().numpy(), reward.numpy())
        assert torch.from_dlpack(terminated).dtype == torch.bool
        assert torch.from_dlpack(info["final_obs"]).shape == t.shape
    finally:
        env.close()


def test_device_actions_equal_host_actions():
    torch = _cuda_torch()
    n = 64
    a = fleetdyn.VectorEnv(num_envs=n, backend="cuda", seed=2)
    b = fleetdyn.VectorEnv(num_envs=n, backend="cuda", seed=2)
    try:
        a.reset(seed=2)
        b.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(10):
            act = rng.uniform([-1, 0, 0], [1, 1, 1], size=(n, 3)).astype(np.float32)
            oa = a.step(act)[0].numpy()
            ob = b.step(torch.from_numpy(act).cuda())[0].numpy()
            np.testing.assert_array_equal(oa, ob)
        with pytest.raises(TypeError, match="expected float32"):
            b.step(torch.zeros((n, 3), device="cuda", dtype=torch.float64))
        with pytest.raises(ValueError, match=r"expected shape \(64, 3\)"):
            b.step(torch.zeros((n, 2), device="cuda"))
        nan = torch.zeros((n, 3), device="cuda")
        nan[7, 1] = float("nan")
        with pytest.raises(fleetdyn.Error, match="env 7 has a non-finite action"):
            b.step(nan)
    finally:
        a.close()
        b.close()


def test_cpu_env_rejects_cuda_tensors():
    torch = _cuda_torch()
    env = fleetdyn.VectorEnv(num_envs=4, backend="cpu")
    try:
        env.reset()
        with pytest.raises(ValueError, match="CUDA tensor was passed to an env on the CPU backend"):
            env.step(torch.zeros((4, 3), device="cuda"))
    finally:
        env.close()
