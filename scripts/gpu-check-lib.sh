# shellcheck shell=bash
# Steps and the PASS/FAIL summary of scripts/gpu-check.sh and scripts/gpu-sanitize.sh (sourced).
# Each step's output goes to $GC_DIR/NAME.log; the summary has one line per step (name, verdict,
# seconds). A part has a time budget (GPU_CHECK_BUDGET_S, default 450 s, inside the device
# tool's 8 minutes a call): steps that would start after it are SKIPped, and the part fails.

# gc_init NAME: results under ${OUT:-bench/results/gpu-check}/NAME.
gc_init() {
  GC_NAME=$1
  GC_ROOT=${OUT:-bench/results/gpu-check}
  GC_DIR=$GC_ROOT/$GC_NAME
  GC_BUDGET=${GPU_CHECK_BUDGET_S:-450}
  rm -rf "$GC_DIR"
  mkdir -p "$GC_DIR"
  GC_START=$(date +%s)
  GC_LINES=()
  GC_FAILED=0
  GC_SKIPPED=0
}

# gc_step NAME LIMIT_S COMMAND...: runs COMMAND with a time limit (cut to what is left of the
# budget), its output in $GC_DIR/NAME.log; on failure prints the log's last lines.
gc_step() {
  local name=$1 limit=$2
  shift 2
  local used=$(($(date +%s) - GC_START))
  local left=$((GC_BUDGET - used))
  if [ "$left" -lt 15 ]; then
    GC_LINES+=("$(printf '%-52s %-7s %6s' "$name" SKIP -)")
    GC_SKIPPED=$((GC_SKIPPED + 1))
    echo "== $name: SKIP (the part's ${GC_BUDGET} s are spent)"
    return 0
  fi
  [ "$limit" -le "$left" ] || limit=$left
  echo "== $name: $*" > "$GC_DIR/$name.log"
  local t0 t1 rc verdict
  t0=$(date +%s%N)
  timeout -k 10 "$limit" "$@" >> "$GC_DIR/$name.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  local secs
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  verdict=PASS
  if [ "$rc" -ne 0 ]; then
    verdict=FAIL
    GC_FAILED=$((GC_FAILED + 1))
  fi
  local note=""
  [ "$rc" -eq 124 ] && note=" timeout ${limit}s"
  [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && note=" exit $rc"
  GC_LINES+=("$(printf '%-52s %-7s %6s%s' "$name" "$verdict" "$secs" "$note")")
  echo "== $name: $verdict (${secs} s${note})"
  if [ "$rc" -ne 0 ]; then
    tail -n 6 "$GC_DIR/$name.log" | cut -c1-200 | sed 's/^/   | /'
  fi
  return 0
}

# gc_pack: the pack's size (a step: FAIL without .device/run or over 60 MiB) and the GPU.
gc_pack() {
  local size
  size=$(du -sm .device 2>/dev/null | cut -f1)
  echo "== pack: .device ${size:-missing} MiB ($(tr '\n' ' ' < .device/build-options.txt 2>/dev/null))"
  gc_step pack-size 10 bash -c "[ -x .device/run ] && [ -s .device/cuda-tests.txt ] && [ \"\$(du -sm .device | cut -f1)\" -le 60 ] && du -sh .device && cat .device/build-options.txt"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$GC_DIR/gpu.txt" 2>&1
  head -2 "$GC_DIR/gpu.txt"
}

# gc_machine: a label for result files from the GPU's name (MACHINE overrides it).
gc_machine() {
  local m=${MACHINE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-' | tr -cd 'A-Za-z0-9_.-')}
  echo "${m:-gpu}"
}

# gc_finish TITLE: the summary (also $GC_ROOT/gpu-check-NAME-summary.txt); when $OUT is set the
# logs are packed into $OUT/gpu-check-NAME.tar.gz (the device tool brings back 8 files at most).
# Returns 1 if a step failed or was skipped.
gc_finish() {
  local title=$1 verdict=PASS total
  total=$(($(date +%s) - GC_START))
  [ "$GC_FAILED" -eq 0 ] || verdict=FAIL
  [ "$GC_SKIPPED" -eq 0 ] || [ "$verdict" = FAIL ] || verdict="FAIL (incomplete)"
  {
    echo "==== $title: summary (${total} s; logs in $GC_DIR)"
    printf '%-52s %-7s %6s\n' step verdict seconds
    printf '%s\n' "${GC_LINES[@]}"
    echo "==== $title: $verdict ($((${#GC_LINES[@]} - GC_FAILED - GC_SKIPPED)) passed, $GC_FAILED failed, $GC_SKIPPED skipped)"
  } | tee "$GC_ROOT/gpu-check-$GC_NAME-summary.txt"
  if [ -n "${OUT:-}" ] && [ "${GPU_CHECK_ARCHIVE:-1}" = 1 ]; then
    tar czf "$GC_ROOT/gpu-check-$GC_NAME.tar.gz" -C "$GC_ROOT" "$GC_NAME" && rm -rf "${GC_DIR:?}"
  fi
  [ "$verdict" = PASS ]
}
