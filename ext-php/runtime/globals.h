/*
 * runtime/globals.h - the extension's module globals (ini settings and the
 * request's runtime state, ASYNC_G) and the executor state one coroutine
 * owns. Every file of the extension reads them; the module (async.c)
 * declares them.
 */
#ifndef ASYNC_RUNTIME_GLOBALS_H
#define ASYNC_RUNTIME_GLOBALS_H

#include "php.h"
#include "zend_exceptions.h"

#include <tasync/tasync.h>

/*
 * The executor state one coroutine owns: what php-src's Fibers capture and
 * restore on a switch (Zend/zend_fibers.c, zend_fiber_vm_state), plus the
 * engine state rule C23 makes per coroutine (see runtime/host.c). Saved in
 * the host's coroutine_leave hook, restored in coroutine_enter.
 */
typedef struct async_vm_state {
	zend_vm_stack vm_stack;
	/* The coroutine's first page, in its entry frame on its own C stack (see
	 * api/spawn.c): the chain from vm_stack ends here and this page is never
	 * efree()d. NULL for the main flow. */
	zend_vm_stack vm_stack_first;
	zval *vm_stack_top;
	zval *vm_stack_end;
	size_t vm_stack_page_size;
	zend_execute_data *current_execute_data;
	int error_reporting;
	uint32_t jit_trace_num;
	JMP_BUF *bailout;
	/* Rule C13: the Fiber running in this coroutine and the context it is
	 * in (its own, a Fiber's, or the main flow's), and the coroutine's own
	 * zend_fiber_context, made in fiber mode (runtime/fibers.c). */
	zend_fiber *active_fiber;
	zend_fiber_context *fiber_context;
	zend_fiber_context *own_fiber_context;
	/* Rule C23: the error-handling mode of zend_replace_error_handling()
	 * (an EH_THROW window may suspend) ... */
	zend_error_handling_t error_handling;
	zend_class_entry *exception_class;
	/* ... and the output-buffer stack of main/output.c (OG()). */
	zend_stack ob_handlers;
	php_output_handler *ob_active;
	php_output_handler *ob_running;
#ifdef ZEND_CHECK_STACK_LIMIT
	/* PHP 8.3+: the C stack bounds the engine checks recursion against. */
	void *stack_base;
	void *stack_limit;
#endif
} async_vm_state;

/* async.file_offload: which plain-file operations of coroutines go through
 * the backend (io/filesystems.c). */
typedef enum async_file_offload_mode {
	ASYNC_IO_OFFLOAD_AUTO = 0,   /* "auto": where they may stall */
	ASYNC_IO_OFFLOAD_ALWAYS,     /* "always": all of them */
	ASYNC_IO_OFFLOAD_NEVER,      /* "never": none (PHP's own) */
} async_file_offload_mode;

/*
 * A release postponed out of a core callback that needs no memory of its
 * own: the node lives inside what it frees (a coroutine's record), so that
 * postponing thousands of them (an abort ending every coroutine after memory
 * ran out, rule C22) allocates nothing. run() is called at the next safe
 * point (runtime/host.c, async_defer_free).
 */
typedef struct async_deferred_free {
	struct async_deferred_free *next;
	void (*run)(struct async_deferred_free *node);
} async_deferred_free;

/* A warning the core reported and where to report it (file borrowed: the
 * host keeps captured file names until the request ends). */
typedef struct async_warning {
	zend_string *message;
	tasync_location_t where;
} async_warning;

ZEND_BEGIN_MODULE_GLOBALS(async)
	/* ini */
	char *reactor;
	char *backend_dir;
	double zombie_timeout;
	zend_long stack_size;
	zend_long stack_cache;
	double stall_timeout;            /* seconds, 0: no watchdog (C25) */
	zend_long file_offload;          /* async.file_offload: ASYNC_IO_OFFLOAD_* */
	zend_long thread_pool_size;      /* async.thread_pool_size: 0 = the core's default */
	zend_long fiber_observers;       /* async.fiber_observers: -1 auto, 1 on */

	tasync_runtime_t *rt;
	tasync_coroutine_t *main_co;      /* borrowed from the runtime */
	async_vm_state main_vm;          /* host data of the main coroutine */
	zend_object *main_object;        /* Async\Coroutine of the main flow, lazily */
	HashTable filenames;             /* zend_string* kept for locations */
	zend_string *last_filename;

	zval *deferred;                  /* releases postponed out of core callbacks */
	uint32_t deferred_count;
	uint32_t deferred_size;
	bool request_ended;              /* RSHUTDOWN is over: releases go at once */
	struct async_warning *warnings;  /* warnings the core reported, not shown yet */
	uint32_t warning_count;
	uint32_t warning_size;

	async_deferred_free *deferred_frees; /* records to free at a safe point, oldest first */
	async_deferred_free *deferred_frees_last;
	tasync_scope_t **deferred_scopes; /* scope releases postponed out of core callbacks */
	uint32_t deferred_scope_count;
	uint32_t deferred_scope_size;
	HashTable scope_extras;          /* scope => what PHP objects other than its Scope
	                                  * object hold of it (api/scope.c) */
	bool bailout_pending;            /* a handler the core called bailed out */

	bool aborting;                   /* async_abort_all ran in this request: resumes ask
	                                  * the core whether their coroutine was aborted */
	bool fatal_abort;                /* a fatal error is ending every coroutine: none starts
	                                  * user code until the drain after it completed (C22) */
	bool fiber_used;                 /* rule C13: a Fiber was created in this request */
	bool fiber_contexts;             /* fiber mode: every PHP coroutine has a zend_fiber_context
	                                  * (runtime/fibers.c) */
	zend_fiber_context *fiber_left;  /* the context the last PHP coroutine left (the
	                                  * `from` of the next switch its observers are told) */
	bool runtime_failed;             /* creation failed in this request */
ZEND_END_MODULE_GLOBALS(async)

ZEND_EXTERN_MODULE_GLOBALS(async)
#define ASYNC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async, v)

#if defined(ZTS) && defined(COMPILE_DL_ASYNC)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif /* ASYNC_RUNTIME_GLOBALS_H */
