--TEST--
Rule C6: await_any_or_fail() including the caller itself gets AsyncException
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\await_any_or_fail([Async\currentCoroutine()]);
    } catch (Async\AsyncException $e) {
        echo $e->getMessage(), "\n";
    }
});
Async\await($c);
?>
--EXPECTF--
A coroutine cannot await itself. Coroutine spawned at %s:2
