--TEST--
An exception thrown by a destructor when a coroutine's values are released fails that coroutine
--FILE--
<?php
class Bad { function __destruct() { throw new Exception("from destructor"); } }
$c = Async\spawn(function () { $b = new Bad; return 1; });
try {
    Async\await($c);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
from destructor
