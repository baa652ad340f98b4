#!/usr/bin/env python3
"""omniORB's client against our DSI: omni_peer_client calls every Integrity::Echo operation on the
dynamic Echo servant of sy_peer_server --dsi-echo, on loopback.

usage: run_omni_client_sy_dsi.py SY_SERVER OMNI_CLIENT   (OMNI_CLIENT = 'none': exit 77, skip)

For each demultiplexing strategy (servant and operation alike: linear, dynamic, perfect, active;
and active with GIOP 1.0 IORs and a thread pool), a fresh server; omniORB calls `echo-all` (every
Echo operation with checked values, wstrings in GIOP 1.2 only, the Refused exception, the
attributes) with GIOP 1.0, 1.1 and 1.2, with and without its LocateRequest before first use, and
through the plain key (corbaloc) with an operation Echo lacks and _non_existent. After SIGTERM the server must exit 0 having served calls. Every
wait is bounded; every process started is killed on the way out.
"""
import os
import re
import subprocess
import sys
import tempfile

from peer_processes import SKIP, wait_for_file, run_client, stop

VERSIONS = ["1.0", "1.1", "1.2"]
# (strategy, extra server options, the client's GIOP versions). A server whose IORs say GIOP 1.0
# carries no code sets, and omniORB then refuses to send wstrings (INV_OBJREF) whatever version it
# speaks: such a server is called with 1.0 and 1.1 only, where echo-all leaves echo_wstring out.
SERVERS = [
    ("linear", [], VERSIONS),
    ("dynamic", [], VERSIONS),
    ("perfect", [], VERSIONS),
    ("active", [], VERSIONS),
    ("active", ["-ORBGIOPVersion", "1.0", "-ORBThreads", "2"], ["1.0", "1.1"]),
]


def one_server(server, client, work, strategy, extra, versions):
    print("=== sy_peer_server --dsi-echo -ORBServantDemux", strategy, "-ORBOperationDemux", strategy,
          " ".join(extra), flush=True)
    ior_file = os.path.join(work, "iors-%s-%d.txt" % (strategy, len(extra)))
    proc = subprocess.Popen([server, "--ior-file", ior_file, "--dsi-echo", "--seconds", "100", "--counts",
                             "-ORBServantDemux", strategy, "-ORBOperationDemux", strategy] + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok = True
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("FAILED: server did not write", ior_file)
            return False
        with open(ior_file) as f:
            lines = dict(line.split(None, 1) for line in f if line.strip())
        port = int(lines["endpoint"].strip().rsplit(":", 1)[1])
        for version in versions:
            ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all", "--count", "2",
                                      "-ORBmaxGIOPVersion", version])
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all",
                                  "-ORBmaxGIOPVersion", versions[-1], "-ORBverifyObjectExistsAndType", "0"])
        # The plain key; an operation Echo lacks (BAD_OPERATION from the servant); _non_existent.
        ok &= run_client(client, ["--ior", "corbaloc::127.0.0.1:%d/echo" % port,
                                  "--call", "echo:echo_record,echo:echo_any,echo:refuse,bad-op,non-existent"])
    finally:
        code, out = stop(proc)
    print("  " + out.strip().replace("\n", "\n  "))
    if code != 0:
        print("FAILED: server exit", code)
        return False
    served = re.search(r"^counts echo served=(\d+)$", out, re.M)
    if not served or int(served.group(1)) == 0:
        print("FAILED: the DSI servant served nothing")
        return False
    return ok


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    server, client = sys.argv[1], sys.argv[2]
    if client == "none" or not os.path.exists(client):
        print("omniORB's peer client was not built: skipping")
        return SKIP
    ok = True
    with tempfile.TemporaryDirectory(prefix="sy_dsi_") as work:
        for strategy, extra, versions in SERVERS:
            ok &= one_server(server, client, work, strategy, extra, versions)
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
