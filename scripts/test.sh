#!/usr/bin/env bash
# Install missing packages, build, and run the whole test suite; CI runs exactly this.
#   0. the C++ and CUDA sources formatted as .clang-format says (scripts/check-format.sh).
#   1. build/ (Release, CUDA when the toolkit is there, Python): ctest. GPU tests skip with
#      "no CUDA device" where there is none. Then `pip install .` of a clean clone into a fresh
#      virtual environment (CUDA off) and a smoke test of the installed module and tool
#      (scripts/test-pip-install.sh).
#   2. build-sanitize/ (clang, AddressSanitizer + UndefinedBehaviorSanitizer, CUDA and Python
#      off): the C++ suite again, less the long cases tests/sanitizer/release-only.txt names, then
#      the scenario fuzzer for FLEETDYN_FUZZ_SECONDS (60).
# --no-sanitize runs part 1 only, --sanitize part 2 only. Other arguments go to cmake (part 1).
set -euo pipefail
cd "$(dirname "$0")/.."
parts="main sanitize"
args=()
for a in "$@"; do
  case "$a" in
    --sanitize) parts="sanitize" ;;
    --no-sanitize) parts="main" ;;
    *) args+=("$a") ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
timings=()
timed() {  # timed LABEL COMMAND...: run it and note how long it took
  local label=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$(printf '%-28s %5d s' "$label" $((SECONDS - start)))")
}

timed "install" scripts/install-deps.sh --test
timed "format check" scripts/check-format.sh
if [[ $parts == *main* ]]; then
  timed "build (Release)" scripts/build.sh "${args[@]+"${args[@]}"}"
  timed "ctest (Release)" ctest --test-dir build --output-on-failure -j "$jobs"
  timed "pip install (CPU) + smoke" scripts/test-pip-install.sh
fi
if [[ $parts == *sanitize* ]]; then
  # -O1 with line tables: readable reports at a fraction of a debug build's compile time.
  timed "build (sanitizers)" bash -c "CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja \
      -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE='-O1 -gline-tables-only' \
      -DCMAKE_C_FLAGS_SANITIZE='-O1 -gline-tables-only' -DFLEETDYN_CUDA=OFF -DFLEETDYN_BUILD_PYTHON=OFF \
      -DFLEETDYN_BUILD_BENCH=OFF -DFLEETDYN_SANITIZE=ON -DFLEETDYN_FUZZ=ON >/dev/null && cmake --build build-sanitize -j $jobs"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1
  export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizer/lsan.supp"
  # The cases in tests/sanitizer/release-only.txt (long numerical comparisons whose code the
  # shorter cases run under the sanitizers too) run in the Release ctest only.
  release_only=$(grep -v '^\s*\(#\|$\)' tests/sanitizer/release-only.txt | sed 's/\./\\./g' | paste -sd'|')
  timed "ctest (sanitizers)" ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -E "^($release_only)\$"
  timed "fuzz (scenario parser)" scripts/fuzz.sh "${FLEETDYN_FUZZ_SECONDS:-60}"
fi
echo "test.sh: time by part"
printf '  %s\n' "${timings[@]}"
