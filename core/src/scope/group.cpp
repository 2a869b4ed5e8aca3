// Task groups (docs/rules.md, G1): a scope with results, an optional
// concurrency limit with a bounded queue, keyed tasks, all/race/any
// awaitables (sets of the await-many primitive, await_many.hpp, rule G2),
// iteration in completion order, closing, completion and letting go. See
// api/include/tasync/group.h for the contract.
#include <cerrno>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "tasync/core/await_many.hpp"
#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace tasync::detail {

struct GroupTask {
    tasync_group *group = nullptr;
    tasync_coroutine *co = nullptr;  // referenced
    bool key_is_string = false;
    std::int64_t num = 0;
    std::string str;
    bool done = false;
    bool has_slot = false;           // counts against the concurrency limit
    bool queued = false;             // held back, counted in held_count
    bool handled = false;            // its error reached a reader (group.h)
    void *value = nullptr;           // owned once done
    void *error = nullptr;
    Waiter waiter;                   // on co: records the outcome
};

// A finally handler of a group, watched until its coroutine completed.
struct HandlerWatch {
    Waiter waiter;
    tasync_coroutine *co = nullptr;  // referenced
    tasync_group *group = nullptr;
};

}  // namespace tasync::detail

struct tasync_group {
    std::uint32_t refs = 1;
    tasync_runtime *rt = nullptr;
    tasync_scope *scope = nullptr;   // referenced
    std::uint32_t concurrency = 0;
    std::uint32_t queue_limit = 0;
    std::uint32_t running = 0;       // tasks holding a slot
    std::size_t held_count = 0;      // tasks held back for a slot
    std::vector<std::unique_ptr<GroupTask>> tasks;  // spawn order
    std::vector<GroupTask *> completed;             // completion order
    std::deque<GroupTask *> held;
    std::int64_t next_int = 0;
    std::unordered_set<std::int64_t> ints;
    std::unordered_set<std::string> strs;
    void *(*build_results)(void *, tasync_group *) = nullptr;
    void *data = nullptr;
    bool closed = false;             // tasync_group_close, or let go
    bool let_go = false;
    // Completion (C11): the group's finally handlers run once its scope
    // has completed; awaitCompletion callers resume after all of them.
    bool hooked = false;             // a completion callback is registered on the scope
    bool fired = false;              // it ran: the handlers were started
    bool finalized = false;          // the handlers have all finished
    std::size_t handlers_running = 0;
    std::vector<tasync_spawn_options_t> finally_cbs;
    std::vector<std::unique_ptr<tasync::detail::HandlerWatch>> handlers;
    std::vector<tasync_await_many *> sets;  // undecided all/race/any, fed every new task
    WaiterList next_waiters;         // coroutines in wait_next
    WaiterList slot_waiters;         // coroutines in spawn, held by the queue limit
    WaiterList completion_waiters;   // coroutines in await_completion

    std::size_t unfinished() const { return tasks.size() - completed.size(); }
    bool is_closed() const { return closed || scope == nullptr || scope->closed; }
};

namespace {

void group_release(tasync_group *g);
void let_go(tasync_group *g);
void drop_handlers(tasync_group *g);

// What an all/race/any set of a group is, and how it completes.
struct GroupSet {
    enum class Kind : std::uint8_t { All, AllIgnoringErrors, Race, Any };
    tasync_group *group = nullptr;  // referenced until the set goes
    Kind kind;
    bool listed = true;             // in group->sets (undecided)
};

GroupTask *task_of(tasync_awaitable *what) {
    if (what == nullptr || what->kind != AwaitableKind::Coroutine) return nullptr;
    return static_cast<tasync_coroutine *>(what)->group_task;
}

void unlist(tasync_group *g, tasync_await_many *m, GroupSet *h) {
    if (!h->listed) return;
    h->listed = false;
    for (std::size_t i = 0; i < g->sets.size(); ++i) {
        if (g->sets[i] == m) {
            g->sets.erase(g->sets.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    }
}

// The set's decision (await_many.hpp, Hook): what it completes with, and
// which errors count as handled (group.h).
void set_decided(tasync_await_many *m, void *data, void **value, void **error) {
    auto *h = static_cast<GroupSet *>(data);
    tasync_group *g = h->group;
    tasync_runtime *rt = m->rt;
    unlist(g, m, h);
    auto mark_failures = [&] {
        for (tasync_await_many::Item *it : m->taken) {
            if (it->state != TASYNC_AWAIT_ITEM_FAILED) continue;
            if (GroupTask *t = task_of(it->what)) t->handled = true;
        }
    };
    switch (h->kind) {
        case GroupSet::Kind::All:
        case GroupSet::Kind::AllIgnoringErrors:
            mark_failures();
            if (h->kind == GroupSet::Kind::All && m->first_failure != nullptr) {
                *value = nullptr;
                *error = m->first_failure->what->error;
                rt->retain_error(*error);
            } else {
                *value = g->build_results != nullptr ? g->build_results(g->data, g) : nullptr;  // new reference
                *error = nullptr;
            }
            return;
        case GroupSet::Kind::Race:
            if (*error != nullptr && !m->taken.empty()) {
                if (GroupTask *t = task_of(m->taken.front()->what)) t->handled = true;
            }
            break;
        case GroupSet::Kind::Any: mark_failures(); break;
    }
    rt->retain_value(*value);
    rt->retain_error(*error);
}

void set_forgotten(tasync_await_many *m, void *data) {
    auto *h = static_cast<GroupSet *>(data);
    tasync_group *g = h->group;
    unlist(g, m, h);
    delete h;
    group_release(g);
}

void wake_all(tasync_runtime *rt, WaiterList &list) {
    while (Waiter *w = list.pop_front()) rt->wake(w->wait, 0);
}

// A closed group whose tasks have all finished is complete: its scope
// closes, and completes once what the tasks left in it has finished.
void check_complete(tasync_group *g) {
    if (!g->is_closed() || g->unfinished() != 0 || g->scope == nullptr) return;
    tasync_scope *s = g->scope;
    if (s->closed || s->rt == nullptr) return;
    s->closed = true;
    g->rt->scope_check_completed(s);
}

// Starts held tasks while slots are free, in spawn order.
void fill_slots(tasync_group *g) {
    bool started = false;
    while (!g->held.empty() && (g->concurrency == 0 || g->running < g->concurrency)) {
        GroupTask *t = g->held.front();
        g->held.pop_front();
        if (!t->queued) continue;  // completed (cancelled) before it started
        // Cancelled before it started, its finally handlers still running
        // (its completion, task_done, comes after them): it takes no slot
        // (G1); task_done ends its place in the queue.
        if (!t->co->held) continue;
        t->queued = false;
        --g->held_count;
        started = true;
        t->has_slot = true;
        ++g->running;
        g->rt->start_held(t->co);
    }
    if (started) wake_all(g->rt, g->slot_waiters);
}

// The task's coroutine completed (a notify waiter, called by complete()).
void task_done(Waiter *w, tasync_awaitable *source) {
    auto *t = static_cast<GroupTask *>(w->data);
    tasync_group *g = t->group;
    tasync_runtime *rt = g->rt;
    t->done = true;
    t->value = source->value;
    t->error = source->error;
    // The group answers for the error now: its readers, or its scope when
    // nobody read it (rule S10).
    if (t->error != nullptr) observe(source);
    rt->retain_value(t->value);
    rt->retain_error(t->error);
    g->completed.push_back(t);
    if (t->has_slot) {
        t->has_slot = false;
        --g->running;
    }
    if (t->queued) {
        t->queued = false;
        --g->held_count;
        wake_all(rt, g->slot_waiters);
    }
    ++g->refs;
    fill_slots(g);
    wake_all(rt, g->next_waiters);
    check_complete(g);
    group_release(g);
}

// Unlinks a task from its coroutine: from now on the coroutine is a plain
// member of the group's scope (its errors follow S10).
void detach_task(GroupTask *t) {
    if (t->co == nullptr) return;
    if (t->waiter.link.linked()) t->co->remove_waiter(&t->waiter);
    if (t->co->group_task == t) t->co->group_task = nullptr;
}

void free_tasks(tasync_group *g) {
    tasync_runtime *rt = g->rt;
    for (std::unique_ptr<GroupTask> &t : g->tasks) {
        detach_task(t.get());
        if (rt != nullptr) {
            rt->release_value(t->value);
            rt->release_error(t->error);
        }
        t->value = t->error = nullptr;
        if (--t->co->refs == 0) t->co->destroy();  // the group's own reference, not a handle
        t->co = nullptr;
    }
    g->tasks.clear();
    g->completed.clear();
    g->held.clear();
    g->held_count = 0;
}

// tasync_group_let_go (group.h): silent, nothing left running unaccounted.
void let_go(tasync_group *g) {
    tasync_runtime *rt = g->rt;
    if (g->let_go || rt == nullptr || rt->destroying) return;
    g->let_go = true;
    g->closed = true;
    ++g->refs;
    wake_all(rt, g->slot_waiters);
    // Tasks not started yet never start (rule C7: they complete cancelled).
    std::vector<tasync_coroutine *> held;
    for (GroupTask *t : g->held) {
        if (t->queued) {
            ++t->co->refs;
            held.push_back(t->co);
        }
    }
    for (tasync_coroutine *co : held) {
        rt->cancel(co, nullptr);
        tasync_coroutine_release(co);
    }
    // Running tasks leave the group: zombies of its scope, no warning.
    for (std::unique_ptr<GroupTask> &t : g->tasks) {
        if (!t->done) detach_task(t.get());
    }
    if (g->scope != nullptr && g->scope->rt != nullptr) rt->scope_dispose(g->scope, TASYNC_DISPOSE_SAFELY, 0, true);
    // Errors no reader handled flow now, from the group's scope (S10).
    for (std::unique_ptr<GroupTask> &t : g->tasks) {
        if (!t->done || t->error == nullptr || t->handled || rt->is_cancellation(t->error)) continue;
        t->handled = true;
        if (g->scope != nullptr && g->scope->rt != nullptr) rt->propagate_error(t->co, g->scope, t->error);
    }
    wake_all(rt, g->next_waiters);
    group_release(g);
}

void group_release(tasync_group *g) {
    if (g->refs == 1 && !g->let_go) let_go(g);  // the last reference lets go first
    if (--g->refs != 0) return;
    if (g->rt != nullptr) {
        drop_handlers(g);
        free_tasks(g);
        g->rt->groups.erase(g);
    }
    tasync_scope_release(g->scope);
    delete g;
}

struct GroupWait : Wait {
    WaiterList *list = nullptr;
    Waiter node;
    CancelLink cancel;
};

void group_wait_cleanup(Wait *w) {
    auto *gw = static_cast<GroupWait *>(w);
    if (gw->node.link.linked()) gw->list->remove(&gw->node);
    gw->cancel.detach();
}

// Suspends the current coroutine on list until woken; returns its code.
int wait_on(tasync_runtime *rt, WaiterList &list, WaitKind kind, tasync_awaitable *cancellation, void **out_error) {
    GroupWait w;
    w.kind = kind;
    w.list = &list;
    w.cleanup = &group_wait_cleanup;
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    w.node.wait = &w;
    list.push_back(&w.node);
    rt->suspend_on(w);
    return finish_wait(rt, w, nullptr, out_error);
}

int closed_error(tasync_runtime *rt, void **out_error) {
    if (out_error != nullptr)
        *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ESCOPE_CLOSED, "Cannot spawn tasks on a closed TaskGroup");
    return TASYNC_ESCOPE_CLOSED;
}

int make_set(tasync_group *g, GroupSet::Kind kind, tasync_awaitable_t **out) {
    if (out == nullptr) return -EINVAL;
    *out = nullptr;
    if (g == nullptr || g->rt == nullptr) return -EINVAL;
    std::uint32_t mode = TASYNC_AWAIT_ALL;
    if (kind == GroupSet::Kind::Race) mode = TASYNC_AWAIT_ANY_OR_FAIL;
    if (kind == GroupSet::Kind::Any) mode = TASYNC_AWAIT_FIRST_SUCCESS;
    auto *m = new tasync_await_many(g->rt, mode, 0);
    g->rt->all.push_back(m);
    auto *h = new GroupSet;
    h->group = g;
    h->kind = kind;
    ++g->refs;
    m->hook.decide = &set_decided;
    m->hook.forget = &set_forgotten;
    m->hook.data = h;
    g->sets.push_back(m);
    ++m->refs;
    // Every task so far: the completed ones in completion order (the set
    // takes them in the order it is fed), then the others; then the set is
    // sealed: from now on each condition may decide, and tasks spawned
    // later are fed as they come.
    for (GroupTask *t : g->completed) {
        if (m->decided) break;
        if (t->co != nullptr) m->add(t->co);
    }
    for (std::unique_ptr<GroupTask> &t : g->tasks) {
        if (m->decided) break;
        if (!t->done && t->co != nullptr) m->add(t->co);
    }
    m->seal();
    --m->refs;
    *out = m;
    return 0;
}

// ---------------------------------------------------------- completion

void finalize(tasync_group *g) {
    g->finalized = true;
    if (g->rt != nullptr) wake_all(g->rt, g->completion_waiters);
}

// A finally handler's coroutine completed.
void handler_finished(Waiter *w, tasync_awaitable *) {
    tasync_group *g = static_cast<HandlerWatch *>(w->data)->group;
    if (--g->handlers_running == 0 && g->fired && !g->finalized) finalize(g);
}

// Spawns a finally handler (in the global scope, as every completion
// callback) and watches it until it has finished.
void start_handler(tasync_group *g, const tasync_spawn_options_t &cb) {
    tasync_coroutine *co = nullptr;
    if (g->rt->spawn(cb, &co, nullptr, true) != 0) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return;
    }
    // Registered before an abort (C22): it starts aborted, as the code
    // that registered it was (cb.flags holds the registration's epoch).
    if (cb.flags != g->rt->abort_epoch) co->aborted = true;
    auto h = std::make_unique<HandlerWatch>();
    h->co = co;  // the reference spawn gave
    h->group = g;
    h->waiter.notify = &handler_finished;
    h->waiter.data = h.get();
    ++g->handlers_running;
    co->add_waiter(&h->waiter);
    g->handlers.push_back(std::move(h));
}

void drop_handlers(tasync_group *g) {
    for (std::unique_ptr<HandlerWatch> &h : g->handlers) {
        if (h->waiter.link.linked()) h->co->remove_waiter(&h->waiter);
        tasync_coroutine_release(h->co);
    }
    g->handlers.clear();
    for (const tasync_spawn_options_t &cb : g->finally_cbs) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
    }
    g->finally_cbs.clear();
}

// The scope's completion callback (registered by ensure_hooked): the
// group's handlers start now; awaiters resume when they all finished.
struct CompletionHook {
    tasync_group *group;
};

void completion_entry(tasync_coroutine *, void *arg) {
    auto *c = static_cast<CompletionHook *>(arg);
    tasync_group *g = c->group;
    c->group = nullptr;
    if (g->rt != nullptr) {
        g->fired = true;
        std::vector<tasync_spawn_options_t> cbs;
        cbs.swap(g->finally_cbs);
        for (const tasync_spawn_options_t &cb : cbs) start_handler(g, cb);
        if (g->handlers_running == 0) finalize(g);
    }
    group_release(g);
}

void completion_release(void *arg) {
    auto *c = static_cast<CompletionHook *>(arg);
    if (c->group != nullptr) group_release(c->group);
    delete c;
}

// Registers the completion callback on the group's scope once.
int ensure_hooked(tasync_group *g) {
    if (g->hooked) return 0;
    g->hooked = true;
    auto *hook = new CompletionHook{g};
    ++g->refs;
    tasync_spawn_options_t cb{};
    cb.size = sizeof(cb);
    cb.entry = &completion_entry;
    cb.arg = hook;
    cb.arg_release = &completion_release;
    return tasync_scope_on_finally(g->scope, &cb);
}

// The group's scope completed without anyone having asked for a callback:
// nothing is left to wait for.
bool completed_unhooked(const tasync_group *g) {
    return !g->hooked && (g->scope == nullptr || g->scope->completed);
}

}  // namespace

// Runtime teardown: groups the host still holds keep their keys, lose
// their outcomes (host values need the runtime to be released).
void tasync_runtime::teardown_groups() {
    std::vector<tasync_group *> gs(groups.begin(), groups.end());
    for (tasync_group *g : gs) {
        while (Waiter *w = g->next_waiters.pop_front()) (void)w;
        while (Waiter *w = g->slot_waiters.pop_front()) (void)w;
        while (Waiter *w = g->completion_waiters.pop_front()) (void)w;
        drop_handlers(g);
        free_tasks(g);
        tasync_scope_release(g->scope);
        g->scope = nullptr;
        g->rt = nullptr;
        g->let_go = true;
    }
    groups.clear();
}

extern "C" {

TASYNC_API int tasync_group_create(tasync_runtime_t *rt, const tasync_group_options_t *opts, tasync_group_t **out,
                                   void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (out == nullptr || rt == nullptr) return -EINVAL;
    *out = nullptr;
    tasync_group_options_t o{};
    if (opts != nullptr) {
        if (opts->size < offsetof(tasync_group_options_t, data) + sizeof(void *)) return -EINVAL;
        std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    }
    tasync_scope *parent = o.parent != nullptr ? o.parent : tasync_scope_current(rt);
    tasync_scope *scope = nullptr;
    int rc = tasync_scope_create(rt, parent, &scope, out_error);
    if (rc != 0) return rc;
    auto *g = new tasync_group;
    g->rt = rt;
    g->scope = scope;
    g->concurrency = o.concurrency;
    g->queue_limit = o.concurrency != 0 ? o.queue_limit : 0;
    g->build_results = o.build_results;
    g->data = o.data;
    rt->groups.insert(g);
    *out = g;
    return 0;
}

TASYNC_API void tasync_group_retain(tasync_group_t *group) {
    if (group != nullptr) ++group->refs;
}

TASYNC_API void tasync_group_release(tasync_group_t *group) {
    if (group != nullptr) group_release(group);
}

TASYNC_API void tasync_group_let_go(tasync_group_t *group) {
    if (group != nullptr) let_go(group);
}

TASYNC_API tasync_scope_t *tasync_group_scope(const tasync_group_t *group) {
    return group != nullptr ? group->scope : nullptr;
}

TASYNC_API int tasync_group_close(tasync_group_t *g) {
    if (g == nullptr) return -EINVAL;
    if (g->rt == nullptr || g->closed) return 0;
    g->closed = true;
    ++g->refs;
    wake_all(g->rt, g->slot_waiters);
    check_complete(g);
    group_release(g);
    return 0;
}

TASYNC_API uint32_t tasync_group_flags(const tasync_group_t *g) {
    if (g == nullptr) return 0;
    uint32_t f = 0;
    if (g->is_closed()) f |= TASYNC_GROUP_CLOSED;
    if (g->unfinished() == 0) f |= TASYNC_GROUP_FINISHED;
    if (g->is_closed() && g->unfinished() == 0) f |= TASYNC_GROUP_COMPLETED;
    if (g->let_go) f |= TASYNC_GROUP_LET_GO;
    return f;
}

TASYNC_API void tasync_group_suppress_errors(tasync_group_t *g) {
    if (g == nullptr) return;
    for (GroupTask *t : g->completed) t->handled = true;
}

TASYNC_API int tasync_group_spawn(tasync_group_t *g, const tasync_group_key_t *key,
                                  const tasync_spawn_options_t *task, tasync_coroutine_t **out, void **out_error) {
    if (out != nullptr) *out = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    if (g == nullptr || g->rt == nullptr || task == nullptr ||
        task->size < offsetof(tasync_spawn_options_t, location)) {
        return -EINVAL;
    }
    tasync_runtime *rt = g->rt;
    auto t = std::make_unique<GroupTask>();
    t->group = g;
    if (key == nullptr) {
        t->num = g->next_int;
    } else if (key->is_string) {
        t->key_is_string = true;
        t->str.assign(key->str != nullptr ? key->str : "", key->len);
    } else {
        t->num = key->num;
    }
    auto key_taken = [&] {
        if (key == nullptr) t->num = g->next_int;  // other tasks may have taken it while the caller waited
        if (t->key_is_string ? g->strs.count(t->str) == 0 : g->ints.count(t->num) == 0) return 0;
        if (out_error != nullptr) {
            std::string k = t->key_is_string ? "\"" + t->str + "\"" : std::to_string(t->num);
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, -EEXIST, "A task with the key " + k + " already exists");
        }
        return -EEXIST;
    };
    if (int rc = key_taken(); rc != 0) return rc;
    if (g->is_closed()) return closed_error(rt, out_error);
    // Back-pressure: while the task would be held back and the queue is
    // full, the producer waits until a held task got its slot.
    ++g->refs;
    int rc = 0;
    while (g->queue_limit != 0 && g->running >= g->concurrency && g->held_count >= g->queue_limit) {
        if (rt->current == nullptr) {
            rc = -EAGAIN;
            break;
        }
        rc = wait_on(rt, g->slot_waiters, WaitKind::GroupSlot, nullptr, out_error);
        if (rc == 0 && g->is_closed()) rc = closed_error(rt, out_error);
        if (rc == 0) rc = key_taken();
        if (rc != 0) break;
    }
    if (rc != 0) {
        group_release(g);
        return rc;
    }
    tasync_spawn_options_t o{};
    std::memcpy(&o, task, task->size < sizeof(o) ? task->size : sizeof(o));
    o.size = sizeof(o);
    o.scope = g->scope;
    const bool held = g->concurrency != 0 && g->running >= g->concurrency;
    tasync_coroutine *co = nullptr;
    rc = rt->spawn(o, &co, out_error, false, held);
    if (rc != 0) {
        group_release(g);
        return rc;
    }
    if (t->key_is_string) {
        g->strs.insert(t->str);
    } else {
        g->ints.insert(t->num);
        if (t->num >= g->next_int) g->next_int = t->num + 1;
    }
    t->co = co;
    co->group_task = t.get();
    t->waiter.notify = &task_done;
    t->waiter.data = t.get();
    t->waiter.handles_error = true;
    co->add_waiter(&t->waiter);
    if (held) {
        t->queued = true;
        ++g->held_count;
        g->held.push_back(t.get());
    } else {
        t->has_slot = true;
        ++g->running;
    }
    g->tasks.push_back(std::move(t));
    // Undecided all/race/any sets take the new task too.
    std::vector<tasync_await_many *> sets = g->sets;
    for (tasync_await_many *m : sets) {
        if (!m->decided) m->add(co);
    }
    if (out != nullptr) {
        ++co->refs;
        ++co->handles;  // the caller's handle (S10)
        *out = co;
    }
    group_release(g);
    return 0;
}

TASYNC_API size_t tasync_group_count(const tasync_group_t *group) { return group != nullptr ? group->tasks.size() : 0; }

TASYNC_API size_t tasync_group_completed_count(const tasync_group_t *group) {
    return group != nullptr ? group->completed.size() : 0;
}

TASYNC_API int tasync_group_entry(const tasync_group_t *g, size_t i, int by_completion, tasync_group_entry_t *out) {
    if (g == nullptr || out == nullptr || out->size < sizeof(uint32_t) * 2) return -EINVAL;
    const GroupTask *t = nullptr;
    if (by_completion) {
        if (i >= g->completed.size()) return -ERANGE;
        t = g->completed[i];
    } else {
        if (i >= g->tasks.size()) return -ERANGE;
        t = g->tasks[i].get();
    }
    tasync_group_entry_t e{};
    e.size = out->size < sizeof(e) ? out->size : static_cast<uint32_t>(sizeof(e));
    e.state = t->done                         ? TASYNC_GROUP_TASK_DONE
              : (t->co != nullptr && t->co->held) ? TASYNC_GROUP_TASK_HELD
                                                  : TASYNC_GROUP_TASK_RUNNING;
    e.key.is_string = t->key_is_string ? 1 : 0;
    e.key.num = t->num;
    e.key.str = t->key_is_string ? t->str.data() : nullptr;
    e.key.len = t->key_is_string ? t->str.size() : 0;
    e.coroutine = t->co;
    e.value = t->value;
    e.error = t->error;
    std::memcpy(out, &e, e.size);
    return 0;
}

TASYNC_API int tasync_group_all(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_set(group, GroupSet::Kind::All, out);
}

TASYNC_API int tasync_group_all_ignoring_errors(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_set(group, GroupSet::Kind::AllIgnoringErrors, out);
}

TASYNC_API int tasync_group_race(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_set(group, GroupSet::Kind::Race, out);
}

TASYNC_API int tasync_group_any(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_set(group, GroupSet::Kind::Any, out);
}

TASYNC_API int tasync_group_wait_next(tasync_runtime_t *rt, tasync_group_t *g, size_t index,
                                      tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (g == nullptr || g->rt == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (g->rt != rt) return TASYNC_EWRONG_THREAD;
    ++g->refs;
    int result;
    for (;;) {
        if (g->completed.size() > index) {
            g->completed[index]->handled = true;  // handed to the reader
            result = 1;
            break;
        }
        if (g->unfinished() == 0 || g->let_go) {
            result = 0;
            break;
        }
        int rc = wait_on(rt, g->next_waiters, WaitKind::Group, cancellation, out_error);
        if (rc != 0) {
            result = rc;
            break;
        }
    }
    group_release(g);
    return result;
}

TASYNC_API int tasync_group_await_completion(tasync_runtime_t *rt, tasync_group_t *g,
                                             tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (g == nullptr || g->rt == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (g->rt != rt) return TASYNC_EWRONG_THREAD;
    if (!g->is_closed()) {
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_EBAD_STATE,
                                        "The task group must be closed before awaiting its completion");
        return TASYNC_EBAD_STATE;
    }
    for (tasync_scope *s = rt->scope_of(rt->current); s != nullptr; s = s->parent) {
        if (s != g->scope) continue;
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ESCOPE_DEADLOCK,
                                        "Awaiting the completion of a task group from within it would cause a "
                                        "deadlock");
        return TASYNC_ESCOPE_DEADLOCK;
    }
    if (g->finalized || completed_unhooked(g)) return 0;
    ++g->refs;
    int rc = ensure_hooked(g);
    if (rc == 0 && !g->finalized)
        rc = wait_on(rt, g->completion_waiters, WaitKind::GroupCompletion, cancellation, out_error);
    group_release(g);
    return rc;
}

TASYNC_API int tasync_group_on_finally(tasync_group_t *g, const tasync_spawn_options_t *callback) {
    if (callback == nullptr || callback->entry == nullptr || callback->size < offsetof(tasync_spawn_options_t, location))
        return -EINVAL;
    tasync_spawn_options_t cb{};
    std::memcpy(&cb, callback, callback->size < sizeof(cb) ? callback->size : sizeof(cb));
    cb.size = sizeof(cb);
    if (g == nullptr || g->rt == nullptr) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return -EINVAL;
    }
    if (cb.location.file == nullptr) cb.location = g->rt->capture_location();
    cb.flags = g->rt->abort_epoch;  // reserved for callers: the core's own note
    if (!g->fired && !completed_unhooked(g)) {
        g->finally_cbs.push_back(cb);
        return ensure_hooked(g);
    }
    if (g->fired && !g->finalized) {
        start_handler(g, cb);  // awaiters still waiting wait for it too
        return 0;
    }
    // The group has completed: at once.
    int rc = g->rt->spawn(cb, nullptr, nullptr, true);
    if (rc != 0 && cb.arg_release != nullptr) cb.arg_release(cb.arg);
    return rc;
}

}  // extern "C"
