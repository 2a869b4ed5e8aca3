// The scheduler: spawning, switching, the run loop, cancellation and
// teardown. See runtime.hpp for the overall model.
#include "tasync/core/runtime.hpp"
#include "tasync/core/signals.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <new>

#include <pthread.h>

namespace tasync::detail {

thread_local tasync_runtime *tls_runtime = nullptr;

namespace {

constexpr std::size_t kDefaultStackSize = 256 * 1024;
constexpr std::size_t kDefaultStackCache = 128;
constexpr std::size_t kCoroutineCacheMax = 1024;

[[noreturn]] void fatal(const char *what) {
    std::fprintf(stderr, "tasync: fatal: %s\n", what);
    std::abort();
}

// ---------------------------------------------------------- built-in errors
// Used when the host gives no error_create: small refcounted objects.
struct BuiltinError {
    std::uint32_t refs;
    int kind;
    int code;
    char message[1];
};

void *builtin_error_create(int kind, int code, const std::string &msg) {
    auto *e = static_cast<BuiltinError *>(std::malloc(sizeof(BuiltinError) + msg.size()));
    if (e == nullptr) fatal("out of memory creating an error");
    e->refs = 1;
    e->kind = kind;
    e->code = code;
    std::memcpy(e->message, msg.c_str(), msg.size() + 1);
    return e;
}

const char *builtin_kind_name(int kind) {
    switch (kind) {
        case TASYNC_ERROR_CANCELLATION: return "CancellationError";
        case TASYNC_ERROR_AWAIT_CANCELLED: return "AwaitCancelledException";
        case TASYNC_ERROR_DEADLOCK: return "DeadlockError";
        case TASYNC_ERROR_INVALID_ARGUMENT: return "ValueError";
        case TASYNC_ERROR_SYSTEM: return "SystemError";
        default: return "AsyncException";
    }
}

}  // namespace
}  // namespace tasync::detail

using namespace tasync::detail;

// ================================================================= awaitable

tasync_awaitable::~tasync_awaitable() = default;

void tasync_awaitable::add_waiter(Waiter *w) {
    waiters.push_back(w);
    waiters_changed();
}

void tasync_awaitable::remove_waiter(Waiter *w) {
    if (!w->link.linked()) return;
    waiters.remove(w);
    waiters_changed();
}

void tasync_awaitable::complete(void *v, void *e) {
    completed = true;
    value = v;
    error = e;
    bool changed = !waiters.empty();
    while (Waiter *w = waiters.pop_front()) {
        if (w->notify != nullptr) {
            w->notify(w, this);
            continue;
        }
        if (w->wait == nullptr) continue;
        if (w->role == 0) {
            if (error != nullptr) observe(this);  // the awaiter receives it (C4, S10)
            rt->retain_value(value);
            rt->retain_error(error);
            rt->wake(w->wait, error != nullptr ? TASYNC_EFAILED : 0, value, error);
        } else {
            // The cancellation awaitable fired (C5); the awaiting coroutine
            // creates the AwaitCancelledException itself.
            rt->wake(w->wait, TASYNC_EAWAIT_CANCELLED);
        }
    }
    if (changed) waiters_changed();
}

void tasync_awaitable::destroy() {
    if (rt != nullptr) {
        all_link.unlink();
        rt->release_value(value);
        rt->release_error(error);
    }
    delete this;
}

void tasync_awaitable::detach() {
    while (Waiter *w = waiters.pop_front()) (void)w;
    if (rt != nullptr) {
        rt->release_value(value);
        rt->release_error(error);
    }
    value = error = nullptr;
    completed = true;
    all_link.unlink();
    rt = nullptr;
}

// ================================================================ coroutine

tasync_coroutine::~tasync_coroutine() = default;

void tasync_coroutine::destroy() {
    tasync_runtime *r = rt;
    if (r != nullptr) {
        all_link.unlink();
        r->release_value(value);
        r->release_error(error);
        r->release_error(cancel_error);
        r->drop_coroutine_extras(this);
        if (r->host.coroutine_free && host_data) r->host.coroutine_free(r->host_data, this, host_data);
        r->free_coroutine(this);
        return;
    }
    this->~tasync_coroutine();
    std::free(this);
}

void tasync_coroutine::detach() {
    tasync_runtime *r = rt;
    if (r == nullptr) return;
    if (finally_of != nullptr) {
        // Runtime teardown pins every object: this cannot free the owner.
        --finally_of->refs;
        finally_of = nullptr;
    }
    if (wait != nullptr && wait->cleanup != nullptr) wait->cleanup(wait);
    wait = nullptr;
    if (arg_release != nullptr) {
        arg_release(arg);
        arg_release = nullptr;
    }
    scope_link.unlink();
    if (stack) {
        annotate_stack_destroyed(ann);
        r->stacks->release(stack);
        stack = {};
    }
    if (!completed) cancel_requested = true;
    r->release_error(cancel_error);
    cancel_error = nullptr;
    r->drop_coroutine_extras(this);
    if (r->host.coroutine_free && host_data) r->host.coroutine_free(r->host_data, this, host_data);
    host_data = nullptr;
    // The runtime tears its scopes down itself; just forget ours.
    scope = nullptr;
    state = State::Finished;
    tasync_awaitable::detach();
}

// ================================================================== runtime

void tasync_runtime::retain_error(void *e) {
    if (e == nullptr) return;
    if (host.error_create == nullptr) {
        ++static_cast<BuiltinError *>(e)->refs;
    } else if (host.error_retain) {
        host.error_retain(host_data, e);
    }
}

void tasync_runtime::release_error(void *e) {
    if (e == nullptr) return;
    if (host.error_create == nullptr) {
        auto *b = static_cast<BuiltinError *>(e);
        if (--b->refs == 0) std::free(b);
    } else if (host.error_release) {
        host.error_release(host_data, e);
    }
}

void *tasync_runtime::make_error(int kind, int code, const std::string &message) {
    if (host.error_create == nullptr) return builtin_error_create(kind, code, message);
    void *e = host.error_create(host_data, kind, code, message.c_str());
    if (e == nullptr) fatal("the host's error_create returned NULL");
    return e;
}

bool tasync_runtime::is_cancellation(void *e) {
    if (e == nullptr) return false;
    if (host.error_create == nullptr) {
        int k = static_cast<BuiltinError *>(e)->kind;
        return k == TASYNC_ERROR_CANCELLATION || k == TASYNC_ERROR_AWAIT_CANCELLED;
    }
    return host.error_is_cancellation != nullptr && host.error_is_cancellation(host_data, e) != 0;
}

std::string tasync_runtime::describe_error(void *e) {
    if (e == nullptr) return "no error";
    if (host.error_create == nullptr) {
        auto *b = static_cast<BuiltinError *>(e);
        return std::string(builtin_kind_name(b->kind)) + ": " + b->message;
    }
    if (host.error_describe == nullptr) return "error";
    char buf[512];
    std::size_t want = host.error_describe(host_data, e, buf, sizeof(buf));
    if (want < sizeof(buf)) return std::string(buf, want);
    std::string big(want + 1, '\0');
    host.error_describe(host_data, e, big.data(), big.size());
    big.resize(want);
    return big;
}

void tasync_runtime::warn(const std::string &message, const tasync_location_t &about) {
    if (host.warning_at != nullptr) {
        tasync_location_t where = capture_location();
        if (where.file == nullptr) where = about;
        host.warning_at(host_data, message.c_str(), &where);
        return;
    }
    if (host.warning) host.warning(host_data, message.c_str());
    else std::fprintf(stderr, "tasync: warning: %s\n", message.c_str());
}

tasync_location_t tasync_runtime::capture_location() {
    tasync_location_t loc{};
    if (host.capture_location && host.capture_location(host_data, &loc) != 0) loc = {};
    return loc;
}

std::string tasync_runtime::format_location(const tasync_location_t &loc) {
    if (loc.file == nullptr) return "unknown location";
    return std::string(loc.file) + ":" + std::to_string(loc.line);
}

// ------------------------------------------------------------------- fork
namespace tasync::detail {
namespace {

// What a child abandons: the parent's thread pool (its threads did not
// survive the fork) and, when the reactor could not be re-created, the
// parent's loop (destroying it would undo the parent's registrations).
// Kept reachable on purpose.
std::vector<void *> g_abandoned;

// Only the forking thread's runtime matters in the child; its pool lock and
// post lock are held across fork() so that the child sees every offloaded
// job either queued, running (lost) or posted, never half-posted.
void atfork_prepare() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    if (rt->pool) rt->pool->mutex().lock();
    rt->post_mu.lock();
}
void atfork_parent() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    rt->post_mu.unlock();
    if (rt->pool) rt->pool->mutex().unlock();
}
void atfork_child() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    rt->post_mu.unlock();
    if (rt->pool) rt->pool->mutex().unlock();
    rt->forked = true;  // acted on at the first use (tasync_runtime::after_fork)
}

// The table a child's runtime uses when its reactor could not be
// re-created: the clock still works (timers still fire, sleeping in
// loop_run), every operation on the loop is refused.
int refuse_open_fd(tasync_loop_t *, int, tasync_io_cb, void *, tasync_handle_t **) { return -ENOTRECOVERABLE; }
int refuse_io(tasync_handle_t *, unsigned) { return -ENOTRECOVERABLE; }
int refuse_io_stop(tasync_handle_t *) { return 0; }
void refuse_close(tasync_handle_t *) {}
void refuse_destroy(tasync_loop_t *) {}
int refuse_wakeup(tasync_loop_t *) { return 0; }
int refuse_op(tasync_loop_t *, tasync_op_t *) { return -ENOTRECOVERABLE; }
int refuse_work(tasync_loop_t *, tasync_work_t *) { return -ENOTRECOVERABLE; }
int sleep_run(tasync_loop_t *, std::int64_t timeout_ns) {
    // Nothing can arrive: wait out the next timer (a bounded nap when there
    // is none, so that a runtime shutting down does not spin).
    std::int64_t ns = timeout_ns < 0 ? 10000000 : timeout_ns;
    if (ns > 0) {
        struct timespec ts {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
        nanosleep(&ts, nullptr);
    }
    return 0;
}

}  // namespace
}  // namespace tasync::detail

void tasync_runtime::after_fork() {
    using namespace tasync::detail;
    forked = false;
    // The loop first: what follows may post, and post() wakes the loop.
    const int rc = ops->loop_fork != nullptr ? ops->loop_fork(loop) : -ENOTSUP;
    if (rc != 0) {
        fork_error = std::string("this process is a child made by fork() and the reactor backend '") + ops->name +
                     "' cannot continue in it: " +
                     (rc == -ENOTSUP ? std::string("the backend has no loop_fork (ABI 1.1)") : tasync_strerror(rc));
        g_abandoned.push_back(loop);
        refusing_ops = *ops;
        refusing_ops.loop_destroy = refuse_destroy;
        refusing_ops.loop_run = sleep_run;
        refusing_ops.loop_wakeup = refuse_wakeup;
        refusing_ops.io_open = refuse_open_fd;
        refusing_ops.io_start = refuse_io;
        refusing_ops.io_stop = refuse_io_stop;
        refusing_ops.handle_close = refuse_close;
        refusing_ops.op_submit = refuse_op;
        refusing_ops.op_cancel = refuse_op;
        refusing_ops.work_submit = refuse_work;
        refusing_ops.work_cancel = refuse_work;
        refusing_ops.loop_fork = nullptr;
        ops = &refusing_ops;
        // Said and acted on by the run loop, whichever call found the fork.
        post([](void *p) {
            auto *rt = static_cast<tasync_runtime *>(p);
            rt->warn(rt->fork_error);
            if (rt->shutdown_phase != TASYNC_SHUTDOWN_NONE) return;
            void *e = rt->make_error(TASYNC_ERROR_SYSTEM, -ENOTRECOVERABLE, rt->fork_error);
            rt->start_shutdown(e, true);
            rt->release_error(e);
        }, this);
    }
    // The signals' wake fd and the child watches: made the child's own.
    signals_after_fork(this);
    // Offloaded jobs of the core's pool: its workers stayed in the parent.
    // A job whose completion was posted before the fork is delivered from
    // the post queue; the others finish as a cancelled job does.
    if (pool) {
        for (tasync_work_t *work : pool->jobs_lost_in_fork()) {
            bool posted_already = false;
            for (const Posted &p : posted) posted_already = posted_already || p.data == work;
            if (!posted_already) pool->complete(work, -ECANCELED);
        }
        g_abandoned.push_back(pool.release());
    }
    // The parent's watchdog thread does not exist here (C25).
    maybe_start_watchdog();
}

int tasync_runtime::init(const tasync_runtime_options_t &o) {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] {
        pthread_atfork(tasync::detail::atfork_prepare, tasync::detail::atfork_parent, tasync::detail::atfork_child);
    });
    if (o.host != nullptr) {
        std::memcpy(&host, o.host, o.host->size < sizeof(host) ? o.host->size : sizeof(host));
        host.size = sizeof(host);
    }
    host_data = o.host_data;
    switch_hooks = host.coroutine_enter != nullptr || host.coroutine_leave != nullptr;
    if (o.zombie_timeout_ns != 0) zombie_timeout_ns = o.zombie_timeout_ns;
    if (o.thread_pool_size != 0) thread_pool_size = o.thread_pool_size;

    auto report = [&](int code, const std::string &why) {
        if (o.errbuf != nullptr && o.errbuf_size > 0) std::snprintf(o.errbuf, o.errbuf_size, "%s", why.c_str());
        return code;
    };

    const std::string dir = o.backend_dir != nullptr ? o.backend_dir : "";
    std::string why;
    int rc = backend.load(o.backend, dir, &why);
    char loop_err[256] = {0};
    if (rc == 0) {
        tasync_loop_options_t lo{};
        lo.size = sizeof(lo);
        lo.errbuf = loop_err;
        lo.errbuf_size = sizeof(loop_err);
        rc = backend.ops().loop_create(&lo, &loop);
        if (rc != 0) {
            loop = nullptr;
            why = "backend '" + std::string(backend.ops().name) + "' (" + backend.path() +
                  ") failed to initialise: " + (loop_err[0] ? loop_err : tasync_strerror(rc));
            rc = TASYNC_EBACKEND_INIT;
        }
    }
    if (rc != 0) {
        const bool is_default = o.backend == nullptr || *o.backend == '\0' || std::strcmp(o.backend, "uv") == 0;
        if (!(o.flags & TASYNC_RUNTIME_FALLBACK_DEFAULT) || is_default) return report(rc, why);
        warn(why + "; using the default backend 'uv' instead");
        backend.~LoadedBackend();
        new (&backend) LoadedBackend();
        std::string why2;
        rc = backend.load("uv", dir, &why2);
        if (rc == 0) {
            tasync_loop_options_t lo{};
            lo.size = sizeof(lo);
            lo.errbuf = loop_err;
            lo.errbuf_size = sizeof(loop_err);
            loop_err[0] = '\0';
            rc = backend.ops().loop_create(&lo, &loop);
            if (rc != 0) {
                loop = nullptr;
                why2 = "default backend 'uv' failed to initialise: " + std::string(loop_err[0] ? loop_err : tasync_strerror(rc));
                rc = TASYNC_EBACKEND_INIT;
            }
        }
        if (rc != 0) return report(rc, why + "; and the fallback failed too: " + why2);
    }
    ops = &backend.ops();

    std::size_t ss = o.stack_size != 0 ? o.stack_size : kDefaultStackSize;
    std::size_t sc = o.stack_cache != 0 ? o.stack_cache : kDefaultStackCache;
    stacks = std::make_unique<StackPool>(ss, sc);

    global_scope = new_scope(nullptr);
    global_scope->is_global = true;
    zombie_timer.fire = [](TimerEntry *e) { static_cast<tasync_runtime *>(e->owner)->zombie_timer_fired(); };
    zombie_timer.owner = this;
    stuck_timer.ref = false;
    stuck_timer.fire = [](TimerEntry *e) { static_cast<tasync_runtime *>(e->owner)->stuck_timer_fired(); };
    stuck_timer.owner = this;

    main = alloc_coroutine();
    main->is_main = true;
    main->started = true;
    main->id = 0;
    main->state = Coroutine::State::Running;
    current = main;
    return 0;
}

tasync_runtime::~tasync_runtime() {
    stop_watchdog();  // first: its thread reads what follows tears down
    if (ops == nullptr) return;  // init failed before the loop existed
    // A forked child that ends without having used the runtime again: the
    // parent's pool workers and loop are not in this process, so it takes
    // over its own state first (destroying the pool would wait forever for
    // workers that do not exist here).
    if (forked) {
        after_fork();
        stop_watchdog();
    }
    destroying = true;
    if (current != main) fatal("tasync_runtime_destroy called from a coroutine other than the main one");

    // 1. Work running on other threads, and native operations the kernel
    //    runs, may point into coroutine stacks: take back offloaded work
    //    that has not started, ask the backend to cancel the operations
    //    (they complete with -ECANCELED or their result at the next poll;
    //    a read nobody will ever feed would otherwise be waited for
    //    forever), and wait for the rest.
    all.for_each([&](tasync_awaitable *a) {
        if (a->kind != AwaitableKind::Coroutine) return;
        Wait *w = static_cast<Coroutine *>(a)->wait;
        if (w == nullptr || w->done || w->on_cancel == nullptr) return;
        if (w->kind != WaitKind::Offload && w->kind != WaitKind::Op) return;
        if (w->on_cancel(w)) wake(w, -ECANCELED);
    });
    for (;;) {
        if (jobs_in_flight == 0) break;
        poll(true);
    }
    pool.reset();

    // 2. Unfinished coroutines are released without being resumed; other
    //    awaitables drop their timers and waiters. Objects the host still
    //    references survive, detached, until released. Scopes first drop
    //    the references their members hold on them.
    timers.disarm(&zombie_timer);
    timers.disarm(&stuck_timer);
    teardown_scopes_begin();
    std::vector<tasync_awaitable *> objs;
    all.for_each([&](tasync_awaitable *a) {
        if (a == main) return;
        ++a->refs;  // pinned until the last pass
        objs.push_back(a);
    });
    // Pass 1: unregister every pending wait (a wait may sit in the waiter
    // list of another object and hold references to it) and drop outcomes
    // that were delivered but never consumed.
    for (tasync_awaitable *a : objs) {
        if (a->kind != AwaitableKind::Coroutine) continue;
        auto *co = static_cast<Coroutine *>(a);
        Wait *w = co->wait;
        if (w == nullptr) continue;
        if (w->cleanup != nullptr) w->cleanup(w);
        release_value(w->value);
        release_error(w->error);
        w->value = w->error = nullptr;
        co->wait = nullptr;
    }
    // Pass 2: detach. Objects the host still references survive, detached,
    // until it releases them. Pass 3: drop the pins.
    for (tasync_awaitable *a : objs) {
        bool runtime_owned = false;
        if (a->kind == AwaitableKind::Coroutine) {
            auto *co = static_cast<Coroutine *>(a);
            runtime_owned = co->runtime_ref;
            co->runtime_ref = false;
        }
        a->detach();
        if (runtime_owned) --a->refs;  // the runtime's own reference
    }
    for (tasync_awaitable *a : objs) {
        if (--a->refs == 0) a->destroy();
    }
    runq.clear();
    teardown_groups();
    teardown_scopes_end();
    teardown_free_contexts();
    release_error(shutdown_error);
    release_error(fatal_error);
    shutdown_error = fatal_error = nullptr;

    // 3. Reactor watches, then the loop (in a forked child, the child's
    // own: see after_fork).
    reactor();
    for (FdWatch *w : fd_watches) {
        if (w == nullptr) continue;
        ops->handle_close(w->handle);
        delete w;
    }
    fd_watches.clear();
    signals_teardown(this);
    ops->loop_destroy(loop);
    loop = nullptr;

    // 4. What is left of the runtime itself.
    if (main != nullptr) {
        main->all_link.unlink();
        release_value(main->value);
        release_error(main->error);
        release_error(main->cancel_error);
        // Its private context and finally callbacks (X2, C11), as for any
        // other coroutine.
        drop_coroutine_extras(main);
        if (host.coroutine_free && main->host_data) host.coroutine_free(host_data, main, main->host_data);
        main->~tasync_coroutine();
        std::free(main);
        main = nullptr;
    }
    delete global_scope;
    global_scope = nullptr;
    stacks.reset();
    while (co_cache != nullptr) {
        void *p = co_cache;
        co_cache = *static_cast<void **>(p);
        std::free(p);
    }
    co_cache_count = 0;
}

// ------------------------------------------------------------ allocation

tasync_coroutine *tasync_runtime::alloc_coroutine() {
    void *mem;
    if (co_cache != nullptr) {
        mem = co_cache;
        co_cache = *static_cast<void **>(mem);
        --co_cache_count;
    } else {
        mem = std::malloc(sizeof(Coroutine));
        if (mem == nullptr) return nullptr;
    }
    auto *co = new (mem) Coroutine(this);
    all.push_back(co);
    return co;
}

// Records are kept as stacks are (StackPool): at least kCoroutineCacheMax,
// and as many as the stack cache holds, so that a burst that comes back
// reuses warm records instead of memory malloc gave back to the kernel.
std::size_t tasync_runtime::coroutine_cache_bound() const noexcept {
    std::size_t s = stacks ? stacks->cached() + stacks->stats().live : 0;
    return s > kCoroutineCacheMax ? s : kCoroutineCacheMax;
}

void tasync_runtime::free_coroutine(Coroutine *co) {
    co->~tasync_coroutine();
    if (co_cache_count < coroutine_cache_bound()) {
        // The free block holds the link (no allocation here).
        *static_cast<void **>(static_cast<void *>(co)) = co_cache;
        co_cache = co;
        ++co_cache_count;
        return;
    }
    std::free(co);
}

void tasync_runtime::trim_coroutine_cache() noexcept {
    const std::size_t bound = coroutine_cache_bound();
    while (co_cache_count > bound) {
        void *p = co_cache;
        co_cache = *static_cast<void **>(p);
        --co_cache_count;
        std::free(p);
    }
}

// ------------------------------------------------------------------ spawn

int tasync_runtime::spawn(const tasync_spawn_options_t &o, Coroutine **out, void **out_error, bool internal,
                          bool held) {
    if (o.entry == nullptr) return -EINVAL;
    maybe_start_watchdog();
    tasync_scope *sc = internal ? global_scope : o.scope;
    if (sc == nullptr) sc = current != nullptr ? scope_of(current) : global_scope;
    if (internal && o.scope != nullptr) sc = o.scope;
    if (sc->rt != this) return sc->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    if (sc->closed && !internal) {
        // Rule S3.
        if (out_error != nullptr)
            *out_error = make_error(TASYNC_ERROR_ASYNC, TASYNC_ESCOPE_CLOSED, "Coroutine scope is closed");
        return TASYNC_ESCOPE_CLOSED;
    }
    Coroutine *co = alloc_coroutine();
    if (co == nullptr) {
        if (out_error) *out_error = make_error(TASYNC_ERROR_SYSTEM, -ENOMEM, "out of memory spawning a coroutine");
        return -ENOMEM;
    }
    co->id = next_id++;
    co->entry = o.entry;
    co->arg = o.arg;
    co->arg_release = o.arg_release;
    co->host_data = o.host_data;
    co->spawn_loc = o.location.file != nullptr ? o.location : capture_location();
    scope_add(sc, co);
    ++active;
    co->state = Coroutine::State::New;
    co->runtime_ref = true;
    if (held) co->held = true;
    else enqueue(co);
    if (out != nullptr) {
        ++co->refs;
        *out = co;
    }
    return 0;
}

// A coroutine a group held back gets its concurrency slot.
void tasync_runtime::start_held(Coroutine *co) {
    if (!co->held) return;
    co->held = false;
    if (co->state == Coroutine::State::New) make_runnable(co);
}

// ------------------------------------------------------------- switching

bool tasync_runtime::prepare_new(Coroutine *co) {
    Stack s = stacks->allocate();
    if (!s) {
        // Cannot run it: it fails with an error instead.
        int err = errno;
        co->state = Coroutine::State::Running;
        release_error(co->error);
        co->error = make_error(TASYNC_ERROR_SYSTEM, -ENOMEM,
                               "cannot allocate a coroutine stack: " + std::string(std::strerror(err)));
        Coroutine *saved = current;
        current = nullptr;
        complete_coroutine(co);
        co->state = Coroutine::State::Finished;
        current = saved;
        co->stack_released = true;
        co->runtime_ref = false;
        if (--co->refs == 0) co->destroy();
        return false;
    }
    co->stack = s;
    const std::size_t guard = stacks->guard_size();
    annotate_stack_created(co->ann, s.base + guard, s.size - guard);
    co->ctx = make_context(s.top(), s.size - guard, &tasync_runtime::coroutine_main);
    return true;
}

tasync_coroutine *tasync_runtime::pick_next_slow(Coroutine *next) {
    for (;;) {
        if (next == nullptr) {
            if (runq.empty()) {
                // Nothing runnable.
                if (main_waiting_end && main->state == Coroutine::State::Waiting && active == 0 && zombies == 0 &&
                    !has_live_work()) {
                    if (!holders.empty()) {
                        // Errors kept for awaiters nobody will be any more
                        // (S10): the end of the program releases them.
                        release_holds();
                    } else if (!global_scope->completed && !global_scope->finally_cbs.empty()) {
                        // The global scope's completion callbacks (S12) run
                        // before the end.
                        global_scope->completed = true;
                        run_finally(global_scope->finally_cbs, global_scope, nullptr);
                    } else {
                        // Nothing can happen any more and nobody is active: the end.
                        wake(main->wait, 0);
                    }
                } else if (has_live_work()) {
                    poll(true);
                } else {
                    report_deadlock();
                }
                pass_end = runq.tail();
                continue;
            }
            if (runq.head() == pass_end) {
                // A pass over the runnable coroutines ended: look at the
                // reactor and the timers without blocking (DESIGN 3).
                if (reactor_busy() || has_posts.load(std::memory_order_acquire)) {
                    poll(false);
                } else if (!timers.empty()) {
                    Coroutine *saved = current;
                    current = nullptr;
                    now_valid = false;
                    run_timers();
                    current = saved;
                }
                pass_end = runq.tail();
            }
            next = runq.pop();
        }
        if (next->state == Coroutine::State::Finished) {
            // Cancelled before it started (rule C7): it was left in the ring.
            if (next->runtime_ref) {
                next->runtime_ref = false;
                if (--next->refs == 0) next->destroy();
            }
            next = nullptr;
            continue;
        }
        if (next->state == Coroutine::State::New && !prepare_new(next)) {
            next = nullptr;
            continue;
        }
        return next;
    }
}

void tasync_runtime::coroutine_main(transfer_t t) {
    // The coroutine that switched here is of the same runtime (no TLS
    // lookup, which costs a call in a shared library).
    tasync_runtime *rt = static_cast<Coroutine *>(t.data)->rt;
    rt->after_switch(t);
    Coroutine *self = rt->current;
    self->started = true;
    self->entry(self, self->arg);
    if (self->error != nullptr) rt->before_finish(self);
    rt->finish_and_switch(self);
}

void tasync_runtime::release_stack(Coroutine *co) {
    co->stack_released = true;
    annotate_stack_destroyed(co->ann);
    stacks->release(co->stack);
    co->stack = {};
    // The runtime's own reference, held while the coroutine could run.
    if (co->runtime_ref) {
        co->runtime_ref = false;
        if (--co->refs == 0) co->destroy();
    }
}

void tasync_runtime::finish_and_switch(Coroutine *co) {
    complete_coroutine(co);
    co->state = Coroutine::State::Finished;
    Coroutine *next = pick_next();
    switch_to(next, true);
    fatal("a finished coroutine was resumed");
}

void tasync_runtime::complete_coroutine(Coroutine *co) {
    if (co->arg_release != nullptr) {
        auto rel = co->arg_release;
        co->arg_release = nullptr;
        rel(co->arg);
    }
    if (!co->done) finish_outcome(co);
    co->cancel_pending = false;
    if (tasync_scope *sc = co->scope) {
        // Kept until now for an error held past the outcome (hold_error).
        co->scope = nullptr;
        scope_release(sc);
    }
    if (co->escalating) {
        co->escalating = false;
        if (--active == 0) maybe_start_zombie_phase();
    }
}

void tasync_runtime::finish_outcome(Coroutine *co) {
    void *v = co->value;
    void *e = co->error;
    if (e == nullptr && co->cancel_requested) {
        // Rule C8 (and C7 for a coroutine that swallowed its cancellation):
        // the coroutine ends cancelled whatever it returned.
        release_value(v);
        v = nullptr;
        e = co->cancel_error;
        retain_error(e);
    } else if (e != nullptr) {
        release_value(v);
        v = nullptr;
    }
    co->value = v;
    co->error = e;
    co->done = true;
    co->cancel_pending = false;
    tasync_scope *sc = co->scope;
    const bool was_zombie = co->zombie;
    if (sc != nullptr) {
        sc->coroutines.remove(co);
        if (was_zombie) --sc->zombies;
        else --sc->active;
    }
    if (was_zombie) --zombies;
    else --active;
    // C11: its finally handlers run before its awaiters resume, charged to
    // its scope (which waits for them and receives their errors).
    if (co->finally_cbs != nullptr) {
        std::vector<tasync_spawn_options_t> *cbs = co->finally_cbs;
        co->finally_cbs = nullptr;
        run_finally(*cbs, sc != nullptr ? sc : global_scope, co);
        delete cbs;
    }
    if (co->finally_running == 0) settle(co);  // awaiters (C4)
    if (co->context != nullptr) context_clear(co->context);  // X2
    if (Coroutine *owner = co->finally_of) {
        // A finally handler finished: its owner's awaiters may resume.
        co->finally_of = nullptr;
        if (co->holds_awaiters && --owner->finally_running == 0 && !owner->completed) settle(owner);
        if (--owner->refs == 0) owner->destroy();
    }
    if (sc != nullptr) scope_coroutine_finished(sc, was_zombie);
    if (tasync_scope *charged = co->charged) {
        co->charged = nullptr;
        scope_coroutine_finished(charged, false, global_scope);
        scope_release(charged);
    }
    if (was_zombie && zombies == 0 && zombie_timer.armed()) {
        // Every zombie finished within the grace period (S9).
        timers.disarm(&zombie_timer);
        zombie_stage = 0;
    }
    if (!was_zombie && active == 0) maybe_start_zombie_phase();
}

// A finally handler (C11, S12) runs in a coroutine of its own in the global
// scope (so that it may spawn even when the owning scope is closed, and a
// disposal of the owning scope does not see it), charged to the owning
// scope sc: sc and its ancestors count it as unfinished, so they complete
// and wake their waiters only after it, and its error enters sc's error
// flow (S10). A zombie's cleanup is charged to nobody, blocking nothing (S9).
// The charge stops below the global scope, which counts the handler once, as
// its member.
void tasync_runtime::spawn_handler(tasync_spawn_options_t cb, tasync_scope *sc, Coroutine *owner) {
    cb.scope = nullptr;
    Coroutine *h = nullptr;
    if (spawn(cb, &h, nullptr, true) != 0) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return;
    }
    --h->refs;  // spawn's out reference; the runtime's own keeps it
    // Cleanup is never skipped (C11): the handler always starts, and runs
    // as inside protect() (C20): a scope's cancellation or graceful shutdown
    // does not interrupt it; the forced phase of shutdown (C15) and the
    // deadlock breaker (C14) still end its waits.
    h->protect_depth = 1;
    if (sc != nullptr && !sc->is_global && (owner == nullptr || !owner->zombie)) {
        h->charged = sc;
        ++sc->refs;
        for (tasync_scope *p = sc; p != nullptr && p != global_scope; p = p->parent) {
            ++p->sub_active;
            ++p->sub_all;
        }
    }
    if (owner != nullptr) {
        // The owner lives at least as long as its handler (which reads it).
        h->finally_of = owner;
        ++owner->refs;
        if (!owner->completed) {
            h->holds_awaiters = true;
            ++owner->finally_running;
        }
    }
}

// ------------------------------------------------------------- suspension

int tasync_runtime::suspend_on(Wait &w) {
    Coroutine *co = current;
    w.co = co;
    co->wait = &w;
    if (host.capture_location != nullptr) co->suspend_loc = capture_location();
    if (co->cancel_pending && co->protect_depth == 0 && !w.done &&
        (w.on_cancel == nullptr || w.on_cancel(&w))) {
        // A cancellation requested while the coroutine ran (C8, C10's
        // pending cancellation) interrupts its next suspension at once.
        retain_error(co->cancel_error);
        wake(&w, -ECANCELED, nullptr, co->cancel_error);  // records only: co is running
        co->cancel_pending = false;
    }
    if (!w.done) {
        co->state = Coroutine::State::Waiting;
        switch_away();
    }
    co->wait = nullptr;
    if (w.cleanup != nullptr) w.cleanup(&w);
    deliver_pending_cancel(w);
    return w.code;
}

void tasync_runtime::wake(Wait *w, int code, void *v, void *e) {
    if (w == nullptr || w->done) {
        release_value(v);
        release_error(e);
        return;
    }
    w->done = true;
    w->code = code;
    w->value = v;
    w->error = e;
    Coroutine *co = w->co;
    if (co->state == Coroutine::State::Waiting) {
        co->state = Coroutine::State::Ready;
        make_runnable(co);
    }
}

void tasync_runtime::deliver_pending_cancel(Wait &w) {
    Coroutine *co = w.co;
    if (w.code == -ECANCELED && w.error == nullptr && co->cancel_pending) {
        // A wait a backend ended with a bare -ECANCELED (offloaded work it
        // took back for the pending cancellation, forced through a protect
        // section too) ends with the coroutine's own cancellation (C7).
        w.error = co->cancel_error;
        retain_error(w.error);
        co->cancel_pending = false;
        return;
    }
    if (!co->cancel_pending || co->protect_depth > 0) return;
    if (w.code == -ECANCELED) {
        co->cancel_pending = false;
        return;
    }
    if (w.keeps_result && w.code >= 0) return;  // delivered at the next suspension
    release_value(w.value);
    release_error(w.error);
    w.value = nullptr;
    w.code = -ECANCELED;
    w.error = co->cancel_error;
    retain_error(w.error);
    co->cancel_pending = false;
}

void tasync_runtime::fill_error(Wait &w) {
    if (w.code >= 0 || w.error != nullptr) return;
    if (w.code == TASYNC_EAWAIT_CANCELLED) {
        w.error = make_error(TASYNC_ERROR_AWAIT_CANCELLED, w.code, "Await was cancelled by its cancellation awaitable");
    } else if (w.code == -ECANCELED) {
        w.error = make_error(TASYNC_ERROR_CANCELLATION, w.code, "cancelled");
    } else {
        w.error = make_error(TASYNC_ERROR_SYSTEM, w.code, tasync_strerror(w.code));
    }
}

int tasync_runtime::cancel(Coroutine *co, void *err) {
    if (co->rt == nullptr || co->state == Coroutine::State::Finished) return 0;
    if (co->done && !co->escalating) return 0;
    if (co->is_main && main_waiting_end) return 0;
    if (co->cancel_requested) return 0;  // the first cancellation wins
    if (co->finishing) {
        // Its outcome is final (S10 runs its handlers): a cancellation only
        // ends the wait a handler is in.
        if (co->state == Coroutine::State::Waiting && co->wait != nullptr && co->protect_depth == 0 &&
            (co->wait->on_cancel == nullptr || co->wait->on_cancel(co->wait))) {
            void *e = err != nullptr ? err : make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, "cancelled");
            if (err != nullptr) retain_error(e);
            wake(co->wait, -ECANCELED, nullptr, e);
        }
        return 0;
    }
    if (err != nullptr) {
        retain_error(err);
    } else {
        tasync_location_t loc = capture_location();
        err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                         loc.file != nullptr ? "cancelled at " + format_location(loc) : std::string("cancelled"));
    }
    co->cancel_requested = true;
    co->cancel_error = err;
    switch (co->state) {
        case Coroutine::State::New: {
            if (co->protect_depth > 0) {
                // A finally handler (C11): it starts anyway, the cancellation held back.
                co->cancel_pending = true;
                return 0;
            }
            // Rule C7: never starts. It stays in the run queue, which skips
            // it (and drops the runtime's reference) when it comes up; a
            // coroutine a group held back is in no queue.
            ++co->refs;
            co->state = Coroutine::State::Running;
            complete_coroutine(co);
            co->state = Coroutine::State::Finished;
            co->stack_released = true;
            if (co->held) {
                co->held = false;
                co->runtime_ref = false;
                --co->refs;
            }
            if (--co->refs == 0) co->destroy();
            return 0;
        }
        case Coroutine::State::Running:
        case Coroutine::State::Ready:
            co->cancel_pending = true;
            return 0;
        case Coroutine::State::Waiting: {
            Wait *w = co->wait;
            if (co->protect_depth > 0 || (w->on_cancel != nullptr && !w->on_cancel(w))) {
                co->cancel_pending = true;
                return 0;
            }
            retain_error(err);
            wake(w, -ECANCELED, nullptr, err);
            return 0;
        }
        case Coroutine::State::Finished: return 0;
    }
    return 0;
}

// ------------------------------------------------------------ liveness

bool tasync_runtime::has_live_work() const noexcept {
    return timers.referenced() > 0 || io_waiters > 0 || signal_waiters > 0 || child_waiters > 0 ||
           jobs_in_flight > 0 || posted_pending.load(std::memory_order_acquire) > 0 ||
           external_refs.load(std::memory_order_acquire) > 0;
}

bool tasync_runtime::reactor_busy() const noexcept {
    return io_waiters > 0 || signal_waiters > 0 || child_waiters > 0 || jobs_in_flight > 0 ||
           !signal_watches.empty();
}

void tasync_runtime::poll(bool may_block) {
    // In a forked child, before the timeout and the post queue are read:
    // after_fork() may post.
    const tasync_backend_t *r = reactor();
    note_progress();  // C25
    Coroutine *saved = current;
    current = nullptr;
    std::int64_t timeout = 0;
    if (may_block && !has_posts.load(std::memory_order_acquire)) {
        if (!timers.empty() && !destroying) {
            now_valid = false;
            std::uint64_t n = now();
            std::uint64_t top = timers.top_deadline();
            timeout = top > n ? static_cast<std::int64_t>(top - n) : 0;
        } else {
            timeout = -1;
        }
    }
    if (timeout != 0) {
        // About to wait: a good moment to give retired stacks back, and
        // the stacks (and coroutine records) a burst left unused for a
        // whole decay window. While the cache holds more than its minimum,
        // the wait ends in time for the next decay tick, so that an idle
        // process returns a burst's memory.
        stacks->flush_retired();
        now_valid = false;
        const std::uint64_t n = now();
        stacks->decay(n);
        trim_coroutine_cache();
        if (std::uint64_t d = stacks->decay_deadline(); d != 0) {
            const std::int64_t until = d > n ? static_cast<std::int64_t>(d - n) : 0;
            if (timeout < 0 || until < timeout) timeout = until;
        }
        polling.store(true, std::memory_order_seq_cst);
        if (has_posts.load(std::memory_order_seq_cst)) timeout = 0;
    }
    if (timeout == 0 && !timers.empty() && !destroying) {
        // Timers already due fire before the reactor's callbacks: the
        // coroutines they wake run before those the fds about to be
        // reported wake (libuv's order), so a due delay is not queued
        // behind a whole pass of I/O.
        now_valid = false;
        run_timers();
    }
    int rc = r->loop_run(loop, timeout);
    polling.store(false, std::memory_order_relaxed);
    note_progress();
    if (rc < 0 && rc != -EINTR) {
        warn(std::string("backend loop_run failed: ") + tasync_strerror(rc));
    }
    now_valid = false;
    // While the runtime is destroyed (it polls only to take back offloaded
    // work), no timer fires: a callback or a scope's dispose timer would run
    // host code against a runtime that is going away.
    if (!timers.empty() && !destroying) run_timers();
    if (has_posts.load(std::memory_order_acquire)) run_posted();
    current = saved;
}

void tasync_runtime::run_timers() {
    std::uint64_t n = now();
    std::uint64_t mark = timers.mark();
    while (TimerEntry *e = timers.pop_expired(n, mark)) e->fire(e);
}

// ------------------------------------------------------------ cross-thread

int tasync_runtime::post(void (*cb)(void *), void *data) {
    {
        std::lock_guard<std::mutex> lock(post_mu);
        posted.push_back(Posted{cb, data});
        posted_pending.fetch_add(1, std::memory_order_acq_rel);
    }
    has_posts.store(true, std::memory_order_seq_cst);
    if (polling.load(std::memory_order_seq_cst)) return ops->loop_wakeup(loop);
    return 0;
}

void tasync_runtime::run_posted() {
    {
        std::lock_guard<std::mutex> lock(post_mu);
        posted_swap.swap(posted);
        has_posts.store(false, std::memory_order_relaxed);
    }
    for (const Posted &p : posted_swap) {
        p.cb(p.data);
        posted_pending.fetch_sub(1, std::memory_order_acq_rel);
    }
    posted_swap.clear();
}
