#!/usr/bin/env bash
# The GPU check, in three parts, each one call of the device tool (at most 8 minutes), run from the
# repository root on the lent GPU machine after scripts/device-pack.sh here (`.device` in the
# run's carry):   scripts/gpu-check.sh 1|2|3
#   1  every CUDA case (--gtest_filter='*Cuda*') of the programs in .device/cuda-tests.txt (the
#      ctest label `cuda`): parity with the CPU of every model, fp32 and fp64, open-loop and driven,
#      at the usual and at awkward sizes (13, 1001), the vector envs, body contact, curb, soil, the
#      pgs solver and lanes, bit-identical batches, the device's own validation and summaries, the
#      study's worst cases on CUDA; `fleetdyn validate` of ce and pgs on CUDA; GPU runs of the
#      default scenarios (strut, ce, pgs) at 10^4 vehicles.
#   2  compute-sanitizer: memcheck, synccheck, initcheck on every kernel and racecheck on the
#      shared-memory ones (scripts/gpu-sanitize.sh).
#   3  one round of `fleetdyn bench` on CUDA at the sizes that fill an H100/H200 (strut 10^6,
#      ce 4e5, pgs 5e4; fp32 and fp64; shared and per-vehicle parameters), the measuring kernel
#      variants when the pack has them (device-pack.sh --variants), and Nsight Compute on the
#      strut fp32 kernel.
# Estimated run times on an H200 machine (16 cores), from the CPU side measured on the 2-core dev
# VM (one core, loaded: strut 2.5 us, ce 37 us, pgs 70 us per vehicle-step in CPU batches of 8;
# the vector env at 1001 envs 1 s strut, 3 s ce) and the number of steps and runs:
#   part 1: ~3 min. The CPU references add up to ~75 s of one core (batch contract ~21 s, the
#           vector envs ~17 s, drivers ~4 s, body contact, curb and soil one vehicle each, the
#           other programs' existing cases ~30 s), less with the CPU's threads; 16 programs'
#           start-up and module load ~3 s each; validate ~20 s; the three scenario runs ~30 s.
#   part 2: ~5 min: 43 sanitizer runs of ~5-10 s each (start-up and instrumenting the module
#           dominate; the runs are 13 vehicles for 0.1-2.5 s of simulated time).
#   part 3: ~3 min: 12 bench measurements (0.5 s each after a warm-up, plus the set-up of up to
#           10^6 vehicles: ~5-15 s each); with the variants ~2 min more; ncu ~30 s.
# Each part stops starting steps after GPU_CHECK_BUDGET_S (default 450 s) and fails as incomplete.
# Each ends with a one-screen summary (one line per step: name, PASS/FAIL/SKIP, seconds) and exits
# non-zero if any step failed or was skipped. Logs and gtest/bench JSON: $OUT/gpu-check-partN.tar.gz
# when OUT is set (the device tool's), else bench/results/gpu-check/partN/. The Python GPU check
# is separate and optional: scripts/gpu-python.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/gpu-check-lib.sh
source scripts/gpu-check-lib.sh
part=${1:-}
case "$part" in
  1 | 2 | 3) ;;
  *)
    echo "usage: scripts/gpu-check.sh 1|2|3 (see its header)" >&2
    exit 2
    ;;
esac
gc_init "part$part"
gc_pack

part1() {
  local prog
  while read -r prog; do
    [ -n "$prog" ] || continue
    gc_step "$prog" 240 .device/run "$prog" --gtest_filter='*Cuda*' --gtest_output=json:"$GC_DIR/$prog.json"
  done < .device/cuda-tests.txt
  gc_step validate-ce-fp32 120 .device/run fleetdyn validate --model ce --backend cuda --precision fp32 --vehicles 100000
  gc_step validate-pgs-fp64 120 .device/run fleetdyn validate --model pgs --backend cuda --precision fp64 --vehicles 10000
  local sc
  for sc in default ce_step_steer pgs_step_steer; do
    gc_step "run-$sc" 120 .device/run fleetdyn run "scenarios/$sc.yaml" --backend cuda --precision fp32 --vehicles 10000 \
      --out "$GC_DIR/run-$sc" --quiet
  done
}

# bench_sizes MODEL: the batch that fills an H100/H200 (bench/floor.md's targets in real time).
bench_sizes() {
  case "$1" in
    strut) echo 1000000 ;;
    ce) echo 400000 ;;
    pgs) echo 50000 ;;
  esac
}

part3() {
  local machine model mapping
  machine=$(gc_machine)
  for model in strut ce pgs; do
    gc_step "bench-$model" 150 .device/run fleetdyn bench --model "$model" --machine "$machine-cuda" --out "$GC_DIR" \
      --backends cuda --precisions fp32,fp64 --params shared,per-vehicle --sizes "$(bench_sizes "$model")"
  done
  # The kernels kept for measuring (one thread per vehicle; four lanes capped at 128 registers),
  # fp32, only in a pack built with them.
  if grep -qx 'variants=ON' .device/build-options.txt 2>/dev/null; then
    for mapping in vehicle lanes128; do
      for model in strut ce pgs; do
        [ "$model" = pgs ] && [ "$mapping" = lanes128 ] && continue
        local var=FLEETDYN_CUDA_LANES=vehicle
        [ "$mapping" = lanes128 ] && var=FLEETDYN_CUDA_CORNER_REGISTERS=128
        gc_step "bench-$model-$mapping" 120 env "$var" .device/run fleetdyn bench --model "$model" \
          --machine "$machine-cuda-$mapping" --out "$GC_DIR" --backends cuda --precisions fp32 \
          --params shared,per-vehicle --sizes "$(bench_sizes "$model")"
      done
    done
  else
    echo "== the pack has no kernel variants (device-pack.sh --variants): not measured"
  fi
  # Nsight Compute on one launch of the strut fp32 kernel at 10^5 vehicles: occupancy, registers,
  # local-memory (spill) traffic, throughput.
  local cuda ncu_bin
  cuda=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
  ncu_bin=$(command -v ncu 2>/dev/null || echo "$cuda/ncu")
  gc_step ncu-strut-fp32 150 "$ncu_bin" --clock-control none --kernel-name "regex:${NCU_KERNEL_REGEX:-step_kernel}" \
    --launch-skip 2 --launch-count 1 \
    --metrics sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    .device/run fleetdyn bench --model strut --backends cuda --precisions fp32 --params shared --sizes 100000 \
    --min-time 0.1 --out "$GC_DIR/ncu-scratch" --quiet
}

case "$part" in
  1) part1 ;;
  2)
    # shellcheck source=scripts/gpu-sanitize.sh
    source scripts/gpu-sanitize.sh
    sanitize_steps
    ;;
  3) part3 ;;
esac
gc_finish "gpu-check part $part"
