#!/usr/bin/env bash
# The command line of syidl: options, exit statuses, --dump of the shared IDL files.
# Usage: driver_test.sh SYIDL SHARED_IDL_DIR GOLDEN_DIR
set -u
syidl=$(readlink -f "$1")
shared=$2
golden=$3
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {  # expect STATUS DESCRIPTION -- command...
  local want=$1 what=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then
    passed=$((passed + 1))
  else
    echo "FAIL: $what: exit $rc, expected $want"; cat "$tmp/err"
    failed=$((failed + 1))
  fi
}
contains() {  # contains FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then passed=$((passed + 1)); else
    echo "FAIL: $3: '$2' not in output"; cat "$1"; failed=$((failed + 1)); fi
}
expect 0 "--help" -- "$syidl" --help
contains "$tmp/out" "usage: syidl" "--help text"
expect 0 "--version" -- "$syidl" --version
contains "$tmp/out" "syidl " "--version text"
expect 2 "no input" -- "$syidl"
expect 2 "unknown option" -- "$syidl" --bogus x.idl
contains "$tmp/err" "unknown option '--bogus'" "unknown option message"
expect 2 "bad -H" -- "$syidl" -H quadratic "$shared/ttcp_sequence.idl"
expect 2 "-I without a directory" -- "$syidl" "$shared/ttcp_sequence.idl" -I
expect 1 "missing file" -- "$syidl" "$tmp/nope.idl"
contains "$tmp/err" "syidl: error: cannot read '$tmp/nope.idl'" "missing file message"
for strategy in linear dynamic perfect active all; do
  expect 0 "-H $strategy" -- "$syidl" -H "$strategy" -o "$tmp/gen" "$shared/ttcp_sequence.idl"
done
for name in ttcp_sequence integrity; do
  expect 0 "--dump $name" -- "$syidl" --dump "$shared/$name.idl"
  if diff -u "$golden/$name.dump" "$tmp/out"; then passed=$((passed + 1)); else
    echo "FAIL: --dump $name differs from $golden/$name.dump"; failed=$((failed + 1)); fi
done
# -D and -I reach the preprocessor.
mkdir -p "$tmp/inc"
printf 'typedef long FromInclude;\n' >"$tmp/inc/dep.idl"
printf '#include <dep.idl>\n#if SIZE != 4\n#error SIZE must be 4\n#endif\ntypedef FromInclude T[SIZE];\n' >"$tmp/main.idl"
expect 0 "-D and -I" -- "$syidl" -I "$tmp/inc" -DSIZE=4 "$tmp/main.idl"
expect 1 "-D wrong value" -- "$syidl" -I "$tmp/inc" -D SIZE=5 "$tmp/main.idl"
contains "$tmp/err" "#error SIZE must be 4" "#error text"
# Several files: one bad file makes the run fail, the good ones are still checked.
expect 1 "several files" -- "$syidl" "$shared/ttcp_sequence.idl" "$tmp/nope.idl"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
