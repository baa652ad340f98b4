#!/usr/bin/env python3
"""omniORBpy's client for Integrity::Echo: sends N values and checks every one that comes back.

    omnipy_echo_client.py --ior IOR|corbaloc --idl idl/integrity.idl
                          --call doubles:N,records:N,narecords:N [--refused-ok] [-ORB<option> <value> ...]

Run with the Python of a venv holding omniORBpy (scripts/install-deps makes build/omnipy-venv
with PyPI's jeteve-omniorb, omniORB 4.3.3). The stubs are generated from --idl with that venv's
omniidl into a temporary directory. Exit 0 only when every call returned exactly the values sent;
with --refused-ok a call refused with CORBA.MARSHAL counts too (printed as "refused"). The values
are the ones in tests/giop/captures/fragment_alignment/README.md.
"""
import os
import subprocess
import sys
import tempfile


def record(Integrity, i):
    return Integrity.Record(l=i * 1000 + 7, d=i + 0.25, s=(i % 30000) - 7, o=i % 256,
                            f=float(i % 1000) + 0.5, c=chr(65 + i % 26), b=bool(i & 1))


def narecord(Integrity, i):
    return Integrity.NARecord(o=(i * 3) % 256, d=-1.5 * i, c=chr(97 + i % 26), ll=(i << 33) + 5,
                              s=(i % 1000) - 500)


def main():
    args = sys.argv[1:]
    ior = idl = None
    calls = []
    refused_ok = False
    orb_args = ["omnipy_echo_client"]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--ior":
            ior = args[i + 1]; i += 2
        elif a == "--idl":
            idl = args[i + 1]; i += 2
        elif a == "--call":
            calls += [c for c in args[i + 1].split(",") if c]; i += 2
        elif a == "--refused-ok":
            refused_ok = True; i += 1
        elif a.startswith("-ORB"):
            orb_args += args[i:i + 2]; i += 2
        else:
            print("omnipy_echo_client: unknown argument " + a, file=sys.stderr)
            return 2
    if not ior or not idl or not calls:
        print(__doc__, file=sys.stderr)
        return 2

    stubs = tempfile.mkdtemp(prefix="omnipy-stubs-")
    omniidl = os.path.join(os.path.dirname(sys.executable), "omniidl")
    subprocess.run([omniidl, "-bpython", "-C" + stubs, idl], check=True, timeout=60)
    sys.path.insert(0, stubs)
    from omniORB import CORBA
    import Integrity

    orb = CORBA.ORB_init(orb_args, CORBA.ORB_ID)
    echo = orb.string_to_object(ior)._narrow(Integrity.Echo)
    failures = 0
    for call in calls:
        op, _, count = call.partition(":")
        n = int(count or "1")
        try:
            if op == "doubles":
                sent = [0.125 + 1.5 * k for k in range(n)]
                back = echo.echo_doubles(sent)
                same = list(back) == sent
            elif op == "records":
                sent = [record(Integrity, k) for k in range(n)]
                back = echo.echo_records(sent)
                same = len(back) == n and all(vars(a) == vars(b) for a, b in zip(back, sent))
            elif op == "narecords":
                sent = [narecord(Integrity, k) for k in range(n)]
                back = echo.echo_narecords(sent)
                same = len(back) == n and all(vars(a) == vars(b) for a, b in zip(back, sent))
            else:
                print("FAIL  %s: unknown call" % call)
                failures += 1
                continue
            if same:
                print("ok    %s" % call)
            else:
                print("FAIL  %s: values differ" % call)
                failures += 1
        except CORBA.MARSHAL as ex:
            if refused_ok:
                print("refused %s: CORBA.MARSHAL minor 0x%x" % (call, ex.minor))
            else:
                print("FAIL  %s: CORBA.MARSHAL minor 0x%x" % (call, ex.minor))
                failures += 1
        except CORBA.Exception as ex:
            print("FAIL  %s: %s" % (call, ex))
            failures += 1
    orb.destroy()
    print("omnipy_echo_client: %s (%d failing call(s))" % ("FAILED" if failures else "all passed", failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
