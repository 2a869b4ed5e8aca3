#!/bin/sh
# The command line of tasync-conformance: every way of naming a backend that
# cannot be used ends with a clear message on stderr and exit status 2 (never
# a crash); a backend given by name is found in $TASYNC_BACKEND_DIR.
#
#   cli_test.sh TOOL BROKEN_DIR BACKEND_DIR BACKEND_NAME
set -u
tool=$1 broken=$2 backend_dir=$3 name=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect STATUS PATTERN -- ARGS...: runs the tool, checks status and that
# stderr+stdout contain PATTERN.
expect() {
    want=$1 pattern=$2
    shift 3
    "$tool" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$tmp/out"; then
        echo "FAIL: tasync-conformance $* -> status $got (want $want), output:"
        sed 's/^/    /' "$tmp/out"
        echo "    (expected to contain: $pattern)"
        failures=$((failures + 1))
    else
        echo "ok: tasync-conformance $* -> $got: $(grep -m1 -- "$pattern" "$tmp/out")"
    fi
}

expect 2 "no backend given" --
expect 0 "usage: tasync-conformance" -- --help
expect 2 "No such file" -- /nonexistent/tasync-backend-nope.so
expect 2 "TASYNC_BACKEND_DIR" -- nosuchbackend
echo "not a shared object" >"$tmp/fake.so"
expect 2 "cannot load" -- "$tmp/fake.so"
expect 2 "not a regular file" -- "$tmp/"
expect 2 "does not export the entry symbol tasync_backend_entry" -- "$broken/broken-backend-no-entry.so"
expect 2 "returned no table" -- "$broken/broken-backend-null-table.so"
expect 2 "built for ABI 2.0" -- "$broken/broken-backend-wrong-major.so"
expect 2 "ABI 1.0 requires at least" -- "$broken/broken-backend-too-small.so"
expect 2 "more than one backend" -- a.so b.so
# By name, through the backend directory, with gtest flags passed on.
export TASYNC_BACKEND_DIR="$backend_dir"
expect 0 "PASSED" -- "$name" --gtest_filter='Table.*:Abi.*'
[ "$failures" -eq 0 ] || exit 1
