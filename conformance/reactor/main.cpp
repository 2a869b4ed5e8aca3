// tasync-conformance: runs the reactor contract (tasync/reactor.h, G1-G11)
// against any backend shared object and prints a GoogleTest report.
//
//   tasync-conformance path/to/backend.so [gtest flags]
//   tasync-conformance <name> [gtest flags]   (tasync-backend-<name>.so in
//                                              $TASYNC_BACKEND_DIR)
//
// Exit status: 0 all tests passed, 1 some failed, 2 the backend could not be
// loaded (missing file, no entry symbol, refused or invalid table) or the
// command line was wrong, 3 a test hung (the watchdog ended the run).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "harness.hpp"

#ifndef TASYNC_DEFAULT_BACKEND_DIR
#define TASYNC_DEFAULT_BACKEND_DIR "/usr/local/lib/tasync"
#endif

using namespace tasync::conformance;

namespace {

void usage(FILE *out) {
    std::fprintf(out,
                 "usage: tasync-conformance BACKEND [gtest flags]\n"
                 "\n"
                 "Runs the tasync reactor contract (guarantees G1-G11 of tasync/reactor.h)\n"
                 "directly against a backend's table and prints a GoogleTest report.\n"
                 "\n"
                 "  BACKEND   a path to a backend shared object (contains '/' or ends in .so),\n"
                 "            or a name: tasync-backend-<name>.so in $TASYNC_BACKEND_DIR\n"
                 "            (default %s)\n"
                 "  flags     any GoogleTest flag, e.g. --gtest_filter='Io.*',\n"
                 "            --gtest_repeat=10, --gtest_output=xml:report.xml\n"
                 "\n"
                 "Exit status: 0 passed, 1 failed, 2 backend not loadable or bad usage,\n"
                 "3 a test hung longer than $TASYNC_CONFORMANCE_TEST_TIMEOUT seconds (default 60).\n",
                 TASYNC_DEFAULT_BACKEND_DIR);
}

std::string caps_text(std::uint64_t caps) {
    std::string s;
    const struct {
        std::uint64_t bit;
        const char *name;
    } names[] = {{TASYNC_CAP_COMPLETION, "COMPLETION"},
                 {TASYNC_CAP_OFFLOAD, "OFFLOAD"},
                 {TASYNC_CAP_FILE_READINESS, "FILE_READINESS"},
                 {TASYNC_CAP_PIDFD, "PIDFD"},
                 {TASYNC_CAP_HANGUP, "HANGUP"},
                 {TASYNC_CAP_PRIORITY, "PRIORITY"}};
    for (const auto &n : names) {
        if (caps & n.bit) {
            s += s.empty() ? "" : "|";
            s += n.name;
            caps &= ~n.bit;
        }
    }
    if (caps != 0) s += (s.empty() ? "" : "|") + std::string("unknown bits ") + std::to_string(caps);
    return s.empty() ? "none" : s;
}

std::string ops_text(std::uint64_t mask) {
    static const char *names[] = {"NOP", "READ", "WRITE", "RECV", "SEND", "ACCEPT", "CONNECT", "CLOSE", "FSYNC", "OPENAT"};
    std::string s;
    for (int i = 0; i < TASYNC_OPCODE_COUNT; i++) {
        if (mask & TASYNC_OP_BIT(i)) s += (s.empty() ? "" : " ") + std::string(names[i]);
    }
    return s.empty() ? "none" : s;
}

// The test running now, for the fatal-signal report (read by a signal
// handler, so a plain buffer written only between tests).
char g_current_test[512] = "(before the first test)";
struct sigaction g_old_actions[NSIG];

// A backend that crashes takes the tool with it; say in which test, then let
// the previous disposition (the default, or a sanitizer's handler) act.
void on_fatal_signal(int sig) {
    char msg[700];
    const char *name = strsignal(sig);
    int n = std::snprintf(msg, sizeof(msg), "\ntasync-conformance: %s in %s (most likely inside the backend)\n",
                          name != nullptr ? name : "fatal signal", g_current_test);
    if (n > 0) {
        if (write(STDERR_FILENO, msg, static_cast<std::size_t>(n) < sizeof(msg) ? n : sizeof(msg) - 1) < 0) {
        }
    }
    sigaction(sig, &g_old_actions[sig], nullptr);
    if (sig == SIGABRT) raise(sig);  // a fault re-executes and meets the old handler
}

void install_fatal_signal_report() {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_NODEFER | SA_ONSTACK;
        sigaction(sig, &sa, &g_old_actions[sig]);
    }
}

// Ends the run with a clear message when one test takes far too long: a
// backend that loses a wakeup or ignores a timeout would otherwise hang the
// tool (and CI) with no report. Owned by main and joined before it returns.
class Watchdog {
public:
    explicit Watchdog(long seconds) : limit_(seconds), thread_([this] { watch(); }) {}
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    void started(const std::string &name) {
        std::lock_guard<std::mutex> lock(mu_);
        name_ = name;
        started_ = std::chrono::steady_clock::now();
        running_ = true;
    }
    void ended() {
        std::lock_guard<std::mutex> lock(mu_);
        running_ = false;
    }

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mu_);
        while (!stop_) {
            cv_.wait_for(lock, std::chrono::milliseconds(250));
            if (running_ && std::chrono::steady_clock::now() - started_ > std::chrono::seconds(limit_)) {
                std::fflush(stdout);
                std::fprintf(stderr,
                             "\ntasync-conformance: %s has run for more than %ld s: the backend appears to hang "
                             "(a lost wakeup, or a loop_run that ignores its timeout). Ending the run; "
                             "--gtest_filter=-%s runs the rest.\n",
                             name_.c_str(), limit_, name_.c_str());
                std::fflush(stderr);
                _exit(3);
            }
        }
    }
    std::mutex mu_;
    std::condition_variable cv_;
    std::string name_;
    std::chrono::steady_clock::time_point started_;
    bool running_ = false;
    bool stop_ = false;
    long limit_;
    std::thread thread_;  // last: starts once the members above exist
};

// Tells the watchdog and the fatal-signal report which test runs. GoogleTest
// owns (and deletes) the listener; the watchdog outlives RUN_ALL_TESTS.
class TestTracker : public testing::EmptyTestEventListener {
public:
    explicit TestTracker(Watchdog &dog) : dog_(dog) {}
    void OnTestStart(const testing::TestInfo &info) override {
        const std::string name = std::string(info.test_suite_name()) + "." + info.name();
        std::snprintf(g_current_test, sizeof(g_current_test), "%s", name.c_str());
        dog_.started(name);
    }
    void OnTestEnd(const testing::TestInfo &) override { dog_.ended(); }

private:
    Watchdog &dog_;
};

}  // namespace

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
    }
    testing::InitGoogleTest(&argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, argc < 2 ? "tasync-conformance: no backend given\n\n"
                                      : "tasync-conformance: more than one backend given\n\n");
        usage(stderr);
        return 2;
    }

    // Writes to a pipe or socket whose peer is gone must fail with EPIPE in
    // the tests, not kill the tool.
    signal(SIGPIPE, SIG_IGN);

    static LoadedBackend backend;
    std::string why;
    const int rc = load_backend(argv[1], TASYNC_DEFAULT_BACKEND_DIR, &backend, &why);
    if (rc != 0) {
        std::fprintf(stderr, "tasync-conformance: %s\n", why.c_str());
        return 2;
    }
    set_loaded(&backend);
    const tasync_backend_t &t = backend.table.ops;
    std::printf("tasync-conformance: backend '%s', %s\n", t.name != nullptr ? t.name : "(no name)",
                t.version != nullptr ? t.version : "(no version)");
    std::printf("  file          %s\n", backend.path.c_str());
    std::printf("  ABI           %u.%u (this tool: %u.%u), table %u bytes (this tool knows %zu)\n",
                TASYNC_ABI_MAJOR_OF(backend.table.raw_version), TASYNC_ABI_MINOR_OF(backend.table.raw_version),
                TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR, backend.table.raw_size, sizeof(tasync_backend_t));
    std::printf("  capabilities  %s\n", caps_text(t.capabilities).c_str());
    std::printf("  native ops    %s\n", ops_text(t.op_mask).c_str());
    std::fflush(stdout);

    long limit = 60;
    if (const char *env = std::getenv("TASYNC_CONFORMANCE_TEST_TIMEOUT")) {
        const long v = std::strtol(env, nullptr, 10);
        if (v > 0) limit = v;
    }
    Watchdog dog(limit);
    testing::UnitTest::GetInstance()->listeners().Append(new TestTracker(dog));
    install_fatal_signal_report();
    return RUN_ALL_TESTS();
}
