--TEST--
Rule T2: a FutureState completes its Future once; a second complete() or error() changes nothing and throws AsyncException naming where the first completion happened
--INI--
pcre.jit=0
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
var_dump($state->isCompleted(), $future->isCompleted());
$state->complete(42);
var_dump($state->isCompleted(), $future->isCompleted());
foreach ([fn () => $state->complete(43), fn () => $state->error(new Exception("late"))] as $again) {
    try {
        $again();
    } catch (Async\AsyncException $e) {
        echo preg_replace('~at .*/~', 'at ', $e->getMessage()), "\n";
    }
}
var_dump($future->await());

$failing = new Async\FutureState();
$f = new Async\Future($failing);
Async\spawn(fn () => $failing->error(new RuntimeException("went wrong")));
try {
    $f->await();
} catch (RuntimeException $e) {
    echo "await: ", $e->getMessage(), "\n";
}
try {
    Async\await($f);
} catch (RuntimeException $e2) {
    var_dump($e2 === $e);
}
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
bool(true)
FutureState is already completed at 001-t2-a-future-state-completes-its-future-once.php:5
FutureState is already completed at 001-t2-a-future-state-completes-its-future-once.php:5
int(42)
await: went wrong
bool(true)
