#!/bin/bash
# Measures omniORB's own figures on this machine with the peers of this folder, both processes
# pinned on one CPU (taskset -c 0): null two-way latency, 1024-BinStruct two-way latency and TTCP
# throughput of 64 KB octet buffers (64 MB sent, default socket queues and 64 KB ones).
#
#   benchmarks/peers/measure_omni_figures.sh BUILD_DIR [ROUNDS]      (ROUNDS: 5 unless given)
#
# Each round starts a fresh server; the figures printed at the end are medians over rounds (of
# per-round latency medians) and over every TTCP run. MB = 10^6 bytes.
set -euo pipefail
build=${1:?usage: measure_omni_figures.sh BUILD_DIR [ROUNDS]}
rounds=${2:-5}
peers=$build/benchmarks/peers
work=$(mktemp -d /tmp/omni_figures.XXXXXX)
server_pid=
trap '[ -n "$server_pid" ] && kill -TERM $server_pid 2>/dev/null; rm -rf "$work"' EXIT

median_of_file() {
  python3 -c 'import statistics,sys; print(int(statistics.median(int(l) for l in open(sys.argv[1]))))' "$1"
}

start_server() {  # extra server options in "$@"
  rm -f "$work/iors.txt"
  taskset -c 0 "$peers/omni_server" --ior-file "$work/iors.txt" "$@" &
  server_pid=$!
  for _ in $(seq 200); do [ -f "$work/iors.txt" ] && return 0; sleep 0.05; done
  echo "server did not start" >&2
  exit 1
}

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid"
  server_pid=
}

client=(taskset -c 0 "$peers/omni_bench_client" --ior-file "$work/iors.txt")
: > "$work/results.txt"
for round in $(seq "$rounds"); do
  start_server
  "${client[@]}" latency --mode twoway --type none --samples 20000 --warmup 2000 \
    --samples-out "$work/null.txt"
  "${client[@]}" latency --mode twoway --type binstruct --units 1024 --samples 5000 --warmup 500 \
    --samples-out "$work/binstruct.txt"
  echo "null_2way_ns $(median_of_file "$work/null.txt")" >> "$work/results.txt"
  echo "binstruct1024_2way_ns $(median_of_file "$work/binstruct.txt")" >> "$work/results.txt"
  for _ in 1 2 3; do
    echo "ttcp_default $("${client[@]}" ttcp --type octet --buffer-bytes 65536 \
      --total-bytes 67108864)" >> "$work/results.txt"
  done
  stop_server
  start_server --socket-queue 65536
  for _ in 1 2 3; do
    echo "ttcp_queue64K $("${client[@]}" ttcp --type octet --buffer-bytes 65536 \
      --total-bytes 67108864 --socket-queue 65536)" >> "$work/results.txt"
  done
  stop_server
done
cat "$work/results.txt"
python3 - "$work/results.txt" <<'PY'
import re, statistics, sys
values = {}
for line in open(sys.argv[1]):
    name, rest = line.split(" ", 1)
    m = re.match(r"seconds=([\d.e+-]+) bytes=(\d+)", rest)
    values.setdefault(name, []).append(int(m.group(2)) / float(m.group(1)) / 1e6 if m else int(rest))
for name, vs in values.items():
    unit = "MB/s" if name.startswith("ttcp") else "ns"
    print("%-22s median %8.0f %s  (min %.0f, max %.0f, n=%d)"
          % (name, statistics.median(vs), unit, min(vs), max(vs), len(vs)))
PY
