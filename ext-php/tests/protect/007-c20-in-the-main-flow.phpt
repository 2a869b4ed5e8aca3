--TEST--
Rule C20/C3: protect() works in the main flow too
--FILE--
<?php
$main = Async\currentCoroutine();
Async\spawn(fn() => $main->cancel(new Async\CancellationError("main cancelled")));
try {
    Async\protect(function () {
        Async\delay(10);
        echo "protected work in main done\n";
    });
} catch (Async\CancellationError $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
protected work in main done
main: main cancelled
