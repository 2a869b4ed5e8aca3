--TEST--
Rule C12: the last suspension point stays known after completion
--FILE--
<?php
$c = Async\spawn(function () {
    Async\delay(1);
    return 1;
});
Async\await($c);
var_dump($c->getSuspendFileAndLine()[1], $c->getAwaitingInfo());
?>
--EXPECT--
int(3)
array(0) {
}
