/*
 * api/task_set.h - Async\TaskSet and its iterator (api/task_set.c).
 */
#ifndef ASYNC_API_TASK_SET_H
#define ASYNC_API_TASK_SET_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_task_set;

void async_register_task_set_class(void);

#endif /* ASYNC_API_TASK_SET_H */
