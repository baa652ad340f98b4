#!/usr/bin/env python3
"""A loopback TCP relay that records the GIOP messages passing through it.

Sits between a GIOP client and server: every accepted connection is forwarded to the target, and
each direction's byte stream is split into GIOP messages by their 12-byte header (magic "GIOP",
version, flags/byte order, message type, body size in the sender's byte order). Bytes that are not
a GIOP header (garbage a test sent on purpose) are kept as one "raw" chunk.

As a program (Python 3 stdlib only):
    capture_relay.py --listen 127.0.0.1:0 --target 127.0.0.1:PORT --out DIR [--seconds S]
prints "listening HOST:PORT" and writes DIR/c<conn>_<seq>_<c2s|s2c>_<Type>.hex per message.
As a module, capture_giop.py uses Relay to label messages per test case.
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time

MESSAGE_TYPES = ["Request", "Reply", "CancelRequest", "LocateRequest", "LocateReply",
                 "CloseConnection", "MessageError", "Fragment"]
HEADER_SIZE = 12
MAX_BODY = 64 * 1024 * 1024  # a relay for tests: larger sizes are treated as garbage


def message_type_name(code):
    return MESSAGE_TYPES[code] if code < len(MESSAGE_TYPES) else "Type%d" % code


def parse_header(data):
    """Returns (major, minor, little_endian, more_fragments, type_code, body_size) or None."""
    if len(data) < HEADER_SIZE or data[:4] != b"GIOP":
        return None
    major, minor, flags, type_code = data[4], data[5], data[6], data[7]
    little = bool(flags & 1)
    more = bool(flags & 2) if (major, minor) >= (1, 1) else False
    size = struct.unpack("<I" if little else ">I", data[8:12])[0]
    return major, minor, little, more, type_code, size


class Message:
    """One GIOP message (or one raw chunk) seen on one direction of one connection."""

    def __init__(self, conn, seq, direction, data, when):
        self.conn, self.seq, self.direction, self.data, self.when = conn, seq, direction, data, when
        header = parse_header(data)
        if header:
            self.major, self.minor, self.little, self.more, code, _ = header
            self.type_name = message_type_name(code)
        else:
            self.major = self.minor = None
            self.little = self.more = False
            self.type_name = "raw"

    @property
    def version(self):
        return "%d.%d" % (self.major, self.minor) if self.major is not None else "-"

    def file_stem(self):
        return "c%d_%03d_%s_%s" % (self.conn, self.seq, self.direction, self.type_name)


class StreamSplitter:
    """Accumulates one direction's bytes and cuts whole GIOP messages off the front."""

    def __init__(self):
        self.buffer = b""
        self.garbage = False  # after a non-GIOP header, everything is raw

    def feed(self, data):
        self.buffer += data
        out = []
        while self.buffer:
            if self.garbage:
                out.append(self.buffer)
                self.buffer = b""
                break
            if len(self.buffer) < HEADER_SIZE:
                if not b"GIOP".startswith(self.buffer[:4]):
                    self.garbage = True
                    continue
                break
            header = parse_header(self.buffer)
            if header is None or header[5] > MAX_BODY:
                self.garbage = True
                continue
            total = HEADER_SIZE + header[5]
            if len(self.buffer) < total:
                break
            out.append(self.buffer[:total])
            self.buffer = self.buffer[total:]
        return out

    def flush(self):
        rest, self.buffer = self.buffer, b""
        return [rest] if rest else []


class Relay:
    """Accepts on `listen` and forwards each connection to `target`, recording messages."""

    def __init__(self, target, listen=("127.0.0.1", 0), on_message=None):
        self.target = target
        self.on_message = on_message
        self.lock = threading.Lock()
        self.messages = []
        self.connections = 0
        self.open_sockets = []
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(listen)
        self.server.listen(16)
        self.address = self.server.getsockname()
        self.stopped = False
        self.accepter = threading.Thread(target=self._accept_loop, daemon=True)
        self.accepter.start()

    def _record(self, conn, direction, seq_counter, data):
        with self.lock:
            seq_counter[0] += 1
            message = Message(conn, seq_counter[0], direction, data, time.monotonic())
            self.messages.append(message)
        if self.on_message:
            self.on_message(message)

    def _pump(self, conn, direction, source, sink, seq_counter):
        splitter = StreamSplitter()
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                for message in splitter.feed(data):
                    self._record(conn, direction, seq_counter, message)
                sink.sendall(data)
        except OSError:
            pass
        for rest in splitter.flush():
            self._record(conn, direction, seq_counter, rest)
        for sock, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass

    def _accept_loop(self):
        while not self.stopped:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.connections += 1
                conn = self.connections
                self.open_sockets += [client, upstream]
            seq_counter = [0]  # one sequence per connection, both directions, in arrival order
            for args in ((conn, "c2s", client, upstream, seq_counter),
                         (conn, "s2c", upstream, client, seq_counter)):
                threading.Thread(target=self._pump, args=args, daemon=True).start()

    def take(self):
        """Returns the messages recorded since the last call and forgets them."""
        with self.lock:
            taken, self.messages = self.messages, []
        return taken

    def close(self):
        self.stopped = True
        self.server.close()
        with self.lock:
            for sock in self.open_sockets:
                try:
                    sock.close()
                except OSError:
                    pass


def to_hex(data, per_line=16):
    lines = []
    for i in range(0, len(data), per_line):
        lines.append(" ".join("%02x" % b for b in data[i:i + per_line]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--target", required=True, help="HOST:PORT of the server")
    parser.add_argument("--out", required=True, help="directory for the .hex files")
    parser.add_argument("--seconds", type=float, default=600, help="stop after this long")
    args = parser.parse_args()
    host, port = args.listen.rsplit(":", 1)
    target_host, target_port = args.target.rsplit(":", 1)
    os.makedirs(args.out, exist_ok=True)

    def write(message):
        with open(os.path.join(args.out, message.file_stem() + ".hex"), "w") as f:
            f.write("# %s GIOP %s %s, %d bytes\n" % (message.direction, message.version,
                                                     message.type_name, len(message.data)))
            f.write(to_hex(message.data))

    relay = Relay((target_host, int(target_port)), (host, int(port)), on_message=write)
    print("listening %s:%d" % relay.address, flush=True)
    try:
        time.sleep(args.seconds)
    except KeyboardInterrupt:
        pass
    relay.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
