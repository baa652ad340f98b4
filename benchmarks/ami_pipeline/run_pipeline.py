#!/usr/bin/env python3
"""The pipelined AMI experiment (issue 25): null two-way calls per second on one connection with
W calls outstanding, through syidl --ami's stubs (sendc_) against our server (null_call server),
beside a raw socket keeping W GIOP requests in flight against the epoll socket server, in the
same run; and our synchronous stub (W = 1) for reference.

usage: run_pipeline.py --pipeline AMI_PIPELINE --null-call NULL_CALL --epoll-server EPOLL_SERVER
                       [--windows 1,4,16,64] [--calls 20000] [--rounds 5] [--pin same|none]
                       [--out DIR]

Each round visits every (series, window) point once, in an order shuffled per round, so drift
between rounds falls on all series alike; the figure is each point's median over the rounds, and
the ratio is ours over the socket's at the same window. --pin same runs both servers and every
client on CPU 0 (taskset): the stable setting on 2-vCPU machines (docs/experiments.md). Writes
pipeline.csv (one row per measurement), pipeline.md (medians and ratios) and pipeline.png (when
matplotlib is there) into --out; progress on stderr. Exits 1 if any client or server fails.
"""
import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def log(*words):
    print("run_pipeline:", *words, file=sys.stderr, flush=True)


def wait_for_file(path, proc, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def measure(command, seconds=300):
    """The client's requests_per_s; raises on failure."""
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=seconds)
    if result.returncode != 0:
        raise RuntimeError(" ".join(command) + " failed: " + result.stderr.strip())
    for line in result.stdout.splitlines():
        if line.startswith("requests_per_s "):
            return float(line.split()[1])
    raise RuntimeError(" ".join(command) + " printed no rate")


def plot(medians, windows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    for series in ("switchyard-ami", "socket"):
        ax.plot(windows, [medians[(series, w)] / 1000 for w in windows], marker="o", label=series)
    if ("switchyard-sync", 1) in medians:
        ax.axhline(medians[("switchyard-sync", 1)] / 1000, linestyle="--", color="grey", label="switchyard sync (W=1)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(windows)
    ax.set_xticklabels([str(w) for w in windows])
    ax.set_xlabel("calls outstanding on one connection")
    ax.set_ylabel("thousand null calls per second (median)")
    ax.set_title("Pipelined two-way calls: AMI against the socket")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--null-call", required=True)
    parser.add_argument("--epoll-server", required=True)
    parser.add_argument("--windows", default="1,4,16,64")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pin", choices=["same", "none"], default="same")
    parser.add_argument("--out", default="results/pipeline")
    args = parser.parse_args()
    windows = [int(w) for w in args.windows.split(",")]
    if not windows or min(windows) < 1 or args.calls < 1 or args.rounds < 1:
        parser.error("--windows, --calls and --rounds must be positive")
    os.makedirs(args.out, exist_ok=True)
    pin = ["taskset", "-c", "0"] if args.pin == "same" else []

    work = tempfile.mkdtemp(prefix="sy_pipeline_")
    ior_file = os.path.join(work, "null.ior")
    port_file = os.path.join(work, "epoll.port")
    servers = [
        subprocess.Popen(pin + [args.null_call, "server", ior_file], stdout=subprocess.DEVNULL),
        subprocess.Popen(pin + [args.epoll_server, "--port-file", port_file, "--threads", "1"],
                         stdout=subprocess.DEVNULL),
    ]
    rows = []
    try:
        if not wait_for_file(ior_file, servers[0]) or not wait_for_file(port_file, servers[1]):
            log("a server did not start")
            return 1
        with open(port_file) as f:
            port = f.read().strip()
        points = [("switchyard-ami", w) for w in windows] + [("socket", w) for w in windows] + [("switchyard-sync", 1)]
        for round_number in range(1, args.rounds + 1):
            random.shuffle(points)
            for series, window in points:
                if series == "switchyard-ami":
                    command = [args.pipeline, "switchyard", ior_file, str(window), str(args.calls)]
                elif series == "socket":
                    command = [args.pipeline, "socket", port, str(window), str(args.calls)]
                else:
                    command = [args.pipeline, "sync", ior_file, str(args.calls)]
                rate = measure(pin + command)
                rows.append({"series": series, "window": window, "round": round_number, "calls": args.calls,
                             "requests_per_s": round(rate, 1)})
            log("round", round_number, "of", args.rounds, "done")
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        log("FAILED:", e)
        return 1
    finally:
        for server in servers:
            stop(server)

    with open(os.path.join(args.out, "pipeline.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["series", "window", "round", "calls", "requests_per_s"])
        writer.writeheader()
        writer.writerows(rows)
    medians = {}
    for row in rows:
        medians.setdefault((row["series"], row["window"]), []).append(row["requests_per_s"])
    medians = {key: statistics.median(values) for key, values in medians.items()}
    lines = ["# Pipelined null calls on one connection", "",
             f"{args.calls} calls per measurement, {args.rounds} rounds, pin {args.pin}; medians over the rounds.", "",
             "| outstanding | switchyard AMI (calls/s) | socket (calls/s) | AMI / socket |",
             "| --- | --- | --- | --- |"]
    for w in windows:
        ours, socket = medians[("switchyard-ami", w)], medians[("socket", w)]
        lines.append(f"| {w} | {ours:,.0f} | {socket:,.0f} | {ours / socket:.2f} |")
    lines += ["", f"Our synchronous stub, one call at a time: {medians[('switchyard-sync', 1)]:,.0f} calls/s."]
    if not plot(medians, windows, os.path.join(args.out, "pipeline.png")):
        lines += ["", "(matplotlib was missing: no plot)"]
    with open(os.path.join(args.out, "pipeline.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    log("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
