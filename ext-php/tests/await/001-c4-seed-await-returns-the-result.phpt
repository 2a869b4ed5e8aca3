--TEST--
Rule C4 (seed 001): await() returns the coroutine's result
--DESCRIPTION--
The seed reads "file.txt"; this test reads a file it writes itself.
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$file = __DIR__ . '/001-data.txt';
file_put_contents($file, "file contents\n");

function fetchData(string $file): string
{
    $result = file_get_contents($file);

    if($result === false) {
        throw new Exception("Error reading $file");
    }

    return $result;
}
echo await(spawn(fetchData(...), $file));
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-data.txt'); ?>
--EXPECT--
file contents
