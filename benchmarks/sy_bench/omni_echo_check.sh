#!/usr/bin/env bash
# omniORB's client drives `sy-bench server`'s Integrity::Echo: every operation, GIOP 1.0 to 1.2
# (omniORB sends wstrings in 1.2 only), with checked values. Exit 77 (skipped) without omniORB.
# Usage: omni_echo_check.sh SY_BENCH OMNI_PEER_CLIENT
set -u
sy_bench=$1
client=$2
[ -x "$client" ] || { echo "omniORB peer client not built: skipped"; exit 77; }
dir=$(mktemp -d)
"$sy_bench" server --ior-file "$dir/iors.txt" >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do [ -s "$dir/iors.txt" ] && break; sleep 0.1; done
[ -s "$dir/iors.txt" ] || { echo "sy-bench server wrote no IOR file"; cat "$dir/server.log"; exit 1; }
status=0
for version in 1.0 1.1 1.2; do
  timeout 60 "$client" --ior-file "$dir/iors.txt" --call echo-all --count 2 -ORBmaxGIOPVersion "$version" \
    || { echo "echo-all failed with GIOP $version"; status=1; }
done
exit $status
