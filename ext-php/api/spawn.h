/*
 * api/spawn.h - what makes a PHP callable a core coroutine (api/spawn.c).
 */
#ifndef ASYNC_API_SPAWN_H
#define ASYNC_API_SPAWN_H

#include "runtime/globals.h"

/*
 * What the core holds of a PHP coroutine: its host data (vm) and its spawn
 * argument (the callable). Allocated by the extension when it hands a
 * coroutine to the core, freed once the core is done with both (see the
 * ownership notes in api/spawn.c). Never a PHP object: the Coroutine
 * object is only a handle on the core coroutine.
 */
typedef struct async_coroutine {
	tasync_coroutine_t *co;          /* borrowed: the core coroutine, once known */
	async_vm_state vm;               /* host data of co */
	zend_fcall_info fci;             /* the callable and its arguments, owned */
	zend_fcall_info_cache fcc;
	zval named;                      /* named arguments (array) or UNDEF */
	/* Scope::onFinally(): the scope handed to the callback as its argument
	 * when it starts (one reference until then). */
	tasync_scope_t *finally_scope;
	/* Coroutine::onFinally(): the coroutine handed to the callback, as its
	 * Coroutine object made when the callback starts (borrowed: the core
	 * keeps it while its callbacks may run). Not holding the object keeps
	 * a pending callback from counting as a handle (rule S10). */
	tasync_coroutine_t *finally_owner;
	zend_object *object;             /* the Coroutine object standing for co (weak) */
	/* A coroutine of the extension's own C code (async_native_options):
	 * native(self, native_arg) runs instead of a PHP callable, on a PHP VM
	 * of its own; native_free(native_arg) once the core is done with it. */
	void (*native)(tasync_coroutine_t *self, void *arg);
	void *native_arg;
	void (*native_free)(void *arg);
	bool started;
	bool arg_released;               /* the core's arg_release ran */
	async_deferred_free dead;        /* its release, queued at the core's last word */
} async_coroutine;

/* The extension's record of a PHP coroutine (its host data), or NULL for
 * the main coroutine and coroutines of other extensions. */
async_coroutine *async_coroutine_of(tasync_coroutine_t *co);

/*
 * Spawns $fci(...$args) as a coroutine into scope (NULL: the current one),
 * or as a task of group under key (NULL: the next integer key). Puts the
 * Coroutine object into return_value; false with an exception thrown.
 */
void async_spawn_call(zval *return_value, tasync_scope_t *scope, tasync_group_t *group, const tasync_group_key_t *key,
	zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, HashTable *named);

/*
 * Spawn options for a completion callback (C11, S12): $callable($arg) in a
 * coroutine of its own. arg is an object (retained), or NULL with scope
 * set: the Scope object, made when the callback starts. A Coroutine object
 * is not retained either: its coroutine's object is made (or found) when
 * the callback starts, so that a pending callback is no handle (S10).
 */
void async_finally_options(tasync_spawn_options_t *opts, zval *callable, zend_object *arg, tasync_scope_t *scope);

/*
 * Spawn options for a coroutine that runs the extension's C code fn(self,
 * arg) with a PHP VM, output buffers and error handling of its own, as a
 * PHP coroutine has: fn may call PHP code and suspend, and its outcome is
 * what it sets (tasync_coroutine_set_result) or the exception it leaves
 * in EG(exception). free(arg) (may be NULL) runs exactly once when the
 * core is done with arg; it may run inside a core callback, so it releases
 * PHP values with async_defer_release. The record becomes the coroutine's
 * host data when it starts (as for a completion callback), so the options
 * serve tasync_spawn and the core's callbacks (tasync_future_then, a
 * group's finally handler) alike. Pass them to exactly one call; when that
 * call fails without taking them, async_native_discard() frees them.
 */
void async_native_options(tasync_spawn_options_t *opts, void (*fn)(tasync_coroutine_t *self, void *arg), void *arg,
	void (*free)(void *arg));
void async_native_discard(tasync_spawn_options_t *opts);

/*
 * hook(co) is called in every PHP coroutine once its PHP code is over (its
 * callable, its arguments and its destructors done), before it completes
 * (one hook: io/pdo_pool.c's, for connections held by statements that
 * outlive their coroutine).
 */
void async_on_coroutine_end(void (*hook)(tasync_coroutine_t *co));

/*
 * Spawns fn(self, arg) (see async_native_options) into scope (NULL: the
 * current one). Returns 0 and a handle in *out (may be NULL: none kept),
 * or the core's code with the error in *out_error (may be NULL); on
 * failure free(arg) has run.
 */
int async_spawn_native(tasync_scope_t *scope, void (*fn)(tasync_coroutine_t *self, void *arg), void *arg,
	void (*free)(void *arg), tasync_coroutine_t **out, void **out_error);

/*
 * async_call_from_core() that also runs in a coroutine without PHP state
 * of its own (one the core spawned, such as the report of a future's
 * failure nobody observed, rule T2): the callable runs on a PHP VM set up
 * for the call and taken down after it.
 */
bool async_call_adopting(zval *callable, zval *retval, uint32_t argc, zval *argv, zend_object **thrown);

/* The host table's coroutine_free member: the core is done with a PHP
 * coroutine's record (nothing for the main flow's). */
void async_host_coroutine_free(void *hd, tasync_coroutine_t *co, void *co_data);

#endif /* ASYNC_API_SPAWN_H */
