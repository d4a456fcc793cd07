#!/usr/bin/env bash
# Run on the lent GPU machine after scripts/device-pack.sh here (gpu-check.sh calls it):
# compute-sanitizer memcheck (out-of-bounds, misaligned and invalid global/local accesses) and
# racecheck (shared-memory hazards) over short runs of each model's kernel (0.2 s of its example
# scenario, 16 vehicles), the vector env kernels and the pgs solver's (their CUDA parity tests). Prints each tool's
# summary; exits 1 if any run reports an error.
set -uo pipefail
cd "$(dirname "$0")/.."
cuda=$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")
sanitizer=$(command -v compute-sanitizer 2>/dev/null || echo "$cuda/bin/compute-sanitizer")
short=$(mktemp -d)
status=0
sanitize() {
  local tool=$1 prog=$2
  shift 2
  echo "== compute-sanitizer --tool $tool $prog $*"
  LD_LIBRARY_PATH="$PWD/.device/lib:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$sanitizer" --tool "$tool" --error-exitcode 99 ".device/bin/$prog" "$@" > "$short/log" 2>&1
  local rc=$?
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|Invalid|PASSED|FAILED" "$short/log" | tail -4
  echo "== exit $rc"
  [ "$rc" -eq 0 ] || status=1
}
for sc in default ce_step_steer pgs_step_steer; do
  sed 's/^duration:.*/duration: 0.2/' "scenarios/$sc.yaml" > "$short/$sc.yaml"
done
for tool in memcheck racecheck; do
  for sc in default ce_step_steer pgs_step_steer; do
    sanitize "$tool" fleetdyn run "$short/$sc.yaml" --backend cuda --vehicles 16 --out "$short/out-$sc" --quiet
  done
  sanitize "$tool" test_vector_env --gtest_filter='*CudaMatchesCpu*'
  # The pgs solver's kernels on the seed problems (the lanes-per-system one shares shared memory).
  sanitize "$tool" test_pgs_backends --gtest_filter='*CudaMatchesCpu*'
done
exit "$status"
