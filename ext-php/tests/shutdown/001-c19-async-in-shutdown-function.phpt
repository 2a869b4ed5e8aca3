--TEST--
Rule C19: spawn, await and suspend work inside register_shutdown_function
--FILE--
<?php
register_shutdown_function(function () {
    echo "shutdown starts\n";
    $c = Async\spawn(function () { Async\suspend(); return "result"; });
    Async\suspend();
    echo Async\await($c), "\n";
    Async\delay(5);
    echo "shutdown ends\n";
});
echo "script ends\n";
?>
--EXPECT--
script ends
shutdown starts
result
shutdown ends
