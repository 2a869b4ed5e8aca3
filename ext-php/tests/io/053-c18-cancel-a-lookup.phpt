--TEST--
Rule C18: a cancelled lookup fails as a failed one: gethostbyname() returns the name; the cancellation is thrown at the next suspension
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$resolver = spawn(function () {
    var_dump(gethostbyname('localhost'));
    Async\suspend();
    echo "not reached\n";
});
spawn(function () use ($resolver) { $resolver->cancel(); });
try {
    await($resolver);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
?>
--EXPECTF--
string(%d) "%s"
await: cancelled
