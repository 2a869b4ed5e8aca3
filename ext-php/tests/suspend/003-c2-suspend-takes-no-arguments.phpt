--TEST--
Rule C2: suspend() takes no arguments
--FILE--
<?php
try {
    Async\suspend(1);
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Async\suspend());
?>
--EXPECT--
Async\suspend() expects exactly 0 arguments, 1 given
NULL
