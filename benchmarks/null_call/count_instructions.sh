#!/usr/bin/env bash
# Instructions per null two-way call, client and server apart, counted by callgrind (valgrind),
# both processes on CPU 0. Each side is counted over CALLS and over 2 x CALLS calls and the
# difference divided by CALLS, so start-up, warm-up and shutdown drop out.
# Usage: count_instructions.sh [BUILDDIR] [CALLS] [-ORB... options for the server]
# (defaults build-release/ and 10000). NULL_CALL_DII=reuse or per-call counts the same call made
# through the DII (<switchyard/request.h>) instead of the stub. NULL_CALL_INTERCEPTORS=N registers
# N no-op client and server request interceptors in both processes (null_call.cpp).
set -euo pipefail
builddir=${1:-build-release}
calls=${2:-10000}
shift 2 || shift $# || true
program=$builddir/benchmarks/null_call/null_call
[ -x "$program" ] || { echo "count_instructions.sh: $program is missing" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "count_instructions.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
wait_for_ior() { for _ in $(seq 300); do [ -s "$work/ior" ] && return; sleep 0.1; done; echo "no IOR" >&2; exit 1; }

count_client() {  # $1: calls
  rm -f "$work/ior"
  taskset -c 0 "$program" server "$work/ior" "${server_options[@]}" & local server=$!
  wait_for_ior
  taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/client.out" \
    "$program" client "$work/ior" "$1" "${client_options[@]}" >/dev/null 2>&1
  kill $server; wait $server 2>/dev/null || true
  total "$work/client.out"
}
count_server() {  # $1: calls; SIGTERM ends the server, and callgrind writes its counts then
  rm -f "$work/ior"
  taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/server.out" \
    "$program" server "$work/ior" "${server_options[@]}" >/dev/null 2>&1 & local server=$!
  wait_for_ior
  taskset -c 0 "$program" client "$work/ior" "$1" "${client_options[@]}" >/dev/null
  kill -TERM $server; wait $server 2>/dev/null || true
  total "$work/server.out"
}
server_options=("$@")
client_options=()
[ -n "${NULL_CALL_DII:-}" ] && client_options=(--dii "$NULL_CALL_DII")
echo "count_instructions.sh: $program, $calls and $((2 * calls)) calls, server options: ${*:-none}," \
  "client: ${NULL_CALL_DII:+DII, request }${NULL_CALL_DII:-stub}," \
  "interceptors: ${NULL_CALL_INTERCEPTORS:-0} a side" >&2
c1=$(count_client "$calls"); c2=$(count_client $((2 * calls)))
s1=$(count_server "$calls"); s2=$(count_server $((2 * calls)))
echo "client: $(( (c2 - c1) / calls )) instructions per call"
echo "server: $(( (s2 - s1) / calls )) instructions per call"
