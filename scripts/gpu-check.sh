#!/usr/bin/env bash
# Run on the lent GPU machine from the repository root, after scripts/device-pack.sh here:
# the CUDA parity tests, the physics tests (CPU, as a sanity check of the packed build), a GPU
# run of the default scenario, and `fleetdyn bench` on CUDA and CPU. Results go to $OUT (the
# device tool brings them back) or to bench/results/ when $OUT is unset.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results}
mkdir -p "$out"
run() { echo "== $*"; .device/run "$@"; echo "== exit $?"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$out/gpu.txt"
run test_backend_parity --gtest_output=json:"$out/test_backend_parity.json" 2>&1 | tail -25
for t in test_strut_static test_strut_dynamics test_strut_energy test_strut_integrator; do
  run "$t" 2>&1 | tail -3
done
run fleetdyn run scenarios/default.yaml --backend cuda --precision fp32 --vehicles 100000 --out "$out/run-cuda" 2>&1 | tail -6
machine=${MACHINE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-' | tr -cd 'A-Za-z0-9_.-')}
run fleetdyn bench --machine "${machine:-gpu}" --out "$out" --backends cuda,cpu --threads 16 2>&1 | tail -30
