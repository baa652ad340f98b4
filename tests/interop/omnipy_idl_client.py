#!/usr/bin/env python3
"""omniORBpy's client for FixedPoint::Ledger and Contexts::Probe (tests/idl_compiler/backend/
fixed_point.idl and contexts.idl): fixed-point values and IDL contexts, checked as they come back.

    omnipy_idl_client.py --ledger IOR --probe IOR --idl-dir DIR [-ORB<option> <value> ...]

Run with the Python of a venv holding omniORBpy (scripts/install-deps makes build/omnipy-venv
with PyPI's jeteve-omniorb, omniORB 4.3.3). The stubs are generated from DIR's two files with
that venv's omniidl into a temporary directory. Prints "ok NAME" or "FAIL NAME: why" per check;
exit 0 only when every check passes.
"""
import os
import subprocess
import sys
import tempfile

failures = 0


def check(ok, name, why=""):
    global failures
    if ok:
        print("ok    " + name)
    else:
        print("FAIL  %s%s" % (name, ": " + why if why else ""))
        failures += 1


def ledger_checks(CORBA, FixedPoint, ledger):
    fixed = CORBA.fixed
    for text in ("12345.67891", "-0.00001", "0", "99999.99999", "-99999.99999", "1.5"):
        back = ledger.echo_money(fixed(text))
        check(back == fixed(text), "echo_money " + text, repr(back))
    for text in ("9999999999999999999999999999999", "-1234567890123456789012345678901"):
        back = ledger.echo_whole(fixed(text))
        check(back == fixed(text), "echo_whole " + text, repr(back))
    for text in ("0.9999999999999999999999999999999", "-0.0000000000000000000000000000001"):
        back = ledger.echo_fraction(fixed(text))
        check(back == fixed(text), "echo_fraction " + text, repr(back))
    check(ledger.echo_rate(fixed("-99.99")) == fixed("-99.99"), "echo_rate")
    check(ledger.echo_digit(fixed("7")) == fixed("7"), "echo_digit")

    money = [fixed(k - 500) * fixed("1.00001") + fixed("0.00003") for k in range(1000)]
    check(list(ledger.echo_list(money)) == money, "echo_list of 1000 Money")
    table = [fixed("1.25"), fixed("-2.5"), fixed("0")]
    check(list(ledger.echo_table(table)) == table, "echo_table")

    def account(k):
        return FixedPoint.Account(owner="owner %d" % k, balance=fixed(k) * fixed("1.00001") - fixed(500),
                                  interest=fixed(k % 100) / fixed(4), fee=fixed("0.125") * fixed(k % 7), id=k)

    def same(a, b):
        return (a.owner, a.balance, a.interest, a.fee, a.id) == (b.owner, b.balance, b.interest, b.fee, b.id)

    check(same(ledger.echo_account(account(42)), account(42)), "echo_account")
    accounts = [account(k) for k in range(100)]
    back = ledger.echo_accounts(accounts)
    check(len(back) == 100 and all(same(a, b) for a, b in zip(back, accounts)), "echo_accounts of 100")

    exact = FixedPoint.Amount(exact=fixed("12.34567"))
    estimate = FixedPoint.Amount(estimate=fixed("-0.5"))
    back = ledger.echo_amount(exact)
    check(back._d is True and back.exact == fixed("12.34567"), "echo_amount exact", repr(back))
    back = ledger.echo_amount(estimate)
    check(back._d is False and back.estimate == fixed("-0.5"), "echo_amount estimate", repr(back))

    any_back = ledger.echo_any(CORBA.Any(FixedPoint._tc_Money, fixed("-42.5")))
    check(any_back.value() == fixed("-42.5"), "echo_any Money", repr(any_back.value()))

    result, a, total = ledger.combine(fixed("10.5"), fixed("0.25"))
    check((result, a, total) == (fixed("10.25"), fixed("21"), fixed("10.75")), "combine",
          repr((result, a, total)))
    check(ledger.withdraw(fixed(100), fixed("30.01")) == fixed("69.99"), "withdraw")
    try:
        ledger.withdraw(fixed(100), fixed("150.5"))
        check(False, "withdraw raises Overdrawn", "it returned")
    except FixedPoint.Overdrawn as e:
        check(e.by == fixed("50.5"), "withdraw raises Overdrawn", repr(e.by))
    ledger._set_limit(fixed("500.25"))
    check(ledger._get_limit() == fixed("500.25"), "attribute limit")


def probe_checks(orb, probe):
    ctx = orb.get_default_context().create_child("probe")
    for name, value in (("test", "hello"), ("app_user", "ada"), ("app_", "empty suffix"), ("apple", "not app_"),
                        ("testing", "not test"), ("nothing", "only seen_none's pattern matches nothing*")):
        ctx.set_one_value(name, value)
    seen, note = probe.seen(7, "a note", ctx)
    check(list(seen) == ["7", "app_=empty suffix", "app_user=ada", "test=hello"], "seen", repr(seen))
    check(note == "a note seen", "seen: the inout string", note)
    seen = probe.seen_none("none", ctx)
    check(list(seen) == ["none", "nothing=only seen_none's pattern matches nothing*"], "seen_none", repr(seen))
    empty = orb.get_default_context().create_child("empty")
    check(list(probe.seen_none("none", empty)) == ["none"], "seen_none with no properties")
    check(list(probe.seen_without(3)) == ["3"], "seen_without")


def main():
    args = sys.argv[1:]
    ledger_ior = probe_ior = idl_dir = None
    orb_args = ["omnipy_idl_client"]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--ledger", "--probe", "--idl-dir") and i + 1 < len(args):
            if a == "--ledger":
                ledger_ior = args[i + 1]
            elif a == "--probe":
                probe_ior = args[i + 1]
            else:
                idl_dir = args[i + 1]
            i += 2
        elif a.startswith("-ORB") and i + 1 < len(args):
            orb_args += args[i:i + 2]
            i += 2
        else:
            print("omnipy_idl_client: unknown argument " + a, file=sys.stderr)
            return 2
    if not ledger_ior or not probe_ior or not idl_dir:
        print(__doc__, file=sys.stderr)
        return 2

    stubs = tempfile.mkdtemp(prefix="omnipy-idl-stubs-")
    omniidl = os.path.join(os.path.dirname(sys.executable), "omniidl")
    for name in ("fixed_point.idl", "contexts.idl"):
        subprocess.run([omniidl, "-bpython", "-C" + stubs, os.path.join(idl_dir, name)], check=True, timeout=60)
    sys.path.insert(0, stubs)
    from omniORB import CORBA
    import Contexts
    import FixedPoint

    orb = CORBA.ORB_init(orb_args, CORBA.ORB_ID)
    try:
        ledger_checks(CORBA, FixedPoint, orb.string_to_object(ledger_ior)._narrow(FixedPoint.Ledger))
        probe_checks(orb, orb.string_to_object(probe_ior)._narrow(Contexts.Probe))
    except CORBA.Exception as ex:
        check(False, "a call", repr(ex))
    orb.destroy()
    print("omnipy_idl_client: %s (%d failing check(s))" % ("FAILED" if failures else "all passed", failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
