--TEST--
async.file_offload: auto (default) serves cached local files inline, always sends plain-file calls to the backend, never keeps PHP's own calls; other values are refused with a warning
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

var_dump(ini_get('async.file_offload'));
foreach (['auto', 'always', 'never'] as $mode) {
    ini_set('async.file_offload', $mode);
    clearstatcache(); // a second stat of the same file would come from PHP's stat cache
    [$r, $suspended] = run_and_see(fn() => stat(__FILE__));
    echo "$mode: stat ", $suspended ? "went to the backend" : "ran inline", "\n";
}
var_dump(ini_set('async.file_offload', 'sometimes'), ini_get('async.file_offload'));
?>
--EXPECTF--
string(4) "auto"
auto: stat ran inline
always: stat went to the backend
never: stat ran inline

Warning: ini_set(): async.file_offload must be auto, always or never in %s on line %d
bool(false)
string(5) "never"
