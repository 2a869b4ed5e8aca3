--TEST--
Rule C1/C2: coroutines start in the order they were spawned
--FILE--
<?php
for ($i = 1; $i <= 5; $i++) {
    Async\spawn(function () use ($i) { echo "start $i\n"; Async\suspend(); echo "end $i\n"; });
}
echo "main\n";
?>
--EXPECT--
main
start 1
start 2
start 3
start 4
start 5
end 1
end 2
end 3
end 4
end 5
