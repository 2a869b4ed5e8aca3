--TEST--
Rule C9: CancellationError extends \Error, not \Exception; the aliases name the same classes
--FILE--
<?php
$e = new Async\CancellationError("x");
var_dump($e instanceof Error, $e instanceof Exception, $e instanceof Throwable);
var_dump(is_subclass_of(Async\AwaitCancelledException::class, Async\CancellationError::class));
var_dump(Async\AsyncCancellation::class, get_class(new Async\AsyncCancellation()));
var_dump(get_class(new Async\OperationCanceledException()));
var_dump(is_subclass_of(Async\AsyncException::class, Exception::class), is_subclass_of(Async\DeadlockError::class, Error::class));
var_dump(interface_exists(Async\Completable::class), (new ReflectionClass('Async\Completable'))->getName());
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
string(23) "Async\AsyncCancellation"
string(23) "Async\CancellationError"
string(29) "Async\AwaitCancelledException"
bool(true)
bool(true)
bool(true)
string(16) "Async\FutureLike"
