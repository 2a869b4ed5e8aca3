--TEST--
Rule T2: Future::completed() and Future::failed() return futures completed already; Future cannot be constructed without a FutureState
--FILE--
<?php
$ok = Async\Future::completed(['x' => 1]);
var_dump($ok->isCompleted(), $ok->isCancelled(), $ok->await());
var_dump(Async\Future::completed()->await());
$bad = Async\Future::failed(new DomainException("nope"));
var_dump($bad->isCompleted(), $bad->isCancelled());
try {
    Async\await($bad);
} catch (DomainException $e) {
    echo "failed: ", $e->getMessage(), "\n";
}
try {
    new Async\Future();
} catch (ArgumentCountError $e) {
    echo get_class($e), "\n";
}
var_dump(new Async\Future(new Async\FutureState()) instanceof Async\Completable);
?>
--EXPECT--
bool(true)
bool(false)
array(1) {
  ["x"]=>
  int(1)
}
NULL
bool(true)
bool(false)
failed: nope
ArgumentCountError
bool(true)
