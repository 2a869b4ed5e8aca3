/*
 * api/group.h - Async\TaskGroup and its iterator (api/group.c).
 */
#ifndef ASYNC_API_GROUP_H
#define ASYNC_API_GROUP_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_task_group;

typedef struct async_group {
	tasync_group_t *group;           /* one reference */
	zend_object std;
} async_group;

static inline async_group *async_group_from_obj(zend_object *obj)
{
	return (async_group *) ((char *) obj - XtOffsetOf(async_group, std));
}

/*
 * new TaskGroup()'s (and new TaskSet()'s) arguments: ?int $concurrency,
 * ?int $queueLimit, ?Scope $scope; the group made from them (its scope
 * held, api/scope_holds.h), or NULL with an exception thrown.
 */
tasync_group_t *async_group_new(INTERNAL_FUNCTION_PARAMETERS, void *(*build)(void *data, tasync_group_t *group));

/* spawn(callable, ...$args) or, with_key, spawnWithKey($key, callable,
 * ...$args) into group (NULL: gone, an exception is thrown); the Coroutine
 * into return_value. */
void async_group_spawn_call(INTERNAL_FUNCTION_PARAMETERS, tasync_group_t *group, bool with_key);

/*
 * finally(Closure $callback) of a group (TaskGroup, TaskSet): $callback($this)
 * in a coroutine of its own once the group is closed and everything in it
 * has finished; at once, awaited before this returns, when that is so
 * already. group NULL: gone (an exception is thrown).
 */
void async_group_finally(INTERNAL_FUNCTION_PARAMETERS, tasync_group_t *group);

void async_register_group_class(void);

#endif /* ASYNC_API_GROUP_H */
