#!/bin/sh
# Regenerates stubs/*_arginfo.h from stubs/*.stub.php with PHP's own
# gen_stub.php, offline: gen_stub.php wants PHP-Parser in a folder next to
# itself (it would download it otherwise), so we run a copy of it from a
# temporary folder where that folder is a link to Debian's php-parser
# package (/usr/share/php/PhpParser). The generated headers are committed,
# as php-src does; run this after editing a stub.
#
# Usage: tools/gen_stubs.sh [php-config]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
php_config=${1:-php-config}
php=$($php_config --php-binary)
ext_dir=$($php_config --extension-dir)
prefix=$($php_config --prefix)

gen=""
for cand in "$ext_dir/build/gen_stub.php" "$prefix/lib/php/build/gen_stub.php" /usr/lib/php/*/build/gen_stub.php; do
    if [ -f "$cand" ]; then gen=$cand; break; fi
done
[ -n "$gen" ] || { echo "gen_stubs: gen_stub.php not found (install php-dev)" >&2; exit 1; }

parser=""
for cand in /usr/share/php/PhpParser "${PHP_PARSER_DIR:-}"; do
    if [ -n "$cand" ] && [ -f "$cand/Parser.php" ]; then parser=$cand; break; fi
done
[ -n "$parser" ] || { echo "gen_stubs: PHP-Parser not found (apt-get install php-parser)" >&2; exit 1; }

# The PHP-Parser version gen_stub.php expects is in its source.
version=$(sed -n 's/^ *\$version = "\([0-9.]*\)";.*/\1/p' "$gen" | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$gen" "$tmp/gen_stub.php"
mkdir -p "$tmp/PHP-Parser-$version/lib"
ln -s "$parser" "$tmp/PHP-Parser-$version/lib/PhpParser"

# -f: regenerate even when the hash in the header matches.
"$php" "$tmp/gen_stub.php" -f "$here"/stubs/*.stub.php
