#!/usr/bin/env bash
# Behaviour pinned to the bit: the sha256 of results.csv of scenarios/default.yaml and of
# samples.csv of a 500-sample fishhook_mc study, both on the CPU backend, as written before the
# host side was restructured. A refactor that changes any result changes these digests.
# The digests hold for the build they were taken with (GCC, Release, -march=x86-64-v3): other
# compilers, build types or CPU targets round differently (contracted FMAs, vectorization), so
# those builds skip with the reason.
# Usage (ctest): test_pinned_outputs.sh FLEETDYN WORK_DIR BUILD_KEY   (run from the source tree)
set -euo pipefail
fleetdyn=$1 work=$2 key=$3
pinned_key="GNU-Release-x86-64-v3"
if [ "$key" != "$pinned_key" ]; then
  echo "SKIP: digests were taken with a $pinned_key build; this build is $key"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$fleetdyn" run scenarios/default.yaml --backend cpu --out "$work/default" --quiet
"$fleetdyn" run scenarios/fishhook_mc.yaml --backend cpu --samples 500 --out "$work/fishhook" --quiet
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
check "$work/default/results.csv" 7bfbe12af377b37f8a909706fcee5fe010b787b313022574d97b905e6e9afc36 || status=1
check "$work/fishhook/samples.csv" 86ed9fd72ddf879ba3811b0ef09218c5476c064cc02b4c31866b04a9d53c9886 || status=1
exit $status
