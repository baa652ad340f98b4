#!/usr/bin/python3
"""Draws sy-bench's plots and writes summary.md from the CSVs in a results folder.

Usage: /usr/bin/python3 sy_bench_report.py DIR

Reads whichever of demux_added.csv, demux.csv, whitebox.csv, latency.csv, latency_trends.csv,
ttcp.csv, handshake.csv, soak.csv, load.csv, load_blocking.csv exist.
Plots need matplotlib (Debian's python3-matplotlib, Agg backend); without it the summary is
still written and a note goes to stderr. Standard library otherwise.
"""
import csv
import os
import sys
from collections import defaultdict

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except Exception:  # noqa: BLE001 - any import failure means no plots
    plt = None

# The strategies in the order tables and legends list them, and one colour each in every plot
# (a strategy keeps its colour whichever others a run measured).
STRATEGIES = ["linear", "binary", "dynamic", "perfect", "perfect-fast", "active"]
STRATEGY_COLOURS = {"linear": "tab:red", "binary": "tab:orange", "dynamic": "tab:purple",
                    "perfect": "tab:blue", "perfect-fast": "tab:cyan", "active": "tab:green"}


def strategy_rank(name):
    return STRATEGIES.index(name) if name in STRATEGIES else len(STRATEGIES)
INVOCATIONS = ["request-train", "round-robin", "random", "worst-case"]


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(text, default=None):
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(lines) + "\n"


def fmt(x, digits=2):
    return "" if x is None else f"{x:.{digits}f}"


# ---- statistics (docs/experiments.md, "Statistics on a noisy machine") ---------------------------

def lower_rank(n, level=0.95):
    """The 1-based rank l whose order statistics x(l), x(n+1-l) cover the median with probability
    at least `level` (binomial, distribution-free); 0 when n values cannot reach it (n < 6)."""
    if n <= 0:
        return 0
    term = 0.5 ** n
    below = 0.0
    rank = 0
    for l in range(1, n // 2 + 1):
        below += term
        if 1.0 - 2.0 * below < level:
            break
        rank = l
        term *= (n - (l - 1)) / l
    return rank


def median_ci(values, level=0.95):
    """(median, low, high) of the values; low and high are None below 6 values."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None, None, None
    n = len(v)
    median = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    rank = lower_rank(n, level)
    if rank == 0:
        return median, None, None
    return median, v[rank - 1], v[n - rank]


def paired_ratio(a, b):
    """Round by round: the ratio a_r / b_r of two cells' round medians (dicts round -> value), its
    median and 95 % interval. The rounds were measured side by side, so what slowed the machine in
    round r slowed both."""
    ratios = [a[r] / b[r] for r in a if r in b and b[r]]
    return median_ci(ratios)


def verdict(low, high):
    if low is None:
        return "too few rounds"
    if low > 1:
        return "beyond noise (higher)"
    if high < 1:
        return "beyond noise (lower)"
    return "within noise"


def ci_text(median, low, high, digits=2):
    if median is None:
        return ""
    if low is None:
        return fmt(median, digits)
    return f"{fmt(median, digits)} [{fmt(low, digits)}, {fmt(high, digits)}]"


# ---- demux ---------------------------------------------------------------------------------------

def demux_rounds(rows):
    """(servant, operation, N, K, invocation) -> {round: median_us}."""
    by = defaultdict(dict)
    for r in rows:
        m = num(r.get("median_us"))
        if m is not None:
            by[(r["servant_demux"], r["operation_demux"], int(r["servants"]), int(r["operations"]),
                r["invocation"])][int(r["round"])] = m
    return by


def pair_name(p):
    return p[0] if p[0] == p[1] else f"{p[0]}/{p[1]}"


# ---- demux, paired design (demux_added.csv) ------------------------------------------------------
# One server hosts every strategy and a reference adapter (active, 1 servant x 1 operation); the
# client visits them all in each block in a balanced random order, so a strategy minus the reference
# in the same block cancels whatever the machine did in that block. added_us is the median over
# rounds of the per-round median differences, with the distribution-free 95 % interval; the `aa` row
# (the reference's twin minus the reference) is the run's resolution.

ADDED_TRANSPORTS = ["iiop", "collocated"]
MODES = ["all", "fast", "slow"]


def added_key(r):
    return (r["kind"], int(r["servants"]), int(r["operations"]), r["invocation"], r.get("transport") or "iiop",
            r.get("mode") or "all")


def added_cells(rows, round_rows=()):
    """demux_added.csv's rows by (kind, servants, operations, invocation, transport, mode); with
    demux_added_rounds.csv's rows, each row also gets `_rounds`: round -> added_us."""
    cells = {}
    for r in rows:
        cells[added_key(r)] = r
    for r in round_rows:
        row, value = cells.get(added_key(r)), num(r.get("added_us"))
        if row is not None and value is not None:
            row.setdefault("_rounds", {})[int(r["round"])] = value
    return cells


def read_added(folder):
    """demux_added.csv's cells, with the round values of demux_added_rounds.csv where it exists."""
    return added_cells(read(os.path.join(folder, "demux_added.csv")),
                       read(os.path.join(folder, "demux_added_rounds.csv")))


def added_interval(r):
    """(added_us, ci_low_us, ci_high_us) of a demux_added.csv row; the bounds None below 6 rounds."""
    return num(r.get("added_us")), num(r.get("ci_low_us")), num(r.get("ci_high_us"))


def added_beyond(higher, lower):
    """Is `higher` above `lower` beyond noise? Round by round where both have their round values
    (they were measured in the same blocks, so a round whose invocation plan or machine was slower
    for both cancels): the 95 % interval of the median difference lies above zero. Otherwise the
    intervals: its low end above the other's high end (stricter)."""
    a, b = higher.get("_rounds"), lower.get("_rounds")
    if a and b:
        _, low, _ = median_ci([a[r] - b[r] for r in a if r in b])
        return low is not None and low > 0
    low, high = num(higher.get("ci_low_us")), num(lower.get("ci_high_us"))
    return low is not None and high is not None and low > high


def added_kinds(cells, transport):
    kinds = {k[0] for k in cells if k[4] == transport and k[0] != "aa"}
    return sorted(kinds, key=lambda s: (strategy_rank(s), s))


def added_largest(cells, transport, mode="all"):
    """The largest grid point (servants, operations) with strategy rows: max servants x max operations
    on a full grid."""
    points = {(k[1], k[2]) for k in cells if k[4] == transport and k[5] == mode and k[0] != "aa"}
    return max(points, key=lambda p: (p[0] * p[1], p)) if points else None


def added_ranking(cells, point, invocation, transport, mode="all"):
    """Strategies from most to least added latency at one point: `>` where the gap is beyond noise
    (the higher one's ci_low above the lower one's ci_high), `~` where it is within."""
    present = [s for s in added_kinds(cells, transport) if (s,) + point + (invocation, transport, mode) in cells]
    if not present:
        return ""
    row = {s: cells[(s,) + point + (invocation, transport, mode)] for s in present}
    present.sort(key=lambda s: -num(row[s]["added_us"], 0.0))  # stable: ties keep STRATEGIES' order
    chain = present[0]
    for a, b in zip(present, present[1:]):
        chain += (" > " if added_beyond(row[a], row[b]) else " ~ ") + b
    return chain


def added_widest_aa(cells, transport, mode="all"):
    """The A/A row with the widest interval over the grid (None when no A/A row has one)."""
    rows = [r for k, r in cells.items() if k[0] == "aa" and k[4] == transport and k[5] == mode
            and num(r.get("ci_low_us")) is not None and num(r.get("ci_high_us")) is not None]
    return max(rows, key=lambda r: num(r["ci_high_us"]) - num(r["ci_low_us"])) if rows else None


def added_text(r, digits=3):
    return ci_text(*added_interval(r), digits) if r else ""


def demux_added_section(out_dir, added, pngs):
    cells = added_cells(added, read(os.path.join(out_dir, "demux_added_rounds.csv")))
    text = ["### Paired: latency added over the reference (demux_added.csv, the headline)\n",
            "One server hosts every strategy and a reference adapter (active demultiplexing, 1 servant x 1 "
            "operation); in each block the client visits every strategy, the reference, its A/A twin and a "
            "raw-socket ping-pong (the sentinel) once, in a balanced random order. Added latency is a "
            "strategy's block value minus the reference's in the same block: over rounds, the median of each "
            "round's value (the mean of the middle half of its blocks), us, with its 95 % interval [low, high]. "
            "`>`: the gap is beyond noise (round by round, the two strategies' difference has a 95 % interval "
            "above zero), `~`: within. `probe` is the "
            "server's demultiplexing time over the reference's, from its probes.\n"]
    transports = [t for t in ADDED_TRANSPORTS if any(k[4] == t for k in cells)]
    transports += sorted({k[4] for k in cells} - set(transports))
    for transport in transports:
        point = added_largest(cells, transport)
        if point is None:
            continue
        invocations = [i for i in INVOCATIONS if any(k[3] == i and k[4] == transport for k in cells)]
        text.append(f"\n#### {transport}: {point[0]} servants x {point[1]} operations\n")
        widest = added_widest_aa(cells, transport)
        if widest is not None:
            text.append(f"A/A (the reference's twin minus the reference), the resolution of this run: "
                        f"[{fmt(num(widest['ci_low_us']), 3)}, {fmt(num(widest['ci_high_us']), 3)}] us at its "
                        f"widest ({widest['servants']} x {widest['operations']}, {widest['invocation']}); at "
                        f"{point[0]} x {point[1]} it follows each ranking. Smaller differences are not told "
                        "apart.\n")
        else:
            text.append("A/A, the resolution of this run: no interval (fewer than 6 rounds).\n")
        lines = []
        for inv in invocations:
            chain = added_ranking(cells, point, inv, transport)
            if not chain:
                continue
            aa = cells.get(("aa",) + point + (inv, transport, "all"))
            low, high = (num(aa.get("ci_low_us")), num(aa.get("ci_high_us"))) if aa else (None, None)
            note = (f" (A/A [{fmt(low, 3)}, {fmt(high, 3)}] us)" if low is not None and high is not None
                    else " (A/A: no interval)")
            lines.append(f"- {inv}: {chain}{note}\n")
        text.append("\n" + "".join(lines))
        table = []
        for inv in invocations:
            for s in added_kinds(cells, transport) + ["aa"]:
                r = cells.get((s,) + point + (inv, transport, "all"))
                if r is None:
                    continue
                added_us, probe = num(r.get("added_us")), num(r.get("probe_added_us"))
                ratio = added_us / probe if added_us is not None and probe else None
                name = "aa (twin - reference)" if s == "aa" else s
                table.append([inv, name, added_text(r), fmt(probe, 3), fmt(ratio, 2), fmt(num(r.get("median_us")), 2),
                              fmt(num(r.get("ratio_to_socket")), 2)])
        text.append("\n" + md_table(["invocation", "strategy", "added us [95 %]", "probe added us", "added / probe",
                                     "median us", "x socket"], table))
        modes = [m for m in MODES[1:] if any(k[4] == transport and k[5] == m for k in cells)]
        if modes:
            text.append(f"\nBy the sentinel's mode (blocks labeled fast or slow by the socket ping-pong), "
                        f"{point[0]} x {point[1]}: added us [95 %]; blocks, sentinel and reference us from the "
                        "A/A row.\n")
            table = []
            for inv in invocations:
                for s in added_kinds(cells, transport) + ["aa"]:
                    line = [inv, s]
                    for m in ["all"] + modes:
                        line.append(added_text(cells.get((s,) + point + (inv, transport, m))))
                    if any(line[2:]):
                        table.append(line)
                aa = [cells.get(("aa",) + point + (inv, transport, m)) for m in ["all"] + modes]
                for label, column, digits in (("(blocks)", "blocks", 0), ("(sentinel us)", "sentinel_us", 2),
                                              ("(reference us)", "reference_us", 2)):
                    table.append([inv, label] + [fmt(num(r.get(column)), digits) if r else "" for r in aa])
            text.append(md_table(["invocation", "strategy"] + ["all"] + modes, table))
        if plt is not None:
            added_plots(out_dir, cells, transport, invocations, pngs)
    return "\n".join(text)


def added_plots(out_dir, cells, transport, invocations, pngs):
    """demux_added[_<transport>]_<invocation>.png: added latency against servants, a subplot per
    operations count, a line and 95 % band per strategy, its probe dashed in the same colour, the A/A
    interval grey."""
    from matplotlib.lines import Line2D
    mine = {k: r for k, r in cells.items() if k[4] == transport and k[5] == "all"}
    operations = sorted({k[2] for k in mine})
    servants = sorted({k[1] for k in mine})
    for inv in invocations:
        fig, axes = plt.subplots(1, len(operations), figsize=(4.2 * len(operations), 3.6), sharey=True,
                                 squeeze=False)
        for ax, k in zip(axes[0], operations):
            aa = [(n, mine[("aa", n, k, inv, transport, "all")]) for n in servants
                  if ("aa", n, k, inv, transport, "all") in mine]
            aa = [(n, num(r.get("ci_low_us")), num(r.get("ci_high_us"))) for n, r in aa]
            aa = [p for p in aa if p[1] is not None and p[2] is not None]
            if aa:
                ax.fill_between([p[0] for p in aa], [p[1] for p in aa], [p[2] for p in aa], color="grey",
                                alpha=0.3, linewidth=0, label="A/A 95 %")
            ax.axhline(0.0, color="black", linewidth=0.8)
            for s in added_kinds(cells, transport):
                pts = [(n, mine[(s, n, k, inv, transport, "all")]) for n in servants
                       if (s, n, k, inv, transport, "all") in mine]
                pts = [(n,) + added_interval(r) + (num(r.get("probe_added_us")),) for n, r in pts]
                pts = [p for p in pts if p[1] is not None]
                if not pts:
                    continue
                colour = STRATEGY_COLOURS.get(s)
                line = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=colour, label=s)[0]
                colour = line.get_color()
                band = [p for p in pts if p[2] is not None and p[3] is not None]
                if band:
                    ax.fill_between([p[0] for p in band], [p[2] for p in band], [p[3] for p in band],
                                    color=colour, alpha=0.15, linewidth=0)
                probe = [p for p in pts if p[4] is not None]
                if probe:
                    ax.plot([p[0] for p in probe], [p[4] for p in probe], linestyle="--", color=colour)
            ax.set_title(f"{k} operation{'s' if k != 1 else ''}")
            ax.set_xlabel("servants")
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("added latency over the reference (us)")
        handles, labels = axes[0][-1].get_legend_handles_labels()
        handles.append(Line2D([], [], color="black", linestyle="--"))
        labels.append("probe (dashed)")
        axes[0][-1].legend(handles, labels, fontsize=7)
        fig.suptitle(f"Demultiplexing, paired: added latency, {inv} invocation, {transport}")
        fig.tight_layout()
        name = f"demux_added_{inv}.png" if transport == "iiop" else f"demux_added_{transport}_{inv}.png"
        fig.savefig(os.path.join(out_dir, name), dpi=90)
        plt.close(fig)
        pngs.append(name)


def demux_section(out_dir, rows, white, round_rows, pngs, added=()):
    text = ["## Demultiplexing (latency paper, section 5.3, figures 31-32)\n"]
    if added:
        # The paired figures first: they are what the run tells apart; absolute latencies follow.
        text.append(demux_added_section(out_dir, added, pngs))
        if rows:
            text.append("\n### Absolute latencies (demux.csv)\n")
    if not rows:
        return "\n".join(text)
    rounds_per_cell = sorted({r.get("rounds", "") for r in rows} - {""})
    how = ("visited in paired blocks beside every other strategy, the reference and the socket sentinel"
           if added else "interleaved with every other cell in a shuffled order")
    text.append("Two-way latency of a parameterless call, us: the median of each cell's round medians "
                "and its 95 % interval [low, high] (each cell measured in "
                f"{'/'.join(rounds_per_cell) or 'one'} rounds, {how}; docs/experiments.md). `demux_ns` in "
                "parentheses is the server's servant + operation demultiplexing per request from its probes.\n")
    pairs = []
    for r in rows:
        p = (r["servant_demux"], r["operation_demux"])
        if p not in pairs:
            pairs.append(p)
    pairs.sort(key=lambda p: (strategy_rank(p[0]), strategy_rank(p[1])))
    servants = sorted({int(r["servants"]) for r in rows})
    operations = sorted({int(r["operations"]) for r in rows})
    invocations = [i for i in INVOCATIONS if any(r["invocation"] == i for r in rows)]
    cell = {(r["servant_demux"], r["operation_demux"], int(r["servants"]), int(r["operations"]),
             r["invocation"]): r for r in rows}
    rounds = demux_rounds(round_rows)
    # What served each strategy (demux.csv's operation_lookup and servant_lookup; older runs lack them).
    served = {}
    for r in rows:
        if r.get("operation_lookup") or r.get("servant_lookup"):
            served.setdefault(pair_name((r["servant_demux"], r["operation_demux"])), set()).add(
                f"servants {r.get('servant_lookup', '?')}, operations {r.get('operation_lookup', '?')}")
    if served:
        text.append("What served the lookups: " + "; ".join(
            f"{name}: {' / '.join(sorted(how))}" for name, how in served.items()) +
            " (gperf: syidl's generated operation table or the build-time object-id table).\n")

    def interval(r, prefix="ci_", unit="_us"):
        return (num(r.get("median_us")), num(r.get(prefix + "low" + unit)), num(r.get(prefix + "high" + unit)))

    for inv in invocations:
        text.append(f"\n### {inv}\n")
        header = ["strategy (servant/operation)", "operations"] + [f"{n} servants" for n in servants]
        table = []
        for p in pairs:
            for k in operations:
                line = [pair_name(p), k]
                for n in servants:
                    r = cell.get((p[0], p[1], n, k, inv))
                    if r is None:
                        line.append("")
                        continue
                    d = num(r.get("demux_ns"))
                    line.append(ci_text(*interval(r)) + (f" ({d:.0f} ns)" if d is not None else ""))
                table.append(line)
        text.append(md_table(header, table))

    if servants and operations and rounds:
        lo, hi = (servants[0], operations[0]), (servants[-1], operations[-1])
        text.append(f"\n### Which differences are beyond noise: {hi[0]} servants x {hi[1]} operations\n")
        text.append("Strategies from slowest to fastest; `>` where the slower one's latency over the next "
                    "one's, taken round by round, has a 95 % interval above 1, `~` where the interval holds 1 "
                    "(the difference is within the noise of this run). Then every pair.\n")
        for inv in invocations:
            present = [p for p in pairs if (p[0], p[1], hi[0], hi[1], inv) in cell]
            present.sort(key=lambda p: -(num(cell[(p[0], p[1], hi[0], hi[1], inv)]["median_us"]) or 0))
            if not present:
                continue
            chain = pair_name(present[0])
            for a, b in zip(present, present[1:]):
                _, low, high = paired_ratio(rounds.get((a[0], a[1], hi[0], hi[1], inv), {}),
                                            rounds.get((b[0], b[1], hi[0], hi[1], inv), {}))
                chain += (" > " if low is not None and low > 1 else " ~ ") + pair_name(b)
            text.append(f"- {inv}: {chain}\n")
        table = []
        for inv in invocations:
            present = [p for p in pairs if (p[0], p[1], hi[0], hi[1], inv) in cell]
            for i, a in enumerate(present):
                for b in present[i + 1:]:
                    m, low, high = paired_ratio(rounds.get((a[0], a[1], hi[0], hi[1], inv), {}),
                                                rounds.get((b[0], b[1], hi[0], hi[1], inv), {}))
                    if m is None:
                        continue
                    table.append([inv, pair_name(a), pair_name(b), ci_text(m, low, high, 3), verdict(low, high)])
        text.append("\n" + md_table(["invocation", "A", "B", "latency A / B, round by round [95 %]", "verdict"], table))

        text.append(f"\n### Growth: {hi[0]} servants x {hi[1]} operations over {lo[0]} x {lo[1]}\n")
        text.append("The ratio of the two cells' latencies round by round (median [95 %]); `demux ns` is the "
                    "server's demultiplexing time in the small and the large cell.\n")
        table = []
        for p in pairs:
            for inv in invocations:
                a = cell.get((p[0], p[1], lo[0], lo[1], inv))
                b = cell.get((p[0], p[1], hi[0], hi[1], inv))
                if not a or not b:
                    continue
                m, low, high = paired_ratio(rounds.get((p[0], p[1], hi[0], hi[1], inv), {}),
                                            rounds.get((p[0], p[1], lo[0], lo[1], inv), {}))
                table.append([pair_name(p), inv, ci_text(*interval(a)), ci_text(*interval(b)),
                              ci_text(m, low, high, 3), verdict(low, high), a.get("demux_ns", ""),
                              b.get("demux_ns", "")])
        text.append(md_table(["strategy", "invocation", "us (small)", "us (large)", "large / small [95 %]",
                              "verdict", "demux ns (small)", "demux ns (large)"], table))
    if white:
        text.append("\n### Whitebox: server layers per request at the largest cell, worst case "
                    "(like tables 1-2 of the latency paper)\n")
        text.append("Mean ns per request and layer, summed over the rounds; the label in parentheses is the "
                    "strategy the serving adapter used. `write` includes time the server waits for the CPU when "
                    "both processes share one.\n")
        order = ["read", "parse", "servant_demux", "operation_demux", "demarshal", "upcall", "marshal", "write"]
        layers = sorted({w["layer"] for w in white}, key=lambda l: order.index(l) if l in order else len(order))
        wpairs = []
        for w in white:
            p = pair_name((w["servant_demux"], w["operation_demux"]))
            if p not in wpairs:
                wpairs.append(p)
        by = defaultdict(float)
        label = defaultdict(set)
        for w in white:
            key = (pair_name((w["servant_demux"], w["operation_demux"])), w["layer"])
            by[key] += num(w["mean_ns"], 0)
            if w.get("probe_strategy", "-") not in ("-", ""):
                label[key].add(w["probe_strategy"])
        text.append(md_table(["layer (mean ns)"] + wpairs,
                             [[l] + [(fmt(by.get((p, l)), 1) + (f" ({'/'.join(sorted(label[(p, l)]))})"
                                                                if label.get((p, l)) else ""))
                                     if (p, l) in by else "" for p in wpairs] for l in layers]))
    if plt is not None:
        for inv in invocations:
            for metric, ci, label_text, suffix in (("median_us", "_us", "median latency (us), 95 % interval", ""),
                                                   ("demux_ns", "", "server demux time (ns), 95 % interval", "_ns")):
                if metric == "demux_ns" and not any(num(r.get("demux_ns")) is not None for r in rows):
                    continue
                fig, axes = plt.subplots(1, len(operations), figsize=(4.2 * len(operations), 3.6),
                                         sharey=True, squeeze=False)
                # Strategies side by side at each servant count, a little apart, so that their
                # intervals do not hide one another.
                span = (servants[-1] - servants[0]) or 1
                for ax, k in zip(axes[0], operations):
                    for i, p in enumerate(pairs):
                        dodge = (i - (len(pairs) - 1) / 2) * span * 0.012
                        xs, ys, below, above = [], [], [], []
                        for n in servants:
                            r = cell.get((p[0], p[1], n, k, inv))
                            if r and num(r.get(metric)) is not None:
                                y = num(r[metric])
                                if metric == "median_us":
                                    low, high = num(r.get("ci_low_us")), num(r.get("ci_high_us"))
                                else:
                                    low, high = num(r.get("demux_ns_ci_low")), num(r.get("demux_ns_ci_high"))
                                    y = num(r.get("demux_ns"))
                                xs.append(n + dodge)
                                ys.append(y)
                                below.append(max(0.0, y - low) if low is not None else 0.0)
                                above.append(max(0.0, high - y) if high is not None else 0.0)
                        if xs:
                            # Paired strategies take the strategy's colour; mixed pairs the cycle's.
                            colour = STRATEGY_COLOURS.get(p[0]) if p[0] == p[1] else None
                            ax.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=3, color=colour,
                                        label=pair_name(p))
                    ax.set_title(f"{k} operation{'s' if k != 1 else ''}")
                    ax.set_xlabel("servants")
                    ax.grid(alpha=0.3)
                axes[0][0].set_ylabel(label_text)
                axes[0][-1].legend(fontsize=8)
                figure = {"random": " (cf. figure 31)", "worst-case": " (cf. figure 32)"}.get(inv, "")
                fig.suptitle(f"Demultiplexing, {inv} invocation{figure}")
                fig.tight_layout()
                name = f"demux_{inv}{suffix}.png"
                fig.savefig(os.path.join(out_dir, name), dpi=90)
                plt.close(fig)
                pngs.append(name)
    return "\n".join(text)


# ---- latency -------------------------------------------------------------------------------------

def transport_suffix(r):
    """" ssliop" (or " uiop") for rows of our ORB or omniORB over another transport than plain IIOP;
    "" for IIOP, the baselines (transport tcp) and CSVs from before the transport column."""
    t = r.get("transport", "") or ""
    return "" if t in ("", "iiop", "tcp") else f" {t}"


def interceptor_suffix(r):
    """" 2 interceptors" for rows of our ORB measured with no-op interceptors (--interceptors);
    "" without them, for the other series and for CSVs from before the column."""
    n = r.get("interceptors", "") or ""
    return "" if n in ("", "0") else f" {n} interceptors"


def latency_label(r):
    """The column (and plot line) of a latency.csv or latency_trends.csv row: its series, its
    transport when not plain IIOP ("switchyard ssliop"), for calls through the DII the way the
    request was made ("switchyard dii-reuse"), for asynchronous calls "ami" ("switchyard ami"),
    and the no-op interceptors when there were some ("switchyard 2 interceptors"). Rows of stubs
    (interface sii) and of the baselines (interface empty), and CSVs from before the columns, keep
    the series' name."""
    if r.get("interface", "") == "dii":
        return f"{r['series']}{transport_suffix(r)} dii-{r.get('dii_request') or 'reuse'}{interceptor_suffix(r)}"
    if r.get("interface", "") == "ami":
        return f"{r['series']}{transport_suffix(r)} ami{interceptor_suffix(r)}"
    return r["series"] + transport_suffix(r) + interceptor_suffix(r)


def latency_section(out_dir, rows, trends, pngs):
    text = ["## Latency (latency paper 3.2; evaluation report's trend lines)\n"]
    series = []
    for r in rows:
        if latency_label(r) not in series:
            series.append(latency_label(r))
    # DII and AMI columns beside their series' stubs: (DII or AMI label, SII label) where both
    # were measured.
    dii_pairs = [(lab, r["series"] + transport_suffix(r) + interceptor_suffix(r)) for lab in series for r in rows
                 if latency_label(r) == lab and r.get("interface", "") in ("dii", "ami")
                 and r["series"] + transport_suffix(r) + interceptor_suffix(r) in series]
    dii_pairs = list(dict.fromkeys(dii_pairs))
    # TLS columns: a series over ssliop against the same series over plain IIOP, same case.
    tls_pairs = [(lab, lab.replace(" ssliop", "", 1)) for lab in series
                 if " ssliop" in lab and lab.replace(" ssliop", "", 1) in series]
    # Interceptor columns: a series with no-op interceptors against the same series without.
    interceptor_pairs = list(dict.fromkeys(
        (latency_label(r), latency_label({**r, "interceptors": ""})) for r in rows
        if interceptor_suffix(r) and latency_label({**r, "interceptors": ""}) in series))
    modes = [m for m in ("twoway", "oneway") if any(r["mode"] == m for r in rows)]
    key = {(latency_label(r), r["mode"], r["type"], int(r["units"])): r for r in rows}
    for mode in modes:
        text.append(f"\n### {mode}: median us of the round medians [95 % interval] (ratio to the socket's)\n")
        cases = []
        for r in rows:
            c = (r["type"], int(r["units"]))
            if r["mode"] == mode and c not in cases:
                cases.append(c)
        table = []
        for t, u in cases:
            line = [t, u]
            for s in series:
                r = key.get((s, mode, t, u))
                if not r:
                    line.append("")
                    continue
                ratio = num(r.get("ratio_to_socket"))
                low, high = num(r.get("ci_low_us")), num(r.get("ci_high_us"))
                line.append(fmt(num(r["median_us"])) + (f" [{fmt(low)}, {fmt(high)}]" if low is not None else "")
                            + (f" ({ratio:.2f}x)" if ratio is not None and s != "socket" else ""))
            for dii, sii in dii_pairs + tls_pairs + interceptor_pairs:
                a, b = key.get((dii, mode, t, u)), key.get((sii, mode, t, u))
                ratio = num(a["median_us"]) / num(b["median_us"]) if a and b and num(b["median_us"]) else None
                line.append(f"{ratio:.2f}" if ratio is not None else "")
            table.append(line)
        text.append(md_table(["type", "units"] + series + [f"{d} / {s}" for d, s in dii_pairs + tls_pairs + interceptor_pairs], table))
    if tls_pairs:
        text.append("\nThe `ssliop / ` columns: latency over TLS (ssliop) over the same series' plain IIOP, same "
                    "case, medians (docs/experiments.md, \"TLS\").\n")
    if interceptor_pairs:
        text.append("\nThe `interceptors / ` columns: latency with that many no-op client and server request "
                    "interceptors in both ORBs over the same series without, same case, medians "
                    "(docs/experiments.md, \"What an interceptor costs\").\n")
    if dii_pairs:
        text.append("\nThe `dii-` and `ami` `/` columns: DII or AMI (callback model, timed to the reply "
                    "handler) over stub (SII) latency for the same case and series, medians (latency paper, "
                    "figures 11-26; docs/experiments.md, \"Static and dynamic invocation\" and "
                    "\"Asynchronous calls in the latency experiment\").\n")
    if trends:
        text.append("\n### Trend lines: median us = fixed + per_byte * bytes (least squares over the medians)\n")
        text.append(md_table(["series", "mode", "type", "fixed us", "ns per byte", "points",
                              "fixed / socket", "per byte / socket"],
                             [[latency_label(t), t["mode"], t["type"], fmt(num(t["fixed_us"]), 3),
                               fmt(num(t["per_byte_ns"]), 4), t["points"], t.get("fixed_ratio_to_socket", ""),
                               t.get("per_byte_ratio_to_socket", "")] for t in trends]))
    if plt is not None:
        types = []
        for r in rows:
            if r["type"] != "none" and r["type"] not in types:
                types.append(r["type"])
        for mode in modes:
            if not types:
                break
            cols = min(3, len(types))
            nrows = (len(types) + cols - 1) // cols
            fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
            # A DII or AMI line is dashed, in the colour of its series' stub line.
            colours = {}
            for s in series:
                if not any(s == d for d, _ in dii_pairs):
                    colours[s] = f"C{len(colours)}"
            for d, sii in dii_pairs:
                colours[d] = colours.get(sii, f"C{len(colours)}")
            for i, t in enumerate(types):
                ax = axes[i // cols][i % cols]
                for s in series:
                    pts = sorted((int(r["bytes"]), num(r["median_us"])) for r in rows
                                 if latency_label(r) == s and r["mode"] == mode and r["type"] == t)
                    if pts:
                        dashed = " dii-" in s or s.endswith(" ami") or " ami " in s
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="x" if dashed else ".",
                                linestyle="--" if dashed else "-", color=colours.get(s), label=s)
                ax.set_title(t)
                ax.set_xscale("log", base=2)
                ax.set_xlabel("bytes of data")
                ax.set_ylabel("median us")
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            for j in range(len(types), nrows * cols):
                axes[j // cols][j % cols].axis("off")
            fig.suptitle(f"Latency, {mode}")
            fig.tight_layout()
            name = f"latency_{mode}.png"
            fig.savefig(os.path.join(out_dir, name), dpi=90)
            plt.close(fig)
            pngs.append(name)
    return "\n".join(text)


# ---- handshake -----------------------------------------------------------------------------------

def handshake_section(rows):
    text = ["## New connections: connect, TLS handshake, first call (sy-bench handshake)\n",
            "Each sample: a client that has never reached the server connects and makes one two-way "
            "null call (the socket: connect, the same request bytes, the same reply bytes). Median of "
            "the round medians [95 % interval], connections per second one after another (1 / median), "
            "and ratios to the socket and to the same ORB over plain IIOP, of the same run.\n"]
    table = []
    for r in rows:
        low, high = num(r.get("ci_low_us")), num(r.get("ci_high_us"))
        table.append([r["series"], r["transport"], fmt(num(r["median_us"]), 1)
                      + (f" [{fmt(low, 1)}, {fmt(high, 1)}]" if low is not None and high is not None else ""),
                      r["connections_per_s"], fmt(num(r["p99_us"]), 1), r.get("ratio_to_socket", ""),
                      r.get("ratio_to_iiop", ""), r["connections"]])
    text.append(md_table(["series", "transport", "median us [95 %]", "connections/s", "p99 us", "/ socket",
                          "/ iiop", "connections"], table))
    return "\n".join(text)


# ---- ttcp ----------------------------------------------------------------------------------------

def ttcp_section(out_dir, rows, pngs):
    links = sorted({r.get("link", "loopback") or "loopback" for r in rows})
    text = ["## Throughput: TTCP (throughput paper)\n",
            f"Link: {', '.join(links)}. Mbit/s of the median run, its ratio to the C sockets of the same "
            "buffer and queue, and (from 6 runs on) the median's 95 % interval [low, high]; runs of all "
            "points interleaved in shuffled rounds.\n"]
    def label(r):
        return r["series"] + transport_suffix(r)
    series = []
    for r in rows:
        if label(r) not in series:
            series.append(label(r))
    queues = []
    for r in rows:
        if r["socket_queue_bytes"] not in queues:
            queues.append(r["socket_queue_bytes"])
    types = []
    for r in rows:
        if r["type"] not in types:
            types.append(r["type"])
    key = {(label(r), r["type"], int(r["buffer_bytes"]), r["socket_queue_bytes"]): r for r in rows}
    buffers = sorted({int(r["buffer_bytes"]) for r in rows})
    # TLS columns: a series over ssliop against the same series over plain IIOP (Mbit/s ratio).
    tls_pairs = [(s, s.replace(" ssliop", "", 1)) for s in series
                 if " ssliop" in s and s.replace(" ssliop", "", 1) in series]
    for q in queues:
        qname = "OS default" if q in ("0", "default") else f"{int(q) // 1024} K"
        text.append(f"\n### socket queue {qname}: Mbit/s (ratio to C sockets)\n")
        table = []
        for t in types:
            for b in buffers:
                line = [t, f"{b // 1024} K" if b >= 1024 else b]
                present = False
                for s in series:
                    r = key.get((s, t, b, q))
                    if not r:
                        line.append("")
                        continue
                    present = True
                    ratio = num(r.get("ratio_to_socket"))
                    low, high = num(r.get("mbps_ci_low")), num(r.get("mbps_ci_high"))
                    line.append(fmt(num(r["mbps"]), 0) + (f" ({ratio:.2f}x)" if ratio is not None and s != "socket" else "")
                                + (f" [{low:.0f}, {high:.0f}]" if low is not None and high is not None else ""))
                for tls, plain in tls_pairs:
                    a, c = key.get((tls, t, b, q)), key.get((plain, t, b, q))
                    ratio = num(a["mbps"]) / num(c["mbps"]) if a and c and num(c["mbps"]) else None
                    line.append(f"{ratio:.2f}" if ratio is not None else "")
                if present:
                    table.append(line)
        text.append(md_table(["type", "buffer"] + series + [f"{t} / {p}" for t, p in tls_pairs], table))
    if plt is not None and rows:
        fig, axes = plt.subplots(len(queues), len(types), figsize=(4.0 * len(types), 3.2 * len(queues)),
                                 squeeze=False)
        for i, q in enumerate(queues):
            for j, t in enumerate(types):
                ax = axes[i][j]
                for s in series:
                    pts = sorted((int(r["buffer_bytes"]), num(r["mbps"]), num(r.get("mbps_ci_low")),
                                  num(r.get("mbps_ci_high"))) for r in rows
                                 if label(r) == s and r["type"] == t and r["socket_queue_bytes"] == q)
                    if pts:
                        below = [p[1] - p[2] if p[2] is not None else 0.0 for p in pts]
                        above = [p[3] - p[1] if p[3] is not None else 0.0 for p in pts]
                        ax.errorbar([p[0] / 1024 for p in pts], [p[1] for p in pts], yerr=[below, above],
                                    marker="o", capsize=2, label=s)
                qname = "default" if q in ("0", "default") else f"{int(q) // 1024}K"
                ax.set_title(f"{t}, queue {qname}", fontsize=9)
                ax.set_xscale("log", base=2)
                ax.set_xlabel("buffer KB")
                ax.set_ylabel("Mbit/s")
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
        fig.suptitle("TTCP throughput (one-way flood)" + ("" if links == ["loopback"] else f", link {', '.join(links)}"))
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "ttcp.png"), dpi=90)
        plt.close(fig)
        pngs.append("ttcp.png")
    return "\n".join(text)


def soak_section(rows):
    text = ["## Soak: requests over many servants from several clients, per concurrency model\n"]
    models = []
    for r in rows:
        if r["model"] not in models:
            models.append(r["model"])
    lines = []
    for m in models:
        by_phase = {r["phase"]: r for r in rows if r["model"] == m}
        start, end = by_phase.get("start"), by_phase.get("end")
        if not start or not end:
            continue
        rss0, rss1 = int(start["rss_kb"]), int(end["rss_kb"])
        change = 100.0 * (rss1 - rss0) / rss0 if rss0 else 0.0
        rate = int(end["requests_done"]) / float(end["elapsed_s"]) if float(end["elapsed_s"]) > 0 else 0.0
        lines.append(f"- {m}: {int(end['requests_done']):,} requests over {end['servants']} servants from "
                     f"{end['clients']} clients in {end['elapsed_s']} s ({rate:,.0f}/s), {end['failures']} failures; "
                     f"RSS {rss0:,} -> {rss1:,} kB ({change:+.2f}%), descriptors {start['descriptors']} -> "
                     f"{end['descriptors']}, threads {start['threads']} -> {end['threads']}")
    text.append("\n".join(lines) + "\n")
    table = [[r["model"], r["phase"], r["requests_done"], r["elapsed_s"], r["rss_kb"], r["descriptors"], r["threads"],
              r["failures"]] for r in rows]
    text.append(md_table(["model", "phase", "requests", "s", "RSS kB", "descriptors", "threads", "failures"], table))
    return "\n".join(text)


# ---- load ----------------------------------------------------------------------------------------

LOAD_DEFAULT = "switchyard-adaptive"  # the ORB's default concurrency model (docs/orb.md)
LOAD_TARGET_CONNECTIONS = (256, 1024)  # where issue 10's targets apply


def load_label(series):
    return series + " (default)" if series == LOAD_DEFAULT else series


def load_section(out_dir, rows, pngs):
    text = ["## Under load: many connections, back-to-back two-way calls (`sy-bench load`)\n"]
    text.append("Every connection has one request outstanding; requests/s counts the replies of all connections "
                "within the window; p50 and p99 are round trips (us) from the clients' histograms. "
                f"`{LOAD_DEFAULT}` is the ORB's default model. Ratios: to the epoll socket server, and to the "
                "better of omniORB's two models at the same point (\"omni\").\n")
    series = []
    for r in rows:
        if r["series"] not in series:
            series.append(r["series"])
    calls = []
    for r in rows:
        if r["call"] not in calls:
            calls.append(r["call"])
    key = {(r["series"], r["call"], int(r["connections"])): r for r in rows}
    omni = [s for s in series if s.startswith("omniorb")]
    ours = [s for s in series if s.startswith("switchyard")]

    def ok(r):
        return r is not None and num(r.get("requests_per_s"), 0) > 0 and r.get("p99_us", "") != ""

    def omni_best(call, n):
        rates = [num(key[(s, call, n)]["requests_per_s"]) for s in omni if ok(key.get((s, call, n)))]
        return max(rates) if rates else None

    def omni_p99(call, n):
        p99s = [num(key[(s, call, n)]["p99_us"]) for s in omni if ok(key.get((s, call, n)))]
        return min(p99s) if p99s else None

    for call in calls:
        counts = sorted({int(r["connections"]) for r in rows if r["call"] == call})
        name = {"null": "null call (sendNoParams_2way)", "octet1k": "1 KB octets (sendOctetSeq_2way)"}.get(call, call)
        text.append(f"\n### {name}: requests/s (x socket, x omni)\n")
        table = []
        for n in counts:
            line = [n]
            sock = key.get(("socket", call, n))
            sock_rate = num(sock["requests_per_s"]) if ok(sock) else None
            best = omni_best(call, n)
            for s in series:
                r = key.get((s, call, n))
                if r is None:
                    line.append("")
                    continue
                if not ok(r):
                    line.append(f"failed ({r.get('errors', '')} errors)")
                    continue
                rate = num(r["requests_per_s"])
                notes = []
                if s != "socket" and sock_rate:
                    notes.append(f"{rate / sock_rate:.2f}x")
                if not s.startswith("omniorb") and s != "socket" and best:
                    notes.append(f"{rate / best:.2f}x")
                errors = int(num(r.get("errors"), 0))
                cell = f"{rate:,.0f}" + (f" ({', '.join(notes)})" if notes else "")
                line.append(cell + (f" [{errors} errors]" if errors else ""))
            table.append(line)
        text.append(md_table(["connections"] + [load_label(s) for s in series], table))
        text.append(f"\n### {name}: p50 / p99 us\n")
        table = []
        for n in counts:
            line = [n]
            for s in series:
                r = key.get((s, call, n))
                line.append(f"{r['p50_us']} / {r['p99_us']}" if ok(r) else "")
            table.append(line)
        text.append(md_table(["connections"] + [load_label(s) for s in series], table))
        text.append(f"\n### {name}: server CPU % / resident MB\n")
        table = []
        for n in counts:
            line = [n]
            for s in series:
                r = key.get((s, call, n))
                line.append(f"{num(r['server_cpu_pct'], 0):.0f} / {num(r['server_rss_kb'], 0) / 1024:.1f}" if ok(r) else "")
            table.append(line)
        text.append(md_table(["connections"] + [load_label(s) for s in series], table))

    # Issue 10's targets at 256 and 1024 connections: >= 0.8x the socket's requests/s, ahead of
    # omniORB's better model, p99 no worse than omniORB's better (lower) p99.
    lines = []
    for call in calls:
        for n in LOAD_TARGET_CONNECTIONS:
            sock = key.get(("socket", call, n))
            best, best_p99 = omni_best(call, n), omni_p99(call, n)
            for s in ours:
                r = key.get((s, call, n))
                if not ok(r):
                    continue
                rate, p99 = num(r["requests_per_s"]), num(r["p99_us"])
                parts = []
                if ok(sock):
                    ratio = rate / num(sock["requests_per_s"])
                    parts.append(f"{ratio:.2f}x socket ({'met' if ratio >= 0.8 else 'NOT met'}: >= 0.8x)")
                if best:
                    parts.append(f"{rate / best:.2f}x omniORB's best ({'met' if rate > best else 'NOT met'})")
                if best_p99:
                    parts.append(f"p99 {p99:.1f} us vs omniORB's {best_p99:.1f} us "
                                 f"({'met' if p99 <= best_p99 else 'NOT met'})")
                if parts:
                    lines.append(f"- {call}, {n} connections, {load_label(s)}: " + "; ".join(parts))
    if lines:
        text.append("\n### Targets (issue 10: at 256 and 1024 connections, >= 0.8x the socket's requests/s, "
                    "ahead of omniORB's better model, p99 no worse than omniORB's better p99)\n")
        text.append("\n".join(lines) + "\n")

    if plt is not None and rows:
        fig, axes = plt.subplots(2, len(calls), figsize=(6.0 * len(calls), 7.4), squeeze=False)
        for j, call in enumerate(calls):
            for i, (metric, label) in enumerate((("requests_per_s", "requests/s"), ("p99_us", "p99 round trip (us)"))):
                ax = axes[i][j]
                for s in series:
                    pts = sorted((int(r["connections"]), num(r[metric])) for r in rows
                                 if r["series"] == s and r["call"] == call and ok(r))
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=load_label(s),
                                linewidth=2.5 if s == LOAD_DEFAULT else 1.2,
                                linestyle="--" if s == "socket" else (":" if s.startswith("omniorb") else "-"))
                ax.set_xscale("log", base=2)
                if metric == "p99_us":
                    ax.set_yscale("log")
                ax.set_xlabel("connections")
                ax.set_ylabel(label)
                ax.set_title(f"{call}: {label}", fontsize=10)
                ax.grid(alpha=0.3)
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)), fontsize=8)
        fig.suptitle("Under load: back-to-back two-way calls, one outstanding per connection")
        fig.tight_layout(rect=(0, 0.03 + 0.03 * ((len(labels) + 3) // 4), 1, 1))
        fig.savefig(os.path.join(out_dir, "load.png"), dpi=90)
        plt.close(fig)
        pngs.append("load.png")
    return "\n".join(text)


# ---- load with a blocking call mix (issue 28) -------------------------------------------------------

BLOCKING_TARGET = 2.0  # the fast calls' p99 with the mix within 2x of the same point without it


def load_blocking_section(out_dir, rows, pngs):
    text = ["## Under load with blocking calls (`sy-bench load --mix blocking`)\n"]
    mixes = []
    for r in rows:
        if r["mix"] != "fast-only" and r["mix"] not in mixes:
            mixes.append(r["mix"])
    text.append("Each point runs twice on fresh servers: fast calls only, then with a fraction of the requests "
                "replaced by `LoadNap::nap(ms)`, which sleeps in the upcall (" + ", ".join(mixes) + "). "
                "p50 and p99 (us) are of the fast calls alone; slow calls are counted apart. Ratio: the fast "
                f"calls' p99 with the mix over their p99 without it (target: within {BLOCKING_TARGET:g}x). "
                f"`{LOAD_DEFAULT}` is the ORB's default model. Every connection keeps one request outstanding, "
                "so a connection waiting for a nap sends no fast call meanwhile: the mix also lowers the offered "
                "load.\n")
    series, calls = [], []
    for r in rows:
        if r["series"] not in series:
            series.append(r["series"])
        if r["call"] not in calls:
            calls.append(r["call"])
    key = {(r["series"], r["call"], int(r["connections"]), r["mix"]): r for r in rows}

    def ok(r):
        return r is not None and num(r.get("fast_requests_per_s"), 0) > 0 and r.get("fast_p99_us", "") != ""

    def ratio(s, call, n, mix):
        base, mixed = key.get((s, call, n, "fast-only")), key.get((s, call, n, mix))
        if not ok(base) or not ok(mixed) or not num(base["fast_p99_us"]):
            return None
        return num(mixed["fast_p99_us"]) / num(base["fast_p99_us"])

    verdicts = []
    for call in calls:
        counts = sorted({int(r["connections"]) for r in rows if r["call"] == call})
        for mix in mixes:
            for s in series:
                table = []
                for n in counts:
                    base, mixed = key.get((s, call, n, "fast-only")), key.get((s, call, n, mix))
                    if base is None and mixed is None:
                        continue
                    cells = [n]
                    for r in (base, mixed):
                        if r is None:
                            cells += ["", "", ""]
                        elif not ok(r):
                            cells += [f"failed ({r.get('errors', '')} errors)", "", ""]
                        else:
                            errors = int(num(r.get("errors"), 0))
                            cells += [r["fast_p50_us"], r["fast_p99_us"],
                                      f"{num(r['fast_requests_per_s']):,.0f}" + (f" [{errors} errors]" if errors else "")]
                    x = ratio(s, call, n, mix)
                    cells.append("" if x is None else f"{x:.2f}x")
                    slow = mixed if ok(mixed) else None
                    cells.append("" if slow is None else
                                 f"{slow['slow_requests']} ({slow['slow_p50_ms']} / {slow['slow_p99_ms']} ms)")
                    table.append(cells)
                    if x is not None:
                        verdicts.append(f"- {call}, {n} connections, {load_label(s)}: {x:.2f}x "
                                        f"({'met' if x <= BLOCKING_TARGET else 'NOT met'})")
                if table:
                    text.append(f"\n### {load_label(s)}, {call}: fast calls without and with {mix}\n")
                    text.append(md_table(["connections", "fast-only p50", "fast-only p99", "fast-only req/s",
                                          "mix p50", "mix p99", "mix fast req/s", "p99 mix / fast-only",
                                          "slow calls (p50 / p99)"], table))
    if verdicts:
        text.append(f"\n### Target (issue 28: the fast calls' p99 with the mix within {BLOCKING_TARGET:g}x of "
                    "the same run without slow calls)\n")
        text.append("\n".join(verdicts) + "\n")

    if plt is not None and rows and mixes:
        mix = mixes[0]
        fig, axes = plt.subplots(1, len(calls), figsize=(6.0 * len(calls), 4.6), squeeze=False)
        for j, call in enumerate(calls):
            ax = axes[0][j]
            for s in series:
                pts = [(n, ratio(s, call, n, mix)) for n in sorted({int(r["connections"]) for r in rows
                                                                    if r["call"] == call and r["series"] == s})]
                pts = [p for p in pts if p[1] is not None]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=load_label(s),
                            linewidth=2.5 if s == LOAD_DEFAULT else 1.2,
                            linestyle=":" if s.startswith("omniorb") else "-")
            ax.axhline(BLOCKING_TARGET, color="grey", linestyle="--", linewidth=1)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("connections")
            ax.set_ylabel("fast p99 with mix / fast-only")
            ax.set_title(f"{call}: {mix}", fontsize=10)
            ax.grid(alpha=0.3)
        handles, labels = axes[0][0].get_legend_handles_labels()
        if labels:
            fig.legend(handles, labels, loc="lower center", ncol=min(3, len(labels)), fontsize=8)
        fig.suptitle("Blocking mix: the fast calls' p99, mix / fast-only")
        fig.tight_layout(rect=(0, 0.04 + 0.04 * ((len(labels) + 2) // 3), 1, 1))
        fig.savefig(os.path.join(out_dir, "load_blocking.png"), dpi=90)
        plt.close(fig)
        pngs.append("load_blocking.png")
    return "\n".join(text)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    pngs = []
    sections = []
    demux = read(os.path.join(out_dir, "demux.csv"))
    demux_added = read(os.path.join(out_dir, "demux_added.csv"))
    if demux or demux_added:
        sections.append(demux_section(out_dir, demux, read(os.path.join(out_dir, "whitebox.csv")),
                                      read(os.path.join(out_dir, "demux_rounds.csv")), pngs, demux_added))
    latency = read(os.path.join(out_dir, "latency.csv"))
    if latency:
        sections.append(latency_section(out_dir, latency, read(os.path.join(out_dir, "latency_trends.csv")), pngs))
    ttcp = read(os.path.join(out_dir, "ttcp.csv"))
    if ttcp:
        sections.append(ttcp_section(out_dir, ttcp, pngs))
    handshake = read(os.path.join(out_dir, "handshake.csv"))
    if handshake:
        sections.append(handshake_section(handshake))
    soak = read(os.path.join(out_dir, "soak.csv"))
    if soak:
        sections.append(soak_section(soak))
    load = read(os.path.join(out_dir, "load.csv"))
    if load:
        sections.append(load_section(out_dir, load, pngs))
    load_blocking = read(os.path.join(out_dir, "load_blocking.csv"))
    if load_blocking:
        sections.append(load_blocking_section(out_dir, load_blocking, pngs))
    if not sections:
        print(f"report: no sy-bench CSV in {out_dir}", file=sys.stderr)
        return 1
    notes = []
    meta = os.path.join(out_dir, "run.txt")
    if os.path.exists(meta):
        with open(meta) as f:
            notes.append("```\n" + f.read().strip() + "\n```\n")
    if plt is None:
        print("report: matplotlib is missing (Debian: python3-matplotlib): summary.md only, no plots",
              file=sys.stderr)
        notes.append("(No plots: matplotlib was missing when this summary was written.)\n")
    body = "# sy-bench results\n\n" + "".join(notes) + "\n" + "\n\n".join(sections)
    if pngs:
        body += "\n\n## Plots\n\n" + "\n".join(f"![{p}]({p})" for p in pngs) + "\n"
    tmp = os.path.join(out_dir, "summary.md.tmp")
    with open(tmp, "w") as f:
        f.write(body)
    os.replace(tmp, os.path.join(out_dir, "summary.md"))
    print(f"report: {os.path.join(out_dir, 'summary.md')}" + (f" and {len(pngs)} plots" if pngs else ""),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
