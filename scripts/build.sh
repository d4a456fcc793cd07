#!/usr/bin/env bash
# Configure and build fleetdyn into build/ (Release).
#   scripts/build.sh [CMAKE_ARGS...]          everything: library, tool, tests, benchmarks, Python module
#   scripts/build.sh --tool [CMAKE_ARGS...]   the library and the `fleetdyn` tool only (scripts/run.sh)
# Extra arguments go to cmake and win over these defaults, e.g. -DFLEETDYN_CUDA=OFF.
# CUDA: compiled whenever the toolkit is installed (CI: a kernel that does not compile fails the
# build), for the GPU of this machine (`native`) when nvidia-smi sees one. Without a visible GPU
# nothing here could run the kernels, so they are compiled to PTX for compute_90 only
# (`90-virtual`: every kernel still goes through the compiler front end, which is where a source
# error or warning shows; ptxas, about two thirds of nvcc's time, does not run). A GPU reached
# later JIT-compiles that PTX; scripts/device-pack.sh builds SASS (90-real) for the GPU machine.
# -DCMAKE_CUDA_ARCHITECTURES=... picks others. With
# --tool on a machine without a visible GPU the CUDA backend could not run, so it is left out
# (minutes of device compile saved) unless an argument sets FLEETDYN_CUDA.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
gpu_visible=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
  grep -q '^[0-9]'; then
  gpu_visible=1
fi
arch=90-virtual
[ "$gpu_visible" = 0 ] || arch=native
parts=(-DFLEETDYN_BUILD_TESTS=ON -DFLEETDYN_BUILD_BENCH=ON -DFLEETDYN_BUILD_PYTHON=ON)
cuda=(-DFLEETDYN_CUDA=AUTO)
target=()
if [ "${1:-}" = --tool ]; then
  shift
  parts=(-DFLEETDYN_BUILD_TESTS=OFF -DFLEETDYN_BUILD_BENCH=OFF -DFLEETDYN_BUILD_PYTHON=OFF)
  target=(--target fleetdyn_cli)
  if [ "$gpu_visible" = 0 ] && [[ " $* " != *" -DFLEETDYN_CUDA="* ]]; then
    echo "build.sh: no GPU visible (nvidia-smi): the tool is built with the CPU backend only" \
      "(scripts/build.sh --tool -DFLEETDYN_CUDA=ON compiles CUDA too)" >&2
    cuda=(-DFLEETDYN_CUDA=OFF)
  fi
fi
# CI compiles the CUDA code whenever the toolkit is installed, even where nvcc is not on the PATH.
if ! command -v nvcc >/dev/null 2>&1 && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" "${cuda[@]}" "${parts[@]}" "$@"
cmake --build build -j "$jobs" "${target[@]+"${target[@]}"}"
