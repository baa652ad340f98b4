#!/usr/bin/env python3
"""Runs omni_peer_client against omni_server over omniORB's SSL transport, on loopback.

usage: run_omni_ssl_pair.py SERVER CLIENT MAKE_CERTS
    SERVER = 'none' when omniORB or its SSL transport was missing at configure time: exit 77 (skip)
    MAKE_CERTS: scripts/make-tls-certs

Makes the certificates into a temporary directory, then:
- omni_server --ssl (SSL only): its IORs carry port 0 in the IIOP profile and the listening port
  in a TAG_SSL_SEC_TRANS component (checked by decoding the IOR here); omni_peer_client --ssl
  calls it with GIOP 1.0, 1.1 and 1.2, and through corbaloc:ssliop:127.0.0.1:P/echo;
- refusals: a client presenting omni-rogue.pem (signed by other-ca), one presenting the expired
  certificate, and one without --ssl must each fail (exit 1, COMM_FAILURE or TRANSIENT); a good
  client still succeeds afterwards, and the server exits 0 on SIGTERM;
- a server presenting omni-rogue.pem: a good client refuses it (TRANSIENT);
- omni_server --ssl --ssl-and-tcp: an SSL client and a plain TCP client both succeed.
Every wait is bounded.
"""
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

from peer_processes import SKIP, free_port, wait_for_file, run_client

CALLS = "noparams2way,noparams1way,octets:1000,structs:10,echo-all,bad-key,bad-op,non-existent"
TAG_INTERNET_IOP = 0
TAG_SSL_SEC_TRANS = 20
TAG_CSI_SEC_MECH_LIST = 33


class Cdr:
    """Reads a CDR encapsulation (its first octet is the byte order)."""

    def __init__(self, data):
        self.data = data
        self.pos = 1
        self.order = "<" if data[0] & 1 else ">"

    def align(self, n):
        self.pos = (self.pos + n - 1) // n * n

    def unpack(self, fmt, size):
        self.align(size)
        (value,) = struct.unpack_from(self.order + fmt, self.data, self.pos)
        self.pos += size
        return value

    def ulong(self):
        return self.unpack("I", 4)

    def ushort(self):
        return self.unpack("H", 2)

    def octet(self):
        value = self.data[self.pos]
        self.pos += 1
        return value

    def octets(self):
        length = self.ulong()
        value = self.data[self.pos:self.pos + length]
        self.pos += length
        return value

    def string(self):
        return self.octets().rstrip(b"\0").decode("latin-1")


def decode_ior(ior):
    """The IIOP profiles of a stringified IOR: a list of dicts (version, host, port, key,
    components as (tag, bytes))."""
    if not ior.startswith("IOR:"):
        raise ValueError("not an IOR: " + ior[:20])
    top = Cdr(bytes.fromhex(ior[4:]))
    result = {"type_id": top.string(), "profiles": []}
    for _ in range(top.ulong()):
        tag, data = top.ulong(), top.octets()
        if tag != TAG_INTERNET_IOP:
            result["profiles"].append({"tag": tag})
            continue
        body = Cdr(data)
        major, minor = body.octet(), body.octet()
        profile = {"tag": tag, "version": "%d.%d" % (major, minor), "host": body.string(),
                   "port": body.ushort(), "key": body.octets(), "components": []}
        if minor >= 1:
            for _ in range(body.ulong()):
                profile["components"].append((body.ulong(), body.octets()))
        result["profiles"].append(profile)
    return result


def ssl_component(data):
    """TAG_SSL_SEC_TRANS's SSLIOP::SSL: (target_supports, target_requires, port)."""
    body = Cdr(data)
    return body.ushort(), body.ushort(), body.ushort()


def check_ior(ior, profile_port, ssl_port):
    """Checks the IIOP profile's port and the TAG_SSL_SEC_TRANS component; ssl_port None: any
    port but 0. Prints what it found."""
    decoded = decode_ior(ior)
    profiles = [p for p in decoded["profiles"] if p["tag"] == TAG_INTERNET_IOP]
    if len(profiles) != 1:
        print("  FAILED: expected one IIOP profile, found", decoded["profiles"])
        return False
    profile = profiles[0]
    print("  %s IIOP %s %s:%d key %r" % (decoded["type_id"], profile["version"], profile["host"],
                                       profile["port"], profile["key"]))
    ok = profile["port"] == profile_port
    found = None
    for tag, data in profile["components"]:
        print("    component tag %d: %s" % (tag, data.hex()))
        if tag == TAG_SSL_SEC_TRANS:
            found = ssl_component(data)
            print("      TAG_SSL_SEC_TRANS supports 0x%x requires 0x%x port %d" % found)
        ok &= tag != TAG_CSI_SEC_MECH_LIST  # omniORB 4.2 writes none
    if found is None or found[2] == 0 or (ssl_port is not None and found[2] != ssl_port):
        ok = False
    if not ok:
        print("  FAILED: expected profile port %d and a TAG_SSL_SEC_TRANS component with port %s"
              % (profile_port, ssl_port if ssl_port is not None else "not 0"))
    return ok


def run_refused(client, args, seconds=30):
    """True when the client fails (exit 1) with COMM_FAILURE or TRANSIENT."""
    print("$", os.path.basename(client), " ".join(args), "   (must be refused)", flush=True)
    try:
        result = subprocess.run([client] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                timeout=seconds, text=True)
    except subprocess.TimeoutExpired:
        print("  FAILED: timed out after", seconds, "s")
        return False
    print("  " + result.stdout.strip().replace("\n", "\n  "))
    ok = result.returncode == 1 and ("COMM_FAILURE" in result.stdout or "TRANSIENT" in result.stdout)
    if not ok:
        print("  FAILED: expected exit 1 with COMM_FAILURE or TRANSIENT, got exit", result.returncode)
    return ok


def start_server(server, ior_file, args):
    """The server's output goes to IOR_FILE.log, printed when it stops (a sanitizer's report
    included)."""
    print("$", os.path.basename(server), "--ior-file", ior_file, " ".join(args), flush=True)
    with open(ior_file + ".log", "w") as log:
        return subprocess.Popen([server, "--ior-file", ior_file, "--seconds", "100"] + args,
                                stdout=log, stderr=subprocess.STDOUT)


def read_iors(ior_file):
    with open(ior_file) as f:
        return dict(line.split(None, 1) for line in f if line.strip())


def stop_server(proc, ior_file):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        code = "killed after SIGTERM was ignored"
    print("server exit:", code)
    with open(ior_file + ".log") as log:
        output = log.read().strip()
    if output:
        print("  server output:\n  " + output.replace("\n", "\n  "))
    return code == 0


def ssl_only(server, client, certs, work):
    ior_file = os.path.join(work, "iors.txt")
    port = free_port()
    proc = start_server(server, ior_file, ["--servants", "2", "--port", str(port), "--ssl", certs])
    ok = True
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("server did not write", ior_file)
            return False
        iors = read_iors(ior_file)
        print("server objects:", list(iors))
        ok &= list(iors) == ["echo", "ttcp/0", "ttcp/1"]
        for name in iors:
            ok &= check_ior(iors[name].strip(), 0, port)
        ssl = ["--ssl", certs]
        for version in ["1.0", "1.1", "1.2"]:
            ok &= run_client(client, ["--ior-file", ior_file, "--call", CALLS, "--count", "3",
                                      "-ORBmaxGIOPVersion", version] + ssl)
        ok &= run_client(client, ["--ior-file", ior_file, "--object", "ttcp/1",
                                  "--call", "noparams2way,octets:100000", "--count", "2"] + ssl)
        ok &= run_client(client, ["--ior", "corbaloc:ssliop:127.0.0.1:%d/echo" % port,
                                  "--call", "echo:echo_long,echo:twist"] + ssl)
        # Refused: a certificate of a CA the server does not trust, an expired one, none at all.
        ok &= run_refused(client, ["--ior-file", ior_file, "--call", "noparams2way,echo:echo_long",
                                   "--ssl", certs, "--ssl-key", os.path.join(certs, "omni-rogue.pem")])
        ok &= run_refused(client, ["--ior-file", ior_file, "--call", "noparams2way",
                                   "--ssl", certs, "--ssl-key", os.path.join(certs, "omni-expired.pem")])
        ok &= run_refused(client, ["--ior-file", ior_file, "--call", "noparams2way"])
        # The server is still there for a good client.
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all,noparams2way",
                                  "--count", "2"] + ssl)
    finally:
        ok &= stop_server(proc, ior_file)
    return ok


def rogue_server(server, client, certs, work):
    ior_file = os.path.join(work, "iors-rogue.txt")
    proc = start_server(server, ior_file, ["--port", str(free_port()), "--ssl", certs,
                                           "--ssl-key", os.path.join(certs, "omni-rogue.pem")])
    ok = True
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("server did not write", ior_file)
            return False
        ok &= run_refused(client, ["--ior-file", ior_file, "--call", "noparams2way", "--ssl", certs])
    finally:
        ok &= stop_server(proc, ior_file)
    return ok


def ssl_and_tcp(server, client, certs, work):
    ior_file = os.path.join(work, "iors-both.txt")
    port = free_port()
    proc = start_server(server, ior_file, ["--port", str(port), "--ssl", certs, "--ssl-and-tcp"])
    ok = True
    try:
        if not wait_for_file(ior_file, proc, 20):
            print("server did not write", ior_file)
            return False
        iors = read_iors(ior_file)
        ok &= check_ior(iors["echo"].strip(), port, None)
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all,noparams2way",
                                  "--ssl", certs])
        ok &= run_client(client, ["--ior-file", ior_file, "--call", "echo-all,noparams2way"])
        ok &= run_client(client, ["--ior", "corbaloc::127.0.0.1:%d/echo" % port,
                                  "--call", "echo:echo_long"])
    finally:
        ok &= stop_server(proc, ior_file)
    return ok


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    server, client, make_certs = sys.argv[1:]
    if server == "none":
        print("omniORB or its SSL transport (libomnisslTP4, libssl-dev) not found at configure time: skipping")
        return SKIP
    if shutil.which("openssl") is None:
        print("the openssl command is not installed: skipping")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="omni_ssl_pair_") as work:
        certs = os.path.join(work, "certs")
        made = subprocess.run(["bash", make_certs, certs], timeout=60)
        if made.returncode != 0:
            print("make-tls-certs failed:", made.returncode)
            return 1
        ok = ssl_only(server, client, certs, work)
        ok &= rogue_server(server, client, certs, work)
        ok &= ssl_and_tcp(server, client, certs, work)
    print("omni_ssl_pair:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
