"""What the interop runners share: starting, waiting for and stopping peer processes, each wait
bounded. Imported by run_omni_pair.py, run_omni_ssl_pair.py, run_omni_client_sy_server.py and
run_omni_client_sy_dsi.py (Python puts a script's own folder on the import path)."""

import os
import signal
import socket
import subprocess
import time

SKIP = 77  # meson's exit code for a skipped test


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_file(path, server, seconds):
    """True once `path` exists; False if the server exits first or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        if server.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def run_client(client, args, expect_failure=None, seconds=60):
    """True when the client passed, or, with expect_failure, when it failed saying that."""
    print("$", os.path.basename(client), " ".join(args), flush=True)
    try:
        result = subprocess.run([client] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                timeout=seconds, text=True)
    except subprocess.TimeoutExpired:
        print("  FAILED: timed out after", seconds, "s")
        return False
    print("  " + result.stdout.strip().replace("\n", "\n  "))
    if expect_failure is not None:
        ok = result.returncode == 1 and expect_failure in result.stdout
        if not ok:
            print("  FAILED: expected the client to fail with", expect_failure)
        return ok
    if result.returncode != 0:
        print("  FAILED: exit code", result.returncode)
    return result.returncode == 0


def stop(proc):
    """SIGTERM, then a bounded wait; kill if ignored. Returns (exit code or text, output)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=15)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        return "killed after SIGTERM was ignored", out
