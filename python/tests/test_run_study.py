"""fleetdyn.run_study: a study from a file and from a dict writes the same samples.csv, byte for
byte, as `fleetdyn run` with the same arguments; an interrupted study resumes (from Python or
the command line) to the same bytes as an uninterrupted one; bad arguments and bad scenarios
raise errors naming what was wrong. The study is small (2 sampled parameters, 1 s of a
fishhook, CPU, fp64) so the whole file runs in a few seconds."""

import filecmp
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import fleetdyn

pytestmark = pytest.mark.skipif(not fleetdyn.has_scenarios, reason="built without the scenario reader (yaml-cpp)")

SAMPLES, CHUNK = 24, 4

SCENARIO_YAML = """\
name: small_mc
model: strut
vehicle: {preset: hmmwv}
terrain: {type: flat}
initial: {speed: 20.0}
driver: {type: fishhook, amplitude: 0.27, rate: 1.41, start_time: 0.2}
duration: 1.0
precision: fp64
backend: cpu
output: out/small_mc
study:
  samples: 24
  seed: 3
  chunk: 4
  sampling: sobol
  parameters:
    total_mass: {dist: uniform, min: 2573, max: 3070}
    tire.mu: {dist: truncated_normal, mean: 0.85, sd: 0.1, min: 0.5, max: 1.1}
  rollover: {roll_deg: 45, two_wheel_lift_s: 0.5}
"""


def scenario_dict():
    """SCENARIO_YAML's structure, written independently of it."""
    return {
        "name": "small_mc", "model": "strut", "vehicle": {"preset": "hmmwv"}, "terrain": {"type": "flat"},
        "initial": {"speed": 20.0},
        "driver": {"type": "fishhook", "amplitude": 0.27, "rate": 1.41, "start_time": 0.2},
        "duration": 1.0, "precision": "fp64", "backend": "cpu", "output": "out/small_mc",
        "study": {
            "samples": SAMPLES, "seed": 3, "chunk": CHUNK, "sampling": "sobol",
            "parameters": {
                "total_mass": {"dist": "uniform", "min": 2573, "max": 3070},
                "tire.mu": {"dist": "truncated_normal", "mean": 0.85, "sd": 0.1, "min": 0.5, "max": 1.1},
            },
            "rollover": {"roll_deg": 45, "two_wheel_lift_s": 0.5},
        },
    }


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "small_mc.yaml"
    path.write_text(SCENARIO_YAML)
    return str(path)


def cli_program():
    build = os.environ.get("FLEETDYN_PYTHON_BUILD_DIR")
    program = os.path.join(os.path.dirname(build), "fleetdyn") if build else ""
    if not os.path.isfile(program):
        pytest.skip("the fleetdyn program is not next to the Python build (FLEETDYN_PYTHON_BUILD_DIR)")
    return program


def cli(*args):
    return subprocess.run([cli_program(), "run", *args], capture_output=True, text=True, timeout=120)


def rows(folder):
    with open(os.path.join(folder, "samples.csv")) as f:
        return sum(1 for _ in f) - 1


def same_file(a, b, name="samples.csv"):
    return filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False)


# ---- the same study as the command line --------------------------------------------------------------
def test_file_and_dict_write_the_command_lines_samples(scenario_file, tmp_path):
    reference = str(tmp_path / "cli")
    done = cli(scenario_file, "--out", reference, "--samples", "20", "--threads", "1", "--quiet")
    assert done.returncode == 0, done.stderr

    from_file = fleetdyn.run_study(scenario_file, samples=20, out=tmp_path / "file", threads=1, quiet=True)
    assert same_file(reference, from_file.out)
    for name in ("study.json", "summary.json", "report.html"):
        assert os.path.isfile(os.path.join(from_file.out, name))

    from_dict = fleetdyn.run_study(scenario_dict(), samples=20, out=str(tmp_path / "dict"), threads=2, quiet=True)
    assert same_file(reference, from_dict.out)  # threads do not change results

    # The returned table and summary are the files' contents.
    s = from_file.samples
    if not isinstance(s, dict):  # pandas
        s = {name: s[name].to_numpy() for name in s.columns}
    with open(os.path.join(reference, "samples.csv")) as f:
        header = f.readline().strip().split(",")
        table = np.array([[float(x) for x in line.split(",")] for line in f])
    assert list(s) == header
    assert table.shape == (20, len(header))
    np.testing.assert_array_equal(s["sample"], np.arange(20))
    for k, name in enumerate(header):
        np.testing.assert_array_equal(np.asarray(s[name], dtype=np.float64), table[:, k])
    assert from_file.summary["study"]["samples"] == 20
    assert from_file.summary["cli_overrides"]["samples"] == 20
    assert from_file.summary["counts"] == from_dict.summary["counts"]


def test_samples_as_numpy_and_as_pandas(scenario_file, tmp_path):
    from fleetdyn import _study

    result = fleetdyn.run_study(scenario_file, samples=6, out=tmp_path / "a", quiet=True)
    path = os.path.join(result.out, "samples.csv")
    arrays = _study.read_samples(path, use_pandas=False)
    assert arrays["sample"].dtype == np.int64 and arrays["valid"].dtype == np.int64
    assert arrays["tire.mu"].dtype == np.float64 and arrays["tire.mu"].shape == (6,)
    import pandas  # scripts/install-deps.sh --test installs it for the tests
    frame = _study.read_samples(path)
    assert isinstance(frame, pandas.DataFrame) and list(frame.columns) == list(arrays)
    np.testing.assert_array_equal(frame["tire.mu"].to_numpy(), arrays["tire.mu"])


def test_default_folder_is_a_new_temporary_one(scenario_file):
    a = fleetdyn.run_study(scenario_file, samples=3, quiet=True)
    b = fleetdyn.run_study(scenario_file, samples=3, quiet=True)
    assert a.out != b.out and same_file(a.out, b.out)
    assert os.path.basename(a.out).startswith("fleetdyn-study-")


# ---- progress, interruption and resume ----------------------------------------------------------------
class Stop(Exception):
    pass


def interrupt_after_first_chunk(done, total):
    """Raises in the second chunk: the first is on disk (a chunk's last slice reports CHUNK done
    before its rows are appended)."""
    assert total == SAMPLES
    if done > CHUNK:
        raise Stop(done)


def test_progress_reports_samples_in_order(scenario_file, tmp_path):
    seen = []
    fleetdyn.run_study(scenario_file, out=tmp_path / "p", quiet=True, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, SAMPLES) and seen[-1] == (SAMPLES, SAMPLES)
    assert all(t == SAMPLES for _, t in seen)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


def test_interrupted_study_resumes_to_the_same_bytes(scenario_file, tmp_path):
    whole = fleetdyn.run_study(scenario_file, out=tmp_path / "whole", quiet=True)
    part = str(tmp_path / "part")
    with pytest.raises(Stop):
        fleetdyn.run_study(scenario_file, out=part, quiet=True, progress=interrupt_after_first_chunk)
    kept = rows(part)
    assert 0 < kept < SAMPLES and kept % CHUNK == 0  # whole chunks only
    assert not os.path.exists(os.path.join(part, "summary.json"))

    # A second fresh start into the same folder is refused, nothing overwritten.
    with pytest.raises(fleetdyn.Error, match="already holds a study"):
        fleetdyn.run_study(scenario_file, out=part, quiet=True)
    assert rows(part) == kept

    resumed = fleetdyn.run_study(out=part, resume=True, quiet=True)
    assert same_file(whole.out, part)
    assert resumed.summary["resumed"] is True
    assert resumed.summary["samples_done_before_this_run"] == kept
    assert resumed.summary["counts"] == whole.summary["counts"]


def test_ctrl_c_stops_the_study_resumably(tmp_path):
    """A real SIGINT while the study runs with no Python callback: the study checks for it at
    each slice of steps and stops, keeping whole chunks."""
    total = 400  # about a second on one core: the signal lands while the study runs
    part = str(tmp_path / "part")
    sent = []

    def press_ctrl_c():
        while not sent:
            n = rows(part) if os.path.isfile(os.path.join(part, "samples.csv")) else 0
            if n >= CHUNK:
                if n < total:
                    os.kill(os.getpid(), signal.SIGINT)
                sent.append(n)
            time.sleep(0.001)

    watcher = threading.Thread(target=press_ctrl_c)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fleetdyn.run_study(scenario_dict(), samples=total, out=part, threads=1, quiet=True, progress=False)
    finally:
        sent.append(None)
        watcher.join()
    kept = rows(part)
    assert CHUNK <= kept < total and kept % CHUNK == 0
    resumed = fleetdyn.run_study(out=part, resume=True, quiet=True)
    assert rows(part) == total
    assert resumed.summary["samples_done_before_this_run"] == kept


def test_python_and_command_line_resume_each_others_studies(scenario_file, tmp_path):
    whole = fleetdyn.run_study(scenario_dict(), out=tmp_path / "whole", quiet=True)
    # Started from a dict in Python, finished by `fleetdyn run --resume`.
    part = str(tmp_path / "py_then_cli")
    with pytest.raises(Stop):
        fleetdyn.run_study(scenario_dict(), out=part, quiet=True, progress=interrupt_after_first_chunk)
    assert 0 < rows(part) < SAMPLES
    done = cli("--resume", part, "--quiet")
    assert done.returncode == 0, done.stderr
    assert same_file(whole.out, part)
    # A study `fleetdyn run` wrote, resumed from Python (a complete one: nothing left to do).
    other = str(tmp_path / "cli")
    assert cli(scenario_file, "--out", other, "--quiet").returncode == 0
    again = fleetdyn.run_study(out=other, resume=True, quiet=True)
    assert same_file(whole.out, other)
    assert again.summary["samples_done_before_this_run"] == SAMPLES


def test_the_study_runs_without_the_gil(scenario_file, tmp_path, monkeypatch):
    """Another Python thread counts while the compiled study runs (no Python callback in it)."""
    from fleetdyn import _fleetdyn

    ticks, running, during = [0], [True], []
    compiled = _fleetdyn._run_study

    def timed(*args):
        before = ticks[0]
        result = compiled(*args)
        during.append(ticks[0] - before)
        return result

    monkeypatch.setattr(_fleetdyn, "_run_study", timed)

    def count():
        while running[0]:
            ticks[0] += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        start = ticks[0]
        time.sleep(0.1)  # the counter alone: its pace
        per_100ms = ticks[0] - start
        fleetdyn.run_study(scenario_file, samples=300, out=tmp_path / "g", threads=1, quiet=True, progress=False)
    finally:
        running[0] = False
        thread.join()
    # Holding the GIL, the study would let the counter run only until the call began (at most a
    # switch interval, 5 ms); released, for most of the study (about a second on one core).
    assert during[0] > per_100ms // 2


def test_printed_progress_and_summary(scenario_file, tmp_path, capsys):
    fleetdyn.run_study(scenario_file, samples=4, out=tmp_path / "shown")
    captured = capsys.readouterr()
    assert "4/4 samples" in captured.err
    assert "small_mc: 4 samples" in captured.out
    fleetdyn.run_study(scenario_file, samples=4, out=tmp_path / "quiet", quiet=True)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


# ---- errors -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"scenario": 42}, TypeError, r"scenario: expected .*42 \(int\)"),
    ({"scenario": None}, TypeError, r"scenario: expected .*None"),
    ({"samples": 0}, ValueError, r"samples: 0 is outside \[1, 1000000000000\]"),
    ({"samples": 10**30}, ValueError, r"samples: 10{30} is outside \[1, "),
    ({"samples": True}, TypeError, r"samples: expected an integer"),
    ({"samples": 2.0}, TypeError, r"samples: expected an integer"),
    ({"threads": -1}, ValueError, r"threads: -1 is outside \[0, 4096\]"),
    ({"threads": -(2**40)}, ValueError, r"threads: -1099511627776 is outside \[0, 4096\]"),
    ({"backend": "gpu"}, ValueError, r"backend: .*'gpu'.*auto"),
    ({"backend": 1}, TypeError, r"backend: expected a str"),
    ({"precision": "fp16"}, ValueError, r"precision: .*'fp16'"),
    ({"out": ""}, ValueError, r"out: empty folder name"),
    ({"out": 3}, TypeError, r"out: expected a folder path"),
    ({"resume": "yes"}, TypeError, r"resume: expected a bool"),
    ({"quiet": None}, TypeError, r"quiet: expected a bool"),
    ({"progress": 42}, TypeError, r"progress: expected None, a bool or a callable"),
    ({"resume": True, "out": None, "scenario": None}, ValueError, r"out: resume=True continues the study in `out`"),
    ({"resume": True, "out": "somewhere"}, ValueError, r"scenario: resume=True takes the study's scenario"),
])
def test_bad_arguments(scenario_file, tmp_path, kwargs, error, pattern):
    args = {"scenario": scenario_file, "out": str(tmp_path / "never"), "quiet": True, **kwargs}
    with pytest.raises(error, match=pattern):
        fleetdyn.run_study(**args)
    assert not os.path.exists(tmp_path / "never")  # bad input creates no folder


def test_scenario_errors_name_the_file_and_field_as_the_command_line(scenario_file, tmp_path):
    bad = scenario_dict()
    bad["study"]["samples"] = -5
    with pytest.raises(fleetdyn.Error, match=r"^<scenario dict>:\d+: study\.samples: ") as raised:
        fleetdyn.run_study(bad, out=tmp_path / "never", quiet=True)
    # The same field in a file: the same words after the file name and line as the command line's.
    path = tmp_path / "bad.yaml"
    path.write_text(SCENARIO_YAML.replace("samples: 24", "samples: -5"))
    done = cli(str(path), "--out", str(tmp_path / "never"))
    assert done.returncode == 2
    with pytest.raises(fleetdyn.Error) as from_file:
        fleetdyn.run_study(str(path), out=tmp_path / "never", quiet=True)
    assert done.stderr.strip() == "fleetdyn run: " + str(from_file.value)
    assert str(from_file.value).split("study.samples: ")[1] == str(raised.value).split("study.samples: ")[1]
    assert not os.path.exists(tmp_path / "never")

    with pytest.raises(fleetdyn.Error, match="cannot open scenario file"):
        fleetdyn.run_study(str(tmp_path / "missing.yaml"), quiet=True)
    with pytest.raises(fleetdyn.Error, match=r"<scenario dict>: has no study section"):
        fleetdyn.run_study({k: v for k, v in scenario_dict().items() if k != "study"}, quiet=True)
    with pytest.raises(TypeError, match=r"scenario: study\.parameters: keys must be str, got 1 \(int\)"):
        fleetdyn.run_study({"study": {"parameters": {1: {}}}}, quiet=True)
    with pytest.raises(TypeError, match=r"scenario: driver\.amplitude: expected .* got"):
        fleetdyn.run_study({"driver": {"amplitude": object()}}, quiet=True)
    with pytest.raises(fleetdyn.Error, match="holds no study"):
        fleetdyn.run_study(out=tmp_path, resume=True, quiet=True)
