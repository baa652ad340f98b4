#!/usr/bin/env bash
# Instructions per element of the marshal benchmark's data sets, counted by callgrind: each
# (data set, operation, implementation) runs CALLS and 2 x CALLS times untimed
# (idl_marshal_bench --calls), and the difference is divided by CALLS and by the elements (start-up,
# the agreement check and warm-up drop out).
# Usage: count_marshal.sh [BUILDDIR] [CALLS] [SETS] [IMPLEMENTATIONS]
#   defaults: build-release/, 5, Record,NARecord,BinStruct,BinStruct@8 and syidl
#   e.g. count_marshal.sh build-release 5 Record syidl,hand,omniORB
set -euo pipefail
builddir=${1:-build-release}
calls=${2:-5}
sets=${3:-Record,NARecord,BinStruct,BinStruct@8}
implementations=${4:-syidl}
elements=2048  # element_counts::structs (codec.h); the fixed-struct data sets all hold this many
program=$builddir/benchmarks/idl_marshal/idl_marshal_bench
[ -x "$program" ] || { echo "count_marshal.sh: $program is missing" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "count_marshal.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {  # $1 set, $2 operation, $3 implementation, $4 calls
  valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$program" --only "$1" --operation "$2" --implementation "$3" --calls "$4" >/dev/null 2>&1
  callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
echo "data_set,operation,implementation,instructions_per_call,per_element"
for set in ${sets//,/ }; do
  for operation in marshal demarshal; do
    for implementation in ${implementations//,/ }; do
      one=$(count "$set" "$operation" "$implementation" "$calls")
      two=$(count "$set" "$operation" "$implementation" $((2 * calls)))
      per=$(( (two - one) / calls ))
      echo "$set,$operation,$implementation,$per,$(awk -v p="$per" -v n="$elements" 'BEGIN {printf "%.2f", p / n}')"
    done
  done
done
