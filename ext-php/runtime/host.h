/*
 * runtime/host.h - PHP values and errors as the core sees them, the safe
 * points where PHP code may run again after a core call, and the members
 * of the host table (runtime/host.c).
 */
#ifndef ASYNC_RUNTIME_HOST_H
#define ASYNC_RUNTIME_HOST_H

#include "runtime/globals.h"

/* Boxed PHP value handed to the core (refcounted by the core). */
void *async_value_box(zval *value);
/* Copies the boxed value into dst (NULL box: null). */
void async_value_unbox(void *box, zval *dst);
/* The zval inside a box (borrowed). */
zval *async_value_zval(void *box);
/* How many holders share a box (the garbage collector may only be told
 * about a value its reporter holds alone). */
uint32_t async_value_refs(void *box);

/* Frees the VM stack pages that zend_vm_stack_extend() added to s (emalloc'd),
 * leaving the first page, which is not PHP's to free. */
void async_vm_free_pages(async_vm_state *s);

/*
 * Rule C23, the output buffers of the current coroutine (in OG()):
 * async_output_start() gives a coroutine that starts a stack of its own,
 * empty (its output goes to the SAPI); async_output_end() flushes what it
 * left open, in order, as PHP does at the end of a request (output
 * callbacks run), and frees the stack.
 */
void async_output_start(void);
void async_output_end(void);

/* Queues a zval (whose reference we own) to be released at a safe point. */
void async_defer_release(zval *zv);
/* Queues node->run(node) for the next safe point; allocates nothing. */
void async_defer_free(async_deferred_free *node, void (*run)(async_deferred_free *node));

/*
 * A safe point: PHP code may run. Shows the warnings the core reported and
 * runs the releases postponed out of core callbacks.
 */
void async_safe_point(void);

/*
 * Called in PHP functions right after a core call that may have switched
 * coroutines: runs async_safe_point(), then, when the request is being
 * aborted (exit or a fatal error elsewhere), makes this coroutine unwind.
 * Returns false when the caller must return at once (an exception or
 * unwind_exit is pending).
 */
bool async_after_switch(void);

/* Throws the error object the core handed over (takes the reference), or an
 * AsyncException describing rc when err is NULL. */
void async_throw_error(int rc, void *err);

/* The end of a PHP method after a core call that may have switched
 * coroutines: when async_after_switch() says to return, err is released;
 * otherwise rc's error is thrown (nothing for rc 0). */
void async_switch_done(int rc, void *err);

/*
 * Rule C22 through the core's tasync_runtime_abort: every unfinished
 * coroutine is marked aborted and woken, so that it unwinds; mode is
 * TASYNC_ABORT_FATAL after a fatal error (the main flow bails out at its
 * resume too) or TASYNC_ABORT_END at the end of the request.
 */
void async_abort_all(int mode);

/* True when co was aborted (rule C22, TASYNC_CO_ABORTED): it runs no more
 * user code. */
static zend_always_inline bool async_coroutine_aborted(const tasync_coroutine_t *co)
{
	return ASYNC_G(aborting) && co != NULL && (tasync_coroutine_flags(co) & TASYNC_CO_ABORTED) != 0;
}

/*
 * True once a fatal error happened in this request (rule C22). PHP reports
 * most fatal errors with a bailout (a longjmp to the nearest zend_try), but
 * some by unwinding: Debian's PHP 8.2 delays an out-of-memory error to the
 * next VM interrupt (zend_handle_delayed_oom), which prints the message,
 * catches its own bailout and then throws unwind_exit, the very exception
 * exit() throws. Every fatal error went through _zend_bailout(), which sets
 * CG(unclean_shutdown) for the rest of the request; exit() never sets it
 * (it only unwinds), nor does an uncaught exception (reported with
 * E_DONT_BAIL). So an unwind_exit seen while it is set ends the request as a
 * fatal error, whoever threw it.
 */
static zend_always_inline bool async_request_failed(void)
{
	return CG(unclean_shutdown) != 0;
}

/* An exception already unwinding, kept aside while PHP code runs from a
 * destructor or a core callback, then put back: as the previous of one
 * thrown meanwhile, or as it was. */
typedef struct async_exception_aside {
	zend_object *exception;
	const zend_op *opline;
} async_exception_aside;
void async_exception_set_aside(async_exception_aside *a);
void async_exception_restore(const async_exception_aside *a);
/* After a core call that may have run PHP code: the safe point, a pending
 * bailout, then rc's error thrown (or an unused error released). */
void async_core_call_done(int rc, void *err);

/*
 * Runs the releases queued so far (not the warnings). Called by free_obj
 * handlers right after they dropped a core reference: what the core let go
 * of then must be released before the object's memory can be reused, above
 * all while the garbage collector destroys a cycle (it frees every object
 * of the cycle once all their free_obj handlers ran).
 */
void async_flush_releases(void);

/* Drops a core scope reference at the next safe point. */
void async_defer_scope_release(tasync_scope_t *scope);

/*
 * Calls a PHP callable from inside a core callback (an exception handler,
 * an error handler): only on a PHP coroutine's own VM state; a fatal error
 * is caught and re-raised by async_rethrow_bailout() once the core returned.
 * Returns false when it could not run or bailed out. *thrown receives the
 * exception it threw (a reference) or NULL; an exception that was already
 * pending is left as it was.
 */
bool async_call_from_core(zval *callable, zval *retval, uint32_t argc, zval *argv, zend_object **thrown);
/* After a core call that may have called PHP code: re-raises its bailout. */
void async_rethrow_bailout(void);

/* ------------------------------------------- members of the host table */

/*
 * The core's callbacks into PHP (tasync_host_t, api/include/tasync/host.h)
 * that this file implements; the module (async.c) puts them in the table
 * with those of api/spawn.c (coroutine_free), io/wait.c (may_suspend,
 * wait_end) and runtime/stall.c (stall_report).
 */
void async_host_value_retain(void *hd, void *value);
void async_host_value_release(void *hd, void *value);
void async_host_error_retain(void *hd, void *error);
void async_host_error_release(void *hd, void *error);
void *async_host_error_create(void *hd, int kind, int code, const char *message);
int async_host_error_is_cancellation(void *hd, void *error);
size_t async_host_error_describe(void *hd, void *error, char *buf, size_t len);
void async_host_coroutine_enter(void *hd, tasync_coroutine_t *co, void *co_data);
void async_host_coroutine_leave(void *hd, tasync_coroutine_t *co, void *co_data);
void async_host_warning(void *hd, const char *message);
void async_host_warning_at(void *hd, const char *message, const tasync_location_t *where);
int async_host_capture_location(void *hd, tasync_location_t *out);

/* At the request's end, once the runtime is gone: the warnings its
 * teardown reported are dropped unseen, and what it handed back is
 * released. */
void async_host_discard_warnings(void);

/* Context keys: an object key is the object's pointer tagged with 1, a
 * host value the core retains and releases (api/context.c). */
#define ASYNC_OBJECT_KEY(obj) ((void *) ((uintptr_t) (obj) | 1u))
#define ASYNC_IS_OBJECT_KEY(v) (((uintptr_t) (v) & 1u) != 0)
#define ASYNC_KEY_OBJECT(v) ((zend_object *) ((uintptr_t) (v) & ~(uintptr_t) 1u))

#endif /* ASYNC_RUNTIME_HOST_H */
