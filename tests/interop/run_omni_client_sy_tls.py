#!/usr/bin/env python3
"""omniORB's client over its SSL transport against our server over TLS (ssliop).

usage: run_omni_client_sy_tls.py SY_SERVER OMNI_CLIENT MAKE_TLS_CERTS
       (OMNI_CLIENT = 'none': exit 77, skip)

Certificates come from scripts/make-tls-certs in a temporary directory. In each concurrency model
sy_peer_server listens on ssliop:// only, requires client certificates signed by the test CA, and
serves two ttcp_sequence objects and the DSI Echo; omniORB's client (its own CA file and
certificate, libomnisslTP4) calls them through the IORs (which carry TAG_SSL_SEC_TRANS and port 0)
and through corbaloc:ssliop. A client with another CA's certificate, and one with an expired
certificate, are refused during the handshake; a good client is served after them. One server
offers TLS and plain together: omniORB calls it over SSL. After SIGTERM each server must exit 0 with
every payload intact. Every wait is bounded; every process started is killed on the way out.
"""
import os
import re
import subprocess
import sys
import tempfile

from peer_processes import SKIP, wait_for_file, run_client, stop

MODELS = [
    ["-ORBConcurrency", "adaptive"],
    ["-ORBConcurrency", "adaptive", "-ORBDedicatedThreads", "0"],
    ["-ORBConcurrency", "reactive"],
    ["-ORBConcurrency", "thread-per-connection"],
    ["-ORBThreads", "3"],
]
CALLS = "noparams2way,noparams1way,octets:0,octets:100000,octets:1000000,structs:1000,bad-key,bad-op,non-existent"


def tls_server_options(certs, clients="require"):
    return ["-ORBTLSCertificate", os.path.join(certs, "server.pem"),
            "-ORBTLSPrivateKey", os.path.join(certs, "server.key"),
            "-ORBTLSCAFile", os.path.join(certs, "ca.pem"),
            "-ORBTLSClientCertificates", clients]


def counts_ok(output):
    ok = True
    for m in re.finditer(r"^counts (\S+) (.*)$", output, re.M):
        c = {k: int(v) for k, v in (kv.split("=") for kv in m.group(2).split())}
        if c.get("bad", 0) != 0:
            print("  FAILED:", m.group(1), "received", c["bad"], "bad payload(s)")
            ok = False
    return ok


def one_server(server, client, work, certs, extra, endpoints):
    print("=== sy_peer_server", " ".join(endpoints), " ".join(extra), flush=True)
    ior_file = os.path.join(work, "iors-%d.txt" % abs(hash(tuple(extra + endpoints))))
    args = [server, "--ior-file", ior_file, "--servants", "2", "--seconds", "100", "--counts", "--dsi-echo"]
    for endpoint in endpoints:
        args += ["-ORBListenEndpoints", endpoint]
    proc = subprocess.Popen(args + tls_server_options(certs) + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok = True
    ssl = ["--ssl", certs]
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("FAILED: server did not write", ior_file)
            return False
        with open(ior_file) as f:
            lines = [line.split(None, 1) for line in f if line.strip()]
        tls_port = [int(v.strip().rsplit(":", 1)[1]) for k, v in lines if k == "endpoint" and "ssliop" in v][0]
        ok &= run_client(client, ["--ior-file", ior_file, "--call", CALLS, "--count", "2"] + ssl)
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all"] + ssl)
        ok &= run_client(client, ["--ior", "corbaloc:ssliop:127.0.0.1:%d/ttcp1" % tls_port,
                                  "--call", "noparams2way,octets:1000"] + ssl)
        # With a plain port beside it, omniORB may go on over TCP after a refused handshake.
        for refused in ([] if len(endpoints) > 1 else ["omni-rogue.pem", "omni-expired.pem"]):
            ok &= run_client(client, ["--ior-file", ior_file, "--call", "noparams2way", "--ssl-key",
                                      os.path.join(certs, refused)] + ssl, expect_failure="COMM_FAILURE")
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "noparams2way,structs:10"] + ssl)
    finally:
        code, output = stop(proc)
    print("  " + output.strip().replace("\n", "\n  "))
    if code != 0:
        print("  FAILED: server exit code", code)
        ok = False
    return ok and counts_ok(output)


def main():
    server, client, make_certs = sys.argv[1], sys.argv[2], sys.argv[3]
    if client == "none":
        print("omniORB's SSL transport was not found at configure time: skipping")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="sy_omni_tls_") as work:
        certs = os.path.join(work, "certs")
        subprocess.run([make_certs, certs], check=True, stdout=subprocess.DEVNULL, timeout=60)
        ok = True
        for extra in MODELS:
            ok &= one_server(server, client, work, certs, extra, ["ssliop://127.0.0.1:0"])
        ok &= one_server(server, client, work, certs, [], ["iiop://127.0.0.1:0", "ssliop://127.0.0.1:0"])
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
