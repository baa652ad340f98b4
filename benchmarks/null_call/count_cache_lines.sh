#!/usr/bin/env bash
# What one null two-way call touches, beside the raw socket doing the same bytes: instructions,
# cache lines and branches per call, client and server apart, counted by callgrind's cache and
# branch simulation (user space only; the kernel's share is the socket's and the same for both).
#
# Cache lines: each side is run with 1 KiB direct-mapped caches, which keep nothing from one call
# to the next, so the misses per call are the lines the call touches, as on a machine where every
# context switch leaves the ORB's code and data cold (docs/design.md, "The request path, cold").
# Each figure is counted over CALLS and 2 x CALLS calls and the difference divided by CALLS.
# Usage: count_cache_lines.sh [BUILDDIR] [CALLS] [-ORB... options for the server]
# (defaults build-release/ and 5000). Prints a Markdown table.
set -euo pipefail
builddir=${1:-build-release}
calls=${2:-5000}
shift 2 || shift $# || true
server_options=("$@")
null_call=$builddir/benchmarks/null_call/null_call
socket=$builddir/benchmarks/baselines/socket_baseline
for p in "$null_call" "$socket"; do
  [ -x "$p" ] || { echo "count_cache_lines.sh: $p is missing" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "count_cache_lines.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

tiny=(--I1=1024,1,64 --D1=1024,1,64 --LL=2048,1,64)
grind=(valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes "${tiny[@]}")
# Ir, instruction lines (I1mr), data lines (D1mr + D1mw), Bc, Bcm, Bi, Bim over the program.
totals() {
  callgrind_annotate --show=Ir,I1mr,D1mr,D1mw,Bc,Bcm,Bi,Bim "$1" 2>/dev/null |
    awk '/PROGRAM TOTALS/ {gsub(/\([^)]*\)/, ""); gsub(",", ""); print $1, $2, $3 + $4, $5, $6, $7, $8}'
}
wait_for() { for _ in $(seq 300); do [ -s "$1" ] && return; sleep 0.1; done; echo "count_cache_lines.sh: $1 never came" >&2; exit 1; }

# $1: side (client|server), $2: calls. Echoes the totals line of that side's run.
orb_run() {
  rm -f "$work/ior"
  if [ "$1" = client ]; then
    taskset -c 0 "$null_call" server "$work/ior" "${server_options[@]}" & local server=$!
    wait_for "$work/ior"
    taskset -c 0 "${grind[@]}" --callgrind-out-file="$work/out" "$null_call" client "$work/ior" "$2" >/dev/null 2>&1
    kill $server; wait $server 2>/dev/null || true
  else
    taskset -c 0 "${grind[@]}" --callgrind-out-file="$work/out" \
      "$null_call" server "$work/ior" "${server_options[@]}" >/dev/null 2>&1 & local server=$!
    wait_for "$work/ior"
    taskset -c 0 "$null_call" client "$work/ior" "$2" >/dev/null
    kill -TERM $server; wait $server 2>/dev/null || true
  fi
  totals "$work/out"
}
# The same bytes over plain sockets: the null call's request (76 octets) and reply (24).
socket_run() {
  rm -f "$work/port"
  if [ "$1" = client ]; then
    taskset -c 0 "$socket" server --port-file "$work/port" & local server=$!
    wait_for "$work/port"
    taskset -c 0 "${grind[@]}" --callgrind-out-file="$work/out" "$socket" latency --port "$(cat "$work/port")" \
      --request-bytes 76 --reply-bytes 24 --samples "$2" --warmup 0 --samples-out /dev/null >/dev/null 2>&1
    kill $server; wait $server 2>/dev/null || true
  else
    taskset -c 0 "${grind[@]}" --callgrind-out-file="$work/out" "$socket" server --port-file "$work/port" \
      >/dev/null 2>&1 & local server=$!
    wait_for "$work/port"
    taskset -c 0 "$socket" latency --port "$(cat "$work/port")" --request-bytes 76 --reply-bytes 24 \
      --samples "$2" --warmup 0 --samples-out /dev/null >/dev/null
    kill -TERM $server; wait $server 2>/dev/null || true
  fi
  totals "$work/out"
}
# Per call: the difference between 2 x CALLS and CALLS, divided by CALLS.
per_call() {  # $1: run function, $2: side
  local one two
  one=$($1 "$2" "$calls")
  two=$($1 "$2" $((2 * calls)))
  paste -d' ' <(tr ' ' '\n' <<<"$one") <(tr ' ' '\n' <<<"$two") |
    awk -v n="$calls" '{printf "%s ", ($2 - $1) / n}' | sed 's/ $//'
}

echo "count_cache_lines.sh: $null_call and $socket, $calls and $((2 * calls)) calls, server options: ${*:-none}" >&2
printf '| side | instructions | instruction lines | data lines | branches | mispredicted | indirect | mispredicted |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for side in client server; do
  for what in orb socket; do
    if [ $what = orb ]; then figures=$(per_call orb_run $side); else figures=$(per_call socket_run $side); fi
    read -r ir ilines dlines bc bcm bi bim <<<"$figures"
    printf '| %s %s | %.0f | %.0f | %.0f | %.0f | %.1f | %.0f | %.1f |\n' "$what" "$side" "$ir" "$ilines" "$dlines" \
      "$bc" "$bcm" "$bi" "$bim"
  done
done
