/*
 * api/timeout.h - Async\Timeout (api/timeout.c).
 */
#ifndef ASYNC_API_TIMEOUT_H
#define ASYNC_API_TIMEOUT_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_timeout;

typedef struct async_timeout {
	tasync_awaitable_t *aw;          /* one reference */
	zend_object std;
} async_timeout;

static inline async_timeout *async_timeout_from_obj(zend_object *obj)
{
	return (async_timeout *) ((char *) obj - XtOffsetOf(async_timeout, std));
}

/* Makes t a timeout of ms milliseconds (Async\timeout()); false with an
 * exception thrown for a bad value (argument arg_num). */
bool async_timeout_init(async_timeout *t, zend_long ms, uint32_t arg_num);

void async_register_timeout_class(void);

#endif /* ASYNC_API_TIMEOUT_H */
