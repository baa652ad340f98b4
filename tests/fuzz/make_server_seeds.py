#!/usr/bin/env python3
"""Seeds for server_fuzzer: well-formed GIOP messages to the probe (bound as the plain key
"probe"), each behind a first octet that picks the server's concurrency model (0..3).

Usage: make_server_seeds.py DIR
"""
import os
import struct
import sys


def align(body, n):
    return body + b"\0" * (-(len(body) + 12) % n)  # alignment counts from the message start


def cdr_string(text):
    raw = text.encode() + b"\0"
    return struct.pack("<I", len(raw)) + raw


def message(minor, kind, body, flags=1):
    return b"GIOP" + bytes([1, minor, flags, kind]) + struct.pack("<I", len(body)) + body


def request_12(request_id, operation, arguments, key=b"probe", response=3):
    body = struct.pack("<IB3x", request_id, response)
    body += struct.pack("<H2x", 0) + struct.pack("<I", len(key)) + key  # KeyAddr
    body = align(body, 4) + cdr_string(operation)
    body = align(body, 4) + struct.pack("<I", 0)  # no service contexts
    body = align(body, 8) + arguments
    return message(2, 0, body)


def request_10(request_id, operation, arguments, key=b"probe"):
    body = struct.pack("<I", 0) + struct.pack("<IB3x", request_id, 1)
    body += struct.pack("<I", len(key)) + key
    body = align(body, 4) + cdr_string(operation)
    body = align(body, 4) + struct.pack("<I", 0)  # principal
    body = align(body, 4) + arguments
    return message(0, 0, body)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        "echo_long": request_12(1, "echo_long", struct.pack("<i", 7)),
        "echo_string": request_12(2, "echo_string", cdr_string("hello, server")),
        "two_requests": request_12(3, "echo_long", struct.pack("<i", 1)) + request_12(4, "echo_long", struct.pack("<i", 2)),
        "oneway": request_12(5, "echo_long", struct.pack("<i", 3), response=0),
        "unknown_operation": request_12(6, "no_such_operation", b""),
        "unknown_key": request_12(7, "echo_long", struct.pack("<i", 8), key=b"nobody"),
        "giop10": request_10(8, "echo_long", struct.pack("<i", 9)),
        "locate": message(2, 3, struct.pack("<IH2xI", 9, 0, 5) + b"probe"),
        "cancel": message(2, 2, struct.pack("<I", 1)),
        "close": message(2, 5, b""),
    }
    # A fragmented 1.2 request: the first part ends on 8, its Fragment carries the id.
    whole = request_12(10, "echo_string", cdr_string("x" * 40))
    cut = 48
    first = bytearray(whole[:cut])
    first[6] |= 2
    first[8:12] = struct.pack("<I", cut - 12)
    seeds["fragmented"] = bytes(first) + message(2, 7, struct.pack("<I", 10) + whole[cut:])
    for name, data in seeds.items():
        for model in range(4):
            with open(os.path.join(out, f"{name}_{model}"), "wb") as f:
                f.write(bytes([model]) + data)


if __name__ == "__main__":
    main()
