#!/usr/bin/env bash
# Configure and build fleetdyn into build/ (Release). Extra arguments go to cmake, e.g.
# -DFLEETDYN_CUDA=OFF. CUDA is compiled for one architecture (90) unless told otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$jobs"
