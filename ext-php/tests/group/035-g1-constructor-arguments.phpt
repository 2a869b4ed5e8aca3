--TEST--
Rule G1: new TaskGroup(?int $concurrency, ?int $queueLimit, ?Scope $scope): the group's scope is a child of $scope; bad values are refused
--FILE--
<?php
$parent = new Async\Scope();
$g = new Async\TaskGroup(scope: $parent);
var_dump(in_array($g->getScope(), $parent->getChildScopes(), true));
$h = new Async\TaskGroup(2, 0, null);
var_dump(in_array($h->getScope(), Async\Scope::global()->getChildScopes(), true));
foreach ([[0, null], [null, -1], [2, -5]] as [$c, $q]) {
    try {
        new Async\TaskGroup($c, $q);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$closed = new Async\Scope();
$closed->cancel();
try {
    new Async\TaskGroup(scope: $closed);
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    new Async\TaskGroup(scope: new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be null or between 1 and 4294967295
Async\TaskGroup::__construct(): Argument #2 ($queueLimit) must be null or between 0 and 4294967295
Async\TaskGroup::__construct(): Argument #2 ($queueLimit) must be null or between 0 and 4294967295
Async\AsyncException: Cannot create a child of a closed scope
Async\TaskGroup::__construct(): Argument #3 ($scope) must be of type ?Async\Scope, stdClass given
