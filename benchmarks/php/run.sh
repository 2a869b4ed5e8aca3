#!/bin/sh
# Runs every PHP benchmark on every backend that was built:
#   benchmarks/php/run.sh <build dir>
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ext="$build/ext-php/async.so"
[ -f "$ext" ] || { echo "no $ext: build the PHP extension first"; exit 1; }
export TASYNC_PHP_EXT="$ext"
for so in "$build"/backends/tasync-backend-*.so; do
    backend=$(basename "$so" .so)
    backend=${backend#tasync-backend-}
    for script in spawn_await round_robin delays timers memory files file_stalls locations; do
        php -n -d extension="$ext" -d async.backend_dir="$build/backends" -d async.reactor="$backend" \
            -d memory_limit=-1 "$here/$script.php"
    done
    php -n -d extension="$ext" -d async.backend_dir="$build/backends" -d async.reactor="$backend" \
        -d memory_limit=-1 -d async.stack_cache=10000 "$here/delays.php"
done
