#!/usr/bin/env bash
# Installs the build into a temporary root, then, with nothing but what was installed:
#  1. compiles every installed header alone (each must stand alone: no internal path);
#  2. builds and runs tests/install/consumer.cpp through pkg-config, linked shared and static;
#  3. configures and builds docs/examples/greeter (its own Meson project: dependency('switchyard')
#     through pkg-config, the installed syidl through find_program), runs its server on 127.0.0.1
#     and its client against it, and checks what the client prints;
#  4. runs the example's dynamic programs (the DII client, the DSI server) against the generated
#     ones and each other: every pair prints what the generated pair prints;
#  5. runs the greeter over TLS with client certificates and an access policy (--allow);
#  6. runs it with portable interceptors: a token the client's interceptor sends and the
#     server's checks (--token, --require-token), and the server's request log (--log-requests).
#  7. runs its asynchronous client (greeter_ami_client, syidl --ami) against its server.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR EXAMPLE_DIR
set -euo pipefail
build=$1
source=$2
example=$3
root=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$root"
}
trap cleanup EXIT

meson install -C "$build" --destdir "$root" --no-rebuild --quiet >/dev/null
pc=$(find "$root" -name switchyard.pc | head -n 1)
[ -n "$pc" ] || { echo "switchyard.pc was not installed" >&2; exit 1; }
pcdir=$(dirname "$pc")
prefix=$(sed -n 's/^prefix=//p' "$pc")
# The files sit under $root$prefix, not $prefix: point the .pc there (for Meson too, which has no
# --define-variable).
sed -i "s|^prefix=.*|prefix=$root$prefix|" "$pc"
pkg() { PKG_CONFIG_PATH="$pcdir" pkg-config "$@" switchyard; }

echo "pkg-config switchyard: $(pkg --modversion)"
includedir=$(pkg --variable=includedir)
libdir=$(pkg --variable=libdir)

# 1. Every installed header compiles on its own.
headers=0
while IFS= read -r header; do
  name=${header#"$includedir/"}
  echo "#include <$name>" | c++ -std=c++20 -Wall -Wextra -Werror -fsyntax-only -x c++ - $(pkg --cflags) ||
    { echo "installed header $name does not stand alone" >&2; exit 1; }
  headers=$((headers + 1))
done < <(find "$includedir/switchyard" -name '*.h' | sort)
echo "installed headers: $headers, each compiles alone"

# 2. The consumer, shared and static.
c++ -std=c++20 -Wall -Wextra -Werror "$source/consumer.cpp" -o "$root/consumer_shared" $(pkg --cflags --libs)
LD_LIBRARY_PATH="$libdir" "$root/consumer_shared"

c++ -std=c++20 -Wall -Wextra -Werror "$source/consumer.cpp" -o "$root/consumer_static" \
  $(pkg --cflags) "$libdir/libswitchyard.a" $(pkg --static --libs-only-other --libs-only-l | sed 's/-lswitchyard//')
"$root/consumer_static"

# 3. The example application, as a user builds it (docs/using.md).
syidl=$(find "$root" -type f -name syidl | head -n 1)
[ -x "$syidl" ] || { echo "syidl was not installed" >&2; exit 1; }
export PATH="$(dirname "$syidl"):$PATH" PKG_CONFIG_PATH="$pcdir" LD_LIBRARY_PATH="$libdir"
example_build="$root/example-build"
if ! meson setup "$example_build" "$example" --wrap-mode=nofallback >"$root/setup.log" 2>&1 ||
   ! grep -q "Program syidl found: YES ($syidl)" "$root/setup.log"; then
  cat "$root/setup.log" >&2
  echo "the example did not configure against the installed Switchyard and syidl" >&2
  exit 1
fi
meson compile -C "$example_build" >"$root/compile.log" 2>&1 || { cat "$root/compile.log" >&2; exit 1; }
echo "example: built against $prefix (installed in a temporary root)"

# Starts one of the example's servers in the background (server_pid), its output in LOG, and
# waits at most 10 s for the IOR it writes.
start_server() {  # $1 program, $2 IOR file, $3 log; the rest: its arguments
  local program=$1 ior=$2 log=$3
  shift 3
  "$example_build/$program" --ior-file "$ior" "$@" >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    [ -s "$ior" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -s "$ior" ] || { cat "$log" >&2; echo "$program wrote no IOR" >&2; exit 1; }
}
# SIGTERM; the server must be gone within 10 s, with exit status 0.
stop_server() {  # $1 program (for the messages), $2 its log
  kill -TERM "$server_pid"
  for _ in $(seq 100); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid"
    echo "$1 did not stop on SIGTERM" >&2
    exit 1
  fi
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  [ "$status" -eq 0 ] || { cat "$2" >&2; echo "$1 exited $status" >&2; exit 1; }
}

ior_file="$root/greeter.ior"
start_server greeter_server "$ior_file" "$root/server.out" -ORBListenEndpoints iiop://127.0.0.1:0

client_status=0
timeout 30 "$example_build/greeter_client" "$ior_file" Ada Grace "" >"$root/client.out" 2>&1 || client_status=$?
expected='Hello, Ada! (greeting 1)
Hello, Grace! (greeting 2)
refused: an empty name
the server has made 2 greeting(s)'
if [ "$client_status" -ne 3 ] || [ "$(cat "$root/client.out")" != "$expected" ]; then
  echo "greeter_client exited $client_status and printed:" >&2
  cat "$root/client.out" >&2
  echo "server output:" >&2
  cat "$root/server.out" >&2
  exit 1
fi
# The IOR as text on the command line works as well as the file.
timeout 30 "$example_build/greeter_client" "$(cat "$ior_file")" Linus >"$root/client2.out" 2>&1 ||
  { cat "$root/client2.out" >&2; exit 1; }
grep -qx 'Hello, Linus! (greeting 3)' "$root/client2.out" || { cat "$root/client2.out" >&2; exit 1; }
# And a corbaloc URL to the key the server binds, on the port it reports.
endpoint=$(sed -n 's/^greeter_server: listening on iiop:\/\///p' "$root/server.out" | head -n 1)
[ -n "$endpoint" ] || { cat "$root/server.out" >&2; echo "greeter_server reported no endpoint" >&2; exit 1; }
timeout 30 "$example_build/greeter_client" "corbaloc:iiop:$endpoint/greeter" Barbara >"$root/client3.out" 2>&1 ||
  { cat "$root/client3.out" >&2; exit 1; }
grep -qx 'Hello, Barbara! (greeting 4)' "$root/client3.out" || { cat "$root/client3.out" >&2; exit 1; }

stop_server greeter_server "$root/server.out"
echo "example: greeter_server and greeter_client on 127.0.0.1: ok"

# 4. The dynamic programs: a fresh server for each pair, the same names, the same output.
run_pair() {  # $1 server program, $2 client program
  local ior="$root/$1-$2.ior" status=0
  start_server "$1" "$ior" "$root/$1-$2.server"
  timeout 30 "$example_build/$2" "$ior" Ada Grace "" >"$root/$1-$2.client" 2>&1 || status=$?
  if [ "$status" -ne 3 ] || [ "$(cat "$root/$1-$2.client")" != "$expected" ]; then
    echo "$2 against $1 exited $status and printed:" >&2
    cat "$root/$1-$2.client" "$root/$1-$2.server" >&2
    exit 1
  fi
  stop_server "$1" "$root/$1-$2.server"
  echo "example: $2 against $1: ok"
}
run_pair greeter_dynamic_server greeter_client
run_pair greeter_server greeter_dynamic_client
run_pair greeter_dynamic_server greeter_dynamic_client

# 5. The greeter over TLS (docs/orb.md, "TLS"): client certificates required, and the server lets
# in only the common name switchyard-client (--allow); another valid certificate is refused.
certs="$root/certs"
"$source/../../scripts/make-tls-certs" "$certs" >/dev/null
tls_ior="$root/greeter-tls.ior"
start_server greeter_server "$tls_ior" "$root/tls.server" --allow switchyard-client \
  -ORBListenEndpoints ssliop://127.0.0.1:0 -ORBTLSCertificate "$certs/server.pem" \
  -ORBTLSPrivateKey "$certs/server.key" -ORBTLSCAFile "$certs/ca.pem" -ORBTLSClientCertificates require
tls_client() {  # $1 certificate name; the rest: names
  local name=$1
  shift
  timeout 30 "$example_build/greeter_client" "$tls_ior" "$@" -ORBTLSCAFile "$certs/ca.pem" \
    -ORBTLSCertificate "$certs/$name.pem" -ORBTLSPrivateKey "$certs/$name.key"
}
status=0
tls_client client Ada >"$root/tls.client" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^Hello, Ada! (greeting 1)$' "$root/tls.client"; then
  echo "greeter_client over TLS exited $status and printed:" >&2
  cat "$root/tls.client" "$root/tls.server" >&2
  exit 1
fi
status=0
tls_client client2 Eve >"$root/tls.refused" 2>&1 || status=$?
if [ "$status" -ne 1 ] || ! grep -q 'NO_PERMISSION' "$root/tls.refused"; then
  echo "greeter_client with a certificate the server does not allow exited $status and printed:" >&2
  cat "$root/tls.refused" "$root/tls.server" >&2
  exit 1
fi
stop_server "greeter_server over TLS" "$root/tls.server"
grep -q 'greeting Ada for CN=switchyard-client' "$root/tls.server" ||
  { cat "$root/tls.server" >&2; echo "greeter_server did not see the caller's certificate" >&2; exit 1; }
echo "example: the greeter over TLS, client certificate allowed and another refused: ok"

# 6. Portable interceptors (docs/orb.md): the server refuses requests without the token its
# interceptor looks for, and logs each request's outcome from another interceptor.
pi_ior="$root/greeter-pi.ior"
start_server greeter_server "$pi_ior" "$root/pi.server" --require-token s3cret --log-requests
status=0
timeout 30 "$example_build/greeter_client" "$pi_ior" Ada --token s3cret >"$root/pi.client" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^Hello, Ada! (greeting 1)$' "$root/pi.client"; then
  echo "greeter_client with the token exited $status and printed:" >&2
  cat "$root/pi.client" "$root/pi.server" >&2
  exit 1
fi
for token in "" wrong; do
  status=0
  timeout 30 "$example_build/greeter_client" "$pi_ior" Eve ${token:+--token "$token"} >"$root/pi.refused" 2>&1 ||
    status=$?
  if [ "$status" -ne 1 ] || ! grep -q 'NO_PERMISSION' "$root/pi.refused"; then
    echo "greeter_client with token '$token' exited $status and printed:" >&2
    cat "$root/pi.refused" "$root/pi.server" >&2
    exit 1
  fi
done
# The refused clients' requests never reached the servant: the next greeting is the second.
status=0
timeout 30 "$example_build/greeter_client" "$pi_ior" Grace --token s3cret >"$root/pi.client2" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^Hello, Grace! (greeting 2)$' "$root/pi.client2"; then
  echo "greeter_client with the token, after the refused ones, exited $status and printed:" >&2
  cat "$root/pi.client2" "$root/pi.server" >&2
  exit 1
fi
stop_server "greeter_server with interceptors" "$root/pi.server"
# Each refused client's greet was answered by the interceptor, logged by the other.
for line in 'greet -> reply' 'greet -> exception IDL:omg.org/CORBA/NO_PERMISSION:1.0'; do
  grep -q -- "$line" "$root/pi.server" ||
    { cat "$root/pi.server" >&2; echo "greeter_server logged no '$line'" >&2; exit 1; }
done
echo "example: the greeter with interceptors, the token checked and the requests logged: ok"

# 7. Asynchronous calls (syidl --ami, docs/idl.md): every greeting sent before the first reply
# is read, the replies to a handler, the count through a poller; what greeter_client prints.
ami_ior="$root/greeter-ami.ior"
start_server greeter_server "$ami_ior" "$root/ami.server"
status=0
timeout 30 "$example_build/greeter_ami_client" "$ami_ior" Ada Grace "" Linus >"$root/ami.client" 2>&1 || status=$?
expected='Hello, Ada! (greeting 1)
Hello, Grace! (greeting 2)
refused: an empty name
Hello, Linus! (greeting 3)
the server has made 3 greeting(s)'
if [ "$status" -ne 3 ] || [ "$(cat "$root/ami.client")" != "$expected" ]; then
  echo "greeter_ami_client exited $status and printed:" >&2
  cat "$root/ami.client" "$root/ami.server" >&2
  exit 1
fi
stop_server "greeter_server for the AMI client" "$root/ami.server"
echo "example: greeter_ami_client (sendc_ and sendp_) against greeter_server: ok"
