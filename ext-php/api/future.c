/*
 * api/future.c - Async\Future: a FutureLike the runtime completes. Today the
 * awaitables of TaskGroup::all(), race() and any() (group.h); await()
 * accepts it like a coroutine. It holds its TaskGroup, so that whatever
 * holds a Future keeps the group's results reachable.
 */
#include "api/future.h"

#include "api/awaitable.h"
#include "api/exceptions.h"
#include "api/group.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "zend_interfaces.h"
#include "stubs/future_arginfo.h"

zend_class_entry *async_ce_future;
static zend_object_handlers future_handlers;

static zend_object *future_create(zend_class_entry *ce)
{
	async_future *f = zend_object_alloc(sizeof(async_future), ce);
	f->aw = NULL;
	f->group = NULL;
	zend_object_std_init(&f->std, ce);
	object_properties_init(&f->std, ce);
	f->std.handlers = &future_handlers;
	return &f->std;
}

static void future_free(zend_object *obj)
{
	async_future *f = async_future_from_obj(obj);
	tasync_awaitable_release(f->aw);
	f->aw = NULL;
	if (f->group != NULL) {
		OBJ_RELEASE(f->group);
		f->group = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

static HashTable *future_get_gc(zend_object *obj, zval **table, int *num)
{
	async_future *f = async_future_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (f->group != NULL) {
		zend_get_gc_buffer_add_obj(buf, f->group);
	}
	void *value = NULL, *error = NULL;
	if (f->aw != NULL && ASYNC_G(rt) != NULL && tasync_awaitable_outcome(f->aw, &value, &error) != TASYNC_EBAD_STATE) {
		/* all()'s array is its own; race()'s value is a task's, shared. */
		if (value != NULL && async_value_refs(value) == 1) {
			zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
		}
		if (error != NULL) {
			zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

zend_object *async_future_create(tasync_awaitable_t *aw, zend_object *group)
{
	zval zv;
	object_init_ex(&zv, async_ce_future);
	async_future *f = async_future_from_obj(Z_OBJ(zv));
	f->aw = aw;
	f->group = group;
	if (group != NULL) {
		GC_ADDREF(group);
	}
	return Z_OBJ(zv);
}

ZEND_METHOD(Async_Future, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_throw_error(NULL, "Cannot directly construct Async\\Future, it is made by the runtime (TaskGroup::all() and friends)");
}

ZEND_METHOD(Async_Future, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	async_future *f = async_future_from_obj(Z_OBJ_P(ZEND_THIS));
	if (f->group == NULL || ASYNC_G(rt) == NULL || f->aw == NULL || tasync_awaitable_is_completed(f->aw)) {
		return; /* completed: nothing (as for a coroutine, C7) */
	}
	async_group *g = async_group_from_obj(f->group);
	if (g->group != NULL) {
		tasync_scope_cancel(tasync_group_scope(g->group), error);
		async_safe_point();
	}
}

ZEND_METHOD(Async_Future, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future *f = async_future_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_BOOL(f->aw != NULL && tasync_awaitable_is_completed(f->aw));
}

ZEND_METHOD(Async_Future, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future *f = async_future_from_obj(Z_OBJ_P(ZEND_THIS));
	void *value = NULL, *error = NULL;
	if (f->aw == NULL || ASYNC_G(rt) == NULL || tasync_awaitable_outcome(f->aw, &value, &error) != TASYNC_EFAILED) {
		RETURN_FALSE;
	}
	RETURN_BOOL(instanceof_function(((zend_object *) error)->ce, async_ce_cancellation_error));
}

/* The core awaitable behind a Future object (api/awaitable.c). */
static tasync_awaitable_t *future_awaitable(zend_object *obj)
{
	return async_future_from_obj(obj)->aw;
}

void async_register_future_class(void)
{
	async_ce_future = register_class_Async_Future(async_ce_future_like);
	async_awaitable_register(async_ce_future, future_awaitable);
	async_ce_future->create_object = future_create;
	memcpy(&future_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	future_handlers.offset = XtOffsetOf(async_future, std);
	future_handlers.free_obj = future_free;
	future_handlers.get_gc = future_get_gc;
	future_handlers.clone_obj = NULL;
}
