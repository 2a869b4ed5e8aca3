--TEST--
C23: a new coroutine starts with the error_reporting level set last (error_reporting() or ini_set(), by the script or by another coroutine), as a new Fiber does
--FILE--
<?php
error_reporting(E_ALL & ~E_WARNING);
var_dump(Async\await(Async\spawn(fn() => error_reporting())) === (E_ALL & ~E_WARNING));

ini_set('error_reporting', (string) E_ERROR);
var_dump(Async\await(Async\spawn(fn() => error_reporting())) === E_ERROR);

// error_reporting() in a coroutine sets the ini value the next one starts with.
Async\await(Async\spawn(function () {
    error_reporting(E_ALL);
    Async\suspend();
    var_dump(error_reporting() === E_ALL);
}));
var_dump(Async\await(Async\spawn(fn() => error_reporting())) === E_ALL);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
