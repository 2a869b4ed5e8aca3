--TEST--
Rule C13 (seed 001, changed): new Fiber inside a coroutine works, start, suspend, resume and return included
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$co = spawn(function() {
    $fiber = new Fiber(function($a) {
        echo "in the fiber: $a\n";
        $b = Fiber::suspend($a * 2);
        echo "resumed with: $b\n";
        return $b . "!";
    });
    $got = $fiber->start(21);
    echo "started, got $got\n";
    $fiber->resume("x");
    return $fiber->getReturn();
});
var_dump(await($co));
?>
--EXPECT--
in the fiber: 21
started, got 42
resumed with: x
string(2) "x!"
