#!/bin/sh
# Builds plugins/poll-backend the way a third party would, then runs the
# project's test suites on it:
#  1. installs the project into a scratch directory (meson install --destdir;
#     pkg-config then finds it through PKG_CONFIG_PATH: tasync.pc is
#     relocatable, its paths name the tree it is in);
#  2. builds tasync-backend-poll.so with the plugin's own Makefile from a
#     copy of its directory, against the installed headers only, with
#     -Werror, and checks that it exports tasync_backend_entry only;
#  3. builds host.c against the installed libtasync and runs it on the
#     plugin;
#  4. runs the installed tasync-conformance on it (the reactor contract),
#     then the core's GoogleTest suite with the plugin as the backend.
#
#   out_of_tree.sh <build dir> <core-tests> [--gtest_output=xml:<file>]
#
# Meson runs it with the gtest protocol: the reports of both suites are
# merged into the one file it asks for, so every case is counted.
set -eu
build=$1
core_tests=$2
shift 2
xml_out=""
for arg in "$@"; do
    case "$arg" in
        --gtest_output=xml:*) xml_out=${arg#--gtest_output=xml:} ;;
        *) echo "out_of_tree.sh: unknown argument $arg"; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
plugin=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== install the project into $tmp/root"
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
pc=$(find "$tmp/root" -name tasync.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: tasync.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
# The ABI numbers tasync.pc gives are version.h's.
incdir=$(pkg-config --variable=includedir tasync)
for part in MAJOR MINOR; do
    header=$(sed -n "s/^#define TASYNC_ABI_VERSION_$part \([0-9]*\).*/\1/p" "$incdir/tasync/version.h")
    pc_value=$(pkg-config --variable=abi_$(echo $part | tr A-Z a-z) tasync)
    [ -n "$header" ] && [ "$header" = "$pc_value" ] || {
        echo "FAIL: tasync.pc says abi_$(echo $part | tr A-Z a-z)=$pc_value, version.h says $header"; exit 1; }
done

echo "== build the plugin with its Makefile"
mkdir "$tmp/poll-backend"
cp "$plugin/Makefile" "$plugin/poll_backend.c" "$tmp/poll-backend/"
make -C "$tmp/poll-backend" WERROR=-Werror
make -C "$tmp/poll-backend" --no-print-directory check-exports
so="$tmp/poll-backend/tasync-backend-poll.so"

echo "== build and run a host against the installed core"
cflags=$(pkg-config --cflags tasync)
libs=$(pkg-config --libs tasync)
libdir=$(pkg-config --variable=libdir tasync)
${CC:-cc} -std=c99 -Wall -Werror $cflags "$here/host.c" -o "$tmp/host" $libs -Wl,-rpath,"$libdir"
"$tmp/host" "$so"

status=0
echo "== the installed tasync-conformance on the plugin"
tool=$(find "$tmp/root" -name tasync-conformance -type f | head -n 1)
[ -n "$tool" ] || { echo "FAIL: tasync-conformance was not installed"; exit 1; }
"$tool" "$so" --gtest_output="xml:$tmp/conformance.xml" || status=1

echo "== the core suite on the plugin"
TASYNC_TEST_BACKEND="$so" "$core_tests" --gtest_output="xml:$tmp/core.xml" || status=1

if [ -n "$xml_out" ]; then
    python3 - "$xml_out" "$tmp"/*.xml <<'EOF'
import sys
import xml.etree.ElementTree as ET
out, parts = sys.argv[1], sys.argv[2:]
root = ET.Element("testsuites", name="AllTests")
totals = dict.fromkeys(["tests", "failures", "disabled", "errors"], 0)
seconds = 0.0
for part in parts:
    suites = ET.parse(part).getroot()
    for key in totals:
        totals[key] += int(suites.get(key, "0"))
    seconds += float(suites.get("time", "0"))
    root.extend(list(suites))
for key, value in totals.items():
    root.set(key, str(value))
root.set("time", "%.3f" % seconds)
ET.ElementTree(root).write(out, encoding="UTF-8", xml_declaration=True)
EOF
fi
exit $status
