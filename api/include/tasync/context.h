/*
 * tasync/context.h - contexts (docs/rules.md, rules X1 and X2): key/value
 * slots whose lifetime is tied to a scope or a coroutine.
 *
 * Every scope owns a context whose parent is its parent scope's context: the
 * hierarchy of contexts is exactly that of scopes, so the context of a root
 * scope, like the global scope's (the root context), has no parent (since
 * ABI 1.2; before, a root scope's context chained to the root context).
 * Each coroutine can have a private context, created on first use, whose
 * parent is its scope's context; its values are released when the
 * coroutine completes. A free-standing context (tasync_context_create)
 * belongs to no scope or coroutine and has no parent. Lookups that are not
 * "local" walk up the parents.
 *
 * Keys are strings (bytes, compared exactly) or objects (host values,
 * compared by identity; the context keeps a reference to the key object, so
 * its identity cannot be reused while stored). Values are host values (the
 * context keeps a reference). Called on the runtime's thread.
 */
#ifndef TASYNC_CONTEXT_H
#define TASYNC_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_context tasync_context_t;

/* A key: an object key when object is not NULL, else the string str[0..len).
 * Borrowed by every call. */
typedef struct tasync_context_key {
    const char *str;
    size_t len;
    void *object;
} tasync_context_key_t;

/* The context of a scope; borrowed, lives as long as the scope.
 * Since: ABI 1.0. */
TASYNC_API tasync_context_t *tasync_scope_context(tasync_scope_t *scope);

/* The private context of a coroutine, created on first use; borrowed, lives
 * as long as the coroutine record. After the coroutine completed it is empty
 * and has no parent. Since: ABI 1.0. */
TASYNC_API tasync_context_t *tasync_coroutine_context(tasync_coroutine_t *co);

/*
 * Creates a free-standing context owned by the caller: no scope or coroutine
 * holds it and it has no parent, so lookups see only its own keys. *out
 * receives a new reference (tasync_context_release drops it); its values
 * are released with the last reference, or when the runtime is destroyed
 * (the context then stays usable for nothing but release). Returns 0, or
 * -EINVAL. Since: ABI 1.2.
 */
TASYNC_API int tasync_context_create(tasync_runtime_t *rt, tasync_context_t **out);

/* The parent context, or NULL. Borrowed. Since: ABI 1.0. */
TASYNC_API tasync_context_t *tasync_context_parent(const tasync_context_t *ctx);

/* Keeps the context's owner (scope or coroutine) alive, so that a host
 * object can hold a context; a free-standing context counts its own
 * references. A reference to a coroutine's context is not a handle on the
 * coroutine's outcome (rule S10, runtime.h). Since: ABI 1.0. */
TASYNC_API void tasync_context_retain(tasync_context_t *ctx);
/* Drops a tasync_context_retain reference. Since: ABI 1.0. */
TASYNC_API void tasync_context_release(tasync_context_t *ctx);

/*
 * Looks key up in ctx, then (unless local is nonzero) in its parents.
 * Returns 1 and the value (borrowed, may be NULL when a NULL value was
 * stored) in *out_value, or 0 when not found. Since: ABI 1.0.
 */
TASYNC_API int tasync_context_find(const tasync_context_t *ctx, const tasync_context_key_t *key, int local,
                                   void **out_value);

/*
 * Stores value (retained, may be NULL) under key in ctx itself. When the key
 * is present: replaces it if replace is nonzero, else returns -EEXIST.
 * Returns 0, or -EINVAL for a bad key. Since: ABI 1.0.
 */
TASYNC_API int tasync_context_set(tasync_context_t *ctx, const tasync_context_key_t *key, void *value,
                                  int replace);

/* Removes key from ctx itself. Returns 1 if it was there, else 0.
 * Since: ABI 1.0. */
TASYNC_API int tasync_context_unset(tasync_context_t *ctx, const tasync_context_key_t *key);

/*
 * Enumerates ctx's own entries (for a host's garbage collector): calls
 * cb(data, key, value) for each; cb must not modify ctx. Returns the count.
 * Since: ABI 1.0.
 */
TASYNC_API size_t tasync_context_foreach(const tasync_context_t *ctx,
                                         void (*cb)(void *data, const tasync_context_key_t *key, void *value),
                                         void *data);

TASYNC_EXTERN_C_END

#endif /* TASYNC_CONTEXT_H */
