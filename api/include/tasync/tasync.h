/*
 * tasync/tasync.h - umbrella header: the whole stable C ABI.
 *
 *   version.h  ABI version numbers and export macros
 *   errors.h   error codes (negative errno or TASYNC_E*)
 *   reactor.h  the backend contract (what a reactor implements)
 *   backend.h  the backend's single entry symbol
 *   host.h     the table a host gives the core (values, errors, hooks)
 *   runtime.h  the runtime: coroutines, awaiting, timers, I/O, offload
 */
#ifndef TASYNC_TASYNC_H
#define TASYNC_TASYNC_H

#include "version.h"
#include "errors.h"
#include "reactor.h"
#include "backend.h"
#include "host.h"
#include "runtime.h"

#endif /* TASYNC_TASYNC_H */
