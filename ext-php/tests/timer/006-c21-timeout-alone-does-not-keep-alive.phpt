--TEST--
Rule C21: an unawaited timeout does not keep the script alive
--FILE--
<?php
$t = hrtime(true);
$timeout = Async\timeout(5000);
Async\spawn(fn() => 1);
echo "end\n";
register_shutdown_function(function () use ($t) {
    echo (hrtime(true) - $t) / 1e6 < 2000 ? "did not wait\n" : "waited\n";
});
?>
--EXPECT--
end
did not wait
