/*
 * api/pool.h - Async\Pool, the CircuitBreaker interfaces and
 * CircuitBreakerState (api/pool.c, rule T3).
 */
#ifndef ASYNC_API_POOL_H
#define ASYNC_API_POOL_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_pool;
extern zend_class_entry *async_ce_circuit_breaker;
extern zend_class_entry *async_ce_circuit_breaker_strategy;
extern zend_class_entry *async_ce_circuit_breaker_state;

void async_register_pool_class(void);

#endif /* ASYNC_API_POOL_H */
