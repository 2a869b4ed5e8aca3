/*
 * php_async.h - the PHP extension "async": True Async on stock PHP 8.2+,
 * mapped onto the tasync C ABI (api/include/tasync). Shared declarations of
 * the extension's C files; one file per PHP class or area:
 *
 *   async.c        module entry, ini, runtime lifecycle, end of script
 *   host.c         the tasync_host_t table: values, errors, locations,
 *                  warnings, and the executor switch (as Fibers do it)
 *   coroutine.c    Async\Coroutine, the coroutine entry point, onFinally
 *   functions.c    spawn, suspend, await, await_*, delay, timeout, protect,
 *                  gracefulShutdown, ...
 *   scope.c        Async\Scope, Async\ScopeProvider, exception handlers
 *   context.c      Async\Context and currentContext() & co.
 *   group.c        Async\TaskGroup and its iterator
 *   future.c       Async\Future (the awaitables of TaskGroup)
 *   timeout.c      Async\Timeout
 *   exceptions.c   the exception classes and the error factory
 *   fiber_guard.c  rule C13: Fibers and coroutines exclude each other
 *   stall.c        rule C25: async.stall_timeout and the stall report
 *   signal.c       Async\signal() next to pcntl's and Zend's signal handling
 *   io_*.c         rule C18: blocking PHP functions suspend only the
 *                  calling coroutine (php_async_io.h)
 *
 * The semantic rules (docs/rules.md) live in the core; this extension
 * maps PHP values, classes and the Zend executor onto it.
 */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include "php.h"
#include "zend_exceptions.h"

#include <tasync/tasync.h>

/* The extension is released with the core: its version is the one of the
 * tasync headers it is built against (tasync/version.h owns it). */
#define PHP_ASYNC_VERSION TASYNC_VERSION_STRING

extern zend_module_entry async_module_entry;
#define phpext_async_ptr &async_module_entry

/* ------------------------------------------------------------ VM state */

/*
 * The executor state one coroutine owns: what php-src's Fibers capture and
 * restore on a switch (Zend/zend_fibers.c, zend_fiber_vm_state), plus the
 * engine state rule C23 makes per coroutine (see async_save_vm()). Saved in
 * the host's coroutine_leave hook, restored in coroutine_enter.
 */
typedef struct async_vm_state {
	zend_vm_stack vm_stack;
	/* The coroutine's first page, in its entry frame on its own C stack (see
	 * coroutine.c): the chain from vm_stack ends here and this page is never
	 * efree()d. NULL for the main flow. */
	zend_vm_stack vm_stack_first;
	zval *vm_stack_top;
	zval *vm_stack_end;
	size_t vm_stack_page_size;
	zend_execute_data *current_execute_data;
	int error_reporting;
	uint32_t jit_trace_num;
	JMP_BUF *bailout;
	zend_fiber *active_fiber;
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

/* ------------------------------------------------------ Async\Coroutine */

/*
 * What the core holds of a PHP coroutine: its host data (vm) and its spawn
 * argument (the callable). Allocated by the extension when it hands a
 * coroutine to the core, freed once the core is done with both (see the
 * ownership notes in coroutine.c). Never a PHP object: the Coroutine
 * object is only a handle on the core coroutine.
 */
typedef struct async_coroutine {
	tasync_coroutine_t *co;          /* borrowed: the core coroutine, once known */
	async_vm_state vm;               /* host data of co */
	zend_fcall_info fci;             /* the callable and its arguments, owned */
	zend_fcall_info_cache fcc;
	zval named;                      /* named arguments (array) or UNDEF */
	/* Scope::onFinally(): the scope handed to the callback as its argument
	 * when it starts (one reference until then). */
	tasync_scope_t *finally_scope;
	/* Coroutine::onFinally(): the coroutine handed to the callback, as its
	 * Coroutine object made when the callback starts (borrowed: the core
	 * keeps it while its callbacks may run). Not holding the object keeps
	 * a pending callback from counting as a handle (rule S10). */
	tasync_coroutine_t *finally_owner;
	zend_object *object;             /* the Coroutine object standing for co (weak) */
	bool started;
	bool arg_released;               /* the core's arg_release ran */
} async_coroutine;

/* Async\Coroutine: a handle on a core coroutine (rule S10's Future
 * semantics count it); one object per coroutine while the object lives. */
typedef struct async_coroutine_obj {
	tasync_coroutine_t *co;          /* one reference (a handle), released in free_obj */
	zend_object *context;            /* its Context object while one lives (weak) */
	bool is_main;
	bool has_context;                /* a Context object was made for it */
	zend_object std;
} async_coroutine_obj;

static inline async_coroutine_obj *async_coroutine_obj_from(zend_object *obj)
{
	return (async_coroutine_obj *) ((char *) obj - XtOffsetOf(async_coroutine_obj, std));
}

/* The extension's record of a PHP coroutine (its host data), or NULL for
 * the main coroutine and coroutines of other extensions. */
async_coroutine *async_coroutine_of(tasync_coroutine_t *co);

/* --------------------------------------------------------- Async\Scope */

struct async_handler;

/*
 * One object per core scope while it lives (the scope's host data points
 * at it). The object that new Scope() or Scope::inherit() made owns the
 * scope: destroying it disposes the scope (S8). Objects made later for the
 * same scope (a parent, a child, a handler's argument) only stand for it.
 */
typedef struct async_scope {
	tasync_scope_t *scope;           /* one reference */
	struct async_handler *handlers[2]; /* set through this object (weak) */
	bool owner;
	bool is_global;
	zend_object std;
} async_scope;

static inline async_scope *async_scope_from_obj(zend_object *obj)
{
	return (async_scope *) ((char *) obj - XtOffsetOf(async_scope, std));
}

/* -------------------------------------------------------- Async\Context */

/* A scope's context (holding the scope), a coroutine's (holding the
 * Coroutine object, which holds the coroutine), or a free-standing one
 * made by new Context() (holding the core context). */
typedef struct async_context {
	tasync_scope_t *scope;           /* one reference (none on the global scope) */
	bool is_global;
	zend_object *coroutine;          /* one reference */
	tasync_context_t *own;           /* free-standing: one reference */
	zend_object std;
} async_context;

static inline async_context *async_context_from_obj(zend_object *obj)
{
	return (async_context *) ((char *) obj - XtOffsetOf(async_context, std));
}

/* ------------------------------------------------------ Async\TaskGroup */

typedef struct async_group {
	tasync_group_t *group;           /* one reference */
	zend_object std;
} async_group;

static inline async_group *async_group_from_obj(zend_object *obj)
{
	return (async_group *) ((char *) obj - XtOffsetOf(async_group, std));
}

/* --------------------------------------------------------- Async\Future */

typedef struct async_future {
	tasync_awaitable_t *aw;          /* one reference */
	zend_object *group;              /* the TaskGroup that made it (one reference) */
	zend_object std;
} async_future;

static inline async_future *async_future_from_obj(zend_object *obj)
{
	return (async_future *) ((char *) obj - XtOffsetOf(async_future, std));
}

/* --------------------------------------------------------- Async\Timeout */

typedef struct async_timeout {
	tasync_awaitable_t *aw;          /* one reference */
	zend_object std;
} async_timeout;

static inline async_timeout *async_timeout_from_obj(zend_object *obj)
{
	return (async_timeout *) ((char *) obj - XtOffsetOf(async_timeout, std));
}

/* -------------------------------------------------------- module globals */

/* async.file_offload: which plain-file operations of coroutines go through
 * the backend (io_fs.c). */
typedef enum async_file_offload_mode {
	ASYNC_IO_OFFLOAD_AUTO = 0,   /* "auto": where they may stall */
	ASYNC_IO_OFFLOAD_ALWAYS,     /* "always": all of them */
	ASYNC_IO_OFFLOAD_NEVER,      /* "never": none (PHP's own) */
} async_file_offload_mode;

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

	tasync_runtime_t *rt;
	tasync_coroutine_t *main_co;      /* borrowed from the runtime */
	async_vm_state main_vm;          /* host data of the main coroutine */
	zend_object *main_object;        /* Async\Coroutine of the main flow, lazily */
	HashTable filenames;             /* zend_string* kept for locations */
	zend_string *last_filename;

	zval *deferred;                  /* releases postponed out of core callbacks */
	uint32_t deferred_count;
	uint32_t deferred_size;
	struct async_warning *warnings;  /* warnings the core reported, not shown yet */
	uint32_t warning_count;
	uint32_t warning_size;

	tasync_scope_t **deferred_scopes; /* scope releases postponed out of core callbacks */
	uint32_t deferred_scope_count;
	uint32_t deferred_scope_size;
	HashTable scope_extras;          /* scope => what PHP objects other than its Scope
	                                  * object hold of it (scope.c) */
	bool bailout_pending;            /* a handler the core called bailed out */

	bool aborting;                   /* async_abort_all ran in this request: resumes ask
	                                  * the core whether their coroutine was aborted */
	bool fatal_abort;                /* a fatal error is ending every coroutine: none starts
	                                  * user code until the drain after it completed (C22) */
	bool fiber_used;                 /* rule C13 */
	bool runtime_failed;             /* creation failed in this request */
ZEND_END_MODULE_GLOBALS(async)

ZEND_EXTERN_MODULE_GLOBALS(async)
#define ASYNC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async, v)

#if defined(ZTS) && defined(COMPILE_DL_ASYNC)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* ------------------------------------------------------ class entries */

extern zend_class_entry *async_ce_awaitable;
extern zend_class_entry *async_ce_future_like;
extern zend_class_entry *async_ce_coroutine;
extern zend_class_entry *async_ce_timeout;
extern zend_class_entry *async_ce_scope;
extern zend_class_entry *async_ce_scope_provider;
extern zend_class_entry *async_ce_context;
extern zend_class_entry *async_ce_task_group;
extern zend_class_entry *async_ce_future;
extern zend_class_entry *async_ce_async_exception;
extern zend_class_entry *async_ce_cancellation_error;
extern zend_class_entry *async_ce_await_cancelled;
extern zend_class_entry *async_ce_deadlock_error;

void async_register_interfaces(void);
void async_register_coroutine_class(void);
void async_register_timeout_class(void);
void async_register_scope_class(void);
void async_register_context_class(void);
void async_register_group_class(void);
void async_register_future_class(void);
void async_register_exceptions(void);
void async_fiber_guard_startup(void);
void async_exit_hook_startup(void);

/* io_hooks.c (rule C18): MINIT, MSHUTDOWN, and RSHUTDOWN before the
 * runtime is destroyed. */
void async_io_startup(void);
void async_io_shutdown(void);
void async_io_request_shutdown(void);

/* ---------------------------------------------------------- async.c */

/* The request's runtime, created on first use; NULL with an exception
 * thrown when it cannot be created (or Fibers are in use, C13). */
tasync_runtime_t *async_runtime(void);

/* ---------------------------------------------------------- stall.c */

/* Rule C25: the ini handler of async.stall_timeout, the setup of a new
 * runtime's watchdog, and the host's stall_report member (called on the
 * watchdog's thread). */
ZEND_INI_MH(async_on_update_stall_timeout);
void async_stall_runtime_created(tasync_runtime_t *rt);
size_t async_stall_report(void *host_data, const tasync_stall_info_t *info, char *buf, size_t len);

/* ---------------------------------------------------------- signal.c */

/* Async\signal (rule C26): MINIT wraps pcntl_signal(); RSHUTDOWN, after the
 * runtime is destroyed, gives PHP's signal dispositions back. */
void async_signal_startup(void);
void async_signal_request_shutdown(void);

/* ---------------------------------------------------------- host.c */

extern const tasync_host_t async_host;

/* Boxed PHP value handed to the core (refcounted by the core). */
void *async_value_box(zval *value);
/* Copies the boxed value into dst (NULL box: null). */
void async_value_unbox(void *box, zval *dst);
/* The zval inside a box (borrowed). */
zval *async_value_zval(void *box);
/* How many holders share a box (the garbage collector may only be told
 * about a value its reporter holds alone). */
uint32_t async_value_refs(void *box);

void async_save_vm(async_vm_state *s);
/* Frees the VM stack pages that zend_vm_stack_extend() added to s (emalloc'd),
 * leaving the first page, which is not PHP's to free. */
void async_vm_free_pages(async_vm_state *s);
void async_restore_vm(const async_vm_state *s);

/*
 * Rule C23, the output buffers of the current coroutine (in OG()):
 * async_output_start() gives a coroutine that starts a stack of its own,
 * empty (its output goes to the SAPI); async_output_end() flushes what it
 * left open, in order, as PHP does at the end of a request (output
 * callbacks run), and frees the stack. async_output_abandon() frees the
 * saved buffers of a coroutine that will never run again without running
 * PHP code (user callbacks are released at the next safe point).
 */
void async_output_start(void);
void async_output_end(void);
void async_output_abandon(async_vm_state *s);

/* Queues a zval (whose reference we own) to be released at a safe point. */
void async_defer_release(zval *zv);

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
/* TASYNC_DISPOSE_ON_RELEASE of a scope whose PHP owner is going away. */
void async_scope_dispose_on_release(tasync_scope_t *scope);

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

/* ------------------------------------------------------ coroutine.c */

/* The Coroutine object standing for co (a new reference). */
zend_object *async_coroutine_object_for(tasync_coroutine_t *co);
void async_coroutine_entry(tasync_coroutine_t *self, void *arg);
void async_coroutine_arg_release(void *arg);
/* The host's coroutine_free for a PHP coroutine's record (host.c). */
void async_coroutine_record_free(async_vm_state *vm);
zend_object *async_main_coroutine_object(void);

/*
 * Spawns $fci(...$args) as a coroutine into scope (NULL: the current one),
 * or as a task of group under key (NULL: the next integer key). Puts the
 * Coroutine object into return_value; false with an exception thrown.
 */
void async_spawn_call(zval *return_value, tasync_scope_t *scope, tasync_group_t *group, const tasync_group_key_t *key,
	zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, HashTable *named);

/*
 * Spawn options for a completion callback (C11, S12): $callable($arg) in a
 * coroutine of its own. arg is an object (retained), or NULL with scope
 * set: the Scope object, made when the callback starts. A Coroutine object
 * is not retained either: its coroutine's object is made (or found) when
 * the callback starts, so that a pending callback is no handle (S10).
 */
void async_finally_options(tasync_spawn_options_t *opts, zval *callable, zend_object *arg, tasync_scope_t *scope);

/* ---------------------------------------------------------- scope.c */

/* The Scope object standing for scope (a new reference). */
zend_object *async_scope_object_for(tasync_scope_t *scope);
/* The scope a ScopeProvider provides (borrowed), NULL for "the current
 * one"; false with an exception thrown. */
bool async_scope_of_provider(zend_object *provider, tasync_scope_t **out);
/* Marks the core scope as held (or no longer) by a PHP object other than
 * its Scope object (see scope.c's garbage collection notes). */
void async_scope_hold(tasync_scope_t *scope);
void async_scope_unhold(tasync_scope_t *scope);
/* The Context object of the scope while one lives (weak); set and cleared
 * by context.c. */
zend_object **async_scope_context_slot(tasync_scope_t *scope);
void async_scope_extras_init(void);
void async_scope_extras_destroy(void);
/* Nothing but its Scope object holds the scope: no unfinished coroutine in
 * its subtree, no child scope, no other PHP object (api/scope_holds.c). */
bool async_scope_held_alone(tasync_scope_t *scope);

/* ---------------------------------------------------------- context.c */

/* A Context object for the scope's context (a new reference). */
zend_object *async_scope_context_object(tasync_scope_t *scope);
/* A Context object for a coroutine's private context (a new reference). */
zend_object *async_context_for_coroutine(zend_object *coroutine);
/* Reports a context's values to the garbage collector. */
void async_context_gc(tasync_context_t *ctx, zend_get_gc_buffer *buf);
/* Context keys: an object key is the object's pointer tagged with 1, a
 * host value the core retains and releases (host.c). */
#define ASYNC_OBJECT_KEY(obj) ((void *) ((uintptr_t) (obj) | 1u))
#define ASYNC_IS_OBJECT_KEY(v) (((uintptr_t) (v) & 1u) != 0)
#define ASYNC_KEY_OBJECT(v) ((zend_object *) ((uintptr_t) (v) & ~(uintptr_t) 1u))

/* ---------------------------------------------------------- future.c */

/* A Future object for a core awaitable (takes the reference) made by group. */
zend_object *async_future_create(tasync_awaitable_t *aw, zend_object *group);

/* tasync awaitable behind an Awaitable object (borrowed), or NULL. */
tasync_awaitable_t *async_awaitable_of(zend_object *obj);

bool async_timeout_init(async_timeout *t, zend_long ms, uint32_t arg_num);

/* ------------------------------------------------------ exceptions.c */

/* A new exception object of the class the core asks for (one reference). */
zend_object *async_error_create(int kind, int code, const char *message);
/* An exception object with no trace and an explicit location. */
zend_object *async_error_create_at(zend_class_entry *ce, const char *message, zend_string *file, zend_long line);

#endif /* PHP_ASYNC_H */
