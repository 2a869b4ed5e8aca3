--TEST--
Rule S15/S8: a Scope released when no user code runs (its last holder was a finished coroutine) warns at a real location: where it was created
--FILE--
<?php
$s = new Async\Scope();
$s->spawn(function () { Async\delay(30); echo "scope task finishes\n"; });
$c = Async\spawn(function () use ($s) { Async\delay(5); echo "holder done\n"; });
unset($s);
Async\await($c);
unset($c);
Async\delay(60);
echo "end\n";
?>
--EXPECTF--
holder done

Warning: Scope created at %s:2 was destroyed with 1 active coroutine(s) that were never awaited or disposed in %s on line 2

Warning: Coroutine is zombie at %s:3 in Scope created at %s:2, disposed when released in %s on line 2
scope task finishes
end
