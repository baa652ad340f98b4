#!/usr/bin/env python3
"""The 'bench' suite's check: runs one sy-bench subcommand with --quick into a fresh folder, then
checks what it wrote: files present, rows present, columns parse, figures positive, ratios finite.
Never timings. Standard library only.

Usage: check_results.py SY_BENCH OUT_DIR SUBCOMMAND [extra args...]
"""
import csv
import math
import os
import shutil
import subprocess
import sys

REQUIRED = {
    "demux": {"demux.csv": ["servant_demux", "operation_demux", "servants", "operations", "invocation",
                            "samples", "mean_us", "median_us", "p99_us", "rounds", "ci_low_us", "ci_high_us",
                            "ci_coverage", "link", "operation_lookup", "servant_lookup"],
              "demux_rounds.csv": ["servant_demux", "operation_demux", "servants", "operations", "invocation",
                                   "round", "position", "median_us"],
              "demux_added.csv": ["kind", "servant_demux", "operation_demux", "servants", "operations", "invocation",
                                  "transport", "added_us", "ci_low_us", "ci_high_us", "rounds", "probe_added_us",
                                  "mode", "per_visit", "blocks", "median_us", "reference_us", "sentinel_us",
                                  "ratio_to_socket"]},
    "latency": {"latency.csv": ["series", "mode", "type", "units", "bytes", "servants", "invocation", "samples",
                                "mean_us", "median_us", "p99_us", "stddev_us", "first_us", "ratio_to_socket", "link",
                                "interface", "dii_request", "transport"],
                "latency_trends.csv": ["series", "mode", "type", "fixed_us", "per_byte_ns", "interface",
                                       "dii_request", "transport"]},
    "handshake": {"handshake.csv": ["series", "transport", "connections", "rounds", "mean_us", "median_us", "p99_us",
                                    "ci_low_us", "ci_high_us", "connections_per_s", "ratio_to_socket",
                                    "ratio_to_iiop", "request_bytes", "reply_bytes", "link"]},
    "soak": {"soak.csv": ["model", "phase", "requests_done", "elapsed_s", "rss_kb", "descriptors", "threads",
                          "failures", "servants", "clients"]},
    "load": {"load.csv": ["series", "concurrency", "connections", "requests_per_s", "p50_us", "p99_us",
                          "server_cpu_pct", "server_rss_kb", "call", "requests", "errors"]},
    # sy-bench load --mix blocking (or --blocking-fraction/--blocking-ms): load_blocking.csv instead.
    "load-blocking": {"load_blocking.csv": ["series", "concurrency", "connections", "mix", "blocking_fraction",
                                            "blocking_ms", "fast_requests_per_s", "fast_p50_us", "fast_p99_us",
                                            "slow_requests", "slow_p50_ms", "slow_p99_ms", "server_cpu_pct",
                                            "server_rss_kb", "call", "fast_requests", "errors"]},
    "ttcp": {"ttcp.csv": ["series", "type", "buffer_bytes", "socket_queue_bytes", "total_bytes", "runs", "seconds",
                          "mbps", "mbps_min", "mbps_max", "ratio_to_socket", "link", "transport"]},
}
POSITIVE = {"fast_requests_per_s", "fast_p50_us", "fast_p99_us", "fast_requests", "requests_per_s", "p50_us", "server_rss_kb", "requests", "connections", "runs", "mbps_min", "mbps_max", "samples", "mean_us", "median_us", "p99_us", "seconds", "mbps", "servants", "operations",
            "total_bytes", "buffer_bytes", "rounds", "round", "ci_low_us", "ci_high_us", "ci_coverage"}
NON_NEGATIVE = {"connections_per_s", "ratio_to_iiop", "slow_requests", "slow_p50_ms", "slow_p99_ms", "blocking_fraction", "blocking_ms", "server_cpu_pct", "errors", "ratio_to_socket", "stddev_us", "first_us", "demux_ns", "servant_demux_ns",
                "operation_demux_ns", "mbps_ci_low", "mbps_ci_high", "demux_ns_ci_low", "demux_ns_ci_high"}
FINITE = {"fixed_us", "per_byte_ns", "fixed_ratio_to_socket", "per_byte_ratio_to_socket"}  # fits may dip below 0
# Files whose columns mean something else than the same names elsewhere (demux_added.csv's rounds may be
# 0 and its intervals are differences, below 0 or empty): checked by their own function, not by the sets.
CHECKED_APART = {"demux_added.csv"}
ADDED_KINDS = {"linear", "binary", "dynamic", "perfect", "perfect-fast", "active", "aa"}
INVOCATIONS = {"request-train", "round-robin", "random", "worst-case"}


def fail(message):
    print(f"check_results: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check_transports(out_dir, command, args):
    """--transport: our ORB's rows over each transport asked for and no other, the baselines' over
    tcp; the summary names the ssliop series."""
    name = {"latency": "latency.csv", "ttcp": "ttcp.csv", "handshake": "handshake.csv"}[command]
    with open(os.path.join(out_dir, name), newline="") as f:
        rows = list(csv.DictReader(f))
    asked = option(args, "--transport", "iiop").split(",")
    ours = {r["transport"] for r in rows if r["series"] == "switchyard"}
    if ours != set(asked):
        fail(f"{name}: switchyard rows over {sorted(ours)}, asked {sorted(asked)}")
    for r in rows:
        if r["series"] in ("socket", "ace") and r["transport"] != "tcp":
            fail(f"{name}: the {r['series']} baseline over '{r['transport']}', not tcp")
        if r["series"] == "omniorb" and r["transport"] not in ("iiop", "ssliop"):
            fail(f"{name}: omniorb over '{r['transport']}'")
    if "ssliop" in asked and command != "handshake":
        with open(os.path.join(out_dir, "summary.md")) as f:
            if "switchyard ssliop" not in f.read():
                fail("summary.md has no column for switchyard ssliop")


def option(args, name, default):
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else default


def check_interfaces(out_dir, args):
    """latency with --interface: our ORB's rows are of the interfaces asked for and of nothing else,
    each in every mode asked for (AMI: two-way only, its calls have replies), with the
    parameterless call, both sequences and the Echo calls; DII rows name the request mode; the
    baselines' rows no interface."""
    wanted = option(args, "--interface", "sii,dii").split(",")
    request = option(args, "--dii-request", "reuse")
    modes = option(args, "--mode", "twoway").split(",")
    with open(os.path.join(out_dir, "latency.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    ours = [r for r in rows if r["series"] == "switchyard"]
    for r in ours:
        if r["interface"] not in wanted:
            fail(f"latency.csv: a switchyard row of interface '{r['interface']}', not asked for")
        expected = request if r["interface"] == "dii" else ""
        if r["dii_request"] != expected:
            fail(f"latency.csv: {r['interface']} {r['mode']} {r['type']}: dii_request '{r['dii_request']}', "
                 f"expected '{expected}'")
    for r in rows:
        if r["series"] in ("socket", "ace") and (r["interface"] != "" or r["dii_request"] != ""):
            fail(f"latency.csv: the {r['series']} baseline has interface '{r['interface']}'")
    for r in ours:
        if r["interface"] == "ami" and r["mode"] != "twoway":
            fail(f"latency.csv: an ami {r['mode']} row: asynchronous calls are two-way")
    for interface in wanted:
        for mode in modes:
            if interface == "ami" and mode != "twoway":
                continue
            types = {r["type"] for r in ours if r["interface"] == interface and r["mode"] == mode}
            for t in ("none", "octet", "binstruct"):
                if t not in types:
                    fail(f"latency.csv: no switchyard {interface} {mode} {t} row")
            for r in ours:
                if r["interface"] == interface and r["mode"] == mode and not float(r["median_us"]) > 0:
                    fail(f"latency.csv: {interface} {mode} {r['type']}: median {r['median_us']}")
        if not any(r["interface"] == interface and r["type"].startswith("echo_") for r in ours):
            fail(f"latency.csv: no switchyard {interface} echo_* rows")
    with open(os.path.join(out_dir, "summary.md")) as f:
        summary = f.read()
    if "dii" in wanted and f"switchyard dii-{request}" not in summary:
        fail("summary.md has no column for the DII series")
    if "dii" in wanted and "sii" in wanted and f"switchyard dii-{request} / switchyard" not in summary:
        fail("summary.md has no DII / SII ratio column")
    if "ami" in wanted and "sii" in wanted and "switchyard ami / switchyard" not in summary:
        fail("summary.md has no AMI / SII ratio column")
    print(f"check_results: interfaces {','.join(wanted)} ok")


def check_interceptors(out_dir, args):
    """latency with --interceptors: our ORB's rows for each count asked for and no other, in every
    case; the others' rows none; the summary has each count's column and its ratio column."""
    wanted = option(args, "--interceptors", "0").split(",")
    with open(os.path.join(out_dir, "latency.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    ours = [r for r in rows if r["series"] == "switchyard"]
    if {r["interceptors"] for r in ours} != set(wanted):
        fail(f"latency.csv: switchyard rows with {sorted({r['interceptors'] for r in ours})} interceptors, "
             f"asked {sorted(wanted)}")
    cases = {(r["mode"], r["type"], r["units"]) for r in ours}
    for n in wanted:
        if {(r["mode"], r["type"], r["units"]) for r in ours if r["interceptors"] == n} != cases:
            fail(f"latency.csv: the series with {n} interceptors lacks cases the others have")
    for r in rows:
        if r["series"] != "switchyard" and r["interceptors"] != "":
            fail(f"latency.csv: a {r['series']} row with interceptors '{r['interceptors']}'")
    with open(os.path.join(out_dir, "summary.md")) as f:
        summary = f.read()
    for n in wanted:
        if n != "0" and f"switchyard {n} interceptors / switchyard" not in summary:
            fail(f"summary.md has no column for {n} interceptors over none")
    print(f"check_results: interceptors {','.join(wanted)} ok")


def check_demux_added(out_dir):
    """demux_added.csv, the paired design: the columns in their order; per row a known kind, transport,
    mode and invocation, counts that are non-negative integers, the added latency inside its interval
    when there is one, a probe only for strategies, the sentinel only over iiop; an `aa` row for every
    (servants, operations, invocation, transport, mode) with strategy rows, and mode `all` wherever
    fast or slow was written."""
    name = "demux_added.csv"
    with open(os.path.join(out_dir, name), newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        rows = [dict(zip(header, line)) for line in reader]
    if header != REQUIRED["demux"][name]:
        fail(f"{name}: columns {header}, expected {REQUIRED['demux'][name]} in that order")

    def number(where, r, c, empty_ok=False):
        if r[c] == "" and empty_ok:
            return None
        try:
            x = float(r[c])
        except ValueError:
            fail(f"{where}: {c}='{r[c]}' is not a number")
        if not math.isfinite(x):
            fail(f"{where}: {c}={r[c]} is not finite")
        return x

    groups, aa, modes = set(), set(), set()
    for i, r in enumerate(rows, 2):
        where = (f"{name}:{i} ({r['kind']} {r['servants']}x{r['operations']} {r['invocation']} {r['transport']} "
                 f"{r['mode']})")
        if r["kind"] not in ADDED_KINDS:
            fail(f"{where}: kind '{r['kind']}'")
        if r["transport"] not in ("iiop", "collocated"):
            fail(f"{where}: transport '{r['transport']}'")
        if r["mode"] not in ("all", "fast", "slow"):
            fail(f"{where}: mode '{r['mode']}', not all, fast or slow")
        if r["invocation"] not in INVOCATIONS:
            fail(f"{where}: invocation '{r['invocation']}'")
        expected = ("active", "active") if r["kind"] == "aa" else (r["kind"], r["kind"])
        if (r["servant_demux"], r["operation_demux"]) != expected:
            fail(f"{where}: servant/operation demux {r['servant_demux']}/{r['operation_demux']}, expected "
                 f"{expected[0]}/{expected[1]}")
        for c in ("servants", "operations"):
            if not r[c].isdigit() or int(r[c]) <= 0:
                fail(f"{where}: {c}='{r[c]}' is not a positive integer")
        for c in ("rounds", "blocks", "per_visit"):
            if not r[c].isdigit():
                fail(f"{where}: {c}='{r[c]}' is not a non-negative integer")
        added = number(where, r, "added_us")
        low, high = number(where, r, "ci_low_us", True), number(where, r, "ci_high_us", True)
        if (low is None) != (high is None):
            fail(f"{where}: one end of the interval only")
        if low is not None and not low <= added <= high:
            fail(f"{where}: added {added} outside [{low}, {high}]")
        probe = number(where, r, "probe_added_us", True)
        if r["kind"] == "aa" and probe is not None:
            fail(f"{where}: a probe on the A/A row")
        for c in ("median_us", "reference_us"):
            if not number(where, r, c) > 0:
                fail(f"{where}: {c}={r[c]} is not positive")
        sentinel = number(where, r, "sentinel_us", True)
        ratio = number(where, r, "ratio_to_socket", True)
        if r["transport"] == "collocated" and (sentinel is not None or ratio is not None):
            fail(f"{where}: a sentinel on a collocated row")
        if r["transport"] == "iiop" and (sentinel is None or not sentinel > 0 or ratio is None or not ratio > 0):
            fail(f"{where}: no positive sentinel_us / ratio_to_socket over iiop")
        group = (r["servants"], r["operations"], r["invocation"], r["transport"], r["mode"])
        (aa if r["kind"] == "aa" else groups).add(group)
        modes.add(group)
    for g in sorted(groups - aa):
        fail(f"{name}: no aa row for {g[0]}x{g[1]} {g[2]} {g[3]} mode {g[4]}")
    for g in sorted(modes):
        if g[4] != "all" and g[:4] + ("all",) not in modes:
            fail(f"{name}: mode {g[4]} rows but none of mode all for {g[0]}x{g[1]} {g[2]} {g[3]}")
    summary = os.path.join(out_dir, "summary.md")
    if os.path.exists(summary):
        with open(summary) as f:
            if "the resolution of this run" not in f.read():
                fail("summary.md has no paired section (the A/A resolution) though demux_added.csv exists")
    print(f"check_results: {name}: aa rows and intervals ok")


def check_load_blocking(out_dir):
    """load --mix blocking: every ORB series at every point both fast-only and with the mix, no
    socket series (it has no nap), naps only in the mix rows, no errors; the summary's table."""
    if os.path.exists(os.path.join(out_dir, "load.csv")):
        fail("load --mix blocking wrote load.csv (its rows go to load_blocking.csv)")
    with open(os.path.join(out_dir, "load_blocking.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    series = {r["series"] for r in rows}
    for s in ["switchyard-adaptive", "switchyard-reactive", "switchyard-thread-per-connection",
              "switchyard-thread-pool", "omniorb-thread-per-connection", "omniorb-thread-pool"]:
        if s not in series:
            fail(f"load_blocking.csv lacks the {s} series")
    if "socket" in series:
        fail("load_blocking.csv has socket rows: its server has no nap")
    mixes = {r["mix"] for r in rows}
    if "fast-only" not in mixes or len(mixes) != 2:
        fail(f"load_blocking.csv: mixes {sorted(mixes)}, expected fast-only and one blocking mix")
    points = {(r["call"], r["connections"], r["mix"]) for r in rows}
    for s in series:
        have = {(r["call"], r["connections"], r["mix"]) for r in rows if r["series"] == s}
        if have != points:
            fail(f"load_blocking.csv: {s} lacks points {sorted(points - have)}")
    for r in rows:
        where = f"load_blocking.csv: {r['series']} {r['call']} x{r['connections']} {r['mix']}"
        if r["errors"] != "0":
            fail(f"{where}: {r['errors']} errors")
        if float(r["fast_p99_us"]) < float(r["fast_p50_us"]):
            fail(f"{where}: p99 below p50")
        slow = int(r["slow_requests"])
        if r["mix"] == "fast-only" and (slow != 0 or r["blocking_fraction"] != "0"):
            fail(f"{where}: slow calls in the fast-only run")
        if r["mix"] != "fast-only" and (slow == 0 or float(r["blocking_fraction"]) <= 0):
            fail(f"{where}: no slow calls in the mix")
    if not os.path.exists(os.path.join(out_dir, "summary.md")):
        fail("summary.md missing")
    with open(os.path.join(out_dir, "summary.md")) as f:
        summary = f.read()
    if "p99 mix / fast-only" not in summary or "switchyard-adaptive (default)" not in summary:
        fail("summary.md lacks the blocking mix's table")
    if "matplotlib was missing" not in summary and not os.path.exists(os.path.join(out_dir, "load_blocking.png")):
        fail("load_blocking.png missing")


def main():
    sy_bench, out_dir, command = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(out_dir, ignore_errors=True)
    run = subprocess.run([sy_bench, command, "--quick", "--out", out_dir] + sys.argv[4:], timeout=170)
    if run.returncode != 0:
        fail(f"sy-bench {command} exited with {run.returncode}")
    blocking = command == "load" and any(a in sys.argv[4:] for a in ("--mix", "--blocking-fraction", "--blocking-ms"))
    for name, columns in REQUIRED["load-blocking" if blocking else command].items():
        path = os.path.join(out_dir, name)
        if not os.path.exists(path):
            fail(f"{name} missing")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            fail(f"{name} has no rows")
        for c in columns:
            if c not in rows[0]:
                fail(f"{name} lacks column {c}")
        for i, r in enumerate(rows if name not in CHECKED_APART else [], 2):
            for c, v in r.items():
                if c in POSITIVE:
                    try:
                        x = float(v)
                    except ValueError:
                        fail(f"{name}:{i}: {c}='{v}' is not a number")
                    if not x > 0 or not math.isfinite(x):
                        fail(f"{name}:{i}: {c}={v} is not positive")
                elif (c in NON_NEGATIVE or c in FINITE) and v != "":
                    try:
                        x = float(v)
                    except ValueError:
                        fail(f"{name}:{i}: {c}='{v}' is not a number")
                    if not math.isfinite(x) or (c in NON_NEGATIVE and x < 0):
                        fail(f"{name}:{i}: {c}={v} is not finite" + (" and non-negative" if c in NON_NEGATIVE else ""))
        print(f"check_results: {name}: {len(rows)} rows ok")
    if command == "latency":
        with open(os.path.join(out_dir, "latency.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        series = {r["series"] for r in rows}
        for s in ("switchyard", "socket", "ace"):
            if s not in series:
                fail(f"latency.csv lacks the {s} series")
        # The evaluation report's types go through Integrity::Echo (sy-bench's server since 2026-11).
        if not any(r["type"].startswith("echo_") and r["series"] == "switchyard" for r in rows):
            fail("latency.csv has no echo_* rows for switchyard")
        for r in rows:
            if r["series"] != "socket" and r["ratio_to_socket"] == "":
                fail(f"latency.csv: no ratio for {r['series']} {r['mode']} {r['type']} {r['units']}")
        if os.path.exists(os.path.join(out_dir, "summary.md")):
            check_interfaces(out_dir, sys.argv[4:])
        if "--interceptors" in sys.argv[4:]:
            check_interceptors(out_dir, sys.argv[4:])
    if command == "demux":
        with open(os.path.join(out_dir, "demux.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out_dir, "demux_rounds.csv"), newline="") as f:
            rounds = list(csv.DictReader(f))
        for r in rows:
            # The interval holds the median of the round medians, and every round is in demux_rounds.csv.
            if not float(r["ci_low_us"]) <= float(r["median_us"]) <= float(r["ci_high_us"]):
                fail(f"demux.csv: {r['servant_demux']} {r['servants']}x{r['operations']} {r['invocation']}: "
                     f"median {r['median_us']} outside [{r['ci_low_us']}, {r['ci_high_us']}]")
            mine = [x for x in rounds if all(x[c] == r[c] for c in ("servant_demux", "operation_demux", "servants",
                                                                     "operations", "invocation"))]
            if len(mine) != int(r["rounds"]) or sorted(int(x["round"]) for x in mine) != list(range(1, len(mine) + 1)):
                fail(f"demux_rounds.csv: {len(mine)} rounds for a cell of {r['rounds']}")
            if r["link"] != "loopback":
                fail(f"demux.csv: link {r['link']} on a loopback run")
            # --quick's interfaces (1 and 100 operations) are syidl's, the ids in the gperf table.
            if r["servant_demux"] == "perfect" and (r["operation_lookup"], r["servant_lookup"]) != ("gperf", "gperf"):
                fail(f"demux.csv: perfect served by {r['operation_lookup']}/{r['servant_lookup']}, not gperf/gperf")
        check_demux_added(out_dir)
    if command == "ttcp":
        with open(os.path.join(out_dir, "ttcp.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        for s in ("switchyard", "socket", "ace"):
            if s not in {r["series"] for r in rows}:
                fail(f"ttcp.csv lacks the {s} series")
    if command in ("latency", "ttcp", "handshake"):
        check_transports(out_dir, command, sys.argv[4:])
    if command == "soak":
        with open(os.path.join(out_dir, "soak.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        for model in ("adaptive", "reactive", "thread-per-connection", "thread-pool"):
            phases = [r["phase"] for r in rows if r["model"] == model]
            if phases != ["start", "middle", "end"]:
                fail(f"soak.csv: {model} has phases {phases}")
        for r in rows:
            if r["failures"] != "0":
                fail(f"soak.csv: {r['model']} {r['phase']}: {r['failures']} failed requests")
            if int(r["rss_kb"]) <= 0 or int(r["descriptors"]) <= 0 or int(r["threads"]) <= 0:
                fail(f"soak.csv: {r['model']} {r['phase']}: resources not sampled")
    if blocking:
        check_load_blocking(out_dir)
    elif command == "load":
        with open(os.path.join(out_dir, "load.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        series = {r["series"] for r in rows}
        expected = ["switchyard-adaptive", "switchyard-reactive", "switchyard-thread-per-connection",
                    "switchyard-thread-pool", "omniorb-thread-per-connection", "omniorb-thread-pool", "socket"]
        for s in expected:
            if s not in series:
                fail(f"load.csv lacks the {s} series")
        points = {(r["call"], r["connections"]) for r in rows}
        for s in series:
            have = {(r["call"], r["connections"]) for r in rows if r["series"] == s}
            if have != points:
                fail(f"load.csv: {s} lacks points {sorted(points - have)}")
        for r in rows:
            where = f"load.csv: {r['series']} {r['call']} x{r['connections']}"
            if r["errors"] != "0":
                fail(f"{where}: {r['errors']} errors")
            if float(r["p99_us"]) < float(r["p50_us"]):
                fail(f"{where}: p99 below p50")
        if not os.path.exists(os.path.join(out_dir, "summary.md")):
            fail("summary.md missing")
        with open(os.path.join(out_dir, "summary.md")) as f:
            summary = f.read()
        if "matplotlib was missing" not in summary and not os.path.exists(os.path.join(out_dir, "load.png")):
            fail("load.png missing")
        if "switchyard-adaptive (default)" not in summary:
            fail("summary.md does not name the default model's series")
    if not os.path.exists(os.path.join(out_dir, "summary.md")):
        fail("summary.md missing")
    print("check_results: ok")


if __name__ == "__main__":
    main()
