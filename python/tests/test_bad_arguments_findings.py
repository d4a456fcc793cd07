"""Fixed cases of bad arguments: what the random table of test_bad_arguments.py found, each once."""

from bad_arguments_util import *  # noqa: F401,F403


def heightfield_batch():
    b = batch(terrain={"type": "heightfield", "heights": np.zeros((3, 4)), "dx": 5.0, "dy": 5.0, "x0": -5.0, "y0": -5.0})
    b.set_initial_conditions(speed=2.0)
    return run(b, 10)


def update_is_all_or_nothing():
    p = fleetdyn.hmmwv_params()
    with pytest.raises(fleetdyn.Error, match="total_mass"):
        p.update({"tire.mu": 0.5, "total_mass": 150.0})
    return p["tire.mu"], p["total_mass"]


@pytest.mark.parametrize("call, error, match", [
    # A crash: the default step was read from the first of no parameter sets.
    (lambda: batch(params=[]), ValueError, r"params: an empty list"),
    # Huge sizes attempted (allocation, a million threads, 2**31 substeps per step) before.
    (lambda: batch(num_vehicles=2**31 - 1), ValueError, r"num_vehicles: 2147483647 is above the strut model's maximum"),
    (lambda: batch(model="pgs", num_vehicles=10**7), ValueError, r"num_vehicles: 10000000 is above the pgs model's"),
    (lambda: batch(cpu_threads=10**6), ValueError, r"cpu_threads: 1000000 is outside \[0, 4096\]"),
    (lambda: batch(substeps=2**31 - 1), ValueError, r"substeps: 2147483647 is outside \[1, 1000\]"),
    (lambda: fleetdyn.circle_path(10.0, 5.0, points=10**8), ValueError, r"points = 100000000 is outside \[3, 16777216\]"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "num_envs": 2**31 - 1}), ValueError, r"num_envs: 2147483647 is above"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "cpu_threads": 10**6}), ValueError, r"cpu_threads.*1000000 is outside"),
    # Accepted before: NaN, inf, values out of range, wrong dtypes.
    (lambda: batch().set_vehicle_state(0, np.full(STATE_SIZE, np.nan)), ValueError, r"state: value 0 is nan"),
    (lambda: batch(terrain={"type": "hill", "radius": -1.0}), ValueError, r"terrain\['radius'\]"),
    (lambda: batch(params={"tire.mu": np.array([0.8, 0.9], complex)}), TypeError, r"params\['tire.mu'\]: expected a number"),
    (lambda: batch().set_inputs(steer=np.array([True, False])), TypeError, r"steer: expected a number"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "track_spacing": math.inf}), ValueError, r"track_spacing: inf is not finite"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "randomize": [("tire.mu", 0.5, 0.6)] * 2}), ValueError, r"randomized twice"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "randomize": [{"name": "tire.mu", "lo": 0.5}]}), ValueError, r"'hi'"),
    # Bare pybind11 cast errors (RuntimeError) or messages that named nothing before.
    (lambda: batch(step="0.001"), TypeError, r"step: expected a number, got '0.001' \(str\)"),
    (lambda: batch(terrain={"type": 3}), TypeError, r"terrain\['type'\]: expected a string"),
    (lambda: batch().set_maneuvers(TABLE, vehicle_table=[0, 2**40]), ValueError, r"vehicle_table\[1\]: 1099511627776"),
    (lambda: fleetdyn.hmmwv_params().update({3: 1.0}), TypeError, r"update: keys must be names"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "model": 3}), TypeError, r"model: expected a string, got 3"),
    (lambda: fleetdyn.VectorEnv(**{**BASE_ENV, "seed": -1}), ValueError, r"seed: -1 is outside \[0, 2\*\*64 - 1\]"),
    (lambda: env().reset(seed=-1), ValueError, r"reset: seed -1 is outside"),
    (lambda: env().buffers()["observations"].__dlpack__(max_version="x"), TypeError, r"max_version: expected a tuple"),
    # UnicodeDecodeError instead of the message (bytes that are not UTF-8 in it).
    (lambda: batch(model=b"\xff"), ValueError, r"unknown model '\\xff'"),
])
def test_findings_stay_fixed(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_findings_that_work_now(tmp_path):
    # A heightfield terrain from Python: any 'heights' raised TypeError before.
    assert np.all(np.isfinite(heightfield_batch()))
    # A refused update leaves the parameters as they were.
    assert update_is_all_or_nothing() == (0.8, fleetdyn.hmmwv_params()["total_mass"])
    # A device is no scenario file (read until memory ran out before); nor is a file that is not UTF-8
    # (UnicodeDecodeError before).
    if fleetdyn.has_scenarios:
        with pytest.raises(fleetdyn.Error, match="not a regular file"):
            fleetdyn.scenario_info("/dev/zero" if os.path.exists("/dev/zero") else os.devnull)
        path = tmp_path / "binary.yaml"
        path.write_bytes(b"duration: \xff\xfe\n")
        with pytest.raises(fleetdyn.Error, match=re.escape(str(path))):
            fleetdyn.Batch.from_scenario(str(path))
