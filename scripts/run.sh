#!/usr/bin/env bash
# Install missing packages, build, and run the main job: `fleetdyn run` on a scenario
# (default: scenarios/default.yaml). Arguments go to `fleetdyn run`, e.g.
#   scripts/run.sh scenarios/loop.yaml --vehicles 1000 --precision fp32
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --tool >/dev/null
exec build/fleetdyn run "$@"
