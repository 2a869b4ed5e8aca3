// A coroutine's life: its record (allocated from a cache), spawning, its
// entry on its own stack, the end of its entry, its final outcome, its
// finally handlers (C11) and the release of its stack and record.
#include "tasync/core/runtime.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

namespace tasync::detail {
namespace {

constexpr std::size_t kCoroutineCacheMax = 1024;

}  // namespace
}  // namespace tasync::detail

using namespace tasync::detail;

// ================================================================ coroutine

tasync_coroutine::~tasync_coroutine() = default;

void tasync_coroutine::destroy() {
    tasync_runtime *r = rt;
    if (r != nullptr) {
        all_link.unlink();
        r->release_value(value);
        r->release_error(error);
        r->release_error(cancel_error);
        r->release_error(soft_cancel);
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
    r->release_error(soft_cancel);
    soft_cancel = nullptr;
    r->drop_coroutine_extras(this);
    if (r->host.coroutine_free && host_data) r->host.coroutine_free(r->host_data, this, host_data);
    host_data = nullptr;
    // The runtime tears its scopes down itself; just forget ours.
    scope = nullptr;
    state = State::Finished;
    tasync_awaitable::detach();
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
    // Under an address-space limit the stack is taken now, so that running
    // out of it is the spawner's error (issue 21) rather than a coroutine
    // that fails when it first runs; without a limit it is taken lazily
    // (prepare_new), so that coroutines that end before the next one
    // starts share one warm stack.
    Stack stack;
    if (eager_stacks) {
        stack = stacks->allocate();
        if (!stack) {
            int err = errno;
            if (out_error)
                *out_error = make_error(TASYNC_ERROR_SYSTEM, -ENOMEM,
                                        "cannot allocate a coroutine stack: " + std::string(std::strerror(err)));
            return -ENOMEM;
        }
    }
    Coroutine *co = alloc_coroutine();
    if (co == nullptr) {
        stacks->release(stack);
        if (out_error) *out_error = make_error(TASYNC_ERROR_SYSTEM, -ENOMEM, "out of memory spawning a coroutine");
        return -ENOMEM;
    }
    co->stack = stack;
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
    release_error(co->soft_cancel);
    co->soft_cancel = nullptr;
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
    // Registered before an abort (C22): the code that registered it was
    // aborted, so it starts aborted (cb.flags holds the registration's epoch).
    if (cb.flags != abort_epoch) h->aborted = true;
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
