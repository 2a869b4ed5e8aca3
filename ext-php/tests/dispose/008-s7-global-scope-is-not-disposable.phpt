--TEST--
The global scope cannot be cancelled or disposed (chosen: that would close spawn() for the rest of the program; gracefulShutdown() is the way)
--FILE--
<?php
$g = Async\Scope::global();
foreach (['cancel', 'dispose', 'disposeSafely'] as $m) {
    try {
        $g->$m();
    } catch (Async\AsyncException $e) {
        echo "$m: ", $e->getMessage(), "\n";
    }
}
try {
    $g->disposeAfterTimeout(10);
} catch (Async\AsyncException $e) {
    echo "disposeAfterTimeout: ", $e->getMessage(), "\n";
}
var_dump(Async\await(Async\spawn(fn() => "spawn still works")));
?>
--EXPECT--
cancel: The global scope cannot be cancelled; use Async\gracefulShutdown() to end the program's coroutines
dispose: The global scope cannot be disposed; use Async\gracefulShutdown() to end the program's coroutines
disposeSafely: The global scope cannot be disposed; use Async\gracefulShutdown() to end the program's coroutines
disposeAfterTimeout: The global scope cannot be disposed; use Async\gracefulShutdown() to end the program's coroutines
string(17) "spawn still works"
