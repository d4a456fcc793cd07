"""fleetdyn.Batch (the plain simulation API), the parameter classes and the error translation."""

import os
import re

import numpy as np
import pytest

import fleetdyn
from conftest import ROOT


def test_batch_shapes_and_dtypes():
    b = fleetdyn.Batch(5, backend="cpu")
    assert (b.num_vehicles, b.model, b.backend, b.precision) == (5, "strut", "cpu", "fp64")
    b.set_initial_conditions(speed=10.0)
    b.step(50)
    s = b.snapshots()
    assert set(s) == {"time", "status", "position", "euler", "velocity", "omega_body", "wheel_spin"}
    for key, shape in [("time", (5,)), ("position", (5, 3)), ("euler", (5, 3)), ("velocity", (5, 3)),
                       ("omega_body", (5, 3)), ("wheel_spin", (5, 4))]:
        assert s[key].shape == shape and s[key].dtype == np.float64, key
    assert s["status"].dtype == np.int32 and s["status"].shape == (5,)
    np.testing.assert_allclose(s["time"], 50 * b.step_size, rtol=1e-12)
    assert b.state().shape == (b.state_size, 5)
    assert b.origins().shape == (2, 5)
    m = b.metrics()
    assert tuple(m) == fleetdyn.METRIC_NAMES and all(v.shape == (5,) for v in m.values())
    assert b.status().shape == (5,)


def test_inputs_move_the_vehicle_the_right_way():
    b = fleetdyn.Batch(2, backend="cpu")
    b.set_initial_conditions(speed=10.0)
    b.set_inputs(steer=np.array([0.0, 0.5]), throttle=0.2)
    b.step(1500)
    s = b.snapshots()
    assert s["position"][0, 0] > 12.0             # rolled forward
    assert abs(s["position"][0, 1]) < 0.05        # straight ahead without steering
    assert s["euler"][1, 2] > 0.3                 # steer left: yaw grows (ISO, + = left)
    assert s["position"][1, 1] > 1.0


def test_sideways_slide_starts_at_its_velocity():
    b = fleetdyn.Batch(2, backend="cpu")
    b.set_initial_conditions(yaw=np.pi / 2, speed=1.0, lateral_speed=[0.0, 3.0])
    v = b.snapshots()["velocity"]
    # heading +y: forward is +y, the body's left is -x
    np.testing.assert_allclose(v[0], [0.0, 1.0, 0.0], atol=1e-9)
    np.testing.assert_allclose(v[1], [-3.0, 1.0, 0.0], atol=1e-9)


def test_maneuver_table_and_per_vehicle_initial_conditions():
    b = fleetdyn.Batch(3, backend="cpu")
    b.set_initial_conditions(x=[0.0, 10.0, 20.0], speed=5.0)
    b.set_maneuvers([np.array([[0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 1.0]]),
                     np.array([[0.0, 0.0, 0.5, 0.0]])], vehicle_table=[0, 1, 1])
    b.step(2000)
    s = b.snapshots()
    speed = np.linalg.norm(s["velocity"], axis=1)
    assert speed[0] < 0.5                     # braked to a stop
    assert speed[1] > 6.0 and speed[2] > 6.0  # accelerated
    assert s["position"][2, 0] - s["position"][1, 0] == pytest.approx(10.0, abs=1e-6)


def test_deterministic_reruns():
    def run():
        b = fleetdyn.Batch(4, backend="cpu", params={"tire.mu": [0.6, 0.7, 0.8, 0.9]})
        b.set_initial_conditions(speed=12.0)
        b.set_inputs(steer=0.4, throttle=0.3)
        b.step(400)
        return b.state()

    np.testing.assert_array_equal(run(), run())


def test_parameters_by_name():
    p = fleetdyn.hmmwv_params()
    assert set(p.keys()) == set(fleetdyn.vehicle_param_fields())
    assert "tire.mu" in p and "nonsense" not in p
    mass = p["total_mass"]
    q = p.copy()
    q["total_mass"] = mass + 100.0
    q.finalize()
    assert q["total_mass"] == mass + 100.0 and p["total_mass"] == mass
    with pytest.raises(KeyError, match="unknown vehicle parameter 'nonsense'.*known: total_mass"):
        p["nonsense"]
    with pytest.raises(ValueError, match=r"'tire.mu' = 7.0 is outside \[0.05, 3.0\]"):
        p["tire.mu"] = 7.0
    # Per-vehicle overrides by name: a dict of numbers or arrays.
    b = fleetdyn.Batch(3, backend="cpu", params={"tire.mu": [0.5, 0.8, 1.0], "cg_height": 0.9})
    assert [b.params(v)["tire.mu"] for v in range(3)] == [0.5, 0.8, 1.0]
    assert all(b.params(v)["cg_height"] == 0.9 for v in range(3))
    # A list of parameter objects.
    b2 = fleetdyn.Batch(2, backend="cpu", params=[p, q])
    assert b2.params(1)["total_mass"] == mass + 100.0


@pytest.mark.parametrize("value, shown", [(-5.0, "-5"), (1e9, "1e+09"), (float("inf"), "inf"), (float("nan"), "nan")])
def test_bad_parameters_are_refused_by_name(value, shown):
    # The dict of overrides, a list of parameter objects and the object's own setter: each refuses
    # the value, naming the field, its value and its allowed range.
    with pytest.raises(fleetdyn.Error, match=re.escape(f"tire.mu = {shown} is outside [0.05, 3]")):
        fleetdyn.Batch(2, backend="cpu", params={"tire.mu": value})
    with pytest.raises(fleetdyn.Error, match=re.escape(f"tire.mu = {shown} is outside [0.05, 3]")):
        fleetdyn.Batch(2, backend="cpu", params={"tire.mu": [0.8, value]})
    p = fleetdyn.hmmwv_params()
    with pytest.raises(ValueError, match=r"'tire.mu' = .* is outside \[0.05, 3.0\]"):
        p["tire.mu"] = value


def test_ce_model():
    cp = fleetdyn.hmmwv_ce_params()
    assert set(cp.keys()) == set(fleetdyn.ce_param_fields())
    b = fleetdyn.Batch(2, model="ce", backend="cpu", params={"chassis_mass": [cp["chassis_mass"], cp["chassis_mass"] + 200]})
    assert b.model == "ce" and b.step_size == fleetdyn.ce_default_step(cp)
    assert b.ce_params(1)["chassis_mass"] == cp["chassis_mass"] + 200
    b.set_initial_conditions(speed=8.0)
    b.step(200)
    s = b.snapshots()
    assert np.all(np.isfinite(s["position"])) and np.all(s["position"][:, 0] > 2.0)


def test_pgs_model():
    cp = fleetdyn.hmmwv_ce_params()
    b = fleetdyn.Batch(2, model="pgs", backend="cpu", params={"chassis_mass": [cp["chassis_mass"], cp["chassis_mass"] + 200]})
    assert b.model == "pgs" and b.step_size == pytest.approx(1e-3)
    assert b.ce_params(1)["chassis_mass"] == cp["chassis_mass"] + 200
    defaults = b.pgs_settings(0)                   # fleetdyn::PgsVehicleDef's
    assert set(defaults) == {"iterations", "baumgarte", "warm_start", "wheel_contact"} and defaults["wheel_contact"] == "tire"
    # Placed at rest on flat ground (ce's rest state on the 17 bodies), it stays there: 0.2 s.
    start = b.snapshots()["position"].copy()
    b.step(200)
    s = b.snapshots()
    assert np.all(s["status"] == 0)
    assert np.max(np.linalg.norm(s["position"] - start, axis=1)) < 1e-3
    assert np.max(np.linalg.norm(s["velocity"], axis=1)) < 0.05


def test_pgs_solver_settings():
    settings = {"iterations": 45, "baumgarte": 0.3, "warm_start": 0.5, "wheel_contact": "rows", "friction_cone": "pyramid"}
    b = fleetdyn.Batch(1, model="pgs", backend="cpu", pgs=settings)
    assert b.pgs_settings(0) == settings
    # The sweep count changes the motion: 0.1 s of a step steer with 5 sweeps ends elsewhere than
    # with 30 (the joints drift more with fewer sweeps: tests/test_scenario.cpp measures it).
    def run(iterations):
        b = fleetdyn.Batch(1, model="pgs", backend="cpu", pgs={"iterations": iterations})
        b.set_initial_conditions(speed=15.0)
        b.set_maneuvers(np.array([[0.0, 0.0, 0.1, 0.0], [0.05, 0.1, 0.1, 0.0]]))
        b.step(100)
        return b.snapshots()

    few, default = run(5), run(30)
    assert np.all(few["status"] == 0) and np.all(default["status"] == 0)
    assert default["euler"][0, 2] > 0.0                        # turned left
    assert not np.array_equal(few["position"], default["position"])
    for bad, error, match in [
        ({"iterations": 0}, ValueError, r"pgs\['iterations'\]: 0 is outside \[1, 10000\]"),
        ({"iterations": 2.5}, TypeError, r"pgs\['iterations'\]: expected an integer"),
        ({"baumgarte": 1.5}, ValueError, r"pgs\['baumgarte'\]: 1.5 is outside \[0, 1\]"),
        ({"warm_start": "full"}, TypeError, r"pgs\['warm_start'\]: expected a number"),
        ({"wheel_contact": "rigid"}, ValueError, r"unknown value 'rigid' \(known: tire, rows\)"),
        ({"friction_cone": "pyramid"}, ValueError, "give it with wheel_contact='rows'"),
        ({"sweeps": 10}, ValueError, r"pgs: unknown key 'sweeps' \(known: iterations,"),
    ]:
        with pytest.raises(error, match=match):
            fleetdyn.Batch(1, model="pgs", backend="cpu", pgs=bad)
    with pytest.raises(ValueError, match="solver settings of the pgs model, but model is 'ce'"):
        fleetdyn.Batch(1, model="ce", backend="cpu", pgs={"iterations": 50})
    with pytest.raises(ValueError, match=r"unknown model 'pgss' \(known: strut, ce, pgs\)"):
        fleetdyn.Batch(1, model="pgss")
    with pytest.raises(fleetdyn.Error, match="needs flat terrain"):
        fleetdyn.Batch(1, model="pgs", backend="cpu", terrain={"type": "plane", "slope": 0.05}, pgs={"wheel_contact": "rows"})
    with pytest.raises(fleetdyn.Error, match="pgs_params: this batch runs the ce model"):
        fleetdyn.Batch(1, model="ce", backend="cpu").pgs_settings(0)


def test_terrain_description():
    b = fleetdyn.Batch(1, backend="cpu", terrain={"type": "plane", "slope": 0.1})
    b.step(10)
    with pytest.raises(ValueError, match="unknown key 'slop'"):
        fleetdyn.Batch(1, terrain={"type": "plane", "slop": 0.1})


def test_cpp_errors_keep_their_message():
    with pytest.raises(fleetdyn.Error) as e:
        fleetdyn.Batch(0, backend="cpu")
    assert re.fullmatch(r"vehicle count must be in \[1, \d+\] for the strut model, got 0", str(e.value)), str(e.value)
    assert isinstance(e.value, RuntimeError)
    with pytest.raises(fleetdyn.Error) as e:
        fleetdyn.vehicle_preset("nope")
    assert str(e.value) == "unknown vehicle preset 'nope' (known: hmmwv)"
    b = fleetdyn.Batch(1, backend="cpu")
    with pytest.raises(fleetdyn.Error) as e:
        b.set_vehicle_state(0, np.zeros(3))
    assert str(e.value) == f"set_vehicle_state: expected {b.state_size} values, got 3"
    message = "some: message with 'quotes' and \u00e9 ünïcode\nand a second line"
    with pytest.raises(fleetdyn.Error) as e:
        fleetdyn._fleetdyn._raise_error(message)
    assert str(e.value) == message


def test_scenario():
    path = os.path.join(ROOT, "scenarios", "default.yaml")
    if not fleetdyn.has_scenarios:
        with pytest.raises(fleetdyn.Error, match="built without the scenario reader"):
            fleetdyn.Batch.from_scenario(path)
        return
    info = fleetdyn.scenario_info(path)
    b = fleetdyn.Batch.from_scenario(path)
    assert b.num_vehicles == info["vehicles"] and b.step_size == pytest.approx(info["step"])
    b.step(20)
    assert np.all(np.isfinite(b.snapshots()["position"]))
    with pytest.raises(fleetdyn.Error, match=re.escape("no/such.yaml")):
        fleetdyn.Batch.from_scenario("no/such.yaml")
