--TEST--
Rule T5: a callback that returns false stops the iteration: no later element is taken, the callbacks already running finish
--FILE--
<?php
Async\iterate(['apple', 'banana', 'cherry', 'date', 'elderberry'], function (string $item) {
    echo "processing: $item\n";
    if ($item === 'cherry') {
        return false;
    }
});
echo "iteration finished\n";
?>
--EXPECT--
processing: apple
processing: banana
processing: cherry
iteration finished
