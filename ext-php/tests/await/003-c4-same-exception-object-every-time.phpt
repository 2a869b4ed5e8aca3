--TEST--
Rule C4: every awaiter gets the same exception object, every time
--FILE--
<?php
$c = Async\spawn(function () { Async\suspend(); throw new RuntimeException("once"); });
$seen = [];
$w1 = Async\spawn(function () use ($c, &$seen) { try { Async\await($c); } catch (Exception $e) { $seen[] = $e; } });
$w2 = Async\spawn(function () use ($c, &$seen) { try { Async\await($c); } catch (Exception $e) { $seen[] = $e; } });
try { Async\await($c); } catch (Exception $e) { $seen[] = $e; }
try { Async\await($c); } catch (Exception $e) { $seen[] = $e; }
Async\await($w1);
Async\await($w2);
echo count($seen), " ", count(array_unique(array_map('spl_object_id', $seen))), "\n";
var_dump($seen[0] === $c->getException());
?>
--EXPECT--
4 1
bool(true)
