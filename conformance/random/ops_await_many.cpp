// The await-many primitive (G2, await_many.h): a set in one of the six
// modes, fed coroutines (through handles), futures and timeouts, waited for
// with or without a cancellation awaitable. What the outcome must be is
// checked against the items the set took, in completion order: which mode
// decides on which outcome, that every taken item had completed with exactly
// that value or error object (C4), and that the deciding error is the one the
// wait returned.
#include <tasync/await_many.h>

#include <memory>
#include <vector>

#include "ops.hpp"

namespace tasync_random {

namespace {

const char *mode_name(uint32_t mode) {
    switch (mode) {
        case TASYNC_AWAIT_ALL: return "all";
        case TASYNC_AWAIT_ALL_OR_FAIL: return "all-or-fail";
        case TASYNC_AWAIT_ANY_OR_FAIL: return "any-or-fail";
        case TASYNC_AWAIT_FIRST_SUCCESS: return "first-success";
        case TASYNC_AWAIT_ANY_OF: return "any-of";
        case TASYNC_AWAIT_ANY_OF_OR_FAIL: return "any-of-or-fail";
    }
    return "?";
}

// One item as the tester fed it.
struct Item {
    tasync_awaitable_t *aw = nullptr;  // the tester's own reference for the call
    CoRec *co = nullptr;               // a coroutine, or
    AwRec *rec = nullptr;              // a future or timeout
};

// Whether an item had completed when the set was fed (its outcome was
// there to take).
bool item_done(Episode &ep, const Item &it) {
    return it.co != nullptr ? it.co->settled : completed_now(ep, it.rec);
}

// Checks one taken entry against the item's outcome as the model knows it.
void check_entry(Episode &ep, const std::vector<Item> &items, const tasync_await_many_entry_t &e) {
    RANDOM_CHECK(ep, e.index < items.size(), "G2: a taken entry has index " << e.index << " of " << items.size());
    if (ep.failed || e.index >= items.size()) return;
    const Item &it = items[e.index];
    RANDOM_CHECK(ep, e.awaitable == it.aw, "G2: entry " << e.index << " is another awaitable");
    RANDOM_CHECK(ep, e.state == TASYNC_AWAIT_ITEM_SUCCEEDED || e.state == TASYNC_AWAIT_ITEM_FAILED,
                 "G2: a taken entry is in state " << e.state);
    const bool failed = e.state == TASYNC_AWAIT_ITEM_FAILED;
    if (it.co != nullptr) {
        CoRec *c = it.co;
        RANDOM_CHECK(ep, c->state == CoState::Done, "G2: the set took " << ep.name(c) << ", which has not completed");
        c->outcome_taken = true;
        if (ep.failed || !c->outcome_known) return;
        RANDOM_CHECK(ep, failed == c->outcome_failed,
                     "C4: the set took " << ep.name(c) << " as " << (failed ? "failed" : "succeeded"));
        if (ep.failed) return;
        if (failed) RANDOM_CHECK(ep, ep.error_matches(c->outcome_error, e.error), "C4: the set took another error of " << ep.name(c));
        else RANDOM_CHECK(ep, e.value == c->outcome_value, "C4: the set took another value of " << ep.name(c));
        return;
    }
    AwRec *a = it.rec;
    RANDOM_CHECK(ep, completed_now(ep, a), "G2: the set took a" << a->aid << ", which has not completed");
    if (ep.failed || a->kind != AwRec::Kind::Future) return;
    RANDOM_CHECK(ep, failed == a->failed, "C4: the set took a" << a->aid << " as " << (failed ? "failed" : "succeeded"));
    if (ep.failed) return;
    if (failed) RANDOM_CHECK(ep, e.error == a->error, "C4: the set took another error of a" << a->aid);
    else RANDOM_CHECK(ep, e.value == a->value, "C4: the set took another value of a" << a->aid);
}

// The mode's rule over the taken entries (completion order). rc is what the
// wait returned, err its error.
void check_decision(Episode &ep, uint32_t mode, uint64_t count, std::size_t n_items,
                    const std::vector<tasync_await_many_entry_t> &taken, int rc, void *err) {
    std::size_t ok = 0;
    std::size_t bad = 0;
    for (const tasync_await_many_entry_t &e : taken) (e.state == TASYNC_AWAIT_ITEM_FAILED ? bad : ok) += 1;
    const bool last_failed = !taken.empty() && taken.back().state == TASYNC_AWAIT_ITEM_FAILED;
    const std::string m = mode_name(mode);
    RANDOM_CHECK(ep, rc == 0 || rc == TASYNC_EFAILED, "G2: " << m << " returned " << rc);
    if (rc == TASYNC_EFAILED)
        RANDOM_CHECK(ep, mode != TASYNC_AWAIT_ALL && mode != TASYNC_AWAIT_ANY_OF, "G2: " << m << " failed; it never fails");
    switch (mode) {
        case TASYNC_AWAIT_ALL:
        case TASYNC_AWAIT_ANY_OF:
            if (mode == TASYNC_AWAIT_ALL || ok < count)
                RANDOM_CHECK(ep, taken.size() == n_items, "G2: " << m << " decided with " << taken.size() << " of " << n_items << " items");
            else
                RANDOM_CHECK(ep, ok == count, "G2: " << m << " took " << ok << " successes, it wants " << count);
            break;
        case TASYNC_AWAIT_ALL_OR_FAIL:
            if (rc == 0) RANDOM_CHECK(ep, bad == 0 && taken.size() == n_items, "G2: " << m << " succeeded with " << bad << " failures");
            else RANDOM_CHECK(ep, bad == 1 && last_failed, "G2: " << m << " failed, but not at its first failure");
            break;
        case TASYNC_AWAIT_ANY_OR_FAIL:
            RANDOM_CHECK(ep, taken.size() == 1 && (rc == TASYNC_EFAILED) == last_failed,
                         "G2: " << m << " took " << taken.size() << " items and returned " << rc);
            break;
        case TASYNC_AWAIT_FIRST_SUCCESS:
            if (rc == 0) RANDOM_CHECK(ep, ok == 1 && !last_failed, "G2: " << m << " succeeded, but not at its first success");
            else RANDOM_CHECK(ep, ok == 0 && taken.size() == n_items, "G2: " << m << " failed before every item failed");
            if (rc == TASYNC_EFAILED && !taken.empty())
                RANDOM_CHECK(ep, err == taken.front().error, "G2: " << m << " failed with an error other than the first failure");
            break;
        case TASYNC_AWAIT_ANY_OF_OR_FAIL:
            if (rc == 0) RANDOM_CHECK(ep, bad == 0 && (ok == count || (ok < count && taken.size() == n_items)),
                                      "G2: " << m << " succeeded with " << ok << " of " << count << " successes, " << bad << " failures");
            else RANDOM_CHECK(ep, bad == 1 && last_failed && ok < count, "G2: " << m << " failed, but not at its first failure");
            break;
        default: break;
    }
    if (rc == TASYNC_EFAILED && mode != TASYNC_AWAIT_FIRST_SUCCESS && !taken.empty())
        RANDOM_CHECK(ep, err == taken.back().error, "G2: " << m << " failed with an error other than the deciding one");
}

}  // namespace

std::string op_await_many(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    tasync_await_many_options_t o{};
    o.size = sizeof(o);
    o.mode = 1 + rng.below(6);
    o.count = rng.below(4);
    tasync_await_many_t *set = nullptr;
    int rc = tasync_await_many_create(ep.rt, &o, &set);
    RANDOM_CHECK(ep, rc == 0 && set != nullptr, "G2: tasync_await_many_create returned " << rc);
    if (rc != 0) return rc_text(rc);
    // Every item is referenced for the duration of the call (the set keeps
    // its own references as well); released with the set, also when the
    // runtime is destroyed while this coroutine waits (OnUnwind).
    // The list is owned by the release alone (not by this stack, which
    // the runtime's destruction may drop without unwinding it).
    auto holder = std::make_shared<std::vector<Item>>();
    std::vector<Item> &items = *holder;
    OnUnwind release_all([owned = std::move(holder), set] {
        tasync_await_many_destroy(set);
        for (const Item &it : *owned) tasync_awaitable_release(it.aw);
    });
    bool has_self = false;
    const unsigned n = rng.below(5);
    for (unsigned i = 0; i < n; ++i) {
        Item it;
        const unsigned r = rng.below(100);
        if (r < 3 && self->kind != CoKind::Main) {
            it.co = self;
            it.aw = tasync_coroutine_awaitable(self->core);
            tasync_awaitable_retain(it.aw);
            has_self = true;
        } else if (r < 45 && !ep.handles.empty()) {
            it.co = pick(ep, rng, ep.handles);
            if (it.co == self) continue;
            it.aw = tasync_coroutine_awaitable(it.co->handle);
            tasync_awaitable_retain(it.aw);
        } else if (r < 75 && !ep.futures.empty()) {
            it.rec = ep.futures[rng.below(static_cast<std::uint32_t>(ep.futures.size()))];
            it.aw = it.rec->aw;
            tasync_awaitable_retain(it.aw);
        } else {
            it.rec = new_timeout(ep, rng, false);  // adopted: released with the others below
            it.aw = it.rec->aw;
        }
        items.push_back(it);
    }
    bool any_done = false;
    for (const Item &it : items) {
        rc = tasync_await_many_add(set, it.aw);
        RANDOM_CHECK(ep, rc == 0, "G2: tasync_await_many_add returned " << rc);
        any_done = any_done || (it.co != self && item_done(ep, it));
    }
    RANDOM_CHECK(ep, tasync_await_many_count(set) == items.size(), "G2: the set counts " << tasync_await_many_count(set) << " items");
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const bool hopeless = items.empty() && (o.mode == TASYNC_AWAIT_ANY_OR_FAIL || o.mode == TASYNC_AWAIT_FIRST_SUCCESS);
    // Decided without suspending, or maybe so: the core need not deliver a
    // pending cancellation there (expect.hpp, kFastPathDeliversCancellation).
    const bool fast = has_self || any_done || items.empty() || o.count == 0 || (canc != nullptr && completed_now(ep, canc));
    self->wait = WaitRec{};
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::AwaitMany);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *err = nullptr;
    rc = tasync_await_many_wait(ep.rt, set, canc != nullptr ? canc->aw : nullptr, &err);
    ep.end_wait(self);
    const std::string what = std::string(mode_name(o.mode)) + " of " + std::to_string(items.size());
    if (hopeless) {
        RANDOM_CHECK(ep, rc == -EINVAL, "G2: " << what << " without items returned " << rc);
    } else if (has_self && rc == TASYNC_ESELF_AWAIT) {
        RANDOM_CHECK(ep, ep.host.is_error(err), "C6: a set holding its caller returned no error");
    } else if (!common_outcome(ep, self, rc, err, canc, "await_many")) {
        RANDOM_CHECK(ep, !self->wait.must_cancel, "C7: await_many of " << ep.name(self) << " returned " << rc
                                                                       << " although a cancellation was requested");
        RANDOM_CHECK(ep, tasync_await_many_is_decided(set), "G2: " << what << " returned " << rc << " undecided");
        std::vector<tasync_await_many_entry_t> taken(tasync_await_many_taken_count(set));
        for (std::size_t i = 0; i < taken.size() && !ep.failed; ++i) {
            taken[i].size = sizeof(taken[i]);
            RANDOM_CHECK(ep, tasync_await_many_entry(set, i, 1, &taken[i]) == 0, "G2: entry " << i << " cannot be read");
            check_entry(ep, items, taken[i]);
        }
        if (!ep.failed) check_decision(ep, o.mode, o.count, items.size(), taken, rc, err);
    }
    release_outs(ep, nullptr, err);
    return what + (o.mode >= TASYNC_AWAIT_ANY_OF ? " count " + std::to_string(o.count) : std::string()) + " " +
           rc_text(rc);
}

}  // namespace tasync_random
