--TEST--
Rule T3: tryAcquire() returns an idle resource or null at once; it never waits and never creates one
--FILE--
<?php
$made = 0;
$pool = new Async\Pool(function () use (&$made) { return ++$made; }, max: 1);
var_dump($pool->tryAcquire());
$r = $pool->acquire();
var_dump($pool->tryAcquire());
$pool->release($r);
var_dump($pool->tryAcquire(), $made);
?>
--EXPECT--
NULL
NULL
int(1)
int(1)
