#!/usr/bin/env python3
"""Smoke test of the omniORB benchmark peers: server on loopback, a tiny latency run, a tiny ttcp.

usage: run_omni_bench_smoke.py SERVER CLIENT   (SERVER = 'none' when omniORB is missing: exit 77)

Checks that the outputs parse and hold positive numbers, never how large they are. Every wait is
bounded; the whole test stays well inside 30 s.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
TTCP_LINE = re.compile(r"^seconds=(\d+(?:\.\d+)?(?:e[-+]?\d+)?) bytes=(\d+) calls=(\d+)$")


def wait_for_file(path, server, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        if server.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def run(cmd, seconds=8):
    print("$", " ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd)), flush=True)
    try:
        result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=seconds,
                                text=True)
    except subprocess.TimeoutExpired:
        print("  timed out after", seconds, "s")
        return None
    if result.stderr.strip():
        print("  stderr:", result.stderr.strip().replace("\n", "\n  "))
    if result.returncode != 0:
        print("  exit", result.returncode)
        return None
    return result.stdout


def check_samples(path, count):
    try:
        with open(path) as f:
            lines = f.read().split()
    except OSError as e:
        print("  cannot read samples:", e)
        return False
    ok = len(lines) == count and all(re.fullmatch(r"\d+", x) and int(x) > 0 for x in lines)
    print("  %d samples, all positive integers: %s" % (len(lines), ok))
    return ok


def check_ttcp(stdout, total):
    if stdout is None:
        return False
    lines = stdout.splitlines()
    match = TTCP_LINE.match(lines[0]) if len(lines) == 1 else None
    print("  output:", stdout.strip())
    if not match:
        print("  expected exactly one line 'seconds=<float> bytes=<int> calls=<int>'")
        return False
    seconds, sent, calls = float(match.group(1)), int(match.group(2)), int(match.group(3))
    return seconds > 0 and sent >= total and calls > 0


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=8)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "killed after SIGTERM was ignored"


def check_small_queue(server, client, work):
    """8 K socket queues with 64 K messages: once 0.5 s per call (queues shrunk after the TCP
    handshake, README.md), so 4 MB took half a minute; now well inside the 8 s bound."""
    ior_file = os.path.join(work, "iors-8k.txt")
    proc = subprocess.Popen([server, "--ior-file", ior_file, "--socket-queue", "8192"])
    try:
        if not wait_for_file(ior_file, proc, 8):
            print("8 K server did not write", ior_file)
            return False
        return check_ttcp(run([client, "--ior-file", ior_file, "ttcp", "--type", "octet",
                               "--buffer-bytes", "65536", "--total-bytes", "4194304",
                               "--socket-queue", "8192"]), 4194304)
    finally:
        code = stop(proc)
        print("8 K server exit:", code)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    server, client = sys.argv[1:]
    if server == "none":
        print("omniORB (libomniorb4-dev, omniidl) not found at configure time: skipping")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="omni_bench_smoke_") as work:
        ior_file = os.path.join(work, "iors.txt")
        proc = subprocess.Popen([server, "--ior-file", ior_file, "--servants", "2",
                                 "--socket-queue", "65536"])
        ok = True
        try:
            if not wait_for_file(ior_file, proc, 8):
                print("server did not write", ior_file)
                return 1
            with open(ior_file) as f:
                names = [line.split()[0] for line in f if line.strip()]
            print("server objects:", names)
            ok &= names == ["echo", "ttcp/0", "ttcp/1"]
            base = [client, "--ior-file", ior_file]
            for mode, kind, units in [("twoway", "none", "0"), ("twoway", "binstruct", "64"),
                                      ("oneway", "octet", "1024")]:
                samples = os.path.join(work, "%s-%s.txt" % (mode, kind))
                out = run(base + ["latency", "--mode", mode, "--type", kind, "--units", units,
                                  "--samples", "20", "--warmup", "5", "--samples-out", samples])
                ok &= out is not None and check_samples(samples, 20)
            ok &= check_ttcp(run(base + ["--object", "ttcp/1", "ttcp", "--type", "octet",
                                         "--buffer-bytes", "65536", "--total-bytes", "1048576",
                                         "--socket-queue", "65536"]), 1048576)
            ok &= check_ttcp(run(base + ["ttcp", "--type", "binstruct", "--buffer-bytes", "8192",
                                         "--total-bytes", "1048576"]), 1048576)
            ok &= check_ttcp(run(base + ["ttcp", "--type", "octet", "--buffer-bytes", "1000",
                                         "--total-bytes", "100000", "--oneway"]), 100000)
            ok &= check_small_queue(server, client, work)
            # Bad input: a clear error and a non-zero exit, never a hang.
            bad = run(base + ["latency", "--mode", "sideways", "--type", "none", "--samples", "1",
                              "--warmup", "0", "--samples-out", os.path.join(work, "x")])
            ok &= bad is None
            bad = run(base + ["--object", "ttcp/9", "ttcp", "--type", "octet", "--buffer-bytes",
                              "1024", "--total-bytes", "1024"])
            ok &= bad is None
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=8)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                code = "killed after SIGTERM was ignored"
            print("server exit:", code)
            ok &= code == 0
    print("omni_bench_peers_smoke:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
