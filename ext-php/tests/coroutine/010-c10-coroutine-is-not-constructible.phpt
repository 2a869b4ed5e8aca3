--TEST--
Rule C10: Async\Coroutine cannot be constructed, cloned or serialized by users
--FILE--
<?php
try {
    new Async\Coroutine();
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$c = Async\spawn(fn() => 1);
try {
    clone $c;
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    serialize($c);
} catch (Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$r = new ReflectionClass(Async\Coroutine::class);
var_dump($r->isFinal());
?>
--EXPECT--
Error: Call to private Async\Coroutine::__construct() from global scope
Error: Trying to clone an uncloneable object of class Async\Coroutine
Exception: Serialization of 'Async\Coroutine' is not allowed
bool(true)
