/*
 * api/awaitable.c - what stands behind an Awaitable object: each class
 * implementing Async\Awaitable registers how to find its core awaitable
 * (api/awaitable.h). Only the extension's classes can implement it
 * (api/functions.c refuses user classes): the core must know them.
 */
#include "api/awaitable.h"

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
