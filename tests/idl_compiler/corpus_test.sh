#!/usr/bin/env bash
# Runs syidl over every IDL file of Debian's omniorb-idl. Files listed in omniidl_accepted.txt
# (what omniidl accepts) must be accepted (exit 0); every other file must be rejected with exit
# status 1 and at least one "error:" diagnostic; a signal or a timeout fails the test.
# Usage: corpus_test.sh SYIDL ACCEPTED_LIST [CORPUS_DIR]
set -u
syidl=$(readlink -f "$1")
list=$(readlink -f "$2")
dir=${3:-/usr/share/idl/omniORB}
if [ ! -d "$dir" ]; then
  echo "corpus_test: $dir is not installed (package omniorb-idl); skipped"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
accepted=0 rejected=0 failures=0 total=0
listed=$(grep -v '^#' "$list" | grep -c .)
cd "$dir" || exit 1
while read -r f; do
  f=${f#./}
  total=$((total + 1))
  timeout 30 "$syidl" -I"$dir" -I"$dir/COS" "$f" >"$out" 2>&1
  rc=$?
  if grep -qx "$f" "$list"; then
    if [ "$rc" -eq 0 ]; then
      accepted=$((accepted + 1))
    else
      echo "FAIL: $f is accepted by omniidl but syidl exits $rc:"; head -5 "$out"
      failures=$((failures + 1))
    fi
  else
    if [ "$rc" -eq 1 ] && grep -q ': error: ' "$out"; then
      rejected=$((rejected + 1))
      echo "rejected as expected: $f: $(grep -m1 ': error: ' "$out")"
    else
      echo "FAIL: $f should be rejected with exit 1 and a diagnostic, got exit $rc:"; head -5 "$out"
      failures=$((failures + 1))
    fi
  fi
done < <(find . -name '*.idl' | sort)
echo "corpus: $total files; $accepted of $listed omniidl-accepted files accepted; $rejected others rejected with a diagnostic; $failures failures"
[ "$failures" -eq 0 ] && [ "$accepted" -eq "$listed" ]
