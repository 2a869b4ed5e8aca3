/*
 * api/future.h - Async\Future, the awaitables of TaskGroup (api/future.c).
 */
#ifndef ASYNC_API_FUTURE_H
#define ASYNC_API_FUTURE_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_future;

typedef struct async_future {
	tasync_awaitable_t *aw;          /* one reference */
	zend_object *group;              /* the TaskGroup that made it (one reference) */
	zend_object std;
} async_future;

static inline async_future *async_future_from_obj(zend_object *obj)
{
	return (async_future *) ((char *) obj - XtOffsetOf(async_future, std));
}

/* A Future object for a core awaitable (takes the reference) made by group. */
zend_object *async_future_create(tasync_awaitable_t *aw, zend_object *group);

void async_register_future_class(void);

#endif /* ASYNC_API_FUTURE_H */
