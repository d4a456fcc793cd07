#!/usr/bin/env bash
# A study killed with SIGKILL at random moments resumes to the same samples.csv, byte for byte.
# Runs a 1600-sample study once undisturbed, then until it was killed KILLS times: start it,
# kill -9 it at a moment drawn uniformly over the undisturbed run's duration, `fleetdyn run
# --resume` it (or start it again where it died before its folder held a study), compare.
# Prints one line per kill (moment, rows on disk, bytes of a torn row) and fails on any
# difference. Usage: scripts/kill-resume.sh [KILLS (20)] [SEED (random)]; FLEETDYN=path/to/fleetdyn
# (default build/fleetdyn).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20}
seed=${2:-$((SRANDOM % 100000))}
fleetdyn=${FLEETDYN:-build/fleetdyn}
[ -x "$fleetdyn" ] || { echo "kill-resume: $fleetdyn is missing: run scripts/build.sh first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/samples: 24/samples: 1600/' -e 's/chunk: 24/chunk: 8/' tests/data/study_small.yaml > "$work/study.yaml"
echo "cpu_threads: 1" >> "$work/study.yaml"
now_ms() { date +%s%3N; }

start=$(now_ms)
"$fleetdyn" run "$work/study.yaml" --out "$work/reference" --quiet
duration=$(($(now_ms) - start))
echo "kill-resume: seed $seed, undisturbed run ${duration} ms, $(($(wc -l < "$work/reference/samples.csv") - 1)) rows"
RANDOM=$seed
failed=0 killed=0 i=0
# Until KILLS runs were killed mid-study (a moment past a faster run's end kills nothing: drawn again).
while ((killed < kills && i < 3 * kills)); do
  i=$((i + 1))
  at=$(((RANDOM * 32768 + RANDOM) % duration))
  out="$work/run_$i"
  "$fleetdyn" run "$work/study.yaml" --out "$out" --quiet &
  pid=$!
  sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
  kill -9 "$pid" 2>/dev/null || true
  rc=0
  { wait "$pid"; } 2>/dev/null || rc=$?
  what="finished before the kill"
  if [ "$rc" -eq 137 ]; then
    killed=$((killed + 1))
    if [ -f "$out/samples.csv" ]; then
      rows=$(($(wc -l < "$out/samples.csv") - 1))
      torn=$(tail -c 1 "$out/samples.csv" | od -An -c | grep -q '\\n' && echo 0 || tail -n 1 "$out/samples.csv" | wc -c)
      what="killed: $rows rows on disk, torn row ${torn} bytes"
    else
      what="killed before samples.csv existed"
    fi
  fi
  if [ -f "$out/study.json" ]; then
    "$fleetdyn" run --resume "$out" --quiet
    how="resumed"
  else  # killed before the study was set up: what is there must not stop a fresh start
    "$fleetdyn" run "$work/study.yaml" --out "$out" --quiet
    how="started again"
  fi
  if cmp -s "$out/samples.csv" "$work/reference/samples.csv"; then result="$how: identical"; else result="$how: DIFFERENT"; failed=$((failed + 1)); fi
  printf 'kill %2d at %5d ms: %-45s -> %s\n' "$i" "$at" "$what" "$result"
done
echo "kill-resume: $i runs, $killed killed; $failed differ from the undisturbed run"
[ "$failed" -eq 0 ] && [ "$killed" -eq "$kills" ]
