"""Bad arguments at every public entry point, drawn at random but reproducibly (one
random.Random per entry point, seeded from SEED and the entry point's name) from a table of
generators: wrong Python types, wrong numpy dtypes, shapes and lengths, non-contiguous arrays,
NaN and +/-inf, negative and past-the-end indices, huge sizes, unknown names and keys.

Each call must be refused cleanly: ValueError, TypeError, KeyError / IndexError (the Python
idioms) or fleetdyn.Error, with a message that names what was wrong; never a crash, a hang, an
attempted huge allocation (MemoryError: the address space is capped while the bad calls run), a
silent acceptance or a RuntimeError / SystemError without a useful message. Then, the fixed part:
the object the rejected calls were made on still works, a valid call giving what it gives on a
fresh object."""

import contextlib
import faulthandler
import math
import os
import random
import re
import string
import time
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest

import fleetdyn
from conftest import ROOT

SEED = 20250611  # another seed draws other cases from the same table
N = 2            # vehicles / envs of the objects under test
SLOW = 5.0       # [s] a refusal that takes longer is reported (it attempted the work)
HANG = 120.0     # [s] a call that takes longer ends the run (faulthandler prints where it hung)
ACCEPTED = (ValueError, TypeError, KeyError, IndexError, fleetdyn.Error)
# pybind11's message when a value reaches C++ unchecked.
UNCHECKED = re.compile(r"Unable to cast|PYBIND11_DETAILED_ERROR_MESSAGES|to C\+\+ type")

BASE_BATCH = dict(num_vehicles=N, backend="cpu", cpu_threads=1)
BASE_ENV = dict(num_envs=N, backend="cpu", cpu_threads=1)
STRUT_FIELDS = fleetdyn.vehicle_param_fields()
CE_FIELDS = fleetdyn.ce_param_fields()


# ---- value pools ------------------------------------------------------------------------------------

NONFINITE = (math.nan, math.inf, -math.inf)
BAD_DTYPES = (np.bool_, np.complex64, np.complex128, object, "U4", "S4", "datetime64[s]", "timedelta64[s]")
INT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64)
HUGE_INTS = (2**31, 2**32 + 7, 2**40, 10**12, 2**63, 2**64, 10**30, -(2**31) - 1, -(10**20))
# Not numbers, wherever a number or one per vehicle goes.
NOT_FLOAT = ("1.0", b"1", "", 1 + 2j, {1.0}, {"x": 1.0}, object())
# ... for a float argument pybind11 converts (it takes bools and numpy scalars as numbers).
PYBIND_NOT_FLOAT = NOT_FLOAT + ([1.0], (1.0,))
# ... where the bindings check (bools, complex, text and object arrays are refused too); the
# array has neither 1 nor N values.
NOT_NUMBER = NOT_FLOAT + (True, np.bool_(False), np.array(["1.0"]), np.array([1.0, 2.0, 3.0]), np.complex128(1.0))
# ... where one number goes (a 1-element list is no number either).
NOT_SCALAR = NOT_NUMBER + ([1.0], (1.0,), np.array([0.5]))
NOT_INT = ("1", b"1", 1.5, 2.0, 1 + 2j, [1], (1,), {1}, object(), np.float64(1.0))
NOT_STR = (3, 1.5, ["strut"], ("cpu",), {"x": 1}, object())
JUNK = ("", " ", "x", "none", "None", "null", "0", "-1", "nan", "\u00e9t\u00e9", "a" * 300, "\x00", "../etc",
        "\udcff", "CPU", "Strut", "fp 32", "tire.mu.", "tire mu", "pure-pursuit")


def pick(*values):
    return lambda rng: rng.choice(values)


def nonfinite(rng):
    return rng.choice((float, np.float64, np.float32))(rng.choice(NONFINITE))


def huge_int(rng):
    return rng.choice(HUGE_INTS)


def junk(valid=()):
    """A name that is none of `valid`: from JUNK or random characters."""
    def draw(rng):
        while True:
            if rng.random() < 0.5:
                text = rng.choice(JUNK)
            else:
                text = "".join(rng.choice(string.ascii_letters + string.digits + "._- ") for _ in range(rng.randint(1, 12)))
            if text not in valid:
                return text
    return draw


def spoiled(base, strided=False, dtype=np.float64):
    """A copy of `base` (an array, or a shape filled with 0.1) with one element NaN or +/-inf; with
    strided, a non-contiguous view (every other element along the last axis, or Fortran order)."""
    base = np.full(base, 0.1, dtype) if isinstance(base, tuple) else np.asarray(base, dtype)

    def draw(rng):
        if not strided:
            a = base.copy()
        elif base.ndim == 2 and min(base.shape) > 1 and rng.random() < 0.5:
            a = np.asfortranarray(base)
        else:
            a = np.repeat(base, 2, axis=-1)[..., ::2]
        a[np.unravel_index(rng.randrange(a.size), a.shape)] = rng.choice(NONFINITE)
        assert a.flags.c_contiguous != strided or a.size == 1
        return a
    return draw


def bad_dtype(shape, dtypes=BAD_DTYPES):
    return lambda rng: np.zeros(shape, dtype=rng.choice(dtypes))


def wrong_length(n):
    return lambda rng: np.zeros(rng.choice((0, n + 1, n + rng.randint(2, 64))))


def wrong_ndim(n):
    return lambda rng: np.zeros(rng.choice(((n, 1), (1, n), (n, n), (1, 1, n))))


def field_out_of_range(fields):
    """(name, value): a named parameter below its range, above it, or not finite."""
    names = sorted(fields)

    def draw(rng):
        name = rng.choice(names)
        lo, hi = fields[name]["min"], fields[name]["max"]
        value = rng.choice((lo - abs(lo) * 0.5 - 1.0, hi + abs(hi) * rng.uniform(0.01, 1e6) + 1.0, *NONFINITE))
        return name, value
    return draw


# Per-vehicle / per-env values (a number or one per vehicle).
PER_VEHICLE = (nonfinite, spoiled((N,)), spoiled((N,), strided=True), wrong_length(N), wrong_ndim(N),
               bad_dtype((N,)), bad_dtype(()), pick(*NOT_NUMBER, None))
# Vehicle indices (past either end) and other things that are no index.
INDICES = (pick(N, N + 1, N + 1000, -1, -N - 1, -(2**31), 2**31 - 1), huge_int, pick(*NOT_INT, None))
# Integer lists (vehicle_table, vehicle_path) that are no such list.
INT_LISTS = (pick([0], [0] * (N + 1), np.zeros((N, 1), int)), pick([0, 2**40], [0, -(2**31) - 1], [0, 10**30]),
             pick([0.5, 0.0], ["0", "1"], "ab", 3, {0: 1, 1: 0}, np.array([True, False]), [None, 0], object()))


# ---- the table -------------------------------------------------------------------------------------------


class Bad(NamedTuple):
    arg: str                          # the argument the value is passed as
    draw: Callable[[random.Random], Any]
    hint: str = ""                    # a regex the message must match (default: the argument's name)
    extra: dict = {}                  # other arguments of the call (valid ones)


class Entry(NamedTuple):
    make: Callable[[Any], Any]        # the object the calls are made on (from pytest's tmp_path)
    call: Callable[[Any, Bad, Any], Any]
    bads: tuple
    valid: Callable[[Any], Any]       # a valid call, its result compared with a fresh object's
    cases: int = 10                   # at least one per Bad
    accepted: tuple = ACCEPTED

    def draws(self, rng):
        """(bad, value) pairs: every Bad in a shuffled round, round after round, a fresh value each."""
        order = []
        for _ in range(max(self.cases, len(self.bads))):
            if not order:
                order = rng.sample(self.bads, len(self.bads))
            bad = order.pop()
            yield bad, bad.draw(rng)


def bads(arg, draws, hint="", extra=None):
    return tuple(Bad(arg, d, hint, extra or {}) for d in draws)


def batch(model="strut", **kw):
    return fleetdyn.Batch(**{**BASE_BATCH, "model": model, **kw})


def env(model="strut", seed=5, **kw):
    e = fleetdyn.VectorEnv(**{**BASE_ENV, "model": model, "seed": seed, **kw})
    e.reset(seed=seed)
    return e


def run(b, steps=20):
    b.step(steps)
    return b.state()


def drive(e, steps=3):
    actions = np.tile(np.float32([0.1, 0.4, 0.0]), (e.num_envs, 1))
    out = [e.step(actions)[0] for _ in range(steps)]
    return np.stack(out)


TABLE = np.array([[0.0, 0.0, 0.3, 0.0], [0.02, 0.2, 0.3, 0.0]])
PATH = np.array([[0.0, 0.0, 5.0], [50.0, 0.0, 5.0], [100.0, 5.0, 5.0]])
PATH_SETTINGS = ("lookahead_base", "lookahead_gain", "stanley_gain", "stanley_softening", "max_steer_rate", "speed_kp",
                 "speed_ki")


def terrain_numbers(rng):
    """A terrain dict with one number not finite or outside its range (as scenario files allow)."""
    kind, key, lo, hi = rng.choice((("flat", "mu_scale", 0.0, 10.0), ("flat", "base_height", -1e4, 1e4),
                                    ("plane", "slope", -1.4, 1.4), ("plane", "bank", -1.4, 1.4),
                                    ("hill", "radius", 0.0, 1e6), ("hill", "height", -1e4, 1e4),
                                    ("hill", "x", -1e7, 1e7), ("heightfield", "dx", 0.0, 1e4)))
    value = rng.choice((*NONFINITE, lo - 1.0 - abs(lo) * rng.random(), hi * (2 + rng.random()) + 1.0))
    if key == "radius" or key == "dx":
        value = rng.choice((value, 0.0, -1.0))
    d = {"type": kind, key: value}
    if kind == "heightfield":
        d.update(heights=np.zeros((3, 4)), dy=1.0)
    return d


def heightfield_heights(rng):
    heights = rng.choice((spoiled((3, 4)), spoiled((3, 4), strided=True), bad_dtype((3, 4)),
                          pick(np.zeros(5), np.zeros((2, 2, 2)), np.zeros(()), "abc", None, [[0.0, 1.0], [0.0]])))(rng)
    return {"type": "heightfield", "heights": heights, "dx": 1.0, "dy": 1.0}


TERRAIN_KEYS = {"type", "base_height", "mu_scale", "slope", "bank", "x", "y", "height", "radius"}
TERRAINS = (pick("flat", 3, [("type", "flat")], ("flat",), object()),
            lambda rng: {"type": rng.choice((junk({"flat", "plane", "hill", "heightfield"})(rng), 3, None, ["flat"]))},
            lambda rng: {"type": rng.choice(("flat", "plane", "hill")), junk(TERRAIN_KEYS)(rng): 1.0},
            lambda rng: {"type": "flat", rng.choice((3, None, (1, 2))): 1.0},
            lambda rng: {"type": "plane", "slope": rng.choice(NOT_SCALAR)},
            terrain_numbers, heightfield_heights)

PGS = (pick(3, "x", [1], ("iterations", 5)),
       lambda rng: {junk({"iterations", "baumgarte", "warm_start", "wheel_contact", "friction_cone"})(rng): 1},
       lambda rng: {rng.choice((3, None, 1.5)): 1},
       lambda rng: {"iterations": rng.choice((0, -1, 10001, 2.5, math.nan, "5", None, True, *HUGE_INTS))},
       lambda rng: {rng.choice(("baumgarte", "warm_start")): rng.choice((-0.1, 1.5, 1e300, *NONFINITE, *NOT_SCALAR, None))},
       lambda rng: {"wheel_contact": rng.choice((junk({"tire", "rows"})(rng), 3, None))},
       lambda rng: {"wheel_contact": "rows", "friction_cone": rng.choice((junk({"circular", "pyramid"})(rng), 3, None))},
       pick({"friction_cone": "pyramid"}, {"wheel_contact": "tire", "friction_cone": "circular"}))

BATCH_PARAMS = (lambda rng: {junk(STRUT_FIELDS)(rng): 1.0},
                lambda rng: {rng.choice((3, None, ("tire.mu",))): 0.8},
                lambda rng: dict([field_out_of_range(STRUT_FIELDS)(rng)]),
                lambda rng: {"tire.mu": rng.choice(PER_VEHICLE)(rng)},
                lambda rng: {rng.choice(sorted(STRUT_FIELDS)): rng.choice(NOT_NUMBER)},
                pick(3, 1.5, "hmmwv", b"x", object(), {1, 2}, fleetdyn.hmmwv_ce_params()),
                pick([], [None], [1.0, 2.0], [fleetdyn.hmmwv_params(), "x"], [fleetdyn.hmmwv_ce_params()],
                     [fleetdyn.hmmwv_params()] * (N + 1)))


def scenario_call(fn):
    def call(tmp, bad, value):
        kind, payload = value
        if kind == "file":
            path = tmp / "bad.yaml"
            path.write_bytes(payload)
            return fn(str(path))
        if kind == "missing":
            return fn(str(tmp / payload))
        if kind == "folder":
            return fn(str(tmp))
        return fn(payload)  # "path" (a device) or "object" (not a path)
    return call


SCENARIOS = (lambda rng: ("missing", junk()(rng).replace("\x00", "").replace("/", "") + ".yaml"),
             pick(("folder", None), ("path", "/dev/null"), ("path", "/dev/zero")),
             pick(*[("file", text) for text in (b"", b"\x00\xff\xfe not yaml", b"duration: -1\n", b"duration: .nan\n",
                                                 b"duration: 1e300\n", b"duration: 1\nvehicles: 100000000000\n",
                                                 b"[1, 2, 3]", b"{", b"duration: 1\nmodel: nope\n", b"duration: 1\nstep: 0\n",
                                                 b"duration: 1\nvehicles: -5\n", b"duration: 1\nbogus: 2\n")]),
             pick(("object", None), ("object", 3), ("object", ["a.yaml"]), ("object", "\udcff")))


def set_item(p, bad, value):
    if bad.arg == "value":
        name, x = value
        p[name] = x
    else:
        p[value] = 1.0


def fields_after(p):
    """The parameters (unchanged by the rejected calls) and a valid set and update on them."""
    before = p.to_dict()
    p.copy().finalize()
    p["tire.mu"] = 0.7
    p.update({"tire.mu": 0.9})
    return before, p.to_dict()


INVALID_STRUT = fleetdyn.hmmwv_params()
INVALID_STRUT["total_mass"] = 150.0  # in its range, lighter than the wheels: finalize refuses it
STATE_SIZE = fleetdyn.Batch(1, backend="cpu").state_size


CONFIG_BADS = {
    "num_envs": (pick(0, -1, -(2**31)), pick(2**28, 10**9, 2**31 - 1), huge_int, pick(*NOT_INT, None, True)),
    "model": (junk({"strut", "ce"}), pick("pgs", *NOT_STR, None)),
    "task": (junk({"path_following", "reach_speed"}), pick(*NOT_STR, None)),
    "backend": (junk({"auto", "cpu", "cuda"}), pick(*NOT_STR, None)),
    "precision": (junk({"fp32", "fp64"}), pick(*NOT_STR, None)),
    "seed": (pick(-1, 2**64, 10**30, 1.5, "0", None, math.nan, [1]),),
    "cpu_threads": (pick(-1, 4097, 10**6, 2**31 - 1, 1.5, "2", None),),
    "cpu_simd": (pick("yes", None, 2, 0, 1.0, [True]),),
    "use_default_randomization": (pick("yes", None, 2, 0, 1.0, [True]),),
    "physics_step": (pick(0.0, 0.0501, 1.0, 1e300, *NONFINITE, *NOT_SCALAR),),
    "decimation": (pick(0, 100001, 2**31 - 1, 1.5, "10", None), huge_int),
    "time_limit": (pick(0.0, -1.0, *NONFINITE, "30", None),),
    "steer_rate": (pick(0.0, -1.0, *NONFINITE),),
    "throttle_rate": (pick(0.0, -1.0, *NONFINITE),),
    "brake_rate": (pick(0.0, -1.0, *NONFINITE),),
    "lookahead_points": (pick(0, -1, 17, 2**31 - 1, 2.0), huge_int),
    "lookahead_spacing": (pick(0.0, -1.0, 1e6, *NONFINITE),),
    "track_points": (pick(1, 0, -5, 100001, 2**31 - 1), huge_int),
    "track_spacing": (pick(0.0, -1.0, *NONFINITE),),
    "track_max_curvature": (pick(-0.1, 0.51, *NONFINITE),),
    "track_wavelength_min": (pick(0.0, -1.0, 1000.0, *NONFINITE),),
    "track_wavelength_max": (pick(1.0, *NONFINITE),),
    "track_straight": (pick(-1.0, *NONFINITE),),
    "road_half_width": (pick(0.0, -1.0, *NONFINITE),),
    "speed_min": (pick(-1.0, 13.0, *NONFINITE),),
    "speed_max": (pick(61.0, 1.0, *NONFINITE),),
    "target_speed_min": (pick(-1.0, 21.0, *NONFINITE),),
    "target_speed_max": (pick(61.0, 1.0, *NONFINITE),),
    "lateral_offset_max": (pick(-0.1, 4.0, *NONFINITE),),
    "heading_offset_max": (pick(-0.1, 1.6, *NONFINITE),),
    "rollover_angle": (pick(0.0, -0.1, 1.6, *NONFINITE),),
    "rollover_lift_time": (pick(0.0, -1.0, *NONFINITE),),
    "w_progress": (pick(*NONFINITE, "1"),),
    "w_crash": (pick(*NONFINITE, "1", None),),
    "vehicle": (pick("hmmwv", 3, [fleetdyn.hmmwv_params()], fleetdyn.hmmwv_ce_params(), None),
                lambda rng: {junk(STRUT_FIELDS)(rng): 1.0},
                lambda rng: {rng.choice((3, None)): 1.0},
                lambda rng: dict([field_out_of_range(STRUT_FIELDS)(rng)]),
                lambda rng: {rng.choice(sorted(STRUT_FIELDS)): rng.choice(NOT_SCALAR)}),
    "observations": (pick("body_velocity", [3], ["nope"], ["body_velocity"] * 2, None, [["body_velocity"]], 3),
                     lambda rng: [junk({f["name"] for f in fleetdyn.observation_features()})(rng)]),
    "randomize": (pick(3, "tire.mu", {"tire.mu": (0.5, 0.6)}, None),
                  pick([3], [("tire.mu",)], [("tire.mu", 0.5, 0.6, True, 1)], [(3, 0.5, 0.6)], [{"lo": 0.5, "hi": 0.6}],
                       [{"name": "tire.mu", "lo": 0.5}], [{"name": "tire.mu", "lo": 0.5, "hi": 0.6, "bogus": 1}],
                       [("tire.mu", 0.5, 0.6)] * 2, [("tire_force_at_contact", 0.5, 1.0)], [("total_mass", -1.0, 1.0, True)],
                       [("tire.mu", 0.9, 0.5)], [("tire.mu", 0.5, 100.0)], [("tire.mu", "a", 0.6)], [{3: 1}],
                       [(name, 1.0, 1.0) for name in sorted(STRUT_FIELDS)[:25]]),
                  lambda rng: [(junk(STRUT_FIELDS)(rng), 0.5, 0.6)],
                  lambda rng: [("tire.mu", *rng.choice(((nonfinite(rng), 0.6), (0.5, nonfinite(rng)))))]),
}
# The road (reach_speed task only), its values checked by the rough-road generator.
ROAD_BADS = (pick("A", 3, [("length", 900.0)], None),
             lambda rng: {junk({"road_class", "length", "width", "spacing_x", "spacing_y", "n_min", "n_max",
                                "max_lateral_angle", "seed"})(rng): 1.0},
             lambda rng: {rng.choice((3, None)): 1.0},
             lambda rng: {"road_class": rng.choice(("Z", "", "AB", "a", 3, None))},
             lambda rng: {rng.choice(("length", "width", "spacing_x", "spacing_y", "n_min", "n_max")):
                          rng.choice((0.0, -1.0, *NONFINITE, "1"))},
             pick({"n_min": 5.0, "n_max": 1.0}, {"max_lateral_angle": 1.5}, {"max_lateral_angle": math.nan},
                  {"seed": -1}, {"seed": 2**64}, {"seed": 1.5}, {"length": 100.0}))


CONFIG_HINTS = {"lookahead_spacing": "lookahead_spacing|look-ahead", "vehicle": "vehicle|param", "randomize": "randomiz",
                "observations": "observations|feature"}


def env_config_bads():
    out = []
    for key, draws in CONFIG_BADS.items():
        out += bads(key, draws, hint=CONFIG_HINTS.get(key, re.escape(key)))
    out += bads("road", ROAD_BADS, hint="road", extra={"task": "reach_speed"})
    out += bads("unknown keyword", (junk(set(CONFIG_BADS) | {"road", "copy"}),), hint="unknown keyword|key")
    return tuple(out)


def env_config_call(_, bad, value):
    if bad.arg == "unknown keyword":
        return fleetdyn.VectorEnv(**BASE_ENV, **{value: 1})
    return fleetdyn.VectorEnv(**{**BASE_ENV, **bad.extra, bad.arg: value})


def env_reset_call(e, bad, value):
    if bad.arg == "reset_mask":
        return e.reset(options={"reset_mask": value})
    return e.reset(**{bad.arg: value})


def dlpack_call(e, bad, value):
    return e.buffers()["observations"].__dlpack__(**{bad.arg: value})


class FakeTensor:
    """Not a numpy array; says it lives on `device` (DLPack): a CUDA tensor for a CPU env, or nonsense."""

    def __init__(self, device):
        self.device = device

    def __dlpack_device__(self):
        return self.device

    def __repr__(self):
        return f"FakeTensor(__dlpack_device__={self.device!r})"


ACTION_DTYPES = BAD_DTYPES + INT_DTYPES
ENTRIES = {
    # ---- Batch ----------------------------------------------------------------------------------------
    "Batch": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.Batch(**{**BASE_BATCH, **bad.extra, bad.arg: v}),
        bads=(bads("num_vehicles", (pick(0, -1, -7, -(2**31)),), hint="vehicle count")
              + bads("num_vehicles", (pick(2**28, 10**9, 2**31 - 1), huge_int, pick(*NOT_INT, None)))
              + bads("model", (junk({"strut", "ce", "pgs"}), pick(*NOT_STR, None)))
              + bads("params", BATCH_PARAMS, hint="param")
              + bads("terrain", TERRAINS)
              + bads("backend", (junk({"auto", "cpu", "cuda"}), pick(*NOT_STR, None)))
              + bads("precision", (junk({"fp32", "fp64"}), pick(*NOT_STR, None)))
              + bads("step", (pick(0.0, -1e-3, 1.0, 2.5, 1e300, *NONFINITE), pick(*NOT_SCALAR)))
              + bads("substeps", (pick(0, -1, 1001, 2**31 - 1, -(2**31)), huge_int, pick(*NOT_INT, None)))
              + bads("cpu_threads", (pick(-1, -(2**31), 4097, 10**6, 2**31 - 1), huge_int, pick(*NOT_INT, None)))
              + bads("pgs", PGS, extra={"model": "pgs"})
              + bads("pgs", (pick({"iterations": 5}),), extra={"model": "ce"})
              + bads("requery_contact", (pick(False),), hint="requery_contact", extra={"model": "pgs"})),
        valid=lambda _: [run(batch(model)) for model in ("strut", "ce", "pgs")],
        cases=60),
    "Batch.step": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.step(v),
        bads=bads("n", (pick(-1, -5, -(2**31)), huge_int, pick(*NOT_INT, None)), hint=r"\bn\b|step count"),
        valid=lambda b: run(b, 7)),
    "Batch.params": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.params(v),
        bads=bads("vehicle", INDICES),
        valid=lambda b: b.params(N - 1).to_dict()),
    "Batch.ce_params": Entry(
        make=lambda tmp: batch("ce"),
        call=lambda b, bad, v: b.ce_params(v),
        bads=bads("vehicle", INDICES),
        valid=lambda b: b.ce_params(0).to_dict()),
    "Batch.pgs_settings": Entry(
        make=lambda tmp: batch("pgs"),
        call=lambda b, bad, v: b.pgs_settings(v),
        bads=bads("vehicle", INDICES),
        valid=lambda b: b.pgs_settings(N - 1)),
    "Batch.time": Entry(
        make=lambda tmp: batch("ce"),
        call=lambda b, bad, v: b.time(v),
        bads=bads("vehicle", INDICES),
        valid=lambda b: (run(b, 3), b.time(1))),
    "Batch.mechanical_energy": Entry(
        make=lambda tmp: batch("pgs"),
        call=lambda b, bad, v: b.mechanical_energy(v),
        bads=bads("vehicle", INDICES),
        valid=lambda b: b.mechanical_energy(0)),
    "Batch.set_vehicle_state": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: (b.set_vehicle_state(v, b.state()[:, 0]) if bad.arg == "vehicle"
                                else b.set_vehicle_state(0, v)),
        bads=(bads("vehicle", INDICES)
              + bads("state", (spoiled((STATE_SIZE,)), spoiled((STATE_SIZE,), strided=True), wrong_length(STATE_SIZE),
                               pick(np.zeros((2, STATE_SIZE)), np.zeros(()), np.zeros((STATE_SIZE, 1))),
                               bad_dtype((STATE_SIZE,)), pick("abc", None, object(), {"x": 1.0}, [0.0] * (STATE_SIZE - 1))),
                     hint=r"state")),
        valid=lambda b: (b.set_vehicle_state(1, batch().state()[:, 0] + 0.01), run(b, 5))),
    "Batch.set_initial_conditions": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.set_initial_conditions(**{bad.arg: v}),
        bads=sum((bads(arg, PER_VEHICLE, hint=rf"\b{arg}\b|initial conditions") for arg in ("x", "y", "yaw", "speed")), ()),
        valid=lambda b: (b.set_initial_conditions(x=[0.0, 5.0], speed=3.0), run(b))),
    "Batch.set_inputs": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.set_inputs(**{bad.arg: v}),
        bads=sum((bads(arg, PER_VEHICLE, hint=rf"\b{arg}\b|inputs") for arg in ("steer", "throttle", "brake")), ()),
        valid=lambda b: (b.set_initial_conditions(speed=5.0), b.set_inputs(steer=0.1, throttle=[0.2, 0.3]), run(b))),
    "Batch.set_maneuvers": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.set_maneuvers(**{"tables": [TABLE, TABLE], **{bad.arg: v}}),
        bads=(bads("tables", (pick(np.zeros((2, 3)), np.zeros((2, 5)), np.zeros(4), np.zeros((1, 2, 4)), np.zeros((0, 4)),
                                    [],
                                    TABLE[::-1], np.array([[0.0, 0, 0, 0], [0.0, 0, 0, 0]]), None, 3, "abc", {"a": 1},
                                    [TABLE, np.zeros((2, 3))], [TABLE, "x"]),
                               spoiled(TABLE), spoiled(TABLE, strided=True), bad_dtype((2, 4)),
                               lambda rng: TABLE + np.array([0, rng.choice((1.5, -2.0, 1e9)), 0, 0]),
                               lambda rng: TABLE + np.array([0, 0, rng.choice((0.8, -0.5, 1e300)), 0]),
                               lambda rng: TABLE + np.array([0, 0, 0, rng.choice((1.01, -0.5, 1e300))])),
                    hint=r"maneuver|tables")
              + bads("vehicle_table", INT_LISTS + (pick([0, 2], [-1, 0], [0, 2**31 - 1]),),
                     hint=r"vehicle_table|table index")),
        valid=lambda b: (b.set_initial_conditions(speed=4.0), b.set_maneuvers([TABLE, TABLE * 0.5], [1, 0]), run(b, 30))),
    "Batch.set_path_driver": Entry(
        make=lambda tmp: batch(),
        call=lambda b, bad, v: b.set_path_driver(**{"paths": PATH, **bad.extra, bad.arg: v}),
        bads=(bads("paths", (pick(np.zeros((3, 4)), np.zeros(3), np.zeros((1, 3, 3)), np.zeros((0, 3)), PATH[:1], [],
                                   np.zeros((3, 3)), np.array([[0.0, 0, 5], [0.0005, 0, 5]]), None, 3, "abc", {"a": 1},
                                   [PATH, np.zeros((3, 4))], [PATH, None], PATH * np.array([1, 1, -1])),
                              spoiled(PATH), spoiled(PATH, strided=True), bad_dtype((3, 3))),
                    hint=r"path")
              + bads("closed", (pick(True),), hint="closed path", extra={"paths": PATH[:2]})
              + bads("vehicle_path", INT_LISTS + (pick([0, 1], [-1, 0], [0, 2**31 - 1]),), hint=r"vehicle_path|path")
              + bads("tracker", (junk({"pure_pursuit", "stanley"}), pick(*NOT_STR, None)))
              + bads("settings", (pick([1], 3, "speed_kp", None, [("speed_kp", 1.0)]),
                                  lambda rng: {junk(PATH_SETTINGS)(rng): 1.0},
                                  lambda rng: {rng.choice((3, None, ("speed_kp",))): 1.0},
                                  lambda rng: {rng.choice(PATH_SETTINGS):
                                               rng.choice((-1.0, -1e9, *NONFINITE, *NOT_SCALAR))}),
                     hint=r"settings|setting|" + "|".join(PATH_SETTINGS))),
        valid=lambda b: (b.set_initial_conditions(speed=4.0), b.set_path_driver(PATH, settings={"speed_kp": 0.5}),
                         run(b, 30))),
    "Batch.from_scenario": Entry(
        make=lambda tmp: tmp,
        call=scenario_call(fleetdyn.Batch.from_scenario),
        bads=bads("path", SCENARIOS, hint=r".+"),
        valid=lambda tmp: (fleetdyn.has_scenarios and fleetdyn.Batch.from_scenario(
            os.path.join(ROOT, "scenarios", "default.yaml")).num_vehicles)),
    "scenario_info": Entry(
        make=lambda tmp: tmp,
        call=scenario_call(fleetdyn.scenario_info),
        bads=bads("path", SCENARIOS, hint=r".+"),
        valid=lambda tmp: (fleetdyn.has_scenarios and fleetdyn.scenario_info(
            os.path.join(ROOT, "scenarios", "default.yaml"))["steps"])),
    "circle_path": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.circle_path(**{"radius": 10.0, "speed": 5.0, bad.arg: v}),
        bads=(bads("radius", (pick(0.0, -1.0, *NONFINITE, *PYBIND_NOT_FLOAT, None),))
              + bads("speed", (pick(-1.0, *NONFINITE, *PYBIND_NOT_FLOAT, None),))
              + bads("points", (pick(0, 2, -5, 2**24 + 1, 2**31 - 1), huge_int, pick(*NOT_INT, None)))
              + sum((bads(arg, (pick(*NONFINITE, *PYBIND_NOT_FLOAT, None),)) for arg in ("x", "y", "yaw")), ())),
        valid=lambda _: fleetdyn.circle_path(10.0, 5.0, points=36, x=1.0, yaw=0.5)),
    # ---- parameters ------------------------------------------------------------------------------------
    "VehicleParams.__setitem__": Entry(
        make=lambda tmp: fleetdyn.hmmwv_params(),
        call=set_item,
        bads=(bads("name", (junk(STRUT_FIELDS), pick(*NOT_STR, None)), hint=r"parameter|__setitem__")
              + bads("value", (field_out_of_range(STRUT_FIELDS),
                               lambda rng: (rng.choice(sorted(STRUT_FIELDS)), rng.choice(PYBIND_NOT_FLOAT + (None,)))),
                     hint=r"parameter|__setitem__")),
        valid=fields_after),
    "VehicleParams.__getitem__": Entry(
        make=lambda tmp: fleetdyn.hmmwv_params(),
        call=lambda p, bad, v: p[v],
        bads=bads("name", (junk(STRUT_FIELDS), pick(*NOT_STR, None, 0, -1)), hint=r"parameter|__getitem__"),
        valid=fields_after),
    "VehicleParams.update": Entry(
        make=lambda tmp: fleetdyn.hmmwv_params(),
        call=lambda p, bad, v: p.update(v),
        bads=bads("values", (lambda rng: {junk(STRUT_FIELDS)(rng): 1.0},
                             lambda rng: {"tire.mu": 0.9, rng.choice((3, None)): 1.0},
                             lambda rng: {"tire.mu": 0.9, **dict([field_out_of_range(STRUT_FIELDS)(rng)])},
                             lambda rng: {"tire.mu": 0.9, rng.choice(sorted(STRUT_FIELDS)): rng.choice(NOT_SCALAR)},
                             pick({"tire.mu": 0.9, "total_mass": 150.0}, [("tire.mu", 0.9)], None, "tire.mu", 3)),
                  hint=r"parameter|update|keys|total_mass"),
        valid=fields_after),
    "CeParams.__setitem__": Entry(
        make=lambda tmp: fleetdyn.hmmwv_ce_params(),
        call=set_item,
        bads=(bads("name", (junk(CE_FIELDS), pick(*NOT_STR, None)), hint=r"parameter|__setitem__")
              + bads("value", (field_out_of_range(CE_FIELDS),
                               lambda rng: (rng.choice(sorted(CE_FIELDS)), rng.choice(PYBIND_NOT_FLOAT + (None,)))),
                     hint=r"parameter|__setitem__")),
        valid=fields_after),
    "CeParams.update": Entry(
        make=lambda tmp: fleetdyn.hmmwv_ce_params(),
        call=lambda p, bad, v: p.update(v),
        bads=bads("values", (lambda rng: {junk(CE_FIELDS)(rng): 1.0},
                             lambda rng: {"tire.mu": 0.9, **dict([field_out_of_range(CE_FIELDS)(rng)])},
                             lambda rng: {"tire.mu": 0.9, rng.choice(sorted(CE_FIELDS)): rng.choice(NOT_SCALAR)},
                             pick({"tire.mu": 0.9, "spring_free_length_front": 0.05}, None, "tire.mu",
                                  {"chassis_inertia_xx": 1.0, "chassis_inertia_yy": 1.0, "chassis_inertia_zz": 1e6})),
                  hint=r"parameter|update|keys"),
        valid=fields_after),
    "vehicle_preset": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.vehicle_preset(v),
        bads=bads("name", (junk(set(fleetdyn.vehicle_preset_names())), pick(*NOT_STR, None)), hint=r"preset|name"),
        valid=lambda _: fleetdyn.vehicle_preset("hmmwv").to_dict()),
    "VehicleParams": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.VehicleParams(v),
        bads=bads("preset", (junk(set(fleetdyn.vehicle_preset_names())), pick(*NOT_STR, None))),
        valid=lambda _: fleetdyn.VehicleParams("hmmwv").to_dict()),
    "strut_default_step": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.strut_default_step(v),
        bads=bads("params", (pick(None, 3, "hmmwv", {"tire.mu": 0.8}, fleetdyn.hmmwv_ce_params(),
                                   [fleetdyn.hmmwv_params()]),)),
        valid=lambda _: fleetdyn.strut_default_step(fleetdyn.hmmwv_params())),
    "ce_default_step": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.ce_default_step(v),
        bads=bads("params", (pick(None, 3, "hmmwv", {"tire.mu": 0.8}, fleetdyn.hmmwv_params(),
                                   [fleetdyn.hmmwv_ce_params()]),)),
        valid=lambda _: fleetdyn.ce_default_step(fleetdyn.hmmwv_ce_params())),
    "default_observations": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.default_observations(v),
        bads=bads("task", (junk({"path_following", "reach_speed"}), pick(*NOT_STR, None))),
        valid=lambda _: fleetdyn.default_observations("reach_speed")),
    "env_randomizable_params": Entry(
        make=lambda tmp: None,
        call=lambda _, bad, v: fleetdyn.env_randomizable_params(v),
        bads=bads("model", (junk({"strut", "ce"}), pick("pgs", *NOT_STR, None))),
        valid=lambda _: fleetdyn.env_randomizable_params("ce")),
    # ---- VectorEnv ---------------------------------------------------------------------------------------
    "VectorEnv": Entry(
        make=lambda tmp: None,
        call=env_config_call,
        bads=env_config_bads(),
        valid=lambda _: [drive(env(model)) for model in ("strut", "ce")],
        cases=80),
    "VectorEnv.step": Entry(
        make=lambda tmp: env(),
        call=lambda e, bad, v: e.step(v),
        bads=bads("actions", (bad_dtype((N, 3), ACTION_DTYPES),
                              pick(*[np.zeros(shape, np.float32) for shape in
                                     ((N, 2), (N, 4), (N + 1, 3), (N - 1, 3), (3 * N,), (3, N), (N, 3, 1), (), (0, 3))]),
                              spoiled((N, 3), dtype=np.float32), spoiled((N, 3)), spoiled((N, 3), strided=True),
                              lambda rng: np.full((N, 3), rng.choice((1e39, -1e39, 1e300))),
                              pick(None, "abc", {"a": 1}, object(), [[0, 0, 0]] * N, [[0.0, 0.0]] * N),
                              pick(FakeTensor("x"), FakeTensor((2, 0)), FakeTensor((1,)))),
                  hint=r"action"),
        valid=drive),
    "VectorEnv.reset": Entry(
        make=lambda tmp: env(),
        call=env_reset_call,
        bads=(bads("seed", (pick(-1, 2**64, 10**30, 1.5, "1", math.nan, [1], np.float64(1.0), b"1"),))
              + bads("options", (pick(3, "reset_mask", [("reset_mask", None)], ("reset_mask",)),
                                 lambda rng: {junk({"reset_mask"})(rng): None}), hint="option")
              + bads("reset_mask", (wrong_length(N), wrong_ndim(N),
                                    bad_dtype((N,), (np.float32, np.float64, np.complex64, object, "U4")),
                                    pick(np.ones(()), 1, "ab", [True], [[True, False]], [True, [False]])),
                     hint=r"reset_mask|mask")),
        valid=lambda e: (e.reset(seed=4)[0], drive(e))),
    "VectorEnv.set_base_param": Entry(
        make=lambda tmp: env(use_default_randomization=False),
        call=lambda e, bad, v: e.set_base_param(**({"name": v, "values": 1.0} if bad.arg == "name" else
                                                   {"name": v[0], "values": v[1]})),
        bads=(bads("name", (junk(STRUT_FIELDS), pick(*NOT_STR, None)), hint=r"parameter|name")
              + bads("values", (field_out_of_range(STRUT_FIELDS),), hint=r"set_base_param")
              + bads("values", tuple((lambda d: lambda rng: ("tire.mu", d(rng)))(d) for d in PER_VEHICLE),
                     hint=r"tire\.mu")),
        valid=lambda e: (e.set_base_param("tire.mu", [0.6, 0.9]), e.reset(seed=2)[0], e.episode_param("tire.mu"), drive(e))),
    "VectorEnv.set_base_params": Entry(
        make=lambda tmp: env(use_default_randomization=False),
        call=lambda e, bad, v: e.set_base_params(v),
        bads=bads("params", (pick(None, 3, "abc", [], [None], [1.0], [fleetdyn.hmmwv_params()] * (N + 1),
                                   fleetdyn.hmmwv_ce_params(), [fleetdyn.hmmwv_ce_params()], INVALID_STRUT,
                                   [fleetdyn.hmmwv_params(), INVALID_STRUT]),),
                  hint=r"set_base_params|param|mass"),
        valid=lambda e: (e.set_base_params([fleetdyn.hmmwv_params()] * N), e.reset(seed=2)[0], drive(e))),
    "VectorEnv.episode_param": Entry(
        make=lambda tmp: env(),
        call=lambda e, bad, v: e.episode_param(v),
        bads=bads("name", (junk(STRUT_FIELDS), pick(*NOT_STR, None)), hint=r"parameter|name"),
        valid=lambda e: e.episode_param("total_mass")),
    "BufferView.__dlpack__": Entry(
        make=lambda tmp: env(),
        call=dlpack_call,
        bads=(bads("max_version", (pick("x", (1,), (1, 0, 0), [1, 0], (1.5, 0), (2**40, 0), 3),))
              + bads("dl_device", (pick("cpu", (1,), (2, 0), (1, 5), [1, 0], (1.0, 0), 3),), hint=r"dl_device|lives on")
              + bads("copy", (pick("x", 1, 1.0, True, [True]),), hint=r"copy")),
        valid=lambda e: np.from_dlpack(e.buffers()["observations"]).copy(),
        accepted=ACCEPTED + (BufferError,)),
}


# ---- the checks ------------------------------------------------------------------------------------------


def show(value):
    """A short description of a value for failure messages."""
    if isinstance(value, np.ndarray):
        first = np.array2string(value.ravel()[:4], precision=4, separator=", ")
        layout = "" if value.flags.c_contiguous else ", non-contiguous"
        return f"ndarray(shape={value.shape}, dtype={value.dtype}{layout}, first {first})"
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def refusal_problem(call, where, hint, accepted):
    """None if call() was refused cleanly, else what went wrong."""
    start = time.perf_counter()
    try:
        call()
    except accepted as e:
        message = str(e)
        seconds = time.perf_counter() - start
        if type(e) is RuntimeError:
            return f"{where}: bare RuntimeError: {message}"
        if not message.strip():
            return f"{where}: {type(e).__name__} without a message"
        if UNCHECKED.search(message):
            return f"{where}: {type(e).__name__} from an unchecked conversion: {message}"
        if hint and not re.search(hint, message, re.IGNORECASE):
            return f"{where}: {type(e).__name__} whose message does not say what was wrong (expected /{hint}/): {message}"
        if seconds > SLOW:
            return f"{where}: refused only after {seconds:.1f} s (it attempted the work): {message}"
        return None
    except Exception as e:  # noqa: BLE001  (anything else is a finding, reported with its message)
        return f"{where}: {type(e).__name__} (not a clean refusal): {e}"
    return f"{where}: accepted (no error) after {time.perf_counter() - start:.2f} s"


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmSize")


@contextlib.contextmanager
def address_space_cap(extra=4 << 30):
    """While the bad calls run, cap the address space a few GiB above what the process holds, so an
    entry point that attempts a huge allocation raises MemoryError (reported) instead of exhausting
    the machine. Linux only, and not where address space is reserved as it goes: builds with CUDA
    (the runtime reserves it as it starts) or a process that already holds terabytes (sanitizers)."""
    try:
        import resource
        limits = resource.getrlimit(resource.RLIMIT_AS)
        held = vm_size()
        cap = held + extra
    except (ImportError, OSError, ValueError):
        limits = None
    if (limits is None or fleetdyn.built_with_cuda or held > 1 << 40
            or (limits[0] != resource.RLIM_INFINITY and limits[0] <= cap)):
        yield
        return
    if limits[1] != resource.RLIM_INFINITY:
        cap = min(cap, limits[1])
    resource.setrlimit(resource.RLIMIT_AS, (cap, limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)


def same(a, b):
    """a == b for nested results of valid calls (arrays compared exactly)."""
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b, equal_nan=True)
    return a == b


def test_the_table_draws_a_few_hundred_cases():
    total = sum(max(entry.cases, len(entry.bads)) for entry in ENTRIES.values())
    assert 300 <= total <= 800, total
    for name, entry in ENTRIES.items():
        assert entry.bads, name


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # float64 actions past float32
@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_bad_arguments_are_refused(name, tmp_path):
    entry = ENTRIES[name]
    rng = random.Random(f"{SEED}:{name}")  # str seeds hash with sha512: the same draws every run
    target = entry.make(tmp_path)
    problems = []
    with address_space_cap():
        for bad, value in entry.draws(rng):
            extra = "".join(f", {k}={v!r}" for k, v in bad.extra.items())
            where = f"{name}({bad.arg}={show(value)}{extra})"
            # A hang ends the run after HANG seconds with the stack of the call (naming the entry point).
            faulthandler.dump_traceback_later(HANG, exit=True)
            try:
                problem = refusal_problem(lambda: entry.call(target, bad, value), where, bad.hint or re.escape(bad.arg),
                                          entry.accepted)
            finally:
                faulthandler.cancel_dump_traceback_later()
            if problem:
                problems.append(problem)
    # The fixed part: after the rejected calls, a valid call works and gives what it gives on a
    # fresh object (rejected calls changed nothing).
    try:
        after, fresh = entry.valid(target), entry.valid(entry.make(tmp_path))
        if not same(after, fresh):
            problems.append(f"{name}: after the rejected calls a valid call gives {show(after)}, on a fresh object "
                            f"{show(fresh)}")
    except Exception as e:  # noqa: BLE001
        problems.append(f"{name}: a valid call after the rejected calls raised {type(e).__name__}: {e}")
    cases = max(entry.cases, len(entry.bads))
    assert not problems, f"{len(problems)} problem(s) in {cases} bad calls of {name}:\n" + "\n".join(problems)


# ---- fixed cases: what this file found, each once --------------------------------------------------------


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
