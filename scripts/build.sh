#!/usr/bin/env bash
# Configure and build fleetdyn into build/ (Release). Extra arguments go to cmake, e.g.
# -DFLEETDYN_CUDA=OFF. CUDA is compiled for one architecture (90, as CI does) unless an argument
# says otherwise, e.g. -DCMAKE_CUDA_ARCHITECTURES=native (a plain cmake configure picks the
# architectures itself: README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# CI compiles the CUDA code (one architecture) whenever the toolkit is installed, even where
# nvcc is not on the PATH, so a kernel that does not compile fails the build.
if ! command -v nvcc >/dev/null 2>&1 && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "$@"
cmake --build build -j "$jobs"
