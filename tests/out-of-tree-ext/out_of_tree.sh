#!/bin/sh
# An extension author's whole path, as docs/extension-guide.md tells it,
# from an install of the project and nothing else of the tree:
#  1. meson install into a scratch directory (--destdir: the build's own
#     prefix is not ours to write), and a check that every file went under
#     the configured prefix (async.so included, unless php_extension_dir
#     sends it elsewhere on purpose);
#  2. the installed tasync.pc, found through PKG_CONFIG_PATH, names that
#     tree (it is relocatable): headers, libtasync, backends, ABI numbers;
#  3. every C example of docs/extension-guide.md compiles as strict C99
#     against the installed headers and links against the installed
#     libtasync;
#  4. tests/out-of-tree-ext (fdwait.c, config.m4) copied out and built with
#     phpize && ./configure && make, -Werror, from the install only;
#  5. its phpt run by the installed run_phpt.py with the installed helpers,
#     async.so and backends, on every installed backend;
#  6. the same phpt under valgrind on the default backend.
#
#   out_of_tree.sh <build dir> <prefix> <async.so install dir> <php> <run-tests.php> <source root>
#                  <phpt helpers install dir>
#
# Prints TAP: one line per step and per phpt and backend.
set -eu
build=$1
prefix=$2
ext_install_dir=$3
php=$4
run_tests=$5
src=$6
helpers_dir=$7

# Meson points LD_LIBRARY_PATH at the build tree: what runs here must find
# the installed libtasync on its own.
unset LD_LIBRARY_PATH
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; echo "1..$n"; exit 1; }

# 1. The install.
stage="$tmp/stage"
meson install -C "$build" --no-rebuild --destdir "$stage" --quiet >"$tmp/install.log" 2>&1 \
    || { sed 's/^/# /' "$tmp/install.log"; fail "meson install into a scratch directory"; }
root="$stage$prefix"
case "$ext_install_dir" in
    "$prefix"/*)
        outside=$(cd "$stage" && find . \( -type f -o -type l \) | sed 's|^\.||' | grep -v "^$prefix/" || true)
        [ -z "$outside" ] || { echo "$outside" | sed 's/^/# outside the prefix: /'; fail "every file is installed under the prefix $prefix"; }
        ok "every file is installed under the prefix $prefix" ;;
    *)
        ok "every file is installed under the prefix # SKIP php_extension_dir is $ext_install_dir" ;;
esac
async_so="$stage$ext_install_dir/async.so"
[ -f "$async_so" ] || fail "async.so is installed in $ext_install_dir"
ok "async.so is installed in $ext_install_dir"

# 2. tasync.pc, relocated to where the tree is now.
pc=$(find "$root" -name tasync.pc | head -n 1)
[ -n "$pc" ] || fail "tasync.pc is installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR 2>/dev/null || true
pc_prefix=$(pkg-config --variable=prefix tasync)
[ "$(cd "$pc_prefix" && pwd -P)" = "$(cd "$root" && pwd -P)" ] \
    || fail "tasync.pc names the tree it is in (prefix=$pc_prefix, the tree is $root)"
incdir=$(pkg-config --variable=includedir tasync)
libdir=$(pkg-config --variable=libdir tasync)
backenddir=$(pkg-config --variable=backenddir tasync)
[ -f "$incdir/tasync/tasync.h" ] || fail "tasync.pc's includedir holds tasync/tasync.h"
[ -e "$libdir/libtasync.so" ] || fail "tasync.pc's libdir holds libtasync.so"
backends=$(cd "$backenddir" 2>/dev/null && ls tasync-backend-*.so 2>/dev/null | sed 's/^tasync-backend-//; s/\.so$//' || true)
[ -n "$backends" ] || fail "tasync.pc's backenddir holds the backends"
for part in major minor; do
    header=$(sed -n "s/^#define TASYNC_ABI_VERSION_$(echo $part | tr a-z A-Z) \([0-9]*\).*/\1/p" "$incdir/tasync/version.h")
    [ -n "$header" ] && [ "$header" = "$(pkg-config --variable=abi_$part tasync)" ] \
        || fail "tasync.pc's abi_$part is version.h's ($header)"
done
ok "tasync.pc names the installed tree: headers, libtasync, backends ($(echo $backends)), ABI numbers"

# 3. The guide's C examples, each a translation unit of its own.
python3 - "$src/docs/extension-guide.md" "$tmp/guide" <<'EOF'
import os, re, sys
text = open(sys.argv[1]).read()
os.makedirs(sys.argv[2])
blocks = re.findall(r"^```c\n(.*?)^```", text, re.S | re.M)
for i, block in enumerate(blocks, 1):
    open(os.path.join(sys.argv[2], f"example{i}.c"), "w").write(block)
EOF
count=$(ls "$tmp/guide" | wc -l)
[ "$count" -gt 0 ] || fail "docs/extension-guide.md has C examples"
for c in "$tmp/guide"/*.c; do
    ${CC:-cc} -std=c99 -pedantic-errors -Wall -Wextra -Werror $(pkg-config --cflags tasync) \
        -fPIC -c "$c" -o "${c%.c}.o" >"$tmp/guide.log" 2>&1 \
        && ${CC:-cc} -shared -Wl,--no-undefined "${c%.c}.o" -o "${c%.c}.so" $(pkg-config --libs tasync) >>"$tmp/guide.log" 2>&1 \
        || { sed 's/^/# /' "$c" "$tmp/guide.log"; fail "the guide's example $(basename "$c") compiles as strict C99 and links"; }
done
ok "the $count C examples of docs/extension-guide.md compile as strict C99 against the installed headers and link against the installed libtasync"

# 4. The extension, the PECL way.
mkdir "$tmp/src"
cp "$here/config.m4" "$here/fdwait.c" "$tmp/src/"
(
    cd "$tmp/src"
    phpize >"$tmp/phpize.log" 2>&1
    CFLAGS="-O2 -g -Wall -Werror -Wno-unused-parameter" ./configure >"$tmp/configure.log" 2>&1
    make >"$tmp/make.log" 2>&1
) || { tail -n 30 "$tmp"/phpize.log "$tmp"/configure.log "$tmp"/make.log | sed 's/^/# /'; fail "phpize && ./configure && make"; }
so="$tmp/src/modules/fdwait.so"
[ -f "$so" ] || fail "modules/fdwait.so was built"
if grep -q -- "$src/api\|$src/core\|$src/ext-php" "$tmp/src/Makefile"; then
    fail "the build looked into the source tree"
fi
readelf -d "$so" | grep -q 'NEEDED.*libtasync\.so' || fail "fdwait.so links libtasync"
ok "phpize && ./configure && make built fdwait.so from the installed headers and libtasync"

# 5. Its phpt with the installed runner and helpers, on every backend.
helpers="$stage$helpers_dir"
runner="$helpers/run_phpt.py"
[ -x "$runner" ] && [ -f "$helpers/include/suspends.inc" ] && [ -f "$helpers/include/timing.inc" ] \
    || fail "run_phpt.py and its helpers are installed in $helpers_dir"
status=0
for b in $backends; do
    out=$("$runner" --php "$php" --run-tests "$run_tests" --ext "$async_so" --ext "$so" \
        --backend-dir "$backenddir" --reactor "$b" "$here/tests") || status=1
    echo "$out" | grep -E '^(ok|not ok)' | while read -r line; do
        case "$line" in
            ok*) echo "ok - $b: ${line#ok * - }" ;;
            *) echo "not ok - $b: ${line#not ok * - }" ;;
        esac
    done
    echo "$out" | grep -q '^ok' || { echo "$out" | sed 's/^/# /'; fail "the phpt ran on $b"; }
    echo "$out" | grep -q '^not ok' && { echo "$out" | sed 's/^/# /'; status=1; }
    n=$((n + $(echo "$out" | grep -cE '^(ok|not ok)')))
done

# 6. The same phpt under valgrind (the installed runner's --valgrind and
#    suppressions), on uv (the default backend; else the first one): leaks
#    and memory errors of the extension's waits, and of async.so ending them.
first=$(echo $backends | cut -d' ' -f1)
case " $(echo $backends) " in *" uv "*) first=uv ;; esac
if command -v valgrind >/dev/null 2>&1; then
    out=$("$runner" --php "$php" --run-tests "$run_tests" --ext "$async_so" --ext "$so" \
        --backend-dir "$backenddir" --reactor "$first" --valgrind --suppressions "$helpers/valgrind.supp" \
        "$here/tests") || status=1
    echo "$out" | grep -E '^(ok|not ok)' | while read -r line; do
        case "$line" in
            ok*) echo "ok - $first under valgrind: ${line#ok * - }" ;;
            *) echo "not ok - $first under valgrind: ${line#not ok * - }" ;;
        esac
    done
    echo "$out" | grep -q '^not ok' && { echo "$out" | sed 's/^/# /'; status=1; }
    n=$((n + $(echo "$out" | grep -cE '^(ok|not ok)')))
else
    n=$((n + 1))
    echo "ok $n - the phpt under valgrind # SKIP valgrind is not installed"
fi
echo "1..$n"
exit $status
