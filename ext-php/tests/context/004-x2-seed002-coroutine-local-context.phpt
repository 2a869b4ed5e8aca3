--TEST--
Rule X2 (seed 002, "Coroutine local context"): a coroutine's private context is not seen by the coroutines it spawns
--FILE--
<?php
use function Async\coroutineContext;
use function Async\spawn;

function task(): void
{
    coroutineContext()->set('data', 'This local data');
    echo coroutineContext()->find('data')."\n";

    Async\await(spawn(function() {
         // No data will be found
         var_dump(coroutineContext()->find('data'));
    }));
}
Async\await(spawn(task(...)));
?>
--EXPECT--
This local data
NULL
