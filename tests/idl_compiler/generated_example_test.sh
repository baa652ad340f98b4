#!/usr/bin/env bash
# The generated code committed beside an example (docs/examples/greeter/generated/) must be what
# syidl writes today: regenerates it and fails with the difference, so that a change to the back
# end shows in review as a change to the committed code.
# Usage: generated_example_test.sh SYIDL IDL_FILE COMMITTED_DIR
set -u
syidl=$(readlink -f "$1")
idl=$(readlink -f "$2")
committed=$(readlink -f "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$syidl" -o "$work" "$idl" || { echo "syidl failed on $idl"; exit 1; }
stem=$(basename "$idl" .idl)
status=0
for file in "$stem.h" "$stem.cpp"; do
  if ! diff -u "$committed/$file" "$work/$file"; then
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "The code syidl generates for $(basename "$idl") differs from $committed (diff above)."
  echo "If the change is intended, regenerate it: syidl -o $committed $idl"
else
  echo "$committed/$stem.h and $stem.cpp are what syidl generates"
fi
exit $status
