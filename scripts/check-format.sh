#!/usr/bin/env bash
# Checks that the tracked C++ and CUDA sources (*.h, *.cpp, *.cu, *.cuh) are formatted as .clang-format
# says: clang-format --dry-run -Werror over each; exits non-zero and names the files that are not.
# Usage: scripts/check-format.sh [CLANG_FORMAT]     (default: clang-format; version 14 or later)
set -uo pipefail
cd "$(dirname "$0")/.."
clang_format=${1:-${CLANG_FORMAT:-clang-format}}
command -v "$clang_format" > /dev/null || { echo "check-format.sh: $clang_format not found" >&2; exit 2; }
bad=()
while IFS= read -r -d '' file; do
  "$clang_format" --style=file --dry-run -Werror "$file" > /dev/null 2>&1 || bad+=("$file")
done < <(git ls-files -z -- '*.h' '*.cpp' '*.cu' '*.cuh')
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format.sh: ${#bad[@]} file(s) not formatted as .clang-format says (clang-format -i FILE fixes one):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format.sh: all C++ and CUDA sources formatted"
