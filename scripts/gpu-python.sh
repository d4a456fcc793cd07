#!/usr/bin/env bash
# Run on the lent GPU machine from the repository root (after scripts/device-pack.sh --python here,
# with `.device` in the carry): builds the Python module there with CUDA (nvcc, pybind11 and the
# machine's python3; Eigen's headers from .device/eigen), runs the Python tests that need a GPU
# (torch zero-copy through DLPack, streams, device actions), the vector env's own tests and the
# PPO example's, measures env-steps per second from Python at 4096 envs, 10 physics steps per env
# step, and trains the PPO example (PyTorch) on CUDA for a fixed budget (skipped without torch).
# Results go to $OUT (or bench/results/).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results}
mkdir -p "$out"
[ -d .device/eigen ] || { echo "gpu-python.sh: .device/eigen is missing: pack with scripts/device-pack.sh --python" >&2; exit 2; }
cmake -S . -B build-gpu-py -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLEETDYN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DFLEETDYN_BUILD_CLI=OFF -DFLEETDYN_BUILD_TESTS=OFF -DFLEETDYN_BUILD_BENCH=OFF -DFLEETDYN_MPI=OFF \
  -DEigen3_DIR="$PWD/.device/eigen/share/eigen3/cmake" > "$out/gpu-python-configure.log" 2>&1 ||
  { tail -30 "$out/gpu-python-configure.log"; exit 1; }
cmake --build build-gpu-py -j "$(nproc)" --target fleetdyn_py 2>&1 | tail -3
export PYTHONPATH=$PWD/build-gpu-py/python PYTHONDONTWRITEBYTECODE=1
if python3 -c "import pytest" 2>/dev/null; then
  python3 -m pytest -q -p no:cacheprovider -rs python/tests/test_cuda.py python/tests/test_vector_env.py \
    python/tests/test_ppo_example.py 2>&1 | tail -15
else
  echo "pytest is not installed here: the GPU tests did not run"
fi
machine=${MACHINE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-' | tr -cd 'A-Za-z0-9_.-')}
for envs in 4096 65536; do
  python3 examples/bench_vector_env.py --backend cuda --num-envs "$envs" --steps 500 --json | tee -a "$out/${machine:-gpu}-python-vector-env.jsonl"
done
python3 examples/bench_vector_env.py --backend cpu --json | tee -a "$out/${machine:-gpu}-python-vector-env.jsonl"
# PPO with PyTorch on CUDA (examples/train_ppo.py): 4096 envs for a fixed wall-time budget of
# 150 s of training, then the deterministic evaluation; the learning curve and the log go to $out.
if python3 -c "import torch" 2>/dev/null; then
  timeout 400 python3 examples/train_ppo.py --device cuda --num-envs 4096 --max-seconds 150 \
    --curve "$out/${machine:-gpu}-ppo-curve.csv" > "$out/${machine:-gpu}-ppo.log" 2>&1
  echo "train_ppo: exit $?"
  tail -8 "$out/${machine:-gpu}-ppo.log"
else
  echo "torch is not installed here: the PPO example did not run"
fi
