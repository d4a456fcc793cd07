"""Shared by the bad-argument tests (test_bad_arguments.py, test_bad_arguments_findings.py): the
value pools and generators the table draws from, builders of the objects under test, and the
checks of a refusal."""

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


TERRAIN_KEYS = {"type", "base_height", "mu_scale", "slope", "bank", "x", "y", "height", "radius", "soil", "curb"}
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


def function_entry(function, arg, draws, valid, hint=""):
    """function(value) of a module function with one argument, `arg`; valid() a valid call."""
    return Entry(make=lambda tmp: None, call=lambda _, bad, v: function(v), bads=bads(arg, draws, hint=hint),
                 valid=lambda _: valid())


def set_item_entry(make_params, fields):
    """params[name] = value on a parameter set (made by make_params) whose field names are fields:
    unknown names and values out of range or of the wrong type."""
    return Entry(
        make=lambda tmp: make_params(),
        call=set_item,
        bads=(bads("name", (junk(fields), pick(*NOT_STR, None)), hint=r"parameter|__setitem__")
              + bads("value", (field_out_of_range(fields),
                               lambda rng: (rng.choice(sorted(fields)), rng.choice(PYBIND_NOT_FLOAT + (None,)))),
                     hint=r"parameter|__setitem__")),
        valid=fields_after)


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
