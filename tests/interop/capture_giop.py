#!/usr/bin/env python3
"""Captures real omniORB GIOP 1.0/1.1/1.2 traffic into tests/giop/captures/.

usage: capture_giop.py --server omni_server --client omni_peer_client --out DIR

Starts omni_server behind a capture_relay.Relay (the server publishes the relay's port in its
IORs with -ORBendPointPublish, so every client connection goes through the relay), runs
omni_peer_client once per case with -ORBmaxGIOPVersion 1.0, 1.1 and 1.2, and writes each GIOP
message as DIR/giop1X_<case>_<role>.hex plus DIR/manifest.tsv. A few cases talk to the server over
a raw socket (garbage for MessageError, an idle connection the server closes); those requests are
written by this script and say so in the manifest. Every wait is bounded.
"""
import argparse
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture_relay import Relay, to_hex, parse_header  # noqa: E402

VERSIONS = ["1.0", "1.1", "1.2"]

# Echo checks of omni_peer_client (echo:NAME) and what they send; every one is captured.
ECHO_CASES = [
    ("echo_boolean", "echo_boolean(TRUE) -> TRUE"),
    ("echo_octet", "echo_octet(0xa5) -> 0xa5"),
    ("echo_char", "echo_char('Z') -> 'Z'"),
    ("echo_short", "echo_short(-12345) -> -12345"),
    ("echo_ushort", "echo_ushort(54321) -> 54321"),
    ("echo_long", "echo_long(-123456789) -> -123456789"),
    ("echo_ulong", "echo_ulong(0xdeadbeef) -> 0xdeadbeef"),
    ("echo_longlong", "echo_longlong(-1234567890123456789) -> same"),
    ("echo_ulonglong", "echo_ulonglong(0xfedcba9876543210) -> same"),
    ("echo_float", "echo_float(3.5) -> 3.5"),
    ("echo_double", "echo_double(-2.25) -> -2.25"),
    ("echo_string", "echo_string(\"hello, switchyard\") -> same"),
    ("echo_wstring", "echo_wstring(L\"h\\u00e9llo \\u2713\") -> same (UTF-16, GIOP 1.2 only: "
                     "omniORB refuses wstrings below 1.2)"),
    ("echo_color", "echo_color(blue=2) -> blue"),
    ("echo_record", "echo_record(Record{l=-21, d=4.5, s=-9, o=0x73, f=0.75, c='d', b=TRUE}) -> same"),
    ("echo_narecord", "echo_narecord(NARecord{o=1, d=2.5, c='n', ll=-9876543210, s=42}) -> same"),
    ("echo_variant", "1: echo_variant(Variant{_d=2, s=\"two\"}); 2: echo_variant(Variant{_d=9 "
                     "(default branch), o=0x5a}) -> same"),
    ("echo_matrix", "echo_matrix(Matrix[3][4], m[i][j]=(i+1)*100+j) -> same"),
    ("echo_nested", "echo_nested(Nested{name=\"nest\", values={1,-2,0x7fffffff}, tint=green, "
                    "choice={_d=3, d=6.25}, grid[i][j]=(i+1)*100+j, few={Record(1), Record(2)}}) "
                    "where Record(k)={l=-7k, d=1.5k, s=-3k, o=0x70+k, f=0.25k, c='a'+k, b=k odd}"),
    ("echo_octets", "echo_octets(10 octets, o[i]=i*17) -> same"),
    ("echo_longs", "echo_longs({1, -1, 0x7fffffff, -0x80000000}) -> same"),
    ("echo_doubles", "echo_doubles({0.5, -1e300, 3.0}) -> same"),
    ("echo_records", "echo_records({Record(1), Record(2), Record(3)}) -> same, Record(k) as in "
                     "echo_nested"),
    ("echo_narecords", "echo_narecords({NARecord(1), NARecord(2)}) where NARecord(k)={o=k, "
                       "d=2.5k, c='m'+k, ll=-9876543210k, s=42k} -> same"),
    ("echo_strings", "echo_strings({\"\", \"a\", \"bc\"}) -> same"),
    ("echo_any", "1: echo_any(any long 42); 2: echo_any(any string \"any string\") -> same "
                 "(TypeCode tk_long / tk_string)"),
    ("twist", "twist(inout a=21, inout s=\"abc\") -> a=42, s=\"cba\""),
    ("split", "split(Nested as in echo_nested) -> 3, out name=\"nest\", out values={1,-2,0x7fffffff}"),
    ("refuse_ok", "refuse(0) -> 0"),
    ("refuse", "refuse(7) raises Integrity::Refused{reason=\"refused\", code=7}: USER_EXCEPTION reply"),
    ("label", "1: _set_label(\"tagged\"); 2: _get_label() -> \"tagged\""),
    ("calls", "1: _get_calls(); 2: _get_calls() (returns the count of calls served before)"),
]

NO_VERIFY = ["-ORBverifyObjectExistsAndType", "0"]

# (case, client arguments, description, versions, keep client CloseConnection)
CLIENT_CASES = [
    ("noparams2way", ["--call", "noparams2way", "--count", "2"] + NO_VERIFY,
     "ttcp0 sendNoParams_2way() twice on one connection: the first request carries omniORB's "
     "service contexts, the second does not", VERSIONS, True),
    ("noparams1way", ["--call", "noparams1way"] + NO_VERIFY,
     "ttcp0 1: sendNoParams_1way() (oneway, no reply); 2: sendNoParams_2way() after it",
     VERSIONS, False),
    ("octets", ["--call", "octets:16"] + NO_VERIFY,
     "ttcp0 sendOctetSeq_2way(16 octets 00 01 .. 0f)", VERSIONS, False),
    ("structs", ["--call", "structs:3"] + NO_VERIFY,
     "ttcp0 sendStructSeq_2way(3 BinStructs, k=1..3: {s=k, c='A'+k-1, l=1000k, o=0xf0+k-1, "
     "d=0.5k})", VERSIONS, False),
    ("bad_key", ["--call", "bad-key"] + NO_VERIFY,
     "sendNoParams_2way on object key \"!tcp0!\" (ttcp0 mangled: first byte ^0x55, '!' appended): "
     "SYSTEM_EXCEPTION OBJECT_NOT_EXIST", VERSIONS, False),
    ("bad_op", ["--call", "bad-op"] + NO_VERIFY,
     "DII request \"no_such_operation\" (no arguments) on ttcp0: SYSTEM_EXCEPTION BAD_OPERATION",
     VERSIONS, False),
    ("non_existent", ["--call", "non-existent"] + NO_VERIFY,
     "ttcp0 _non_existent() -> FALSE", VERSIONS, False),
    ("locate", ["--call", "noparams2way"],
     "default omniORB client (verifyObjectExistsAndType=1): LocateRequest for ttcp0 before the "
     "first call, LocateReply OBJECT_HERE, then sendNoParams_2way()", VERSIONS, False),
    ("locate_bad_key", ["--call", "bad-key"],
     "default omniORB client: LocateRequest for the mangled key \"!tcp0!\", LocateReply "
     "UNKNOWN_OBJECT (the client raises OBJECT_NOT_EXIST without sending the Request)",
     VERSIONS, False),
    ("structs_fragmented", ["--call", "structs:1000"] + NO_VERIFY,
     "ttcp0 sendStructSeq_2way(1000 BinStructs as in structs, k=1..1000, c='A'+(k-1)%26, "
     "o=0xf0+(k-1)%16): 24 KB; omniORB sends it as a Request and Fragments of its 8 KB buffer "
     "(GIOP 1.0 has no fragments: one message)", VERSIONS, False),
    ("octets_bulk", ["--call", "octets:20000"] + NO_VERIFY,
     "ttcp0 sendOctetSeq_2way(20000 octets, o[i]=i%256): omniORB sends the octets straight from "
     "the sequence: a Request with the more-fragments flag, then a final Fragment (empty, 1.2: "
     "request id only); GIOP 1.0: one message", VERSIONS, False),
    ("echo_octets_fragmented", ["--call", "echo-octets:20000"] + NO_VERIFY,
     "echo_octets(20000 octets, o[i]=(i*7)%256) -> same: both the request and the reply are "
     "fragmented (1.1, 1.2)", VERSIONS, False),
]
for name, text in ECHO_CASES:
    versions = ["1.2"] if name == "echo_wstring" else VERSIONS
    CLIENT_CASES.append((name, ["--call", "echo:" + name] + NO_VERIFY, "echo " + text,
                         versions, False))

REPLY_STATUS = ["NO_EXCEPTION", "USER_EXCEPTION", "SYSTEM_EXCEPTION", "LOCATION_FORWARD",
                "LOCATION_FORWARD_PERM", "NEEDS_ADDRESSING_MODE"]
LOCATE_STATUS = ["UNKNOWN_OBJECT", "OBJECT_HERE", "OBJECT_FORWARD", "OBJECT_FORWARD_PERM",
                 "LOC_SYSTEM_EXCEPTION", "LOC_NEEDS_ADDRESSING_MODE"]
CONTEXT_NAMES = {0: "TransactionService", 1: "CodeSets", 6: "SendingContextRunTime",
                 0x4f4d0000: "omniORB"}


class Reader:
    """Just enough CDR to describe GIOP headers; offsets align from the message start."""

    def __init__(self, data, little, offset=12):
        self.data, self.little, self.pos = data, little, offset

    def align(self, n):
        self.pos = (self.pos + n - 1) // n * n

    def ulong(self):
        self.align(4)
        value = struct.unpack_from("<I" if self.little else ">I", self.data, self.pos)[0]
        self.pos += 4
        return value

    def ushort(self):
        self.align(2)
        value = struct.unpack_from("<H" if self.little else ">H", self.data, self.pos)[0]
        self.pos += 2
        return value

    def octet(self):
        value = self.data[self.pos]
        self.pos += 1
        return value

    def octets(self):
        n = self.ulong()
        value = self.data[self.pos:self.pos + n]
        self.pos += n
        return value

    def string(self):
        raw = self.octets()
        return raw[:-1].decode("latin-1")

    def contexts(self):
        out = []
        for _ in range(self.ulong()):
            ident = self.ulong()
            data = self.octets()
            name = CONTEXT_NAMES.get(ident, "id 0x%x" % ident)
            out.append("%s(0x%x, %d bytes: %s)" % (name, ident, len(data), data.hex()))
        return "service contexts [" + ", ".join(out) + "]" if out else "no service contexts"

    def target(self):
        disc = self.ushort()
        if disc == 0:
            return "target KeyAddr " + key_text(self.octets())
        return "target addressing disposition %d" % disc


def key_text(key):
    return "key %s (\"%s\")" % (key.hex(), key.decode("latin-1"))


def describe_header(data):
    """Decodes the GIOP message header fields a byte-exact test needs."""
    header = parse_header(data)
    if header is None:
        return "not GIOP: %d bytes" % len(data)
    major, minor, little, more, code, size = header
    v12 = (major, minor) >= (1, 2)
    r = Reader(data, little)
    parts = ["size %d" % size]
    if more:
        parts.append("more fragments")
    try:
        if code == 0:  # Request
            if v12:
                rid = r.ulong()
                flags = r.octet()
                r.pos += 3
                parts += ["request id %d" % rid, "response flags 0x%02x" % flags, r.target(),
                          "operation \"%s\"" % r.string(), r.contexts()]
                r.align(8)
            else:
                contexts = r.contexts()
                rid = r.ulong()
                expected = r.octet()
                if (major, minor) == (1, 1):
                    r.pos += 3
                parts += [contexts, "request id %d" % rid, "response_expected %d" % expected,
                          key_text(r.octets()), "operation \"%s\"" % r.string(),
                          "principal %d bytes" % len(r.octets())]
            parts.append("body at offset %d" % r.pos if r.pos < len(data) else "empty body")
        elif code == 1:  # Reply
            if v12:
                rid = r.ulong()
                status = r.ulong()
                contexts = r.contexts()
                r.align(8)
            else:
                contexts = r.contexts()
                rid = r.ulong()
                status = r.ulong()
            parts += ["request id %d" % rid, "status " + REPLY_STATUS[status], contexts,
                      "body at offset %d" % r.pos if r.pos < len(data) else "empty body"]
            if status in (1, 2) and r.pos < len(data):
                parts.append("exception \"%s\"" % r.string())
                if status == 2:
                    minor_code, completed = r.ulong(), r.ulong()
                    parts.append("minor 0x%08x completed %s" % (
                        minor_code, ["YES", "NO", "MAYBE"][completed]))
        elif code == 3:  # LocateRequest
            rid = r.ulong()
            parts += ["request id %d" % rid, r.target() if v12 else key_text(r.octets())]
        elif code == 4:  # LocateReply
            rid = r.ulong()
            parts += ["request id %d" % rid, "status " + LOCATE_STATUS[r.ulong()]]
        elif code == 7 and v12 and size >= 4:  # Fragment
            parts.append("request id %d" % r.ulong())
    except (IndexError, struct.error) as error:
        parts.append("(header cut short: %s)" % error)
    return "; ".join(parts)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def settle(relay, seconds=0.3):
    """Waits until the relay has seen nothing new for `seconds` (at most 5 s)."""
    deadline = time.monotonic() + 5
    last = -1
    while time.monotonic() < deadline:
        with relay.lock:
            count = len(relay.messages)
        if count == last:
            return
        last = count
        time.sleep(seconds)


class Capture:
    def __init__(self, out):
        self.out = out
        self.rows = []

    def write(self, file_name, message, role, description, origin):
        direction = "request" if message.direction == "c2s" else "reply"
        header = parse_header(message.data)
        order = ("little" if header[2] else "big") if header else "-"
        with open(os.path.join(self.out, file_name), "w") as f:
            f.write("# %s\n" % description)
            f.write("# %s: %s\n" % (origin, describe_header(message.data)))
            f.write(to_hex(message.data))
        full = "%s. %s: %s" % (description, role, describe_header(message.data))
        if origin != "omniORB":
            full += " (%s)" % origin
        self.rows.append([file_name, message.version, direction, message.type_name, order,
                          full.replace("\t", " ").replace("\n", " ")])

    def write_case(self, prefix, case, messages, description, keep_close, origin_of=None):
        """Names each message by its role: request, reply, fragment, ... numbered when repeated."""
        if not keep_close:
            messages = [m for m in messages
                        if not (m.type_name == "CloseConnection" and m.direction == "c2s")]
        roles = []
        for m in messages:
            base = m.type_name.lower() if m.type_name not in ("Request", "Reply") else \
                m.type_name.lower()
            if m.type_name == "Fragment":
                base = "request_fragment" if m.direction == "c2s" else "reply_fragment"
            if m.type_name == "raw":
                base = "garbage"
            roles.append(base)
        totals = {r: roles.count(r) for r in roles}
        seen = {}
        for m, role in zip(messages, roles):
            seen[role] = seen.get(role, 0) + 1
            name = role if totals[role] == 1 else "%s%d" % (role, seen[role])
            origin = origin_of(m) if origin_of else "omniORB"
            self.write("%s_%s_%s.hex" % (prefix, case, name), m, name, description, origin)
        return len(messages)

    def write_manifest(self):
        with open(os.path.join(self.out, "manifest.tsv"), "w") as f:
            f.write("file\tgiop_version\tdirection\tmessage_type\tbyte_order\tdescription\n")
            for row in self.rows:
                f.write("\t".join(row) + "\n")


def giop_header(version, code, body, little=True):
    major, minor = (int(x) for x in version.split("."))
    flags = 1 if little else 0
    return b"GIOP" + bytes([major, minor, flags, code]) + struct.pack(
        "<I" if little else ">I", len(body)) + body


def locate_request(version, request_id, key):
    """A LocateRequest for `key` (little endian), as this script writes it."""
    body = struct.pack("<I", request_id)
    if version == "1.2":
        body += struct.pack("<H", 0) + b"\0\0" + struct.pack("<I", len(key)) + key
    else:
        body += struct.pack("<I", len(key)) + key
    return giop_header(version, 3, body)


def request(version, request_id, key, operation):
    """A two-way Request with no arguments and no service contexts (little endian)."""
    body = bytearray()

    def pad(n):
        while (12 + len(body)) % n:
            body.append(0)

    def ulong(v):
        pad(4)
        body.extend(struct.pack("<I", v))

    def octets(data):
        ulong(len(data))
        body.extend(data)

    if version == "1.2":
        ulong(request_id)
        body.extend(b"\x03\0\0\0")             # response flags: SYNC_WITH_TARGET, reserved
        body.extend(struct.pack("<H", 0))          # TargetAddress KeyAddr
        octets(key)
        octets(operation.encode() + b"\0")
        ulong(0)                                   # no service contexts
    else:
        ulong(0)                                   # no service contexts
        ulong(request_id)
        body.append(1)                             # response_expected
        if version == "1.1":
            body.extend(b"\0\0\0")
        octets(key)
        octets(operation.encode() + b"\0")
        octets(b"")                                # requesting principal
    return giop_header(version, 0, bytes(body))


def raw_exchange(relay_address, payload, wait_close_seconds):
    """Sends `payload`, then reads until the server closes (bounded by wait_close_seconds)."""
    with socket.create_connection(relay_address, timeout=5) as s:
        s.sendall(payload)
        s.settimeout(wait_close_seconds)
        deadline = time.monotonic() + wait_close_seconds
        try:
            while time.monotonic() < deadline:
                if not s.recv(65536):
                    break
        except socket.timeout:
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--idle-close", type=int, default=3,
                        help="server's -ORBinConScanPeriod, seconds (idle connections closed)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith(".hex") or name == "manifest.tsv":
            os.remove(os.path.join(args.out, name))

    server_port = free_port()
    relay = Relay(("127.0.0.1", server_port))
    relay_port = relay.address[1]
    capture = Capture(args.out)
    counts = {}
    with tempfile.TemporaryDirectory(prefix="capture_giop_") as work:
        ior_file = os.path.join(work, "iors.txt")
        server_cmd = [args.server, "--ior-file", ior_file, "--port", str(server_port),
                      "--seconds", "600",
                      "-ORBendPointPublish", "giop:tcp:127.0.0.1:%d" % relay_port,
                      "-ORBinConScanPeriod", str(args.idle_close), "-ORBscanGranularity", "1"]
        server = subprocess.Popen(server_cmd, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while not os.path.exists(ior_file) and time.monotonic() < deadline:
                time.sleep(0.05)
            if not os.path.exists(ior_file):
                print("server wrote no IORs")
                return 1
            for version in VERSIONS:
                prefix = "giop1%s" % version[-1]
                for case, client_args, description, versions, keep_close in CLIENT_CASES:
                    if version not in versions:
                        continue
                    relay.take()
                    cmd = [args.client, "--ior-file", ior_file] + client_args + \
                          ["-ORBmaxGIOPVersion", version]
                    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                            text=True, timeout=60)
                    if result.returncode != 0:
                        print("client failed:", " ".join(cmd), "\n", result.stdout)
                        return 1
                    settle(relay)
                    messages = relay.take()
                    n = capture.write_case(prefix, case, messages, description, keep_close)
                    counts[version] = counts.get(version, 0) + n

                # The server closes a connection that stays idle: CloseConnection.
                idle_cases = [("idle_close", request(version, 1, b"ttcp0", "sendNoParams_2way"),
                               "a connection that sent one Request (request id 1, key \"ttcp0\", "
                               "sendNoParams_2way, no service contexts) and then stayed idle: "
                               "omniORB replies, then closes it after -ORBinConScanPeriod %d "
                               "with CloseConnection" % args.idle_close)]
                if version == "1.2":
                    idle_cases.append((
                        "idle_close_after_locate", locate_request(version, 1, b"echo"),
                        "a GIOP 1.2 connection that sent only a LocateRequest (request id 1, "
                        "key \"echo\") and then stayed idle: omniORB answers OBJECT_HERE, and "
                        "its CloseConnection then carries version 1.0 (omniORB sets a server "
                        "connection's version from its first Request, not from a LocateRequest)"))
                for case, payload, text in idle_cases:
                    relay.take()
                    raw_exchange(relay.address, payload, args.idle_close + 4)
                    settle(relay)
                    n = capture.write_case(
                        prefix, case, relay.take(), text, True,
                        origin_of=lambda m: "written by capture_giop.py" if m.direction == "c2s"
                        else "omniORB")
                    counts[version] += n

                # A Request whose header ends early: omniORB's server raises MARSHAL while
                # unmarshalling it and answers MessageError. Bad magic or an unknown version get
                # no answer at all: omniORB just closes the connection (captured once, in 1.2).
                if version == "1.2":
                    truncated = struct.pack("<II", 5, 3)  # request id 5, response flags 3, ...
                else:
                    truncated = struct.pack("<II", 0, 5)  # no service contexts, request id 5, ...
                raw_cases = [("truncated_header", giop_header(version, 0, truncated),
                              "a Request whose 8-byte body ends inside the request header "
                              "(written by capture_giop.py): omniORB raises MARSHAL "
                              "(PassEndOfMessage) and answers MessageError, then closes")]
                if version == "1.2":
                    raw_cases += [
                        ("bad_magic", b"GIOX" + bytes([1, 2, 1, 0]) + bytes(4),
                         "a 12-byte \"GIOX\" header (bad magic): omniORB sends nothing back and "
                         "closes the connection"),
                        ("bad_version", b"GIOP" + bytes([1, 3, 1, 0]) + bytes(4),
                         "a GIOP 1.3 Request header with size 0: omniORB sends nothing back and "
                         "closes the connection")]
                for case, payload, text in raw_cases:
                    relay.take()
                    raw_exchange(relay.address, payload, 5)
                    settle(relay)
                    n = capture.write_case(
                        prefix, case, relay.take(), text, True,
                        origin_of=lambda m: "written by capture_giop.py" if m.direction == "c2s"
                        else "omniORB")
                    counts[version] += n
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            relay.close()
    capture.write_manifest()
    by_type = {}
    for row in capture.rows:
        key = (row[1], row[3])
        by_type[key] = by_type.get(key, 0) + 1
    print("captured %d messages into %s" % (len(capture.rows), args.out))
    for (version, kind), n in sorted(by_type.items()):
        print("  GIOP %-3s %-16s %d" % (version, kind, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
