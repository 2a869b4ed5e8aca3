/*
 * api/exceptions.h - the exception classes and the error factory the core
 * uses (api/exceptions.c).
 */
#ifndef ASYNC_API_EXCEPTIONS_H
#define ASYNC_API_EXCEPTIONS_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_async_exception;
extern zend_class_entry *async_ce_cancellation_error;
extern zend_class_entry *async_ce_await_cancelled;
extern zend_class_entry *async_ce_deadlock_error;
extern zend_class_entry *async_ce_timeout_exception;
extern zend_class_entry *async_ce_channel_close_reason;
extern zend_class_entry *async_ce_channel_exception;
extern zend_class_entry *async_ce_pool_exception;
extern zend_class_entry *async_ce_service_unavailable;
extern zend_class_entry *async_ce_composite_exception;

void async_register_exceptions(void);

/* A new exception object of the class the core asks for (one reference). */
zend_object *async_error_create(int kind, int code, const char *message);
/* A CompositeException listing errors[0..n) (new reference). */
zend_object *async_composite_create(const char *message, zend_object **errors, size_t n);

/* An exception object with no trace and an explicit location. */
zend_object *async_error_create_at(zend_class_entry *ce, const char *message, zend_string *file, zend_long line);

#endif /* ASYNC_API_EXCEPTIONS_H */
