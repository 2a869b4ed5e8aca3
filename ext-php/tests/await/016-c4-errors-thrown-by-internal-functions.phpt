--TEST--
Rule C4: errors raised by an internal function run as a coroutine reach the awaiter
--FILE--
<?php
try {
    Async\await(Async\spawn('str_repeat'));
} catch (ArgumentCountError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    Async\await(Async\spawn('intdiv', 1, 0));
} catch (DivisionByZeroError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
ArgumentCountError: str_repeat() expects exactly 2 arguments, 0 given
DivisionByZeroError: Division by zero
