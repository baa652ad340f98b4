#!/usr/bin/env python3
"""omniORB's client against our server: omni_peer_client drives sy_peer_server on loopback.

usage: run_omni_client_sy_server.py SY_SERVER OMNI_CLIENT [--reconnect | --contexts | --ami]
       (OMNI_CLIENT = 'none': exit 77, skip)

For each of our servant demultiplexing strategies (linear, dynamic, perfect, active) a fresh
sy_peer_server serves two ttcp_sequence objects; omniORB calls them with GIOP 1.0, 1.1 and 1.2
(-ORBmaxGIOPVersion), through the IOR and through corbaloc (our plain keys), with its default
LocateRequest before first use and once without it (-ORBverifyObjectExistsAndType 0). A last
server offers GIOP 1.0 IORs (-ORBGIOPVersion 1.0) and serves from a thread pool. After SIGTERM each
server must exit 0 and its counts must show every payload intact and every one-way delivered.
Every wait is bounded; every process started is killed on the way out.

--reconnect only runs four omniORB clients one after the other against one server with the default
reactor (dev_poll): each client is a new connection, closed when the client exits.
It guards a fixed bug: the server once closed a connection's socket before taking it out of the
epoll reactor, so the next connection that got the same descriptor number was never served.

--contexts only checks service contexts across the two ORBs' interceptors (issue 25): omniORB's
client adds a context through its own hooks (omni_peer_client --send-context), our server's
portable interceptor (sy_peer_server --echo-context) reads it and answers with a reply context,
which omniORB's hooks must read back, at GIOP 1.0, 1.1 and 1.2. A context id the server does not
echo must make the client's check fail (the check can fail).

--ami: OMNI_CLIENT is omni_ami_client, omniORB's asynchronous client from its own -Wbami stubs
(issue 25): its sendc_ calls, many outstanding on one connection, and a sendp_ poller, against our
Integrity::Echo (sy_peer_server --dsi-echo) at GIOP 1.0, 1.1 and 1.2.
"""
import os
import re
import subprocess
import sys
import tempfile

from peer_processes import SKIP, wait_for_file, run_client, stop

CALLS = ("noparams2way,noparams1way,octets:0,octets:1,octets:1000,octets:100000,"
         "structs:0,structs:1,structs:100,bad-key,bad-op,non-existent")
COUNT = 3
VERSIONS = ["1.0", "1.1", "1.2"]

# (servant demux, operation demux, extra server options)
SERVERS = [
    ("linear", "linear", []),
    ("dynamic", "dynamic", []),
    ("perfect", "perfect", []),
    ("active", "active", []),
    ("active", "perfect", ["-ORBGIOPVersion", "1.0", "-ORBThreads", "2"]),
]


def check_counts(output, oneways_to_ttcp0):
    """The servants' own view: no bad payload, every one-way arrived, both objects were called."""
    counts = {}
    for m in re.finditer(r"^counts (\S+) (.*)$", output, re.M):
        counts[m.group(1)] = {k: int(v) for k, v in (kv.split("=") for kv in m.group(2).split())}
    print("  server counts:", counts)
    ok = set(counts) == {"ttcp/0", "ttcp/1"}
    for name, c in counts.items():
        if c["bad"] != 0:
            print("  FAILED:", name, "received", c["bad"], "payload(s) that differ from what was sent")
            ok = False
        if c["twoway"] == 0:
            print("  FAILED:", name, "was never called")
            ok = False
    if counts.get("ttcp/0", {}).get("oneway") != oneways_to_ttcp0:
        print("  FAILED: ttcp/0 should have received", oneways_to_ttcp0, "one-way calls")
        ok = False
    return ok


def one_server(server, client, work, servant_demux, operation_demux, extra):
    print("=== sy_peer_server -ORBServantDemux", servant_demux, "-ORBOperationDemux", operation_demux,
          " ".join(extra), flush=True)
    ior_file = os.path.join(work, "iors-%s-%s.txt" % (servant_demux, operation_demux))
    proc = subprocess.Popen([server, "--ior-file", ior_file, "--servants", "2", "--seconds", "100",
                             "--counts", "-ORBServantDemux", servant_demux,
                             "-ORBOperationDemux", operation_demux] + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok = True
    oneways = 0
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("FAILED: server did not write", ior_file)
            return False
        with open(ior_file) as f:
            lines = dict(line.split(None, 1) for line in f if line.strip())
        port = int(lines["endpoint"].strip().rsplit(":", 1)[1])
        for version in VERSIONS:
            ok &= run_client(client, ["--ior-file", ior_file, "--call", CALLS, "--count", str(COUNT),
                                      "-ORBmaxGIOPVersion", version])
            oneways += COUNT
        # No LocateRequest before first use; the second object.
        ok &= run_client(client, ["--ior-file", ior_file, "--object", "ttcp/1",
                                  "--call", "noparams2way,octets:100000,structs:10,bad-key,bad-op",
                                  "--count", "2", "-ORBverifyObjectExistsAndType", "0"])
        # corbaloc: our plain keys, with and without a version, with and without LocateRequest.
        ok &= run_client(client, ["--ior", "corbaloc::127.0.0.1:%d/ttcp0" % port,
                                  "--call", "noparams2way,noparams1way,octets:1000,bad-key,bad-op,non-existent"])
        oneways += 1
        ok &= run_client(client, ["--ior", "corbaloc::1.0@127.0.0.1:%d/ttcp1" % port,
                                  "--call", "noparams2way,structs:5,non-existent",
                                  "-ORBmaxGIOPVersion", "1.0", "-ORBverifyObjectExistsAndType", "0"])
        ok &= run_client(client, ["--ior", "corbaloc::1.1@127.0.0.1:%d/ttcp1" % port,
                                  "--call", "noparams2way,octets:100000", "-ORBmaxGIOPVersion", "1.1"])
        # A corbaloc key nobody bound: OBJECT_NOT_EXIST, from the LocateRequest and from a request.
        for verify in ["1", "0"]:
            ok &= run_client(client, ["--ior", "corbaloc::127.0.0.1:%d/nothing" % port,
                                      "--call", "noparams2way", "-ORBverifyObjectExistsAndType", verify],
                             expect_failure="OBJECT_NOT_EXIST")
    finally:
        code, output = stop(proc)
    print("  " + output.strip().replace("\n", "\n  "))
    print("  server exit:", code)
    if code != 0:
        print("  FAILED: server exit code", code)
        ok = False
    ok &= check_counts(output, oneways)
    return ok


def with_server(server, work, name, options, body):
    """Starts sy_peer_server with `options`, runs body(ior_file) once it has written its IORs,
    stops it: True when the body passed and the server exited 0."""
    ior_file = os.path.join(work, "iors-" + name + ".txt")
    proc = subprocess.Popen([server, "--ior-file", ior_file, "--seconds", "100"] + options,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("FAILED: server did not write", ior_file)
            return False
        ok = body(ior_file)
    finally:
        code, output = stop(proc)
    print("  " + output.strip().replace("\n", "\n  "))
    print("  server exit:", code)
    return ok and code == 0


def reconnect(server, client, work):
    """Four clients in turn, each on a new connection, against the default reactor."""
    def clients(ior_file):
        ok = True
        for _ in range(4):
            ok &= run_client(client, ["--ior-file", ior_file, "--call", "noparams2way"], seconds=10)
        return ok
    return with_server(server, work, "reconnect", ["--counts"], clients)


CONTEXT_ID = 700000


def contexts(server, client, work):
    """omniORB's request context reaches our server interceptor; its reply context comes back."""
    def clients(ior_file):
        ok = True
        for version in VERSIONS:
            ok &= run_client(client, ["--ior-file", ior_file, "--call", "noparams2way,octets:1000",
                                      "--send-context", str(CONTEXT_ID), "omni-ping " + version,
                                      "--expect-reply-context", "switchyard saw: omni-ping " + version,
                                      "-ORBmaxGIOPVersion", version])
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "noparams2way",
                                  "--send-context", str(CONTEXT_ID + 2), "not echoed",
                                  "--expect-reply-context", "switchyard saw: not echoed"],
                         expect_failure="reply context '', expected")
        return ok
    return with_server(server, work, "contexts", ["--echo-context", str(CONTEXT_ID)], clients)


def ami(server, client, work):
    """omniORB's AMI client: every reply to its sendc_ and sendp_ calls comes back right."""
    def clients(ior_file):
        with open(ior_file) as f:
            echo = [line.split()[1] for line in f if line.startswith("echo ")]
        if not echo:
            print("FAILED: no echo line in", ior_file)
            return False
        ok = True
        for version in VERSIONS:
            ok &= run_client(client, [echo[0], "-ORBmaxGIOPVersion", version])
        return ok
    return with_server(server, work, "ami", ["--dsi-echo"], clients)


def main():
    args = [a for a in sys.argv[1:] if a not in ("--reconnect", "--contexts", "--ami")]
    if len(args) != 2:
        print(__doc__)
        return 2
    server, client = args
    if client == "none":
        print("omniORB (libomniorb4-dev, omniidl) not found at configure time: skipping")
        return SKIP
    if "--reconnect" in sys.argv:
        with tempfile.TemporaryDirectory(prefix="omni_sy_") as work:
            ok = reconnect(server, client, work)
        print("omni_reconnect_sy_server:", "passed" if ok else "FAILED")
        return 0 if ok else 1
    if "--ami" in sys.argv:
        with tempfile.TemporaryDirectory(prefix="omni_sy_") as work:
            ok = ami(server, client, work)
        print("omni_ami_client_sy_server:", "passed" if ok else "FAILED")
        return 0 if ok else 1
    if "--contexts" in sys.argv:
        with tempfile.TemporaryDirectory(prefix="omni_sy_") as work:
            ok = contexts(server, client, work)
        print("omni_contexts_sy_server:", "passed" if ok else "FAILED")
        return 0 if ok else 1
    ok = True
    with tempfile.TemporaryDirectory(prefix="omni_sy_") as work:
        for servant_demux, operation_demux, extra in SERVERS:
            ok &= one_server(server, client, work, servant_demux, operation_demux, extra)
    print("omni_client_sy_server:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
