/*
 * api/awaitable.h - Async\Awaitable and Async\FutureLike, the interfaces of
 * what a coroutine can await, and the core awaitable behind such an object
 * (api/awaitable.c). The classes that implement them (Coroutine, Future,
 * Timeout) register how to find theirs, so that code awaiting an object
 * knows none of them.
 */
#ifndef ASYNC_API_AWAITABLE_H
#define ASYNC_API_AWAITABLE_H

#include "runtime/globals.h"

/* Registered by api/functions.c, which holds the interfaces' arginfo. */
extern zend_class_entry *async_ce_awaitable;
extern zend_class_entry *async_ce_future_like;

/* MINIT: objects of class ce (and its subclasses) are awaited through
 * of(object) (borrowed, NULL when there is nothing to await). */
void async_awaitable_register(zend_class_entry *ce, tasync_awaitable_t *(*of)(zend_object *obj));

/* The tasync awaitable behind an Awaitable object (borrowed), or NULL. */
tasync_awaitable_t *async_awaitable_of(zend_object *obj);

/* The core awaitable of an optional cancellation argument (*out NULL for
 * obj NULL); false with an AsyncException thrown when there is none (the
 * object belongs to a runtime that no longer exists). */
bool async_cancellation_of(zend_object *obj, tasync_awaitable_t **out);

/* Async\await() and Future::await(): waits in the current coroutine for
 * what (behind obj), cancelled by cancellation (behind cancel_obj, or
 * both NULL), keeping both objects alive meanwhile. The result is
 * return_value; a failure is thrown. */
void async_await_object(tasync_runtime_t *rt, zend_object *obj, tasync_awaitable_t *what, zend_object *cancel_obj,
	tasync_awaitable_t *cancellation, zval *return_value);

#endif /* ASYNC_API_AWAITABLE_H */
