#!/usr/bin/env python3
"""Instructions, data reads and cache lines per lookup for every demux_bench case, warm and cold,
counted by callgrind (repeatable on a loaded machine, unlike timings).

    count_lookups.py [--build DIR] [--out DIR] [--evict BYTES] [--program demux|adapter]

Runs `demux_bench --count --cold BYTES` under valgrind --tool=callgrind --cache-sim=yes
--collect-atstart=no --toggle-collect='*measured_*' (counting only inside the functions that
make the lookups), with a simulated 32 KiB D1 and a 2 MiB last-level cache (BYTES, default 4M,
must exceed it), and reads back the dump each case made:

  warm: 2000 dependent lookups through a random key sequence, caches warm
  cold: 20 lookups, each after reading BYTES (every cache level evicted), then the probe key, the
        probe and the lookup's closure (the request's key is in cache; the demux structures not)

Per lookup, less the same loop around an empty lookup (`baseline`): Ir (instructions), Dr (data
reads), and for cold lookups the data cache lines the lookup touched (D1 misses: with every
level evicted, each line it reads or writes misses once) and of those the ones fetched from
memory (last-level misses), with the bytes those lines hold. Writes DIR/demux_counts.csv and
DIR/demux_counts.md. --program adapter counts adapter_scale_bench --count instead: the whole
adapter lookup (registry.find: key to servant and skeleton, lock and all) per servant strategy,
with active hints valid and stale, at 1..1000 servants (family `adapter`, nothing subtracted; it
evicts 4 MiB itself). Needs valgrind (Debian's valgrind package, which also provides the header
demux_bench needs for --count).
"""
import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys
from collections import OrderedDict


def fail(message):
    print(f"count_lookups.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_dump(path):
    """(trigger name, {event: total}) of one callgrind dump, or None for dumps without a name."""
    name, events, totals = None, None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                name = line.split("Client Request: ", 1)[1].strip()
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:"):
                totals = [int(x) for x in line.split()[1:]]
    if name is None or events is None:
        return None
    totals = (totals or []) + [0] * (len(events) - len(totals or []))
    return name, dict(zip(events, totals))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="build directory (default build)")
    parser.add_argument("--out", default="results/demux-counts", help="output directory")
    parser.add_argument("--evict", default="4M", help="bytes read between cold lookups (default 4M)")
    parser.add_argument("--program", choices=["demux", "adapter"], default="demux",
                        help="demux_bench (default) or adapter_scale_bench")
    args = parser.parse_args()

    name = "demux_bench" if args.program == "demux" else "adapter_scale_bench"
    program = os.path.join(args.build, "benchmarks", "demux", name)
    if not os.access(program, os.X_OK):
        fail(f"{program} is missing (meson compile -C {args.build} {name})")
    if shutil.which("valgrind") is None:
        fail("valgrind is not installed")
    os.makedirs(args.out, exist_ok=True)
    dumps = os.path.join(args.out, "callgrind")
    shutil.rmtree(dumps, ignore_errors=True)
    os.makedirs(dumps)
    command = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--collect-atstart=no",
               "--toggle-collect=*measured_*",
               "--D1=32768,8,64", "--LL=2097152,16,64",
               f"--callgrind-out-file={os.path.join(dumps, 'demux.out')}",
               program, "--count", "--out", args.out]
    if args.program == "demux":
        command += ["--cold", args.evict]
    print("count_lookups.py: " + " ".join(command), file=sys.stderr)
    run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        fail(f"{name} --count failed:\n{run.stderr[-2000:]}")

    # name: cache|family|strategy|dispatch|keys|lookups
    cases = OrderedDict()
    for path in sorted(glob.glob(os.path.join(dumps, "demux.out.*")),
                       key=lambda p: int(p.rsplit(".", 1)[1])):
        dump = read_dump(path)
        if dump is None:
            continue
        name, totals = dump
        parts = name.split("|")
        if len(parts) != 6:
            continue
        cache, family, strategy, dispatch, keys, lookups = parts
        per = {e: v / int(lookups) for e, v in totals.items()}
        cases[(cache, family, strategy, dispatch, int(keys))] = per
    if not cases:
        fail(f"no counts in the dumps (was {name} built with <valgrind/callgrind.h>?)")

    def value(per, event):
        return per.get(event, 0.0)

    rows = []
    for (cache, family, strategy, dispatch, keys), per in cases.items():
        if strategy == "baseline":
            continue
        base = cases.get((cache, family, "baseline", "none", 0), {})
        net = {e: value(per, e) - value(base, e) for e in per}
        lines = value(net, "D1mr") + value(net, "D1mw")
        memory = value(net, "DLmr") + value(net, "DLmw")
        rows.append(OrderedDict([
            ("family", family), ("strategy", strategy), ("dispatch", dispatch), ("cache", cache),
            ("keys", keys), ("instructions", round(value(net, "Ir"), 1)),
            ("data_reads", round(value(net, "Dr"), 1)), ("data_writes", round(value(net, "Dw"), 1)),
            ("lines_touched", round(lines, 2) if cache == "cold" else ""),
            ("lines_from_memory", round(memory, 2) if cache == "cold" else ""),
            ("bytes_in_lines", round(64 * lines) if cache == "cold" else ""),
        ]))
    stem = "demux_counts" if args.program == "demux" else "adapter_counts"
    with open(os.path.join(args.out, stem + ".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)

    sizes = sorted({r["keys"] for r in rows})
    with open(os.path.join(args.out, stem + ".md"), "w") as md:
        evicted = args.evict if args.program == "demux" else "4M"
        md.write("# demux lookups counted by callgrind\n\n"
                 f"Per lookup, less the benchmark's loop (demux_bench); cold = after reading {evicted} bytes "
                 "(every cache level evicted). Cells: instructions / data cache lines touched "
                 "(cold only).\n")
        for family in ("servant", "operation", "adapter"):
            for cache in ("warm", "cold"):
                keys = OrderedDict()
                for r in rows:
                    if r["family"] == family and r["cache"] == cache:
                        keys[(r["strategy"], r["dispatch"])] = True
                if not keys:
                    continue
                md.write(f"\n## {family}, {cache}\n\n| strategy | dispatch |"
                         + "".join(f" {n} |" for n in sizes) + "\n| --- | --- |"
                         + " ---: |" * len(sizes) + "\n")
                for strategy, dispatch in keys:
                    cells = []
                    for n in sizes:
                        match = [r for r in rows if r["family"] == family and r["cache"] == cache
                                 and r["strategy"] == strategy and r["dispatch"] == dispatch and r["keys"] == n]
                        if not match:
                            cells.append("-")
                        elif cache == "cold":
                            cells.append(f"{match[0]['instructions']:.0f} / {match[0]['lines_touched']:.1f}")
                        else:
                            cells.append(f"{match[0]['instructions']:.0f}")
                    md.write(f"| {strategy} | {dispatch} | " + " | ".join(cells) + " |\n")
    print(f"count_lookups.py: wrote {os.path.join(args.out, stem + '.csv')} and {stem}.md", file=sys.stderr)


if __name__ == "__main__":
    main()
