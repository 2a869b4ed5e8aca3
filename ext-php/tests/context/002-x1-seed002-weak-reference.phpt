--TEST--
Rule X1 (seed 002): find() dereferences a stored WeakReference; get() returns it as stored
--FILE--
<?php
use function Async\currentContext;
use function Async\spawn;

function task(): void
{
    // Should return the original object
    $pdo = currentContext()->find('pdo');
    echo get_class($pdo), " ", $pdo->dsn, "\n";
    echo get_class(currentContext()->get('pdo')), "\n";
}

$pdo = new stdClass;
$pdo->dsn = 'sqlite::memory:';
currentContext()->set('pdo', WeakReference::create($pdo));

Async\await(spawn(task(...)));
unset($pdo);
var_dump(currentContext()->find('pdo'), currentContext()->has('pdo'));
?>
--EXPECT--
stdClass sqlite::memory:
WeakReference
NULL
bool(true)
