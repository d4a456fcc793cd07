"""fleetdyn.load_vehicle: vehicle files as every model's parameters, from Python."""

import os

import numpy as np
import pytest

import fleetdyn
from conftest import ROOT

HMMWV = os.path.join(ROOT, "vehicles", "hmmwv.yaml")
LIGHT = os.path.join(ROOT, "tests", "data", "vehicles", "light_utility.yaml")

needs_reader = pytest.mark.skipif(not fleetdyn.has_scenarios,
                                  reason="this fleetdyn module was built without the file readers")


@needs_reader
def test_hmmwv_file_is_the_preset():
    v = fleetdyn.load_vehicle(HMMWV)
    assert v.name == "HMMWV" and "HMMWV" in repr(v)
    ce, preset = v.ce_params(), fleetdyn.hmmwv_ce_params()
    for name in fleetdyn.ce_param_fields():
        assert ce[name] == preset[name], name
    assert fleetdyn.hmmwv_vehicle().ce_params()["chassis_mass"] == preset["chassis_mass"]


@needs_reader
def test_own_vehicle_drives_in_a_batch_and_an_env():
    v = fleetdyn.load_vehicle(LIGHT)
    strut, ce = v.strut_params(), v.ce_params()
    assert abs(strut["total_mass"] - ce.total_mass) < 1e-9 * ce.total_mass
    assert strut["total_mass"] < fleetdyn.hmmwv_params()["total_mass"] - 800.0  # a lighter vehicle
    for model, params in (("strut", strut), ("ce", ce)):
        b = fleetdyn.Batch(2, model=model, params=params, backend="cpu")
        b.set_initial_conditions(speed=10.0)
        b.step(200)
        assert np.all(b.status() == 0), model
        assert np.all(b.snapshots()["position"][:, 0] > 1.5), model
    env = fleetdyn.VectorEnv(num_envs=4, backend="cpu", vehicle=strut, seed=0)
    obs, _ = env.reset(seed=0)
    obs, reward, *_ = env.step(np.zeros((4, 3), np.float32))
    assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward))
    env.close()


@needs_reader
def test_bad_vehicle_file_names_file_line_and_field(tmp_path):
    text = open(HMMWV).read().replace("  mass: 2086.52", "  mass: -3", 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    line = text[: text.index("  mass: -3")].count("\n") + 1
    with pytest.raises(fleetdyn.Error, match=rf"bad\.yaml:{line}: chassis\.mass: -3 is outside"):
        fleetdyn.load_vehicle(str(bad))
    with pytest.raises(fleetdyn.Error, match="cannot open"):
        fleetdyn.load_vehicle(str(tmp_path / "none.yaml"))


@needs_reader
def test_chrono_json_is_read_by_extension():
    v = fleetdyn.load_vehicle(os.path.join(ROOT, "tests", "data", "chrono_hmmwv", "vehicle.json"))
    assert v.ce_params().total_mass == fleetdyn.hmmwv_ce_params().total_mass
