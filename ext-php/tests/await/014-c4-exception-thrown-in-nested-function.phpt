--TEST--
Rule C4: the awaiter gets the exception with the file and line where it was thrown
--FILE--
<?php
function fail() {
    throw new DomainException("deep");
}
$c = Async\spawn(function () { Async\suspend(); fail(); });
try {
    Async\await($c);
} catch (DomainException $e) {
    echo $e->getMessage(), " line ", $e->getLine(), "\n";
    echo count($e->getTrace()) >= 2 ? "trace ok\n" : "trace short\n";
}
?>
--EXPECT--
deep line 3
trace ok
