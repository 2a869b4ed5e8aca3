--TEST--
Rule G1: with a concurrency limit, spawn() suspends the caller while $queueLimit tasks wait for a slot (by default twice the concurrency; 0: no limit)
--FILE--
<?php
function produce(Async\TaskGroup $g, int $n): void {
    for ($i = 0; $i < $n; $i++) {
        $g->spawn(function () use ($i) { Async\delay(5); echo "  task $i done\n"; });
        echo "spawned $i\n";
    }
}
echo "queueLimit 1:\n";
$g = new Async\TaskGroup(1, 1);
produce($g, 4);
$g->close();
$g->awaitCompletion();
echo "default (2 x concurrency 1):\n";
$g = new Async\TaskGroup(1);
produce($g, 4);
$g->close();
$g->awaitCompletion();
echo "queueLimit 0:\n";
$g = new Async\TaskGroup(1, 0);
produce($g, 4);
$g->close();
$g->awaitCompletion();
?>
--EXPECT--
queueLimit 1:
spawned 0
spawned 1
  task 0 done
spawned 2
  task 1 done
spawned 3
  task 2 done
  task 3 done
default (2 x concurrency 1):
spawned 0
spawned 1
spawned 2
  task 0 done
spawned 3
  task 1 done
  task 2 done
  task 3 done
queueLimit 0:
spawned 0
spawned 1
spawned 2
spawned 3
  task 0 done
  task 1 done
  task 2 done
  task 3 done
