// Drives one backend shared object through its table alone (dlopen, as the
// core does): the path comes from $TASYNC_BACKEND_SO. Callbacks are
// std::functions kept alive by the fixture.
#pragma once

#include <tasync/backend.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <list>
#include <memory>
#include <string>

namespace backend_test {

// The table of the backend under test, loaded once per process.
inline const tasync_backend_t *table() {
    static const tasync_backend_t *t = [] {
        const char *path = std::getenv("TASYNC_BACKEND_SO");
        if (path == nullptr || *path == '\0') {
            std::fprintf(stderr, "TASYNC_BACKEND_SO must name the backend shared object to test\n");
            std::abort();
        }
        void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (dl == nullptr) {
            std::fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
            std::abort();
        }
        void *sym = dlsym(dl, TASYNC_BACKEND_ENTRY_SYMBOL);
        if (sym == nullptr) {
            std::fprintf(stderr, "%s does not export %s\n", path, TASYNC_BACKEND_ENTRY_SYMBOL);
            std::abort();
        }
        tasync_backend_entry_fn entry;
        static_assert(sizeof(entry) == sizeof(sym));
        std::memcpy(&entry, &sym, sizeof(entry));
        const tasync_backend_t *tab = entry(TASYNC_ABI_VERSION);
        if (tab == nullptr) {
            std::fprintf(stderr, "%s refused ABI %u.%u\n", path, TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR);
            std::abort();
        }
        return tab;
    }();
    return t;
}

inline constexpr uint64_t kMs = 1000000ull;

using TimerFn = std::function<void(tasync_handle_t *)>;
using IoFn = std::function<void(tasync_handle_t *, int status, unsigned revents)>;
using SignalFn = std::function<void(tasync_handle_t *, int signum)>;
using ChildFn = std::function<void(tasync_handle_t *, int pid, int exit_status, int term_signal)>;

inline void timer_tramp(tasync_handle_t *h, void *d) { (*static_cast<TimerFn *>(d))(h); }
inline void io_tramp(tasync_handle_t *h, void *d, int status, unsigned revents) {
    (*static_cast<IoFn *>(d))(h, status, revents);
}
inline void signal_tramp(tasync_handle_t *h, void *d, int signum) { (*static_cast<SignalFn *>(d))(h, signum); }
inline void child_tramp(tasync_handle_t *h, void *d, int pid, int exit_status, int term_signal) {
    (*static_cast<ChildFn *>(d))(h, pid, exit_status, term_signal);
}

// A non-blocking pipe closed by the destructor (unless closed before).
struct Pipe {
    int r = -1, w = -1;
    Pipe() {
        int fds[2];
        EXPECT_EQ(pipe2(fds, O_NONBLOCK | O_CLOEXEC), 0);
        r = fds[0];
        w = fds[1];
    }
    ~Pipe() {
        if (r >= 0) close(r);
        if (w >= 0) close(w);
    }
    void close_r() {
        close(r);
        r = -1;
    }
    void close_w() {
        close(w);
        w = -1;
    }
};

// Opens handles on one loop; the callbacks stay alive as long as the owner.
class Handles {
public:
    explicit Handles(tasync_loop_t *loop) : loop_(loop) {}

    tasync_handle_t *timer(TimerFn f) {
        tasync_handle_t *h = nullptr;
        EXPECT_EQ(t()->timer_open(loop_, &timer_tramp, &timers_.emplace_back(std::move(f)), &h), 0);
        return h;
    }
    tasync_handle_t *io(int fd, IoFn f, int *rc_out = nullptr) {
        tasync_handle_t *h = nullptr;
        int rc = t()->io_open(loop_, fd, &io_tramp, &ios_.emplace_back(std::move(f)), &h);
        if (rc_out != nullptr) *rc_out = rc;
        else EXPECT_EQ(rc, 0);
        return h;
    }
    tasync_handle_t *signal(int signum, SignalFn f, int *rc_out = nullptr) {
        tasync_handle_t *h = nullptr;
        int rc = t()->signal_open(loop_, signum, &signal_tramp, &signals_.emplace_back(std::move(f)), &h);
        if (rc_out != nullptr) *rc_out = rc;
        else EXPECT_EQ(rc, 0);
        return h;
    }
    tasync_handle_t *child(int pid, ChildFn f, int *rc_out = nullptr) {
        tasync_handle_t *h = nullptr;
        int rc = t()->child_open(loop_, pid, &child_tramp, &children_.emplace_back(std::move(f)), &h);
        if (rc_out != nullptr) *rc_out = rc;
        else EXPECT_EQ(rc, 0);
        return h;
    }

private:
    static const tasync_backend_t *t() { return table(); }
    tasync_loop_t *loop_;
    std::list<TimerFn> timers_;
    std::list<IoFn> ios_;
    std::list<SignalFn> signals_;
    std::list<ChildFn> children_;
};

// Runs the loop until pred() holds; false if it still does not after a
// generous bound (a hang guard, not a timing check).
inline bool run_until(tasync_loop_t *loop, const std::function<bool()> &pred, uint64_t bound_ms = 10000) {
    const tasync_backend_t *t = table();
    uint64_t start = t->loop_now(loop);
    while (!pred()) {
        if (t->loop_now(loop) - start > bound_ms * kMs) return false;
        int rc = t->loop_run(loop, 50 * static_cast<int64_t>(kMs));
        EXPECT_GE(rc, 0);
    }
    return true;
}

// A loop per test, destroyed with whatever is still open (G8).
class LoopTest : public ::testing::Test {
protected:
    void SetUp() override {
        tasync_loop_options_t o{};
        o.size = sizeof(o);
        char err[256] = {0};
        o.errbuf = err;
        o.errbuf_size = sizeof(err);
        ASSERT_EQ(t->loop_create(&o, &loop), 0) << err;
        handles = std::make_unique<Handles>(loop);
    }
    void TearDown() override {
        t->loop_destroy(loop);
        loop = nullptr;
    }
    int run(int64_t timeout_ns = 0) { return t->loop_run(loop, timeout_ns); }
    uint64_t now() { return t->loop_now(loop); }

    const tasync_backend_t *t = table();
    tasync_loop_t *loop = nullptr;
    std::unique_ptr<Handles> handles;
};

}  // namespace backend_test
