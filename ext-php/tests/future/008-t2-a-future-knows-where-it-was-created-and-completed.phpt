--TEST--
Rule T2: getCreatedFileAndLine()/getCreatedLocation() say where the future was created, getCompletedFileAndLine()/getCompletedLocation() where its state was completed ([null, 0] and "unknown" before)
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
var_dump(basename($future->getCreatedFileAndLine()[0]), $future->getCreatedFileAndLine()[1]);
var_dump($future->getCompletedFileAndLine(), $future->getCompletedLocation());
Async\spawn(function () use ($state) {
    $state->complete(true);
});
$future->await();
echo basename($future->getCompletedLocation()), " ", basename($state->getCompletedLocation()), "\n";
echo basename(Async\Future::completed(1)->getCreatedLocation()), "\n";
echo (new Async\TaskGroup())->all()->getCreatedLocation(), "\n";
?>
--EXPECT--
string(60) "008-t2-a-future-knows-where-it-was-created-and-completed.php"
int(2)
array(2) {
  [0]=>
  NULL
  [1]=>
  int(0)
}
string(7) "unknown"
008-t2-a-future-knows-where-it-was-created-and-completed.php:7 008-t2-a-future-knows-where-it-was-created-and-completed.php:7
008-t2-a-future-knows-where-it-was-created-and-completed.php:11
unknown
