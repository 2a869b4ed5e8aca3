--TEST--
Rule S2: Scope::spawn() passes positional and named arguments; a non-callable is a TypeError
--FILE--
<?php
$scope = new Async\Scope();
$c = $scope->spawn(fn($a, $b = 'b', ...$rest) => "$a $b " . json_encode($rest), 'x', b: 'y');
echo Async\await($c), "\n";
try {
    $scope->spawn([]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
x y []
Async\Scope::spawn(): Argument #1 ($task) must be a valid callback, array callback must have exactly two members
