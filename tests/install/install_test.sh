#!/usr/bin/env bash
# Installs the build into a temporary root, then builds and runs tests/install/consumer.cpp
# against it with nothing but pkg-config, linked shared and then static.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

meson install -C "$build" --destdir "$root" --no-rebuild --quiet >/dev/null
pc=$(find "$root" -name switchyard.pc | head -n 1)
[ -n "$pc" ] || { echo "switchyard.pc was not installed" >&2; exit 1; }
pcdir=$(dirname "$pc")
prefix=$(sed -n 's/^prefix=//p' "$pc")
pkg() { PKG_CONFIG_PATH="$pcdir" pkg-config --define-variable=prefix="$root$prefix" "$@" switchyard; }

echo "pkg-config switchyard: $(pkg --modversion)"
c++ -std=c++20 -Wall -Wextra -Werror "$source/consumer.cpp" -o "$root/consumer_shared" $(pkg --cflags --libs)
libdir=$(pkg --variable=libdir)
LD_LIBRARY_PATH="$libdir" "$root/consumer_shared"

c++ -std=c++20 -Wall -Wextra -Werror "$source/consumer.cpp" -o "$root/consumer_static" \
  $(pkg --cflags) "$libdir/libswitchyard.a" $(pkg --static --libs-only-other --libs-only-l | sed 's/-lswitchyard//')
"$root/consumer_static"
