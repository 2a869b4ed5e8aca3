/*
 * api/context.h - Async\Context and currentContext() & co. (api/context.c).
 */
#ifndef ASYNC_API_CONTEXT_H
#define ASYNC_API_CONTEXT_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_context;

/* A scope's context (holding the scope), a coroutine's (holding the
 * Coroutine object, which holds the coroutine), or a free-standing one
 * made by new Context() (holding the core context). */
typedef struct async_context {
	tasync_scope_t *scope;           /* one reference (none on the global scope) */
	bool is_global;
	zend_object *coroutine;          /* one reference */
	tasync_context_t *own;           /* free-standing: one reference */
	zend_object std;
} async_context;

static inline async_context *async_context_from_obj(zend_object *obj)
{
	return (async_context *) ((char *) obj - XtOffsetOf(async_context, std));
}

/* A Context object for the scope's context (a new reference). */
zend_object *async_scope_context_object(tasync_scope_t *scope);
/* A Context object for a coroutine's private context (a new reference). */
zend_object *async_context_for_coroutine(zend_object *coroutine);
/* Reports a context's values to the garbage collector. */
void async_context_gc(tasync_context_t *ctx, zend_get_gc_buffer *buf);

void async_register_context_class(void);

#endif /* ASYNC_API_CONTEXT_H */
