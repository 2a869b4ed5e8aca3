--TEST--
Rule C15: every coroutine receives the very CancellationError given to gracefulShutdown()
--FILE--
<?php
$error = new Async\CancellationError("bye");
$got = [];
for ($i = 0; $i < 2; $i++) {
    Async\spawn(function () use (&$got) { try { Async\delay(60000); } catch (Async\CancellationError $e) { $got[] = $e; } });
}
Async\suspend();
Async\spawn(fn() => Async\gracefulShutdown($error));
try { Async\delay(60000); } catch (Async\CancellationError $e) { $got[] = $e; }
Async\suspend();
var_dump(count($got));
foreach ($got as $e) var_dump($e === $error);
?>
--EXPECT--
int(3)
bool(true)
bool(true)
bool(true)
