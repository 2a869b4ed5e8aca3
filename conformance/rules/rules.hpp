// The semantic conformance suite (docs/rules.md): every rule that is
// not about PHP syntax, tested through the C ABI only (api/include/tasync),
// against whichever backend $TASYNC_TEST_BACKEND names. Test names start
// with the rule id they prove (S6_..., C14_..., X1_..., G1_...).
#pragma once

#include <tasync/tasync.h>

#include <cerrno>
#include <functional>
#include <string>
#include <vector>

#include "test_host.hpp"

namespace tasync_rules {

using tasync_test::Error;
using tasync_test::kMs;
using tasync_test::Value;

// Owns a scope reference for the duration of a test body.
class ScopeRef {
public:
    ScopeRef() = default;
    explicit ScopeRef(tasync_scope_t *s) : s_(s) {}
    ScopeRef(const ScopeRef &) = delete;
    ScopeRef &operator=(const ScopeRef &) = delete;
    ~ScopeRef() { tasync_scope_release(s_); }
    operator tasync_scope_t *() const { return s_; }
    tasync_scope_t *get() const { return s_; }

private:
    tasync_scope_t *s_ = nullptr;
};

using Body = std::function<void(tasync_coroutine_t *)>;
using Handler = std::function<int(tasync_scope_t *, tasync_coroutine_t *, void *error, void **out_error)>;

class Rules : public tasync_test::RuntimeTest {
protected:
    // A scope: root when parent is NULL. Expects success.
    tasync_scope_t *scope(tasync_scope_t *parent = nullptr) {
        tasync_scope_t *s = nullptr;
        void *e = nullptr;
        EXPECT_EQ(tasync_scope_create(rt, parent, &s, &e), 0) << message_of(e);
        release_error(e);
        return s;
    }

    // Ends the calling coroutine's body with an error (the host's "throw").
    void fail(tasync_coroutine_t *self, const std::string &msg) {
        Error *e = host.error(msg);
        tasync_coroutine_set_error(self, e);
        host.release(e);
    }

    Error *exception(const std::string &msg) { return host.error(msg); }
    Error *cancellation(const std::string &msg) { return host.error(msg, TASYNC_ERROR_CANCELLATION); }

    void release_error(void *e) {
        if (e != nullptr) host.release(static_cast<Error *>(e));
    }
    void release_value(void *v) {
        if (v != nullptr) host.release(static_cast<Value *>(v));
    }

    tasync_awaitable_t *timeout_ms(uint64_t ms) {
        tasync_awaitable_t *t = nullptr;
        EXPECT_EQ(tasync_timeout_create(rt, ms * kMs, &t), 0);
        return t;
    }

    // await_completion with a generous timeout; returns the code, the error
    // (if any) in *err (to release) when err is not NULL.
    int await_scope(tasync_scope_t *s, void **err = nullptr, uint64_t ms = 60000) {
        tasync_awaitable_t *t = timeout_ms(ms);
        void *e = nullptr;
        int rc = tasync_scope_await_completion(rt, s, t, &e);
        tasync_awaitable_release(t);
        if (err != nullptr) *err = e;
        else release_error(e);
        return rc;
    }

    // Sleeps the calling coroutine; returns the code and drops the error.
    int delay(uint64_t ms) {
        void *e = nullptr;
        int rc = tasync_delay(rt, ms * kMs, nullptr, &e);
        release_error(e);
        return rc;
    }

    void on_error(tasync_scope_t *s, Handler h, bool child_scopes = false) {
        auto *p = new Handler(std::move(h));
        auto fn = [](void *d, tasync_scope_t *sc, tasync_coroutine_t *co, void *e, void **out) {
            return (*static_cast<Handler *>(d))(sc, co, e, out);
        };
        auto rel = [](void *d) { delete static_cast<Handler *>(d); };
        int rc = child_scopes ? tasync_scope_set_child_exception_handler(s, fn, p, rel)
                              : tasync_scope_set_exception_handler(s, fn, p, rel);
        EXPECT_EQ(rc, 0);
    }

    // Spawn options running body (for completion callbacks).
    static tasync_spawn_options_t callback(Body body) {
        tasync_spawn_options_t o{};
        o.size = sizeof(o);
        o.entry = [](tasync_coroutine_t *self, void *arg) { (*static_cast<Body *>(arg))(self); };
        o.arg = new Body(std::move(body));
        o.arg_release = [](void *arg) { delete static_cast<Body *>(arg); };
        return o;
    }

    void say(const std::string &line) { out.push_back(line); }

    bool warned(const std::string &fragment) const {
        for (const std::string &w : host.warnings) {
            if (w.find(fragment) != std::string::npos) return true;
        }
        return false;
    }
    size_t warnings_with(const std::string &fragment) const {
        size_t n = 0;
        for (const std::string &w : host.warnings) n += w.find(fragment) != std::string::npos;
        return n;
    }

    static uint32_t flags(tasync_coroutine_t *co) { return tasync_coroutine_flags(co); }
    static uint32_t sflags(tasync_scope_t *s) { return tasync_scope_flags(s); }
};

}  // namespace tasync_rules
