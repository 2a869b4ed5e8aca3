#!/bin/sh
# Checks the dynamic symbols a shared object exports.
#   check_exports.sh backend <file.so>   exactly tasync_backend_entry
#   check_exports.sh core <file.so> [<header dir>]
#                                        only tasync_* functions, and every
#                                        TASYNC_API function the headers
#                                        declare (when given the directory)
set -eu
mode=$1
so=$2
syms=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' | sort)
case "$mode" in
  backend)
    if [ "$syms" != "tasync_backend_entry" ]; then
      echo "FAIL: $so must export only tasync_backend_entry, it exports:"; echo "$syms"; exit 1
    fi ;;
  core)
    bad=$(echo "$syms" | grep -v '^tasync_' || true)
    if [ -n "$bad" ]; then
      echo "FAIL: $so exports symbols outside the tasync_ namespace:"; echo "$bad"; exit 1
    fi
    [ -n "$syms" ] || { echo "FAIL: $so exports nothing"; exit 1; }
    if [ $# -ge 3 ]; then
      # The declared names: "TASYNC_API <type> <name>(" on one line.
      declared=$(grep -h '^TASYNC_API' "$3"/*.h | sed -E 's/\(.*//; s/.*[ *]([A-Za-z_0-9]+)$/\1/' | sort -u)
      missing=$(echo "$declared" | while read -r f; do
        echo "$syms" | sed 's/@.*//' | grep -qx "$f" || echo "$f"
      done)
      if [ -n "$missing" ]; then
        echo "FAIL: $so lacks declared functions:"; echo "$missing"; exit 1
      fi
    fi ;;
esac
echo "OK: $so exports $(echo "$syms" | wc -l) symbol(s)"
