/*
 * api/scope_holds.h - who holds a core scope besides its Scope object
 * (api/scope_holds.c).
 */
#ifndef ASYNC_API_SCOPE_HOLDS_H
#define ASYNC_API_SCOPE_HOLDS_H

#include "runtime/globals.h"

/* Marks the core scope as held (or no longer) by a PHP object other than
 * its Scope object (see api/scope.c's garbage collection notes). */
void async_scope_hold(tasync_scope_t *scope);
void async_scope_unhold(tasync_scope_t *scope);
/* Nothing but its Scope object holds the scope: no unfinished coroutine in
 * its subtree, no child scope, no other PHP object. */
bool async_scope_held_alone(tasync_scope_t *scope);
/* The Context object of the scope while one lives (weak); set and cleared
 * by api/context.c. */
zend_object **async_scope_context_slot(tasync_scope_t *scope);
/* RINIT / RSHUTDOWN: the request's table. */
void async_scope_extras_init(void);
void async_scope_extras_destroy(void);

#endif /* ASYNC_API_SCOPE_HOLDS_H */
