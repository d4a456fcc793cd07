#!/usr/bin/env bash
# compute-sanitizer over every kernel, on the lent GPU machine after scripts/device-pack.sh here
# (scripts/gpu-check.sh 2 runs it): memcheck (out-of-bounds, misaligned and invalid accesses),
# synccheck (barriers) and initcheck (reads of memory nothing wrote) on short runs of 13 vehicles,
# fp32 and fp64:
#   - strut driven past its steer into body contact (scenarios/short/fishhook_rollover.yaml: the
#     NHTSA fishhook driver, tall vehicles rolling onto their bodies), into a curb (curb_trip) and on
#     soil (soft_shoulder); ce and pgs past their step steer at 1.3 s (1.5 s of their scenarios);
#   - the vector envs' kernels (strut and ce, 13 envs) and the pgs solver's (thread- and
#     lanes-per-system) through their CUDA parity tests;
# and racecheck on the kernels that use shared memory: the pgs vehicle kernel (0.1 s of its
# scenario, and test_pgs_lanes) and the pgs solver's lanes-per-system kernel (test_pgs_backends).
# Full reports: ${OUT:-bench/results/gpu-check}/sanitize/sanitize-TOOL-RUN.log (or gpu-check's part).
# Prints one line per run and a PASS/FAIL summary; exits 1 if any run reports an error.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
# shellcheck source=scripts/gpu-check-lib.sh
source scripts/gpu-check-lib.sh

# sanitize TOOL NAME PROGRAM ARGS...: one compute-sanitizer run of a packed program.
sanitize() {
  local tool=$1 name=$2
  shift 2
  local extra=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
  local prog=$1
  shift
  gc_step "sanitize-$tool-$name" "${SANITIZE_LIMIT_S:-150}" env LD_LIBRARY_PATH="$GC_LIBS" "$GC_SANITIZER" \
    --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 200 ".device/bin/$prog" "$@"
}

sanitize_steps() {
  local cuda
  cuda=$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")
  GC_SANITIZER=$(command -v compute-sanitizer 2>/dev/null || echo "$cuda/bin/compute-sanitizer")
  # The libraries .device/run would put first (the sanitizer runs the program itself).
  GC_LIBS="$PWD/.device/lib:$cuda/lib64:$cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local short=$GC_DIR/scenarios
  mkdir -p "$short"
  # ce and pgs: 1.5 s (past the steer at 1.3 s); pgs under racecheck 0.1 s (its hazards do not
  # depend on the manoeuvre, and racecheck is slow on shared memory).
  sed 's/^duration:.*/duration: 1.5/' scenarios/ce_step_steer.yaml > "$short/ce_step_steer.yaml"
  sed 's/^duration:.*/duration: 1.5/' scenarios/pgs_step_steer.yaml > "$short/pgs_step_steer.yaml"
  sed 's/^duration:.*/duration: 0.1/' scenarios/pgs_step_steer.yaml > "$short/pgs_race.yaml"
  local runs=(scenarios/short/fishhook_rollover.yaml scenarios/short/curb_trip.yaml
    scenarios/short/soft_shoulder.yaml "$short/ce_step_steer.yaml" "$short/pgs_step_steer.yaml")
  local tool sc p base
  for tool in memcheck racecheck synccheck initcheck; do
    if [ "$tool" = racecheck ]; then
      for p in fp32 fp64; do
        sanitize racecheck "pgs_vehicle-$p" fleetdyn run "$short/pgs_race.yaml" --backend cuda --precision "$p" \
          --vehicles 13 --out "$short/out-race-$p" --quiet
      done
      sanitize racecheck pgs_lanes test_pgs_lanes --gtest_filter='*Cuda*'
      sanitize racecheck pgs_solver test_pgs_backends --gtest_filter='*Cuda*'
      continue
    fi
    for sc in "${runs[@]}"; do
      base=$(basename "$sc" .yaml)
      for p in fp32 fp64; do
        sanitize "$tool" "$base-$p" fleetdyn run "$sc" --backend cuda --precision "$p" --vehicles 13 \
          --out "$short/out-$tool-$base-$p" --quiet
      done
    done
    sanitize "$tool" vector_env test_vector_env --gtest_filter='*VectorEnvCuda*13Envs*'
    sanitize "$tool" ce_vector_env test_ce_vector_env --gtest_filter='*CeVectorEnvCuda*13Envs*'
    sanitize "$tool" pgs_solver test_pgs_backends --gtest_filter='*Cuda*'
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  gc_init sanitize
  gc_pack
  sanitize_steps
  gc_finish "gpu-sanitize"
fi
