--TEST--
Rule C4 (seed 001): await() throws the coroutine's exception
--FILE--
<?php
use function Async\spawn;
use function Async\await;

function testException(): void {
    throw new Exception("Error");
}

try {
    await(spawn(testException(...)));
} catch (Exception $e) {
    echo "Caught exception: ", $e->getMessage();
}
?>
--EXPECT--
Caught exception: Error
