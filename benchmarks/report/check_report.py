#!/usr/bin/env python3
"""The 'bench' suite's check of the report's statistics, on made-up runs whose answer is known:
a machine whose speed changes from round to round (every cell of a round slowed alike, as the
interleaved rounds make it), strategies whose true latencies are given. The summary must call a
10 % gap beyond noise and no gap within it, noise_check.py must pass the good run and fail one
where active demultiplexing grows by 10 %. Never runs sy-bench. Standard library only.

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
from sy_bench_report import median_ci  # noqa: E402

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


def main():
    out = sys.argv[1]
    good = os.path.join(out, "good")
    bad = os.path.join(out, "active-grows")
    make_run(good, {"linear": 1.10, "perfect": 1.0, "active": 1.0}, 1)
    make_run(bad, {"linear": 1.10, "perfect": 1.0, "active": 1.10}, 2)
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
    if subprocess.run(check + [good]).returncode != 0:
        fail("noise_check.py failed a run that meets both conditions")
    if subprocess.run(check + [bad]).returncode == 0:
        fail("noise_check.py passed a run where active grows by 10 %")
    print("check_report: ok")


if __name__ == "__main__":
    main()
