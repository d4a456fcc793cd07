#!/usr/bin/env bash
# Install what fleetdyn needs, from Debian's packages and PyPI, skipping what is there.
#   scripts/install-deps.sh          what the build of the library and the `fleetdyn` tool needs
#                                    (scripts/run.sh)
#   scripts/install-deps.sh --test   that, and what the tests, benchmarks and Python module need
#                                    (scripts/test.sh)
# The CUDA toolkit is optional (the build falls back to the CPU backend without nvcc).
set -euo pipefail
with_tests=0
case "${1:-}" in
  "") ;;
  --test) with_tests=1 ;;
  *) echo "install-deps.sh: unknown argument '$1' (allowed: --test)" >&2; exit 2 ;;
esac

# The build: compiler, CMake, Ninja, Eigen (header-only), and for the tool yaml-cpp, nlohmann-json,
# CLI11; HDF5 for the studies' worst-case trajectories (optional at build time, a feature of the tool).
packages=(cmake ninja-build g++ libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libhdf5-dev)
if [ "$with_tests" = 1 ]; then
  # GoogleTest, Google Benchmark; SUNDIALS: the ce model's DAE reference (tests/reference).
  # chromium: test_study_report renders report.html headless and checks the plots are drawn.
  # OpenMPI: studies shard over MPI ranks (optional at build time; the MpiStudy test runs mpirun).
  # clang and its runtimes: the sanitizer build and the fuzzer (scripts/test.sh, scripts/fuzz.sh);
  # clang-format: the style check (scripts/check-format.sh, .clang-format).
  # git: scripts/test-pip-install.sh installs a clean clone.
  # python3-torch (CPU PyTorch 1.13 for Debian's /usr/bin/python3, with python3-dev and python3-venv):
  # scripts/test-pip-install.sh installs fleetdyn into a venv of that interpreter and runs the PPO
  # example's tests there (PyPI's torch wheel pulls gigabytes of CUDA libraries).
  packages+=(git libgtest-dev libbenchmark-dev libsundials-dev libopenmpi-dev openmpi-bin chromium clang libclang-rt-dev
             clang-format python3-torch python3-dev python3-venv)
fi
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
apt_install() {
  echo "install-deps: installing $*"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi

# The Python module and its tests (python/, built with the tests): numpy and pybind11 to build,
# pytest, gymnasium and pandas (fleetdyn.run_study's DataFrame) to test, for the `python3` on the
# PATH (the interpreter CMake builds the module for). Debian's own python3 needs its headers and
# pip first, and python3-venv (ensurepip) for the virtual environment of
# scripts/test-pip-install.sh; pip installs only what is missing (on an externally-managed Debian
# python, with --break-system-packages).
if [ "$with_tests" = 1 ] && command -v python3 >/dev/null 2>&1; then
  py_missing=()
  for m in numpy pybind11 pytest gymnasium pandas; do
    python3 -c "import $m" >/dev/null 2>&1 || py_missing+=("$m")
  done
  py_debian_pkgs=()
  python3 -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
    >/dev/null 2>&1 || py_debian_pkgs+=(python3-dev)
  if [ ${#py_missing[@]} -gt 0 ] && ! python3 -m pip --version >/dev/null 2>&1; then py_debian_pkgs+=(python3-pip); fi
  python3 -c "import ensurepip, venv" >/dev/null 2>&1 || py_debian_pkgs+=(python3-venv)
  if [ ${#py_debian_pkgs[@]} -gt 0 ] && [ "$(command -v python3)" = /usr/bin/python3 ]; then
    apt_install "${py_debian_pkgs[@]}"
  fi
  if [ ${#py_missing[@]} -gt 0 ]; then
    echo "install-deps: pip installing ${py_missing[*]} for $(command -v python3)"
    python3 -m pip install --quiet "${py_missing[@]}" 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages "${py_missing[@]}"
  fi
fi
