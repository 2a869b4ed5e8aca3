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

/* The host table's coroutine_free member: the core is done with a PHP
 * coroutine's record (nothing for the main flow's). */
void async_host_coroutine_free(void *hd, tasync_coroutine_t *co, void *co_data);

#endif /* ASYNC_API_SPAWN_H */
