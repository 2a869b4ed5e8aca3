--TEST--
Rule T4: joinAny() delivers the next successful result (the failed tasks stay in the set); when every task in the set has failed it fails with a CompositeException of their errors, which leave the set
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawn(function () { Async\delay(5); throw new RuntimeException("first failure"); });
$set->spawn(function () { Async\delay(15); return "success"; });
$set->spawn(function () { Async\delay(25); throw new LogicException("second failure"); });
echo $set->joinAny()->await(), ", count ", count($set), "\n";
try {
    $set->joinAny()->await();
} catch (Async\CompositeException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
    foreach ($e->getExceptions() as $inner) {
        echo "  ", get_class($inner), ": ", $inner->getMessage(), "\n";
    }
}
echo "count ", count($set), "\n";
$c = new Async\CompositeException("mine");
$c->addException(new Exception("a"));
echo count($c->getExceptions()), "\n";
?>
--EXPECT--
success, count 2
Async\CompositeException: All tasks of the TaskSet failed
  RuntimeException: first failure
  LogicException: second failure
count 0
1
