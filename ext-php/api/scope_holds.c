/*
 * api/scope_holds.c - what PHP objects other than its Scope object hold of
 * a core scope (a Context object, a TaskGroup, a pending onFinally()
 * callback), counted per scope in ASYNC_G(scope_extras) for the request,
 * and the slot of the scope's Context object while one lives.
 *
 * Garbage collection (C17): a Scope object reports the PHP values of its
 * scope (context values, handlers) to the collector only while it is the
 * scope's only holder (async_scope_held_alone); see api/scope.c.
 */
#include "api/scope_holds.h"

#include "runtime/globals.h"

typedef struct async_scope_extra {
	uint32_t holds;                  /* PHP objects other than the Scope object */
	zend_object *context;            /* the Context object while one lives */
} async_scope_extra;

static async_scope_extra *extra_of(tasync_scope_t *scope, bool create)
{
	if (ASYNC_G(rt) == NULL) {
		return NULL; /* the table is gone with the runtime */
	}
	zend_ulong key = (zend_ulong) (uintptr_t) scope;
	async_scope_extra *x = zend_hash_index_find_ptr(&ASYNC_G(scope_extras), key);
	if (x == NULL && create) {
		x = ecalloc(1, sizeof(*x));
		zend_hash_index_add_new_ptr(&ASYNC_G(scope_extras), key, x);
	}
	return x;
}

static void extra_dtor(zval *zv)
{
	efree(Z_PTR_P(zv));
}

void async_scope_extras_init(void)
{
	zend_hash_init(&ASYNC_G(scope_extras), 8, NULL, extra_dtor, 0);
}

void async_scope_extras_destroy(void)
{
	zend_hash_destroy(&ASYNC_G(scope_extras));
}

static void extra_drop_if_unused(tasync_scope_t *scope, async_scope_extra *x)
{
	if (x->holds == 0 && x->context == NULL) {
		zend_hash_index_del(&ASYNC_G(scope_extras), (zend_ulong) (uintptr_t) scope);
	}
}

void async_scope_hold(tasync_scope_t *scope)
{
	async_scope_extra *x = extra_of(scope, true);
	if (x != NULL) {
		x->holds++;
	}
}

void async_scope_unhold(tasync_scope_t *scope)
{
	async_scope_extra *x = extra_of(scope, false);
	if (x != NULL && x->holds > 0) {
		x->holds--;
		extra_drop_if_unused(scope, x);
	}
}

zend_object **async_scope_context_slot(tasync_scope_t *scope)
{
	async_scope_extra *x = extra_of(scope, true);
	return x != NULL ? &x->context : NULL;
}

/* Nothing but its Scope object holds the scope (see the top comment). */
bool async_scope_held_alone(tasync_scope_t *scope)
{
	if (!(tasync_scope_flags(scope) & TASYNC_SCOPE_FINISHED) || tasync_scope_children(scope, NULL, 0) != 0) {
		return false;
	}
	async_scope_extra *x = extra_of(scope, false);
	return x == NULL || x->holds == 0;
}
