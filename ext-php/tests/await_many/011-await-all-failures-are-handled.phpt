--TEST--
await_all(): failures it collects are handled, not reported as uncaught
--FILE--
<?php
[, $errors] = Async\await_all([Async\spawn(function () { throw new RuntimeException("collected"); })]);
echo count($errors), " ", $errors[0]->getMessage(), "\n";
echo "end\n";
?>
--EXPECT--
1 collected
end
