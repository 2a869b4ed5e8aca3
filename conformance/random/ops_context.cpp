// Contexts (X1, X2): values stored in coroutine and scope contexts and
// looked up through the parent chain; and introspection (C12): the
// coroutine list, wait descriptions and the runtime dump.
#include <cstring>

#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

namespace {

// The model's lookup: the coroutine's own entries (when it is the owner),
// then its scope's, then up the scope chain (the global scope's context
// ends every chain, rule X2 / expect.hpp).
Value *model_find(Episode &ep, CoRec *co, ScopeRec *scope, const std::string &key, bool local, bool *found) {
    *found = false;
    auto look = [&](CoRec *c, ScopeRec *s) -> Value * {
        for (const CtxEntry &e : ep.ctx_entries) {
            if (e.key == key && e.co == c && e.scope == s) {
                *found = true;
                return e.value;
            }
        }
        return nullptr;
    };
    if (co != nullptr) {
        Value *v = look(co, nullptr);
        if (*found || local) return v;
        scope = co->kind == CoKind::Main ? ep.global : co->scope;
    }
    bool first = co == nullptr;
    for (ScopeRec *s = scope; s != nullptr;) {
        Value *v = look(nullptr, s);
        if (*found || (local && first)) return v;
        first = false;
        if (s->parent != nullptr) s = s->parent;
        else if (!s->is_global && expect::kRootScopeContextHasGlobalParent) s = ep.global;
        else s = nullptr;
    }
    return nullptr;
}

}  // namespace

std::string op_context(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    CoRec *co = nullptr;
    ScopeRec *scope = nullptr;
    tasync_context_t *ctx = nullptr;
    unsigned r = rng.below(100);
    if (r < 40) {
        co = self;
        ctx = tasync_coroutine_context(self->core);
        tasync_context_t *parent = tasync_context_parent(ctx);
        ScopeRec *sc = self->kind == CoKind::Main ? ep.global : self->scope;
        RANDOM_CHECK(ep, parent == tasync_scope_context(sc->core),
                     "X2: the context of " << ep.name(self) << " does not have its scope's context as parent");
    } else if (r < 80 || ep.live_scopes.empty()) {
        scope = ep.scope_of_current();
        ctx = tasync_scope_context(tasync_scope_current(ep.rt));
        RANDOM_CHECK(ep, ep.scope_rec(tasync_scope_current(ep.rt)) == scope,
                     "S2: the current scope of " << ep.name(self) << " is not " << ep.name(scope));
    } else {
        scope = ep.live_scopes[rng.below(static_cast<std::uint32_t>(ep.live_scopes.size()))];
        ctx = tasync_scope_context(scope->core);
    }
    if (scope != nullptr) {
        tasync_context_t *parent = tasync_context_parent(ctx);
        tasync_context_t *want = nullptr;
        if (scope->parent != nullptr) want = tasync_scope_context(scope->parent->core);
        else if (!scope->is_global && expect::kRootScopeContextHasGlobalParent) want = tasync_scope_context(ep.global->core);
        RANDOM_CHECK(ep, parent == want, "X2: the context of " << ep.name(scope) << " has another parent");
    }
    const std::string key = "k" + std::to_string(rng.below(4));
    tasync_context_key_t k{key.c_str(), key.size(), nullptr};
    const std::string owner = co != nullptr ? ep.name(co) : ep.name(scope);
    unsigned action = rng.below(100);
    if (action < 45) {
        const bool replace = rng.chance(50);
        bool exists = false;
        model_find(ep, co, scope, key, true, &exists);
        Value *v = ep.host.value(static_cast<long>(ep.op_index), "context " + owner + "." + key);
        int rc = tasync_context_set(ctx, &k, v, replace ? 1 : 0);
        if (exists && !replace) {
            RANDOM_CHECK(ep, rc == -EEXIST, "X1: setting the present key " << key << " without replace returned " << rc);
        } else {
            RANDOM_CHECK(ep, rc == 0, "X1: setting " << key << " returned " << rc);
            for (auto it = ep.ctx_entries.begin(); it != ep.ctx_entries.end(); ++it) {
                if (it->key == key && it->co == co && it->scope == scope) {
                    ep.ctx_entries.erase(it);
                    break;
                }
            }
            ep.ctx_entries.push_back(CtxEntry{scope, co, key, v});
        }
        ep.host.release(v);
        return "set " + owner + "." + key + " rc=" + std::to_string(rc);
    }
    if (action < 85) {
        const bool local = rng.chance(30);
        bool found = false;
        Value *want = model_find(ep, co, scope, key, local, &found);
        void *got = nullptr;
        int rc = tasync_context_find(ctx, &k, local ? 1 : 0, &got);
        RANDOM_CHECK(ep, rc == (found ? 1 : 0) && got == want,
                     "X1: finding " << key << (local ? " locally" : "") << " from " << owner << " returned " << rc
                                    << ", the model says " << found);
        return "find " + owner + "." + key + " rc=" + std::to_string(rc);
    }
    bool exists = false;
    model_find(ep, co, scope, key, true, &exists);
    int rc = tasync_context_unset(ctx, &k);
    RANDOM_CHECK(ep, rc == (exists ? 1 : 0), "X1: unsetting " << key << " returned " << rc);
    for (auto it = ep.ctx_entries.begin(); it != ep.ctx_entries.end(); ++it) {
        if (it->key == key && it->co == co && it->scope == scope) {
            ep.ctx_entries.erase(it);
            break;
        }
    }
    return "unset " + owner + "." + key + " rc=" + std::to_string(rc);
}

std::string op_introspect(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    tasync_coroutine_t *list[64];
    const size_t n = tasync_runtime_coroutines(ep.rt, list, 64);
    // Completed coroutines whose held error escalates on their stack are
    // listed too (S10's Future semantics).
    auto escalating = [](const CoRec *c) {
        return c != nullptr && c->state == CoState::Done && (c->escalations_entered > 0 || c->in_route);
    };
    size_t extra = 0;
    for (size_t i = 1; i < n && i < 64; ++i) extra += escalating(ep.rec_of(list[i]));
    RANDOM_CHECK(ep, n == 1 + ep.unfinished.size() + extra, "C12: the runtime lists " << n << " coroutines");
    if (n > 0) RANDOM_CHECK(ep, tasync_coroutine_flags(list[0]) & TASYNC_CO_MAIN, "C12: the main coroutine is not listed first");
    for (size_t i = 1; i < n && i < 64 && !ep.failed; ++i) {
        CoRec *c = ep.rec_of(list[i]);
        RANDOM_CHECK(ep, c != nullptr && (c->unfinished() || escalating(c)),
                     "C12: the runtime lists a coroutine the model has not unfinished");
        if (i > 1)
            RANDOM_CHECK(ep, tasync_coroutine_id(list[i]) > tasync_coroutine_id(list[i - 1]),
                         "C12: the coroutine list is not in id order");
    }
    if (!ep.unfinished.empty()) {
        CoRec *c = ep.unfinished[rng.below(static_cast<std::uint32_t>(ep.unfinished.size()))];
        if (c->core != nullptr) {
            char small[8];
            std::memset(small, 'x', sizeof(small));
            size_t want = tasync_coroutine_describe_wait(c->core, small, sizeof(small));
            std::string big(want + 1, '\0');
            size_t again = tasync_coroutine_describe_wait(c->core, big.data(), big.size());
            const size_t cut = want < sizeof(small) - 1 ? want : sizeof(small) - 1;
            RANDOM_CHECK(ep, again == want && std::strlen(big.c_str()) == want && small[cut] == '\0' &&
                                 big.compare(0, cut, small, cut) == 0,
                         "C12: describe_wait of " << ep.name(c) << " is not consistent: " << want << " then " << again);
            tasync_location_t loc = tasync_coroutine_spawn_location(c->core);
            RANDOM_CHECK(ep, loc.file != nullptr && std::strcmp(loc.file, "random.php") == 0,
                         "C12: the spawn location of " << ep.name(c) << " is not the host's");
        }
    }
    char tiny[16];
    const size_t want = tasync_runtime_dump(ep.rt, tiny, sizeof(tiny));
    std::string dump(want + 1, '\0');
    RANDOM_CHECK(ep, tasync_runtime_dump(ep.rt, dump.data(), dump.size()) == want && want > 0,
                 "C12: tasync_runtime_dump is not consistent");
    return std::to_string(n) + " coroutines, dump " + std::to_string(want) + " bytes";
}

}  // namespace tasync_random
