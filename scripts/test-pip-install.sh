#!/usr/bin/env bash
# `pip install .` as a user does it: a clean clone of this checkout's committed HEAD, a fresh virtual
# environment, `pip install` (CUDA off by default, to keep CI short), then a smoke test of what was
# installed, run from outside the source tree with no PYTHONPATH: import fleetdyn, step a small
# Batch, read its metrics, and run the `fleetdyn` tool from the environment's bin/. Prints the time
# the install took. Where Debian's /usr/bin/python3 has PyTorch (python3-torch, scripts/install-deps.sh --test)
# the venv is made from it, seeing its torch, and the PPO example's tests
# (python/tests/test_ppo_example.py, examples/train_ppo.py) run against the installed package.
#   scripts/test-pip-install.sh [PIP_ARGS...]     e.g. -C cmake.define.FLEETDYN_CUDA=AUTO
# Needs git, python3 with venv, and PyPI (pip fetches scikit-build-core, pybind11 and numpy).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/fleetdyn-pip.XXXXXX")
trap 'rm -rf "$work"' EXIT
python=${PYTHON:-python3}
with_torch=0
if [ -z "${PYTHON:-}" ] && /usr/bin/python3 -c "import torch" >/dev/null 2>&1; then
  python=/usr/bin/python3
  with_torch=1
fi

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "test-pip-install: note: uncommitted changes are not tested (it clones HEAD)"
fi
git clone --quiet --no-local --no-checkout "$src" "$work/fleetdyn"
git -C "$work/fleetdyn" checkout --quiet --detach "$(git rev-parse HEAD)"
if [ "$with_torch" = 1 ]; then
  "$python" -m venv --system-site-packages "$work/venv"
else
  "$python" -m venv "$work/venv"
fi
venv_python=$work/venv/bin/python
if [ "$with_torch" = 1 ]; then
  # numpy from 1.25 reads bool DLPack tensors (VectorEnv(copy=False)); below 2 for Debian's torch 1.13.
  # Debian's pip (23.0) predates -C (config settings, pip 23.1).
  "$venv_python" -m pip install --quiet --disable-pip-version-check --upgrade pip "numpy>=1.25,<2" pytest
fi

start=$SECONDS
"$venv_python" -m pip install --quiet --disable-pip-version-check \
  -C cmake.define.FLEETDYN_CUDA=OFF "$@" "$work/fleetdyn"
install_s=$((SECONDS - start))

# The smoke test runs in an empty folder: nothing from the clone is importable from there.
mkdir "$work/run"
cd "$work/run"
env -u PYTHONPATH "$venv_python" - "$work/venv" <<'PY'
import importlib.metadata
import os
import sys

import numpy as np

import fleetdyn

venv = os.path.realpath(sys.argv[1])
where = os.path.realpath(fleetdyn.__file__)
assert where.startswith(venv + os.sep), f"fleetdyn imported from {where}, not from the venv {venv}"
assert fleetdyn.__version__ == importlib.metadata.version("fleetdyn"), (
    fleetdyn.__version__, importlib.metadata.version("fleetdyn"))
# The wheel holds the package and the tool only, not what `cmake --install` adds for C++ users.
files = [str(f) for f in importlib.metadata.files("fleetdyn")]
extra = [f for f in files if f.endswith((".a", ".h", ".cmake"))]
assert not extra, f"the wheel installed C++ development files: {extra[:5]}"

b = fleetdyn.Batch(4, backend="cpu")
b.set_initial_conditions(speed=10.0)
b.set_inputs(steer=np.array([0.0, 0.1, 0.2, 0.3]), throttle=0.2)
b.step(500)
s = b.snapshots()
assert np.all(s["status"] == 0), s["status"]
assert np.all(s["position"][:, 0] > 4.0), s["position"]          # 1 s at about 10 m/s: rolled forward
assert s["euler"][3, 2] > s["euler"][0, 2], s["euler"]           # steering left turns left (ISO)
m = b.metrics()
assert tuple(m) == fleetdyn.METRIC_NAMES and all(v.shape == (4,) and np.all(np.isfinite(v)) for v in m.values())
print(f"test-pip-install: fleetdyn {fleetdyn.__version__} from {os.path.dirname(where)} ({len(files)} files), "
      f"CUDA built: {fleetdyn.built_with_cuda}, {len(m)} metrics of 4 vehicles read")
PY

# The command-line tool, when the build had its libraries (FLEETDYN_BUILD_CLI).
if [ -x "$work/venv/bin/fleetdyn" ]; then
  version=$(env -u PYTHONPATH "$work/venv/bin/fleetdyn" --version)
  expected=$("$venv_python" -c "import importlib.metadata as m; print(m.version('fleetdyn'))")
  [[ $version == *"$expected"* ]] || { echo "test-pip-install: fleetdyn --version says '$version', expected $expected" >&2; exit 1; }
  "$work/venv/bin/fleetdyn" run "$work/fleetdyn/scenarios/default.yaml" --out "$work/run/out" --quiet
  [ -s "$work/run/out/results.csv" ] || { echo "test-pip-install: fleetdyn run wrote no results.csv" >&2; exit 1; }
  echo "test-pip-install: $work/venv/bin/fleetdyn ($version) ran scenarios/default.yaml"
else
  echo "test-pip-install: no fleetdyn tool installed (built with FLEETDYN_BUILD_CLI=OFF)"
fi
if [ "$with_torch" = 1 ]; then
  # The PPO example's tests, from the clone, against the installed package and Debian's torch.
  cd "$work/fleetdyn"
  env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 "$venv_python" -m pytest -q -p no:cacheprovider -rs \
    python/tests/test_ppo_example.py
  echo "test-pip-install: the PPO example's tests ran with torch $("$venv_python" -c 'import torch; print(torch.__version__)')"
else
  echo "test-pip-install: no torch for /usr/bin/python3 (python3-torch): the PPO example's tests did not run here"
fi
echo "test-pip-install: pip install took ${install_s} s"
