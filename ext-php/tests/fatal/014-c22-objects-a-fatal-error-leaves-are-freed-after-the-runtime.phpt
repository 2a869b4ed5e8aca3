--TEST--
Rule C22: a Pool a fatal error leaves alive is freed after the runtime is gone, without a crash (found by php-random)
--FILE--
<?php
// A fatal error skips destructors: the engine frees the Pool and its
// borrowers' values only after RSHUTDOWN, when the extension's queue of
// deferred releases is gone. Those releases must go at once, not into the
// freed queue (php-random program 3502445162009817142 crashed there).
use Async\{Pool, Scope};
use function Async\{spawn, await, suspend};

register_shutdown_function(function () { echo "shutdown function\n"; });
$pool = new Pool(fn () => new stdClass, max: 3);
$scope = new Scope();
$borrowers = [];
for ($i = 0; $i < 3; $i++) {
    $borrowers[] = $scope->spawn(function () use ($pool) {
        $r = $pool->acquire();
        suspend();
        suspend();
        $pool->release($r);
    });
}
spawn(function () {
    eval('function redeclared() {}');
    eval('function redeclared() {}');
});
foreach ($borrowers as $b) {
    await($b);
}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: Cannot redeclare redeclared() (previously declared in %s(%d) : eval()'d code:1) in %s(%d) : eval()'d code on line 1
shutdown function
