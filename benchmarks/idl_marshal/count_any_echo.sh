#!/usr/bin/env bash
# Instructions per echo round trip (any_echo.cpp: client marshal, server demarshal, the servant's
# copy, server marshal, client demarshal), counted by callgrind over CALLS and 2 x CALLS round
# trips, the difference divided by CALLS (start-up and warm-up drop out).
# Usage: count_any_echo.sh [BUILDDIR] [UNITS] [CALLS]   (defaults build-release/, 1000 and 20)
set -euo pipefail
builddir=${1:-build-release}
units=${2:-1000}
calls=${3:-20}
program=$builddir/benchmarks/idl_marshal/any_echo
[ -x "$program" ] || { echo "count_any_echo.sh: $program is missing" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "count_any_echo.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {  # $1 payload, $2 method, $3 calls
  valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$program" --payload "$1" --method "$2" --units "$units" --calls "$3" >/dev/null 2>&1
  callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
echo "payload,method,units,instructions_per_round_trip,per_unit"
for payload in records binstructs; do
  for method in generated any; do
    one=$(count "$payload" "$method" "$calls")
    two=$(count "$payload" "$method" $((2 * calls)))
    per=$(( (two - one) / calls ))
    echo "$payload,$method,$units,$per,$(awk -v p="$per" -v u="$units" 'BEGIN {printf "%.1f", p / u}')"
  done
done
