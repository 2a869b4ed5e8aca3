// A host for the tests: values are refcounted integers, errors are
// refcounted objects with a kind and a message. Live counts let every test
// check that the runtime released everything it retained.
#pragma once

#include <tasync/tasync.h>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace tasync_test {

struct Value {
    int refs;
    long v;
};

struct Error {
    int refs;
    int kind;
    int code;
    std::string message;
};

struct TestHost {
    tasync_host_t table{};
    long live_values = 0;
    long live_errors = 0;
    std::vector<std::string> warnings;
    std::vector<std::string> trace;     // enter/leave log when enabled
    bool trace_switches = false;
    std::string location_file = "test.php";
    uint32_t location_line = 0;
    bool provide_locations = true;

    TestHost() {
        table.size = sizeof(table);
        table.value_retain = [](void *h, void *v) { (void)h; ++static_cast<Value *>(v)->refs; };
        table.value_release = [](void *h, void *v) {
            auto *val = static_cast<Value *>(v);
            if (--val->refs == 0) {
                --static_cast<TestHost *>(h)->live_values;
                delete val;
            }
        };
        table.error_retain = [](void *h, void *e) { (void)h; ++static_cast<Error *>(e)->refs; };
        table.error_release = [](void *h, void *e) {
            auto *err = static_cast<Error *>(e);
            if (--err->refs == 0) {
                --static_cast<TestHost *>(h)->live_errors;
                delete err;
            }
        };
        table.error_create = [](void *h, int kind, int code, const char *msg) -> void * {
            ++static_cast<TestHost *>(h)->live_errors;
            return new Error{1, kind, code, msg};
        };
        table.error_is_cancellation = [](void *, void *e) -> int {
            int k = static_cast<Error *>(e)->kind;
            return k == TASYNC_ERROR_CANCELLATION || k == TASYNC_ERROR_AWAIT_CANCELLED;
        };
        table.error_describe = [](void *, void *e, char *buf, size_t len) -> size_t {
            auto *err = static_cast<Error *>(e);
            std::string d = "Error(" + std::to_string(err->kind) + "): " + err->message;
            if (len > 0) std::snprintf(buf, len, "%s", d.c_str());
            return d.size();
        };
        table.warning = [](void *h, const char *msg) { static_cast<TestHost *>(h)->warnings.emplace_back(msg); };
        table.capture_location = [](void *h, tasync_location_t *out) -> int {
            auto *self = static_cast<TestHost *>(h);
            if (!self->provide_locations) return -1;
            out->file = self->location_file.c_str();
            out->line = ++self->location_line;
            return 0;
        };
        table.coroutine_enter = [](void *h, tasync_coroutine_t *co, void *) {
            auto *self = static_cast<TestHost *>(h);
            if (self->trace_switches) self->trace.push_back("enter " + std::to_string(tasync_coroutine_id(co)));
        };
        table.coroutine_leave = [](void *h, tasync_coroutine_t *co, void *) {
            auto *self = static_cast<TestHost *>(h);
            if (self->trace_switches) self->trace.push_back("leave " + std::to_string(tasync_coroutine_id(co)));
        };
    }

    Value *value(long v) {
        ++live_values;
        return new Value{1, v};
    }
    Error *error(const std::string &msg, int kind = TASYNC_ERROR_ASYNC) {
        ++live_errors;
        return new Error{1, kind, 0, msg};
    }
    void release(Value *v) { table.value_release(this, v); }
    void release(Error *e) { table.error_release(this, e); }
};

// A runtime on the default backend with a TestHost; checks for leaks when
// the test ends.
class RuntimeTest : public ::testing::Test {
protected:
    void SetUp() override { create(nullptr); }

    void create(const char *backend, uint32_t flags = 0) {
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        o.backend = backend != nullptr ? backend : backend_name();
        o.host = &host.table;
        o.host_data = &host;
        o.flags = flags;
        o.thread_pool_size = pool_threads;
        char err[512] = {0};
        o.errbuf = err;
        o.errbuf_size = sizeof(err);
        int rc = tasync_runtime_create(&o, &rt);
        ASSERT_EQ(rc, 0) << err;
    }

    void TearDown() override {
        tasync_runtime_destroy(rt);
        rt = nullptr;
        EXPECT_EQ(host.live_values, 0) << "values leaked";
        EXPECT_EQ(host.live_errors, 0) << "errors leaked";
    }

    // The backend the suite runs against: $TASYNC_TEST_BACKEND or "uv".
    static const char *backend_name() {
        const char *b = std::getenv("TASYNC_TEST_BACKEND");
        return b != nullptr && *b != '\0' ? b : "uv";
    }

    // Spawns a coroutine running f; returns a new reference.
    tasync_coroutine_t *spawn(std::function<void(tasync_coroutine_t *)> f, tasync_scope_t *scope = nullptr) {
        auto *fn = new std::function<void(tasync_coroutine_t *)>(std::move(f));
        tasync_spawn_options_t o{};
        o.size = sizeof(o);
        o.entry = [](tasync_coroutine_t *self, void *arg) {
            (*static_cast<std::function<void(tasync_coroutine_t *)> *>(arg))(self);
        };
        o.arg = fn;
        o.arg_release = [](void *arg) { delete static_cast<std::function<void(tasync_coroutine_t *)> *>(arg); };
        o.scope = scope;
        tasync_coroutine_t *co = nullptr;
        int rc = tasync_spawn(rt, &o, &co, nullptr);
        EXPECT_EQ(rc, 0);
        return co;
    }

    // Fire-and-forget spawn.
    void go(std::function<void(tasync_coroutine_t *)> f, tasync_scope_t *scope = nullptr) {
        tasync_coroutine_release(spawn(std::move(f), scope));
    }

    int run() { return tasync_runtime_run(rt); }

    static std::string message_of(void *e) { return e != nullptr ? static_cast<Error *>(e)->message : "<none>"; }
    static int kind_of(void *e) { return e != nullptr ? static_cast<Error *>(e)->kind : 0; }

    TestHost host;
    tasync_runtime_t *rt = nullptr;
    std::vector<std::string> out;
    uint32_t pool_threads = 0;  // the runtime's thread_pool_size (0: the core's default)
};

inline constexpr uint64_t kMs = 1000000ull;

// Waits up to `seconds` for the child `pid` to end and returns a failure
// unless it exited with status 0. A child still running then is killed (by
// its pid, and reaped) and reported as hung, so that a hang fails the test
// instead of the whole run.
inline ::testing::AssertionResult child_exits_cleanly(pid_t pid, int seconds, const char *what) {
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < seconds * 100 && (got = waitpid(pid, &status, WNOHANG)) == 0; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return ::testing::AssertionFailure() << what << " hung (killed after " << seconds << " s)";
    }
    if (got != pid) return ::testing::AssertionFailure() << "waitpid failed: " << std::strerror(errno);
    if (!WIFEXITED(status)) return ::testing::AssertionFailure() << "killed by signal " << WTERMSIG(status);
    if (WEXITSTATUS(status) != 0) return ::testing::AssertionFailure() << "exit status " << WEXITSTATUS(status);
    return ::testing::AssertionSuccess();
}

}  // namespace tasync_test
