#!/usr/bin/env python3
"""The 'bench' suite's check of the report's statistics, on made-up runs whose answer is known:
a machine whose speed changes from round to round (every cell of a round slowed alike, as the
interleaved rounds make it), strategies whose true latencies are given. The summary must call a
10 % gap beyond noise and no gap within it. Then the paired design's demux_added.csv, written
with given added latencies and intervals: the summary's ranking must read exactly as the
intervals say, the paired plots must be written (when matplotlib is there), and noise_check.py
must pass the run where linear is beyond noise, agrees with its probe and A/A is tight, and fail
the runs where linear's interval overlaps another's, A/A is too wide, linear is 1.5x its probe,
or demux_added.csv is missing. Last, a made-up load_blocking.csv: the blocking mix's table must
give each series' p99 ratio and mark the 2x target met or not as the figures say. Never runs
sy-bench. Standard library only.

Usage: check_report.py OUT_DIR
"""
import csv
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sy_bench_report import median_ci, plt  # noqa: E402

COLUMNS = ["servant_demux", "operation_demux", "servants", "operations", "invocation", "samples", "mean_us",
           "median_us", "p99_us", "stddev_us", "min_us", "demux_ns", "rounds", "ci_low_us", "ci_high_us"]


def fail(message):
    print(f"check_report: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def make_run(folder, growth, seed):
    """growth: strategy -> latency factor at 500 x 100 over 1 x 1."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    rng = random.Random(seed)
    rounds = 20
    # The machine: most rounds at full speed, some 30-60 % slower (another process's busy minute).
    machine = [1.0 + (rng.uniform(0.3, 0.6) if rng.random() < 0.3 else 0.0) for _ in range(rounds)]
    rows, round_rows = [], []
    for strategy in ("linear", "perfect", "active"):
        for n, k in ((1, 1), (1, 100), (500, 1), (500, 100)):
            for invocation in ("random", "worst-case"):
                true = 5.0 * (growth[strategy] if (n, k) == (500, 100) else 1.0)
                medians = [true * machine[r] * rng.gauss(1.0, 0.004) for r in range(rounds)]
                m, low, high = median_ci(medians)
                rows.append([strategy, strategy, n, k, invocation, 10000, f"{m:.3f}", f"{m:.3f}", f"{2 * m:.3f}",
                             "0.5", f"{0.9 * m:.3f}", "100.0", rounds, f"{low:.3f}", f"{high:.3f}"])
                for r, value in enumerate(medians, 1):
                    round_rows.append([strategy, strategy, n, k, invocation, r, 0, f"{value:.4f}", "100.0"])
    with open(os.path.join(folder, "demux.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        out.writerows(rows)
    with open(os.path.join(folder, "demux_rounds.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["servant_demux", "operation_demux", "servants", "operations", "invocation", "round",
                      "position", "median_us", "demux_ns"])
        out.writerows(round_rows)


ADDED_COLUMNS = ["kind", "servant_demux", "operation_demux", "servants", "operations", "invocation", "transport",
                 "added_us", "ci_low_us", "ci_high_us", "rounds", "probe_added_us", "mode", "per_visit", "blocks",
                 "median_us", "reference_us", "sentinel_us", "ratio_to_socket"]
# Added latency (us) and its interval's half-width at the largest point (500 x 100), worst case: the
# intervals make the ranking "linear > dynamic ~ binary > perfect ~ perfect-fast ~ active".
ADDED_TRUE = {"linear": (0.45, 0.04), "binary": (0.11, 0.015), "dynamic": (0.12, 0.015), "perfect": (0.02, 0.015),
              "perfect-fast": (0.01, 0.015), "active": (0.0, 0.015)}
ADDED_RANKING = "linear > dynamic ~ binary > perfect ~ perfect-fast ~ active"


def make_added_run(folder, linear=(0.45, 0.04), linear_probe=0.43, aa_half_width=0.02, fresh=True):
    """A paired run's demux_added.csv: iiop with modes all, fast and slow (slow with 5 rounds, so
    no interval), and collocated, where linear is NOT beyond noise (the noise check must not look
    there). Added latency shrinks towards the small points; probes agree with the added latency
    except linear's, which is `linear_probe` at the largest point. fresh=False adds the file to a
    folder that holds a run already."""
    if fresh:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    truth = dict(ADDED_TRUE, linear=linear)
    rows = []
    for transport in ("iiop", "collocated"):
        for mode, rounds, blocks in ((("all", 20, 400), ("fast", 20, 280), ("slow", 5, 120))
                                     if transport == "iiop" else (("all", 20, 400),)):
            for n in (1, 100, 500):
                for k in (1, 100):
                    scale = (0.2 + 0.8 * n * k / (500 * 100))
                    for invocation in ("random", "worst-case"):
                        reference = 4.4 if transport == "iiop" else 0.4
                        sentinel = 4.0 if transport == "iiop" else None
                        for kind in list(truth) + ["aa"]:
                            if kind == "aa":
                                added_us, half, probe = 0.0, aa_half_width, None
                            else:
                                added_us, half = truth[kind]
                                if transport == "collocated" and kind == "linear":
                                    half = 0.4  # overlaps dynamic: not beyond noise
                                added_us *= scale * (0.7 if invocation == "random" else 1.0)
                                probe = (linear_probe if kind == "linear" else truth[kind][0])
                                probe *= scale * (0.7 if invocation == "random" else 1.0)
                            if mode == "slow":
                                added_us *= 1.1
                            low, high = ((f"{added_us - half:.4f}", f"{added_us + half:.4f}") if rounds >= 6
                                         else ("", ""))
                            median = reference + added_us
                            servant, operation = ("active", "active") if kind == "aa" else (kind, kind)
                            rows.append([kind, servant, operation, n, k, invocation, transport, f"{added_us:.4f}", low,
                                         high, rounds, "" if probe is None else f"{probe:.4f}", mode, k, blocks,
                                         f"{median:.3f}", f"{reference:.3f}",
                                         "" if sentinel is None else f"{sentinel:.3f}",
                                         "" if sentinel is None else f"{median / sentinel:.3f}"])
    with open(os.path.join(folder, "demux_added.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(ADDED_COLUMNS)
        out.writerows(rows)


def expect_fail(check, folder, reason):
    """noise_check.py must fail the folder, for `reason` and no other."""
    run = subprocess.run(check + [folder], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    fails = [l for l in run.stdout.splitlines() if ": FAIL: " in l]
    if run.returncode == 0 or len(fails) != 1 or reason not in fails[0]:
        fail(f"noise_check.py on {folder}: expected one '{reason}', got exit {run.returncode} and {fails}")


def check_added(out, report, check):
    alone = os.path.join(out, "added-alone")
    make_added_run(alone)
    if subprocess.run(report + [alone]).returncode != 0:
        fail("sy_bench_report.py failed on a run of demux_added.csv alone")
    # The paired file beside the absolute ones, as sy-bench demux writes them.
    good = os.path.join(out, "added-good")
    make_run(good, {"linear": 1.10, "perfect": 1.0, "active": 1.0}, 3)
    make_added_run(good, fresh=False)
    if subprocess.run(report + [good]).returncode != 0:
        fail("sy_bench_report.py failed")
    with open(os.path.join(good, "summary.md")) as f:
        summary = f.read()
    line = f"- worst-case: {ADDED_RANKING} (A/A [-0.020, 0.020] us)"
    if line not in summary:
        fail(f"summary.md lacks the ranking '{line}'")
    if "the resolution of this run: [-0.020, 0.020] us" not in summary:
        fail("summary.md does not state the A/A interval as the run's resolution")
    if "| worst-case | linear | 0.450 [0.410, 0.490] | 0.430 | 1.05 |" not in summary:
        fail("summary.md lacks linear's added latency beside its probe at the largest point")
    if "| invocation | strategy | all | fast | slow |" not in summary:
        fail("summary.md lacks the per-mode table")
    if not 0 <= summary.find("### Paired") < summary.find("### Absolute latencies") < summary.find("### worst-case"):
        fail("the paired section does not come first, before the absolute latencies")
    if plt is not None:
        for name in ("demux_added_worst-case.png", "demux_added_random.png", "demux_added_collocated_worst-case.png",
                     "demux_added_collocated_random.png", "demux_worst-case.png"):
            if not os.path.exists(os.path.join(good, name)):
                fail(f"{name} was not written")
    if subprocess.run(check + [good]).returncode != 0:
        fail("noise_check.py failed a paired run that meets every condition")
    # Each bad run breaks one condition, and the check must fail on that one alone.
    cases = {"added-overlap": (dict(linear=(0.16, 0.05), linear_probe=0.16), "FAIL: (a)"),  # linear 0.11-0.21,
             "added-aa-wide": (dict(aa_half_width=0.5), "FAIL: (c)"),                    # dynamic up to 0.135
             "added-probe-off": (dict(linear_probe=0.30), "FAIL: (b)")}                  # linear 1.5x its probe
    for name, (changes, reason) in cases.items():
        make_added_run(os.path.join(out, name), **changes)
        expect_fail(check, os.path.join(out, name), reason)


def check_added_rounds(out, report):
    """Two strategies whose intervals overlap (every round's plan and machine moved both alike) but
    which differ by 0.05 us in every round: `~` from the intervals alone, `>` round by round."""
    folder = os.path.join(out, "added-rounds")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    header = ["kind", "servant_demux", "operation_demux", "servants", "operations", "invocation", "transport",
              "added_us", "ci_low_us", "ci_high_us", "rounds", "probe_added_us", "mode", "per_visit", "blocks",
              "median_us", "reference_us", "sentinel_us", "ratio_to_socket"]
    rounds = {"dynamic": [0.30 + 0.02 * r for r in range(20)], "perfect": [0.25 + 0.02 * r for r in range(20)],
              "aa": [0.001 * (r % 3 - 1) for r in range(20)]}
    with open(os.path.join(folder, "demux_added.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for kind, values in rounds.items():
            values = sorted(values)
            strategy = "active" if kind == "aa" else kind
            w.writerow([kind, strategy, strategy, 500, 100, "worst-case", "iiop", values[10], values[5], values[14],
                        20, "" if kind == "aa" else values[10], "all", 1, 6000, 15, 14.5, 14, 1.07])
    with open(os.path.join(folder, "demux_added_rounds.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "servant_demux", "operation_demux", "servants", "operations", "invocation", "transport",
                    "mode", "round", "added_us"])
        for kind, values in rounds.items():
            strategy = "active" if kind == "aa" else kind
            for r, v in enumerate(values, 1):
                w.writerow([kind, strategy, strategy, 500, 100, "worst-case", "iiop", "all", r, f"{v:.4f}"])

    def ranking():
        if subprocess.run(report + [folder]).returncode != 0:
            fail("sy_bench_report.py failed on the round-by-round run")
        with open(os.path.join(folder, "summary.md")) as f:
            return [l for l in f.read().splitlines() if l.startswith("- worst-case: ")]

    if not any(l.startswith("- worst-case: dynamic > perfect") for l in ranking()):
        fail(f"dynamic 0.05 us above perfect in every round should be beyond noise: {ranking()}")
    os.remove(os.path.join(folder, "demux_added_rounds.csv"))
    if not any(l.startswith("- worst-case: dynamic ~ perfect") for l in ranking()):
        fail(f"without the rounds, overlapping intervals should be within noise: {ranking()}")


BLOCKING_COLUMNS = ["series", "concurrency", "connections", "mix", "blocking_fraction", "blocking_ms",
                    "fast_requests_per_s", "fast_p50_us", "fast_p99_us", "slow_requests", "slow_p50_ms",
                    "slow_p99_ms", "server_cpu_pct", "server_rss_kb", "call", "fast_requests", "errors",
                    "client_processes", "client_threads", "window_s", "fast_max_ms"]


def check_blocking(out, report):
    """load_blocking.csv: adaptive's p99 goes from 500 to 5000 us with the mix (10x, NOT met), thread
    per connection's from 500 to 600 us (1.2x, met); a failed mix point has no ratio."""
    folder = os.path.join(out, "blocking")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    rows = []
    for series, concurrency, mixed_p99 in (("switchyard-adaptive", "adaptive", "5000.0"),
                                          ("switchyard-thread-per-connection", "thread-per-connection", "600.0"),
                                          ("omniorb-thread-pool", "thread-pool", "")):
        for mix, fraction, ms, p99, slow in (("fast-only", "0", "0", "500.0", "0"),
                                             ("blocking 1% x 10 ms", "0.01", "10", mixed_p99, "100")):
            ok = p99 != ""
            rows.append([series, concurrency, "256", mix, fraction, ms, "100000" if ok else "0", "100.0" if ok else "",
                         p99, slow, "10.1" if slow != "0" else "", "10.4" if slow != "0" else "", "150.0", "9000",
                         "null", "100000" if ok else "0", "0" if ok else "256", "2", "2", "1.000",
                         "3.0" if ok else ""])
    with open(os.path.join(folder, "load_blocking.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(BLOCKING_COLUMNS)
        w.writerows(rows)
    if subprocess.run(report + [folder]).returncode != 0:
        fail("sy_bench_report.py failed on load_blocking.csv")
    with open(os.path.join(folder, "summary.md")) as f:
        summary = f.read()
    for line in ("- null, 256 connections, switchyard-adaptive (default): 10.00x (NOT met)",
                 "- null, 256 connections, switchyard-thread-per-connection: 1.20x (met)"):
        if line not in summary:
            fail(f"the blocking mix's summary lacks '{line}'")
    if "omniorb-thread-pool: " in summary.split("### Target (issue 28")[1]:
        fail("a failed mix point was given a ratio")
    if "| 256 | 100.0 | 500.0 | 100,000 | 100.0 | 5000.0 | 100,000 | 10.00x | 100 (10.1 / 10.4 ms) |" not in summary:
        fail("the blocking mix's table row for adaptive is not as written")
    if plt is not None and not os.path.exists(os.path.join(folder, "load_blocking.png")):
        fail("load_blocking.png missing")


def main():
    out = sys.argv[1]
    good = os.path.join(out, "good")
    make_run(good, {"linear": 1.10, "perfect": 1.0, "active": 1.0}, 1)
    report = [sys.executable, os.path.join(HERE, "sy_bench_report.py")]
    if subprocess.run(report + [good]).returncode != 0:
        fail("sy_bench_report.py failed")
    with open(os.path.join(good, "summary.md")) as f:
        summary = f.read()
    # Round by round the machine's slow rounds cancel: 1.10 is far outside the noise, 1.00 inside.
    for line in ("- worst-case: linear > ", "- random: linear > "):
        if line not in summary:
            fail(f"summary.md lacks '{line}': a 10 % gap was not called beyond noise")
    pair_lines = [l for l in summary.splitlines() if l.startswith("| worst-case | perfect | active |")]
    if len(pair_lines) != 1 or "within noise" not in pair_lines[0]:
        fail(f"perfect against active (no true difference) should be within noise: {pair_lines}")
    growth = [l for l in summary.splitlines() if l.startswith("| linear | worst-case |")]
    if len(growth) != 1 or "beyond noise (higher)" not in growth[0]:
        fail(f"linear's growth should be beyond noise: {growth}")
    if "[" not in summary.split("### worst-case")[1].split("###")[0]:
        fail("the worst-case table shows no intervals")
    check = [sys.executable, os.path.join(HERE, "noise_check.py")]
    # Runs from before the paired design (demux.csv alone) are not checked by the new rule.
    expect_fail(check, good, "no demux_added.csv")
    check_added(out, report, check)
    check_added_rounds(out, report)
    check_blocking(out, report)
    print("check_report: ok")


if __name__ == "__main__":
    main()
