#!/usr/bin/env bash
# Install missing packages, build, and run the whole test suite (ctest). GPU tests skip with
# "no CUDA device" where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh "$@"
ctest --test-dir build --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
