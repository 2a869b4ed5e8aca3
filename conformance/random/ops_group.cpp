// Operations on task groups (G1): create with a concurrency limit, spawn
// with and without keys, all/race/any awaitables, iteration in completion
// order, release.
#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

namespace {

void release_error(Episode &ep, void *e) {
    if (e != nullptr && ep.host.is_error(e)) ep.host.release(static_cast<Error *>(e));
}

GroupRec *pick_group(Episode &ep, Rng &rng) {
    if (ep.live_groups.empty()) return nullptr;
    return ep.live_groups[rng.below(static_cast<std::uint32_t>(ep.live_groups.size()))];
}

// all()'s value when every task succeeded: a value counting the tasks.
void *build_results(void *data, tasync_group_t *group) {
    auto *g = static_cast<GroupRec *>(data);
    Episode &ep = this_episode();
    RANDOM_CHECK(ep, group == g->g || !g->held, "G1: build_results got another group");
    return ep.host.value(static_cast<long>(g->tasks.size()), "results of g" + std::to_string(g->gid));
}

}  // namespace

std::string op_group_create(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_groups.size() >= Episode::kMaxGroups || ep.live_scopes.size() >= Episode::kMaxScopes) return "skip";
    ScopeRec *parent = ep.scope_of_current();
    if (rng.chance(50) && !ep.live_scopes.empty())
        parent = ep.live_scopes[rng.below(static_cast<std::uint32_t>(ep.live_scopes.size()))];
    ep.groups.emplace_back();
    GroupRec *g = &ep.groups.back();
    g->gid = ep.next_id++;
    g->concurrency = rng.chance(50) ? 0 : 1 + rng.below(3);
    tasync_group_options_t o{};
    o.size = sizeof(o);
    o.concurrency = g->concurrency;
    o.parent = parent->is_global && rng.chance(50) ? nullptr : parent->core;
    if (o.parent == nullptr) parent = ep.scope_of_current();
    o.build_results = &build_results;
    o.data = g;
    void *err = nullptr;
    int rc = tasync_group_create(ep.rt, &o, &g->g, &err);
    if (parent->closed || (rc == TASYNC_ESCOPE_CLOSED && ep.learn_closed(parent))) {
        RANDOM_CHECK(ep, rc == TASYNC_ESCOPE_CLOSED, "G1: a group under the closed " << ep.name(parent) << " returned " << rc);
        release_error(ep, err);
        g->held = false;
        return "closed parent";
    }
    RANDOM_CHECK(ep, rc == 0 && g->g != nullptr, "G1: tasync_group_create returned " << rc);
    release_error(ep, err);
    if (rc != 0) {
        g->held = false;
        return "rc=" + std::to_string(rc);
    }
    ScopeRec *s = ep.new_scope(parent, tasync_group_scope(g->g));
    s->group = g;
    s->observed = true;  // through the group's reference
    g->scope = s;
    ep.live_scopes.push_back(s);
    ep.live_groups.push_back(g);
    return "g" + std::to_string(g->gid) + " limit " + std::to_string(g->concurrency) + " under " + ep.name(parent);
}

std::string op_group_spawn(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    GroupRec *g = pick_group(ep, rng);
    if (g == nullptr || ep.unfinished.size() >= Episode::kMaxUnfinished || self->depth >= Episode::kMaxDepth)
        return "skip";
    tasync_group_key_t key{};
    std::string str;
    bool auto_key = false;
    unsigned r = rng.below(100);
    if (r < 40) {
        auto_key = true;
    } else if (r < 70) {
        key.num = rng.below(10);
    } else {
        key.is_string = 1;
        str = "k" + std::to_string(rng.below(6));
        key.str = str.data();
        key.len = str.size();
    }
    const std::int64_t num = auto_key ? g->next_int : key.num;
    const bool dup = key.is_string ? g->strs.count(str) != 0 : g->ints.count(num) != 0;
    CoRec *c = ep.new_co(CoKind::GroupTask, self->depth + 1, rng.fork());
    c->program = ep.make_program(c->rng, CoKind::GroupTask, c->depth);
    c->group = g;
    tasync_spawn_options_t o = ep.spawn_options(c, nullptr);
    tasync_coroutine_t *h = nullptr;
    void *err = nullptr;
    int rc = tasync_group_spawn(g->g, auto_key ? nullptr : &key, &o, &h, &err);
    if (dup) {
        RANDOM_CHECK(ep, rc == -EEXIST && ep.host.is_error(err), "G1: a duplicate key returned " << rc);
        release_error(ep, err);
        c->state = CoState::Done;
        c->spawn_failed = true;
        c->group = nullptr;
        return "duplicate key";
    }
    if (g->scope->closed || (rc == TASYNC_ESCOPE_CLOSED && ep.learn_closed(g->scope))) {
        RANDOM_CHECK(ep, rc == TASYNC_ESCOPE_CLOSED, "S3: spawning into the closed group g" << g->gid << " returned " << rc);
        release_error(ep, err);
        c->state = CoState::Done;
        c->spawn_failed = true;
        c->group = nullptr;
        return "closed";
    }
    RANDOM_CHECK(ep, rc == 0 && h != nullptr, "G1: tasync_group_spawn returned " << rc);
    release_error(ep, err);
    if (rc != 0) {
        c->state = CoState::Done;
        c->spawn_failed = true;
        return "rc=" + std::to_string(rc);
    }
    if (key.is_string) {
        g->strs.insert(str);
    } else {
        g->ints.insert(num);
        if (num >= g->next_int) g->next_int = num + 1;
    }
    std::size_t running = 0;
    for (CoRec *t : g->tasks) running += !t->settled && !t->held;  // a slot is freed when the task settles (C11)
    c->held = g->concurrency != 0 && running >= g->concurrency;
    c->core = h;
    g->tasks.push_back(c);
    ep.spawned(c, g->scope);
    if (rng.chance(50)) {
        c->handle = h;
        ep.handles.push_back(c);
    } else {
        tasync_coroutine_release(h);
    }
    return ep.name(c) + " in g" + std::to_string(g->gid) + (c->held ? " (held)" : "");
}

std::string op_group_await(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    GroupRec *g = pick_group(ep, rng);
    if (g == nullptr || ep.futures.size() >= Episode::kMaxFutures + 4) return "skip";
    ep.aws.emplace_back();
    AwRec *a = &ep.aws.back();
    a->aid = ep.next_id++;
    a->group = g;
    int rc;
    switch (rng.below(3)) {
        case 0:
            a->kind = AwRec::Kind::GroupAll;
            rc = tasync_group_all(g->g, &a->aw);
            break;
        case 1:
            a->kind = AwRec::Kind::GroupRace;
            rc = tasync_group_race(g->g, &a->aw);
            break;
        default:
            a->kind = AwRec::Kind::GroupAny;
            rc = tasync_group_any(g->g, &a->aw);
            break;
    }
    RANDOM_CHECK(ep, rc == 0 && a->aw != nullptr, "G1: making a group awaitable returned " << rc);
    if (rc != 0) return "rc=" + std::to_string(rc);
    ep.futures.push_back(a);
    ep.sync();  // it may have completed at once
    if (rng.chance(30)) return "a" + std::to_string(a->aid) + " kept";
    return "a" + std::to_string(a->aid) + " " + op_await_awaitable(ep, self, false, a);
}

std::string op_group_wait_next(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    GroupRec *g = pick_group(ep, rng);
    if (g == nullptr) return "skip";
    const std::size_t index = g->cursor;
    AwRec *canc = pick_cancellation(ep, self);
    Pin canc_pin(canc);
    tasync_awaitable_t *canc_aw = canc_pin.aw;
    const bool canc_done = canc != nullptr && (canc->completed || tasync_awaitable_is_completed(canc_aw));
    const bool fast = g->completed.size() > index || g->completed.size() == g->tasks.size() || canc_done;
    tasync_group_t *gh = g->g;
    tasync_group_retain(gh);  // another coroutine may release the group meanwhile
    self->wait = WaitRec{};
    self->wait.group = g;
    self->wait.index = index;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::GroupNext);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *err = nullptr;
    int rc = tasync_group_wait_next(ep.rt, gh, index, canc_aw, &err);
    ep.end_wait(self);
    if (rc == 1) {
        ep.expect_cancel_outcome(self, rc, err, "wait_next");
        RANDOM_CHECK(ep, g->completed.size() > index, "G1: wait_next(" << index << ") returned 1 with "
                                                                       << g->completed.size() << " completed tasks");
        if (g->completed.size() > index) {
            tasync_group_entry_t e{};
            e.size = sizeof(e);
            int erc = tasync_group_entry(gh, index, 1, &e);
            CoRec *t = g->completed[index];
            RANDOM_CHECK(ep, erc == 0 && e.coroutine == t->core && e.state == TASYNC_GROUP_TASK_DONE,
                         "G1: completion " << index << " of g" << g->gid << " is not " << ep.name(t));
            if (t->outcome_known && erc == 0) {
                if (t->outcome_failed) RANDOM_CHECK(ep, ep.error_matches(t->outcome_error, e.error), "G1: the entry of " << ep.name(t) << " holds another error");
                else RANDOM_CHECK(ep, e.value == t->outcome_value && e.error == nullptr, "G1: the entry of " << ep.name(t) << " holds another value");
            }
        }
        if (g->cursor == index) ++g->cursor;
    } else if (rc == 0) {
        ep.expect_cancel_outcome(self, rc, err, "wait_next");
        RANDOM_CHECK(ep, g->completed.size() <= index && g->completed.size() == g->tasks.size(),
                     "G1: wait_next(" << index << ") of g" << g->gid << " ended the iteration with "
                                      << g->tasks.size() - g->completed.size() << " unfinished tasks");
    } else if (rc == -ECANCELED) {
        ep.expect_cancel_outcome(self, rc, err, "wait_next");
    } else {
        ep.expect_cancel_outcome(self, rc, err, "wait_next");
        RANDOM_CHECK(ep, rc == TASYNC_EAWAIT_CANCELLED && canc_aw != nullptr && tasync_awaitable_is_completed(canc_aw),
                     "G1: wait_next returned " << rc);
    }
    release_error(ep, err);
    tasync_group_release(gh);
    return "g" + std::to_string(g->gid) + " #" + std::to_string(index) + " rc=" + std::to_string(rc);
}

void release_group(Episode &ep, GroupRec *g) {
    if (!g->held) return;
    ep.sync();  // learn what its scope shows while it still can
    g->held = false;
    for (std::size_t i = 0; i < ep.live_groups.size(); ++i) {
        if (ep.live_groups[i] == g) {
            ep.live_groups[i] = ep.live_groups.back();
            ep.live_groups.pop_back();
            break;
        }
    }
    // The model keeps watching the group's scope (learn_let_go), and from
    // now on the errors of its failed tasks may flow (G1).
    tasync_scope_retain(g->scope->core);
    g->scope_ref = true;
    g->released = true;
    for (CoRec *t : g->tasks) {
        if (t->state == CoState::Done && t->error != nullptr && t->error->kind != TASYNC_ERROR_CANCELLATION)
            ++ep.error_candidates;
    }
    tasync_group_release(g->g);
    ep.sync();  // what the release did, the let-go (learn_let_go) included
}

std::string op_group_release(Episode &ep, CoRec *self) {
    GroupRec *g = pick_group(ep, self->rng);
    if (g == nullptr) return "skip";
    release_group(ep, g);
    return "g" + std::to_string(g->gid);
}

}  // namespace tasync_random
