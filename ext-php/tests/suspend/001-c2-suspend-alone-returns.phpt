--TEST--
Rule C2: suspend() with nothing else runnable returns at once
--FILE--
<?php
Async\suspend();
echo "back\n";
Async\suspend();
Async\suspend();
echo "done\n";
?>
--EXPECT--
back
done
