// Task groups (DESIGN.md 5.4, rule G1): a scope with results, an optional
// concurrency limit, keyed tasks, all/race/any awaitables and iteration in
// completion order. See api/include/tasync/group.h.
#include <cerrno>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

struct GroupAwaitable;

namespace tasync::detail {

struct GroupTask {
    tasync_group *group = nullptr;
    tasync_coroutine *co = nullptr;  // referenced
    bool key_is_string = false;
    std::int64_t num = 0;
    std::string str;
    bool done = false;
    bool has_slot = false;           // counts against the concurrency limit
    void *value = nullptr;           // owned once done
    void *error = nullptr;
    Waiter waiter;                   // on co: records the outcome
};

}  // namespace tasync::detail

struct GroupAwaitable final : tasync_awaitable {
    enum class Mode : std::uint8_t { All, Race, Any };
    GroupAwaitable(tasync_runtime *r, Mode m) : tasync_awaitable(AwaitableKind::Group, r), mode(m) {}
    Mode mode;
    tasync_group *group = nullptr;   // referenced while pending
    Link group_link;
    void unhook();
    void destroy() override {
        unhook();
        tasync_awaitable::destroy();
    }
    void detach() override {
        unhook();
        tasync_awaitable::detach();
    }
};

struct tasync_group {
    std::uint32_t refs = 1;
    tasync_runtime *rt = nullptr;
    tasync_scope *scope = nullptr;   // referenced
    std::uint32_t concurrency = 0;
    std::uint32_t running = 0;       // tasks holding a slot
    std::vector<std::unique_ptr<GroupTask>> tasks;  // spawn order
    std::vector<GroupTask *> completed;             // completion order
    std::deque<GroupTask *> held;
    std::int64_t next_int = 0;
    std::unordered_set<std::int64_t> ints;
    std::unordered_set<std::string> strs;
    GroupTask *first_success = nullptr;
    GroupTask *first_error = nullptr;
    void *(*build_results)(void *, tasync_group *) = nullptr;
    void *data = nullptr;
    List<GroupAwaitable, &GroupAwaitable::group_link> pending;
    WaiterList next_waiters;         // coroutines in wait_next

    std::size_t unfinished() const { return tasks.size() - completed.size(); }
};

namespace {

void group_release(tasync_group *g);

// Completes the pending awaitables whose condition holds now.
void evaluate(tasync_group *g) {
    std::vector<GroupAwaitable *> ready;
    g->pending.for_each([&](GroupAwaitable *a) { ready.push_back(a); });
    tasync_runtime *rt = g->rt;
    for (GroupAwaitable *a : ready) {
        void *v = nullptr;
        void *e = nullptr;
        bool done = false;
        switch (a->mode) {
            case GroupAwaitable::Mode::All:
                if (g->unfinished() == 0) {
                    done = true;
                    if (g->first_error != nullptr) e = g->first_error->error;
                }
                break;
            case GroupAwaitable::Mode::Race:
                if (!g->completed.empty()) {
                    done = true;
                    v = g->completed.front()->value;
                    e = g->completed.front()->error;
                }
                break;
            case GroupAwaitable::Mode::Any:
                if (g->first_success != nullptr) {
                    done = true;
                    v = g->first_success->value;
                } else if (g->unfinished() == 0 && g->first_error != nullptr) {
                    done = true;
                    e = g->first_error->error;
                }
                break;
        }
        if (!done) continue;
        if (a->mode == GroupAwaitable::Mode::All && e == nullptr) {
            v = g->build_results != nullptr ? g->build_results(g->data, g) : nullptr;  // new reference
        } else {
            rt->retain_value(v);
        }
        rt->retain_error(e);
        ++a->refs;  // completing may wake waiters that drop theirs
        a->unhook();
        a->complete(v, e);
        if (--a->refs == 0) a->destroy();
    }
}

void wake_next_waiters(tasync_group *g) {
    while (Waiter *w = g->next_waiters.pop_front()) g->rt->wake(w->wait, 0);
}

// Starts held tasks while slots are free, in spawn order.
void fill_slots(tasync_group *g) {
    while (!g->held.empty() && (g->concurrency == 0 || g->running < g->concurrency)) {
        GroupTask *t = g->held.front();
        g->held.pop_front();
        if (t->done || !t->co->held) continue;  // cancelled before it started
        t->has_slot = true;
        ++g->running;
        g->rt->start_held(t->co);
    }
}

// The task's coroutine completed (a notify waiter, called by complete()).
void task_done(Waiter *w, tasync_awaitable *source) {
    auto *t = static_cast<GroupTask *>(w->data);
    tasync_group *g = t->group;
    tasync_runtime *rt = g->rt;
    t->done = true;
    t->value = source->value;
    t->error = source->error;
    rt->retain_value(t->value);
    rt->retain_error(t->error);
    g->completed.push_back(t);
    if (t->has_slot) {
        t->has_slot = false;
        --g->running;
    }
    if (t->error == nullptr && g->first_success == nullptr) g->first_success = t;
    if (t->error != nullptr && g->first_error == nullptr) g->first_error = t;
    ++g->refs;
    fill_slots(g);
    evaluate(g);
    wake_next_waiters(g);
    group_release(g);
}

void free_tasks(tasync_group *g) {
    tasync_runtime *rt = g->rt;
    for (std::unique_ptr<GroupTask> &t : g->tasks) {
        if (t->waiter.link.linked()) t->co->remove_waiter(&t->waiter);
        if (t->co->group_task == t.get()) t->co->group_task = nullptr;
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
    g->first_success = g->first_error = nullptr;
}

void group_release(tasync_group *g) {
    if (--g->refs != 0) return;
    if (g->rt != nullptr) {
        // Nobody can read results any more: tasks still held back start
        // anyway (nothing is dropped silently).
        for (GroupTask *t : g->held) {
            if (!t->done && t->co->held) g->rt->start_held(t->co);
        }
        g->held.clear();
        free_tasks(g);
        g->rt->groups.erase(g);
    }
    tasync_scope_release(g->scope);
    delete g;
}

struct GroupWait : Wait {
    tasync_group *group = nullptr;
    Waiter node;
    CancelLink cancel;
};

void group_wait_cleanup(Wait *w) {
    auto *gw = static_cast<GroupWait *>(w);
    if (gw->node.link.linked()) gw->group->next_waiters.remove(&gw->node);
    gw->cancel.detach();
}

int make_awaitable(tasync_group *g, GroupAwaitable::Mode mode, tasync_awaitable_t **out) {
    if (out == nullptr) return -EINVAL;
    *out = nullptr;
    if (g == nullptr || g->rt == nullptr) return -EINVAL;
    auto *a = new GroupAwaitable(g->rt, mode);
    g->rt->all.push_back(a);
    a->group = g;
    ++g->refs;
    g->pending.push_back(a);
    ++a->refs;
    evaluate(g);
    --a->refs;
    *out = a;
    return 0;
}

}  // namespace

void GroupAwaitable::unhook() {
    if (group == nullptr) return;
    tasync_group *g = group;
    group = nullptr;
    g->pending.remove(this);
    group_release(g);
}

// Runtime teardown: groups the host still holds keep their keys, lose
// their outcomes (host values need the runtime to be released).
void tasync_runtime::teardown_groups() {
    std::vector<tasync_group *> gs(groups.begin(), groups.end());
    for (tasync_group *g : gs) {
        while (Waiter *w = g->next_waiters.pop_front()) (void)w;
        free_tasks(g);
        tasync_scope_release(g->scope);
        g->scope = nullptr;
        g->rt = nullptr;
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

TASYNC_API tasync_scope_t *tasync_group_scope(const tasync_group_t *group) {
    return group != nullptr ? group->scope : nullptr;
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
    if (t->key_is_string ? g->strs.count(t->str) != 0 : g->ints.count(t->num) != 0) {
        if (out_error != nullptr) {
            std::string k = t->key_is_string ? "\"" + t->str + "\"" : std::to_string(t->num);
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, -EEXIST, "A task with the key " + k + " already exists");
        }
        return -EEXIST;
    }
    tasync_spawn_options_t o{};
    std::memcpy(&o, task, task->size < sizeof(o) ? task->size : sizeof(o));
    o.size = sizeof(o);
    o.scope = g->scope;
    const bool held = g->concurrency != 0 && g->running >= g->concurrency;
    tasync_coroutine *co = nullptr;
    int rc = rt->spawn(o, &co, out_error, false, held);
    if (rc != 0) return rc;
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
        g->held.push_back(t.get());
    } else {
        t->has_slot = true;
        ++g->running;
    }
    g->tasks.push_back(std::move(t));
    if (out != nullptr) {
        ++co->refs;
        ++co->handles;  // the caller's handle (S10)
        *out = co;
    }
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
    return make_awaitable(group, GroupAwaitable::Mode::All, out);
}

TASYNC_API int tasync_group_race(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_awaitable(group, GroupAwaitable::Mode::Race, out);
}

TASYNC_API int tasync_group_any(tasync_group_t *group, tasync_awaitable_t **out) {
    return make_awaitable(group, GroupAwaitable::Mode::Any, out);
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
            result = 1;
            break;
        }
        if (g->unfinished() == 0) {
            result = 0;
            break;
        }
        GroupWait w;
        w.kind = WaitKind::Group;
        w.group = g;
        w.cleanup = &group_wait_cleanup;
        if (!w.cancel.attach(&w, cancellation)) {
            result = cancelled_at_once(rt, w, out_error);
            break;
        }
        w.node.wait = &w;
        g->next_waiters.push_back(&w.node);
        rt->suspend_on(w);
        int rc = finish_wait(rt, w, nullptr, out_error);
        if (rc != 0) {
            result = rc;
            break;
        }
    }
    group_release(g);
    return result;
}

}  // extern "C"
