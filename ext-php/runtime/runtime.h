/*
 * runtime/runtime.h - the request's runtime (runtime/runtime.c).
 */
#ifndef ASYNC_RUNTIME_RUNTIME_H
#define ASYNC_RUNTIME_RUNTIME_H

#include "runtime/globals.h"

/* The request's runtime, created on first use; NULL with an exception
 * thrown when it cannot be created (or Fibers are in use, C13). */
tasync_runtime_t *async_runtime(void);

/* MINIT: the host table runtimes are created with (the module assembles
 * it from the wings' members; it outlives every runtime). */
void async_runtime_set_host(const tasync_host_t *host);

/* Creates a runtime on this thread with the ini settings (the request's,
 * or a short-lived one for phpinfo()). Returns 0, or the core's code with
 * the reason in errbuf. */
int async_runtime_create(tasync_runtime_t **out, char *errbuf, size_t errbuf_size);

/* RSHUTDOWN, once every wing let go of it: the request's runtime goes. */
void async_runtime_destroy(void);

#endif /* ASYNC_RUNTIME_RUNTIME_H */
