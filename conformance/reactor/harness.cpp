#include "harness.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace tasync::conformance {

namespace {

const LoadedBackend *g_backend = nullptr;
thread_local int tl_in_run = 0;

}  // namespace

const LoadedBackend &loaded() { return *g_backend; }
void set_loaded(const LoadedBackend *backend) { g_backend = backend; }

std::uint64_t mono_ns() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

void sleep_ns(std::int64_t ns) {
    if (ns <= 0) return;
    struct timespec ts = {static_cast<time_t>(ns / kSec), static_cast<long>(ns % kSec)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void sleep_until_backend(tasync_loop_t *loop, std::uint64_t when) {
    for (;;) {
        const std::uint64_t now = B().loop_now(loop);
        if (now >= when) return;
        sleep_ns(static_cast<std::int64_t>(when - now));
    }
}

void in_callback() {
    EXPECT_GT(tl_in_run, 0) << "G2: a callback ran outside loop_run (or on a thread not running the loop)";
}

bool inside_loop_run() { return tl_in_run > 0; }

int open_fd_count() {
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == nullptr) return -1;
    while (struct dirent *e = readdir(d)) {
        if (e->d_name[0] != '.') n++;
    }
    closedir(d);
    return n - 1;  // the directory's own fd
}

// ------------------------------------------------------------------- Loop

int Loop::create(const tasync_loop_options_t *opts) {
    char err[512] = {0};
    tasync_loop_options_t o{};
    if (opts != nullptr) {
        o = *opts;
    } else {
        o.size = sizeof(o);
    }
    if (o.errbuf == nullptr) {
        o.errbuf = err;
        o.errbuf_size = sizeof(err);
    }
    tasync_loop_t *l = nullptr;
    const int rc = B().loop_create(&o, &l);
    if (rc == 0 && l == nullptr) {
        error_ = "loop_create returned 0 but no loop";
        return -EINVAL;
    }
    if (rc != 0) {
        error_ = err_text(rc) + (err[0] ? std::string(": ") + err : "");
        return rc;
    }
    loop_ = l;
    return 0;
}

void Loop::destroy() {
    if (loop_ != nullptr) B().loop_destroy(std::exchange(loop_, nullptr));
}

int Loop::run(std::int64_t timeout_ns) {
    tl_in_run++;
    const int rc = B().loop_run(loop_, timeout_ns);
    tl_in_run--;
    EXPECT_GE(rc, 0) << "G7/G10: loop_run(" << timeout_ns << ") failed";
    return rc;
}

bool Loop::run_until(const std::function<bool()> &done, std::int64_t budget_ns) {
    const std::uint64_t end = mono_ns() + static_cast<std::uint64_t>(budget_ns);
    while (!done()) {
        const std::uint64_t now = mono_ns();
        if (now >= end) return false;
        const std::int64_t left = static_cast<std::int64_t>(end - now);
        if (run(std::min<std::int64_t>(left, 50 * kMs)) < 0) return done();
    }
    return true;
}

void Loop::run_for(std::int64_t ns) {
    const std::uint64_t end = mono_ns() + static_cast<std::uint64_t>(ns);
    for (;;) {
        const std::uint64_t now = mono_ns();
        if (now >= end) return;
        if (run(static_cast<std::int64_t>(end - now)) < 0) return;
    }
}

void Loop::spin(int n) {
    for (int i = 0; i < n; i++) run(0);
}

// --------------------------------------------------------------------- fds

void Fd::reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
}

FdPair make_pipe(int flags) {
    int p[2];
    FdPair r;
    if (pipe2(p, O_CLOEXEC | flags) != 0) {
        ADD_FAILURE() << "pipe2: " << std::strerror(errno);
        return r;
    }
    r.a.reset(p[0]);
    r.b.reset(p[1]);
    return r;
}

FdPair make_socketpair(int flags) {
    int p[2];
    FdPair r;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0, p) != 0) {
        ADD_FAILURE() << "socketpair: " << std::strerror(errno);
        return r;
    }
    r.a.reset(p[0]);
    r.b.reset(p[1]);
    return r;
}

long put(int fd, std::size_t n) {
    std::vector<char> buf(n, 'x');
    return static_cast<long>(::write(fd, buf.data(), n));
}

long drain(int fd) {
    char buf[4096];
    long total = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        if (n <= 0) break;
        total += n;
    }
    return total;
}

std::string err_text(int rc) {
    if (rc >= 0) return std::to_string(rc);
#define TASYNC_ERR_CASE_(name, value, msg) \
    if (rc == (value)) return "TASYNC_E" #name " (" msg ")";
    TASYNC_ERROR_MAP(TASYNC_ERR_CASE_)
#undef TASYNC_ERR_CASE_
    const char *name = strerrorname_np(-rc);
    return std::string(name != nullptr ? name : "E?") + " (" + std::strerror(-rc) + ")";
}

std::string events_text(unsigned events) {
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{TASYNC_IO_READABLE, "READABLE"},
                 {TASYNC_IO_WRITABLE, "WRITABLE"},
                 {TASYNC_IO_HANGUP, "HANGUP"},
                 {TASYNC_IO_ERROR, "ERROR"},
                 {TASYNC_IO_PRIORITY, "PRIORITY"}};
    std::string s;
    for (const auto &n : names) {
        if (events & n.bit) {
            if (!s.empty()) s += "|";
            s += n.name;
            events &= ~n.bit;
        }
    }
    if (events != 0) s += (s.empty() ? "" : "|") + std::to_string(events);
    return s.empty() ? "0" : s;
}

}  // namespace tasync::conformance
