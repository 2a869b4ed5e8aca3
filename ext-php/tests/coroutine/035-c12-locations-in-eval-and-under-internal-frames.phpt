--TEST--
Rule C12: spawn and suspend locations name eval()'d code after it is gone, and skip internal frames
--FILE--
<?php
// Spawned and suspended in eval()'d code whose op_array PHP frees when the
// eval returns: the locations stay readable after the coroutine finished.
$c = eval('return Async\spawn(function () {
    Async\suspend();
});');
Async\suspend();
Async\await($c);
var_dump($c->getSpawnLocation() === __FILE__ . "(4) : eval()'d code:1");
var_dump($c->getSuspendLocation() === __FILE__ . "(4) : eval()'d code:2");

// A spawn made by an internal function (array_map) is located at the user
// code that called it; a suspension inside a callback of an internal
// function at the callback's line.
[$d] = array_map('Async\spawn', [function () {
    array_map(function ($x) {
        Async\suspend();
    }, [1]);
}]);
Async\suspend();
Async\await($d);
var_dump($d->getSpawnLocation() === __FILE__ . ":15");
var_dump($d->getSuspendFileAndLine() === [__FILE__, 17]);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
