#!/bin/sh
# Installs the project into a scratch directory, then builds a backend and a
# host from what was installed alone (headers and library found through
# pkg-config, as a third party would), and runs the host on the backend.
set -eu
build=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
pc=$(find "$tmp/root" -name tasync.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: tasync.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
cflags=$(pkg-config --cflags tasync)
libs=$(pkg-config --libs tasync)
libdir=$(pkg-config --variable=libdir tasync)
${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden $cflags \
  "$here/../poll_backend.c" -o "$tmp/tasync-backend-tiny.so"
${CC:-cc} -std=c99 -Wall -Werror $cflags "$here/host.c" -o "$tmp/host" $libs -Wl,-rpath,"$libdir"
nm -D --defined-only "$tmp/tasync-backend-tiny.so" | grep -q ' T tasync_backend_entry$'
"$tmp/host" "$tmp/tasync-backend-tiny.so"
