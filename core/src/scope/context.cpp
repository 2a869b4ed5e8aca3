// Contexts (docs/rules.md, X1 and X2): key/value slots owned by a scope
// or a coroutine. See api/include/tasync/context.h.
#include <cerrno>
#include <string>

#include "tasync/core/runtime.hpp"

using namespace tasync::detail;

namespace {

tasync_runtime *runtime_of(const tasync_context *ctx) {
    if (ctx->owner_kind == tasync_context::Owner::None) return ctx->rt;
    if (ctx->owner_kind == tasync_context::Owner::Scope) return static_cast<const tasync_scope *>(ctx->owner)->rt;
    return static_cast<const tasync_coroutine *>(ctx->owner)->rt;
}

tasync_context *scope_context(tasync_scope *s) {
    if (!s->context) s->context = std::make_unique<tasync_context>(tasync_context::Owner::Scope, s);
    return s->context.get();
}

// The parent context (X2): the parent scope's, so that the hierarchy of
// contexts is exactly that of scopes (a root scope's context, like the
// global scope's, has none); a coroutine's is its scope's.
tasync_context *parent_of(const tasync_context *ctx) {
    if (ctx->owner_kind == tasync_context::Owner::None) return nullptr;
    if (ctx->owner_kind == tasync_context::Owner::Scope) {
        auto *s = static_cast<tasync_scope *>(ctx->owner);
        if (s->rt == nullptr || s->parent == nullptr) return nullptr;
        return scope_context(s->parent);
    }
    auto *co = static_cast<tasync_coroutine *>(ctx->owner);
    if (co->rt == nullptr || co->done || co->completed) return nullptr;
    tasync_scope *s = co->rt->scope_of(co);
    return s != nullptr ? scope_context(s) : nullptr;
}

bool valid_key(const tasync_context_key_t *key) {
    return key != nullptr && (key->object != nullptr || key->str != nullptr || key->len == 0);
}

// Finds key in ctx itself: true and the value when present.
bool find_local(const tasync_context *ctx, const tasync_context_key_t *key, void **value) {
    if (key->object != nullptr) {
        auto it = ctx->objects.find(key->object);
        if (it == ctx->objects.end()) return false;
        *value = it->second.value;
        return true;
    }
    auto it = ctx->strings.find(std::string(key->str != nullptr ? key->str : "", key->len));
    if (it == ctx->strings.end()) return false;
    *value = it->second;
    return true;
}

}  // namespace

void tasync_runtime::context_clear(tasync_context *ctx) {
    for (auto &kv : ctx->strings) release_value(kv.second);
    for (auto &kv : ctx->objects) {
        release_value(kv.second.value);
        release_value(kv.second.key);
    }
    ctx->strings.clear();
    ctx->objects.clear();
}

// Runtime teardown: free-standing contexts the host still holds drop their
// values now (the host's release functions go with the runtime).
void tasync_runtime::teardown_free_contexts() {
    for (tasync_context *ctx : free_contexts) {
        context_clear(ctx);
        ctx->rt = nullptr;
    }
    free_contexts.clear();
}

void tasync_runtime::drop_extras_slow(Coroutine *co) {
    if (co->finally_cbs != nullptr) {
        for (const tasync_spawn_options_t &cb : *co->finally_cbs) {
            if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        }
        delete co->finally_cbs;
        co->finally_cbs = nullptr;
    }
    if (co->context != nullptr) {
        context_clear(co->context);
        delete co->context;
        co->context = nullptr;
    }
}

extern "C" {

TASYNC_API tasync_context_t *tasync_scope_context(tasync_scope_t *scope) {
    if (scope == nullptr || scope->rt == nullptr) return nullptr;
    return scope_context(scope);
}

TASYNC_API tasync_context_t *tasync_coroutine_context(tasync_coroutine_t *co) {
    if (co == nullptr || co->rt == nullptr) return nullptr;
    if (co->context == nullptr) co->context = new tasync_context(tasync_context::Owner::Coroutine, co);
    return co->context;
}

TASYNC_API int tasync_context_create(tasync_runtime_t *rt, tasync_context_t **out) {
    if (out != nullptr) *out = nullptr;
    if (rt == nullptr) rt = tls_runtime;
    if (rt == nullptr || out == nullptr) return -EINVAL;
    auto *ctx = new tasync_context(tasync_context::Owner::None, nullptr);
    ctx->refs = 1;
    ctx->rt = rt;
    rt->free_contexts.insert(ctx);
    *out = ctx;
    return 0;
}

TASYNC_API tasync_context_t *tasync_context_parent(const tasync_context_t *ctx) {
    return ctx != nullptr ? parent_of(ctx) : nullptr;
}

// A reference on a coroutine's context keeps the coroutine record, not a
// handle on its outcome (rule S10 counts handles only).
TASYNC_API void tasync_context_retain(tasync_context_t *ctx) {
    if (ctx == nullptr) return;
    if (ctx->owner_kind == tasync_context::Owner::None) ++ctx->refs;
    else if (ctx->owner_kind == tasync_context::Owner::Scope) tasync_scope_retain(static_cast<tasync_scope *>(ctx->owner));
    else ++static_cast<tasync_coroutine *>(ctx->owner)->refs;
}

TASYNC_API void tasync_context_release(tasync_context_t *ctx) {
    if (ctx == nullptr) return;
    if (ctx->owner_kind == tasync_context::Owner::None) {
        if (--ctx->refs != 0) return;
        if (ctx->rt != nullptr) {
            ctx->rt->context_clear(ctx);
            ctx->rt->free_contexts.erase(ctx);
        }
        delete ctx;
    } else if (ctx->owner_kind == tasync_context::Owner::Scope) {
        tasync_scope_release(static_cast<tasync_scope *>(ctx->owner));
    } else {
        auto *co = static_cast<tasync_coroutine *>(ctx->owner);
        if (--co->refs == 0) co->destroy();
    }
}

TASYNC_API int tasync_context_find(const tasync_context_t *ctx, const tasync_context_key_t *key, int local,
                                   void **out_value) {
    if (out_value != nullptr) *out_value = nullptr;
    if (ctx == nullptr || !valid_key(key)) return 0;
    for (const tasync_context *c = ctx; c != nullptr; c = local ? nullptr : parent_of(c)) {
        void *v = nullptr;
        if (find_local(c, key, &v)) {
            if (out_value != nullptr) *out_value = v;
            return 1;
        }
    }
    return 0;
}

TASYNC_API int tasync_context_set(tasync_context_t *ctx, const tasync_context_key_t *key, void *value, int replace) {
    if (ctx == nullptr || !valid_key(key)) return -EINVAL;
    tasync_runtime *rt = runtime_of(ctx);
    if (rt == nullptr) return -EINVAL;
    if (key->object != nullptr) {
        auto it = ctx->objects.find(key->object);
        if (it != ctx->objects.end()) {
            if (!replace) return -EEXIST;
            rt->retain_value(value);
            rt->release_value(it->second.value);
            it->second.value = value;
            return 0;
        }
        rt->retain_value(key->object);
        rt->retain_value(value);
        ctx->objects.emplace(key->object, tasync_context::ObjectEntry{key->object, value});
        return 0;
    }
    std::string k(key->str != nullptr ? key->str : "", key->len);
    auto it = ctx->strings.find(k);
    if (it != ctx->strings.end()) {
        if (!replace) return -EEXIST;
        rt->retain_value(value);
        rt->release_value(it->second);
        it->second = value;
        return 0;
    }
    rt->retain_value(value);
    ctx->strings.emplace(std::move(k), value);
    return 0;
}

TASYNC_API int tasync_context_unset(tasync_context_t *ctx, const tasync_context_key_t *key) {
    if (ctx == nullptr || !valid_key(key)) return 0;
    tasync_runtime *rt = runtime_of(ctx);
    if (key->object != nullptr) {
        auto it = ctx->objects.find(key->object);
        if (it == ctx->objects.end()) return 0;
        tasync_context::ObjectEntry e = it->second;
        ctx->objects.erase(it);
        if (rt != nullptr) {
            rt->release_value(e.value);
            rt->release_value(e.key);
        }
        return 1;
    }
    auto it = ctx->strings.find(std::string(key->str != nullptr ? key->str : "", key->len));
    if (it == ctx->strings.end()) return 0;
    void *v = it->second;
    ctx->strings.erase(it);
    if (rt != nullptr) rt->release_value(v);
    return 1;
}

TASYNC_API size_t tasync_context_foreach(const tasync_context_t *ctx,
                                         void (*cb)(void *data, const tasync_context_key_t *key, void *value),
                                         void *data) {
    if (ctx == nullptr) return 0;
    if (cb != nullptr) {
        for (const auto &kv : ctx->strings) {
            tasync_context_key_t k{kv.first.data(), kv.first.size(), nullptr};
            cb(data, &k, kv.second);
        }
        for (const auto &kv : ctx->objects) {
            tasync_context_key_t k{nullptr, 0, kv.second.key};
            cb(data, &k, kv.second.value);
        }
    }
    return ctx->strings.size() + ctx->objects.size();
}

}  // extern "C"
