--TEST--
Rule S13: isFinished(), isClosed(), isCancelled() through a scope's life
--FILE--
<?php
function show(string $when, Async\Scope $s) {
    printf("%-22s finished=%d closed=%d cancelled=%d\n", $when, $s->isFinished(), $s->isClosed(), $s->isCancelled());
}
$s = new Async\Scope();
show("new", $s);
$s->spawn(fn() => Async\delay(5));
show("running", $s);
$s->awaitCompletion(Async\timeout(60000));
show("done", $s);
$s->disposeSafely();
show("disposed", $s);
$t = new Async\Scope();
$t->spawn(fn() => Async\delay(60000));
Async\suspend();
$t->cancel();
show("cancelled", $t);
Async\suspend();
show("cancelled, unwound", $t);
$u = new Async\Scope();
$u->spawn(fn() => 1);
$u->cancel();
show("cancelled unstarted", $u);
?>
--EXPECT--
new                    finished=1 closed=0 cancelled=0
running                finished=0 closed=0 cancelled=0
done                   finished=1 closed=0 cancelled=0
disposed               finished=1 closed=1 cancelled=0
cancelled              finished=0 closed=1 cancelled=1
cancelled, unwound     finished=1 closed=1 cancelled=1
cancelled unstarted    finished=1 closed=1 cancelled=1
