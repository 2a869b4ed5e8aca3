/*
 * api/timeout.c - Async\Timeout: a FutureLike over the core's timeout
 * (tasync_timeout_create, tasync_timeout_cancel; rule C21). It holds no PHP
 * values of its own (a cancellation error is the core's outcome, reported
 * to the garbage collector).
 */
#include "api/timeout.h"

#include "api/awaitable.h"
#include "api/exceptions.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"
#include "stubs/timeout_arginfo.h"

zend_class_entry *async_ce_timeout;
static zend_object_handlers timeout_handlers;

static zend_object *timeout_create(zend_class_entry *ce)
{
	async_timeout *t = zend_object_alloc(sizeof(async_timeout), ce);
	t->aw = NULL;
	zend_object_std_init(&t->std, ce);
	object_properties_init(&t->std, ce);
	t->std.handlers = &timeout_handlers;
	return &t->std;
}

static void timeout_free(zend_object *obj)
{
	async_timeout *t = async_timeout_from_obj(obj);
	tasync_awaitable_release(t->aw);
	t->aw = NULL;
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/* A cancelled timeout holds its cancellation error (which may refer back
 * to it through its trace). */
static HashTable *timeout_get_gc(zend_object *obj, zval **table, int *num)
{
	async_timeout *t = async_timeout_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	void *value = NULL, *error = NULL;
	if (t->aw != NULL && ASYNC_G(rt) != NULL && tasync_awaitable_outcome(t->aw, &value, &error) == TASYNC_EFAILED) {
		zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* Arms t for ms milliseconds from now; false with an exception thrown. */
bool async_timeout_init(async_timeout *t, zend_long ms, uint32_t arg_num)
{
	if (ms < 0) {
		zend_argument_value_error(arg_num, "must be greater than or equal to 0");
		return false;
	}
	if (t->aw != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		return false;
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return false;
	}
	int rc = tasync_timeout_create(rt, (uint64_t) ms * 1000000u, &t->aw);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		return false;
	}
	return true;
}

ZEND_METHOD(Async_Timeout, __construct)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	async_timeout_init(async_timeout_from_obj(Z_OBJ_P(ZEND_THIS)), ms, 1);
}

ZEND_METHOD(Async_Timeout, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	async_timeout *t = async_timeout_from_obj(Z_OBJ_P(ZEND_THIS));
	if (t->aw == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	tasync_timeout_cancel(t->aw, error);
	async_safe_point();
}

ZEND_METHOD(Async_Timeout, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_timeout *t = async_timeout_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_BOOL(t->aw != NULL && tasync_awaitable_is_completed(t->aw));
}

ZEND_METHOD(Async_Timeout, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_timeout *t = async_timeout_from_obj(Z_OBJ_P(ZEND_THIS));
	void *value = NULL, *error = NULL;
	if (t->aw == NULL || ASYNC_G(rt) == NULL || tasync_awaitable_outcome(t->aw, &value, &error) != TASYNC_EFAILED) {
		RETURN_FALSE;
	}
	RETURN_BOOL(instanceof_function(((zend_object *) error)->ce, async_ce_cancellation_error));
}

/* The core awaitable behind a Timeout object (api/awaitable.c). */
static tasync_awaitable_t *timeout_awaitable(zend_object *obj)
{
	return async_timeout_from_obj(obj)->aw;
}

void async_register_timeout_class(void)
{
	async_ce_timeout = register_class_Async_Timeout(async_ce_future_like);
	async_awaitable_register(async_ce_timeout, timeout_awaitable);
	async_ce_timeout->create_object = timeout_create;
	memcpy(&timeout_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	timeout_handlers.offset = XtOffsetOf(async_timeout, std);
	timeout_handlers.free_obj = timeout_free;
	timeout_handlers.get_gc = timeout_get_gc;
	timeout_handlers.clone_obj = NULL;
}
