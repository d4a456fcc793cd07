#!/usr/bin/env bash
# Registers, stack frame and spills of every CUDA kernel, as ptxas reports them, as a markdown
# table (bench/floor.md records them). Needs nvcc, no GPU. Compiles each kernels/*.cu and the
# engines' translation units that the CMake configure of build/ generates (build/generated/kernels:
# one per model and precision) the way the build does (-O3, --fmad=false) for one architecture.
#   scripts/kernel-resources.sh [ARCH=90] [FILE.cu ...]
#   scripts/kernel-resources.sh --log BUILD_LOG   (the table from a build's output with -Xptxas=-v)
# NVCC_FLAGS adds options (e.g. NVCC_FLAGS=-DFLEETDYN_CUDA_VARIANTS=1 for the measuring variants).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [[ ${1:-} == --log ]]; then
  cp "$2" "$out/build.log"
else
  arch=${1:-90}
  shift || true
  files=("$@")
  if [[ ${#files[@]} -eq 0 ]]; then
    [[ -d build/generated/kernels ]] || { echo "kernel-resources.sh: configure build/ first (scripts/build.sh)" >&2; exit 2; }
    files=(kernels/*.cu build/generated/kernels/*.cu)
  fi
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  for f in "${files[@]}"; do
    # shellcheck disable=SC2086
    "$nvcc" -std=c++17 -O3 -DNDEBUG -DFLEETDYN_HAS_CUDA=1 --fmad=false -I include -I . -isystem /usr/include/eigen3 ${NVCC_FLAGS:-} \
      --generate-code="arch=compute_$arch,code=sm_$arch" -Xptxas=-v -c "$f" -o "$out/$(basename "$f").o" \
      2>"$out/$(basename "$f").log" || { cat "$out/$(basename "$f").log" >&2; exit 1; }
  done
fi
cat "$out"/*.log | python3 -c '
import re, subprocess, sys
rows, name = [], None
for line in sys.stdin:
    m = re.search(r"Function properties for (\S+)", line)
    if m: name = m.group(1); frame = None; continue
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m and name: frame = m.groups(); continue
    m = re.search(r"Compiling entry function .(\S+). for", line)
    if m: name = m.group(1); frame = None; continue
    m = re.search(r"Used (\d+) registers", line)
    if m and name and frame is not None:
        rows.append((name, m.group(1)) + frame); name = None
names = subprocess.run(["c++filt"], input="\n".join(r[0] for r in rows), capture_output=True, text=True).stdout.split("\n")
print("| kernel | registers | stack (B) | spill stores (B) | spill loads (B) |")
print("| --- | ---: | ---: | ---: | ---: |")
for r, n in sorted(zip(rows, names), key=lambda x: x[1]):
    n = n.replace("(anonymous namespace)::", "").replace("fleetdyn::", "").removeprefix("void ")
    depth = 0
    for i in range(len(n) - 1, -1, -1):  # drop the parameter list: from the last ")" to its "("
        depth += {")": 1, "(": -1}.get(n[i], 0)
        if depth == 0 and n[i] == "(":
            n = n[:i]
            break
    print(f"| `{n}` | {r[1]} | {r[2]} | {r[3]} | {r[4]} |")
'
