/*
 * api/future.h - Async\Future and Async\FutureState (api/future.c, rule T2).
 */
#ifndef ASYNC_API_FUTURE_H
#define ASYNC_API_FUTURE_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_future;
extern zend_class_entry *async_ce_future_state;

/* What a Future stands for, which decides what cancel() stops. */
typedef enum async_future_kind {
	/* A core future the extension completes (FutureState's, completed(),
	 * failed(), map/catch/finally's, a TaskSet's joins, signal()):
	 * cancel() completes it with the cancellation. */
	ASYNC_FUTURE_PLAIN = 0,
	/* An awaitable of a TaskGroup (all, race, any): cancel() cancels the
	 * group's tasks. */
	ASYNC_FUTURE_GROUP,
	/* A channel operation (Channel::recvAsync): cancel() withdraws it. */
	ASYNC_FUTURE_CHANNEL_OP,
} async_future_kind;

typedef struct async_future {
	tasync_awaitable_t *aw;          /* one reference */
	/* What made it, kept reachable while the Future lives (one reference):
	 * its TaskGroup, FutureState, Channel or TaskSet; NULL for none. */
	zend_object *owner;
	/* A coroutine working for it (signal()'s wait; a handle): cancelled
	 * with the future, or when the Future goes before it completed. */
	tasync_coroutine_t *worker;
	async_future_kind kind;
	zend_object std;
} async_future;

static inline async_future *async_future_from_obj(zend_object *obj)
{
	return (async_future *) ((char *) obj - XtOffsetOf(async_future, std));
}

/* A Future object for a core awaitable (takes the reference) made by owner
 * (retained; may be NULL). */
zend_object *async_future_create(tasync_awaitable_t *aw, async_future_kind kind, zend_object *owner);

/* A new pending core future whose unobserved failure is reported (rule
 * T2), created here (the caller's location); NULL with an exception
 * thrown when there is no runtime. */
tasync_awaitable_t *async_future_new(void);

/* Completes a core future with value (copied; NULL: null) or error; 0, or
 * the core's code (TASYNC_EFUTURE_COMPLETED when it was completed). */
int async_future_settle(tasync_awaitable_t *aw, zval *value, zend_object *error);

/* The coroutines awaiting aw now, as Coroutine objects, into return_value. */
void async_awaiting_coroutines(tasync_awaitable_t *aw, zval *return_value);

void async_register_future_class(void);

#endif /* ASYNC_API_FUTURE_H */
