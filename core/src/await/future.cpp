// Futures (rule T2): single-assignment awaitables the host completes
// (runtime.h, future.h), the report of a failure nobody observed (S10), and
// derived futures whose callbacks run in coroutines (tasync_future_then).
#include "tasync/core/future.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace tasync::detail {

// A derived future waiting for its source, then (when the mode runs one)
// for its callback's coroutine. Lives in rt->derivations until it has
// completed its future, so that runtime teardown finds what it holds.
struct Derivation {
    tasync_runtime *rt = nullptr;
    std::uint32_t mode = 0;
    tasync_awaitable *source = nullptr;  // referenced (a handle for a coroutine)
    Future *derived = nullptr;           // referenced
    tasync_scope *scope = nullptr;       // referenced: where the callback runs
    tasync_spawn_options_t callback{};   // arg_release pending until handed to a coroutine
    bool callback_owned = true;          // callback.arg is still ours to release
    tasync_coroutine *runner = nullptr;  // the callback's coroutine (a handle)
    Waiter source_waiter;
    Waiter runner_waiter;
};

}  // namespace tasync::detail

namespace {

bool is_future(const tasync_awaitable *aw) { return aw != nullptr && aw->kind == AwaitableKind::Future; }

// The scope the calling code runs in (the global scope outside coroutines).
tasync_scope *current_scope(tasync_runtime *rt) {
    return rt->current != nullptr ? rt->scope_of(rt->current) : rt->global_scope;
}

// scope: where an unobserved failure is reported (NULL: the current one).
Future *new_future(tasync_runtime *rt, std::uint32_t flags, const tasync_location_t *where,
                   tasync_scope *scope = nullptr) {
    auto *f = new Future(rt);
    rt->all.push_back(f);
    if (where != nullptr) f->created_at = where->file != nullptr ? *where : rt->capture_location();
    if ((flags & TASYNC_FUTURE_REPORT_UNOBSERVED) != 0) {
        f->report = true;
        f->scope = scope != nullptr ? scope : current_scope(rt);
        ++f->scope->refs;
    }
    return f;
}

// ------------------------------------------------- the unobserved failure

struct Report {
    tasync_runtime *rt;
    void *error;  // owned
};

// The coroutine that reports a failure: it ends with the future's error,
// unawaited, and S10 takes it from there (before_finish).
void report_entry(tasync_coroutine_t *self, void *arg) {
    tasync_coroutine_set_error(self, static_cast<Report *>(arg)->error);
}

void report_release(void *arg) {
    auto *r = static_cast<Report *>(arg);
    r->rt->release_error(r->error);
    delete r;
}

// Reports f's failure unless it need not be (observed, a cancellation, the
// runtime going). Spawning only queues (C1): no handler runs here.
void report_unobserved(tasync_runtime *rt, Future *f) {
    if (!f->report || f->reported || f->observed || f->error == nullptr || rt->destroying) return;
    f->reported = true;
    rt->unobserved_futures.remove(f);
    if (rt->is_cancellation(f->error)) return;  // as a coroutine ending cancelled (C7)
    auto *r = new Report{rt, f->error};
    rt->retain_error(f->error);
    tasync_spawn_options_t o{};
    o.size = sizeof(o);
    o.entry = &report_entry;
    o.arg = r;
    o.arg_release = &report_release;
    o.scope = f->scope != nullptr && f->scope->rt == rt ? f->scope : nullptr;
    o.location = f->created_at;
    if (rt->spawn(o, nullptr, nullptr, true) != 0) report_release(r);
}

// --------------------------------------------------------- derivations

void derivation_source_done(Waiter *w, tasync_awaitable *source);
void derivation_runner_done(Waiter *w, tasync_awaitable *runner);

void derivation_free(Derivation *d) {
    tasync_runtime *rt = d->rt;
    rt->derivations.erase(d);
    if (d->callback_owned && d->callback.arg_release != nullptr) d->callback.arg_release(d->callback.arg);
    if (d->source_waiter.link.linked()) d->source->remove_waiter(&d->source_waiter);
    if (d->runner != nullptr && d->runner_waiter.link.linked()) d->runner->remove_waiter(&d->runner_waiter);
    tasync_coroutine_release(d->runner);
    tasync_awaitable_release(d->source);
    tasync_awaitable *derived = d->derived;
    if (--derived->refs == 0) derived->destroy();
    rt->scope_release(d->scope);
    delete d;
}

// The derived future completes (references of value and error taken over).
void derivation_finish(Derivation *d, void *value, void *error) {
    future_settle(d->derived, value, error);
    derivation_free(d);
}

void derivation_source_done(Waiter *w, tasync_awaitable *source) {
    auto *d = static_cast<Derivation *>(w->data);
    tasync_runtime *rt = d->rt;
    if (rt->destroying) return;  // teardown_derivations releases what it holds
    // The derived future answers for the source's error from now on (S10).
    if (source->error != nullptr) observe(source);
    const bool failed = source->error != nullptr;
    const bool run = d->mode == TASYNC_FUTURE_THEN_FINALLY || (d->mode == TASYNC_FUTURE_THEN_MAP) != failed;
    if (!run) {
        rt->retain_value(source->value);
        rt->retain_error(source->error);
        derivation_finish(d, source->value, source->error);
        return;
    }
    tasync_spawn_options_t o = d->callback;
    o.scope = d->scope->rt == rt ? d->scope : nullptr;
    tasync_coroutine *co = nullptr;
    void *err = nullptr;
    int rc = rt->spawn(o, &co, &err, true);
    if (rc != 0) {
        if (err == nullptr) err = rt->make_error(TASYNC_ERROR_SYSTEM, rc, std::string("cannot run the callback: ") +
                                                                          tasync_strerror(rc));
        derivation_finish(d, nullptr, err);
        return;
    }
    d->callback_owned = false;  // the coroutine releases arg
    ++co->handles;              // a handle: its error waits for the derived future (S10)
    d->runner = co;
    d->runner_waiter.notify = &derivation_runner_done;
    d->runner_waiter.data = d;
    d->runner_waiter.handles_error = true;
    co->add_waiter(&d->runner_waiter);
}

void derivation_runner_done(Waiter *w, tasync_awaitable *runner) {
    auto *d = static_cast<Derivation *>(w->data);
    tasync_runtime *rt = d->rt;
    if (rt->destroying) return;
    void *v = nullptr;
    void *e = nullptr;
    if (runner->error != nullptr) {
        observe(runner);  // handed to the derived future
        e = runner->error;
    } else if (d->mode == TASYNC_FUTURE_THEN_FINALLY) {
        v = d->source->value;
        e = d->source->error;
    } else {
        v = runner->value;
    }
    if (e != nullptr) v = nullptr;
    rt->retain_value(v);
    rt->retain_error(e);
    derivation_finish(d, v, e);
}

}  // namespace

namespace tasync::detail {

void future_settle(Future *f, void *value, void *error) {
    tasync_runtime *rt = f->rt;
    if (f->completed) {
        // A derived future its host completed first (single assignment):
        // the derivation's outcome goes.
        rt->release_value(value);
        rt->release_error(error);
        return;
    }
    ++f->refs;  // completing may wake waiters that drop theirs
    f->complete(value, error);
    if (f->report && error != nullptr && !f->observed && !f->reported) rt->unobserved_futures.push_back(f);
    if (--f->refs == 0) f->destroy();
}

void future_observed(tasync_awaitable *aw) {
    if (aw->kind != AwaitableKind::Future || aw->rt == nullptr) return;
    aw->rt->unobserved_futures.remove(static_cast<Future *>(aw));
}

void Future::destroy() {
    if (rt != nullptr) {
        report_unobserved(rt, this);
        rt->unobserved_futures.remove(this);
        if (scope != nullptr) rt->scope_release(scope);
        scope = nullptr;
    }
    tasync_awaitable::destroy();
}

void Future::detach() {
    if (rt != nullptr) {
        rt->unobserved_futures.remove(this);
        // Teardown frees the scopes nobody but the host holds (teardown_scopes_end).
        if (scope != nullptr) --scope->refs;
        scope = nullptr;
    }
    tasync_awaitable::detach();
}

}  // namespace tasync::detail

void tasync_runtime::report_unobserved_futures() {
    while (Future *f = unobserved_futures.pop_front()) report_unobserved(this, f);
}

void tasync_runtime::teardown_derivations() {
    // The awaitables were detached (their waiters dropped): release what
    // each derivation holds, its callback's arg first.
    std::vector<Derivation *> ds(derivations.begin(), derivations.end());
    derivations.clear();
    for (Derivation *d : ds) {
        if (d->callback_owned && d->callback.arg_release != nullptr) d->callback.arg_release(d->callback.arg);
        tasync_coroutine_release(d->runner);
        tasync_awaitable_release(d->source);
        if (--d->derived->refs == 0) d->derived->destroy();
        --d->scope->refs;  // freed by teardown_scopes_end when nobody else holds it
        delete d;
    }
}

extern "C" {

TASYNC_API int tasync_future_create(tasync_runtime_t *rt, tasync_awaitable_t **out) {
    rt = running_runtime(rt);
    if (rt == nullptr || out == nullptr) return -EINVAL;
    *out = new_future(rt, 0, nullptr);
    return 0;
}

TASYNC_API int tasync_future_create_ex(tasync_runtime_t *rt, const tasync_future_options_t *opts,
                                       tasync_awaitable_t **out) {
    if (out != nullptr) *out = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || out == nullptr) return -EINVAL;
    tasync_future_options_t o{};
    if (opts != nullptr) {
        if (opts->size < offsetof(tasync_future_options_t, location)) return -EINVAL;
        std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    }
    *out = new_future(rt, o.flags, &o.location);
    return 0;
}

static int future_complete_old(tasync_awaitable_t *f, void *value, void *error) {
    if (!is_future(f) || f->rt == nullptr || f->completed) return TASYNC_EBAD_STATE;
    f->rt->retain_value(value);
    f->rt->retain_error(error);
    future_settle(static_cast<Future *>(f), value, error);
    return 0;
}

TASYNC_API int tasync_future_resolve(tasync_awaitable_t *future, void *value) {
    return future_complete_old(future, value, nullptr);
}

TASYNC_API int tasync_future_reject(tasync_awaitable_t *future, void *error) {
    if (error == nullptr) return -EINVAL;
    return future_complete_old(future, nullptr, error);
}

TASYNC_API int tasync_future_complete(tasync_awaitable_t *future, void *value, void *error, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    if (!is_future(future)) return -EINVAL;
    auto *f = static_cast<Future *>(future);
    tasync_runtime *rt = f->rt;
    if (rt == nullptr) return TASYNC_EBAD_STATE;
    if (f->completed) {
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_EFUTURE_COMPLETED,
                                        "The future has already been completed" + tasync_runtime::at(f->completed_at));
        return TASYNC_EFUTURE_COMPLETED;
    }
    f->completed_at = rt->capture_location();
    if (error != nullptr) value = nullptr;
    rt->retain_value(value);
    rt->retain_error(error);
    future_settle(f, value, error);
    return 0;
}

TASYNC_API tasync_location_t tasync_future_created_location(const tasync_awaitable_t *future) {
    return is_future(future) ? static_cast<const Future *>(future)->created_at : tasync_location_t{};
}

TASYNC_API tasync_location_t tasync_future_completed_location(const tasync_awaitable_t *future) {
    return is_future(future) ? static_cast<const Future *>(future)->completed_at : tasync_location_t{};
}

TASYNC_API int tasync_future_then(tasync_awaitable_t *source, uint32_t mode, const tasync_spawn_options_t *callback,
                                  uint32_t flags, tasync_awaitable_t **out) {
    if (out != nullptr) *out = nullptr;
    const bool cb_ok = callback != nullptr && callback->size >= offsetof(tasync_spawn_options_t, location) &&
                       callback->entry != nullptr;
    tasync_spawn_options_t cb{};
    if (cb_ok) std::memcpy(&cb, callback, callback->size < sizeof(cb) ? callback->size : sizeof(cb));
    cb.size = sizeof(cb);
    auto refuse = [&](int rc) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return rc;
    };
    if (!cb_ok || source == nullptr || out == nullptr || mode < TASYNC_FUTURE_THEN_MAP ||
        mode > TASYNC_FUTURE_THEN_FINALLY)
        return refuse(-EINVAL);
    tasync_runtime *rt = source->rt;
    if (rt == nullptr) return refuse(TASYNC_EBAD_STATE);
    if (rt != tls_runtime) return refuse(TASYNC_EWRONG_THREAD);
    if (cb.location.file == nullptr) cb.location = rt->capture_location();
    auto *d = new Derivation;
    d->rt = rt;
    d->mode = mode;
    d->callback = cb;
    d->source = source;
    tasync_awaitable_retain(source);
    d->scope = cb.scope != nullptr && cb.scope->rt == rt ? cb.scope : current_scope(rt);
    ++d->scope->refs;
    tasync_location_t here = cb.location;
    d->derived = new_future(rt, flags, &here, d->scope);  // its failure is reported where the callback runs
    ++d->derived->refs;  // the caller's
    *out = d->derived;
    rt->derivations.insert(d);
    d->source_waiter.notify = &derivation_source_done;
    d->source_waiter.data = d;
    d->source_waiter.handles_error = true;
    if (source->completed) derivation_source_done(&d->source_waiter, source);
    else source->add_waiter(&d->source_waiter);
    return 0;
}

}  // extern "C"
