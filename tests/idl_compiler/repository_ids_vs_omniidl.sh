#!/usr/bin/env bash
# Every repository id syidl gives (syidl --dump-all) must equal omniidl's for the same
# declaration, over every corpus file that omniidl accepts (omniidl_accepted.txt) and over
# nested_inline.idl beside this script (types declared inside types).
# Skipped when omniidl or the corpus is not installed.
# Usage: repository_ids_vs_omniidl.sh SYIDL ACCEPTED_LIST [CORPUS_DIR]
set -u
syidl=$(readlink -f "$1")
list=$(readlink -f "$2")
dir=${3:-/usr/share/idl/omniORB}
here=$(dirname "$(readlink -f "$0")")
if ! command -v omniidl >/dev/null || [ ! -d "$dir" ]; then
  echo "repository_ids_vs_omniidl: omniidl or $dir missing; skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 1
compared=0 differing=0 files=0
for f in $(grep -v '^#' "$list") "$here/nested_inline.idl"; do
  files=$((files + 1))
  omniidl -p"$here" -bomniidl_repoids -I"$dir" -I"$dir/COS" "$f" 2>/dev/null | sort -u >"$tmp/omniidl"
  "$syidl" --dump-all -I"$dir" -I"$dir/COS" "$f" 2>/dev/null |
    awk 'NF >= 3 { print $(NF-1), $NF }' | sort -u >"$tmp/syidl"
  n=$(wc -l <"$tmp/syidl")
  d=$(comm -23 "$tmp/syidl" "$tmp/omniidl" | wc -l)
  compared=$((compared + n))
  if [ "$n" -eq 0 ] || [ "$d" -ne 0 ]; then
    echo "FAIL: $f: $d of $n ids differ from omniidl's:"
    comm -23 "$tmp/syidl" "$tmp/omniidl" | head -5
    differing=$((differing + d + 1))
  fi
done
echo "repository ids: $compared compared over $files files, $differing differ from omniidl"
[ "$differing" -eq 0 ]
