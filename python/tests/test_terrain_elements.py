"""A curb and a soil region on the Python terrain (terrain['curb'], terrain['soil']), as in scenario files."""

import math

import numpy as np
import pytest

import fleetdyn

TIRE_WIDTH = 0.3175  # [m] the HMMWV preset's tire section width (37x12.5R16.5; not a Python parameter)


def run(batch, seconds):
    batch.step(int(round(seconds / batch.step_size)))
    return batch.snapshots()


def test_a_curb_stops_a_sideways_slide():
    # Sliding left (+y) at 2 m/s on slippery ground (mu 0.04): about 0.4 m/s^2 of friction, so it
    # slides past y = 4 m within 3 s. A 0.8 m vertical curb along the x axis at y = 2 m (the raised
    # side to its left, +y) is higher than the wheel centres (0.47 m): the tires meet its face.
    p = fleetdyn.hmmwv_params()
    curb_y = 2.0
    finals = {}
    for name, extra in (("plain", {}), ("curb", {"curb": {"height": 0.8, "y": curb_y, "heading_deg": 0.0}})):
        b = fleetdyn.Batch(1, backend="cpu", terrain={"type": "flat", "mu_scale": 0.05, **extra})
        b.set_initial_conditions(lateral_speed=2.0)
        furthest = -math.inf
        for _ in range(30):
            s = run(b, 0.1)
            furthest = max(furthest, s["position"][0, 1])
        finals[name] = (s, furthest)
        assert s["status"][0] == 0, name

    plain, plain_furthest = finals["plain"]
    assert plain["position"][0, 1] > curb_y + 1.0  # keeps sliding past where the curb would be
    assert plain["velocity"][0, 1] > 0.5

    s, furthest = finals["curb"]
    # The COM stays at least the half track and half a tire's width short of the face (a few cm of
    # tire and contact give allowed), and the slide is stopped.
    reach = 0.5 * p["track_front"] + 0.5 * TIRE_WIDTH
    assert furthest < curb_y - reach + 0.05, furthest
    assert abs(s["velocity"][0, 1]) < 0.02
    assert abs(s["euler"][0, 0]) < 0.05  # upright: stopped, not tripped


def bekker_sinkage(load, radius, width, k_c, k_phi, n):
    """Sinkage [m] of a rigid wheel under `load` [N]: Bekker's pressure (k_c / b + k_phi) z^n on the
    front arc's horizontal projection (no shear: c1 = c2 = 0), integrated numerically and solved by bisection."""
    def carried(z):
        x = np.linspace(0.0, math.sqrt(radius**2 - (radius - z) ** 2), 20001)
        depth = np.clip(z - radius + np.sqrt(radius**2 - x**2), 0.0, None)
        pressure = (k_c / width + k_phi) * depth**n
        return width * float(np.sum(0.5 * (pressure[1:] + pressure[:-1]) * np.diff(x)))

    lo, hi = 0.0, radius
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if carried(mid) < load else (lo, mid)
    return 0.5 * (lo + hi)


def test_a_vehicle_on_soil_sits_lower_by_its_sinkage():
    # Two vehicles at rest: one on dry sand (x < 10 m), one on firm ground at x = 20 m. With the
    # Wong-Reece shear terms off (c1 = c2 = 0) a wheel at rest carries Bekker's rigid-wheel load, so
    # each wheel sinks to Bekker's sinkage where on firm ground its tire deflects load / k. The
    # suspension carries the same loads on either, so the body COM sits lower by those differences,
    # weighted between the axles by its position.
    k_c, k_phi, n = 0.99e3, 1528.43e3, 1.1  # dry sand (docs/models/soft-soil.md)
    soil = {"preset": "dry_sand", "x_max": 10.0, "c1": 0.0, "c2": 0.0}
    b = fleetdyn.Batch(2, backend="cpu", terrain={"type": "flat", "soil": soil})
    b.set_initial_conditions(x=[0.0, 20.0])
    s = run(b, 3.0)
    drop = s["position"][1, 2] - s["position"][0, 2]

    p = fleetdyn.hmmwv_params()
    g, a, rear = p["gravity"], p["cg_to_front_axle"], p["cg_to_rear_axle"]
    wheelbase = a + rear
    sprung = p["total_mass"] - 2 * p["unsprung_mass_front"] - 2 * p["unsprung_mass_rear"]
    load_front = 0.5 * sprung * g * rear / wheelbase + p["unsprung_mass_front"] * g
    load_rear = 0.5 * sprung * g * a / wheelbase + p["unsprung_mass_rear"] * g
    radius, k = p["tire.unloaded_radius"], p["tire.vertical_stiffness"]

    def lower(load):
        return bekker_sinkage(load, radius, TIRE_WIDTH, k_c, k_phi, n) - load / k

    expected = lower(load_front) * rear / wheelbase + lower(load_rear) * a / wheelbase
    assert expected > 0.05  # a measurable sinkage
    # 2 %: the code's 10-point Gauss rule on the contact arc and the body's pitch (~1 mrad).
    assert drop == pytest.approx(expected, rel=0.02)
    np.testing.assert_allclose(s["velocity"], 0.0, atol=1e-3)  # at rest: no creep on the soil


def test_curb_and_soil_on_every_type_that_takes_them():
    hf = {"type": "heightfield", "heights": np.zeros((3, 4)), "dx": 5.0, "dy": 5.0, "x0": -5.0, "y0": -5.0}
    for terrain in ({"type": "flat"}, {"type": "hill", "radius": 5.0, "x": 50.0}, hf):
        t = {**terrain, "curb": {"height": 0.15, "x": 10.0, "face_angle_deg": 45, "edge_radius": 0.02, "width": 0.3},
             "soil": {"preset": "snow", "x_min": -5.0, "y_max": 3.0, "friction_angle_deg": 20, "slip_speed": 1.0}}
        s = run(fleetdyn.Batch(1, backend="cpu", terrain=t), 0.2)
        assert np.all(np.isfinite(s["position"])), terrain["type"]
    s = run(fleetdyn.Batch(1, backend="cpu", terrain={"type": "plane", "slope": 0.0, "soil": {}}), 0.2)
    assert s["position"][0, 2] < fleetdyn.hmmwv_params()["cg_height"] - 0.05  # sunk into the default dry sand


BAD = [
    # curb
    ({"curb": {"height": 2.5}}, ValueError, r"terrain\['curb'\]\['height'\]: 2.5 is outside \(0, 2\] m"),
    ({"curb": {"height": 0.0}}, ValueError, r"terrain\['curb'\]\['height'\]: 0.0 is outside \(0, 2\] m"),
    ({"curb": {}}, ValueError, r"terrain\['curb'\]: needs 'height', a number in \(0, 2\] m"),
    ({"curb": {"height": "0.2"}}, TypeError, r"terrain\['curb'\]\['height'\]: expected a number, got '0.2' \(str\)"),
    ({"curb": {"height": math.nan}}, ValueError, r"terrain\['curb'\]\['height'\]: nan \(float\) is not finite"),
    ({"curb": {"height": 0.2, "x": math.inf}}, ValueError, r"terrain\['curb'\]\['x'\]: inf \(float\) is not finite"),
    ({"curb": {"height": 0.2, "y": 2e7}}, ValueError, r"terrain\['curb'\]\['y'\]: 20000000.0 is outside \[-1e\+07, 1e\+07\] m"),
    ({"curb": {"height": 0.2, "heading_deg": 400}}, ValueError, r"\['heading_deg'\]: 400.0 is outside \[-360, 360\] deg"),
    ({"curb": {"height": 0.2, "face_angle_deg": 4}}, ValueError, r"\['face_angle_deg'\]: 4.0 is outside \[5, 90\] deg"),
    ({"curb": {"height": 0.2, "face_angle_deg": True}}, TypeError, r"\['face_angle_deg'\]: expected a number, got True"),
    ({"curb": {"height": 0.2, "width": -1}}, ValueError, r"terrain\['curb'\]\['width'\]: -1.0 is outside \[0, 1000\] m"),
    # the edge radius fits the face (H / (sin a tan(a/2)) = H for a vertical face) and half the top
    ({"curb": {"height": 0.2, "edge_radius": 0.25}}, ValueError, r"\['edge_radius'\]: 0.25 is outside \[0, 0.2\] m"),
    ({"curb": {"height": 0.2, "width": 0.1, "edge_radius": 0.06}}, ValueError, r"\['edge_radius'\]: 0.06 is outside \[0, 0.05\] m"),
    ({"curb": {"height": 0.2, "hieght": 1}}, ValueError,
     r"terrain\['curb'\]: unknown key 'hieght' \(known: height, x, y, heading_deg, face_angle_deg, edge_radius, width\)"),
    ({"curb": {"height": 0.2, 3: 1}}, TypeError, r"terrain\['curb'\]: keys must be names"),
    ({"curb": [0.2]}, TypeError, r"terrain\['curb'\]: expected a dict, got \[0.2\] \(list\)"),
    ({"type": "plane", "curb": {"height": 0.2}}, ValueError,
     r"terrain\['curb'\]: a curb stands on the base ground of terrain types flat, hill and heightfield, not on plane"),
    # soil
    ({"soil": {"preset": "mud"}}, ValueError, r"terrain\['soil'\]\['preset'\]: soil preset 'mud' is not known; the presets are dry_sand, "),
    ({"soil": {"preset": 3}}, TypeError, r"terrain\['soil'\]\['preset'\]: expected a string"),
    ({"soil": {"k_c": -1.0}}, ValueError, r"terrain\['soil'\]: soil k_c = -1 is outside \[0, 1e\+09\]"),
    ({"soil": {"n": 3.0}}, ValueError, r"terrain\['soil'\]: soil n = 3 is outside \[0.05, 2\]"),
    ({"soil": {"k_c": 0.0, "k_phi": 0.0}}, ValueError, r"terrain\['soil'\]: soil k_c and k_phi are both 0"),
    ({"soil": {"k_phi": math.inf}}, ValueError, r"terrain\['soil'\]\['k_phi'\]: inf \(float\) is not finite"),
    ({"soil": {"cohesion": "1e3"}}, TypeError, r"terrain\['soil'\]\['cohesion'\]: expected a number"),
    ({"soil": {"friction_angle_deg": 80}}, ValueError, r"\['friction_angle_deg'\]: 80.0 is outside \[0, 68.7549\] deg"),
    ({"soil": {"x_min": 5.0, "x_max": 1.0}}, ValueError, r"terrain\['soil'\]: soil region: x_min = 5 must be below x_max = 1"),
    ({"soil": {"y_max": -math.inf}}, ValueError, r"terrain\['soil'\]\['y_max'\]: -inf \(float\) is not finite"),
    ({"soil": {"slip_speed": 0.0}}, ValueError, r"terrain\['soil'\]\['slip_speed'\]: 0.0 is outside \[0.01, 10\] m/s"),
    ({"soil": {"edge_width": -0.1}}, ValueError, r"terrain\['soil'\]\['edge_width'\]: -0.1 is outside \[0, 10\] m"),
    ({"soil": {"friction_angle": 0.3}}, ValueError,
     r"terrain\['soil'\]: unknown key 'friction_angle' \(known: preset, x_min, x_max, y_min, y_max, slip_speed, "
     r"edge_width, k_c, "),
    ({"soil": "dry_sand"}, TypeError, r"terrain\['soil'\]: expected a dict, got 'dry_sand' \(str\)"),
    ({"sol": {}}, ValueError, r"terrain \(flat\): unknown key 'sol' \(known: type, base_height, mu_scale, soil, curb\)"),
]


@pytest.mark.parametrize("terrain, error, match", BAD)
def test_bad_curb_and_soil_keys_are_refused_by_name(terrain, error, match):
    with pytest.raises(error, match=match):
        fleetdyn.Batch(1, backend="cpu", terrain={"type": "flat", **terrain})


def step_heights(h):
    """A heightfield along x (dx 0.01 m, 2 rows 10 m apart): flat to x = 4 m, h over one cell, then level."""
    row = np.where(np.arange(801) > 400, h, 0.0)
    return np.vstack([row, row])


def test_the_tire_envelope_takes_a_heightfield_step():
    # Coasting at 3 m/s onto a 0.1 m step over one 1 cm cell: with the envelope the tires meet the
    # step's edge as rigid wheels do (tests/test_tire_contact.cpp checks the geometry), and the
    # vehicle climbs onto the step and runs on.
    terrain = {"type": "heightfield", "heights": step_heights(0.1), "dx": 0.01, "dy": 10.0,
               "x0": 0.0, "y0": -5.0, "tire_envelope": True}
    b = fleetdyn.Batch(1, backend="cpu", terrain=terrain)
    b.set_initial_conditions(x=4.0 - 2.0, speed=3.0)  # the front axle about 0.5 m short of the step
    z0 = b.snapshots()["position"][0, 2]
    s = run(b, 4.0)
    assert s["status"][0] == 0
    assert s["position"][0, 2] > z0 + 0.08  # the body is up on the step
    assert s["position"][0, 0] > 4.0 + 2.0


def test_tire_envelope_is_a_bool_on_heightfields_only():
    terrain = {"type": "heightfield", "heights": step_heights(0.1), "dx": 0.01, "dy": 10.0}
    with pytest.raises(TypeError, match=r"terrain\['tire_envelope'\]"):
        fleetdyn.Batch(1, backend="cpu", terrain={**terrain, "tire_envelope": "yes"})
    with pytest.raises(ValueError, match="tire_envelope"):
        fleetdyn.Batch(1, backend="cpu", terrain={"type": "flat", "tire_envelope": True})
