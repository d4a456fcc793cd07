"""examples/train_ppo.py: PPO with PyTorch on the path-following task. It runs from the command line
and writes its learning curve; its env outputs reach torch without a copy; and a short training
measurably beats the zero action and the untrained policy on the same evaluation episodes, for
each of several training seeds. Skips without torch (it is not a dependency of the project)."""

import csv
import importlib.util
import math
import os
import sys

import numpy as np
import pytest

import fleetdyn
from conftest import ROOT

try:
    import torch
except ImportError:
    torch = None

# Every test skips without torch. (A skip of the whole module at import leaves pytest with no test
# collected, which it reports as a failure, exit code 5.)
pytestmark = pytest.mark.skipif(torch is None, reason="torch is not installed (examples/train_ppo.py needs it)")


def _example():
    spec = importlib.util.spec_from_file_location("train_ppo", os.path.join(ROOT, "examples", "train_ppo.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = mod  # dataclasses resolve the module's annotations through it
    spec.loader.exec_module(mod)
    return mod


ppo = _example() if torch is not None else None

# Small enough for seconds on two cores: 64 envs x 64 steps per update.
SMALL = dict(num_envs=64, rollout=64, device="cpu", verbose=False)


def test_command_line_writes_curve(tmp_path, capsys):
    curve = tmp_path / "curve.csv"
    ppo.main(["--quick", "--device", "cpu", "--total-steps", str(64 * 64 * 6), "--eval-envs", "16",
              "--curve", str(curve)])
    out = capsys.readouterr().out
    assert "update    6/6" in out and "trained policy" in out and "total wall time" in out
    with open(curve) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["env_steps", "wall_s", "mean_return"]
    steps = [int(r[0]) for r in rows[1:]]
    assert steps == [64 * 64 * k for k in range(1, 7)]
    walls = [float(r[1]) for r in rows[1:]]
    assert all(b >= a for a, b in zip(walls, walls[1:]))
    returns = [float(r[2]) for r in rows[1:] if r[2]]  # empty: no episode ended in that update
    assert returns and all(math.isfinite(r) for r in returns)


def test_bad_settings_name_the_field(capsys):
    with pytest.raises(ValueError, match=r"num_envs: 0 is outside \[1, 10000000\]"):
        ppo.check_config(ppo.Config(num_envs=0))
    with pytest.raises(ValueError, match=r"gamma: 1.5 is outside \[0.0, 1.0\]"):
        ppo.check_config(ppo.Config(gamma=1.5))
    with pytest.raises(ValueError, match=r"lr: nan is outside"):
        ppo.check_config(ppo.Config(lr=float("nan")))
    with pytest.raises(ValueError, match=r"rollout: expected an integer"):
        ppo.check_config(ppo.Config(rollout=2.5))
    with pytest.raises(ValueError, match=r"device: 'tpu' is not one of"):
        ppo.check_config(ppo.Config(device="tpu"))
    with pytest.raises(SystemExit) as e:
        ppo.main(["--num-envs", "0"])
    assert e.value.code == 2
    assert "--num-envs: 0 is outside [1, 10000000]" in capsys.readouterr().err
    ok, _ = fleetdyn.cuda_available() if fleetdyn.built_with_cuda else (False, "")
    if not (ok and torch.cuda.is_available()):
        with pytest.raises(SystemExit) as e:
            ppo.main(["--device", "cuda"])
        assert e.value.code == 2
        assert "--device: 'cuda' was asked for but is not usable: " in capsys.readouterr().err


def test_cpu_outputs_reach_torch_without_copy():
    if not ppo.CPU_VIEWS:
        pytest.skip(f"numpy {np.__version__} reads no bool arrays through DLPack: the env returns copies")
    env = ppo.make_env(8, torch.device("cpu"), seed=3, time_limit=1.0, cpu_threads=0)
    try:
        obs, _ = env.reset(seed=3)
        t = ppo.as_tensor(obs)
        assert t.data_ptr() == obs.ctypes.data and t.dtype == torch.float32
        actions = torch.zeros((8, 3))
        actions[:, 1] = 0.4
        obs2, reward, _, _, _ = env.step(ppo.env_action(actions))
        # The env's own buffers: the first observation's memory now holds the stepped one.
        assert ppo.as_tensor(obs2).data_ptr() == t.data_ptr()
        np.testing.assert_array_equal(t.numpy(), obs2)
        assert ppo.as_tensor(reward).data_ptr() == reward.ctypes.data
    finally:
        env.close()


def test_env_buffers_reach_torch():
    """The env's own buffers (DLPack views), flags included: torch 1.13 imports no DLPack bool, so
    those come through the host-copy fallback there; the values are the same either way."""
    env = fleetdyn.VectorEnv(num_envs=8, backend="cpu", seed=4, time_limit=0.1)
    try:
        env.reset(seed=4)
        actions = np.zeros((8, 3), np.float32)
        for _ in range(5):  # past the 0.1 s time limit: every episode truncated
            env.step(actions)
            views = env.buffers()
            for name in ("observations", "rewards", "truncated", "has_final", "final_returns"):
                t = ppo.as_tensor(views[name])
                np.testing.assert_array_equal(t.numpy(), views[name].numpy())
            assert ppo.as_tensor(views["truncated"]).dtype == torch.bool
            assert ppo.as_tensor(views["observations"]).data_ptr() == views["observations"].data_ptr
        assert ppo.as_tensor(views["truncated"]).all() and ppo.as_tensor(views["has_final"]).all()
    finally:
        env.close()


def test_evaluation_matches_the_cem_example():
    """The evaluation loop against an independent one (examples/train_cem.py's, numpy): the zero
    action on the same seeded episodes gives the same returns, episode for episode."""
    spec = importlib.util.spec_from_file_location("train_cem", os.path.join(ROOT, "examples", "train_cem.py"))
    cem = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cem)
    n, seed, horizon = 64, 77, 250
    cfg = ppo.Config(eval_envs=n, eval_seed=seed, time_limit=horizon * 0.02, device="cpu")
    zero = torch.zeros((n, 3))
    ours = ppo.evaluate(lambda obs: zero, cfg, torch.device("cpu"))
    probe = fleetdyn.VectorEnv(num_envs=1, backend="cpu")
    obs_size = len(probe.observation_names)
    probe.close()
    theirs, _, _ = cem.evaluate(np.zeros((2, obs_size + 1)), n, seed, horizon, 0, np.zeros(obs_size), np.ones(obs_size))
    assert np.isfinite(ours).all() and ours.std() > 1.0  # episodes that differ (some leave the road)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


def test_seeded_runs_repeat():
    cfg = ppo.Config(**SMALL, total_steps=64 * 64 * 2, eval_envs=0, seed=5)
    a = [c[2] for c in ppo.train(cfg)["curve"]]
    b = [c[2] for c in ppo.train(cfg)["curve"]]
    np.testing.assert_array_equal(a, b)


def test_training_beats_zero_and_untrained_policy():
    """For each training seed, the trained deterministic policy against the zero action and the
    untrained policy on the same 128 evaluation episodes (paired: same tracks, vehicles, starts)."""
    gains = []
    for seed in (0, 1, 2):
        cfg = ppo.Config(**SMALL, total_steps=64 * 64 * 30, eval_envs=128, seed=seed)
        r = ppo.train(cfg)
        trained, zero, untrained = r["eval_trained"], r["eval_zero"], r["eval_untrained"]
        assert np.isfinite(trained).all() and np.isfinite(zero).all()
        for base in (zero, untrained):
            diff = trained - base
            se = diff.std(ddof=1) / math.sqrt(len(diff))
            # Five paired standard errors: chance alone exceeds that with probability ~3e-7.
            assert diff.mean() > 5.0 * se, (seed, trained.mean(), base.mean(), se)
        gains.append(trained.mean() - zero.mean())
    # An absolute margin as well: 20 is about 20 m more progress along the track in 5 s (the zero
    # action coasts straight and leaves the road within the first bend, with the -50 crash penalty).
    assert min(gains) > 20.0, gains


def test_cuda_training_zero_copy():
    if not fleetdyn.built_with_cuda:
        pytest.skip("fleetdyn was built without CUDA")
    ok, why = fleetdyn.cuda_available()
    if not ok:
        pytest.skip(why)
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    env = ppo.make_env(256, torch.device("cuda"), seed=1, time_limit=2.0, cpu_threads=0)
    try:
        obs, _ = env.reset(seed=1)
        t = ppo.as_tensor(obs)
        assert t.is_cuda and t.data_ptr() == obs.data_ptr
    finally:
        env.close()
    cfg = ppo.Config(num_envs=1024, rollout=16, total_steps=1024 * 16 * 20, eval_envs=256, device="cuda",
                     verbose=False)
    r = ppo.train(cfg)
    assert r["device"].startswith("cuda")
    returns = [c[2] for c in r["curve"] if not math.isnan(c[2])]
    assert returns and all(math.isfinite(x) for x in returns)
    diff = r["eval_trained"] - r["eval_zero"]
    se = diff.std(ddof=1) / math.sqrt(len(diff))
    assert diff.mean() > 5.0 * se, (r["eval_trained"].mean(), r["eval_zero"].mean(), se)
