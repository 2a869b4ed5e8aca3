--TEST--
Rule G2: each awaitable a generator yields is awaited at once, so a failure while the generator is busy is the combinator's; a generator that throws leaves nothing subscribed
--FILE--
<?php
function jobs() {
    yield 'early' => Async\spawn(function () { throw new RuntimeException("failed while the generator was busy"); });
    Async\delay(20); // the generator does I/O before the next job
    yield 'later' => Async\spawn(fn() => "later result");
}
[$results, $errors] = Async\await_all(jobs());
var_dump($results);
foreach ($errors as $k => $e) echo "$k: ", $e->getMessage(), "\n";

$scope = new Async\Scope();
$scope->setExceptionHandler(fn($s, $c, $e) => print("not reached: {$e->getMessage()}\n"));
function broken(Async\Scope $scope) {
    yield $scope->spawn(function () { Async\delay(10); throw new LogicException("failed after the generator broke"); });
    throw new DomainException("generator broke");
}
try {
    Async\await_all_or_fail(broken($scope));
} catch (DomainException $e) {
    echo "await_all_or_fail: ", $e->getMessage(), "\n";
    // What the generator handed over before it threw counts as observed
    // (S10, issue 23): the call answered for it with its own exception.
    unset($e);
}
$scope->awaitCompletion(Async\timeout(60000));
echo "end\n";
?>
--EXPECT--
array(1) {
  ["later"]=>
  string(12) "later result"
}
early: failed while the generator was busy
await_all_or_fail: generator broke
end
