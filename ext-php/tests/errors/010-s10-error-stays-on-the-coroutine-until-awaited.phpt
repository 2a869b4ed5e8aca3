--TEST--
Rule S10 (Future semantics): a coroutine that throws while nobody awaits it keeps its exception while a handle to it is alive; every later await() receives it, and then nothing escalates
--FILE--
<?php
use function Async\{spawn, suspend, await};

$c = spawn(fn() => throw new Exception("x"));
suspend();
var_dump($c->isCompleted());
try {
    await($c);
} catch (Exception $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
try {
    await($c);
} catch (Exception $again) {
    var_dump($again === $e);
}
echo "end\n";
?>
--EXPECT--
bool(true)
caught: x
bool(true)
end
