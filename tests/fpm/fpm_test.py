#!/usr/bin/env python3
"""async.so under php-fpm behind nginx, as people deploy it (issue 25).

    fpm_test.py --php-fpm PHP_FPM --ext ASYNC_SO --backend-dir DIR --reactor NAME [--requests N]

Starts Debian's php-fpm (two static workers, async.so loaded, no php.ini)
and nginx (fastcgi to it) on 127.0.0.1 in a temporary directory, runs the
checks below, and stops both by PID, whatever happens. Prints TAP, one line
per check:

  - a page that fans out to 10 coroutines (each a 20 ms wait and a round
    trip to Redis when tests/services runs one, else to nginx) answers
    correctly, in about one wait, under a load of concurrent clients;
  - a fatal error, an out-of-memory error, max_execution_time and an
    uncaught exception inside a coroutine end that request only: the
    shutdown functions run, the workers are the same processes after, and
    the next requests are served;
  - fastcgi_finish_request() answers the client, then coroutines work on;
  - output and header() from coroutines reach the response, in order;
  - a worker's RSS stays flat over N requests (10 000 by default).

Needs php8.2-fpm and nginx-light (./dev test installs them); a missing one
is a skip, unless TASYNC_TEST_SERVICES=required.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEADLINE = time.monotonic() + 240  # the whole run, whatever happens


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, what: str, log: Path) -> None:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port}")


class Servers:
    def __init__(self, a, tmp: Path):
        self.tmp = tmp
        self.fpm_port = free_port()
        self.http_port = free_port()
        self.procs: list[subprocess.Popen] = []
        www = tmp / "www"
        shutil.copytree(HERE / "www", www)
        self.www = www
        env_lines = ""
        for k in ("TASYNC_TEST_REDIS_PORT",):
            if os.environ.get(k):
                env_lines += f"env[{k}] = {os.environ[k]}\n"
        (tmp / "fpm.conf").write_text(f"""
[global]
pid = {tmp}/fpm.pid
error_log = {tmp}/fpm.log
daemonize = no
log_level = notice

[www]
listen = 127.0.0.1:{self.fpm_port}
pm = static
pm.max_children = 2
pm.max_requests = 0
catch_workers_output = yes
decorate_workers_output = no
clear_env = yes
{env_lines}
""")
        user = "user root root;" if os.geteuid() == 0 else ""
        (tmp / "nginx.conf").write_text(f"""
daemon off;
{user}
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp};
    proxy_temp_path {tmp};
    fastcgi_temp_path {tmp};
    uwsgi_temp_path {tmp};
    scgi_temp_path {tmp};
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{self.http_port};
        root {www};
        location = /static.txt {{ }}
        location ~ \\.php$ {{
            fastcgi_pass 127.0.0.1:{self.fpm_port};
            fastcgi_keep_conn on;
            fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
            fastcgi_param QUERY_STRING $query_string;
            fastcgi_param REQUEST_METHOD $request_method;
            fastcgi_param SERVER_PORT $server_port;
            fastcgi_param SERVER_NAME $server_name;
            fastcgi_param REQUEST_URI $request_uri;
            fastcgi_read_timeout 30s;
        }}
    }}
}}
""")
        fpm_cmd = [a.php_fpm, "-n", "-F", "-y", str(tmp / "fpm.conf"),
                   "-d", f"extension={a.ext}", "-d", f"async.backend_dir={a.backend_dir}",
                   "-d", f"async.reactor={a.reactor}", "-d", "display_errors=1", "-d", "log_errors=0",
                   "-d", "html_errors=0", "-d", "memory_limit=128M"]
        if os.geteuid() == 0:
            fpm_cmd.append("-R")
        self.fpm = self.spawn(fpm_cmd, tmp / "fpm.out")
        wait_port(self.fpm_port, self.fpm, "php-fpm", tmp / "fpm.out")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.nginx = self.spawn([nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(tmp / "nginx.log")],
                                tmp / "nginx.out")
        wait_port(self.http_port, self.nginx, "nginx", tmp / "nginx.out")

    def spawn(self, cmd, log: Path) -> subprocess.Popen:
        out = open(log, "ab")
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
        out.close()
        self.procs.append(p)
        return p

    def workers(self) -> set[int]:
        """The PIDs of the FPM master's children (its workers)."""
        out = set()
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.fpm.pid:
                    out.add(int(d.name))
        return out

    def rss_kib(self, pid: int) -> int:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        # By PID: nginx (its workers are in its process group), php-fpm
        # (SIGQUIT lets it end its workers gracefully; SIGKILL after 10 s).
        for p, sig in ((getattr(self, "nginx", None), signal.SIGQUIT), (getattr(self, "fpm", None), signal.SIGQUIT)):
            if p is None or p.poll() is not None:
                continue
            try:
                p.send_signal(sig)
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def get(self, path: str, conn: http.client.HTTPConnection | None = None):
        own = conn is None
        c = conn or http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=30)
        c.request("GET", path)
        r = c.getresponse()
        body = r.read().decode(errors="replace")
        if own:
            c.close()
        return r.status, dict(r.getheaders()), body


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> None:
        self.n += 1
        if not ok:
            self.failed += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        if detail and not ok:
            for line in detail.splitlines():
                print(f"# {line}")
        sys.stdout.flush()


def fanout_ok(body: str) -> tuple[bool, dict]:
    try:
        d = json.loads(body)
    except ValueError:
        return False, {}
    return d.get("results") == [f"job{i}" for i in range(10)], d


def run(a, tap: Tap, s: Servers) -> None:
    # 1. The fan-out page, alone, then under load.
    status, _, body = s.get("/fanout.php")
    ok, d = fanout_ok(body)
    tap.check(status == 200 and ok and d["ms"] < 200,
              f"fan-out to 10 coroutines (20 ms wait + {d.get('via', '?')} round trip each) answers in one wait: "
              f"{d.get('ms', 0):.1f} ms", body)
    results = {"ok": 0, "bad": [], "ms": []}
    lock = threading.Lock()

    def client(n: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", s.http_port, timeout=30)
        for _ in range(n):
            st, _, b = s.get("/fanout.php", c)
            good, dd = fanout_ok(b)
            with lock:
                if st == 200 and good:
                    results["ok"] += 1
                    results["ms"].append(dd["ms"])
                else:
                    results["bad"].append(f"{st} {b[:200]}")
        c.close()

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(25,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(1, DEADLINE - time.monotonic()))
    wall = time.monotonic() - t0
    ms = sorted(results["ms"])
    p50 = ms[len(ms) // 2] if ms else 0
    tap.check(results["ok"] == 200 and not results["bad"],
              f"under load (8 clients x 25 requests, 2 workers): {results['ok']}/200 correct, "
              f"{200 / wall:.0f} req/s, page time p50 {p50:.1f} ms", "\n".join(results["bad"][:5]))

    # 2. Fatal errors inside coroutines end that request only.
    before = s.workers()
    expected = {
        "fatal": "Fatal error: fatal in a coroutine",
        "oom": "Allowed memory size of 33554432 bytes exhausted",
        "timeout": "Maximum execution time of 1 second exceeded",
        "exception": "Uncaught RuntimeException: uncaught in a coroutine",
    }
    for kind, text in expected.items():
        status, _, body = s.get(f"/fail.php?kind={kind}")
        went_on = "main went on" in body or "other went on" in body
        # A fatal error unwinds the other coroutines without running their
        # code (C22); an uncaught exception starts graceful shutdown (C15),
        # which cancels them: their finally blocks run.
        finally_ran = "other finally" in body
        ok = (text in body and "shutdown ran" in body and not went_on
              and finally_ran == (kind == "exception"))
        st2, _, body2 = s.get("/fanout.php")
        ok2, _ = fanout_ok(body2)
        tap.check(ok and st2 == 200 and ok2,
                  f"{kind} inside a coroutine ends that request only (status {status}); the next request is served",
                  f"{body}\n---\n{body2}")
    after = s.workers()
    log = (s.tmp / "fpm.log").read_text(errors="replace") if (s.tmp / "fpm.log").exists() else ""
    tap.check(before == after and len(after) == 2 and "exited on signal" not in log and "exited with code" not in log,
              f"the workers survived: {sorted(before)} then {sorted(after)}", log[-2000:])

    # 3. fastcgi_finish_request(), then coroutines.
    marker = s.tmp / "finish.marker"
    t0 = time.monotonic()
    status, _, body = s.get(f"/finish.php?marker={marker}")
    answered_ms = (time.monotonic() - t0) * 1000
    end = time.monotonic() + 10
    while not marker.exists() and time.monotonic() < end:
        time.sleep(0.01)
    text = marker.read_text() if marker.exists() else ""
    tap.check(status == 200 and body == "answered\n" and text == "job0,job1,job2 after the response\n",
              f"fastcgi_finish_request() answers ({answered_ms:.0f} ms), then coroutines work on",
              f"{body!r} {text!r}")

    # 4. Output and header() from coroutines.
    status, headers, body = s.get("/output.php")
    want = "from coroutine b\nfrom coroutine a\nfrom main\nbuffered in b\nmain end\n"
    tap.check(status == 200 and headers.get("X-From-Coroutine") == "yes" and body == want,
              "output and header() from coroutines reach the response, in order", f"{headers}\n{body!r}")

    # 5. RSS over N requests, per worker, on keep-alive connections.
    c = http.client.HTTPConnection("127.0.0.1", s.http_port, timeout=30)
    warm = 1000
    for _ in range(warm):
        s.get("/small.php", c)
    rss0 = {p: s.rss_kib(p) for p in s.workers()}
    bad = 0
    for _ in range(a.requests - warm):
        st, _, b = s.get("/small.php", c)
        if st != 200 or b != "505\n":
            bad += 1
        if time.monotonic() > DEADLINE:
            break
    c.close()
    rss1 = {p: s.rss_kib(p) for p in s.workers()}
    growth = max((rss1.get(p, 0) - rss0[p]) for p in rss0) if rss0 else 0
    tap.check(bad == 0 and rss0.keys() == rss1.keys() and growth < 1024,
              f"worker RSS flat over {a.requests} requests: "
              + ", ".join(f"{rss0[p] / 1024:.1f} -> {rss1.get(p, 0) / 1024:.1f} MiB" for p in sorted(rss0)),
              f"bad answers: {bad}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--php-fpm", default="php-fpm8.2")
    ap.add_argument("--ext", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--reactor", default="uv")
    ap.add_argument("--requests", type=int, default=10000)
    a = ap.parse_args()
    a.ext = os.path.abspath(a.ext)
    a.backend_dir = os.path.abspath(a.backend_dir)
    fpm = shutil.which(a.php_fpm) or (a.php_fpm if os.access(a.php_fpm, os.X_OK) else None)
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if fpm is None or nginx is None:
        missing = "php8.2-fpm" if fpm is None else "nginx"
        if os.environ.get("TASYNC_TEST_SERVICES") == "required":
            print(f"1..1\nnot ok 1 - {missing} is not installed (./dev test installs it)")
            return 1
        print(f"1..0 # SKIP {missing} is not installed (./dev test installs it)")
        return 0
    a.php_fpm = fpm
    tap = Tap()
    print("1..10")
    tmp = Path(tempfile.mkdtemp(prefix="tasync-fpm-"))
    s = None
    try:
        s = Servers(a, tmp)
        run(a, tap, s)
    except Exception as e:  # a server that did not start, a timeout
        tap.check(False, f"the run ended early: {e}")
    finally:
        if s is not None:
            s.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
