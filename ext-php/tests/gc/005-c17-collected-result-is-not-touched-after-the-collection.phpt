--TEST--
Rule C17: a cycle through a coroutine's result is collected, and nothing touches it afterwards (valgrind)
--DESCRIPTION--
The collector frees a cycle's values when it ends; the core's reference to
the result box must be dropped during the collection, not at the next safe
point (a use after free that the valgrind run of this suite catches).
--FILE--
<?php
class Node { public $co; }
for ($i = 0; $i < 3; $i++) {
    $n = new Node;
    $n->co = Async\spawn(fn() => $n);
    Async\await($n->co);
    unset($n);
    var_dump(gc_collect_cycles() >= 2);
    Async\suspend();
}
echo "done\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
done
