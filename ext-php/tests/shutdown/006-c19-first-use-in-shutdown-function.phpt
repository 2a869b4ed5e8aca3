--TEST--
Rule C19: the async API can be used for the first time in a shutdown function
--FILE--
<?php
register_shutdown_function(function () {
    $c = Async\spawn(function () { Async\delay(5); return "first use in shutdown"; });
    echo Async\await($c), "\n";
});
echo "no async in the script\n";
?>
--EXPECT--
no async in the script
first use in shutdown
