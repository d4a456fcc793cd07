#!/usr/bin/env bash
# Build the programs a GPU session runs on the lent device machine (which has nvcc but none of the
# Debian libraries): compiled here for sm_90 (H100/H200), then packed with the shared libraries
# they need by ../shared/tools/device-pack into .device/ (git-ignored). On the device machine,
# with `.device` in the run's carry:   scripts/gpu-check.sh   (and scripts/gpu-python.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
pack_tool=${DEVICE_PACK:-../shared/tools/device-pack}
[ -x "$pack_tool" ] || { echo "device-pack.sh: $pack_tool not found (set DEVICE_PACK)" >&2; exit 2; }
scripts/install-deps.sh
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLEETDYN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90
cmake --build build-device -j "$(nproc 2>/dev/null || echo 2)"
"$pack_tool" .device build-device/fleetdyn build-device/bench/fleetdyn_bench \
  build-device/tests/test_batch_contract build-device/tests/test_backend_parity build-device/tests/test_strut_static build-device/tests/test_strut_dynamics \
  build-device/tests/test_strut_energy build-device/tests/test_strut_integrator \
  build-device/tests/test_ce_batch build-device/tests/test_ce_dynamics \
  build-device/tests/test_vector_env build-device/tests/test_ce_vector_env build-device/bench/fleetdyn_bench_env \
  build-device/tests/test_pgs_backends build-device/tests/test_pgs_vehicle build-device/tests/test_pgs_lanes \
  build-device/bench/fleetdyn_bench_pgs \
  build-device/tests/test_batch_composition build-device/tests/test_study build-device/tests/test_corner_lanes \
  build-device/tests/test_ce_validate build-device/tests/test_pgs_validate build-device/tests/test_batch_summary \
  build-device/tests/test_body_contact build-device/tests/test_soil_vehicle build-device/tests/test_curb
# The Python module is built on the device machine itself (scripts/gpu-python.sh); the core
# library needs Eigen's headers there. Eigen's CMake package is relocatable: carried as is.
# Debian installs PREFIX/share/eigen3/cmake/Eigen3Config.cmake: the prefix is four levels up.
eigen_config=$(find /usr/share /usr/lib -name Eigen3Config.cmake -print -quit)
[ -n "$eigen_config" ] || { echo "device-pack.sh: Eigen3Config.cmake not found" >&2; exit 2; }
eigen_prefix=$(dirname "$(dirname "$(dirname "$(dirname "$eigen_config")")")")
rm -rf .device/eigen && mkdir -p .device/eigen/include .device/eigen/share
cp -r "$eigen_prefix/include/eigen3" .device/eigen/include/
cp -r "$eigen_prefix/share/eigen3" .device/eigen/share/
