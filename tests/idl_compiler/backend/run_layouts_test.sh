#!/usr/bin/env bash
# The C++ layout that syidl's runs of fixed-size structs assume (idl_compiler/cxx_fixed_runs:
# natural alignment, checked by an `if constexpr` over offsetof and sizeof) holds for every struct
# of runs.idl and the IDL it includes, on this compiler and platform: otherwise the generated
# code would fall back to element by element without a word, correct but slow. Every condition
# the generated code tests becomes a static_assert, compiled.
# Usage: run_layouts_test.sh SYIDL IDL_DIR RUNS_IDL INCLUDE_DIR... -- CXX...
set -eu
syidl=$(readlink -f "$1")
idl_dir=$(readlink -f "$2")
runs_idl=$(readlink -f "$3")
shift 3
includes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do includes+=("-I$(readlink -f "$1")"); shift; done
[ "${1:-}" = "--" ] && shift
cxx=("$@")
[ ${#cxx[@]} -eq 0 ] && cxx=(c++)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for idl in "$idl_dir/ttcp_sequence.idl" "$idl_dir/integrity.idl" "$runs_idl"; do
  "$syidl" -I "$idl_dir" -o "$work" "$idl"
done
{
  echo '#include <cstddef>'
  echo '#include <type_traits>'
  echo '#include "runs.h"'
  grep -ho 'if constexpr (.*) {$' "$work"/*.cpp | sort -u | sed 's/^if constexpr (\(.*\)) {$/static_assert(\1);/'
} > "$work/layouts.cpp"
count=$(grep -c '^static_assert' "$work/layouts.cpp" || true)
if [ "$count" -lt 9 ]; then
  echo "FAIL: $count layout conditions in the generated code, expected one per struct in a run (at least 9)"
  exit 1
fi
if ! timeout 120 "${cxx[@]}" -std=c++20 -fsyntax-only -I"$work" "${includes[@]}" "$work/layouts.cpp"; then
  echo "FAIL: a C++ layout the runs assume does not hold (the generated code would go element by element)"
  exit 1
fi
echo "run_layouts_test: $count layouts hold"
