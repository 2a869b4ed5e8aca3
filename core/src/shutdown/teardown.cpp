// Destroying a runtime: what is still alive when tasync_runtime_destroy is
// called (coroutines that never finished, scopes, groups, timers, watches)
// is detached and freed, and the backend unloaded.
#include "tasync/core/runtime.hpp"

#include <cstdlib>
#include <thread>

using namespace tasync::detail;

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
    teardown_derivations();
    teardown_channels();
    teardown_pools();
    teardown_groups();
    teardown_scopes_end();
    teardown_free_contexts();
    release_error(shutdown_error);
    release_error(fatal_error);
    shutdown_error = fatal_error = nullptr;
    // Callback timers the host never destroyed are closed with the runtime
    // (runtime.h): the host may not touch them any more, so they are freed
    // here, their callbacks never called again.
    while (tasync_timer *t = callback_timers.front()) {
        timers.disarm(&t->entry);
        callback_timers.remove(t);
        delete t;
    }

    // 3. Reactor watches, then the loop (in a forked child, the child's
    // own: see after_fork).
    reactor();
    for (FdWatch *w : fd_watches) {
        if (w == nullptr) continue;
        timers.disarm(&w->deadline_timer);
        ops->handle_close(w->handle);
        delete w;
    }
    fd_watches.clear();
    signals_teardown(this);
    deadline_fd_teardown(this);
    // Another thread may still be inside post() or unref(), about to wake
    // the loop, although the runtime already saw what it did.
    while (xthread_calls.load(std::memory_order_acquire) != 0) std::this_thread::yield();
    ops->loop_destroy(loop);
    loop = nullptr;

    // 4. What is left of the runtime itself.
    if (main != nullptr) {
        main->all_link.unlink();
        release_value(main->value);
        release_error(main->error);
        release_error(main->cancel_error);
        release_error(main->soft_cancel);
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
    release_poll_stack();
    stacks.reset();
    while (co_cache != nullptr) {
        void *p = co_cache;
        co_cache = *static_cast<void **>(p);
        std::free(p);
    }
    co_cache_count = 0;
}
