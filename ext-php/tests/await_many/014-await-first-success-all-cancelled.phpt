--TEST--
await_first_success(): cancelled coroutines count as failures
--FILE--
<?php
$a = Async\spawn(fn() => Async\delay(1000));
$b = Async\spawn(fn() => Async\delay(1000));
$a->cancel(new Async\CancellationError("a stopped"));
$b->cancel(new Async\CancellationError("b stopped"));
[$result, $errors] = Async\await_first_success(['a' => $a, 'b' => $b]);
var_dump($result);
foreach ($errors as $k => $e) echo "$k: ", get_class($e), " ", $e->getMessage(), "\n";
?>
--EXPECT--
NULL
a: Async\CancellationError a stopped
b: Async\CancellationError b stopped
