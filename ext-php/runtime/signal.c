/*
 * runtime/signal.c - Async\signal(): a Future of the next delivery of a
 * signal (rule C26), and PHP's own signal handling (pcntl, Zend's) kept
 * working next to it.
 *
 * The Future's work is a coroutine of this file, spawned into the global
 * scope, that waits for the signal in the core (tasync_await_signal) and
 * completes the Future with the Signal case (or the number); the Future
 * holds it and cancels it when it is cancelled or dropped.
 *
 * The core owns the signals a runtime watches (tasync_await_signal): its
 * handler counts each delivery for the coroutines waiting, then calls the
 * handler that was installed before it. Two things of PHP need care:
 *
 *  - Zend's deferred signals (ZEND_SIGNALS, Debian's build among others).
 *    For SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and the timeout
 *    signal, the kernel's handler is Zend's zend_signal_handler_defer, and
 *    PHP's own disposition for the signal (SIG_DFL, SIG_IGN or pcntl's
 *    handler) is an entry of Zend's table that handler consults. The core
 *    chains to Zend's handler, which, for SIG_DFL, restores the default
 *    action and re-sends the signal: a SIGTERM awaited would kill the
 *    process. So while the runtime watches such a signal and PHP's own
 *    disposition for it is SIG_DFL, that entry says SIG_IGN (the awaiting
 *    coroutines are the handler now); the kernel's disposition is not
 *    touched, and the entry is put back when the runtime ends.
 *
 *  - pcntl_signal() after the runtime started watching a signal replaces
 *    the core's handler with PHP's: deliveries would no longer reach the
 *    coroutines. pcntl_signal() is wrapped: after PHP installed its
 *    handler, the core's is put back in front of it, chaining to it
 *    (tasync_signal_reclaim), so that both run. In the other order
 *    (pcntl_signal() first) the core chains to PHP's handler from the
 *    start.
 *
 * A watched signal stays watched until the runtime ends (the request), so
 * that a delivery between two waits is counted rather than meeting the
 * default action; the previous dispositions come back then.
 */
#include "runtime/signal.h"

#include "api/awaitable.h"
#include "api/exceptions.h"
#include "api/functions.h"
#include "api/future.h"
#include "api/spawn.h"
#include "io/hooks.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_enum.h"

#include <signal.h>

#ifdef ZEND_SIGNALS
#include "zend_signal.h"
#endif

/* Signals this request's runtime watches (asked through Async\signal). */
static bool signal_watched[NSIG];
#ifdef ZEND_SIGNALS
/* Zend's table entry of the signal was turned from SIG_DFL to SIG_IGN. */
static bool signal_default_held[NSIG];
#endif

/* ------------------------------------------------------------ checks */

/* ValueError for a signal a coroutine cannot await. */
static bool signal_check(zend_long signo)
{
	if (signo <= 0 || signo >= NSIG) {
		zend_argument_value_error(1, "must be a valid signal number (1 to %d)", NSIG - 1);
		return false;
	}
	switch (signo) {
		case SIGKILL:
		case SIGSTOP:
			zend_argument_value_error(1, "must be a signal that can be caught (SIGKILL and SIGSTOP cannot)");
			return false;
		case SIGSEGV:
		case SIGBUS:
			zend_argument_value_error(1,
				"must not be SIGSEGV or SIGBUS: the runtime's guard-page handler owns them (it turns a "
				"coroutine's stack overflow into an error and passes every other fault on)");
			return false;
		case SIGFPE:
		case SIGILL:
			zend_argument_value_error(1,
				"must not be SIGFPE or SIGILL: a fault signal cannot be awaited (the faulting code would "
				"run again as soon as a handler returns)");
			return false;
	}
	if (signo >= 32 && signo < SIGRTMIN) {
		zend_argument_value_error(1, "must not be %d: signals 32 to %d are the C library's own", (int) signo,
			SIGRTMIN - 1);
		return false;
	}
	return true;
}

/* ------------------------------------------- Zend's deferred signals */

/* While the runtime watches signo: PHP's SIG_DFL for it becomes SIG_IGN in
 * Zend's table (see the top of the file). */
static void signal_hold_default(int signo)
{
#ifdef ZEND_SIGNALS
	if (SIGG(handlers)[signo - 1].handler == (void *) SIG_DFL) {
		SIGG(handlers)[signo - 1].handler = (void *) SIG_IGN;
		signal_default_held[signo] = true;
	}
#else
	(void) signo;
#endif
}

/* Undoes signal_hold_default, unless PHP's disposition changed since. */
static void signal_release_default(int signo)
{
#ifdef ZEND_SIGNALS
	if (signal_default_held[signo]) {
		signal_default_held[signo] = false;
		if (SIGG(handlers)[signo - 1].handler == (void *) SIG_IGN) {
			SIGG(handlers)[signo - 1].handler = (void *) SIG_DFL;
		}
	}
#else
	(void) signo;
#endif
}

/* --------------------------------------------------------- Async\signal */

typedef struct signal_wait {
	int signo;
	tasync_awaitable_t *future;      /* one reference */
	zval cancellation;               /* the cancellation object, or UNDEF */
} signal_wait;

/* Completes future with signo's Signal case (its number when Signal has
 * none). */
static void signal_settle(tasync_awaitable_t *future, int signo)
{
	zval value;
	zend_object *sig = NULL;
	if (zend_enum_get_case_by_value(&sig, async_ce_signal, signo, NULL, true) == SUCCESS && sig != NULL) {
		ZVAL_OBJ_COPY(&value, sig);
	} else {
		ZVAL_LONG(&value, signo);
	}
	async_future_settle(future, &value, NULL);
	zval_ptr_dtor(&value);
}

/*
 * Watches signo from now on (a delivery before the Future's coroutine
 * waits is kept for it), without waiting: a wait whose cancellation has
 * completed already sets the watch up and returns at once. Returns 0 when
 * a delivery nobody waited for was there (it is this wait's now),
 * TASYNC_EAWAIT_CANCELLED when the signal is watched, or the error of
 * setting the watch up.
 */
static int signal_watch_now(tasync_runtime_t *rt, int signo, void **err)
{
	tasync_awaitable_t *done = NULL;
	int rc = tasync_future_create(rt, &done);
	if (rc != 0) {
		return rc;
	}
	tasync_future_resolve(done, NULL);
	rc = tasync_await_signal(rt, signo, done, err);
	tasync_awaitable_release(done);
	return rc;
}

static void signal_wait_entry(tasync_coroutine_t *self, void *arg)
{
	signal_wait *w = arg;
	tasync_runtime_t *rt = ASYNC_G(rt);
	(void) self;
	tasync_awaitable_t *cancellation = Z_ISUNDEF(w->cancellation) ? NULL : async_awaitable_of(Z_OBJ(w->cancellation));
	void *err = NULL;
	int rc = tasync_await_signal(rt, w->signo, cancellation, &err);
	if (rc == 0) {
		signal_settle(w->future, w->signo);
	} else {
		zend_object *error = err != NULL ? err
			: async_error_create(TASYNC_ERROR_ASYNC, rc, tasync_strerror(rc));
		async_future_settle(w->future, NULL, error);
		OBJ_RELEASE(error);
	}
	/* The outcome is the Future's: the coroutine itself ends quietly. */
	if (EG(exception) != NULL && instanceof_function(EG(exception)->ce, async_ce_cancellation_error)) {
		zend_clear_exception();
	}
}

static void signal_wait_free(void *arg)
{
	signal_wait *w = arg;
	if (!tasync_awaitable_is_completed(w->future)) {
		/* Cancelled before it started waiting (C7): its awaiters learn it. */
		zend_object *error = async_error_create(TASYNC_ERROR_CANCELLATION, -ECANCELED,
			"The wait for the signal was cancelled");
		async_future_settle(w->future, NULL, error);
		zval zv;
		ZVAL_OBJ(&zv, error);
		async_defer_release(&zv);
	}
	tasync_awaitable_release(w->future);
	async_defer_release(&w->cancellation);
	efree(w);
}

PHP_FUNCTION(Async_signal)
{
	zval *sig;
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(sig)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();

	zend_long signo;
	if (Z_TYPE_P(sig) == IS_LONG) {
		signo = Z_LVAL_P(sig);
	} else if (Z_TYPE_P(sig) == IS_OBJECT && Z_OBJCE_P(sig) == async_ce_signal) {
		signo = Z_LVAL_P(zend_enum_fetch_case_value(Z_OBJ_P(sig)));
	} else {
		zend_argument_type_error(1, "must be of type Async\\Signal|int, %s given", zend_zval_type_name(sig));
		RETURN_THROWS();
	}
	if (!signal_check(signo)) {
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *cancellation;
	if (!async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *future = async_future_new();
	if (future == NULL) {
		RETURN_THROWS();
	}
	if (cancellation != NULL && tasync_awaitable_is_completed(cancellation)) {
		/* Too late already: a failed Future at once. */
		zend_object *error = async_error_create(TASYNC_ERROR_AWAIT_CANCELLED, TASYNC_EAWAIT_CANCELLED,
			"The wait for the signal was cancelled by its cancellation awaitable");
		async_future_settle(future, NULL, error);
		OBJ_RELEASE(error);
		RETURN_OBJ(async_future_create(future, ASYNC_FUTURE_PLAIN, NULL));
	}
	bool first = !signal_watched[signo];
	if (first) {
		/* Before the core's handler can run: it chains to Zend's. */
		signal_watched[signo] = true;
		signal_hold_default((int) signo);
	}
	void *err = NULL;
	int rc = signal_watch_now(rt, (int) signo, &err);
	tasync_error_release(rt, err);
	err = NULL;
	if (rc != 0 && rc != TASYNC_EAWAIT_CANCELLED) {
		if (first) {
			/* The watch could not be set up: PHP's disposition stays as it was. */
			signal_watched[signo] = false;
			signal_release_default((int) signo);
		}
		tasync_awaitable_release(future);
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	if (rc == 0) {
		/* A delivery nobody waited for was kept: it is this Future's. */
		signal_settle(future, (int) signo);
		async_safe_point();
		RETURN_OBJ(async_future_create(future, ASYNC_FUTURE_PLAIN, NULL));
	}
	signal_wait *w = emalloc(sizeof(*w));
	w->signo = (int) signo;
	w->future = future;
	tasync_awaitable_retain(future);
	if (cancel_obj != NULL) {
		ZVAL_OBJ_COPY(&w->cancellation, cancel_obj);
	} else {
		ZVAL_UNDEF(&w->cancellation);
	}
	tasync_coroutine_t *worker = NULL;
	/* In the global scope: the wait is the Future's, not the caller's
	 * scope's (a scope disposed or closed meanwhile does not end it; the
	 * Future's cancel() and its last reference do). */
	rc = async_spawn_native(tasync_scope_global(rt), signal_wait_entry, w, signal_wait_free, &worker, &err);
	async_safe_point();
	if (rc != 0) {
		tasync_awaitable_release(future);
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	zend_object *obj = async_future_create(future, ASYNC_FUTURE_PLAIN, NULL);
	async_future_from_obj(obj)->worker = worker;
	RETURN_OBJ(obj);
}

/* ----------------------------------------------------- pcntl_signal() */

static zif_handler orig_pcntl_signal;

/* pcntl_signal() as PHP has it, then, for a signal the runtime watches,
 * the runtime's handler back in front of the one PHP just installed
 * (chaining to it), and PHP's SIG_DFL held again (see the top of the file). */
static ZEND_NAMED_FUNCTION(signal_pcntl_signal)
{
	zval *arg = ZEND_NUM_ARGS() >= 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	zend_long only = arg != NULL && Z_TYPE_P(arg) == IS_LONG ? Z_LVAL_P(arg) : 0;
	orig_pcntl_signal(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	for (int signo = 1; signo < NSIG; signo++) {
		if (!signal_watched[signo] || (only != 0 && only != signo)) {
			continue;
		}
#ifdef ZEND_SIGNALS
		if (only != 0) {
			/* PHP's disposition was set explicitly: it is no longer ours to
			 * give back at the end. */
			signal_default_held[signo] = false;
		}
#endif
		signal_hold_default(signo);
		tasync_signal_reclaim(signo);
	}
}

/* ----------------------------------------------------------- lifecycle */

void async_signal_startup(void)
{
	/* pcntl is loaded before this extension when both are (async_deps). */
	orig_pcntl_signal = async_io_hook("pcntl_signal", signal_pcntl_signal);
}

void async_signal_request_shutdown(void)
{
	for (int signo = 1; signo < NSIG; signo++) {
		if (signal_watched[signo]) {
			signal_watched[signo] = false;
			signal_release_default(signo);
		}
	}
}
