#!/usr/bin/env python3
"""The noise check of docs/experiments.md: does each demux run (a results folder) still tell the
strategies apart on a noisy machine? It reads the paired design's demux_added.csv (mode all,
transport iiop) at the largest grid point (max servants x max operations), worst case:

  (a) linear search adds more latency than every other strategy beyond noise: linear's ci_low is
      above each other strategy's ci_high;
  (b) linear agrees with its probe: added_us within 30 % of probe_added_us (the ratio is printed);
  (c) the A/A interval (the reference's twin minus the reference: the run's resolution) lies
      within +-0.3 us;
  (d) reported, not a condition: whether active, perfect and perfect-fast have intervals within
      +-0.3 us of zero (ok / outside).

A folder without demux_added.csv fails: runs from before the paired design (demux.csv and
demux_rounds.csv only) are not checked by this rule.

Prints one line per check and folder and `noise-check: PASS` or `noise-check: FAIL`; exit status
0 or 1. Usage: noise_check.py RESULTS_DIR [RESULTS_DIR...]. Standard library only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sy_bench_report import (added_beyond, read_added, added_interval, added_largest, fmt, num, read,  # noqa: E402
                             strategy_rank)

INVOCATION, TRANSPORT, MODE = "worst-case", "iiop", "all"
PROBE_TOLERANCE = 0.30  # (b): |added / probe - 1| at most this
AA_LIMIT_US = 0.3  # (c): the A/A interval within +-this
ZERO_LIMIT_US = 0.3  # (d): the O(1) strategies' intervals within +-this (reported only)
FLAT = ("active", "perfect", "perfect-fast")


def interval_text(r):
    added_us, low, high = added_interval(r)
    return f"{fmt(added_us, 3)} [{fmt(low, 3)}, {fmt(high, 3)}] us" if low is not None else f"{fmt(added_us, 3)} us"


def within(r, limit):
    """Is the row's 95 % interval inside [-limit, +limit]? False without an interval."""
    _, low, high = added_interval(r)
    return low is not None and high is not None and -limit <= low and high <= limit


def check(folder):
    path = os.path.join(folder, "demux_added.csv")
    if not os.path.exists(path):
        print(f"{folder}: FAIL: no demux_added.csv (a run from before the paired design; not checked by this rule)")
        return False
    cells = read_added(folder)
    point = added_largest(cells, TRANSPORT, MODE)
    if point is None:
        print(f"{folder}: FAIL: demux_added.csv has no {TRANSPORT} strategy rows of mode {MODE}")
        return False
    where = f"{point[0]} x {point[1]} {INVOCATION}"
    here = {k[0]: r for k, r in cells.items() if k[1:] == point + (INVOCATION, TRANSPORT, MODE)}
    linear = here.get("linear")
    others = {s: r for s, r in here.items() if s not in ("linear", "aa")}
    if linear is None or not others:
        print(f"{folder}: FAIL: needs linear and another strategy at {where}")
        return False
    ok = True

    # (a) linear above every other strategy beyond noise.
    below = []
    ok_a = True
    for s in sorted(others, key=lambda s: (strategy_rank(s), s)):
        beyond = added_beyond(linear, others[s])
        below.append(f"{s} {interval_text(others[s])} {'beyond noise' if beyond else 'WITHIN noise'}")
        ok_a = ok_a and beyond
    print(f"{folder}: {'ok' if ok_a else 'FAIL'}: (a) {where}: linear {interval_text(linear)} "
          f"{'above' if ok_a else 'NOT above'} every other strategy beyond noise: " + "; ".join(below))
    ok = ok and ok_a

    # (b) linear's added latency is what its probes say demultiplexing costs.
    added_us, probe = num(linear.get("added_us")), num(linear.get("probe_added_us"))
    if added_us is None or not probe:
        print(f"{folder}: FAIL: (b) {where}: linear has no probe_added_us (probes off?)")
        ok = False
    else:
        ratio = added_us / probe
        ok_b = abs(ratio - 1.0) <= PROBE_TOLERANCE
        print(f"{folder}: {'ok' if ok_b else 'FAIL'}: (b) {where}: linear added {fmt(added_us, 3)} us / probe "
              f"{fmt(probe, 3)} us = {ratio:.2f}, {'within' if ok_b else 'outside'} "
              f"{1 - PROBE_TOLERANCE:.2f}-{1 + PROBE_TOLERANCE:.2f}")
        ok = ok and ok_b

    # (c) the run's resolution: the A/A interval.
    aa = here.get("aa")
    if aa is None:
        print(f"{folder}: FAIL: (c) {where}: no A/A row")
        ok = False
    else:
        ok_c = within(aa, AA_LIMIT_US)
        print(f"{folder}: {'ok' if ok_c else 'FAIL'}: (c) {where}: A/A {interval_text(aa)}, "
              f"{'within' if ok_c else 'NOT within'} +-{AA_LIMIT_US} us")
        ok = ok and ok_c

    # (d) reported only: the O(1) strategies should add nothing measurable.
    flat = [f"{s} {interval_text(here[s])} {'ok' if within(here[s], ZERO_LIMIT_US) else 'outside'}"
            for s in FLAT if s in here]
    print(f"{folder}: note: (d) {where}: within +-{ZERO_LIMIT_US} us of zero (reported, not checked): "
          + ("; ".join(flat) if flat else "none of " + ", ".join(FLAT) + " measured"))
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
