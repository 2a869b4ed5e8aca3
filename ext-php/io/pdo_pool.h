/*
 * io/pdo_pool.h - PDO::ATTR_POOL_ENABLED (io/pdo_pool.c), called by
 * io/pdo.c's wrappers of PDO's constructor and PDOStatement::execute().
 */
#ifndef ASYNC_IO_PDO_POOL_H
#define ASYNC_IO_PDO_POOL_H

#include "php.h"
#include <tasync/host.h>

/* Wraps PDO's methods and declares PDO::ATTR_POOL_* once PDO is loaded. */
void async_pdo_pool_startup(void);
void async_pdo_pool_request_shutdown(void);
/* Before PDO's constructor: true when it made (or failed) a pooled object. */
bool async_pdo_pool_construct(INTERNAL_FUNCTION_PARAMETERS);
/* The PHP code of a coroutine is over (in it): connections its
 * statements still hold stay counted by their pool (lent to nobody). */
void async_pdo_pool_coroutine_end(tasync_coroutine_t *co);
/* After a statement's execute() failed. */
void async_pdo_pool_statement_failed(zend_object *stmt);
/* async.pdo_pool_layout_fault (test only): 1, 2 simulate a layout mismatch. */
extern zend_long async_pdo_pool_layout_fault;

#endif /* ASYNC_IO_PDO_POOL_H */
