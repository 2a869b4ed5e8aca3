--TEST--
Rule C19: a coroutine spawned in a shutdown function and never awaited still runs
--FILE--
<?php
register_shutdown_function(function () {
    Async\spawn(function () { Async\suspend(); echo "spawned in shutdown, finished\n"; });
    echo "shutdown function returns\n";
});
?>
--EXPECT--
shutdown function returns
spawned in shutdown, finished
