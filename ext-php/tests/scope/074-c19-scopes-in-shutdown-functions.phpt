--TEST--
Rule C19: scopes work inside register_shutdown_function callbacks
--FILE--
<?php
register_shutdown_function(function () {
    $scope = new Async\Scope();
    $scope->spawn(function () { Async\delay(5); echo "shutdown task\n"; });
    $scope->awaitCompletion(Async\timeout(60000));
    echo "shutdown function done\n";
});
echo "script ends\n";
?>
--EXPECT--
script ends
shutdown task
shutdown function done
