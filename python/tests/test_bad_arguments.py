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

from bad_arguments_util import *  # noqa: F401,F403 (the pools and generators the table is written in)


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
        bads=sum((bads(arg, PER_VEHICLE, hint=rf"\b{arg}\b|initial conditions") for arg in ("x", "y", "yaw", "speed", "lateral_speed")), ()),
        valid=lambda b: (b.set_initial_conditions(x=[0.0, 5.0], speed=3.0, lateral_speed=[0.0, -2.0]), run(b))),
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
    "StrutParams.__setitem__": set_item_entry(fleetdyn.hmmwv_params, STRUT_FIELDS),
    "StrutParams.__getitem__": Entry(
        make=lambda tmp: fleetdyn.hmmwv_params(),
        call=lambda p, bad, v: p[v],
        bads=bads("name", (junk(STRUT_FIELDS), pick(*NOT_STR, None, 0, -1)), hint=r"parameter|__getitem__"),
        valid=fields_after),
    "StrutParams.update": Entry(
        make=lambda tmp: fleetdyn.hmmwv_params(),
        call=lambda p, bad, v: p.update(v),
        bads=bads("values", (lambda rng: {junk(STRUT_FIELDS)(rng): 1.0},
                             lambda rng: {"tire.mu": 0.9, rng.choice((3, None)): 1.0},
                             lambda rng: {"tire.mu": 0.9, **dict([field_out_of_range(STRUT_FIELDS)(rng)])},
                             lambda rng: {"tire.mu": 0.9, rng.choice(sorted(STRUT_FIELDS)): rng.choice(NOT_SCALAR)},
                             pick({"tire.mu": 0.9, "total_mass": 150.0}, [("tire.mu", 0.9)], None, "tire.mu", 3)),
                  hint=r"parameter|update|keys|total_mass"),
        valid=fields_after),
    "CeParams.__setitem__": set_item_entry(fleetdyn.hmmwv_ce_params, CE_FIELDS),
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
    "vehicle_preset": function_entry(
        fleetdyn.vehicle_preset, "name", (junk(set(fleetdyn.vehicle_preset_names())), pick(*NOT_STR, None)),
        lambda: fleetdyn.vehicle_preset("hmmwv").to_dict(), hint=r"preset|name"),
    "StrutParams": function_entry(
        fleetdyn.StrutParams, "preset", (junk(set(fleetdyn.vehicle_preset_names())), pick(*NOT_STR, None)),
        lambda: fleetdyn.StrutParams("hmmwv").to_dict()),
    "strut_default_step": function_entry(
        fleetdyn.strut_default_step, "params",
        (pick(None, 3, "hmmwv", {"tire.mu": 0.8}, fleetdyn.hmmwv_ce_params(), [fleetdyn.hmmwv_params()]),),
        lambda: fleetdyn.strut_default_step(fleetdyn.hmmwv_params())),
    "ce_default_step": function_entry(
        fleetdyn.ce_default_step, "params",
        (pick(None, 3, "hmmwv", {"tire.mu": 0.8}, fleetdyn.hmmwv_params(), [fleetdyn.hmmwv_ce_params()]),),
        lambda: fleetdyn.ce_default_step(fleetdyn.hmmwv_ce_params())),
    "default_observations": function_entry(
        fleetdyn.default_observations, "task", (junk({"path_following", "reach_speed"}), pick(*NOT_STR, None)),
        lambda: fleetdyn.default_observations("reach_speed")),
    "env_randomizable_params": function_entry(
        fleetdyn.env_randomizable_params, "model", (junk({"strut", "ce"}), pick("pgs", *NOT_STR, None)),
        lambda: fleetdyn.env_randomizable_params("ce")),
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
