#!/bin/sh
# Builds async_pgsql the way a PECL user would, against a scratch install of
# the project, and runs a few of its phpt with the result:
#  1. meson install into a scratch directory (PKG_CONFIG_PATH then finds
#     tasync.pc there, which names the tree it is in: it is relocatable);
#  2. phpize && ./configure && make on a copy of plugins/pgsql, with
#     -Werror, then a check that no header of the core or of ext-php was
#     needed (only tasync/*.h, PHP's and libpq's);
#  3. the plugin's connection and self-check tests with the built .so.
#
#   out_of_tree.sh <build dir> <php> <run-tests.php> <async.so> <backend dir>
#
# Prints TAP (one line per step and per phpt).
set -eu
build=$1
php=$2
run_tests=$3
async_so=$4
backend_dir=$5

here=$(cd "$(dirname "$0")" && pwd)
plugin=$(cd "$here/.." && pwd)
root=$(cd "$plugin/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; echo "1..$n"; exit 1; }

meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >"$tmp/install.log" 2>&1 \
    || { sed 's/^/# /' "$tmp/install.log"; fail "meson install into a scratch directory"; }
pc=$(find "$tmp/root" -name tasync.pc | head -n 1)
[ -n "$pc" ] || fail "tasync.pc was installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
[ "$(pkg-config --variable=abi_minor tasync)" -ge 2 ] || fail "tasync.pc says ABI 1.2 or newer"
ok "the project installed into a scratch directory"

mkdir "$tmp/src"
cp "$plugin"/*.c "$plugin"/*.h "$plugin/config.m4" "$tmp/src/"
(
    cd "$tmp/src"
    phpize >"$tmp/phpize.log" 2>&1
    CFLAGS="-O2 -g -Wall -Werror -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers" \
        ./configure >"$tmp/configure.log" 2>&1
    make >"$tmp/make.log" 2>&1
) || { tail -n 30 "$tmp"/*.log | sed 's/^/# /'; fail "phpize && ./configure && make"; }
so="$tmp/src/modules/async_pgsql.so"
[ -f "$so" ] || fail "modules/async_pgsql.so was built"
ok "phpize && ./configure && make built async_pgsql.so"

# Only the installed ABI headers: nothing from core/ or ext-php/.
if grep -En '#include *[<"](php_async[^/]*\.h|tasync/core/)' "$tmp/src"/*.c "$tmp/src"/*.h >/dev/null; then
    fail "the sources include core or ext-php headers"
fi
if grep -q -- "$root/core\|$root/ext-php" "$tmp/src/Makefile"; then
    fail "the build looked into core/ or ext-php/"
fi
ok "built from tasync/*.h, PHP's and libpq's headers only"

libdir=$(pkg-config --variable=libdir tasync)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=$(python3 "$root/ext-php/tests/run_phpt.py" --php "$php" --run-tests "$run_tests" \
    --ext "$async_so" --ext "$so" --backend-dir "$backend_dir" --reactor uv \
    "$here/001-c18-pg-query-overlaps.phpt" "$here/040-layout-self-check-disables-on-mismatch.phpt") || true
echo "$out" | grep -E '^(ok|not ok)' | while read -r line; do
    case "$line" in
        ok*) echo "ok - out-of-tree build: ${line#ok * - }" ;;
        *) echo "not ok - out-of-tree build: ${line#not ok * - }" ;;
    esac
done
echo "$out" | grep -q '^not ok' && { echo "$out" | sed 's/^/# /'; exit 1; }
echo "$out" | grep -q '^ok' || { echo "$out" | sed 's/^/# /'; fail "the phpt ran"; }
count=$(echo "$out" | grep -c '^ok')
echo "1..$((n + count))"
