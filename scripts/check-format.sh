#!/usr/bin/env bash
# Fails when a C++ source differs from the house style in .clang-format (clang-format 14).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format not installed; format check skipped"
  exit 0
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find core apps bench tests -name '*.cpp' -o -name '*.h')
clang-format --dry-run -Werror "${files[@]}"
echo "format check: ${#files[@]} files follow .clang-format"
