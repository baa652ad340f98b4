#!/usr/bin/env python3
"""Runs omni_peer_client against omni_server on loopback, for GIOP 1.0, 1.1 and 1.2.

usage: run_omni_pair.py SERVER CLIENT     (SERVER = 'none' when omniORB is missing: exit 77, skip)

Proves the omniORB peers work before anything else relies on them. Every wait is bounded.
"""
import os
import signal
import subprocess
import sys
import tempfile

from peer_processes import SKIP, free_port, wait_for_file, run_client

CALLS = "noparams2way,noparams1way,octets:1000,structs:10,echo-all,bad-key,bad-op,non-existent"


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    server, client = sys.argv[1:]
    if server == "none":
        print("omniORB (libomniorb4-dev, omniidl) not found at configure time: skipping")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="omni_pair_") as work:
        ior_file = os.path.join(work, "iors.txt")
        port = free_port()
        proc = subprocess.Popen([server, "--ior-file", ior_file, "--servants", "2",
                                 "--port", str(port), "--seconds", "100"])
        ok = True
        try:
            if not wait_for_file(ior_file, proc, 20):
                print("server did not write", ior_file)
                return 1
            with open(ior_file) as f:
                names = [line.split()[0] for line in f if line.strip()]
            print("server objects:", names)
            ok &= names == ["echo", "ttcp/0", "ttcp/1"]
            for version in ["1.0", "1.1", "1.2"]:
                ok &= run_client(client, ["--ior-file", ior_file, "--call", CALLS, "--count", "3",
                                          "-ORBmaxGIOPVersion", version])
            ok &= run_client(client, ["--ior-file", ior_file, "--object", "ttcp/1",
                                      "--call", "noparams2way,octets:100000", "--count", "2"])
            ok &= run_client(client, ["--ior", "corbaloc::1.2@127.0.0.1:%d/echo" % port,
                                      "--call", "echo:echo_long,echo:twist"])
            ok &= run_client(client, ["--ior", "corbaloc::127.0.0.1:%d/ttcp0" % port,
                                      "--call", "noparams2way,bad-key"])
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                code = "killed after SIGTERM was ignored"
            print("server exit:", code)
            ok &= code == 0
    print("omni_pair:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
