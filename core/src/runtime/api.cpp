// The C ABI of the runtime and coroutines (runtime.h), forwarding to the
// C++ implementation. No C++ exception crosses this boundary: the core is
// built with -fno-exceptions.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "tasync/core/runtime.hpp"

using namespace tasync::detail;

#ifndef TASYNC_VERSION_STRING
#define TASYNC_VERSION_STRING "0.0.0"
#endif

extern "C" {

TASYNC_API uint32_t tasync_core_abi_version(void) { return TASYNC_ABI_VERSION; }

TASYNC_API const char *tasync_core_version_string(void) { return TASYNC_VERSION_STRING; }

TASYNC_API int tasync_runtime_create(const tasync_runtime_options_t *opts, tasync_runtime_t **out) {
    if (out == nullptr) return -EINVAL;
    *out = nullptr;
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    if (opts != nullptr) {
        if (opts->size < offsetof(tasync_runtime_options_t, zombie_timeout_ns)) return -EINVAL;
        std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    }
    if (tls_runtime != nullptr) {
        if (o.errbuf != nullptr && o.errbuf_size > 0)
            std::snprintf(o.errbuf, o.errbuf_size, "this thread already has a runtime");
        return -EBUSY;
    }
    auto *rt = new (std::nothrow) tasync_runtime;
    if (rt == nullptr) return -ENOMEM;
    int rc = rt->init(o);
    if (rc != 0) {
        delete rt;
        return rc;
    }
    tls_runtime = rt;
    install_overflow_handler(rt);
    *out = rt;
    return 0;
}

TASYNC_API void tasync_runtime_destroy(tasync_runtime_t *rt) {
    if (rt == nullptr) return;
    const bool was_current = tls_runtime == rt;
    delete rt;
    if (was_current) {
        remove_overflow_handler(nullptr);
        tls_runtime = nullptr;
    }
}

TASYNC_API tasync_runtime_t *tasync_runtime_current(void) { return tls_runtime; }

TASYNC_API int tasync_runtime_run(tasync_runtime_t *rt) {
    if (rt == nullptr) return -EINVAL;
    if (rt->current != rt->main) return TASYNC_EBAD_STATE;
    Wait w;
    w.kind = WaitKind::End;
    // Waiting for the end is not a suspension a cancellation interrupts:
    // the main coroutine's own cancellation (graceful shutdown requested
    // from the main flow) only asks every other coroutine to end.
    w.on_cancel = [](Wait *) { return false; };
    w.keeps_result = true;
    rt->deadlock = false;
    // The main flow's abort (C22) is over: the host ended it (PHP bailed
    // out) before it came to wait for the end.
    rt->main->aborted = false;
    rt->main_waiting_end = true;
    rt->maybe_start_zombie_phase();
    rt->suspend_on(w);
    rt->main_waiting_end = false;
    rt->zombie_stage = 0;
    rt->timers.disarm(&rt->zombie_timer);
    rt->release_value(w.value);
    rt->release_error(w.error);
    // The program ended: the main flow goes on (shutdown functions) without
    // a cancellation left over from the shutdown.
    rt->main->cancel_pending = false;
    rt->main->cancel_requested = false;
    rt->release_error(rt->main->cancel_error);
    rt->main->cancel_error = nullptr;
    rt->stacks->flush_retired();
    if (rt->deadlock) return TASYNC_EDEADLOCK;
    if (rt->fatal_error != nullptr && rt->fatal_unhandled) return TASYNC_EFAILED;
    return w.code == -ECANCELED ? 0 : w.code;
}

TASYNC_API int tasync_runtime_backend_info(tasync_runtime_t *rt, tasync_backend_info_t *out) {
    if (rt == nullptr || out == nullptr || out->size < sizeof(uint32_t)) return -EINVAL;
    tasync_backend_info_t info{};
    info.size = out->size < sizeof(info) ? out->size : static_cast<uint32_t>(sizeof(info));
    info.abi_version = rt->ops->abi_version;
    info.name = rt->ops->name;
    info.version = rt->ops->version;
    info.path = rt->backend.path().c_str();
    info.capabilities = rt->ops->capabilities;
    info.op_mask = rt->ops->op_mask;
    std::memcpy(out, &info, info.size);
    return 0;
}

TASYNC_API uint64_t tasync_runtime_now(tasync_runtime_t *rt) {
    if (rt == nullptr) return 0;
    rt->now_valid = false;
    return rt->now();
}

TASYNC_API int tasync_runtime_post(tasync_runtime_t *rt, void (*cb)(void *data), void *data) {
    if (rt == nullptr || cb == nullptr) return -EINVAL;
    return rt->post(cb, data);
}

TASYNC_API void tasync_runtime_ref(tasync_runtime_t *rt) {
    if (rt != nullptr) rt->external_refs.fetch_add(1, std::memory_order_acq_rel);
}

TASYNC_API void tasync_runtime_unref(tasync_runtime_t *rt) {
    if (rt == nullptr) return;
    rt->xthread_calls.fetch_add(1, std::memory_order_seq_cst);
    if (rt->external_refs.fetch_sub(1, std::memory_order_seq_cst) == 1) {
        // The runtime may be blocked with nothing else to wake it.
        if (rt->polling.load(std::memory_order_seq_cst)) rt->ops->loop_wakeup(rt->loop);
    }
    // The last touch of the runtime: from here on, it may be gone.
    rt->xthread_calls.fetch_sub(1, std::memory_order_release);
}

TASYNC_API void tasync_value_release(tasync_runtime_t *rt, void *value) {
    if (rt != nullptr) rt->release_value(value);
}

TASYNC_API void tasync_error_release(tasync_runtime_t *rt, void *error) {
    if (rt != nullptr) rt->release_error(error);
}

TASYNC_API void *tasync_error_create(tasync_runtime_t *rt, int kind, const char *message) {
    if (rt == nullptr) return nullptr;
    return rt->make_error(kind, 0, message != nullptr ? message : "");
}

TASYNC_API size_t tasync_error_describe(tasync_runtime_t *rt, void *error, char *buf, size_t len) {
    if (rt == nullptr) return 0;
    std::string d = rt->describe_error(error);
    if (buf != nullptr && len > 0) std::snprintf(buf, len, "%s", d.c_str());
    return d.size();
}

// ------------------------------------------------------------- coroutines

TASYNC_API int tasync_spawn(tasync_runtime_t *rt, const tasync_spawn_options_t *opts, tasync_coroutine_t **out,
                            void **out_error) {
    if (out != nullptr) *out = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    if (rt == nullptr) rt = tls_runtime;
    if (rt == nullptr || opts == nullptr || opts->size < offsetof(tasync_spawn_options_t, location)) return -EINVAL;
    int rc;
    if (opts->size >= sizeof(tasync_spawn_options_t)) {
        rc = rt->spawn(*opts, out, out_error);
    } else {
        // An older caller's smaller struct: widen it with zeros.
        tasync_spawn_options_t o{};
        std::memcpy(&o, opts, opts->size);
        rc = rt->spawn(o, out, out_error);
    }
    if (rc == 0 && out != nullptr) ++(*out)->handles;  // the caller's handle (S10)
    return rc;
}

// References taken through the ABI are the host's handles on the coroutine
// (rule S10's Future semantics); the core's own are counted in refs only.
TASYNC_API void tasync_coroutine_retain(tasync_coroutine_t *co) {
    if (co == nullptr) return;
    ++co->refs;
    ++co->handles;
}

TASYNC_API void tasync_coroutine_release(tasync_coroutine_t *co) {
    if (co == nullptr) return;
    if (co->handles > 0 && --co->handles == 0 && co->rt != nullptr) co->rt->handle_released(co);
    if (--co->refs == 0) co->destroy();
}

TASYNC_API tasync_coroutine_t *tasync_coroutine_current(tasync_runtime_t *rt) {
    if (rt == nullptr) rt = tls_runtime;
    return rt != nullptr ? rt->current : nullptr;
}

TASYNC_API tasync_runtime_t *tasync_coroutine_runtime(const tasync_coroutine_t *co) {
    return co != nullptr ? co->rt : nullptr;
}

TASYNC_API uint64_t tasync_coroutine_id(const tasync_coroutine_t *co) { return co != nullptr ? co->id : 0; }

TASYNC_API uint32_t tasync_coroutine_flags(const tasync_coroutine_t *co) {
    if (co == nullptr) return 0;
    using S = tasync_coroutine::State;
    uint32_t f = 0;
    if (co->is_main) f |= TASYNC_CO_MAIN;
    if (co->started) f |= TASYNC_CO_STARTED;
    // New and Ready coroutines are exactly those in the run queue.
    const bool finished = co->done || co->completed;
    if (!finished && ((co->state == S::New && !co->held) || co->state == S::Ready)) f |= TASYNC_CO_QUEUED;
    if (finished) {
        f |= TASYNC_CO_COMPLETED;
        if (co->cancel_requested || (co->error != nullptr && co->rt != nullptr && co->rt->is_cancellation(co->error)))
            f |= TASYNC_CO_CANCELLED;
    } else if (co->state == S::Running && co->rt != nullptr && co->rt->current == co) {
        f |= TASYNC_CO_RUNNING;
    } else if (co->started) {
        f |= TASYNC_CO_SUSPENDED;
    }
    if (co->cancel_requested) f |= TASYNC_CO_CANCEL_REQUESTED;
    if (co->zombie) f |= TASYNC_CO_ZOMBIE;
    if (co->protect_depth > 0) f |= TASYNC_CO_PROTECTED;
    if (co->high_priority) f |= TASYNC_CO_HIGH_PRIORITY;
    if (co->aborted) f |= TASYNC_CO_ABORTED;
    return f;
}

TASYNC_API int tasync_coroutine_set_high_priority(tasync_coroutine_t *co, int on) {
    if (co == nullptr) return -EINVAL;
    co->high_priority = on != 0;
    // Queued already (spawned, or woken and not run yet): it moves now.
    using S = tasync_coroutine::State;
    if (on != 0 && co->rt != nullptr && !co->completed && !co->held && (co->state == S::New || co->state == S::Ready))
        co->rt->runq.move_to_front(co);
    return 0;
}

TASYNC_API void *tasync_coroutine_host_data(const tasync_coroutine_t *co) { return co != nullptr ? co->host_data : nullptr; }

TASYNC_API void tasync_coroutine_set_host_data(tasync_coroutine_t *co, void *host_data) {
    if (co != nullptr) co->host_data = host_data;
}

TASYNC_API tasync_awaitable_t *tasync_coroutine_awaitable(tasync_coroutine_t *co) { return co; }

TASYNC_API void tasync_coroutine_set_result(tasync_coroutine_t *self, void *value) {
    if (self == nullptr || self->rt == nullptr || self->done || self->completed) return;
    self->rt->retain_value(value);
    self->rt->release_value(self->value);
    self->value = value;
}

TASYNC_API void tasync_coroutine_set_error(tasync_coroutine_t *self, void *error) {
    if (self == nullptr || self->rt == nullptr || self->done || self->completed) return;
    self->rt->retain_error(error);
    self->rt->release_error(self->error);
    self->error = error;
}

TASYNC_API int tasync_coroutine_outcome(const tasync_coroutine_t *co, void **value, void **error) {
    if (co == nullptr) return -EINVAL;
    if (!co->completed && !co->done) return TASYNC_EBAD_STATE;
    if (value != nullptr) *value = co->value;
    if (error != nullptr) *error = co->error;
    return 0;
}

TASYNC_API int tasync_coroutine_cancel(tasync_coroutine_t *co, void *error) {
    if (co == nullptr) return -EINVAL;
    if (co->rt == nullptr) return 0;
    return co->rt->cancel(co, error);
}

TASYNC_API int tasync_coroutine_repend_cancellation(tasync_coroutine_t *self) {
    if (self == nullptr || self->rt == nullptr || !self->cancel_requested || self->done || self->completed)
        return TASYNC_EBAD_STATE;
    self->cancel_pending = true;
    return 0;
}

TASYNC_API int tasync_coroutine_stack_bounds(const tasync_coroutine_t *co, void **low, void **high) {
    if (co == nullptr || co->rt == nullptr || !co->stack) return TASYNC_EBAD_STATE;
    std::size_t guard = co->rt->stacks->guard_size();
    if (low != nullptr) *low = co->stack.base + guard;
    if (high != nullptr) *high = co->stack.top();
    return 0;
}

TASYNC_API tasync_location_t tasync_coroutine_spawn_location(const tasync_coroutine_t *co) {
    return co != nullptr ? co->spawn_loc : tasync_location_t{};
}

TASYNC_API tasync_location_t tasync_coroutine_suspend_location(const tasync_coroutine_t *co) {
    return co != nullptr ? co->suspend_loc : tasync_location_t{};
}

}  // extern "C"
