--TEST--
set_error_handler() sees warnings raised in coroutines, with the coroutine's line
--FILE--
<?php
set_error_handler(function ($no, $str, $file, $line) { echo "handler: $str (line $line)\n"; return true; });
Async\await(Async\spawn(function () {
    Async\suspend();
    echo $undefined;
}));
?>
--EXPECT--
handler: Undefined variable $undefined (line 5)
