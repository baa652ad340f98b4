#!/bin/sh
# Regenerates tests/giop/captures/ from real omniORB traffic (GIOP 1.0, 1.1, 1.2).
#   tests/interop/capture_giop.sh [BUILD_DIR]        (default: build)
# Builds omni_server and omni_peer_client in BUILD_DIR (a configured Meson build of this
# project with omniORB found), then runs capture_giop.py, which relays every connection through
# capture_relay.py on loopback. Takes about a minute (it waits for omniORB's idle-connection scan).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
meson compile -C "$build" omni_server omni_peer_client
exec python3 "$here/capture_giop.py" \
  --server "$build/benchmarks/peers/omni_server" \
  --client "$build/benchmarks/peers/omni_peer_client" \
  --out "$root/tests/giop/captures"
