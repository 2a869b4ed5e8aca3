/*
 * api/scope.h - Async\Scope and Async\ScopeProvider (api/scope.c).
 */
#ifndef ASYNC_API_SCOPE_H
#define ASYNC_API_SCOPE_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_scope;
extern zend_class_entry *async_ce_scope_provider;
extern zend_class_entry *async_ce_spawn_strategy;

struct async_handler;

/*
 * One object per core scope while it lives (the scope's host data points
 * at it). The object that new Scope() or Scope::inherit() made owns the
 * scope: destroying it disposes the scope (S8). Objects made later for the
 * same scope (a parent, a child, a handler's argument) only stand for it.
 */
typedef struct async_scope {
	tasync_scope_t *scope;           /* one reference */
	struct async_handler *handlers[2]; /* set through this object (weak) */
	bool owner;
	bool is_global;
	bool allow_zombies;              /* allowZombies(): disposed safely when released */
	zend_object std;
} async_scope;

static inline async_scope *async_scope_from_obj(zend_object *obj)
{
	return (async_scope *) ((char *) obj - XtOffsetOf(async_scope, std));
}

/* The Scope object standing for scope (a new reference). */
zend_object *async_scope_object_for(tasync_scope_t *scope);
/* The scope a ScopeProvider provides (borrowed), NULL for "the current
 * one"; false with an exception thrown. */
bool async_scope_of_provider(zend_object *provider, tasync_scope_t **out);

void async_register_scope_class(void);

#endif /* ASYNC_API_SCOPE_H */
