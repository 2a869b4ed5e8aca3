// Rules X1 and X2: contexts.
#include <cstring>

#include "rules.hpp"

using namespace tasync_rules;

class Context : public Rules {
protected:
    // The key borrows the characters: keep the string alive while it is used.
    static tasync_context_key_t key(const char *s) { return tasync_context_key_t{s, std::strlen(s), nullptr}; }
    static tasync_context_key_t key(const std::string &s) { return tasync_context_key_t{s.data(), s.size(), nullptr}; }
    static tasync_context_key_t key(Value *object) { return tasync_context_key_t{nullptr, 0, object}; }

    long find(tasync_context_t *ctx, const tasync_context_key_t &k, int local = 0) {
        void *v = nullptr;
        if (!tasync_context_find(ctx, &k, local, &v)) return -1;
        return v != nullptr ? static_cast<Value *>(v)->v : 0;
    }
    void set(tasync_context_t *ctx, const tasync_context_key_t &k, long v, int replace = 0, int expect = 0) {
        Value *val = host.value(v);
        EXPECT_EQ(tasync_context_set(ctx, &k, val, replace), expect);
        host.release(val);
    }
};

TEST_F(Context, X1_FindLooksUpTheParentsLocalDoesNot) {
    ScopeRef server(scope());
    ScopeRef request(scope(server));
    tasync_context_t *sc = tasync_scope_context(server);
    tasync_context_t *rc = tasync_scope_context(request);
    EXPECT_EQ(tasync_context_parent(rc), sc);
    set(sc, key("server_id"), 1);
    set(sc, key("request_id"), 0);
    set(rc, key("request_id"), 42);
    EXPECT_EQ(find(rc, key("request_id")), 42) << "the child's own value wins";
    EXPECT_EQ(find(rc, key("server_id")), 1) << "inherited from the server context";
    EXPECT_EQ(find(rc, key("server_id"), 1), -1) << "not in the local context";
    EXPECT_EQ(find(rc, key("missing")), -1);
    EXPECT_EQ(run(), 0);
}

TEST_F(Context, X1_SetRefusesAnExistingKeyUnlessReplacing) {
    tasync_context_t *ctx = tasync_scope_context(tasync_scope_global(rt));
    set(ctx, key("pdo"), 1);
    set(ctx, key("pdo"), 2, 0, -EEXIST);
    EXPECT_EQ(find(ctx, key("pdo")), 1);
    set(ctx, key("pdo"), 3, 1);
    EXPECT_EQ(find(ctx, key("pdo")), 3);
    tasync_context_key_t k = key("pdo");
    EXPECT_EQ(tasync_context_unset(ctx, &k), 1);
    EXPECT_EQ(tasync_context_unset(ctx, &k), 0) << "already gone";
    EXPECT_EQ(find(ctx, key("pdo")), -1);
    EXPECT_EQ(host.live_values, 0) << "values are released when replaced or unset";
    EXPECT_EQ(run(), 0);
}

TEST_F(Context, X1_ObjectKeysAreComparedByIdentity) {
    tasync_context_t *ctx = tasync_scope_context(tasync_scope_global(rt));
    Value *k1 = host.value(5);
    Value *k2 = host.value(5);  // equal contents, another object
    set(ctx, key(k1), 100);
    EXPECT_EQ(find(ctx, key(k1)), 100);
    EXPECT_EQ(find(ctx, key(k2)), -1) << "only holders of the object can read the slot";
    host.release(k1);
    EXPECT_EQ(host.live_values, 3) << "the context keeps the key object alive (k1, k2, the value)";
    EXPECT_EQ(find(ctx, key(k1)), 100);
    tasync_context_key_t kk = key(k1);
    EXPECT_EQ(tasync_context_unset(ctx, &kk), 1);
    host.release(k2);
    EXPECT_EQ(host.live_values, 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Context, X1_StringKeysAreBinarySafeAndNullValuesCount) {
    tasync_context_t *ctx = tasync_scope_context(tasync_scope_global(rt));
    std::string a("a\0b", 3), b("a\0c", 3);
    set(ctx, key(a), 1);
    EXPECT_EQ(find(ctx, key(b)), -1);
    tasync_context_key_t k = key("nothing");
    EXPECT_EQ(tasync_context_set(ctx, &k, nullptr, 0), 0);
    EXPECT_EQ(find(ctx, key("nothing")), 0) << "found, with a NULL value";
    EXPECT_EQ(tasync_context_foreach(ctx, nullptr, nullptr), 2u);
    EXPECT_EQ(run(), 0);
}

TEST_F(Context, X2_ScopeContextsFollowTheScopeTree) {
    tasync_context_t *root_ctx = tasync_scope_context(tasync_scope_global(rt));
    set(root_ctx, key("app"), 7);
    ScopeRef server(scope());
    tasync_context_t *sc = tasync_scope_context(server);
    EXPECT_EQ(tasync_context_parent(sc), nullptr) << "a root scope's context has no parent";
    EXPECT_EQ(find(sc, key("app")), -1) << "a root scope does not see the root context";
    ScopeRef child(scope(server));
    EXPECT_EQ(tasync_context_parent(tasync_scope_context(child)), sc);
    long seen = -2, seen_root = -2;
    go([&](tasync_coroutine_t *) {
        // currentContext() is the current scope's.
        tasync_context_t *cur = tasync_scope_context(tasync_scope_current(rt));
        ScopeRef req(scope(tasync_scope_current(rt)));
        set(tasync_scope_context(req), key("request_id"), 99);
        go([&](tasync_coroutine_t *) {
            seen = find(tasync_scope_context(tasync_scope_current(rt)), key("request_id"));
            seen_root = find(root_ctx, key("request_id"));
        }, req);
        EXPECT_EQ(cur, sc);
    }, server);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(seen, 99);
    EXPECT_EQ(seen_root, -1) << "rootContext() does not see the request's slot";
    tasync_context_key_t k = key("app");
    tasync_context_unset(root_ctx, &k);
}

TEST_F(Context, X2_CoroutineContextIsPrivateAndFreedWithTheCoroutine) {
    ScopeRef s(scope());
    set(tasync_scope_context(s), key("shared"), 1);
    long child_saw = -2;
    long inherited = -2;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        tasync_context_t *mine = tasync_coroutine_context(self);
        EXPECT_EQ(tasync_context_parent(mine), tasync_scope_context(s));
        set(mine, key("data"), 5);
        inherited = find(mine, key("shared"));
        go([&](tasync_coroutine_t *child) {
            child_saw = find(tasync_coroutine_context(child), key("data"));
        });
        delay(1);
    }, s);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(host.live_values, 2) << "the scope's slot and the coroutine's";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(inherited, 1);
    EXPECT_EQ(child_saw, -1) << "No data will be found (seed 002)";
    EXPECT_EQ(host.live_values, 1) << "the coroutine's slot went with it";
    tasync_context_t *after = tasync_coroutine_context(co);
    EXPECT_EQ(tasync_context_parent(after), nullptr);
    EXPECT_EQ(tasync_context_foreach(after, nullptr, nullptr), 0u);
    tasync_coroutine_release(co);
}

TEST_F(Context, X2_AHostCanHoldAContextPastItsScope) {
    tasync_scope_t *s = scope();
    tasync_context_t *ctx = tasync_scope_context(s);
    tasync_context_retain(ctx);
    tasync_scope_release(s);  // the context keeps the scope alive
    set(ctx, key("k"), 3);
    EXPECT_EQ(find(ctx, key("k")), 3);
    tasync_context_release(ctx);
    EXPECT_EQ(host.live_values, 0) << "released with the scope";
    EXPECT_EQ(run(), 0);
}
