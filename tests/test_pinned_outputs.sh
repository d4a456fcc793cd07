#!/usr/bin/env bash
# Behaviour pinned to the bit: the sha256 of results.csv of scenarios/default.yaml and of
# samples.csv of a 500-sample fishhook_mc study, both on the CPU backend, as written before the
# host side was restructured. A refactor that changes any result changes these digests.
# The digests hold for the build they were taken with (GCC, Release, -march=x86-64-v3): other
# compilers, build types or CPU targets round differently (contracted FMAs, vectorization). There
# the same two runs are checked against themselves instead: the outputs on one CPU thread must
# equal, byte for byte, those on all threads.
# Usage (ctest): test_pinned_outputs.sh FLEETDYN WORK_DIR BUILD_KEY   (run from the source tree)
set -euo pipefail
fleetdyn=$1 work=$2 key=$3
pinned_key="GNU-Release-x86-64-v3"
rm -rf "$work"
mkdir -p "$work"
run_both() {  # run_both OUT_DIR [fleetdyn run options]
  local out=$1
  shift
  "$fleetdyn" run scenarios/default.yaml --backend cpu --out "$out/default" --quiet "$@"
  "$fleetdyn" run scenarios/fishhook_mc.yaml --backend cpu --samples 500 --out "$out/fishhook" --quiet "$@"
}
run_both "$work/all-threads"
if [ "$key" != "$pinned_key" ]; then
  echo "digests were taken with a $pinned_key build, this build is $key: checking one thread against all instead"
  run_both "$work/one-thread" --threads 1
  status=0
  for f in default/results.csv fishhook/samples.csv; do
    if cmp "$work/all-threads/$f" "$work/one-thread/$f"; then echo "ok: $f"; else echo "FAIL: $f differs"; status=1; fi
  done
  exit $status
fi
check() {
  local file=$1 expected=$2 actual
  actual=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$actual" != "$expected" ]; then
    echo "FAIL: $file sha256 $actual, pinned $expected"
    return 1
  fi
  echo "ok: $file"
}
status=0
check "$work/all-threads/default/results.csv" 7bfbe12af377b37f8a909706fcee5fe010b787b313022574d97b905e6e9afc36 || status=1
check "$work/all-threads/fishhook/samples.csv" 86ed9fd72ddf879ba3811b0ef09218c5476c064cc02b4c31866b04a9d53c9886 || status=1
exit $status
