--TEST--
Rule C13 with C22: a fatal error inside a Fiber inside a coroutine ends the request; the other coroutines, one waiting inside a fiber too, unwind without running more user code
--FILE--
<?php
use function Async\{spawn, delay};

register_shutdown_function(fn() => print("shutdown function\n"));
spawn(function () {
    $f = new Fiber(function () {
        try { delay(1000); echo "not reached\n"; } finally { echo "not run either\n"; }
    });
    $f->start();
});
spawn(function () {
    $f = new Fiber(function () {
        delay(5);
        trigger_error("fatal inside a fiber", E_USER_ERROR);
    });
    $f->start();
    echo "not reached after the fiber\n";
});
try {
    delay(10000);
} finally {
    echo "main finally\n";
}
echo "not reached in main\n";
?>
--EXPECTF--
Fatal error: fatal inside a fiber in %s on line 14
shutdown function
