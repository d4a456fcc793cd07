"""fleetdyn.run_study: a Monte Carlo study (a scenario with a ``study:`` section) from Python.

The study runs through the command line's own job (``fleetdyn run``), so it writes the same
files (study.json, samples.csv, summary.json, report.html) byte for byte and resumes the same
way: a study started here can be continued by ``fleetdyn run --resume DIR`` and the other way
round. This half checks the arguments, turns a scenario dict into YAML text, shows progress and
reads the results back; the compiled half is fleetdyn._fleetdyn._run_study (bind_study.cpp).
"""

from __future__ import annotations

import collections
import json
import math
import numbers
import os
import re
import sys
import tempfile
import time
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from . import _fleetdyn

StudyResult = collections.namedtuple("StudyResult", ["samples", "summary", "out"])
StudyResult.__doc__ = """What fleetdyn.run_study returns.

samples: samples.csv as a pandas.DataFrame when pandas is importable, else a dict of numpy arrays
         (column name -> array; ``sample`` and ``valid`` int64, every other column float64, NaN
         for the metrics and events of invalid samples).
summary: summary.json as a dict.
out:     the study's folder (str), holding study.json, samples.csv, summary.json and report.html."""

# The name a scenario dict goes by in messages (and in study.json's scenario_path).
DICT_SCENARIO_NAME = "<scenario dict>"

# `fleetdyn run` flags whose errors are about one of run_study's arguments.
_FLAG_ARGUMENTS = {"--samples": "samples", "--backend": "backend", "--precision": "precision",
                   "--threads": "threads", "--out": "out"}
_INT64 = (-(2**63), 2**63 - 1)
_INT32 = (-(2**31), 2**31 - 1)


def _describe(value: Any) -> str:
    text = repr(value).replace("\n", " ")
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


# ---- a scenario dict as YAML text -------------------------------------------------------------------
# Names written plain (unquoted): they read back as the same string in YAML 1.1 and 1.2 alike.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"}


def _yaml_text(text: str) -> str:
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def _yaml_scalar(value: Any, where: str) -> str:
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return ".nan"
        if math.isinf(x):
            return ".inf" if x > 0 else "-.inf"
        return repr(x)
    if isinstance(value, (str, os.PathLike)):
        return _yaml_text(os.fspath(value))
    raise TypeError(f"scenario: {where}: expected a dict, list, str, number, bool or None, got {_describe(value)}")


def _yaml_key(key: Any, where: str) -> str:
    if not isinstance(key, str):
        raise TypeError(f"scenario: {where or 'top level'}: keys must be str, got {_describe(key)}")
    return _yaml_text(key)


def _yaml_flow(value: Any, where: str) -> str:
    if isinstance(value, Mapping):
        items = (f"{_yaml_key(k, where)}: {_yaml_flow(v, _join(where, k))}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_flow(v, f"{where}[{i}]") for i, v in enumerate(value)) + "]"
    return _yaml_scalar(value, where)


def _join(where: str, key: Any) -> str:
    return f"{where}.{key}" if where else str(key)


def _yaml_block(mapping: Mapping, indent: int, where: str, lines: list[str]) -> None:
    """One line per key (nested dicts indented), lists in flow style: a field's line number
    in a message counts these lines."""
    pad = " " * indent
    for key, value in mapping.items():
        name = _yaml_key(key, where)
        if isinstance(value, Mapping) and value:
            lines.append(f"{pad}{name}:")
            _yaml_block(value, indent + 2, _join(where, key), lines)
        else:
            lines.append(f"{pad}{name}: {_yaml_flow(value, _join(where, key))}")


def scenario_yaml(scenario: Mapping) -> str:
    """The YAML text of a scenario dict (the structure of a scenario file)."""
    lines: list[str] = []
    _yaml_block(scenario, 0, "", lines)
    return "\n".join(lines) + "\n"


# ---- results ------------------------------------------------------------------------------------------
def read_samples(path: str, use_pandas: bool | None = None):
    """samples.csv as a pandas.DataFrame (pandas importable and use_pandas not False) or a dict
    of numpy arrays."""
    if use_pandas is not False:
        try:
            import pandas
        except ImportError:
            if use_pandas:
                raise
        else:
            return pandas.read_csv(path)
    with open(path, encoding="utf-8") as f:
        names = f.readline().rstrip("\n").split(",")
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64)
    table = table.reshape(-1, len(names))
    out = {}
    for k, name in enumerate(names):
        column = table[:, k]
        out[name] = column.astype(np.int64) if name in ("sample", "valid") else column.copy()
    return out


# ---- progress -----------------------------------------------------------------------------------------
class _ProgressLine:
    """'study: 38%  3800/10000 samples' on sys.stderr, redrawn in place at most every 0.2 s."""

    def __init__(self, name: str):
        self.name, self.last, self.drawn = name, 0.0, False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.drawn and now - self.last < 0.2 and done < total:
            return
        self.last, self.drawn = now, True
        sys.stderr.write(f"\r{self.name}: {100 * done // max(total, 1):3d}%  {done}/{total} samples")
        sys.stderr.flush()

    def end(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.drawn = False


# ---- argument checks ----------------------------------------------------------------------------------
def _integer(value: Any, name: str, bounds: tuple[int, int]):
    """None or an int (not bool), clamped into `bounds` (the C++ range check then names it)."""
    if value is None:
        return None, None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an integer or None, got {_describe(value)}")
    x = int(value)
    clamped = min(max(x, bounds[0]), bounds[1])
    return clamped, (str(clamped), str(x)) if clamped != x else None


def _choice(value: Any, name: str):
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name}: expected a str or None, got {_describe(value)}")
    return value


def _folder(value: Any, name: str):
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name}: expected a folder path (str or os.PathLike) or None, got {_describe(value)}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{name}: expected a str path, got {_describe(value)}")
    if not path:
        raise ValueError(f"{name}: empty folder name")
    return path


def _flag_error(message: str, renamed: list) -> Exception:
    """A `fleetdyn run` message as an exception: ValueError naming the argument for the
    command line's option checks, fleetdyn.Error otherwise."""
    text = message.strip()
    lines = [line[len("fleetdyn run: "):] if line.startswith("fleetdyn run: ") else line for line in text.splitlines()]
    text = "\n".join(lines) if lines else "the study failed (no message)"
    for old, new in renamed:
        text = text.replace(old, new)
    for flag, argument in _FLAG_ARGUMENTS.items():
        if text.startswith(flag + ":") or text.startswith(flag + " "):
            return ValueError(argument + text[len(flag):])
    return _fleetdyn.Error(text)


# ---- the entry point ----------------------------------------------------------------------------------
def run_study(scenario: str | os.PathLike | Mapping | None = None, samples: int | None = None,
              out: str | os.PathLike | None = None, backend: str | None = None, precision: str | None = None,
              threads: int | None = None, resume: bool = False,
              progress: bool | Callable[[int, int], Any] | None = None, quiet: bool = False) -> StudyResult:
    """Run a Monte Carlo study as ``fleetdyn run`` does, into the folder ``out``.

    scenario:  a scenario file's path, or a dict with the structure of one (its errors name the
               field; a line number counts the lines of the dict's YAML form, one key a line).
               A dict's relative paths (a heightfield file) are relative to the working directory.
               None only with resume=True.
    samples:   instead of the study's ``samples`` (``--samples``).
    out:       the study's folder (``--out``); None: a new temporary folder (kept; its path is
               StudyResult.out). A folder that already holds a study is refused unless resume=True.
    backend:   "auto", "cpu" or "cuda" instead of the scenario's (``--backend``).
    precision: "fp32" or "fp64" instead of the scenario's (``--precision``).
    threads:   CPU backend threads, 0 = all (``--threads``); results do not depend on it.
    resume:    continue the study in ``out`` (``--resume out``) with the scenario and settings
               recorded in out/study.json: scenario, samples, backend and precision must be None.
               It ends with the same samples.csv, byte for byte, as an uninterrupted run.
    progress:  None or True: a progress line on sys.stderr (none when quiet); False: none; a
               callable: called as progress(done, total) in samples, often (after every slice of
               steps); an exception it raises stops the study, and is raised again.
    quiet:     no progress line and no summary text on sys.stdout (warnings still reach sys.stderr).

    The study runs without the GIL. Ctrl-C (KeyboardInterrupt) or an exception from `progress`
    stops it between slices of steps; samples.csv then holds whole chunks and resume=True goes on.
    Returns StudyResult(samples, summary, out). Raises TypeError / ValueError for bad arguments
    (naming the argument) and fleetdyn.Error for bad scenarios and failures, worded as the
    command line words them.
    """
    if not _fleetdyn.has_scenarios:
        raise _fleetdyn.Error("run_study: this fleetdyn module was built without the scenario reader "
                              "(fleetdyn_host: yaml-cpp); rebuild with -DFLEETDYN_BUILD_CLI=ON")
    for name, flag in (("resume", resume), ("quiet", quiet)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name}: expected a bool, got {_describe(flag)}")
    resume, quiet = bool(resume), bool(quiet)
    if not (progress is None or isinstance(progress, (bool, np.bool_)) or callable(progress)):
        raise TypeError(f"progress: expected None, a bool or a callable(done, total), got {_describe(progress)}")
    out_path = _folder(out, "out")
    backend, precision = _choice(backend, "backend"), _choice(precision, "precision")
    samples_value, samples_renamed = _integer(samples, "samples", _INT64)
    threads_value, threads_renamed = _integer(threads, "threads", _INT32)
    renamed = [(f"{flag}: {r[0]} ", f"{flag}: {r[1]} ") for flag, r in
               (("--samples", samples_renamed), ("--threads", threads_renamed)) if r]

    scenario_path, scenario_text = "", None
    if resume:
        if out_path is None:
            raise ValueError("out: resume=True continues the study in `out`: name its folder (got None)")
        for name, value in (("scenario", scenario), ("samples", samples), ("backend", backend),
                            ("precision", precision)):
            if value is not None:
                raise ValueError(f"{name}: resume=True takes the study's {name} from {out_path}/study.json: "
                                 f"pass None (got {_describe(value)})")
    elif isinstance(scenario, Mapping):
        scenario_path, scenario_text = DICT_SCENARIO_NAME, scenario_yaml(scenario)
    elif isinstance(scenario, (str, os.PathLike)) and isinstance(os.fspath(scenario), str):
        scenario_path = os.fspath(scenario)
        if not scenario_path:
            raise ValueError("scenario: empty file name")
    else:
        raise TypeError(f"scenario: expected a scenario file's path (str or os.PathLike) or a dict, "
                        f"got {_describe(scenario)}")

    show = not quiet and (progress is None or (isinstance(progress, (bool, np.bool_)) and progress))
    line = _ProgressLine(os.path.basename(out_path or "study")) if show else None
    callback = progress if callable(progress) and not isinstance(progress, (bool, np.bool_)) else line

    made = None
    if out_path is None and not resume:
        made = out_path = tempfile.mkdtemp(prefix="fleetdyn-study-")
    try:
        try:
            code, text, errors = _fleetdyn._run_study(
                scenario_path, scenario_text, None if resume else out_path, samples_value, backend, precision,
                threads_value, out_path if resume else None, quiet, callback)
        finally:
            if line is not None:
                line.end()
    except BaseException as e:
        _remove_if_empty(made)
        if os.path.isdir(out_path) and hasattr(e, "add_note"):
            e.add_note(f"the study's folder: {out_path} (continue it with resume=True)")
        raise
    if code != 0:
        _remove_if_empty(made)
        raise _flag_error(errors, renamed)
    if errors:
        sys.stderr.write(errors)
    if text and not quiet:
        sys.stdout.write(text)
    with open(os.path.join(out_path, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    return StudyResult(read_samples(os.path.join(out_path, "samples.csv")), summary, out_path)


def _remove_if_empty(folder: str | None) -> None:
    if folder is not None:
        try:
            os.rmdir(folder)
        except OSError:
            pass
