#!/usr/bin/env python3
"""The multi-process server example (examples/php/http_workers.php) does what
README promises (issue 13, item 5):

1. N workers answer keep-alive HTTP requests on one port (SO_REUSEPORT);
2. a worker that dies (SIGKILL) is restarted by the master, and the port
   keeps answering;
3. on SIGTERM to the master, every worker closes its idle keep-alive
   connections, the master exits 0 and no process of the tree is left.

    http_workers_test.py PHP ASYNC_SO BACKEND_DIR [--workers=2] [--reactor=NAME]

Bounded: every wait has a deadline; on any failure every process of the
tree (the master and the workers it started, found through the
parent field of /proc/*/stat) is killed by PID before the test exits.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REQUEST = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n"


def children(pid):
    """Live direct children of pid (the parent field of /proc/*/stat)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(") ", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry))
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def wait_until(what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_response(sock):
    """One response of the example's fixed shape; returns its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"connection closed mid-response: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(body) < length:
        body += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 200 OK"), head
    return body


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def serves(port):
    try:
        with connect(port) as s:
            s.sendall(REQUEST)
            return read_response(s) == b"Hello, World!"
    except OSError:
        return False


def main():
    php, ext, backend_dir = sys.argv[1:4]
    workers = 2
    reactor = []
    for arg in sys.argv[4:]:
        if arg.startswith("--workers="):
            workers = int(arg.split("=", 1)[1])
        elif arg.startswith("--reactor="):
            reactor = ["-d", "async.reactor=" + arg.split("=", 1)[1]]
        else:
            raise SystemExit(f"http_workers_test.py: unknown argument {arg}")
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="http-workers-", suffix=".log", delete=False)
    cmd = [php, "-n", "-d", f"extension={ext}", "-d", f"async.backend_dir={backend_dir}", *reactor,
           os.path.join(HERE, "http_workers.php"), f"--port={port}", f"--workers={workers}"]
    master = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    tree = set()

    def stderr_text():
        with open(log.name, errors="replace") as f:
            return f.read()

    try:
        # 1. Every worker is up and the port answers keep-alive requests.
        wait_until(f"{workers} workers", lambda: len(children(master.pid)) == workers, 15)
        tree.update(children(master.pid))
        wait_until("the port to answer", lambda: serves(port), 15)
        with connect(port) as s:
            for _ in range(100):
                s.sendall(REQUEST)
                assert read_response(s) == b"Hello, World!"
        # Several connections at once (the kernel spreads them over the workers).
        socks = [connect(port) for _ in range(20)]
        for s in socks:
            s.sendall(REQUEST)
        for s in socks:
            assert read_response(s) == b"Hello, World!"
            s.close()
        print(f"ok 1 - {workers} workers answer 120 keep-alive requests on port {port}")

        # 2. A worker killed with SIGKILL is restarted; the port keeps answering.
        victim = sorted(children(master.pid))[0]
        os.kill(victim, signal.SIGKILL)
        wait_until("the restart message", lambda: "restarting it" in stderr_text(), 15)
        wait_until(f"{workers} workers again",
                   lambda: len(children(master.pid)) == workers and victim not in children(master.pid), 15)
        tree.update(children(master.pid))
        for _ in range(10):
            assert serves(port)
        print(f"ok 2 - worker {victim} killed by SIGKILL was restarted and the port answers")

        # 3. SIGTERM drains: idle keep-alive connections are closed, the
        # master exits 0, every worker is gone.
        idle = [connect(port) for _ in range(10)]
        for s in idle:
            s.sendall(REQUEST)
            read_response(s)
        master.send_signal(signal.SIGTERM)
        status = master.wait(timeout=20)
        assert status == 0, f"master exited {status}; its log:\n{stderr_text()}"
        for s in idle:
            s.settimeout(10)
            assert s.recv(4096) == b"", "an idle keep-alive connection was not closed"
            s.close()
        wait_until("every worker to exit", lambda: not any(alive(p) for p in tree), 10)
        text = stderr_text()
        assert text.count("drained") >= workers, text
        # Idle connections are closed by the drain itself, not by the 10 s
        # cancel-everything fallback.
        assert "still running" not in text, text
        print(f"ok 3 - SIGTERM: {len(idle)} idle connections closed, master exited 0, "
              f"{len(tree)} worker processes gone")
        return 0
    except Exception:
        print(f"not ok - the master's log:\n{stderr_text()}")
        raise
    finally:
        tree.update(children(master.pid))
        for pid in [master.pid] + sorted(tree):
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        try:
            master.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        os.unlink(log.name)


if __name__ == "__main__":
    sys.exit(main())
