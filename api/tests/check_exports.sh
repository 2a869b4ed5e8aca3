#!/bin/sh
# Checks the dynamic symbols a shared object exports.
#   check_exports.sh backend <file.so>   exactly tasync_backend_entry
#   check_exports.sh core <file.so>      only tasync_* functions
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
    [ -n "$syms" ] || { echo "FAIL: $so exports nothing"; exit 1; } ;;
esac
echo "OK: $so exports $(echo "$syms" | wc -l) symbol(s)"
