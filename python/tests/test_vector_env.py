"""fleetdyn.VectorEnv on the CPU backend: API shapes and dtypes, determinism, masked resets, the
same-step autoreset convention, randomization ranges, action validation, zero-copy views."""

import gc
import re

import numpy as np
import pytest

import fleetdyn
from conftest import drive_actions


def test_shapes_dtypes_and_spaces(make_env):
    env = make_env(16, seed=1)
    n, d = 16, env.single_observation_space.shape[0]
    assert env.num_envs == n and len(env.observation_names) == d
    assert env.observation_space.shape == (n, d) and env.action_space.shape == (n, 3)
    assert env.single_action_space.shape == (3,)
    np.testing.assert_array_equal(env.single_action_space.low, [-1, 0, 0])
    np.testing.assert_array_equal(env.single_action_space.high, [1, 1, 1])
    # Gymnasium's enum where gymnasium is installed, the documented string without it.
    mode = env.metadata["autoreset_mode"]
    assert getattr(mode, "value", mode) == "SameStep"
    obs, info = env.reset(seed=0)
    assert isinstance(info, dict)
    assert obs.shape == (n, d) and obs.dtype == np.float32 and np.all(np.isfinite(obs))
    obs, reward, terminated, truncated, info = env.step(drive_actions(n))
    assert obs.shape == (n, d) and obs.dtype == np.float32
    assert reward.shape == (n,) and reward.dtype == np.float32
    assert terminated.shape == (n,) and terminated.dtype == np.bool_
    assert truncated.shape == (n,) and truncated.dtype == np.bool_
    assert env.backend == "cpu"


def test_config_keywords(make_env):
    env = make_env(4, decimation=10, time_limit=2.0, observations=["body_velocity", "path_errors"])
    c = env.config
    assert c["decimation"] == 10 and c["time_limit"] == 2.0
    assert env.max_episode_steps == 200  # 2 s / (10 x 1 ms)
    assert env.observation_names == ("body_velocity.x", "body_velocity.y", "body_velocity.z",
                                     "lateral_error", "heading_error")
    with pytest.raises(TypeError, match=r"unknown keyword 'decimations' \(known: .*decimation.*\)"):
        fleetdyn.VectorEnv(num_envs=4, decimations=10)
    with pytest.raises(fleetdyn.Error, match="unknown feature 'nope'"):
        fleetdyn.VectorEnv(num_envs=4, backend="cpu", observations=["nope"])
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        fleetdyn.VectorEnv(num_envs=4, backend="gpu")


def test_returned_arrays_are_copies_unless_asked(make_env):
    env = make_env(8, seed=2)
    obs0, _ = env.reset(seed=2)
    kept = obs0.copy()
    obs1, *_ = env.step(drive_actions(8, throttle=1.0))
    np.testing.assert_array_equal(obs0, kept)   # the first array was not overwritten
    assert not np.array_equal(obs0, obs1)
    views = make_env(8, seed=2, copy=False)
    v0, _ = views.reset(seed=2)
    np.testing.assert_array_equal(v0, kept)     # same seed: same first observation
    v1, *_ = views.step(drive_actions(8, throttle=1.0))
    assert np.shares_memory(v0, v1)             # views of the env's one buffer
    np.testing.assert_array_equal(v0, obs1)     # ... which the step overwrote


def rollout(env, seed, steps, rng_seed=7):
    rng = np.random.default_rng(rng_seed)
    out = [env.reset(seed=seed)[0]]
    finals = []
    for _ in range(steps):
        a = rng.uniform([-1, 0, 0], [1, 1, 0.3], size=(env.num_envs, 3)).astype(np.float32)
        obs, r, te, tr, info = env.step(a)
        out += [obs, r, te, tr]
        if info:
            finals += [info["final_obs"], info["_final_obs"], info["final_info"]["episode"]["r"]]
    return out, finals


def test_determinism_bit_identical(make_env):
    # Short episodes, so the run crosses autoresets (fresh tracks, parameters, states).
    kw = dict(seed=11, time_limit=0.4)
    a, fa = rollout(make_env(12, **kw), 5, 45)
    b, fb = rollout(make_env(12, **kw), 5, 45)
    assert len(fa) > 0 and len(fa) == len(fb)
    for x, y in zip(a + fa, b + fb):
        np.testing.assert_array_equal(x, y)
    # Same env, same seed again: the same run; another seed: another run.
    env = make_env(12, **kw)
    c, _ = rollout(env, 5, 45)
    d, _ = rollout(env, 5, 45)
    for x, y in zip(c, d):
        np.testing.assert_array_equal(x, y)
    e, _ = rollout(env, 6, 45)
    assert not np.array_equal(c[0], e[0])


def test_float64_actions_equal_float32(make_env):
    a = make_env(6, seed=3)
    b = make_env(6, seed=3)
    a.reset(seed=3)
    b.reset(seed=3)
    act = drive_actions(6, steer=0.25, throttle=0.5)
    oa = a.step(act)[0]
    ob = b.step(act.astype(np.float64))[0]
    np.testing.assert_array_equal(oa, ob)


def test_masked_reset_touches_only_masked_envs(make_env):
    n = 10
    env = make_env(n, seed=4)
    env.reset(seed=4)
    for _ in range(15):
        obs, *_ = env.step(drive_actions(n, steer=0.2, throttle=0.6))
    state_before = env.read_state()
    mass_before = env.episode_param("total_mass")
    mask = np.zeros(n, dtype=bool)
    mask[[1, 4, 7]] = True
    obs2, info = env.reset(options={"reset_mask": mask})
    state_after = env.read_state()
    keep = ~mask
    np.testing.assert_array_equal(obs2[keep], obs[keep])
    np.testing.assert_array_equal(state_after[:, keep], state_before[:, keep])
    np.testing.assert_array_equal(env.episode_param("total_mass")[keep], mass_before[keep])
    assert np.all(np.any(obs2[mask] != obs[mask], axis=1))
    assert np.all(np.any(state_after[:, mask] != state_before[:, mask], axis=0))
    # The reset envs start like fresh episodes: actuators at rest.
    names = env.observation_names
    np.testing.assert_array_equal(obs2[mask][:, names.index("throttle")], 0.0)
    assert np.all(obs2[keep][:, names.index("throttle")] > 0.1)
    with pytest.raises(ValueError, match="reset_mask: expected a 1-d array of num_envs"):
        env.reset(options={"reset_mask": np.ones(n + 1, dtype=bool)})
    with pytest.raises(ValueError, match="unknown option"):
        env.reset(options={"mask": mask})


def test_same_step_autoreset(make_env):
    n = 6
    env = make_env(n, seed=5, time_limit=0.2)  # 10 env steps per episode
    assert env.max_episode_steps == 10
    obs, _ = env.reset(seed=5)
    throttle = env.observation_names.index("throttle")
    mass0 = env.episode_param("total_mass")
    total = np.zeros(n)
    for k in range(10):
        obs, reward, terminated, truncated, info = env.step(drive_actions(n, throttle=1.0))
        total += reward
        if k < 9:
            assert info == {} and not truncated.any() and not terminated.any()
    # Step 10: every episode hit the time limit and was reset within the same step.
    assert truncated.all() and not terminated.any()
    assert info["_final_obs"].all() and info["_final_info"].all()
    final = info["final_obs"]
    assert np.all(final[:, throttle] > 0.5)       # the old episode's last observation
    np.testing.assert_array_equal(obs[:, throttle], 0.0)  # the new episode's first
    ep = info["final_info"]["episode"]
    np.testing.assert_array_equal(ep["l"], 10)
    np.testing.assert_allclose(ep["r"], total, rtol=1e-5)
    assert list(info["end_reason"]) == ["time_limit"] * n
    assert list(info["final_info"]["end_reason"]) == ["time_limit"] * n
    # Fresh parameters for the new episodes (never a cached copy of the first reset).
    assert np.all(env.episode_param("total_mass") != mass0)
    # The next step continues the new episodes.
    obs, reward, terminated, truncated, info = env.step(drive_actions(n))
    assert info == {} and not truncated.any()


def test_termination_reports_its_reason(make_env):
    n = 8
    env = make_env(n, seed=6, speed_min=15.0, speed_max=18.0, use_default_randomization=False)
    env.reset(seed=6)
    seen = set()
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(drive_actions(n, steer=1.0, throttle=1.0))
        done = terminated | truncated
        if info:
            np.testing.assert_array_equal(info["_final_obs"], done)
            reasons = info["end_reason"][done]
            assert all(r in ("rollover", "off_road", "diverged") for r in reasons[terminated[done]])
            assert all(r in ("time_limit", "track_end") for r in reasons[truncated[done] & ~terminated[done]])
            seen.update(reasons)
        else:
            assert not done.any()
    assert seen & {"rollover", "off_road"}  # full lock at speed leaves the road or rolls


def test_randomization_ranges(make_env):
    n = 64
    env = make_env(n, seed=8)
    env.reset(seed=8)
    base = fleetdyn.hmmwv_params()
    checks = {"total_mass": (0.9, 1.15, True), "cg_height": (0.95, 1.1, True), "tire.mu": (0.7, 1.0, False)}
    for name, (lo, hi, relative) in checks.items():
        v = env.episode_param(name)
        scale = base[name] if relative else 1.0
        assert np.all(v >= lo * scale - 1e-9) and np.all(v <= hi * scale + 1e-9), name
        assert v.max() - v.min() > 0.5 * (hi - lo) * scale, name  # actually spread over the range
    custom = make_env(n, seed=8, use_default_randomization=False,
                      randomize=[("tire.mu", 0.3, 0.4, False), {"name": "total_mass", "lo": 1.2, "hi": 1.3}])
    custom.reset(seed=8)
    mu = custom.episode_param("tire.mu")
    mass = custom.episode_param("total_mass")
    assert np.all((mu >= 0.3) & (mu <= 0.4)) and np.ptp(mu) > 0.05
    assert np.all((mass >= 1.2 * base["total_mass"] - 1e-9) & (mass <= 1.3 * base["total_mass"] + 1e-9))
    # Not randomized: the base value itself (as the fp32 env holds it).
    np.testing.assert_array_equal(custom.episode_param("cg_height"), np.float32(base["cg_height"]))
    # Exact per-env values without randomization, taking effect at the next reset.
    exact = make_env(4, seed=8, use_default_randomization=False)
    exact.set_base_param("tire.mu", [0.5, 0.6, 0.7, 0.8])
    exact.reset()
    np.testing.assert_array_equal(exact.episode_param("tire.mu"), np.float32([0.5, 0.6, 0.7, 0.8]))
    with pytest.raises(fleetdyn.Error, match="unknown vehicle parameter 'tire.muu'"):
        exact.set_base_param("tire.muu", 0.5)


def test_bad_actions_are_rejected(make_env):
    n = 5
    env = make_env(n, seed=9)
    ref = make_env(n, seed=9)
    env.reset(seed=9)
    ref.reset(seed=9)
    bad = drive_actions(n)
    bad[3, 0] = np.nan
    with pytest.raises(fleetdyn.Error) as e:
        env.step(bad)
    assert re.fullmatch(r"VectorEnv::step: env 3 has a non-finite action \(-?nan, 0\.300000, 0\.000000\); "
                        r"actions are steer, throttle, brake; no env was stepped", str(e.value)), str(e.value)
    inf = drive_actions(n)
    inf[0, 2] = np.inf
    with pytest.raises(fleetdyn.Error, match="env 0 has a non-finite action"):
        env.step(inf)
    with pytest.raises(ValueError, match=r"actions: expected shape \(5, 3\) .* got \(5, 2\)"):
        env.step(np.zeros((n, 2), np.float32))
    with pytest.raises(ValueError, match=r"expected shape \(5, 3\) .* got \(15,\)"):
        env.step(np.zeros(n * 3, np.float32))
    with pytest.raises(ValueError, match=r"expected shape \(5, 3\) .* got \(6, 3\)"):
        env.step(np.zeros((n + 1, 3), np.float32))
    with pytest.raises(TypeError, match="expected floating-point values .* got dtype int64"):
        env.step(np.zeros((n, 3), np.int64))
    with pytest.raises(TypeError, match="got dtype bool"):
        env.step(np.zeros((n, 3), bool))
    with pytest.raises(TypeError, match="got dtype <U1"):
        env.step(np.full((n, 3), "a"))
    # The rejected steps left every env as it was.
    good = drive_actions(n, steer=0.1)
    for x, y in zip(env.step(good)[:4], ref.step(good)[:4]):
        np.testing.assert_array_equal(x, y)


def test_zero_copy_views_through_dlpack(make_env):
    env = make_env(4, seed=10)
    obs, _ = env.reset(seed=10)
    buffers = env.buffers()
    view = buffers["observations"]
    assert view.__dlpack_device__() == (1, 0) and view.shape == obs.shape and view.dtype == np.float32
    a = np.from_dlpack(view)
    b = np.from_dlpack(view)
    assert np.shares_memory(a, b) and a.ctypes.data == view.data_ptr
    np.testing.assert_array_equal(a, obs)
    flags = np.from_dlpack(buffers["terminated"])
    assert flags.dtype == np.bool_ and flags.shape == (4,)
    assert np.from_dlpack(buffers["final_lengths"]).dtype == np.int32
    with pytest.raises(BufferError, match="copy=True"):
        view.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="lives on cpu"):
        view.__dlpack__(dl_device=(2, 0))
    # Legacy (unversioned) capsules too.
    assert "dltensor" in repr(view.__dlpack__())
    # A view keeps the env's buffers alive after the env is closed and dropped.
    keep = a.copy()
    env.close()
    del env, view, buffers, b
    gc.collect()
    np.testing.assert_array_equal(a, keep)


def test_closed_env(make_env):
    env = make_env(2)
    env.reset()
    env.close()
    env.close()  # idempotent
    with pytest.raises(fleetdyn.Error, match="the env is closed"):
        env.step(drive_actions(2))


def test_reach_speed_task(make_env):
    env = make_env(4, seed=12, task="reach_speed", road={"road_class": "B", "length": 800.0})
    obs, _ = env.reset(seed=12)
    assert "speed_error" in env.observation_names
    obs, reward, *_ = env.step(drive_actions(4, throttle=0.5))
    assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward))


def test_ce_model_shapes_determinism_and_rest_state(make_env):
    """model="ce": the 14-DOF vehicle behind the same API, with its own defaults (2 ms physics,
    decimation 10: 50 Hz control), a rest state solved at every reset for the drawn parameters,
    and bit-identical reruns across autoresets."""
    n = 6
    kw = dict(model="ce", seed=13, time_limit=0.3)  # 15 env steps per episode
    env = make_env(n, **kw)
    c = env.config
    assert c["model"] == "ce" and c["physics_step"] == pytest.approx(0.002) and c["decimation"] == 10
    assert env.max_episode_steps == 15
    d = env.single_observation_space.shape[0]
    obs, _ = env.reset(seed=13)
    assert obs.shape == (n, d) and obs.dtype == np.float32 and np.all(np.isfinite(obs))
    assert env.read_state().shape == (34, n)
    a, fa = rollout(env, 13, 20)
    b, fb = rollout(make_env(n, **kw), 13, 20)
    assert len(fa) > 0 and len(fa) == len(fb)  # crossed an autoreset
    for x, y in zip(a + fa, b + fb):
        np.testing.assert_array_equal(x, y)
    # The default randomization, and a rest state that carries each drawn vehicle's weight.
    base = fleetdyn.hmmwv_ce_params()
    mass = env.episode_param("chassis_mass")
    assert np.all(mass >= 0.9 * base["chassis_mass"] * (1 - 1e-6))
    assert np.all(mass <= 1.15 * base["chassis_mass"] * (1 + 1e-6))
    loads = env.read_static_loads()
    assert loads.shape == (4, n)
    # Vertical equilibrium: the tires carry the drawn chassis plus the same bodies and wheels in
    # every env (the HMMWV's ~505 kg of suspension bodies and wheels are not randomized).
    rest_of_vehicle = loads.sum(axis=0) / base["gravity"] - mass
    np.testing.assert_allclose(rest_of_vehicle, rest_of_vehicle[0], atol=0.01)
    assert 400.0 < rest_of_vehicle[0] < 600.0
    # Overrides by ce name; what randomize accepts; a clear error for what it does not.
    mu = make_env(2, model="ce", vehicle={"tire.mu": 0.6}, use_default_randomization=False)
    np.testing.assert_allclose(mu.episode_param("tire.mu"), 0.6, rtol=1e-6)
    assert mu.config["vehicle"]["tire.mu"] == pytest.approx(0.6)
    names = fleetdyn.env_randomizable_params("ce")
    assert "chassis_mass" in names and "spring_rate_rear" in names and "max_steer" not in names
    with pytest.raises(fleetdyn.Error, match=r"bump_stop_length_front\): not randomizable in the ce env"):
        make_env(2, model="ce", randomize=[("bump_stop_length_front", 0.9, 1.1)])
    with pytest.raises(KeyError, match="unknown ce parameter 'cg_height'"):
        make_env(2, model="ce", vehicle={"cg_height": 0.8})


def test_views_need_a_numpy_that_reads_bool_dlpack(monkeypatch):
    import fleetdyn._vector_env as venv
    monkeypatch.setattr(venv, "_numpy_version", lambda: (1, 24))
    with pytest.raises(ValueError, match=r"copy=False needs numpy >= 1\.25"):
        fleetdyn.VectorEnv(num_envs=2, backend="cpu", copy=False)
    fleetdyn.VectorEnv(num_envs=2, backend="cpu", copy=True).close()  # copies need nothing more
