--TEST--
async.stall_timeout is a number of seconds (default 10, 0 disables); negative and non-numeric values are refused with a warning
--FILE--
<?php
var_dump(ini_get('async.stall_timeout'));
var_dump(ini_set('async.stall_timeout', '-1'));
var_dump(ini_set('async.stall_timeout', 'soon'));
var_dump(ini_set('async.stall_timeout', ''));
var_dump(ini_get('async.stall_timeout'));
var_dump(ini_set('async.stall_timeout', '2.5'));
var_dump(ini_get('async.stall_timeout'));
Async\await(Async\spawn(fn () => null));
// Changed while the runtime runs: taken at once.
var_dump(ini_set('async.stall_timeout', '0'));
var_dump(ini_get('async.stall_timeout'));
?>
--EXPECTF--
string(2) "10"

Warning: ini_set(): async.stall_timeout must be a number of seconds between 0 (disabled) and 1e9, "-1" given in %s on line %d
bool(false)

Warning: ini_set(): async.stall_timeout must be a number of seconds between 0 (disabled) and 1e9, "soon" given in %s on line %d
bool(false)

Warning: ini_set(): async.stall_timeout must be a number of seconds between 0 (disabled) and 1e9, "" given in %s on line %d
bool(false)
string(2) "10"
string(2) "10"
string(3) "2.5"
string(3) "2.5"
string(1) "0"
