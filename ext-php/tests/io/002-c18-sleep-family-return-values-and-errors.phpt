--TEST--
Rule C18: sleep, usleep, time_nanosleep, time_sleep_until return and fail inside coroutines exactly as PHP documents
--FILE--
<?php
use function Async\spawn;
use function Async\await;

await(spawn(function () {
    var_dump(sleep(0));
    var_dump(usleep(10));
    var_dump(time_nanosleep(0, 1000));
    var_dump(time_sleep_until(microtime(true) + 0.01));
    $calls = [
        fn() => sleep(-1),
        fn() => usleep(-1),
        fn() => time_nanosleep(-1, 0),
        fn() => time_nanosleep(0, -1),
        fn() => time_nanosleep(0, 1000000000),
        fn() => sleep("soon"),
        fn() => time_sleep_until(1),
    ];
    foreach ($calls as $call) {
        try {
            var_dump($call());
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}));
?>
--EXPECTF--
int(0)
NULL
bool(true)
bool(true)
ValueError: sleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
ValueError: Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative
TypeError: sleep(): Argument #1 ($seconds) must be of type int, string given

Warning: time_sleep_until(): Argument #1 ($timestamp) must be greater than or equal to the current time in %s on line %d
bool(false)
