/*
 * php_async.h - the PHP extension "async": True Async on stock PHP 8.2+,
 * mapped onto the tasync C ABI (api/include/tasync). Shared declarations of
 * the extension's C files; one file per PHP class or area:
 *
 *   async.c        module entry, ini, runtime lifecycle, end of script
 *   host.c         the tasync_host_t table: values, errors, locations,
 *                  warnings, and the executor switch (as Fibers do it)
 *   coroutine.c    Async\Coroutine and the coroutine entry point
 *   functions.c    spawn, suspend, await, await_*, delay, timeout, ...
 *   timeout.c      Async\Timeout
 *   exceptions.c   the exception classes and the error factory
 *   fiber_guard.c  rule C13: Fibers and coroutines exclude each other
 *   io_*.c         rule C18: blocking PHP functions suspend only the
 *                  calling coroutine (php_async_io.h)
 *
 * The semantic rules (DESIGN.md section 5) live in the core; this extension
 * maps PHP values, classes and the Zend executor onto it.
 */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include "php.h"
#include "zend_exceptions.h"

#include <tasync/tasync.h>

#define PHP_ASYNC_VERSION "0.1.0"

extern zend_module_entry async_module_entry;
#define phpext_async_ptr &async_module_entry

/* ------------------------------------------------------------ VM state */

/*
 * The executor state one coroutine owns: exactly what php-src's Fibers
 * capture and restore on a switch (Zend/zend_fibers.c, zend_fiber_vm_state).
 * Saved in the host's coroutine_leave hook, restored in coroutine_enter.
 */
typedef struct async_vm_state {
	zend_vm_stack vm_stack;
	zval *vm_stack_top;
	zval *vm_stack_end;
	size_t vm_stack_page_size;
	zend_execute_data *current_execute_data;
	int error_reporting;
	uint32_t jit_trace_num;
	JMP_BUF *bailout;
	zend_fiber *active_fiber;
#ifdef ZEND_CHECK_STACK_LIMIT
	/* PHP 8.3+: the C stack bounds the engine checks recursion against. */
	void *stack_base;
	void *stack_limit;
#endif
} async_vm_state;

/* What a coroutine waits for, as the PHP API asked (getAwaitingInfo). */
typedef enum async_wait_kind {
	ASYNC_WAIT_NONE = 0,
	ASYNC_WAIT_SUSPEND,
	ASYNC_WAIT_AWAIT,
	ASYNC_WAIT_AWAIT_MANY,
	ASYNC_WAIT_DELAY,
} async_wait_kind;

typedef struct async_wait_info {
	async_wait_kind kind;
	uint64_t target;                 /* coroutine id awaited, count, or delay in ms */
} async_wait_info;

/* ------------------------------------------------------ Async\Coroutine */

typedef struct async_coroutine {
	tasync_coroutine_t *co;          /* one reference, released in free_obj */
	async_vm_state vm;               /* host data of co */
	zend_fcall_info fci;             /* the callable and its arguments, owned */
	zend_fcall_info_cache fcc;
	zval named;                      /* named arguments (array) or UNDEF */
	zend_execute_data *bottom;       /* the frame below the coroutine's first call */
	uint32_t awaiters;               /* PHP-level awaits in progress on this one */
	async_wait_info wait;            /* what it waits for (getAwaitingInfo) */
	bool is_main;
	bool started;
	bool doomed;                     /* unwinds at its next resume (exit, fatal error) */
	zend_object std;
} async_coroutine;

static inline async_coroutine *async_coroutine_from_obj(zend_object *obj)
{
	return (async_coroutine *) ((char *) obj - XtOffsetOf(async_coroutine, std));
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

/* Why the request stops running coroutines (see async.c). */
typedef enum async_abort_mode {
	ASYNC_ABORT_NONE = 0,
	ASYNC_ABORT_EXIT,      /* exit()/die() ran in a coroutine or the main flow */
	ASYNC_ABORT_BAILOUT,   /* a fatal error (zend_bailout) */
	ASYNC_ABORT_SHUTDOWN,  /* end of request: unwind what is left */
} async_abort_mode;

ZEND_BEGIN_MODULE_GLOBALS(async)
	/* ini */
	char *reactor;
	char *backend_dir;
	double zombie_timeout;
	zend_long stack_size;

	tasync_runtime_t *rt;
	tasync_coroutine_t *main_co;      /* borrowed from the runtime */
	async_vm_state main_vm;          /* host data of the main coroutine */
	async_wait_info main_wait;
	zend_object *main_object;        /* Async\Coroutine of the main flow, lazily */
	HashTable coroutines;            /* id => async_coroutine*, unfinished ones */
	HashTable filenames;             /* zend_string* kept for locations */
	zend_string *last_filename;

	zval *deferred;                  /* releases postponed out of core callbacks */
	uint32_t deferred_count;
	uint32_t deferred_size;
	zend_string **warnings;          /* warnings the core reported, not shown yet */
	uint32_t warning_count;
	uint32_t warning_size;
	zend_string *deadlock_message;
	zend_string *deadlock_file;      /* where the first waiting coroutine stopped */
	zend_long deadlock_line;
	zend_object *uncaught;           /* first exception no one handled */

	async_abort_mode abort_mode;     /* what the main flow must do at its next resume */
	bool in_drain;                   /* the main flow waits in tasync_runtime_run */
	bool exit_called;                /* exit()/die() ran (ZEND_EXIT hook) */
	bool fiber_used;                 /* rule C13 */
	bool runtime_failed;             /* creation failed in this request */
	bool reported;                   /* the end-of-script error was reported */
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
extern zend_class_entry *async_ce_async_exception;
extern zend_class_entry *async_ce_cancellation_error;
extern zend_class_entry *async_ce_await_cancelled;
extern zend_class_entry *async_ce_deadlock_error;

void async_register_interfaces(void);
void async_register_coroutine_class(void);
void async_register_timeout_class(void);
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

/* ---------------------------------------------------------- host.c */

extern const tasync_host_t async_host;

/* Boxed PHP value handed to the core (refcounted by the core). */
void *async_value_box(zval *value);
/* Copies the boxed value into dst (NULL box: null). */
void async_value_unbox(void *box, zval *dst);
/* The zval inside a box (borrowed). */
zval *async_value_zval(void *box);

void async_save_vm(async_vm_state *s);
void async_restore_vm(const async_vm_state *s);

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

/* Marks the request as aborting and wakes every coroutine so that it unwinds. */
void async_abort_all(async_abort_mode mode);

/* ------------------------------------------------------ coroutine.c */

zend_object *async_coroutine_object_for(tasync_coroutine_t *co);
void async_coroutine_entry(tasync_coroutine_t *self, void *arg);
void async_coroutine_arg_release(void *arg);
zend_object *async_main_coroutine_object(void);

/* tasync awaitable behind an Awaitable object (borrowed), or NULL. */
tasync_awaitable_t *async_awaitable_of(zend_object *obj);

bool async_timeout_init(async_timeout *t, zend_long ms, uint32_t arg_num);

/* ------------------------------------------------------ exceptions.c */

/* A new exception object of the class the core asks for (one reference). */
zend_object *async_error_create(int kind, int code, const char *message);
/* An exception object with no trace and an explicit location. */
zend_object *async_error_create_at(zend_class_entry *ce, const char *message, zend_string *file, zend_long line);

#endif /* PHP_ASYNC_H */
