/*
 * runtime/request.h - the runtime's lifetime in a PHP request and the end
 * of the script (runtime/request.c). The module calls these in MINIT,
 * RINIT and RSHUTDOWN.
 */
#ifndef ASYNC_RUNTIME_REQUEST_H
#define ASYNC_RUNTIME_REQUEST_H

#include "runtime/globals.h"

/* MINIT: the observer of the main script's end (C7 for the main flow) and
 * the end-of-script function, which belongs to module. */
void async_request_startup(zend_module_entry *module);

/* RINIT: no runtime yet, empty queues, and the first shutdown function of
 * the request registered (the end of script). */
void async_request_begin(void);

/* RSHUTDOWN, first: when the request made a runtime, runs what shutdown
 * functions and destructors started (C16, C19), unwinds what is left and
 * returns true; the module then lets every wing let go of the runtime and
 * destroys it (async_runtime_destroy). False when there is none. */
bool async_request_unwind(void);

/* RSHUTDOWN, last: frees the request's queues. */
void async_request_end(void);

#endif /* ASYNC_RUNTIME_REQUEST_H */
