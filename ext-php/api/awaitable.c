/*
 * api/awaitable.c - what stands behind an Awaitable object: each class
 * implementing Async\Awaitable registers how to find its core awaitable
 * (api/awaitable.h). Only the extension's classes can implement it
 * (api/functions.c refuses user classes): the core must know them.
 */
#include "api/awaitable.h"

#include "api/exceptions.h"
#include "runtime/host.h"

zend_class_entry *async_ce_awaitable;
zend_class_entry *async_ce_future_like;

/* Coroutine, Timeout, Future: room for the concurrency types to come. */
#define AWAITABLE_CLASSES_MAX 16

static struct {
	zend_class_entry *ce;
	tasync_awaitable_t *(*of)(zend_object *obj);
} awaitable_classes[AWAITABLE_CLASSES_MAX];
static uint32_t awaitable_class_count;

void async_awaitable_register(zend_class_entry *ce, tasync_awaitable_t *(*of)(zend_object *obj))
{
	ZEND_ASSERT(awaitable_class_count < AWAITABLE_CLASSES_MAX);
	awaitable_classes[awaitable_class_count].ce = ce;
	awaitable_classes[awaitable_class_count].of = of;
	awaitable_class_count++;
}

tasync_awaitable_t *async_awaitable_of(zend_object *obj)
{
	for (uint32_t i = 0; i < awaitable_class_count; i++) {
		if (instanceof_function(obj->ce, awaitable_classes[i].ce)) {
			return awaitable_classes[i].of(obj);
		}
	}
	return NULL;
}

bool async_cancellation_of(zend_object *obj, tasync_awaitable_t **out)
{
	*out = obj != NULL ? async_awaitable_of(obj) : NULL;
	if (obj != NULL && *out == NULL) {
		zend_throw_exception(async_ce_async_exception, "The awaitable belongs to a runtime that no longer exists", 0);
		return false;
	}
	return true;
}

void async_await_object(tasync_runtime_t *rt, zend_object *obj, tasync_awaitable_t *what, zend_object *cancel_obj,
	tasync_awaitable_t *cancellation, zval *return_value)
{
	/* The caller may drop the objects while it waits. */
	GC_ADDREF(obj);
	if (cancel_obj != NULL) {
		GC_ADDREF(cancel_obj);
	}
	void *value = NULL, *err = NULL;
	int rc = tasync_await(rt, what, cancellation, &value, &err);
	OBJ_RELEASE(obj);
	if (cancel_obj != NULL) {
		OBJ_RELEASE(cancel_obj);
	}
	if (!async_after_switch()) {
		tasync_value_release(rt, value);
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return;
	}
	if (rc == 0) {
		async_value_unbox(value, return_value);
		tasync_value_release(rt, value);
		return;
	}
	tasync_value_release(rt, value);
	async_throw_error(rc, err);
}
