--TEST--
Rule S7: disposeAfterTimeout() takes 0 < $timeout < 10 minutes, else ValueError with the core's message; the scope stays open
--FILE--
<?php
$scope = new Async\Scope();
foreach ([0, -1, 600000, 600001, PHP_INT_MAX, PHP_INT_MIN] as $ms) {
    try {
        $scope->disposeAfterTimeout($ms);
        echo "$ms: accepted?\n";
    } catch (ValueError $e) {
        echo "$ms: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
var_dump($scope->isClosed());
$scope->disposeAfterTimeout(599999);
var_dump($scope->isClosed());
try {
    $scope->disposeAfterTimeout("soon");
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
0: ValueError: The timeout must be greater than 0 and less than 10 minutes
-1: ValueError: The timeout must be greater than 0 and less than 10 minutes
600000: ValueError: The timeout must be greater than 0 and less than 10 minutes
600001: ValueError: The timeout must be greater than 0 and less than 10 minutes
9223372036854775807: ValueError: The timeout must be greater than 0 and less than 10 minutes
-9223372036854775808: ValueError: The timeout must be greater than 0 and less than 10 minutes
bool(false)
bool(true)
Async\Scope::disposeAfterTimeout(): Argument #1 ($timeout) must be of type int, string given
