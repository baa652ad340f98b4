#!/usr/bin/env python3
"""The 'bench' suite's check that sy-bench demux measures syidl's code: small runs over every
strategy, then demux.csv's operation_lookup and servant_lookup must name what serves (gperf for
"perfect" where syidl generated the interface and the object-id table holds the ids, the run-time
perfect hash where not), and whitebox.csv must show all eight layers for every strategy, the
layers up to marshal with one count of calls (the burst of worst-case calls after the rounds;
demarshal and upcall are marked by the generated skeletons). Never timings. Standard library only.

Usage: check_demux_lookups.py SY_BENCH OUT_DIR
"""
import csv
import os
import shutil
import subprocess
import sys

STRATEGIES = ["linear", "binary", "dynamic", "perfect", "perfect-fast", "active"]
COMMON = {"linear": "linear", "binary": "binary", "dynamic": "hash", "perfect": "runtime-perfect",
          "perfect-fast": "perfect-fast", "active": "active"}
GENERATED_OPERATIONS = {1, 10, 100}  # ttcp_demux_<K> (benchmarks/sy_bench/meson.build)
LAYERS = ["read", "parse", "servant_demux", "operation_demux", "demarshal", "upcall", "marshal", "write"]


def fail(message):
    print(f"check_demux_lookups: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def expected_operation_lookup(strategy, operations):
    if strategy == "perfect" and operations in GENERATED_OPERATIONS:
        return "gperf"
    return COMMON[strategy]


def expected_servant_lookup(strategy, object_id_table):
    if strategy == "perfect" and object_id_table:
        return "gperf"
    return COMMON[strategy]


def read(path):
    if not os.path.exists(path):
        fail(f"{path} missing")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run(sy_bench, out_dir, args):
    shutil.rmtree(out_dir, ignore_errors=True)
    command = [sy_bench, "demux", "--out", out_dir, "--rounds", "6", "--blocks", "10", "--warmup", "2"] + args
    result = subprocess.run(command, timeout=120)
    if result.returncode != 0:
        fail(f"{' '.join(command)} exited with {result.returncode}")
    return read(os.path.join(out_dir, "demux.csv")), read(os.path.join(out_dir, "whitebox.csv"))


def check_lookups(rows, object_id_table):
    if not rows:
        fail("demux.csv has no rows")
    for r in rows:
        where = f"demux.csv: {r['servant_demux']}/{r['operation_demux']} {r['servants']}x{r['operations']}"
        want = expected_operation_lookup(r["operation_demux"], int(r["operations"]))
        if r.get("operation_lookup") != want:
            fail(f"{where}: operation_lookup {r.get('operation_lookup')!r}, expected {want!r}")
        want = expected_servant_lookup(r["servant_demux"], object_id_table)
        if r.get("servant_lookup") != want:
            fail(f"{where}: servant_lookup {r.get('servant_lookup')!r}, expected {want!r}")


def check_whitebox(rows, whitebox, servants, operations):
    pairs = {(r["servant_demux"], r["operation_demux"]) for r in rows}
    for servant_demux, operation_demux in sorted(pairs):
        cell = [r for r in rows if (r["servant_demux"], r["operation_demux"]) == (servant_demux, operation_demux)
                and r["servants"] == servants and r["operations"] == operations and r["invocation"] == "worst-case"]
        if len(cell) != 1:
            fail(f"demux.csv: {len(cell)} worst-case rows for {servant_demux} {servants}x{operations}")
        calls = {}
        for w in whitebox:
            if (w["servant_demux"], w["operation_demux"], w["servants"], w["operations"], w["invocation"]) == \
                    (servant_demux, operation_demux, servants, operations, "worst-case"):
                calls[w["layer"]] = calls.get(w["layer"], 0) + int(w["calls"])
        for layer in LAYERS:
            if calls.get(layer, 0) <= 0:
                fail(f"whitebox.csv: {servant_demux}/{operation_demux}: layer {layer} has no calls ({calls})")
        # Everything before the reply is written happens before the client sees the reply, so
        # those layers count exactly the burst's calls (the write may be recorded a little later).
        timed = calls["read"]
        for layer in LAYERS[:-1]:
            if calls[layer] != timed:
                fail(f"whitebox.csv: {servant_demux}/{operation_demux}: {layer} has {calls[layer]} calls "
                     f"for {timed} reads")
        print(f"check_demux_lookups: {servant_demux}/{operation_demux}: eight layers, {timed} calls each")


def main():
    sy_bench, out_dir = sys.argv[1], sys.argv[2]
    # Every strategy, generated interfaces (1, 10) and one syidl did not make (7).
    rows, whitebox = run(sy_bench, os.path.join(out_dir, "all"),
                         ["--strategy", ",".join(STRATEGIES), "--servants", "1,3", "--operations", "1,7,10",
                          "--invocation", "worst-case,random"])
    if {r["servant_demux"] for r in rows} != set(STRATEGIES):
        fail(f"demux.csv has strategies {sorted({r['servant_demux'] for r in rows})}")
    check_lookups(rows, object_id_table=True)
    check_whitebox(rows, whitebox, "3", "10")
    if not any(r["operation_lookup"] == "gperf" and r["servant_lookup"] == "gperf" for r in rows):
        fail("no row with gperf in both dimensions")
    # The run-time perfect hash for the servants when asked.
    rows, whitebox = run(sy_bench, os.path.join(out_dir, "runtime"),
                         ["--strategy", "perfect", "--no-object-id-table", "--servants", "2",
                          "--operations", "7,10", "--invocation", "worst-case"])
    check_lookups(rows, object_id_table=False)
    check_whitebox(rows, whitebox, "2", "10")
    print("check_demux_lookups: ok")


if __name__ == "__main__":
    main()
