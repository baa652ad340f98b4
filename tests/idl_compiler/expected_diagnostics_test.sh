#!/usr/bin/env bash
# Each bad/NAME.idl must make syidl exit 1 and print exactly bad/NAME.expected on stderr.
# A line "// syidl-args: ..." in the file adds options. --update rewrites the .expected files.
# Usage: expected_diagnostics_test.sh SYIDL BAD_DIR [--update]
set -u
syidl=$(readlink -f "$1")
dir=$2
update=${3:-}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
passed=0 failed=0
for f in "$dir"/*.idl; do
  name=$(basename "$f")
  args=$(sed -n 's|^// syidl-args: ||p' "$f")
  # shellcheck disable=SC2086
  (cd "$dir" && timeout 30 "$syidl" $args "$name") >/dev/null 2>"$out"
  rc=$?
  expected=${f%.idl}.expected
  if [ "$update" = "--update" ]; then cp "$out" "$expected"; fi
  if [ "$rc" -eq 1 ] && diff -u "$expected" "$out"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $name (exit $rc)"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
