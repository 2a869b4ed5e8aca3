// The end of the program and everything that can go wrong on the way there:
// graceful shutdown in two phases (C15), zombies' grace period at the end
// (S9), stuck cancellations (S15), deadlock detection (C14), and the
// introspection the reports are made of (C12).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tasync/core/await_many.hpp"
#include "tasync/core/channel.hpp"
#include "tasync/core/pool.hpp"
#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

std::string ms_text(std::uint64_t ns) {
    if (ns % 1000000000u == 0) return std::to_string(ns / 1000000000u) + " s";
    return std::to_string(ns / 1000000u) + " ms";
}

const char *io_events_text(unsigned events) {
    const bool r = events & TASYNC_IO_READABLE;
    const bool w = events & TASYNC_IO_WRITABLE;
    return r && w ? "readable or writable" : w ? "writable" : "readable";
}

}  // namespace

// ============================================================== shutdown

// Ends a coroutine's current wait with a cancellation whatever holds it
// back (protect sections): the second phase of shutdown, deadlocks, stuck
// zombies. Waits whose result the kernel still owns cannot end early.
void tasync_runtime::force_wake(Coroutine *co, void *error) {
    if (co->state != Coroutine::State::Waiting || co->wait == nullptr || co->wait->done) return;
    if (co->is_main && main_waiting_end) return;
    Wait *w = co->wait;
    if (!co->cancel_requested && !co->finishing) {
        co->cancel_requested = true;
        retain_error(error);
        co->cancel_error = error;
    }
    if (w->keeps_result && w->on_cancel != nullptr && !w->on_cancel(w)) {
        // The kernel or a thread still owns the wait's buffer: the
        // cancellation is delivered when it ends, but it is recorded now.
        if (!co->finishing) co->cancel_pending = true;
        return;
    }
    co->cancel_pending = false;
    void *e = co->cancel_error != nullptr ? co->cancel_error : error;
    retain_error(e);
    wake(w, -ECANCELED, nullptr, e);
}

void tasync_runtime::start_shutdown(void *error, bool unhandled) {
    if (unhandled) {
        if (fatal_error == nullptr) {
            retain_error(error);
            fatal_error = error;
            fatal_unhandled = true;
        } else if (error != fatal_error) {
            warn("Another unhandled error during shutdown: " + describe_error(error));
        }
    }
    if (shutdown_phase == TASYNC_SHUTDOWN_NONE) {
        shutdown_phase = TASYNC_SHUTDOWN_GRACEFUL;
        if (error != nullptr && is_cancellation(error)) {
            retain_error(error);
            shutdown_error = error;
        } else {
            std::string msg = "Graceful shutdown";
            if (error != nullptr) msg += ": unhandled " + describe_error(error);
            shutdown_error = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, msg);
        }
        std::vector<Coroutine *> cos = unfinished_coroutines();
        for (Coroutine *co : cos) ++co->refs;
        for (Coroutine *co : cos) cancel(co, shutdown_error);
        for (Coroutine *co : cos) {
            if (--co->refs == 0) co->destroy();
        }
        if (!stuck_timer.armed()) timers.arm(&stuck_timer, now() + zombie_timeout_ns);
        return;
    }
    if (shutdown_phase == TASYNC_SHUTDOWN_GRACEFUL && unhandled) {
        // Phase two: nothing holds cancellation back any more, and timers
        // stop keeping the program alive.
        shutdown_phase = TASYNC_SHUTDOWN_FORCED;
        std::vector<Coroutine *> cos = unfinished_coroutines();
        for (Coroutine *co : cos) ++co->refs;
        for (Coroutine *co : cos) {
            if (co->state == Coroutine::State::Waiting) force_wake(co, shutdown_error);
            else cancel(co, shutdown_error);
        }
        for (Coroutine *co : cos) {
            if (--co->refs == 0) co->destroy();
        }
        callback_timers.for_each([&](tasync_timer *t) { timers.set_ref(&t->entry, false); });
    }
}

// Rule S9: once nothing active remains at the end of the program, zombies
// get the zombie timeout to finish.
void tasync_runtime::start_zombie_phase() {
    zombie_stage = 1;
    timers.arm(&zombie_timer, now() + zombie_timeout_ns);
}

void tasync_runtime::zombie_timer_fired() {
    std::vector<Coroutine *> zs;
    for (Coroutine *co : unfinished_coroutines()) {
        if (co->zombie) {
            ++co->refs;
            zs.push_back(co);
        }
    }
    if (zombie_stage == 1) {
        // The grace period is over: cancel them, and give them as long again
        // to unwind.
        zombie_stage = 2;
        void *err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                               "Zombie coroutine cancelled: the program ended " + ms_text(zombie_timeout_ns) + " ago");
        for (Coroutine *co : zs) cancel(co, err);
        release_error(err);
        if (zombies > 0) timers.arm(&zombie_timer, now() + zombie_timeout_ns);
    } else if (zombie_stage == 2) {
        // Still there after being cancelled (S15): report and force them.
        zombie_stage = 3;
        for (Coroutine *co : zs) {
            warn_stuck(co, "a zombie");
            force_wake(co, co->cancel_error);
        }
    }
    for (Coroutine *co : zs) {
        if (--co->refs == 0) co->destroy();
    }
}

void tasync_runtime::warn_stuck(Coroutine *co, const char *why) {
    std::string msg = "Coroutine " + std::to_string(co->id) +
                      (co->spawn_loc.file != nullptr ? " spawned" + at(co->spawn_loc) : std::string()) + " (" + why +
                      ") is stuck while being cancelled";
    if (co->state == Coroutine::State::Waiting) msg += ": suspended" + at(co->suspend_loc) + ", " + describe_wait(co);
    warn(msg, co->suspend_loc.file != nullptr ? co->suspend_loc : co->spawn_loc);
}

// Graceful shutdown ran for a zombie timeout and coroutines it cancelled
// are still there (S15).
void tasync_runtime::stuck_timer_fired() {
    for (Coroutine *co : unfinished_coroutines()) {
        if (co->cancel_requested && !co->is_main) warn_stuck(co, "graceful shutdown");
    }
}

// ================================================================ deadlock

std::vector<tasync_coroutine *> tasync_runtime::unfinished_coroutines() {
    std::vector<Coroutine *> out;
    all.for_each([&](tasync_awaitable *a) {
        if (a->kind != AwaitableKind::Coroutine) return;
        auto *co = static_cast<Coroutine *>(a);
        // Done ones are gone from the program's view, unless a held error
        // escalates on their stack (S10).
        if (co->state != Coroutine::State::Finished && (co->escalating || (!co->done && !co->completed)))
            out.push_back(co);
    });
    return out;
}

void tasync_runtime::report_deadlock() {
    std::vector<Coroutine *> waiting;
    for (Coroutine *co : unfinished_coroutines()) {
        if (co->state == Coroutine::State::Waiting && !(co->is_main && main_waiting_end)) waiting.push_back(co);
    }
    if (!deadlock) {
        deadlock = true;
        std::string head = "Deadlock detected: no active coroutines, " + std::to_string(waiting.size()) +
                           " coroutines in waiting";
        warn(head);
        for (Coroutine *co : waiting) {
            std::string msg = co->is_main ? std::string("The main coroutine")
                                          : "Coroutine " + std::to_string(co->id) +
                                                (co->spawn_loc.file != nullptr ? " spawned" + at(co->spawn_loc)
                                                                               : std::string());
            msg += " is suspended" + at(co->suspend_loc) + ", " + describe_wait(co);
            warn(msg, co->suspend_loc);
        }
        warn("Coroutines and scopes at the deadlock:\n" + dump());
        if (fatal_error == nullptr) {
            fatal_error = make_error(TASYNC_ERROR_DEADLOCK, TASYNC_EDEADLOCK, head);
            fatal_unhandled = false;
        }
        if (shutdown_phase == TASYNC_SHUTDOWN_NONE) {
            shutdown_phase = TASYNC_SHUTDOWN_GRACEFUL;
            shutdown_error = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, "Graceful shutdown: " + head);
        }
    }
    // Graceful shutdown (C15): every waiting coroutine is cancelled. One that
    // holds its cancellation back (protect) is woken by force, so that the
    // runtime always makes progress.
    bool progressed = false;
    for (Coroutine *co : waiting) {
        if (co->state != Coroutine::State::Waiting) continue;
        if (!co->cancel_requested) cancel(co, shutdown_error);
        if (co->state == Coroutine::State::Waiting) force_wake(co, shutdown_error);
        progressed = progressed || co->state != Coroutine::State::Waiting;
    }
    if (!progressed) {
        // Only the main coroutine is left, waiting for the end.
        if (main_waiting_end && main->state == Coroutine::State::Waiting) {
            wake(main->wait, TASYNC_EDEADLOCK);
            return;
        }
        std::fprintf(stderr, "tasync: fatal: deadlock with no coroutine to resume\n");
        std::abort();
    }
}

// =========================================================== introspection

std::string tasync_runtime::describe_wait(const Coroutine *co) {
    const Wait *w = co->wait;
    if ((co->done || co->completed) && !co->escalating) return "completed";
    if (co->state == Coroutine::State::Ready || co->state == Coroutine::State::New) return "queued";
    if (co->state == Coroutine::State::Running) return "running";
    if (w == nullptr) return "suspended";
    switch (w->kind) {
        case WaitKind::Park: return "suspended until resumed";
        case WaitKind::Await: {
            std::string what = "an awaitable";
            if (w->target != nullptr && w->target->kind == AwaitableKind::Coroutine)
                what = "coroutine " + std::to_string(static_cast<const Coroutine *>(w->target)->id);
            else if (w->target != nullptr && w->target->kind == AwaitableKind::Timeout)
                what = "a timeout";
            else if (w->target != nullptr && w->target->kind == AwaitableKind::Many)
                return static_cast<const tasync_await_many *>(w->target)->describe();
            if (w->count > 1) return "awaiting the first of " + std::to_string(w->count) + " (" + what + ", ...)";
            return "awaiting " + what;
        }
        case WaitKind::Delay: {
            std::uint64_t n = now();
            return "delay, " + ms_text(w->deadline > n ? (w->deadline - n) / 1000000 * 1000000 : 0) + " left";
        }
        case WaitKind::Fd: return "fd " + std::to_string(w->fd) + " " + io_events_text(w->events);
        case WaitKind::Signal: return "signal " + std::to_string(w->signum);
        case WaitKind::Child: return "child process " + std::to_string(w->pid);
        case WaitKind::Offload: return "work on a worker thread";
        case WaitKind::Op: return "an I/O operation on fd " + std::to_string(w->fd);
        case WaitKind::Scope:
            if (w->scope == nullptr || w->scope->created_at.file == nullptr) return "awaiting a scope";
            return "awaiting the scope created" + at(w->scope->created_at);
        case WaitKind::Group: return "the next result of a task group";
        case WaitKind::GroupSlot: return "a free place in the queue of a task group";
        case WaitKind::GroupCompletion: return "the completion of a task group";
        case WaitKind::End: return "the end of the program";
        case WaitKind::ChannelSend:
            return "sending to " + static_cast<const tasync_channel *>(w->object)->describe();
        case WaitKind::ChannelRecv:
            return "receiving from " + static_cast<const tasync_channel *>(w->object)->describe();
        case WaitKind::Pool: return "acquiring from " + static_cast<const tasync_pool *>(w->object)->describe();
        default: return "suspended";
    }
}

namespace {

void dump_coroutine(tasync_runtime *rt, std::string &out, const tasync_coroutine *co, int depth) {
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    out += "coroutine " + std::to_string(co->id);
    if (co->is_main) out += " (main)";
    else out += " spawned" + tasync_runtime::at(co->spawn_loc);
    if (co->zombie) out += " [zombie]";
    if (co->cancel_requested) out += " [cancelled]";
    if (co->protect_depth > 0) out += " [protected]";
    if (co->state == tasync_coroutine::State::Waiting)
        out += co->wait != nullptr && co->wait->kind == WaitKind::End
                   ? ": waiting for the end of the program"
                   : ": suspended" + tasync_runtime::at(co->suspend_loc) + ", " + rt->describe_wait(co);
    else
        out += ": " + rt->describe_wait(co);
    out += '\n';
}

void dump_scope(tasync_runtime *rt, std::string &out, const tasync_scope *s, int depth) {
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    if (s->is_global) out += "global scope";
    else out += "scope " + std::to_string(s->id) + " created" + tasync_runtime::at(s->created_at);
    out += ": " + std::to_string(s->sub_active) + " active, " + std::to_string(s->sub_all - s->sub_active) +
           " zombie";
    if (s->cancelled) out += " [cancelled]";
    else if (s->closed) out += " [closed]";
    if (s->failed) out += " [failed]";
    out += '\n';
    if (s->is_global) dump_coroutine(rt, out, rt->main, depth + 1);
    for (const tasync_coroutine *co = s->coroutines.front(); co != nullptr; co = s->coroutines.next(co))
        dump_coroutine(rt, out, co, depth + 1);
    for (const tasync_scope *c = s->children.front(); c != nullptr; c = s->children.next(c))
        dump_scope(rt, out, c, depth + 1);
}

}  // namespace

std::string tasync_runtime::dump() {
    std::string out;
    for (const tasync_scope *s = scopes.front(); s != nullptr; s = scopes.next(s)) {
        if (s->parent == nullptr) dump_scope(this, out, s, 0);
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

// ===================================================================== ABI

extern "C" {

TASYNC_API int tasync_runtime_shutdown(tasync_runtime_t *rt, void *error) {
    rt = running_runtime(rt);
    if (rt == nullptr) return -EINVAL;
    if (rt->shutdown_phase == TASYNC_SHUTDOWN_NONE) rt->start_shutdown(error, false);
    return 0;
}

TASYNC_API int tasync_runtime_shutdown_phase(const tasync_runtime_t *rt) {
    return rt != nullptr ? rt->shutdown_phase : TASYNC_SHUTDOWN_NONE;
}

TASYNC_API void *tasync_runtime_take_error(tasync_runtime_t *rt) {
    if (rt == nullptr) return nullptr;
    void *e = rt->fatal_error;
    rt->fatal_error = nullptr;
    return e;
}

TASYNC_API void tasync_runtime_set_zombie_timeout(tasync_runtime_t *rt, uint64_t timeout_ns) {
    if (rt != nullptr) rt->zombie_timeout_ns = timeout_ns != 0 ? timeout_ns : 2000000000ull;
}

TASYNC_API int tasync_coroutine_wait_info(const tasync_coroutine_t *co, tasync_wait_info_t *out) {
    if (co == nullptr || out == nullptr || out->size < sizeof(uint32_t) * 2) return -EINVAL;
    tasync_wait_info_t info{};
    info.size = out->size < sizeof(info) ? out->size : static_cast<uint32_t>(sizeof(info));
    info.fd = -1;
    const Wait *w = co->wait;
    const bool finished = (co->done || co->completed) && !co->escalating;
    if (!finished && co->started && co->state == tasync_coroutine::State::Ready) {
        info.kind = TASYNC_WAIT_YIELD;
    } else if (!finished && co->state == tasync_coroutine::State::Waiting && w != nullptr) {
        info.kind = static_cast<uint32_t>(w->kind);
        info.target = w->target;
        info.scope = w->scope;
        info.fd = w->fd;
        info.events = w->events;
        info.signum = w->signum;
        info.pid = w->pid;
        info.deadline_ns = w->deadline;
        info.count = w->count;
        if (w->kind == WaitKind::ChannelSend || w->kind == WaitKind::ChannelRecv)
            info.channel = const_cast<tasync_channel *>(static_cast<const tasync_channel *>(w->object));
        if (w->kind == WaitKind::Pool) info.pool = const_cast<tasync_pool *>(static_cast<const tasync_pool *>(w->object));
        if (w->target != nullptr && w->target->kind == AwaitableKind::Many) {
            // Awaiting a set (await_many.h): the number of its items.
            info.count = static_cast<uint32_t>(static_cast<const tasync_await_many *>(w->target)->items.size());
        }
    }
    std::memcpy(out, &info, info.size);
    return 0;
}

TASYNC_API size_t tasync_coroutine_describe_wait(const tasync_coroutine_t *co, char *buf, size_t len) {
    if (co == nullptr || co->rt == nullptr) {
        if (buf != nullptr && len > 0) buf[0] = '\0';
        return 0;
    }
    std::string d = co->rt->describe_wait(co);
    if (buf != nullptr && len > 0) std::snprintf(buf, len, "%s", d.c_str());
    return d.size();
}

TASYNC_API size_t tasync_runtime_coroutines(tasync_runtime_t *rt, tasync_coroutine_t **out, size_t cap) {
    if (rt == nullptr) return 0;
    std::vector<tasync_coroutine *> cos = rt->unfinished_coroutines();
    std::stable_sort(cos.begin(), cos.end(), [](const tasync_coroutine *a, const tasync_coroutine *b) {
        return a->is_main != b->is_main ? a->is_main : a->id < b->id;
    });
    for (size_t i = 0; i < cos.size() && i < cap && out != nullptr; ++i) out[i] = cos[i];
    return cos.size();
}

TASYNC_API size_t tasync_runtime_dump(tasync_runtime_t *rt, char *buf, size_t len) {
    if (rt == nullptr) return 0;
    std::string d = rt->dump();
    if (buf != nullptr && len > 0) std::snprintf(buf, len, "%s", d.c_str());
    return d.size();
}

}  // extern "C"

// ================================================================= abort

// Rule C22: the program ends (a fatal error, the end of the request) and no
// more user code from before may run. What is unfinished is marked and
// cancelled; the host reads the mark at the coroutine's resume or start.
int tasync_runtime::abort_all(int mode, void *error) {
    ++abort_epoch;
    std::vector<Coroutine *> cos;
    for (Coroutine *co : unfinished_coroutines()) {
        if (co->is_main || co->aborted) continue;
        co->aborted = true;
        ++co->refs;
        cos.push_back(co);
    }
    // Woken in the order they were spawned.
    std::sort(cos.begin(), cos.end(), [](const Coroutine *a, const Coroutine *b) { return a->id < b->id; });
    const bool main_too = mode == TASYNC_ABORT_FATAL && main != nullptr && !main->aborted && current != main &&
                          !main_waiting_end;
    if (main_too) main->aborted = true;
    if (!cos.empty() || main_too) {
        void *err = error;
        if (err != nullptr) {
            retain_error(err);
        } else {
            err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, "The program is shutting down");
        }
        for (Coroutine *co : cos) cancel(co, err);
        if (main_too) cancel(main, err);
        release_error(err);
    }
    for (Coroutine *co : cos) {
        if (--co->refs == 0) co->destroy();
    }
    return static_cast<int>(cos.size()) + (main_too ? 1 : 0);
}

TASYNC_API int tasync_runtime_abort(tasync_runtime_t *rt, int mode, void *error) {
    if (rt == nullptr || (mode != TASYNC_ABORT_END && mode != TASYNC_ABORT_FATAL)) return -EINVAL;
    return rt->abort_all(mode, error);
}
