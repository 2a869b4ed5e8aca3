--TEST--
async.stack_cache: free stacks kept warm for reuse; validated, and a larger cache keeps a burst's stacks
--INI--
async.stack_cache=64
--FILE--
<?php
var_dump(ini_get('async.stack_cache'));
var_dump(ini_set('async.stack_cache', '0'));
var_dump(ini_set('async.stack_cache', '-3'));
var_dump(ini_set('async.stack_cache', '2000'), ini_get('async.stack_cache'));
for ($round = 0; $round < 2; $round++) {
    $cs = [];
    for ($i = 0; $i < 1000; $i++) {
        $cs[] = Async\spawn(function () use ($i) { Async\suspend(); return $i; });
    }
    [$results, $errors] = Async\await_all($cs);
    echo count($results), " results, ", array_sum($results), ", ", count($errors), " errors\n";
}
?>
--EXPECTF--
string(2) "64"

Warning: ini_set(): async.stack_cache must be between 1 and 1048576 in %s on line %d
bool(false)

Warning: ini_set(): async.stack_cache must be between 1 and 1048576 in %s on line %d
bool(false)
string(2) "64"
string(4) "2000"
1000 results, 499500, 0 errors
1000 results, 499500, 0 errors
