"""fleetdyn.Batch.summary against numpy over the same batch's metrics() and status(), its
argument errors, and on CUDA (skipped without a device) the device summary against numpy."""

import math

import numpy as np
import pytest

import fleetdyn

EVENT_TIMES = {"first_liftoff_time", "max_path_deviation", "path_progress", "maneuver_end_time", "capsize_time"}
LEVELS = [0.0, 0.1, 0.5, 0.9, 1.0]
DIVERGED = 1


def eventful(backend, n=48, precision="fp64"):
    """CG heights 0.7..2.2 m through a hard step steer at 20 m/s: wheels lift, the tall ones capsize."""
    params = {"cg_height": np.linspace(0.7, 2.2, n)}
    b = fleetdyn.Batch(n, params=params, backend=backend, precision=precision)
    b.set_initial_conditions(speed=20.0)
    b.set_maneuvers(np.array([[0.0, 0.0, 0.2, 0.0], [0.3, 0.0, 0.2, 0.0], [0.6, 0.9, 0.2, 0.0], [5.0, 0.9, 0.2, 0.0]]))
    b.step(2500)
    return b


def expected_values(name, x, status):
    """The values of one metric that count: finite; diverged_time of diverged vehicles only, the others
    of the vehicles that did not diverge, event times (-1 = none) only when >= 0."""
    keep = np.isfinite(x) & ((status == DIVERGED) if name == "diverged_time" else (status != DIVERGED))
    if name in EVENT_TIMES:
        keep &= x >= 0.0
    return x[keep], np.nonzero(keep)[0]


def check_against_numpy(s, b, worst_by, worst_count, mean_rtol):
    metrics, status = b.metrics(), b.status()
    assert (s["running"], s["diverged"], s["rolled_over"]) == tuple(int(np.sum(status == k)) for k in (0, 1, 2))
    assert s["vehicle_count"] == b.num_vehicles
    np.testing.assert_array_equal(s["quantile_levels"], LEVELS)
    assert tuple(s["metrics"]) == fleetdyn.METRIC_NAMES
    for name, m in s["metrics"].items():
        x, _ = expected_values(name, metrics[name], status)
        assert m["count"] == len(x), name
        if len(x) == 0:
            assert math.isnan(m["min"]) and math.isnan(m["mean"]) and math.isnan(m["max"])
            continue
        assert (m["min"], m["max"]) == (x.min(), x.max()), name
        assert m["mean"] == pytest.approx(x.mean(), rel=mean_rtol, abs=0.0), name
        # numpy's default quantile method is Hyndman-Fan type 7; its lerp rounds as the library's.
        np.testing.assert_allclose(m["quantiles"], np.quantile(x, LEVELS), rtol=4e-16, atol=0.0, err_msg=name)
    x, vehicles = expected_values(worst_by, metrics[worst_by], status)
    order = np.lexsort((vehicles, -x))[:worst_count]  # value descending, then index ascending
    np.testing.assert_array_equal(s["worst_vehicles"], vehicles[order])
    np.testing.assert_array_equal(s["worst_values"], x[order])
    assert s["worst_vehicles"].dtype == np.int32 and s["worst_values"].dtype == np.float64


def test_summary_matches_numpy_on_the_cpu():
    b = eventful("cpu")
    s = b.summary(quantiles=LEVELS, worst_by="max_abs_roll", worst_count=12)
    assert s["rolled_over"] > 0 and s["metrics"]["first_liftoff_time"]["count"] > 0
    # Every value is >= 0, so numpy's double sum is within (n - 1) u = 5.2e-15 relative of the exact
    # sum (u = 2**-53, n = 48); the library's long double sum is far closer.
    check_against_numpy(s, b, "max_abs_roll", 12, 1e-14)


def test_summary_of_chosen_metrics():
    b = eventful("cpu", n=8)
    s = b.summary(metrics=["capsize_time", "max_abs_roll"], worst_by="capsize_time", worst_count=8)
    assert list(s["metrics"]) == ["capsize_time", "max_abs_roll"]
    assert s["metrics"]["max_abs_roll"]["quantiles"].shape == (0,)
    assert len(s["worst_vehicles"]) == s["metrics"]["capsize_time"]["count"] <= 8


@pytest.mark.parametrize("kwargs, error, match", [
    ({"metrics": "max_abs_roll"}, TypeError, r"metrics: expected None \(all\) or a list"),
    ({"metrics": ["max_abs_roll", 3]}, TypeError, r"metrics\[1\]"),
    ({"metrics": ["roll"]}, fleetdyn.Error, r"metrics\[0\]: unknown metric 'roll' \(known: max_abs_roll, "),
    ({"metrics": ["capsize_time", "capsize_time"]}, fleetdyn.Error, r"metrics\[1\]: metric 'capsize_time' is already"),
    ({"quantiles": [0.5, 1.5]}, ValueError, r"quantiles\[1\]: 1.5 is outside \[0, 1\]"),
    ({"quantiles": [float("nan")]}, ValueError, r"quantiles\[0\]: nan is outside \[0, 1\]"),
    ({"quantiles": 0.5}, TypeError, r"quantiles: expected a sequence"),
    ({"worst_by": "bogus"}, fleetdyn.Error, r"worst_by: unknown metric 'bogus'"),
    ({"worst_count": 5}, ValueError, r"worst_count: 5 is outside \[0, 4\]"),
    ({"worst_count": -1}, ValueError, r"worst_count: -1 is outside \[0, 4\]"),
    ({"worst_count": 1.5}, TypeError, r"worst_count"),
])
def test_bad_requests_name_the_argument(kwargs, error, match):
    b = fleetdyn.Batch(4, backend="cpu")
    with pytest.raises(error, match=match):
        b.summary(**kwargs)


@pytest.mark.parametrize("precision", ["fp64", "fp32"])
def test_device_summary_matches_numpy(precision):
    ok, why = fleetdyn.cuda_available()
    if not ok:
        pytest.skip(why)
    b = eventful("cuda", n=4096, precision=precision)
    s = b.summary(quantiles=LEVELS, worst_by="max_abs_roll", worst_count=100)  # before any download
    # Every value is >= 0: numpy's and the device's double sums are each within (n - 1) u = 4.5e-13 relative
    # of the exact sum (u = 2**-53, n = 4096), whatever their order, so within 9.1e-13 of each other.
    check_against_numpy(s, b, "max_abs_roll", 100, 2e-12)
