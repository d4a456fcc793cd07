#!/usr/bin/env bash
# Fuzz the scenario parser, its validation and one-vehicle batch construction (tests/fuzz/) for
# SECONDS (default 60), seeded with scenarios/ and tests/data/. Needs the sanitizer build with
# fuzz targets (scripts/test.sh --sanitize builds it into build-sanitize/). The grown corpus is
# kept in build-sanitize/fuzz/corpus; a finding is written to build-sanitize/fuzz/ and fails the
# run (reproduce: build-sanitize/tests/fuzz/fuzz_scenario FILE).
# Usage: scripts/fuzz.sh [SECONDS] [more libFuzzer flags, e.g. -runs=1000000]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
target=build-sanitize/tests/fuzz/fuzz_scenario
if [ ! -x "$target" ]; then
  echo "fuzz: $target is missing: run scripts/test.sh --sanitize first" >&2
  exit 2
fi
work=build-sanitize/fuzz
mkdir -p "$work/corpus"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizer/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# -rss_limit_mb: an input that makes the parser allocate gigabytes is a finding, as is one that
# takes more than -timeout seconds.
"$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=16384 \
  -dict=tests/fuzz/scenario.dict -artifact_prefix="$work/" -print_final_stats=1 "$@" \
  "$work/corpus" scenarios tests/data
