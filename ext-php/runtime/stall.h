/*
 * runtime/stall.h - rule C25: async.stall_timeout and the stall report
 * (runtime/stall.c).
 */
#ifndef ASYNC_RUNTIME_STALL_H
#define ASYNC_RUNTIME_STALL_H

#include "runtime/globals.h"

/* The ini handler of async.stall_timeout (seconds, 0: no watchdog). */
ZEND_INI_MH(async_on_update_stall_timeout);

/* Sets up a new runtime's watchdog from the ini setting. */
void async_stall_runtime_created(tasync_runtime_t *rt);

/* The host table's stall_report member: called on the watchdog's thread
 * while the PHP thread is stuck (see runtime/stall.c for what it may read). */
size_t async_stall_report(void *host_data, const tasync_stall_info_t *info, char *buf, size_t len);

#endif /* ASYNC_RUNTIME_STALL_H */
