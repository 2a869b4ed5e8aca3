/*
 * api/functions.h - the functions of the Async namespace and the Awaitable /
 * FutureLike interfaces (api/functions.c, api/await_many.c).
 */
#ifndef ASYNC_API_FUNCTIONS_H
#define ASYNC_API_FUNCTIONS_H

#include "runtime/globals.h"

/* The function table of the Async namespace (the module's). */
extern const zend_function_entry *async_functions;

/* Registers Awaitable and FutureLike (api/awaitable.h), and ScopeProvider,
 * whose arginfo this file holds. */
void async_register_interfaces(void);

#endif /* ASYNC_API_FUNCTIONS_H */
