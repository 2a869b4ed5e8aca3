--TEST--
Rule C11/C3: onFinally() on the main coroutine is accepted; the main coroutine never completes within the request, so it never runs
--FILE--
<?php
Async\currentCoroutine()->onFinally(fn() => print("main finished?\n"));
echo "end of script\n";
?>
--EXPECT--
end of script
