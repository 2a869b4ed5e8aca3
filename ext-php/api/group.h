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

void async_register_group_class(void);

#endif /* ASYNC_API_GROUP_H */
