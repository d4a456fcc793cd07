#!/usr/bin/env bash
# Run on the lent GPU machine from the repository root, after scripts/device-pack.sh here:
# the CUDA parity tests of every model (test_batch_contract, test_ce_batch, test_pgs_*), the
# vector env's, bit-identical results whatever the batch (test_batch_composition, the study's
# worst-case rerun), the physics tests (CPU, as a sanity check of the packed build), GPU runs of
# the default scenarios, `fleetdyn bench` on CUDA and CPU for strut, ce and pgs, the pgs
# solver's thread-vs-warp kernel benchmark, and compute-sanitizer memcheck and racecheck over
# short runs of every kernel (scripts/gpu-sanitize.sh); four lanes per vehicle against one thread
# per vehicle (bench and Nsight Compute). With --python it then runs scripts/gpu-python.sh: the
# Python GPU tests, the vector env from Python and the PPO example trained with PyTorch on CUDA
# (it builds the module on the machine: several minutes more). Results go to $OUT when it is set,
# else to bench/results/.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results}
mkdir -p "$out"
run() { echo "== $*"; .device/run "$@"; echo "== exit $?"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$out/gpu.txt"
run test_batch_contract --gtest_output=json:"$out/test_batch_contract.json" 2>&1 | tail -25
run test_backend_parity --gtest_output=json:"$out/test_backend_parity.json" 2>&1 | tail -25
run test_ce_batch --gtest_output=json:"$out/test_ce_batch.json" 2>&1 | tail -25
run test_vector_env --gtest_output=json:"$out/test_vector_env.json" 2>&1 | tail -25
run test_ce_vector_env --gtest_output=json:"$out/test_ce_vector_env.json" 2>&1 | tail -25
run test_pgs_backends --gtest_output=json:"$out/test_pgs_backends.json" 2>&1 | tail -25
run test_pgs_vehicle --gtest_output=json:"$out/test_pgs_vehicle.json" 2>&1 | tail -25
# The pgs vehicle's own kernel (lanes per vehicle, kernels/pgs_vehicle_kernel.cu) against the CPU.
run test_pgs_lanes --gtest_output=json:"$out/test_pgs_lanes.json" 2>&1 | tail -25
# A vehicle's bits whatever its batch (alone, shared or own parameters, driven), and a study's
# worst cases re-simulated to the bits of their samples.csv rows, on CUDA.
run test_corner_lanes 2>&1 | tail -4
# Body contact and the rollover metrics of strut and ce on CUDA against the CPU.
run test_body_contact --gtest_output=json:"$out/test_body_contact.json" 2>&1 | tail -12
# Soft soil under strut and ce on CUDA against the CPU.
run test_soil_vehicle --gtest_filter='*Cuda*' --gtest_output=json:"$out/test_soil_vehicle.json" 2>&1 | tail -8
# A strut HMMWV sliding into a curb on CUDA against the CPU.
run test_curb --gtest_filter='CurbTrip.CudaMatchesCpu' --gtest_output=json:"$out/test_curb.json" 2>&1 | tail -6
# The device's own checks: ce accelerations and pgs bilateral rows against cuBLAS batched dense
# solves, and batch summaries reduced on the device (Thrust) against the host's.
run test_ce_validate --gtest_output=json:"$out/test_ce_validate.json" 2>&1 | tail -6
run test_pgs_validate --gtest_output=json:"$out/test_pgs_validate.json" 2>&1 | tail -6
run test_batch_summary --gtest_output=json:"$out/test_batch_summary.json" 2>&1 | tail -6
run fleetdyn validate --model ce --backend cuda --precision fp32 --vehicles 100000 2>&1 | tail -4
run fleetdyn validate --model pgs --backend cuda --precision fp64 --vehicles 10000 2>&1 | tail -4
run test_batch_composition --gtest_output=json:"$out/test_batch_composition.json" 2>&1 | tail -25
run test_study --gtest_filter='*OnCuda*' --gtest_output=json:"$out/test_study_cuda.json" 2>&1 | tail -12
for t in test_strut_static test_strut_dynamics test_strut_energy test_strut_integrator test_ce_dynamics; do
  run "$t" 2>&1 | tail -3
done
run fleetdyn run scenarios/default.yaml --backend cuda --precision fp32 --vehicles 100000 --out "$out/run-cuda" 2>&1 | tail -6
run fleetdyn run scenarios/ce_step_steer.yaml --backend cuda --precision fp32 --vehicles 100000 --out "$out/run-cuda-ce" 2>&1 | tail -6
run fleetdyn run scenarios/pgs_step_steer.yaml --backend cuda --precision fp32 --vehicles 10000 --out "$out/run-cuda-pgs" 2>&1 | tail -6
machine=${MACHINE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-' | tr -cd 'A-Za-z0-9_.-')}
machine=${machine:-gpu}
cpus=$(nproc 2>/dev/null || echo 1)
# CUDA up to a million vehicles; the host CPU of the GPU machine with 1 thread and all of them.
run fleetdyn bench --machine "$machine-cuda" --out "$out" --backends cuda --sizes 1,100,10000,100000,1000000 2>&1 | tail -14
run fleetdyn bench --machine "$machine-host-cpu" --out "$out" --backends cpu --threads "1,$cpus" 2>&1 | tail -20
# Several lanes per vehicle (strut, ce: four; pgs: eight; the default) against one thread per
# vehicle (FLEETDYN_CUDA_LANES=vehicle) and against four lanes capped at 128 registers
# (FLEETDYN_CUDA_CORNER_REGISTERS=128: 25 % occupancy, some spills), alternating in one run,
# shared and per-vehicle parameters.
mapping_env() {  # mapping_env NAME: the environment of one mapping
  unset FLEETDYN_CUDA_LANES FLEETDYN_CUDA_CORNER_REGISTERS
  case "$1" in
    vehicle) export FLEETDYN_CUDA_LANES=vehicle ;;
    lanes128) export FLEETDYN_CUDA_CORNER_REGISTERS=128 ;;
  esac
}
for round in 1 2; do
  for mapping in vehicle lanes lanes128; do
    for model in strut ce pgs; do
      [ "$model" = pgs ] && [ "$mapping" = lanes128 ] && continue
      sizes=100000,1000000
      [ "$model" = pgs ] && sizes=10000,100000
      mapping_env "$mapping"
      run fleetdyn bench --model "$model" --machine "$machine-cuda-$mapping-r$round" --out "$out" --backends cuda \
        --sizes "$sizes" 2>&1 | tail -10
    done
  done
done
mapping_env default
# Nsight Compute on the strut fp32 kernel of each mapping: achieved occupancy, registers and
# local-memory (spill) traffic of one launch at 10^5 vehicles.
ncu_bin=$(command -v ncu 2>/dev/null || echo "$(dirname "$(command -v nvcc)")/ncu")
for mapping in vehicle lanes lanes128; do
  echo "== ncu strut fp32, $mapping"
  mapping_env "$mapping"
  LD_LIBRARY_PATH="$PWD/.device/lib:${LD_LIBRARY_PATH:-}" "$ncu_bin" --clock-control none \
    --kernel-name regex:'step_kernel' --launch-skip 2 --launch-count 1 \
    --metrics sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    .device/bin/fleetdyn bench --model strut --backends cuda --precisions fp32 --params shared --sizes 100000 \
    --min-time 0.1 --out "$out/ncu-scratch" --quiet 2>&1 | tee "$out/ncu-strut-fp32-$mapping.txt" | tail -14
done
mapping_env default
# ce (target: >= 330 000 vehicles in real time in fp32 at its 2 ms step).
run fleetdyn bench --model ce --machine "$machine-cuda" --out "$out" --backends cuda --sizes 1000,100000,1000000 \
  2>&1 | tail -14
# pgs (target: >= 50 000 vehicles in real time in fp32, >= 25 000 in fp64, at 1 ms, 30 fixed
# sweeps; its own kernel, lanes per vehicle), and the solver's thread- vs lanes-per-system
# kernels on the seed problems.
run fleetdyn bench --model pgs --machine "$machine-cuda" --out "$out" --backends cuda --precisions fp32,fp64 \
  --sizes 1000,10000,100000 2>&1 | tail -10
run fleetdyn_bench_pgs --benchmark_out="$out/$machine-gbench-pgs.json" --benchmark_out_format=json 2>&1 | tail -20
run fleetdyn_bench --benchmark_filter='cuda|derivative|step/' --benchmark_out="$out/$machine-gbench-strut.json" \
  --benchmark_out_format=json 2>&1 | tail -12
# The vector env: env-steps per second, C++ (Python: scripts/gpu-python.sh).
run fleetdyn_bench_env --benchmark_out="$out/$machine-gbench-vector-env.json" --benchmark_out_format=json 2>&1 | tail -16
# compute-sanitizer memcheck and racecheck on short runs of each model's kernel and the env kernels.
scripts/gpu-sanitize.sh 2>&1 | tee "$out/sanitizer.txt" | tail -40
# The Python side, on request (see the top).
if [ "${1:-}" = "--python" ]; then
  scripts/gpu-python.sh 2>&1 | tee "$out/gpu-python.txt" | tail -40
fi
