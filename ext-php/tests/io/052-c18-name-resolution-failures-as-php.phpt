--TEST--
Rule C18: failed lookups inside coroutines behave as PHP's: the name back, false, and PHP's warnings
--FILE--
<?php
use function Async\spawn;
use function Async\await;

await(spawn(function () {
    var_dump(gethostbyname('no-such-host.invalid'));
    var_dump(gethostbynamel('no-such-host.invalid'));
    var_dump(strlen(gethostbyname(str_repeat('a', 300))));
    var_dump(gethostbynamel(str_repeat('a', 300)));
    var_dump(gethostbyaddr('not an address'));
    var_dump(stream_socket_client('tcp://no-such-host.invalid:80', $errno, $errstr, 5), $errno);
}));
?>
--EXPECTF--
string(20) "no-such-host.invalid"
bool(false)

Warning: gethostbyname(): Host name cannot be longer than 255 characters in %s on line %d
int(300)

Warning: gethostbynamel(): Host name cannot be longer than 255 characters in %s on line %d
bool(false)

Warning: gethostbyaddr(): Address is not a valid IPv4 or IPv6 address in %s on line %d
bool(false)

Warning: stream_socket_client(): php_network_getaddresses: getaddrinfo for no-such-host.invalid failed: %s in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://no-such-host.invalid:80 (php_network_getaddresses: getaddrinfo for no-such-host.invalid failed: %s) in %s on line %d
bool(false)
int(0)
