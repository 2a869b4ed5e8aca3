--TEST--
The ini settings have their defaults and validate their values
--INI--
async.stack_size=256K
--FILE--
<?php
var_dump(ini_get('async.zombie_coroutine_timeout'), ini_get('async.stack_size'));
var_dump(ini_set('async.stack_size', '1K'));
var_dump(ini_get('async.stack_size'));
var_dump(ini_set('async.zombie_coroutine_timeout', '-1'));
var_dump(ini_set('async.zombie_coroutine_timeout', '0.5'), ini_get('async.zombie_coroutine_timeout'));
echo Async\await(Async\spawn(fn() => "runs with a 256K stack")), "\n";
?>
--EXPECTF--
string(1) "2"
string(4) "256K"

Warning: ini_set(): async.stack_size must be 0 (the default) or at least 16K in %s on line %d
bool(false)
string(4) "256K"

Warning: ini_set(): async.zombie_coroutine_timeout must not be negative in %s on line %d
bool(false)
string(1) "2"
string(3) "0.5"
runs with a 256K stack
