#!/usr/bin/env bash
# Install what fleetdyn needs to build and test, from Debian's packages, skipping what is there.
# The CUDA toolkit is optional (the build falls back to the CPU backend without nvcc).
set -euo pipefail
# chromium: test_study_report renders report.html headless and checks the plots are drawn.
# OpenMPI: studies shard over MPI ranks (optional at build time; the MpiStudy test runs mpirun).
# HDF5: studies write the worst cases' trajectories (optional at build time).
packages=(cmake ninja-build g++ libeigen3-dev libgtest-dev libbenchmark-dev libyaml-cpp-dev
          nlohmann-json3-dev libcli11-dev libsundials-dev libopenmpi-dev openmpi-bin libhdf5-dev chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
