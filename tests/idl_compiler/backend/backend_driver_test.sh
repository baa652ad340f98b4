#!/bin/sh
# syidl's C++ back end from the command line: files written for each -H, what -H leaves out,
# gperf missing, wrong IDL (file:line:col, exit 1, nothing written).
# usage: backend_driver_test.sh SYIDL PROJECT_IDL_DIR BACKEND_TEST_DIR
syidl=$1
idl=$2
here=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

for h in linear dynamic perfect perfect-fast active all; do
  rm -rf "$tmp/$h"
  if "$syidl" -H "$h" -o "$tmp/$h" "$idl/ttcp_sequence.idl" "$here/ops100.idl" 2>"$tmp/err" &&
     [ -s "$tmp/$h/ttcp_sequence.h" ] && [ -s "$tmp/$h/ttcp_sequence.cpp" ] && [ -s "$tmp/$h/ops100.cpp" ]; then ok
  else fail "-H $h: no files"; cat "$tmp/err"; fi
done
# The perfect hash only with perfect, perfect-fast or all; operation indices in stubs only with
# active or all.
for h in perfect perfect-fast all; do
  if grep -q "_perfect_lookup" "$tmp/$h/ops100.cpp"; then ok; else fail "-H $h: no perfect lookup"; fi
done
if grep -q "The perfect-fast hash over" "$tmp/perfect-fast/ops100.cpp" &&
   ! grep -q "asso_values" "$tmp/perfect-fast/ops100.cpp"; then ok; else fail "-H perfect-fast: not the perfect-fast hash"; fi
for h in linear dynamic active; do
  if grep -q "_perfect_lookup" "$tmp/$h/ops100.cpp"; then fail "-H $h: gperf lookup emitted"; else ok; fi
done
if grep -q '"op_7", 7u)' "$tmp/active/ops100.cpp"; then ok; else fail "-H active: no index in stubs"; fi
# gperf 3.1 cuts str[i]+inc to 8 bits (gperf_driver.cpp): -H perfect alone widens it too.
rm -rf "$tmp/alpha"
if "$syidl" -H perfect -o "$tmp/alpha" "$here/alpha_increment_ops.idl" 2>"$tmp/err" &&
   grep -q 'static_cast<unsigned char>(str\[[0-9]*\])+1[0-9][0-9])' "$tmp/alpha/alpha_increment_ops.cpp" &&
   ! grep -q 'static_cast<unsigned char>(str\[[0-9]*\]+' "$tmp/alpha/alpha_increment_ops.cpp"; then ok
else fail "-H perfect: gperf's truncated alpha increment left"; cat "$tmp/err"; fi
if grep -q 'no_operation_index' "$tmp/linear/ops100.cpp"; then ok; else fail "-H linear: stubs send an index"; fi

# Without gperf: a clear error for the default (all), fine for -H linear.
if SYIDL_GPERF=/nonexistent/gperf "$syidl" -o "$tmp/nogperf" "$idl/ttcp_sequence.idl" 2>"$tmp/err"; then
  fail "missing gperf accepted"
else
  if grep -q "gperf not found" "$tmp/err"; then ok; else fail "missing gperf message"; cat "$tmp/err"; fi
fi
if SYIDL_GPERF=/nonexistent/gperf "$syidl" -H linear -o "$tmp/nogperf" "$idl/ttcp_sequence.idl"; then ok
else fail "-H linear needs gperf"; fi
if SYIDL_GPERF=/nonexistent/gperf "$syidl" -H perfect-fast -o "$tmp/nogperf" "$idl/ttcp_sequence.idl"; then ok
else fail "-H perfect-fast needs gperf"; fi

# Wrong IDL: file:line:col, exit 1.
printf 'interface broken {\n  void op(in unknown_type x);\n};\n' >"$tmp/broken.idl"
"$syidl" -o "$tmp/broken" "$tmp/broken.idl" 2>"$tmp/err"
status=$?
if [ "$status" -eq 1 ] && grep -q "broken.idl:2:[0-9]*: error" "$tmp/err"; then ok
else fail "wrong IDL: status $status"; cat "$tmp/err"; fi
if [ -e "$tmp/broken/broken.h" ]; then fail "wrong IDL: header written"; else ok; fi

# fixed is generated: the member is a switchyard::fixed, written as fixed<10,2>.
printf 'struct money { fixed<10,2> amount; };\n' >"$tmp/money.idl"
if "$syidl" -o "$tmp/money" "$tmp/money.idl" 2>"$tmp/err" &&
   grep -q '::switchyard::fixed amount' "$tmp/money/money.h" &&
   grep -q 'write_fixed(_v.amount, 10, 2)' "$tmp/money/money.cpp"; then ok
else fail "fixed member"; cat "$tmp/err"; fi

# CosNaming from the omniORB corpus, with its includes.
cos=/usr/share/idl/omniORB
if [ -f "$cos/COS/CosNaming.idl" ]; then
  if "$syidl" -I "$cos" -I "$cos/COS" -o "$tmp/cos" "$cos/COS/CosNaming.idl" &&
     grep -q '"IDL:omg.org/CosNaming/NamingContext:1.0"' "$tmp/cos/CosNaming.h"; then ok
  else fail "CosNaming"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
