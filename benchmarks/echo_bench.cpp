// Loopback TCP echo: the server CPU time one request costs, for raw C
// servers (epoll, libev, libuv, io_uring) and for servers written on the
// runtime (one coroutine per connection) on each backend.
//
// Method. The parent creates the listening socket, forks the server, then
// forks the client; both children are pinned to the same CPU so that the
// figure repeats (the kernel's scheduling between them decides how many
// requests one server wakeup finds, and one CPU makes that stable). The
// client holds 50 connections, each a strict request/response loop of
// 64-byte messages, driven by epoll. Once traffic has warmed up, the parent
// samples the server process's CPU clock (clock_getcpuclockid: user +
// system time of the server alone, whatever the client costs) and the
// client's count of echoes received over one window: server CPU
// microseconds per request. The client's own CPU time is not counted (it
// is printed beside, as a check: both move together when something else
// disturbs the CPU). Every server is measured in several rounds, the
// servers taking turns (forward, then backward, ...), and the median round
// is reported with the spread: a disturbance from another process hits one
// round of a few servers rather than every window of one.
//
// Goals (issue 4): the runtime server on each backend within 1.15x of the
// raw server on the same library (uv: libuv, ev: libev, uring: io_uring),
// and the uring backend below the uv backend.
//
// Runtime servers come in two styles: "op" awaits completion operations
// (tasync_await_op RECV/SEND: native on uring, emulated over readiness on
// uv and ev), "fd" awaits readiness (tasync_await_fd) and calls read/write.
// On uring the "fd" style is readiness through poll operations, so it is
// compared with a raw io_uring server written the same way ("raw io_uring
// poll"); the "op" style with the raw io_uring server using recv/send.
//
// Usage: echo-bench [--seconds=S] [--rounds=N] [--cpu=N] [--only=NAME,...]
// (S: the measured window of one round, default 0.7; N default 3)
// (flags starting with --benchmark_ are accepted and ignored, so that
// ./dev bench can pass the same flags to every program).
#include <ev.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include <tasync/tasync.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "raw_uring.hpp"

namespace {

constexpr int kConnections = 50;
constexpr int kMessage = 64;
constexpr int kBuf = 4096;  // what every server offers to one read

[[noreturn]] void die(const char *what) {
    std::fprintf(stderr, "echo-bench: %s: %s\n", what, std::strerror(errno));
    _exit(2);
}

void set_nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

void pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) die("sched_setaffinity");
}

// ================================================================ raw servers

void serve_epoll(int lfd) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = lfd;
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) != 0) die("epoll");
    static char buf[kBuf];
    epoll_event evs[64];
    for (;;) {
        int n = epoll_wait(ep, evs, 64, -1);
        for (int i = 0; i < n; ++i) {
            int fd = evs[i].data.fd;
            if (fd == lfd) {
                int c;
                while ((c = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    set_nodelay(c);
                    epoll_event cev{};
                    cev.events = EPOLLIN;
                    cev.data.fd = c;
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
                }
                continue;
            }
            ssize_t r = read(fd, buf, kBuf);
            if (r > 0) {
                if (write(fd, buf, static_cast<size_t>(r)) != r) die("short write");
            } else if (r == 0 || errno != EAGAIN) {
                close(fd);
            }
        }
    }
}

struct EvConn {
    ev_io io;
    char buf[kBuf];
};

void serve_libev(int lfd) {
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    static ev_io accept_io;
    ev_io_init(&accept_io, [](struct ev_loop *loop, ev_io *w, int) {
        int c;
        while ((c = accept4(w->fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
            set_nodelay(c);
            auto *conn = new EvConn;
            ev_io_init(&conn->io, [](struct ev_loop *loop, ev_io *w, int) {
                auto *conn = reinterpret_cast<EvConn *>(w);
                ssize_t r = read(w->fd, conn->buf, kBuf);
                if (r > 0) {
                    if (write(w->fd, conn->buf, static_cast<size_t>(r)) != r) die("short write");
                } else if (r == 0 || errno != EAGAIN) {
                    ev_io_stop(loop, w);
                    close(w->fd);
                    delete conn;
                }
            }, c, EV_READ);
            ev_io_start(loop, &conn->io);
        }
    }, lfd, EV_READ);
    ev_io_start(loop, &accept_io);
    ev_run(loop, 0);
}

struct UvConn {
    uv_tcp_t tcp;
    char buf[kBuf];
};

void serve_libuv(int lfd) {
    uv_loop_t *loop = uv_default_loop();
    static uv_tcp_t server;
    if (uv_tcp_init(loop, &server) != 0 || uv_tcp_open(&server, lfd) != 0) die("uv_tcp_open");
    int rc = uv_listen(reinterpret_cast<uv_stream_t *>(&server), 256, [](uv_stream_t *s, int status) {
        if (status < 0) return;
        auto *conn = new UvConn;
        uv_tcp_init(s->loop, &conn->tcp);
        if (uv_accept(s, reinterpret_cast<uv_stream_t *>(&conn->tcp)) != 0) die("uv_accept");
        uv_tcp_nodelay(&conn->tcp, 1);
        uv_read_start(
            reinterpret_cast<uv_stream_t *>(&conn->tcp),
            [](uv_handle_t *h, size_t, uv_buf_t *b) {
                auto *conn = reinterpret_cast<UvConn *>(h);
                *b = uv_buf_init(conn->buf, kBuf);
            },
            [](uv_stream_t *st, ssize_t nread, const uv_buf_t *b) {
                if (nread > 0) {
                    uv_buf_t out = uv_buf_init(b->base, static_cast<unsigned>(nread));
                    // What a libuv server does for small replies: write now,
                    // queue only what the socket did not take.
                    int w = uv_try_write(st, &out, 1);
                    if (w != nread) die("short write");
                } else if (nread < 0) {
                    uv_close(reinterpret_cast<uv_handle_t *>(st),
                             [](uv_handle_t *h) { delete reinterpret_cast<UvConn *>(h); });
                }
            });
    });
    if (rc != 0) die("uv_listen");
    uv_run(loop, UV_RUN_DEFAULT);
}

struct UringConn {
    int fd;
    char buf[kBuf];
};
enum : std::uint64_t { kAccept = 1, kRecv = 2, kSend = 3 };

void uring_queue(struct io_uring *ring, UringConn *c, std::uint64_t what, unsigned len = kBuf) {
    struct io_uring_sqe *sqe = tasync_bench::uring_sqe(ring);
    if (what == kRecv) io_uring_prep_recv(sqe, c->fd, c->buf, kBuf, 0);
    else io_uring_prep_send(sqe, c->fd, c->buf, len, MSG_NOSIGNAL);
    io_uring_sqe_set_data64(sqe, reinterpret_cast<std::uint64_t>(c) | what);
}

void uring_queue_accept(struct io_uring *ring, int lfd) {
    struct io_uring_sqe *sqe = tasync_bench::uring_sqe(ring);
    io_uring_prep_accept(sqe, lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    io_uring_sqe_set_data64(sqe, kAccept);
}

void serve_io_uring(int lfd) {
    struct io_uring ring;
    if (tasync_bench::uring_setup(256, &ring) != 0) die("io_uring_queue_init");
    uring_queue_accept(&ring, lfd);
    for (;;) {
        if (int rc = io_uring_submit_and_wait(&ring, 1); rc < 0 && rc != -EINTR) die("io_uring_submit_and_wait");
        unsigned head, n = 0;
        struct io_uring_cqe *cqe;
        io_uring_for_each_cqe(&ring, head, cqe) {
            ++n;
            std::uint64_t ud = cqe->user_data;
            auto *c = reinterpret_cast<UringConn *>(ud & ~std::uint64_t{7});
            switch (ud & 7) {
                case kAccept:
                    if (cqe->res >= 0) {
                        set_nodelay(cqe->res);
                        auto *conn = new UringConn;
                        conn->fd = cqe->res;
                        uring_queue(&ring, conn, kRecv);
                    }
                    uring_queue_accept(&ring, lfd);
                    break;
                case kRecv:
                    if (cqe->res > 0) {
                        uring_queue(&ring, c, kSend, static_cast<unsigned>(cqe->res));
                    } else {
                        close(c->fd);
                        delete c;
                    }
                    break;
                case kSend:
                    if (cqe->res <= 0) die("send");
                    uring_queue(&ring, c, kRecv);
                    break;
            }
        }
        io_uring_cq_advance(&ring, n);
    }
}

// Readiness through io_uring: a one-shot poll per connection, re-armed after
// each request (what the uring backend does for tasync_await_fd), and
// read/write calls: the raw counterpart of the runtime's "fd" style there.
void uring_queue_poll(struct io_uring *ring, int fd, std::uint64_t tag) {
    struct io_uring_sqe *sqe = tasync_bench::uring_sqe(ring);
    io_uring_prep_poll_add(sqe, fd, POLLIN);
    io_uring_sqe_set_data64(sqe, (static_cast<std::uint64_t>(fd) << 3) | tag);
}

void serve_io_uring_poll(int lfd) {
    struct io_uring ring;
    if (tasync_bench::uring_setup(256, &ring) != 0) die("io_uring_queue_init");
    static char buf[kBuf];
    uring_queue_poll(&ring, lfd, kAccept);
    for (;;) {
        if (int rc = io_uring_submit_and_wait(&ring, 1); rc < 0 && rc != -EINTR) die("io_uring_submit_and_wait");
        unsigned head, n = 0;
        struct io_uring_cqe *cqe;
        io_uring_for_each_cqe(&ring, head, cqe) {
            ++n;
            int fd = static_cast<int>(cqe->user_data >> 3);
            if ((cqe->user_data & 7) == kAccept) {
                int c;
                while ((c = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    set_nodelay(c);
                    uring_queue_poll(&ring, c, kRecv);
                }
                uring_queue_poll(&ring, lfd, kAccept);
                continue;
            }
            ssize_t r = read(fd, buf, kBuf);
            if (r > 0) {
                if (write(fd, buf, static_cast<size_t>(r)) != r) die("short write");
                uring_queue_poll(&ring, fd, kRecv);
            } else if (r < 0 && errno == EAGAIN) {
                uring_queue_poll(&ring, fd, kRecv);
            } else {
                close(fd);
            }
        }
        io_uring_cq_advance(&ring, n);
    }
}

// ============================================================ runtime servers

struct RtServer {
    tasync_runtime_t *rt;
    bool ops;
};
RtServer g_rt;

tasync_op_t make_op(int opcode, int fd, void *buf, std::uint64_t len, std::uint32_t flags) {
    tasync_op_t op{};
    op.size = sizeof(op);
    op.opcode = static_cast<std::uint16_t>(opcode);
    op.fd = fd;
    op.buf = buf;
    op.len = len;
    op.op_flags = flags;
    return op;
}

// One coroutine per connection: receive, send back, until the peer closes.
void connection_ops(tasync_coroutine_t *, void *arg) {
    int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
    tasync_runtime_t *rt = g_rt.rt;
    char buf[kBuf];
    for (;;) {
        tasync_op_t rd = make_op(TASYNC_OP_RECV, fd, buf, kBuf, 0);
        int n = tasync_await_op(rt, &rd, nullptr, nullptr);
        if (n <= 0) break;
        tasync_op_t wr = make_op(TASYNC_OP_SEND, fd, buf, static_cast<std::uint64_t>(n), 0);
        if (tasync_await_op(rt, &wr, nullptr, nullptr) != n) die("short send");
    }
    tasync_op_t cl = make_op(TASYNC_OP_CLOSE, fd, nullptr, 0, 0);
    tasync_await_op(rt, &cl, nullptr, nullptr);
}

// The readiness style: wait until readable, read, write (the system calls
// of the epoll server).
void connection_fd(tasync_coroutine_t *, void *arg) {
    int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
    tasync_runtime_t *rt = g_rt.rt;
    char buf[kBuf];
    for (;;) {
        if (tasync_await_fd(rt, fd, TASYNC_IO_READABLE, nullptr, nullptr, nullptr) != 0) break;
        ssize_t r = read(fd, buf, kBuf);
        if (r > 0) {
            if (write(fd, buf, static_cast<size_t>(r)) != r) die("short write");
        } else if (r == 0 || errno != EAGAIN) {
            break;
        }
    }
    tasync_fd_forget(rt, fd);
    close(fd);
}

void serve_runtime(int lfd, const char *backend, bool ops) {
    char err[256] = "";
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.backend = backend;
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    if (tasync_runtime_create(&o, &g_rt.rt) != 0) {
        std::fprintf(stderr, "echo-bench: backend %s: %s\n", backend, err);
        _exit(3);
    }
    g_rt.ops = ops;
    // The main coroutine accepts; each connection gets its own coroutine.
    for (;;) {
        tasync_op_t ac = make_op(TASYNC_OP_ACCEPT, lfd, nullptr, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
        int c = tasync_await_op(g_rt.rt, &ac, nullptr, nullptr);
        if (c < 0) die("accept");
        set_nodelay(c);
        tasync_spawn_options_t so{};
        so.size = sizeof(so);
        so.entry = ops ? &connection_ops : &connection_fd;
        so.arg = reinterpret_cast<void *>(static_cast<std::intptr_t>(c));
        if (tasync_spawn(g_rt.rt, &so, nullptr, nullptr) != 0) die("tasync_spawn");
    }
}

// ===================================================================== client

struct Shared {
    std::atomic<std::uint64_t> responses;
    std::atomic<int> connected;
};

[[noreturn]] void run_client(int port, Shared *shared) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) die("epoll_create1");
    std::vector<int> got(static_cast<size_t>(kConnections) + 1024, 0);
    char msg[kMessage];
    std::memset(msg, 'm', sizeof(msg));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < kConnections; ++i) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0) die("connect");
        set_nodelay(fd);
        fcntl(fd, F_SETFL, O_NONBLOCK);
        if (static_cast<size_t>(fd) >= got.size()) die("fd number");
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
        if (write(fd, msg, kMessage) != kMessage) die("client write");
    }
    shared->connected.store(kConnections);
    std::uint64_t done = 0;
    epoll_event evs[64];
    char buf[kMessage];
    for (;;) {
        int n = epoll_wait(ep, evs, 64, -1);
        for (int i = 0; i < n; ++i) {
            int fd = evs[i].data.fd;
            ssize_t r = read(fd, buf, static_cast<size_t>(kMessage - got[fd]));
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN) continue;
                die("the server closed a connection");
            }
            got[fd] += static_cast<int>(r);
            if (got[fd] < kMessage) continue;
            got[fd] = 0;
            ++done;
            if (write(fd, msg, kMessage) != kMessage) die("client write");
        }
        shared->responses.store(done, std::memory_order_relaxed);
    }
}

// ===================================================================== driver

struct Server {
    const char *name;
    const char *baseline;  // raw server to compare with, or nullptr
    void (*raw)(int lfd);
    const char *backend;   // runtime servers
    bool ops;
};

const Server kServers[] = {
    {"raw epoll", nullptr, serve_epoll, nullptr, false},
    {"raw libev", nullptr, serve_libev, nullptr, false},
    {"raw libuv", nullptr, serve_libuv, nullptr, false},
    {"raw io_uring", nullptr, serve_io_uring, nullptr, false},
    {"raw io_uring poll", nullptr, serve_io_uring_poll, nullptr, false},
    {"runtime uv op", "raw libuv", nullptr, "uv", true},
    {"runtime uv fd", "raw libuv", nullptr, "uv", false},
    {"runtime ev op", "raw libev", nullptr, "ev", true},
    {"runtime ev fd", "raw libev", nullptr, "ev", false},
    {"runtime uring op", "raw io_uring", nullptr, "uring", true},
    {"runtime uring fd", "raw io_uring poll", nullptr, "uring", false},
};

struct Result {
    double us_per_req = 0;   // server CPU per request
    double req_per_s = 0;
    double server_share = 0; // server CPU time / wall time
    double client_us = 0;    // client CPU per request (not counted)
    bool ok = false;
};

// The rounds of one server: the median round (by server CPU per request)
// and the spread.
struct Summary {
    Result median;
    double min_us = 0, max_us = 0;
    bool ok = false;
};

Summary summarize(std::vector<Result> rounds) {
    Summary s;
    rounds.erase(std::remove_if(rounds.begin(), rounds.end(), [](const Result &r) { return !r.ok; }), rounds.end());
    if (rounds.empty()) return s;
    std::sort(rounds.begin(), rounds.end(), [](const Result &a, const Result &b) { return a.us_per_req < b.us_per_req; });
    s.median = rounds[rounds.size() / 2];
    s.min_us = rounds.front().us_per_req;
    s.max_us = rounds.back().us_per_req;
    s.ok = true;
    return s;
}

double mono_s() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double cpu_s(clockid_t clock) {
    timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void sleep_s(double s) {
    timespec ts;
    ts.tv_sec = static_cast<time_t>(s);
    ts.tv_nsec = static_cast<long>((s - static_cast<double>(ts.tv_sec)) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

Result measure(const Server &s, int cpu, double seconds, Shared *shared) {
    Result res;
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(lfd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 || listen(lfd, 256) != 0 ||
        getsockname(lfd, reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        die("listen");
    int port = ntohs(addr.sin_port);
    shared->responses.store(0);
    shared->connected.store(0);

    pid_t server = fork();
    if (server < 0) die("fork");
    if (server == 0) {
        pin_to(cpu);
        if (s.raw != nullptr) s.raw(lfd);
        else serve_runtime(lfd, s.backend, s.ops);
        _exit(0);
    }
    pid_t client = fork();
    if (client < 0) die("fork");
    if (client == 0) {
        close(lfd);
        pin_to(cpu);
        run_client(port, shared);
    }
    close(lfd);

    clockid_t server_clock, client_clock;
    {
        double deadline = mono_s() + 10;
        // Warm-up: every connection up and traffic flowing for a moment.
        while ((shared->connected.load() < kConnections || shared->responses.load() < 2000) && mono_s() < deadline) {
            int status;
            if (waitpid(server, &status, WNOHANG) == server || waitpid(client, &status, WNOHANG) == client) goto out;
            sleep_s(0.01);
        }
        if (mono_s() >= deadline || clock_getcpuclockid(server, &server_clock) != 0 ||
            clock_getcpuclockid(client, &client_clock) != 0)
            goto out;
        sleep_s(0.2);
        double t0 = mono_s(), c0 = cpu_s(server_clock), k0 = cpu_s(client_clock);
        std::uint64_t n0 = shared->responses.load(std::memory_order_relaxed);
        sleep_s(seconds);
        double t1 = mono_s(), c1 = cpu_s(server_clock), k1 = cpu_s(client_clock);
        std::uint64_t n1 = shared->responses.load(std::memory_order_relaxed);
        if (c0 < 0 || c1 < 0 || k0 < 0 || k1 < 0 || n1 <= n0) goto out;
        double n = static_cast<double>(n1 - n0);
        res.us_per_req = (c1 - c0) * 1e6 / n;
        res.req_per_s = n / (t1 - t0);
        res.server_share = (c1 - c0) / (t1 - t0);
        res.client_us = (k1 - k0) * 1e6 / n;
        res.ok = true;
    }
out:
    kill(client, SIGKILL);
    kill(server, SIGKILL);
    waitpid(client, nullptr, 0);
    waitpid(server, nullptr, 0);
    return res;
}

bool selected(const std::string &only, const char *name) {
    if (only.empty()) return true;
    size_t start = 0;
    while (start <= only.size()) {
        size_t comma = only.find(',', start);
        std::string item = only.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!item.empty() && std::string(name).find(item) != std::string::npos) return true;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    double seconds = 0.7;
    int rounds = 3;
    int cpu = -1;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--seconds=", 0) == 0) seconds = std::atof(a.c_str() + 10);
        else if (a.rfind("--rounds=", 0) == 0) rounds = std::atoi(a.c_str() + 9);
        else if (a.rfind("--cpu=", 0) == 0) cpu = std::atoi(a.c_str() + 6);
        else if (a.rfind("--only=", 0) == 0) only = a.substr(7);
        else if (a.rfind("--benchmark_", 0) == 0) continue;
        else {
            std::fprintf(stderr, "usage: %s [--seconds=S] [--rounds=N] [--cpu=N] [--only=NAME,...]\n", argv[0]);
            return 2;
        }
    }
    if (seconds <= 0 || rounds <= 0) {
        std::fprintf(stderr, "echo-bench: --seconds and --rounds must be positive\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    sched_getaffinity(0, sizeof(allowed), &allowed);
    if (cpu < 0) {
        for (int c = CPU_SETSIZE - 1; c >= 0; --c)
            if (CPU_ISSET(c, &allowed)) {
                cpu = c;
                break;
            }
    }
    // The parent only samples; keep it off the measured CPU when it can.
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (c != cpu && CPU_ISSET(c, &allowed)) {
            pin_to(c);
            break;
        }
    }
    auto *shared = static_cast<Shared *>(
        mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    if (shared == MAP_FAILED) die("mmap");
    new (shared) Shared{};

    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 0) load[0] = load[1] = load[2] = -1;
    std::printf("loopback TCP echo: %d connections, %d-byte messages, server and client on CPU %d;\n"
                "%d rounds of %.1f s per server, median round shown; load average %.2f %.2f %.2f\n\n",
                kConnections, kMessage, cpu, rounds, seconds, load[0], load[1], load[2]);
    std::fflush(stdout);

    // A selected runtime server brings its baseline along.
    auto wanted = [&](const Server &s) {
        if (selected(only, s.name)) return true;
        for (const Server &t : kServers)
            if (t.baseline != nullptr && std::strcmp(t.baseline, s.name) == 0 && selected(only, t.name)) return true;
        return false;
    };
    std::vector<const Server *> servers;
    for (const Server &s : kServers)
        if (wanted(s)) servers.push_back(&s);
    std::vector<std::vector<Result>> samples(servers.size());
    for (int r = 0; r < rounds; ++r) {
        for (size_t k = 0; k < servers.size(); ++k) {
            size_t i = r % 2 == 0 ? k : servers.size() - 1 - k;
            samples[i].push_back(measure(*servers[i], cpu, seconds, shared));
        }
    }
    std::vector<Summary> sums;
    for (auto &v : samples) sums.push_back(summarize(v));
    auto find = [&](const char *name) -> const Summary * {
        for (size_t i = 0; i < servers.size(); ++i)
            if (std::strcmp(servers[i]->name, name) == 0 && sums[i].ok) return &sums[i];
        return nullptr;
    };

    std::printf("%-18s %8s %13s %13s %10s %13s  %-18s %8s %8s  %s\n", "server", "req/s", "server us/req",
                "(min-max)", "server CPU", "client us/req", "baseline", "ratio", "goal", "");
    for (size_t i = 0; i < servers.size(); ++i) {
        const Server &s = *servers[i];
        const Summary &m = sums[i];
        if (!m.ok) {
            std::printf("%-18s %8s\n", s.name, "FAILED");
            continue;
        }
        char spread[32];
        std::snprintf(spread, sizeof(spread), "(%.2f-%.2f)", m.min_us, m.max_us);
        std::printf("%-18s %8.0f %13.2f %13s %9.0f%% %13.2f", s.name, m.median.req_per_s, m.median.us_per_req, spread,
                    m.median.server_share * 100, m.median.client_us);
        const Summary *b = s.baseline != nullptr ? find(s.baseline) : nullptr;
        if (b != nullptr) {
            double ratio = m.median.us_per_req / b->median.us_per_req;
            std::printf("  %-18s %7.2fx %s%5.2fx  %s", s.baseline, ratio, "<=", 1.15,
                        ratio <= 1.15 ? "goal met" : "GOAL MISSED");
        }
        std::printf("\n");
    }
    // The uring backend below the uv backend: the goal is for the server
    // written with completion operations, which the uring backend runs
    // natively; readiness on io_uring (poll operations) is shown beside it.
    for (const char *style : {"op", "fd"}) {
        std::string u = std::string("runtime uring ") + style, v = std::string("runtime uv ") + style;
        const Summary *a = find(u.c_str()), *b = find(v.c_str());
        if (a == nullptr || b == nullptr) continue;
        double ratio = a->median.us_per_req / b->median.us_per_req;
        if (std::strcmp(style, "op") == 0)
            std::printf("%-18s %8s %13.2f %13s %10s %13s  %-18s %7.2fx %s%5.2fx  %s\n", u.c_str(), "",
                        a->median.us_per_req, "", "", "", v.c_str(), ratio, "< ", 1.0,
                        ratio < 1.0 ? "goal met" : "GOAL MISSED");
        else
            std::printf("%-18s %8s %13.2f %13s %10s %13s  %-18s %7.2fx %8s  %s\n", u.c_str(), "",
                        a->median.us_per_req, "", "", "", v.c_str(), ratio, "", "(no goal)");
    }
    return 0;
}
