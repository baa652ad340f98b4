#!/usr/bin/env python3
"""The noise check of docs/experiments.md: does each demux run (a results folder) still tell the
strategies apart? For every folder given:

  1. at the largest cell (500 servants x 100 operations by default), worst case, linear search has
     the highest latency of all strategies (and whether each gap is beyond noise, round by round);
  2. active and perfect demultiplexing: latency at the largest cell over the smallest (1 x 1),
     worst case, round by round, has its median within 0.95-1.05.

Prints one line per check and `noise-check: PASS` or `noise-check: FAIL`; exit status 0 or 1.
Usage: noise_check.py RESULTS_DIR [RESULTS_DIR...]. Standard library only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sy_bench_report import demux_rounds, num, paired_ratio, read  # noqa: E402

BAND = (0.95, 1.05)


def check(folder):
    rows = read(os.path.join(folder, "demux.csv"))
    rounds = demux_rounds(read(os.path.join(folder, "demux_rounds.csv")))
    if not rows or not rounds:
        print(f"{folder}: no demux.csv or demux_rounds.csv")
        return False
    worst = [r for r in rows if r["invocation"] == "worst-case" and r["servant_demux"] == r["operation_demux"]]
    if not worst:
        print(f"{folder}: no worst-case rows")
        return False
    big = (max(int(r["servants"]) for r in worst), max(int(r["operations"]) for r in worst))
    small = (min(int(r["servants"]) for r in worst), min(int(r["operations"]) for r in worst))
    at_big = {r["servant_demux"]: num(r["median_us"]) for r in worst
              if (int(r["servants"]), int(r["operations"])) == big}
    ok = True
    if "linear" not in at_big or len(at_big) < 2:
        print(f"{folder}: needs linear and another strategy at {big[0]} x {big[1]}")
        return False
    others = {s: m for s, m in at_big.items() if s != "linear"}
    top = max(others, key=others.get)
    ranked = at_big["linear"] > others[top]
    ok = ok and ranked
    gaps = []
    for s in sorted(others):
        m, low, high = paired_ratio(rounds.get(("linear", "linear", big[0], big[1], "worst-case"), {}),
                                    rounds.get((s, s, big[0], big[1], "worst-case"), {}))
        beyond = "beyond noise" if low is not None and low > 1 else "within noise"
        gaps.append(f"{s} x{m:.3f} [{low:.3f}, {high:.3f}] {beyond}" if low is not None else f"{s} x{m:.3f}")
    print(f"{folder}: {'ok' if ranked else 'FAIL'}: worst case {big[0]} x {big[1]}: linear {at_big['linear']:.2f} us "
          f"{'above' if ranked else 'NOT above'} the others (highest of them: {top} {others[top]:.2f} us); "
          f"linear over each: " + "; ".join(gaps))
    for s in ("active", "perfect"):
        a = rounds.get((s, s, big[0], big[1], "worst-case"))
        b = rounds.get((s, s, small[0], small[1], "worst-case"))
        if not a or not b:
            print(f"{folder}: FAIL: {s}: no worst-case rounds at {big[0]} x {big[1]} and {small[0]} x {small[1]}")
            ok = False
            continue
        m, low, high = paired_ratio(a, b)
        inside = BAND[0] <= m <= BAND[1]
        ok = ok and inside
        interval = f" [{low:.3f}, {high:.3f}]" if low is not None else ""
        print(f"{folder}: {'ok' if inside else 'FAIL'}: {s}: worst case {big[0]} x {big[1]} over {small[0]} x {small[1]} "
              f"= {m:.3f}{interval}, {'within' if inside else 'outside'} {BAND[0]}-{BAND[1]}")
    return ok


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    results = [check(folder) for folder in sys.argv[1:]]
    print("noise-check: " + ("PASS" if all(results) else "FAIL"))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
