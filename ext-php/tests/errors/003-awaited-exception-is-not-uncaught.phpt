--TEST--
An exception that an awaiter receives is handled: nothing is reported at the end
--FILE--
<?php
$c = Async\spawn(function () { Async\suspend(); throw new Exception("handled"); });
try { Async\await($c); } catch (Exception $e) { echo "caught ", $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
caught handled
end
