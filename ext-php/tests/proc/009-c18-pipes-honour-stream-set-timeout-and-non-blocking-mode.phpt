--TEST--
C18: in a coroutine a pipe honours stream_set_timeout() (the read returns an empty string and timed_out is set, as on a socket) and a non-blocking pipe never waits
--FILE--
<?php
Async\await(Async\spawn(function () {
    $p = proc_open('sleep 2', [1 => ['pipe', 'w']], $pipes);
    var_dump(stream_set_timeout($pipes[1], 0, 100000));
    $start = hrtime(true);
    var_dump(fread($pipes[1], 10), fgets($pipes[1]));
    $ms = (hrtime(true) - $start) / 1e6;
    echo "waited at least 0.2 s: ", $ms >= 190 ? "yes" : "no ($ms ms)", "\n";
    $md = stream_get_meta_data($pipes[1]);
    var_dump($md['timed_out'], $md['eof'], feof($pipes[1]));

    var_dump(stream_set_blocking($pipes[1], false));
    $start = hrtime(true);
    var_dump(fread($pipes[1], 10));
    $ms = (hrtime(true) - $start) / 1e6;
    echo "did not wait: ", $ms < 50 ? "yes" : "no ($ms ms)", "\n";
    var_dump(stream_get_meta_data($pipes[1])['blocked']);
    proc_terminate($p);
    proc_close($p);

    // Data before the deadline ends the wait; timed_out is clear again.
    $p = proc_open('sleep 0.1; echo late', [1 => ['pipe', 'w']], $pipes);
    stream_set_timeout($pipes[1], 5);
    var_dump(fgets($pipes[1]), stream_get_meta_data($pipes[1])['timed_out']);
    proc_close($p);
}));
?>
--EXPECT--
bool(true)
string(0) ""
bool(false)
waited at least 0.2 s: yes
bool(true)
bool(false)
bool(false)
bool(true)
string(0) ""
did not wait: yes
bool(false)
string(5) "late
"
bool(false)
