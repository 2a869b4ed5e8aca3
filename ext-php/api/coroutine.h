/*
 * api/coroutine.h - Async\Coroutine, the handle object (api/coroutine.c).
 */
#ifndef ASYNC_API_COROUTINE_H
#define ASYNC_API_COROUTINE_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_coroutine;

/* Async\Coroutine: a handle on a core coroutine (rule S10's Future
 * semantics count it); one object per coroutine while the object lives. */
typedef struct async_coroutine_obj {
	tasync_coroutine_t *co;          /* one reference (a handle), released in free_obj */
	zend_object *context;            /* its Context object while one lives (weak) */
	bool is_main;
	bool has_context;                /* a Context object was made for it */
	zend_object std;
} async_coroutine_obj;

static inline async_coroutine_obj *async_coroutine_obj_from(zend_object *obj)
{
	return (async_coroutine_obj *) ((char *) obj - XtOffsetOf(async_coroutine_obj, std));
}

/* The Coroutine object standing for co (a new reference). */
zend_object *async_coroutine_object_for(tasync_coroutine_t *co);
/* The Coroutine object of the main flow, made on first use (borrowed). */
zend_object *async_main_coroutine_object(void);
/* RSHUTDOWN, before the runtime goes: the main coroutine dies with it, its
 * object (if one was made) is detached. */
void async_coroutine_main_detach(void);

void async_register_coroutine_class(void);

#endif /* ASYNC_API_COROUTINE_H */
