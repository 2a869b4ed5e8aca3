--TEST--
Rule C1: spawn() passes positional and named arguments to the callable
--FILE--
<?php
use function Async\{spawn, await};

function greet(string $greeting, string $name = "nobody", string ...$rest): string {
    return "$greeting, $name" . ($rest ? " and " . implode(", ", $rest) : "");
}
echo await(spawn('greet', 'Hello', 'World')), "\n";
echo await(spawn('greet', 'Hi')), "\n";
echo await(spawn('greet', name: 'Ann', greeting: 'Hey')), "\n";
echo await(spawn('greet', 'Yo', 'A', 'B', 'C')), "\n";
echo await(spawn(strtoupper(...), 'first-class callable')), "\n";
echo await(spawn([new ArrayObject([1, 2, 3]), 'count'])), "\n";
echo await(spawn('str_repeat', 'ab', 3)), "\n";
?>
--EXPECT--
Hello, World
Hi, nobody
Hey, Ann
Yo, A and B, C
FIRST-CLASS CALLABLE
3
ababab
