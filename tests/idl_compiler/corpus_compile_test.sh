#!/usr/bin/env bash
# Generates C++ with syidl -o for every IDL file of Debian's omniorb-idl and compiles what it
# wrote. Every file omniidl accepts (omniidl_accepted.txt) must generate, except those listed in
# NOT_GENERATED (none since valuetypes generate; a listed file must fail with an error), and each generated
# X.cpp (with X.h and the headers it includes) must compile with -Wall -Wextra -Werror. Every
# file omniidl rejects must fail with exit status 1 and an error, never a signal. The compiles
# run in parallel, one per core, each bounded in time.
# Usage: corpus_compile_test.sh SYIDL ACCEPTED_LIST NOT_GENERATED INCLUDE_DIR... [-- CXX...]
#   CXX defaults to c++; INCLUDE_DIRs are the ORB's public headers (source and build trees).
set -u
syidl=$(readlink -f "$1")
accepted=$(readlink -f "$2")
not_generated=$(readlink -f "$3")
shift 3
includes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do includes+=("-I$(readlink -f "$1")"); shift; done
[ "${1:-}" = "--" ] && shift
cxx=("$@")
[ ${#cxx[@]} -eq 0 ] && cxx=(c++)
dir=/usr/share/idl/omniORB
if [ ! -d "$dir" ]; then
  echo "corpus_compile_test: $dir is not installed (package omniorb-idl); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
listed() { grep -v '^#' "$1" | grep -qx "$2"; }

failures=0 generated=0 expected_refusals=0 rejected=0
cd "$dir" || exit 1
while read -r f; do
  f=${f#./}
  # shellcheck disable=SC2086 # SYIDL_ARGS: extra options, split on spaces (--ami)
  timeout 60 "$syidl" ${SYIDL_ARGS:-} -I"$dir" -I"$dir/COS" -o "$work/out" "$f" >"$work/log" 2>&1
  rc=$?
  if ! listed "$accepted" "$f"; then
    if [ "$rc" -eq 1 ] && grep -q ': error: ' "$work/log"; then
      rejected=$((rejected + 1))
    else
      echo "FAIL: $f (omniidl rejects it) should fail with exit 1 and an error, got exit $rc"; head -5 "$work/log"
      failures=$((failures + 1))
    fi
  elif listed "$not_generated" "$f"; then
    if [ "$rc" -eq 1 ] && grep -q ': error: ' "$work/log"; then
      expected_refusals=$((expected_refusals + 1))
    else
      echo "FAIL: $f is in $(basename "$not_generated"): expected exit 1 and an error, got exit $rc"
      [ "$rc" -eq 0 ] && echo "  (it generates now: remove it from the list)"
      head -5 "$work/log"
      failures=$((failures + 1))
    fi
  elif [ "$rc" -eq 0 ]; then
    generated=$((generated + 1))
  else
    echo "FAIL: syidl -o exits $rc on $f, which omniidl accepts:"; head -5 "$work/log"
    failures=$((failures + 1))
  fi
done < <(find . -name '*.idl' | sort)

# Each X.cpp alone, as a build would compile it; X.h and the headers of the files X.idl includes
# sit beside it (every IDL file's stem is distinct in the corpus).
cd "$work/out" || exit 1
export CXX_COMMAND="${cxx[*]}" INCLUDES="${includes[*]}"
compile_one() {
  # shellcheck disable=SC2086
  if ! timeout 300 $CXX_COMMAND -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I. $INCLUDES "$1" >"$1.log" 2>&1; then
    echo "FAIL: the code generated for ${1%.cpp}.idl does not compile:"
    head -20 "$1.log"
    return 1
  fi
}
export -f compile_one
jobs=$(nproc 2>/dev/null || echo 2)
compile_failures=$(ls ./*.cpp | xargs -P "$jobs" -I{} bash -c 'compile_one "$1" || echo COMPILE_FAILED' _ {} | tee "$work/compile.log" | grep -c '^COMPILE_FAILED')
grep -v '^COMPILE_FAILED' "$work/compile.log"
compiled=$(( $(ls ./*.cpp | wc -l) - compile_failures ))
failures=$((failures + compile_failures))

listed_count=$(grep -v '^#' "$accepted" | grep -c .)
echo "corpus: $listed_count files omniidl accepts: $generated generate code, $compiled of them compile;" \
     "$expected_refusals refused as listed in $(basename "$not_generated"); $rejected others rejected with an error;" \
     "$failures failures"
[ "$failures" -eq 0 ] && [ $((generated + expected_refusals)) -eq "$listed_count" ]
