--TEST--
Rule S2 (seed 003, "Global Scope: There's Always a Parent"): without a scope, spawn() uses the global scope
--FILE--
<?php
// Without specifying a scope
Async\spawn(function() {
    echo "I'm in global scope\n";
});

// Same as:
Async\Scope::global()->spawn(function() {
    echo "I'm in global scope\n";
});
?>
--EXPECT--
I'm in global scope
I'm in global scope
