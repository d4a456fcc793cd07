#!/usr/bin/env bash
# Build the programs a GPU session runs on the lent device machine (which has nvcc but none of the
# Debian libraries): compiled here for sm_90 (H100/H200) with the library shared (the programs
# share one copy of the kernels), then packed with the shared libraries they need by
# ../shared/tools/device-pack into .device/ (git-ignored): the fleetdyn CLI and every test program
# with CUDA-against-CPU cases (ctest label `cuda`, listed in .device/cuda-tests.txt). The build's
# options go to .device/build-options.txt. Fails if the pack exceeds 60 MiB (the device tool
# carries 64 MiB, working tree included). MPI is left out (the GPU check does not shard studies).
#   scripts/device-pack.sh [--variants] [--python]
#     --variants  also build the CUDA kernel variants kept for measuring (FLEETDYN_CUDA_LANES=vehicle,
#                 FLEETDYN_CUDA_CORNER_REGISTERS=128, FLEETDYN_CUDA_PARAMS=global; gpu-check.sh 3).
#     --python    also carry Eigen's headers, for scripts/gpu-python.sh (it builds the Python module
#                 on the device machine).
# On the device machine, with `.device` in the run's carry: scripts/gpu-check.sh 1|2|3 (and, packed
# with --python, scripts/gpu-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
variants=OFF
python=0
for arg in "$@"; do
  case "$arg" in
    --variants) variants=ON ;;
    --python) python=1 ;;
    *) echo "usage: scripts/device-pack.sh [--variants] [--python]" >&2; exit 2 ;;
  esac
done
pack_tool=${DEVICE_PACK:-../shared/tools/device-pack}
[ -x "$pack_tool" ] || { echo "device-pack.sh: $pack_tool not found (set DEVICE_PACK)" >&2; exit 2; }
scripts/install-deps.sh --test
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLEETDYN_CUDA=ON -DFLEETDYN_SHARED_LIBRARY=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -DFLEETDYN_CUDA_VARIANTS="$variants" -DFLEETDYN_BUILD_TESTS=ON \
  -DFLEETDYN_BUILD_BENCH=OFF -DFLEETDYN_BUILD_PYTHON=OFF -DFLEETDYN_MPI=OFF
# Only what the GPU check runs: the tool and the test programs with CUDA cases (the ctest label
# `cuda`: the target cuda_tests, listed in build-device/cuda-tests.txt).
cmake --build build-device -j "$(nproc 2>/dev/null || echo 2)" --target fleetdyn_cli cuda_tests
mapfile -t names < <(grep -v '^$' build-device/cuda-tests.txt)
[ "${#names[@]}" -gt 0 ] || { echo "device-pack.sh: no test program has CUDA cases (build-device/cuda-tests.txt)" >&2; exit 1; }
programs=()
for name in "${names[@]}"; do programs+=("build-device/tests/$name"); done
"$pack_tool" .device build-device/fleetdyn "${programs[@]}"
# Without their symbol tables (5 MiB: the pack with the measuring variants then fits). The device
# code keeps its line tables, the library its exported names for host backtraces.
strip --strip-unneeded .device/bin/* .device/lib/libfleetdyn.so
printf '%s\n' "${names[@]}" > .device/cuda-tests.txt
{
  echo "variants=$variants"
  echo "shared_library=ON"
  echo "cuda_architectures=90-real"
  echo "python=$python"
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)"
} > .device/build-options.txt
if [ "$python" = 1 ]; then
  # The Python module is built on the device machine itself (scripts/gpu-python.sh); the core
  # library needs Eigen's headers there. Eigen's CMake package is relocatable: carried as is.
  # Debian installs PREFIX/share/eigen3/cmake/Eigen3Config.cmake: the prefix is four levels up.
  eigen_config=$(find /usr/share /usr/lib -name Eigen3Config.cmake -print -quit)
  [ -n "$eigen_config" ] || { echo "device-pack.sh: Eigen3Config.cmake not found" >&2; exit 2; }
  eigen_prefix=$(dirname "$(dirname "$(dirname "$(dirname "$eigen_config")")")")
  rm -rf .device/eigen && mkdir -p .device/eigen/include .device/eigen/share
  cp -r "$eigen_prefix/include/eigen3" .device/eigen/include/
  cp -r "$eigen_prefix/share/eigen3" .device/eigen/share/
fi
size=$(du -sm .device | cut -f1)
echo "device-pack.sh: ${#programs[@]} test programs (.device/cuda-tests.txt), variants $variants, ${size} MiB in .device"
[ "$size" -le 60 ] || { echo "device-pack.sh: .device is ${size} MiB, over 60 MiB" >&2; exit 1; }
