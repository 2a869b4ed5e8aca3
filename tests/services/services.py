#!/usr/bin/env python3
"""Real servers for the test suites, on 127.0.0.1 only, from Debian's packages.

    services.py start DIR [--only NAME,...]   start them, write DIR/env.sh and DIR/env.json
    services.py stop DIR                      stop what DIR/pids lists, by PID, and remove DIR
    services.py env DIR                       print DIR/env.sh

NAME is one of: mysql (MariaDB), redis, pgsql (PostgreSQL), http (nginx
serving http:// and three https:// ports: a certificate signed by a test CA
for localhost and 127.0.0.1, one signed by the same CA for another name, and
a self-signed one). Everything lives in DIR: data, sockets, logs, keys. Every
server runs in the foreground of a process of its own (no daemonizing), and
`stop` kills each by the PID recorded when it was started, waits for it, and
kills it hard if it does not end within 10 seconds.

The tests learn the addresses from the environment (env.sh exports them):

    TASYNC_TEST_MYSQL_HOST, _PORT, _USER, _PASSWORD, _DB, _SOCKET
    TASYNC_TEST_REDIS_HOST, _PORT
    TASYNC_TEST_PGSQL_HOST, _PORT, _USER, _PASSWORD, _DB, TASYNC_TEST_PGSQL_DSN (libpq keyword form)
    TASYNC_TEST_HTTP_URL          http://127.0.0.1:PORT
    TASYNC_TEST_HTTPS_URL         https://localhost:PORT   (trusted through TASYNC_TEST_CA_FILE)
    TASYNC_TEST_HTTPS_WRONG_NAME_URL, TASYNC_TEST_HTTPS_UNTRUSTED_URL, TASYNC_TEST_CA_FILE

Paths served on the http and https ports: /hello ("hello\\n"), /delay?s=0.2
(answers "slept 0.2\\n" after that many seconds), /big?n=N (N times 10 bytes),
/echo (the request body), /status/404, /drip?n=N&s=S (N lines, S seconds
apart, each flushed).
"""
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ALL = ["mysql", "redis", "pgsql", "http"]
START_TIMEOUT = 60.0


class ServiceError(Exception):
    pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what: str, check, timeout: float = START_TIMEOUT, proc=None, log=None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServiceError(f"{what} exited with status {proc.returncode}" + tail(log))
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise ServiceError(f"{what} did not become ready within {timeout:.0f} s" + tail(log))


def tail(log) -> str:
    if log is None or not Path(log).exists():
        return ""
    lines = Path(log).read_text(errors="replace").splitlines()[-15:]
    return "\n  " + "\n  ".join(lines) if lines else ""


def tcp_ready(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=1):
        return True


def run(cmd, **kw) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    if r.returncode != 0:
        raise ServiceError(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r.stdout


def find_binary(*names: str) -> str:
    for n in names:
        p = shutil.which(n) or (n if os.path.isabs(n) and os.access(n, os.X_OK) else None)
        if p:
            return p
    raise ServiceError(f"none of {', '.join(names)} is installed (./dev test installs them)")


class Services:
    def __init__(self, root: Path):
        self.root = root
        self.env: dict[str, str] = {}
        self.pids: list[dict] = []
        self.lock = threading.Lock()

    def spawn(self, name: str, cmd, log: Path, **kw) -> subprocess.Popen:
        out = open(log, "ab")
        proc = subprocess.Popen([str(c) for c in cmd], stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, **kw)
        out.close()
        with self.lock:
            self.pids.append({"name": name, "pid": proc.pid})
            self.save_pids()
        return proc

    def save_pids(self) -> None:
        (self.root / "pids.json").write_text(json.dumps(self.pids))

    def add_env(self, **values: str) -> None:
        with self.lock:
            self.env.update(values)

    # ----------------------------------------------------------------- MariaDB
    def start_mysql(self) -> None:
        d = self.root / "mysql"
        data = d / "data"
        data.mkdir(parents=True)
        sock = d / "mysql.sock"
        log = d / "mysql.log"
        port = free_port()
        root_user = ["--user=root"] if os.geteuid() == 0 else []
        run([find_binary("mariadb-install-db", "mysql_install_db"), "--no-defaults", f"--datadir={data}",
             "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve"] + root_user,
            cwd=d)
        proc = self.spawn("mysql", [find_binary("mariadbd", "mysqld", "/usr/sbin/mariadbd", "/usr/sbin/mysqld"),
                                    "--no-defaults", f"--datadir={data}", f"--socket={sock}", f"--port={port}",
                                    "--bind-address=127.0.0.1", f"--pid-file={d / 'mysql.pid'}",
                                    f"--log-error={log}", "--skip-log-bin", "--skip-name-resolve",
                                    "--innodb-buffer-pool-size=32M", "--max-connections=300"] + root_user,
                          d / "mysqld.out")
        client = find_binary("mariadb", "mysql")
        wait_until("MariaDB", lambda: subprocess.run(
            [client, "--no-defaults", f"--socket={sock}", "-uroot", "-e", "SELECT 1"],
            capture_output=True, timeout=10).returncode == 0, proc=proc, log=log)
        run([client, "--no-defaults", f"--socket={sock}", "-uroot", "-e",
             "CREATE DATABASE tasync_test; "
             "CREATE USER 'tasync'@'127.0.0.1' IDENTIFIED BY 'tasync-pw'; "
             "CREATE USER 'tasync'@'localhost' IDENTIFIED BY 'tasync-pw'; "
             "GRANT ALL ON tasync_test.* TO 'tasync'@'127.0.0.1'; "
             "GRANT ALL ON tasync_test.* TO 'tasync'@'localhost';"])
        self.add_env(TASYNC_TEST_MYSQL_HOST="127.0.0.1", TASYNC_TEST_MYSQL_PORT=str(port),
                        TASYNC_TEST_MYSQL_USER="tasync", TASYNC_TEST_MYSQL_PASSWORD="tasync-pw",
                        TASYNC_TEST_MYSQL_DB="tasync_test", TASYNC_TEST_MYSQL_SOCKET=str(sock))

    # ------------------------------------------------------------------- Redis
    def start_redis(self) -> None:
        d = self.root / "redis"
        d.mkdir(parents=True)
        port = free_port()
        log = d / "redis.log"
        proc = self.spawn("redis", [find_binary("redis-server"), "--port", port, "--bind", "127.0.0.1",
                                    "--save", "", "--appendonly", "no", "--dir", d, "--daemonize", "no",
                                    "--logfile", log, "--protected-mode", "yes"], d / "redis.out")

        def ping() -> bool:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        wait_until("Redis", ping, proc=proc, log=log)
        self.add_env(TASYNC_TEST_REDIS_HOST="127.0.0.1", TASYNC_TEST_REDIS_PORT=str(port))

    # -------------------------------------------------------------- PostgreSQL
    def start_pgsql(self) -> None:
        bindir = None
        for cand in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
            if (cand / "initdb").exists():
                bindir = cand
                break
        if bindir is None:
            raise ServiceError("PostgreSQL's initdb was not found (install postgresql)")
        d = self.root / "pgsql"
        d.mkdir(parents=True)
        data = d / "data"
        log = d / "postgres.log"
        pwfile = d / "pw"
        pwfile.write_text("tasync-pw\n")
        port = free_port()
        kw = {}
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: the Debian package's user runs it.
            try:
                pg = pwd.getpwnam("postgres")
            except KeyError:
                raise ServiceError("running as root and there is no 'postgres' user to run PostgreSQL")
            for p in (self.root, d):
                os.chmod(p, 0o755)
            for p in (d, pwfile):
                os.chown(p, pg.pw_uid, pg.pw_gid)
            kw = dict(user=pg.pw_uid, group=pg.pw_gid, extra_groups=[])
        run([bindir / "initdb", "-D", data, "-U", "tasync", f"--pwfile={pwfile}", "--auth-local=trust",
             "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"], cwd=d, **kw)
        proc = self.spawn("pgsql", [bindir / "postgres", "-D", data, "-p", port, "-k", d,
                                    "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                    "-c", "max_connections=300", "-c", f"logging_collector=off"],
                          log, cwd=d, **kw)
        env = dict(os.environ, PGPASSWORD="tasync-pw")
        psql = [find_binary("psql"), "-h", "127.0.0.1", "-p", str(port), "-U", "tasync", "-v", "ON_ERROR_STOP=1"]
        wait_until("PostgreSQL", lambda: subprocess.run(psql + ["-d", "postgres", "-c", "SELECT 1"],
                                                        capture_output=True, timeout=10, env=env).returncode == 0,
                   proc=proc, log=log)
        run(psql + ["-d", "postgres", "-c", "CREATE DATABASE tasync_test"], env=env)
        self.add_env(TASYNC_TEST_PGSQL_HOST="127.0.0.1", TASYNC_TEST_PGSQL_PORT=str(port),
                        TASYNC_TEST_PGSQL_USER="tasync", TASYNC_TEST_PGSQL_PASSWORD="tasync-pw",
                        TASYNC_TEST_PGSQL_DB="tasync_test",
                        TASYNC_TEST_PGSQL_DSN=f"host=127.0.0.1 port={port} dbname=tasync_test "
                                              f"user=tasync password=tasync-pw")

    # ------------------------------------------------------------ HTTP / HTTPS
    def make_certificates(self, d: Path) -> None:
        openssl = find_binary("openssl")
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        run([openssl, "req", "-x509"] + ec + ["-keyout", d / "ca.key", "-out", d / "ca.crt", "-days", "3",
                                              "-subj", "/CN=tasync test CA"])
        for name, cn, san in (("good", "localhost", "DNS:localhost,IP:127.0.0.1"),
                              ("wrong", "wrong.example", "DNS:wrong.example")):
            ext = d / f"{name}.ext"
            ext.write_text(f"subjectAltName={san}\nbasicConstraints=CA:FALSE\n"
                           "keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n")
            run([openssl, "req", "-new"] + ec + ["-keyout", d / f"{name}.key", "-out", d / f"{name}.csr",
                                                 "-subj", f"/CN={cn}"])
            run([openssl, "x509", "-req", "-in", d / f"{name}.csr", "-CA", d / "ca.crt", "-CAkey", d / "ca.key",
                 "-CAcreateserial", "-out", d / f"{name}.crt", "-days", "3", "-extfile", ext])
        run([openssl, "req", "-x509"] + ec + ["-keyout", d / "self.key", "-out", d / "self.crt", "-days", "3",
                                              "-subj", "/CN=localhost", "-addext",
                                              "subjectAltName=DNS:localhost,IP:127.0.0.1"])

    def start_http(self) -> None:
        d = self.root / "http"
        d.mkdir(parents=True)
        (d / "tmp").mkdir()
        self.make_certificates(d)
        module = Path("/usr/lib/nginx/modules/ngx_http_echo_module.so")
        if not module.exists():
            raise ServiceError("nginx's echo module is missing (install libnginx-mod-http-echo)")
        http, good, wrong, untrusted = free_port(), free_port(), free_port(), free_port()
        locations = """
        location = /hello { echo "hello"; }
        location = /delay { echo_sleep $arg_s; echo "slept $arg_s"; }
        location = /big { echo_duplicate $arg_n "0123456789"; }
        location = /echo { echo_read_request_body; echo_request_body; }
        location = /status/404 { return 404 "not found\\n"; }
        location = /drip { echo "0"; echo_flush; echo_sleep $arg_s; echo "1"; echo_flush; echo_sleep $arg_s; echo "2"; }
        """
        tls = "ssl_protocols TLSv1.2 TLSv1.3;"
        conf = f"""
load_module {module};
daemon off;
{'user root root;' if os.geteuid() == 0 else ''}
worker_processes 2;
pid {d / 'nginx.pid'};
error_log {d / 'error.log'} warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    default_type text/plain;
    client_body_temp_path {d / 'tmp'};
    proxy_temp_path {d / 'tmp'};
    fastcgi_temp_path {d / 'tmp'};
    uwsgi_temp_path {d / 'tmp'};
    scgi_temp_path {d / 'tmp'};
    keepalive_requests 100000;
    server {{ listen 127.0.0.1:{http}; {locations} }}
    server {{ listen 127.0.0.1:{good} ssl; {tls} ssl_certificate {d / 'good.crt'}; ssl_certificate_key {d / 'good.key'}; {locations} }}
    server {{ listen 127.0.0.1:{wrong} ssl; {tls} ssl_certificate {d / 'wrong.crt'}; ssl_certificate_key {d / 'wrong.key'}; {locations} }}
    server {{ listen 127.0.0.1:{untrusted} ssl; {tls} ssl_certificate {d / 'self.crt'}; ssl_certificate_key {d / 'self.key'}; {locations} }}
}}
"""
        (d / "nginx.conf").write_text(conf)
        proc = self.spawn("http", [find_binary("nginx", "/usr/sbin/nginx"), "-p", d, "-c", d / "nginx.conf",
                                   "-e", d / "error.log"], d / "nginx.out")
        for p in (http, good, wrong, untrusted):
            wait_until("nginx", lambda p=p: tcp_ready(p), proc=proc, log=d / "error.log")
        self.add_env(TASYNC_TEST_HTTP_URL=f"http://127.0.0.1:{http}",
                        TASYNC_TEST_HTTPS_URL=f"https://localhost:{good}",
                        TASYNC_TEST_HTTPS_WRONG_NAME_URL=f"https://127.0.0.1:{wrong}",
                        TASYNC_TEST_HTTPS_UNTRUSTED_URL=f"https://localhost:{untrusted}",
                        TASYNC_TEST_CA_FILE=str(d / "ca.crt"))

    def write_env(self) -> None:
        (self.root / "env.json").write_text(json.dumps(self.env, indent=1))
        lines = [f"export {k}='{v}'" for k, v in sorted(self.env.items())]
        (self.root / "env.sh").write_text("\n".join(lines) + "\n")


def stop(root: Path) -> int:
    pids_file = root / "pids.json"
    entries = json.loads(pids_file.read_text()) if pids_file.exists() else []
    for e in reversed(entries):
        pid = e["pid"]
        try:
            # PostgreSQL: SIGINT is its fast shutdown; the others end on SIGTERM.
            os.kill(pid, signal.SIGINT if e["name"] == "pgsql" else signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = 0 if alive(pid) else pid
            if done == pid or not alive(pid):
                break
            time.sleep(0.05)
        else:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            # Whatever the server left in its process group (nginx workers).
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    shutil.rmtree(root, ignore_errors=True)
    return 0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] not in ("start", "stop", "env"):
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(argv[2]).absolute()
    if argv[1] == "stop":
        return stop(root)
    if argv[1] == "env":
        sys.stdout.write((root / "env.sh").read_text())
        return 0
    names = ALL
    if len(argv) > 4 and argv[3] == "--only":
        names = [n for n in argv[4].split(",") if n]
        unknown = set(names) - set(ALL)
        if unknown:
            print(f"services.py: unknown service(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
    if root.exists():
        stop(root)
    root.mkdir(parents=True)
    s = Services(root)

    def start_one(n: str) -> None:
        started = time.monotonic()
        getattr(s, f"start_{n}")()
        print(f"services: {n} ready in {time.monotonic() - started:.1f} s", file=sys.stderr)

    # Side by side: the database servers spend most of their start-up
    # initialising their data directories.
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        futures = [pool.submit(start_one, n) for n in names]
    failures = [f.exception() for f in futures if f.exception() is not None]
    if failures:
        for e in failures:
            print(f"services: {e}", file=sys.stderr)
        with s.lock:
            s.save_pids()
        stop(root)
        return 1
    s.write_env()
    sys.stdout.write((root / "env.sh").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
