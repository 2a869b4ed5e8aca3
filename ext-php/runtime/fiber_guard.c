/*
 * runtime/fiber_guard.c - rule C13: Fibers and coroutines exclude each
 * other.
 *
 * Fiber::__construct is wrapped: once this request uses True Async (its
 * runtime exists), `new Fiber` throws FiberError; once a Fiber was
 * constructed, the async API refuses to start (async_runtime()).
 */
#include "runtime/fiber_guard.h"

#include "runtime/globals.h"

#include "zend_fibers.h"

static zif_handler original_fiber_construct;
static zend_class_entry *fiber_error_ce;

static ZEND_NAMED_FUNCTION(async_fiber_construct)
{
	if (ASYNC_G(rt) != NULL) {
		zend_throw_error(fiber_error_ce, "Cannot create a fiber while an True Async is active");
		RETURN_THROWS();
	}
	ASYNC_G(fiber_used) = true;
	original_fiber_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_fiber_guard_startup(void)
{
	zend_function *ctor = zend_ce_fiber->constructor;
	fiber_error_ce = zend_hash_str_find_ptr(CG(class_table), "fibererror", sizeof("fibererror") - 1);
	if (fiber_error_ce == NULL) {
		fiber_error_ce = zend_ce_error;
	}
	if (ctor != NULL && ctor->type == ZEND_INTERNAL_FUNCTION) {
		original_fiber_construct = ctor->internal_function.handler;
		ctor->internal_function.handler = async_fiber_construct;
	}
}

void async_fiber_guard_shutdown(void)
{
	zend_function *ctor = zend_ce_fiber->constructor;
	if (original_fiber_construct != NULL && ctor != NULL && ctor->internal_function.handler == async_fiber_construct) {
		ctor->internal_function.handler = original_fiber_construct;
	}
	original_fiber_construct = NULL;
}
