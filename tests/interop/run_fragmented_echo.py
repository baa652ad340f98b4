#!/usr/bin/env python3
"""omniORB clients send fragmented GIOP 1.1 requests to our server: the values come back as sent,
or the call is refused with MARSHAL; never other values (issue 9, item 8).

usage: run_fragmented_echo.py SY_BENCH OMNI_CLIENT IDL [OMNIPY_PYTHON]
       (OMNI_CLIENT = 'none': exit 77, skip)

Starts `sy-bench server` (its Integrity::Echo) on loopback and has omniORB echo 1024 doubles,
1024 Records and 1024 NARecords. omniORB fragments a request in 8 KB pieces, so each of these
goes out as a Request and Fragments:

- Debian's omniORB 4.2.5 C++ client (omni_peer_client) with -ORBmaxGIOPVersion 1.1: the Records
  and NARecords back as sent (our reader realigns per Fragment, as omniORB's does); the doubles,
  which omniORB writes as one block and omniORBpy element by element, refused with CORBA::MARSHAL
  (--refused-ok); values that differ, or any other refusal, fail the test. Then GIOP 1.2, where
  fragments keep their alignment: every value back, no refusal allowed.
- omniORBpy 4.3.3 (PyPI, the client of the report) when OMNIPY_PYTHON exists (scripts/install-deps
  makes build/omnipy-venv): the same, at 1.1 and 1.2. Without it that half is reported skipped.

Last, a plain call on a new connection shows the server still serves. Every wait is bounded;
the server is stopped on the way out and must exit 0.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
CALLS_CXX = "echo-doubles:1024,echo-records:1024,echo-narecords:1024"
CALLS_PY = "doubles:1024,records:1024,narecords:1024"


def run(argv, seconds=90):
    print("$", " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv)), flush=True)
    try:
        result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                timeout=seconds, text=True)
    except subprocess.TimeoutExpired:
        print("  timed out after %d s" % seconds)
        return False, ""
    print(result.stdout, end="", flush=True)
    return result.returncode == 0, result.stdout


def only_doubles_refused(out):
    """Only a sequence of doubles may be refused: every other value reads across Fragments."""
    wrong = [line for line in out.splitlines() if line.startswith("refused ") and "doubles" not in line]
    for line in wrong:
        print("  refused, but should read exactly: " + line)
    return not wrong


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    sy_bench, client, idl = sys.argv[1:4]
    omnipy = sys.argv[4] if len(sys.argv) > 4 else ""
    if client == "none" or not os.path.exists(client):
        print("omniORB's client not built: skipped")
        return SKIP

    work = tempfile.mkdtemp(prefix="sy-fragmented-echo-")
    ior_file = os.path.join(work, "iors.txt")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen([sy_bench, "server", "--ior-file", ior_file], stdout=log, stderr=log)
    ok = True
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(ior_file) and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        lines = dict(line.split(" ", 1) for line in open(ior_file).read().splitlines() if " " in line)
        url = lines["url/echo"].strip()  # corbaloc:iiop:1.2@127.0.0.1:P/KEY
        m = re.match(r"corbaloc:iiop:1\.2@([^/]+)/(.*)", url)
        address, key = m.group(1), m.group(2)

        refusals = 0
        for version in ["1.1", "1.2"]:
            target = "corbaloc::%s@%s/%s" % (version, address, key)
            calls_ok, out = run([client, "--ior", target, "--call", CALLS_CXX, "-ORBmaxGIOPVersion", version]
                                + (["--refused-ok"] if version == "1.1" else []))
            ok &= calls_ok and only_doubles_refused(out)
            refusals += out.count("refused ")
        if omnipy and os.path.exists(omnipy):
            for version in ["1.1", "1.2"]:
                target = "corbaloc::%s@%s/%s" % (version, address, key)
                calls_ok, out = run([omnipy, os.path.join(os.path.dirname(__file__), "omnipy_echo_client.py"),
                                     "--ior", target, "--idl", idl, "--call", CALLS_PY,
                                     "-ORBmaxGIOPVersion", version]
                                    + (["--refused-ok"] if version == "1.1" else []))
                ok &= calls_ok and only_doubles_refused(out)
                refusals += out.count("refused ")
        else:
            print("omniORBpy not installed (%s): its half skipped; scripts/install-deps installs it"
                  % (omnipy or "no path given"))
        print("fragmented 1.1 requests refused with MARSHAL: %d" % refusals)

        # The server still serves, on a new connection.
        calls_ok, _ = run([client, "--ior", "corbaloc::1.2@%s/%s" % (address, key),
                           "--call", "echo:echo_doubles,echo:echo_records", "-ORBmaxGIOPVersion", "1.2"])
        ok &= calls_ok
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            status = server.wait(timeout=10)
        log.close()
        if status != 0:
            print("sy-bench server exited with %s" % status)
            print(open(os.path.join(work, "server.log")).read())
            ok = False
    print("run_fragmented_echo: %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
