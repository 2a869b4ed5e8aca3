// What every conformance test uses: the backend under test, a loop that
// checks each loop_run, fds that close themselves, and time helpers.
//
// The tests call the backend table directly (no core runtime in between).
// Every callback a test installs calls in_callback(), which checks G2: the
// callback runs inside loop_run, on the thread that is running the loop.
#pragma once

#include <gtest/gtest.h>
#include <fcntl.h>
#include <tasync/backend.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "table.hpp"

namespace tasync::conformance {

constexpr std::int64_t kUs = 1000;
constexpr std::int64_t kMs = 1000 * kUs;
constexpr std::int64_t kSec = 1000 * kMs;

// How long a test waits for something that should happen "soon" before it
// calls it a failure. Generous: CI machines are noisy; a correct backend
// never comes near it, a broken one (a lost event) always reaches it.
constexpr std::int64_t kPatience = 5 * kSec;

// The backend under test (set once by main before any test runs).
const LoadedBackend &loaded();
void set_loaded(const LoadedBackend *backend);
// The validated table the tests call through.
inline const tasync_backend_t &B() { return loaded().table.ops; }

inline bool has_cap(std::uint64_t cap) { return (B().capabilities & cap) != 0; }
inline bool has_op(int opcode) { return (B().op_mask & TASYNC_OP_BIT(opcode)) != 0; }

// CLOCK_MONOTONIC in ns (what the contract's loop_now is compared with).
std::uint64_t mono_ns();
void sleep_ns(std::int64_t ns);
// Sleeps until loop_now() >= when (the backend's own clock).
void sleep_until_backend(tasync_loop_t *loop, std::uint64_t when);

// Checks G2 for the callback being run: inside loop_run on this thread.
void in_callback();
// True while the calling thread is inside loop_run (of any loop).
bool inside_loop_run();

// Number of open file descriptors of the process.
int open_fd_count();

// A loop of the backend under test, destroyed with the object.
class Loop {
public:
    Loop() = default;
    ~Loop() { destroy(); }
    Loop(const Loop &) = delete;
    Loop &operator=(const Loop &) = delete;

    // Creates the loop; returns loop_create's result, with the backend's
    // reason in error() on failure.
    int create(const tasync_loop_options_t *opts = nullptr);
    void destroy();
    tasync_loop_t *get() const { return loop_; }
    operator tasync_loop_t *() const { return loop_; }
    const std::string &error() const { return error_; }

    // One loop_run; checks that it returns >= 0 (G7, G10).
    int run(std::int64_t timeout_ns);
    // Runs the loop until done() holds or budget_ns passes (waits in slices
    // of at most 50 ms, so a lost event costs the budget, not a hang).
    bool run_until(const std::function<bool()> &done, std::int64_t budget_ns = kPatience);
    // Runs the loop for about ns, dispatching whatever comes.
    void run_for(std::int64_t ns);
    // Non-blocking runs, n times.
    void spin(int n);

private:
    tasync_loop_t *loop_ = nullptr;
    std::string error_;
};

// An fd closed on destruction.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(Fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Fd &operator=(Fd &&o) noexcept {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    int get() const { return fd_; }
    operator int() const { return fd_; }
    void reset(int fd = -1);
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_ = -1;
};

struct FdPair {
    Fd a;  // pipe: read end
    Fd b;  // pipe: write end
};
// pipe2 with the given flags (O_NONBLOCK, O_CLOEXEC is always added).
FdPair make_pipe(int flags = 0);
// socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags).
FdPair make_socketpair(int flags = 0);

// A handle closed on destruction (handle_close is a no-op for NULL).
class Handle {
public:
    Handle() = default;
    ~Handle() { close(); }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    tasync_handle_t **out() { return &h_; }
    tasync_handle_t *get() const { return h_; }
    operator tasync_handle_t *() const { return h_; }
    void close() {
        if (h_ != nullptr) B().handle_close(std::exchange(h_, nullptr));
    }
    // Forget the handle without closing it (it was closed elsewhere, e.g.
    // by a callback, or released by loop_destroy).
    tasync_handle_t *release() { return std::exchange(h_, nullptr); }

private:
    tasync_handle_t *h_ = nullptr;
};

// Fixture: a fresh loop per test.
class LoopTest : public testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(loop.create(), 0) << "loop_create failed: " << loop.error(); }
    Loop loop;
};

// Writes n bytes of 'x'; returns what write returned.
long put(int fd, std::size_t n = 1);
// Reads and discards everything available (fd must be non-blocking).
long drain(int fd);

// "-111" as "ECONNREFUSED (Connection refused)", for messages.
std::string err_text(int rc);
// "READABLE|HANGUP" for messages.
std::string events_text(unsigned events);

}  // namespace tasync::conformance
