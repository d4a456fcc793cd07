#!/usr/bin/env bash
# A study sharded over 2 MPI ranks (CPU backend) must write the same samples.csv, byte for byte,
# as one process, and so must a 2-rank resume of a study cut off in the middle of a chunk.
# Usage (ctest): test_mpi_study.sh FLEETDYN MPIEXEC WORK_DIR   (run from the source tree)
set -euo pipefail
fleetdyn=$1 mpiexec=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
sed 's/chunk: 24/chunk: 5/' tests/data/study_small.yaml > "$work/study.yaml"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI containers run as root
# In a sanitizer build: OpenMPI's start-up keeps allocations to the end; full stack unwinding
# lets the leak report see that they come from its libraries (tests/sanitizer/lsan.supp).
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}fast_unwind_on_malloc=0"
mpi() { "$mpiexec" --oversubscribe -np 2 "$fleetdyn" "$@"; }

"$fleetdyn" run "$work/study.yaml" --out "$work/one" --threads 1 --quiet
mpi run "$work/study.yaml" --out "$work/two" --threads 1 --quiet
cmp "$work/one/samples.csv" "$work/two/samples.csv"
grep -q '"processes": 2' "$work/two/summary.json"
# Each rank's record: both ranks on this node, local ranks 0 and 1 (no GPU here: no device).
grep -q '"local_rank": 1' "$work/two/summary.json"
grep -q '"cuda_device": null' "$work/two/summary.json"

# Cut the one-process study after 7 rows and half of the 8th, then resume it on 2 ranks.
mkdir -p "$work/cut"
cp "$work/one/study.json" "$work/cut/"
head -n 8 "$work/one/samples.csv" > "$work/cut/samples.csv"
sed -n 9p "$work/one/samples.csv" | head -c 20 >> "$work/cut/samples.csv"
mpi run --resume "$work/cut" --threads 1 --quiet
cmp "$work/one/samples.csv" "$work/cut/samples.csv"
grep -q '"samples_done_before_this_run": 7' "$work/cut/summary.json"
echo "mpi study: 2 ranks, resumed on 2 ranks: samples.csv identical to one process"
