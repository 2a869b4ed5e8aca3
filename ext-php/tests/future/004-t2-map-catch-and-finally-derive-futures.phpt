--TEST--
Rule T2: map() runs on success and passes a failure on, catch() runs on failure and passes a value on, finally() always runs with the value or the error and keeps the outcome unless it throws; each call derives an independent future
--FILE--
<?php
$state = new Async\FutureState();
$source = new Async\Future($state);
$doubled = $source->map(fn ($v) => $v * 2);
$tripled = $source->map(fn ($v) => $v * 3);
$text = $doubled->map(fn ($v) => "value $v")->catch(fn ($e) => "not called");
$kept = $source->finally(function ($v) { echo "finally saw $v\n"; });
$state->complete(7);
echo $doubled->await(), " ", $tripled->await(), " ", $text->await(), " ", $kept->await(), "\n";

$failing = Async\Future::failed(new RuntimeException("source error"));
$recovered = $failing
    ->map(function ($v) { echo "map not called\n"; return $v; })
    ->catch(fn (Throwable $e) => "recovered: " . $e->getMessage());
echo $recovered->await(), "\n";
$still = $failing->finally(function ($e) { echo "finally saw ", get_class($e), "\n"; });
try {
    $still->await();
} catch (RuntimeException $e) {
    echo "finally kept the error: ", $e->getMessage(), "\n";
}
$thrown = Async\Future::completed(1)->map(function ($v) { throw new LogicException("in map"); })
    ->catch(fn ($e) => "caught " . $e->getMessage());
echo $thrown->await(), "\n";
$replaced = Async\Future::completed(1)->finally(function () { throw new LogicException("in finally"); });
try {
    $replaced->await();
} catch (LogicException $e) {
    echo "finally's exception: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
finally saw 7
14 21 value 14 7
recovered: source error
finally saw RuntimeException
finally kept the error: source error
caught in map
finally's exception: in finally
