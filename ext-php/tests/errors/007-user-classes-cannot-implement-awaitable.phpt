--TEST--
Awaitable and FutureLike are implemented by the extension's classes only
--FILE--
<?php
class Mine implements Async\FutureLike {
    public function cancel(?Async\CancellationError $c = null): void {}
    public function isCompleted(): bool { return true; }
    public function isCancelled(): bool { return false; }
}
?>
--EXPECTF--
Fatal error: Class Mine cannot implement interface Async\%s: it is implemented by the extension's classes only in %s on line %d
