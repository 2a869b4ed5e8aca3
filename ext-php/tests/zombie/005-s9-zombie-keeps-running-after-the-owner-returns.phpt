--TEST--
Rule S9: a zombie keeps running after the function that owned its scope returned
--FILE--
<?php
function fireAndForget() {
    $scope = new Async\Scope();
    $scope->spawn(function () {
        for ($i = 1; $i <= 3; $i++) {
            Async\delay(2);
            echo "zombie tick $i\n";
        }
    });
    Async\suspend();
    @$scope->disposeSafely();
}
fireAndForget();
echo "returned\n";
?>
--EXPECT--
returned
zombie tick 1
zombie tick 2
zombie tick 3
