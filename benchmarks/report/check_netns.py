#!/usr/bin/env python3
"""sy-bench --netns and --link, end to end (suite 'netns'):

  not-root  as another user, `sy-bench ttcp --netns` stops with a clear message naming root and
            makes nothing (run as root, the check drops to `nobody` with setpriv; run as another
            user it runs sy-bench directly);
  link      as root, and only when SY_BENCH_NETNS_TESTS=1 (it makes network namespaces, veth pairs
            and tc qdiscs, which a test run should not do unasked): `sy-bench ttcp --quick --netns
            --link 155mbit --series switchyard,socket` writes ttcp.csv with link 155mbit, and leaves
            no namespace, interface or process behind;
  interrupt as root, with SY_BENCH_NETNS_TESTS=1: `sy-bench demux --netns` stopped by SIGINT once
            its namespaces exist leaves none behind.

Skipped parts print why; exit status 77 when every part was skipped. Standard library only.
Usage: check_netns.py SY_BENCH OUT_DIR
"""
import csv
import os
import shutil
import signal
import subprocess
import sys
import time


def fail(message):
    print(f"check_netns: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def namespaces_of(pid):
    try:
        names = os.listdir("/var/run/netns")
    except FileNotFoundError:
        return []
    return [n for n in names if n.startswith(f"sy-bench-{pid}-")]


def not_root(sy_bench, out):
    argv = [sy_bench, "ttcp", "--quick", "--netns", "--out", os.path.join(out, "not-root")]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            print("check_netns: not-root skipped: no setpriv to drop to nobody")
            return False
        argv = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + argv
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if run.returncode == 0:
        fail("sy-bench --netns ran without root")
    if "root" not in run.stderr:
        fail(f"the message does not say root is needed: {run.stderr.strip()}")
    print(f"check_netns: not-root ok: {run.stderr.strip().splitlines()[-1]}")
    return True


def link(sy_bench, out):
    folder = os.path.join(out, "link")
    shutil.rmtree(folder, ignore_errors=True)
    process = subprocess.Popen([sy_bench, "ttcp", "--quick", "--netns", "--link", "155mbit", "--series",
                                "switchyard,socket", "--out", folder])
    try:
        status = process.wait(timeout=170)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        fail("sy-bench ttcp --netns --link 155mbit did not end within 170 s")
    if status != 0:
        fail(f"sy-bench ttcp --netns --link 155mbit exited with {status}")
    with open(os.path.join(folder, "ttcp.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if {r["series"] for r in rows} != {"switchyard", "socket"}:
        fail(f"ttcp.csv series: {sorted({r['series'] for r in rows})}")
    if {r["link"] for r in rows} != {"155mbit"}:
        fail(f"ttcp.csv link column: {sorted({r['link'] for r in rows})}")
    if {r["socket_queue_bytes"] for r in rows} != {"8192", "65536"}:
        fail(f"over a link the quick run measures 8 K and 64 K queues: {sorted({r['socket_queue_bytes'] for r in rows})}")
    left = namespaces_of(process.pid)
    if left:
        fail(f"namespaces left behind: {left}")
    print(f"check_netns: link ok: {len(rows)} rows over 155mbit, nothing left behind")


def interrupt(sy_bench, out):
    process = subprocess.Popen([sy_bench, "demux", "--quick", "--netns", "--out", os.path.join(out, "interrupt")],
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(namespaces_of(process.pid)) < 3:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            fail("sy-bench demux --netns never made its three namespaces")
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("sy-bench did not end within 30 s of SIGINT")
    left = namespaces_of(process.pid)
    if left:
        fail(f"namespaces left behind after SIGINT: {left}")
    print(f"check_netns: interrupt ok: exit status {process.returncode}, nothing left behind")


def main():
    sy_bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    ran = not_root(sy_bench, out)
    if os.geteuid() != 0:
        print("check_netns: link and interrupt skipped: not root")
    elif os.environ.get("SY_BENCH_NETNS_TESTS") != "1":
        print("check_netns: link and interrupt skipped: set SY_BENCH_NETNS_TESTS=1 to let the test make "
              "network namespaces")
    else:
        link(sy_bench, out)
        interrupt(sy_bench, out)
        ran = True
    sys.exit(0 if ran else 77)


if __name__ == "__main__":
    main()
