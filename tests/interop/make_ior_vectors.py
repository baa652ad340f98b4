#!/usr/bin/env python3
"""Writes stringified IORs made by omniORB, and Debian catior's reading of each, to tests/ior/vectors/.

usage: make_ior_vectors.py --server omni_server --out DIR

For each vector NAME: DIR/NAME.ior (the IOR string and a newline) and DIR/NAME.catior.txt (the
output of `catior -x -o IOR`: object key in hex, omniORB's extra details). The servers listen on
fixed loopback ports (21001-21007) so that a rerun gives the same IORs, except for the RootPOA
ones, whose transient keys change on every run. Every wait is bounded.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

# A fixed path, so that the IOR (which names it) is the same on every run; removed afterwards.
UNIX_SOCKET = "/tmp/switchyard-ior-vectors.sock"

# (vector prefix, server arguments, which objects to keep, what it shows)
SERVERS = [
    ("", ["--port", "21001"], {"echo": "echo", "ttcp/0": "ttcp0"},
     "omniORB INS POA, one endpoint 127.0.0.1:21001; key = object id; TAG_ORB_TYPE, TAG_CODE_SETS"),
    ("rootpoa_", ["--poa", "root", "--port", "21002"], {"echo": "echo", "ttcp/0": "ttcp0"},
     "omniORB RootPOA transient key (14 bytes, starting 0xfe; the middle bytes change on every "
     "run, so a regenerated file differs)"),
    ("multi_address_", ["-ORBendPoint", "giop:tcp:127.0.0.1:21003",
                        "-ORBendPoint", "giop:tcp:127.0.0.2:21004",
                        "-ORBendPoint", "giop:tcp:[::1]:21005",
                        "-ORBendPoint", "giop:unix:" + UNIX_SOCKET],
     {"echo": "echo"},
     "several -ORBendPoint options: the first in the profile, the others as "
     "TAG_ALTERNATE_IIOP_ADDRESS components (127.0.0.2, ::1) and omniORB's "
     "TAG_OMNIORB_UNIX_TRANS (host name and socket path)"),
    ("published_hostname_", ["--port", "21006",
                             "-ORBendPointPublish", "giop:tcp:localhost:21006"],
     {"ttcp/0": "ttcp0"},
     "-ORBendPointPublish giop:tcp:localhost:21006: a host name instead of an address"),
]

# genior (Debian omniORB's tool) makes an IOR for any host, port and key, no server needed.
GENIOR = [
    ("genior_ttcp0", ["IDL:ttcp_sequence:1.0", "127.0.0.1", "21001", "ttcp0"],
     "genior IDL:ttcp_sequence:1.0 127.0.0.1 21001 ttcp0 (IIOP 1.2, omniORB's default components)"),
    ("genior_hexkey", ["-x", "IDL:Integrity/Echo:1.0", "localhost", "2809", "0x00ff10fe7f"],
     "genior -x IDL:Integrity/Echo:1.0 localhost 2809 0x00ff10fe7f: binary object key, host name"),
]


def run_server(server, args, work, seconds=3):
    ior_file = os.path.join(work, "iors.txt")
    if os.path.exists(ior_file):
        os.remove(ior_file)
    proc = subprocess.Popen([server, "--ior-file", ior_file, "--seconds", str(seconds)] + args,
                            stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not os.path.exists(ior_file) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.wait(timeout=seconds + 20)
    if not os.path.exists(ior_file):
        raise RuntimeError("server %s wrote no IORs" % " ".join(args))
    with open(ior_file) as f:
        return dict(line.split() for line in f if line.strip())


def write_vector(out, name, ior, rows, what):
    with open(os.path.join(out, name + ".ior"), "w") as f:
        f.write(ior + "\n")
    catior = subprocess.run(["catior", "-x", "-o", ior], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=30)
    with open(os.path.join(out, name + ".catior.txt"), "w") as f:
        f.write(catior.stdout)
    rows.append((name, what))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="ior_vectors_") as work:
        for prefix, server_args, keep, what in SERVERS:
            iors = run_server(args.server, server_args, work)
            if os.path.exists(UNIX_SOCKET):
                os.remove(UNIX_SOCKET)
            for object_name, vector in keep.items():
                write_vector(args.out, prefix + vector, iors[object_name], rows,
                             what + " (object %s)" % object_name)
    for name, genior_args, what in GENIOR:
        result = subprocess.run(["genior"] + genior_args, stdout=subprocess.PIPE, text=True,
                                timeout=30, check=True)
        ior = next(w for w in result.stdout.split() if w.startswith("IOR:"))
        write_vector(args.out, name, ior, rows, what)
    with open(os.path.join(args.out, "index.tsv"), "w") as f:
        f.write("vector\tmade_by\n")
        for name, what in rows:
            f.write("%s\t%s\n" % (name, what))
    print("wrote %d IOR vectors into %s" % (len(rows), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
