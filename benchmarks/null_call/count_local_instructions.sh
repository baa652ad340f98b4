#!/usr/bin/env bash
# Instructions per null two-way call made in the same process (null_call local): a collocated
# call (thru-adapter, direct) or a plain virtual call, counted by callgrind over CALLS and over
# 2 x CALLS calls, the difference divided by CALLS (start-up and shutdown drop out).
# Usage: count_local_instructions.sh [BUILDDIR] [CALLS] [MODE...]
# (defaults build-release/, 10000, and every mode: thru-adapter direct virtual).
set -euo pipefail
builddir=${1:-build-release}
calls=${2:-10000}
shift 2 || shift $# || true
modes=("$@")
[ ${#modes[@]} -eq 0 ] && modes=(thru-adapter direct virtual)
program=$builddir/benchmarks/null_call/null_call
[ -x "$program" ] || { echo "count_local_instructions.sh: $program is missing" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "count_local_instructions.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
count() {  # $1: mode, $2: calls
  taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/local.out" \
    "$program" local "$2" "$1" >/dev/null 2>&1
  total "$work/local.out"
}
for mode in "${modes[@]}"; do
  c1=$(count "$mode" "$calls"); c2=$(count "$mode" $((2 * calls)))
  echo "$mode: $(( (c2 - c1) / calls )) instructions per call"
done
