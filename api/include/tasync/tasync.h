/*
 * tasync/tasync.h - umbrella header: the whole stable C ABI.
 *
 *   version.h  ABI version numbers and export macros
 *   errors.h   error codes (negative errno or TASYNC_E*)
 *   reactor.h  the backend contract (what a reactor implements)
 *   backend.h  the backend's single entry symbol
 *   host.h     the table a host gives the core (values, errors, hooks)
 *   runtime.h  the runtime: coroutines, awaiting, timers, I/O, offload,
 *              shutdown and introspection
 *   scope.h    structured concurrency: scopes, protect, completion callbacks
 *   context.h  context slots of scopes and coroutines
 *   group.h    task groups
 *   await_many.h  awaiting many awaitables at once (all, any, any-of-N...)
 *   future.h   futures: single assignment, locations, derived futures (ABI 1.3)
 *   channel.h  channels between coroutines (ABI 1.3)
 *   pool.h     resource pools with a circuit breaker (ABI 1.3)
 */
#ifndef TASYNC_TASYNC_H
#define TASYNC_TASYNC_H

#include "version.h"
#include "errors.h"
#include "reactor.h"
#include "backend.h"
#include "host.h"
#include "runtime.h"
#include "scope.h"
#include "context.h"
#include "group.h"
#include "await_many.h"
#include "future.h"
#include "channel.h"
#include "pool.h"

#endif /* TASYNC_TASYNC_H */
