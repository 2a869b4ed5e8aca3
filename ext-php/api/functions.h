/*
 * api/functions.h - the functions of the Async namespace and the Awaitable /
 * FutureLike interfaces (api/functions.c; the await_*() combinators are in
 * api/await_many.c, iterate() in api/iterate.c, signal() in
 * runtime/signal.c).
 */
#ifndef ASYNC_API_FUNCTIONS_H
#define ASYNC_API_FUNCTIONS_H

#include "runtime/globals.h"

/* The function table of the Async namespace (the module's). */
extern const zend_function_entry *async_functions;

/* enum Async\Signal (signal()'s argument and result). */
extern zend_class_entry *async_ce_signal;

/* Registers Awaitable and FutureLike (api/awaitable.h), ScopeProvider and
 * SpawnStrategy, and the Signal enum, whose arginfo this file holds. */
void async_register_interfaces(void);

#endif /* ASYNC_API_FUNCTIONS_H */
