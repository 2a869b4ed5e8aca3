--TEST--
Rule C6: a coroutine awaiting itself gets AsyncException
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\await(Async\currentCoroutine());
    } catch (Async\AsyncException $e) {
        echo get_class($e), ": ", preg_replace('/\. Coroutine spawned at .*/', '', $e->getMessage()), "\n";
    }
    return "still fine";
});
echo Async\await($c), "\n";
try {
    Async\await(Async\currentCoroutine());
} catch (Async\AsyncException $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\AsyncException: A coroutine cannot await itself
still fine
main: A coroutine cannot await itself
