// Awaiting many awaitables at once (rule G2): the set of await_many.hpp and
// the C ABI of api/include/tasync/await_many.h.
#include "tasync/core/await_many.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;
using Item = tasync_await_many::Item;

namespace {

// An item's waiter: the item completed (it is already unlinked).
void item_settled(Waiter *w, tasync_awaitable *source) {
    auto *it = static_cast<Item *>(w->data);
    it->set->settle(it, source);
}

bool valid_mode(std::uint32_t m) { return m >= TASYNC_AWAIT_ALL && m <= TASYNC_AWAIT_ANY_OF_OR_FAIL; }

}  // namespace

void tasync_await_many::add(tasync_awaitable *what) {
    Item &it = items.emplace_back();
    it.set = this;
    it.what = what;
    it.index = items.size() - 1;
    ++what->refs;
    if (decided) return;  // recorded, never taken
    if (what->completed) {
        settle(&it, what);
        return;
    }
    // Awaited from now on (rule S10): its error comes to the set.
    it.waiter.notify = &item_settled;
    it.waiter.data = &it;
    it.waiter.handles_error = true;
    what->add_waiter(&it.waiter);
}

void tasync_await_many::seal() {
    if (sealed) return;
    sealed = true;
    evaluate();
}

void tasync_await_many::settle(Item *it, tasync_awaitable *source) {
    if (decided || it->state != TASYNC_AWAIT_ITEM_PENDING) return;
    taken.push_back(it);
    if (source->error != nullptr) {
        // Taken by the set: its caller answers for the error (rule S10).
        observe(source);
        it->state = TASYNC_AWAIT_ITEM_FAILED;
        ++failures;
        if (first_failure == nullptr) first_failure = it;
    } else {
        it->state = TASYNC_AWAIT_ITEM_SUCCEEDED;
        ++successes;
        if (first_success == nullptr) first_success = it;
    }
    evaluate();
}

// Decides when the mode's condition holds (see await_many.h).
void tasync_await_many::evaluate() {
    if (decided || rt == nullptr) return;
    const bool every = sealed && all_taken();
    switch (mode) {
        case TASYNC_AWAIT_ALL:
            if (every) decide(0, nullptr);
            break;
        case TASYNC_AWAIT_ALL_OR_FAIL:
            if (failures > 0) decide(TASYNC_EFAILED, first_failure);
            else if (every) decide(0, nullptr);
            break;
        case TASYNC_AWAIT_ANY_OR_FAIL:
            if (!taken.empty()) {
                Item *first = taken.front();
                decide(first->state == TASYNC_AWAIT_ITEM_FAILED ? TASYNC_EFAILED : 0, first);
            }
            break;
        case TASYNC_AWAIT_FIRST_SUCCESS:
            if (successes > 0) decide(0, first_success);
            else if (every && !items.empty()) decide(TASYNC_EFAILED, first_failure);
            break;
        case TASYNC_AWAIT_ANY_OF:
            if (successes >= count || every) decide(0, nullptr);
            break;
        case TASYNC_AWAIT_ANY_OF_OR_FAIL:
            if (failures > 0) decide(TASYNC_EFAILED, first_failure);
            else if (successes >= count || every) decide(0, nullptr);
            break;
        default: break;
    }
}

void tasync_await_many::decide(int code, Item *decider) {
    decided = true;
    outcome = code;
    // Items still pending are no longer awaited: a failure of theirs flows
    // on by rule S10 (the caller has its answer).
    unsubscribe();
    void *v = nullptr;
    void *e = nullptr;
    if (decider != nullptr) {
        if (code != 0) e = decider->what->error;
        else if (mode == TASYNC_AWAIT_ANY_OR_FAIL || mode == TASYNC_AWAIT_FIRST_SUCCESS) v = decider->what->value;
    }
    ++refs;  // completing may wake waiters that drop theirs
    if (hook.decide != nullptr) {
        hook.decide(this, hook.data, &v, &e);
    } else {
        rt->retain_value(v);
        rt->retain_error(e);
    }
    complete(v, e);
    if (--refs == 0) destroy();
}

std::string tasync_await_many::describe() const {
    const std::string n = std::to_string(items.size()) + (items.size() == 1 ? " awaitable" : " awaitables");
    switch (mode) {
        case TASYNC_AWAIT_ALL: return "awaiting all of " + n;
        case TASYNC_AWAIT_ALL_OR_FAIL: return "awaiting all of " + n + " or a failure";
        case TASYNC_AWAIT_ANY_OR_FAIL: return "awaiting the first of " + n;
        case TASYNC_AWAIT_FIRST_SUCCESS: return "awaiting the first success of " + n;
        default: return "awaiting " + std::to_string(count) + " of " + n;
    }
}

void tasync_await_many::unsubscribe() {
    for (Item &it : items) {
        if (it.waiter.link.linked()) it.what->remove_waiter(&it.waiter);
    }
}

void tasync_await_many::destroy() {
    // Going: nothing it awaited decides it any more, and it leaves its items
    // before its owner forgets it. The owner's last reference may be the
    // set's (a task group's race() released after the group): forgetting
    // lets the group go, which cancels its held tasks, and their
    // completions must not reach this set.
    decided = true;
    unsubscribe();
    const Hook h = hook;
    hook = Hook{};
    if (h.forget != nullptr) h.forget(this, h.data);
    for (Item &it : items) {
        tasync_awaitable *p = it.what;
        it.what = nullptr;
        if (p != nullptr && --p->refs == 0) p->destroy();
    }
    items.clear();
    taken.clear();
    tasync_awaitable::destroy();
}

// Runtime teardown: the items stay referenced (entries stay readable) until
// the owner destroys the set.
void tasync_await_many::detach() {
    unsubscribe();
    if (hook.forget != nullptr) hook.forget(this, hook.data);
    hook = Hook{};
    tasync_awaitable::detach();
}

extern "C" {

TASYNC_API int tasync_await_many_create(tasync_runtime_t *rt, const tasync_await_many_options_t *opts,
                                        tasync_await_many_t **out) {
    if (out == nullptr) return -EINVAL;
    *out = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || opts == nullptr || opts->size < offsetof(tasync_await_many_options_t, count) + 8)
        return -EINVAL;
    tasync_await_many_options_t o{};
    std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    if (!valid_mode(o.mode)) return -EINVAL;
    auto *m = new tasync_await_many(rt, o.mode, o.count);
    rt->all.push_back(m);
    m->evaluate();  // ANY_OF of 0 is decided at once
    *out = m;
    return 0;
}

TASYNC_API void tasync_await_many_destroy(tasync_await_many_t *set) {
    if (set != nullptr && --set->refs == 0) set->destroy();
}

TASYNC_API int tasync_await_many_add(tasync_await_many_t *set, tasync_awaitable_t *what) {
    if (set == nullptr || what == nullptr) return -EINVAL;
    if (set->rt == nullptr || set->sealed) return TASYNC_EBAD_STATE;
    if (what->rt != set->rt) return what->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    set->add(what);
    return 0;
}

TASYNC_API void tasync_await_many_seal(tasync_await_many_t *set) {
    if (set != nullptr) set->seal();
}

TASYNC_API int tasync_await_many_is_decided(const tasync_await_many_t *set) {
    return set != nullptr && set->decided ? 1 : 0;
}

TASYNC_API int tasync_await_many_wait(tasync_runtime_t *rt, tasync_await_many_t *set,
                                      tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (set == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (set->rt != rt) return set->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    set->seal();
    if (!set->decided) {
        // Rule C6: the caller cannot wait for itself.
        for (const Item &it : set->items) {
            if (it.what == rt->current && it.state == TASYNC_AWAIT_ITEM_PENDING) return self_await(rt, out_error);
        }
    }
    if (set->hopeless()) {
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_INVALID_ARGUMENT, -EINVAL,
                                        "There is nothing to wait for: the set has no awaitable");
        return -EINVAL;
    }
    return tasync_await(rt, set, cancellation, nullptr, out_error);
}

TASYNC_API tasync_awaitable_t *tasync_await_many_awaitable(tasync_await_many_t *set) { return set; }

TASYNC_API size_t tasync_await_many_count(const tasync_await_many_t *set) {
    return set != nullptr ? set->items.size() : 0;
}

TASYNC_API size_t tasync_await_many_taken_count(const tasync_await_many_t *set) {
    return set != nullptr ? set->taken.size() : 0;
}

TASYNC_API int tasync_await_many_entry(const tasync_await_many_t *set, size_t i, int by_completion,
                                       tasync_await_many_entry_t *out) {
    if (set == nullptr || out == nullptr || out->size < sizeof(uint32_t) * 2) return -EINVAL;
    const Item *it = nullptr;
    if (by_completion) {
        if (i >= set->taken.size()) return -ERANGE;
        it = set->taken[i];
    } else {
        if (i >= set->items.size()) return -ERANGE;
        it = &set->items[i];
    }
    tasync_await_many_entry_t e{};
    e.size = out->size < sizeof(e) ? out->size : static_cast<uint32_t>(sizeof(e));
    e.state = it->state;
    e.index = it->index;
    e.awaitable = it->what;
    if (it->what != nullptr && it->state == TASYNC_AWAIT_ITEM_SUCCEEDED) e.value = it->what->value;
    if (it->what != nullptr && it->state == TASYNC_AWAIT_ITEM_FAILED) e.error = it->what->error;
    std::memcpy(out, &e, e.size);
    return 0;
}

}  // extern "C"
