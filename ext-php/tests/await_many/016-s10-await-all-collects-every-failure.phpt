--TEST--
Rule S10: await_all() awaits every item until it completes: none of their failures reach the scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(fn() => print("must not run\n"));
$items = [];
for ($i = 0; $i < 4; $i++) {
    $items[] = $scope->spawn(function () use ($i) { Async\delay(5 * $i); throw new RuntimeException("failure $i"); });
}
[$results, $errors] = Async\await_all($items);
var_dump(count($results), count($errors));
echo implode(", ", array_map(fn($e) => $e->getMessage(), $errors)), "\n";
?>
--EXPECT--
int(0)
int(4)
failure 0, failure 1, failure 2, failure 3
