--TEST--
Rule X1 (seed 002, "Context API"): has(), get() and set() on the current context
--DESCRIPTION--
The seed keeps a PDO connection; an object stands for it (PDO may not be
installed). The seed sets a second new object instead of the one it made,
kept as written.
--FILE--
<?php
use function Async\currentContext;

$key = 'pdo connection';

for ($i = 0; $i < 2; $i++) {
    if(currentContext()->has($key)) {
        $pdo = currentContext()->get($key);
        echo "reused: ", get_class($pdo), "\n";
    } else {
        $pdo = new stdClass();
        currentContext()->set($key, new stdClass());
        echo "created\n";
    }
}
?>
--EXPECT--
created
reused: stdClass
