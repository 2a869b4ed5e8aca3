/*
 * runtime/request.c - the runtime's lifetime in a PHP request, and the end
 * of the script.
 *
 * End of script (C3, C19). php_request_shutdown() runs, in order: the
 * functions of register_shutdown_function(), destructors of global objects,
 * output flushing, then the modules' RSHUTDOWN. The first shutdown function
 * is ours (registered in RINIT, before any script can register one): it
 * runs the scheduler until no active coroutine remains, reports what the
 * core kept for the end (an error that reached the global scope, or the
 * DeadlockError), then calls the user's shutdown functions itself, in the
 * main coroutine (see run_user_shutdown_functions), and runs the scheduler
 * again for what they started. Destructors (C16) may use async code too:
 * RSHUTDOWN runs the scheduler once more, unwinds whatever is left, and the
 * module destroys the runtime once every wing let go of it.
 *
 * exit()/die() starts graceful shutdown (C15, runtime/exit_hook.c). A fatal
 * error (zend_bailout) inside a coroutine ends that coroutine;
 * async_abort_all() then marks every other one (and the main flow) to
 * unwind at its next resume without running more user code. The main flow
 * re-raises the bailout, so the request ends as after any fatal error.
 */
#include "runtime/request.h"

#include "api/exceptions.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "ext/standard/basic_functions.h"
#include "zend_observer.h"

/* Reports an exception as PHP reports uncaught ones (exit status 255). */
static void report_fatal(zend_object *ex)
{
	if (EG(exception)) {
		zend_clear_exception();
	}
	zend_try {
		/* Takes the reference. E_DONT_BAIL inside: the request goes on to
		 * run shutdown functions, as after the main script's own. */
		zend_exception_error(ex, E_ERROR);
	} zend_end_try();
}

/*
 * Runs the scheduler until no active coroutine remains (rule C3), then
 * reports what the core kept for the end: the first error that reached the
 * global scope unhandled (S10, C15) or the DeadlockError (C14).
 */
static void drain(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return;
	}
	if (CG(unclean_shutdown)) {
		/* After a fatal error, what was running unwinds, running no more
		 * user code. */
		async_abort_all(TASYNC_ABORT_FATAL);
	}
	tasync_runtime_run(rt);
	/* What a fatal error aborted has unwound: coroutines that shutdown
	 * functions start from now on run as usual (C19). */
	ASYNC_G(fatal_abort) = false;
#ifdef ZEND_HAS_OOM
	/* An out-of-memory error PHP delayed to a VM interrupt stays "handled"
	 * and keeps the VM from calling any function until the request's
	 * shutdown clears it before the shutdown functions run. One that
	 * happened in a coroutine during this drain came after that point:
	 * clear it the same way, or no shutdown function could run. */
	if (EG(delayed_oom).state == ZEND_OOM_STATE_HANDLED) {
		EG(delayed_oom).state = ZEND_OOM_STATE_NONE;
	}
#endif
	async_safe_point();

	zend_object *error = tasync_runtime_take_error(rt);
	if (error == NULL) {
		return;
	}
	if (CG(unclean_shutdown)) {
		/* After a fatal error nothing more is reported. */
		OBJ_RELEASE(error);
		return;
	}
	report_fatal(error);
}

static zend_internal_function end_of_script_function;

/* ------------------------------------------------- the main flow's end */

/*
 * The main flow is a coroutine (C3), so rule C7 applies to it: a
 * CancellationError that ends it ends it as cancelled, quietly, instead of
 * reaching zend_execute_scripts() as an uncaught exception. Any other
 * exception that ends it reached the global scope unhandled: PHP reports
 * it as usual, and graceful shutdown (C15) cancels the coroutines.
 *
 * An observer end handler on top-level code sees the main script's frame
 * leave with the exception still pending, before PHP reports it.
 */
static void main_code_end(zend_execute_data *execute_data, zval *retval)
{
	(void) retval;
	tasync_runtime_t *rt = ASYNC_G(rt);
	zend_object *ex = EG(exception);
	if (ex == NULL || rt == NULL || execute_data->prev_execute_data != NULL
			|| tasync_coroutine_current(rt) != ASYNC_G(main_co)) {
		return;
	}
	if (instanceof_function(ex->ce, async_ce_cancellation_error)) {
		zend_clear_exception();
	} else if (!zend_is_unwind_exit(ex) && !zend_is_graceful_exit(ex)) {
		tasync_runtime_shutdown(rt, NULL);
	}
}

static zend_observer_fcall_handlers observe_top_level_code(zend_execute_data *execute_data)
{
	zend_function *fn = execute_data->func;
	zend_observer_fcall_handlers h = { NULL, NULL };
	if (fn != NULL && fn->type == ZEND_USER_FUNCTION && fn->op_array.function_name == NULL) {
		h.end = main_code_end;
	}
	return h;
}

/*
 * The user's shutdown functions run in the main coroutine (C19), so C7
 * applies to them too: one that ends with a CancellationError (a deadlock
 * or graceful shutdown cancelled the main coroutine while it waited in it)
 * ends quietly. PHP calls shutdown functions without a frame, where such
 * an exception would be fatal at once; so they are called from here, in
 * registration order (including those registered meanwhile), each removed
 * from PHP's list before the next. Any other uncaught exception is
 * reported and ends the shutdown functions, as PHP does.
 */
static zend_function shutdown_bottom_function = { ZEND_INTERNAL_FUNCTION };

static void run_user_shutdown_functions(void)
{
	HashTable *ht = BG(user_shutdown_function_names);
	while (ht != NULL) {
		zend_ulong index = 0;
		zend_string *key = NULL;
		php_shutdown_function_entry *entry = NULL;
		ZEND_HASH_FOREACH_KEY_PTR(ht, index, key, entry) {
			if (entry->fci_cache.function_handler == (zend_function *) &end_of_script_function) {
				entry = NULL;
				continue;
			}
			break;
		} ZEND_HASH_FOREACH_END();
		if (entry == NULL) {
			break;
		}
		/* A frame of its own below the call, as a coroutine's bottom frame:
		 * exceptions come back here, and traces look as when PHP calls it. */
		zend_execute_data bottom, *saved = EG(current_execute_data);
		memset(&bottom, 0, sizeof(bottom));
		bottom.func = &shutdown_bottom_function;
		EG(current_execute_data) = &bottom;
		zval retval;
		ZVAL_UNDEF(&retval);
		entry->fci.retval = &retval;
		zend_call_function(&entry->fci, &entry->fci_cache);
		zval_ptr_dtor(&retval);
		EG(current_execute_data) = saved;
		if (key != NULL) {
			zend_hash_del(ht, key);
		} else {
			zend_hash_index_del(ht, index);
		}
		zend_object *ex = EG(exception);
		if (ex == NULL) {
			continue;
		}
		if (instanceof_function(ex->ce, async_ce_cancellation_error)) {
			zend_clear_exception();
			continue;
		}
		if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
			/* exit(): the other shutdown functions do not run, as in PHP,
			 * but the graceful shutdown it started completes first (C15). */
			zend_clear_exception();
			drain();
			zend_bailout();
		}
		GC_ADDREF(ex);
		zend_clear_exception();
		zend_exception_error(ex, E_ERROR);
		zend_bailout();
	}
}

/* The first shutdown function of every request (see the top comment). */
static ZEND_NAMED_FUNCTION(async_end_of_script)
{
	(void) execute_data;
	(void) return_value;
	drain();
	run_user_shutdown_functions();
	drain();
}

static void register_end_of_script(void)
{
	php_shutdown_function_entry entry;
	memset(&entry, 0, sizeof(entry));
	entry.fci.size = sizeof(zend_fcall_info);
	ZVAL_UNDEF(&entry.fci.function_name);
	entry.fci_cache.function_handler = (zend_function *) &end_of_script_function;
	register_user_shutdown_function("\0async", sizeof("\0async") - 1, &entry);
}

/* ------------------------------------------------------------ lifetime */

void async_request_startup(zend_module_entry *module)
{
	zend_observer_fcall_register(observe_top_level_code);
	end_of_script_function.type = ZEND_INTERNAL_FUNCTION;
	end_of_script_function.function_name = zend_string_init_interned("Async\\{end of script}", sizeof("Async\\{end of script}") - 1, 1);
	end_of_script_function.handler = async_end_of_script;
	end_of_script_function.module = module;
}

void async_request_begin(void)
{
	ASYNC_G(rt) = NULL;
	ASYNC_G(main_co) = NULL;
	ASYNC_G(main_object) = NULL;
	memset(&ASYNC_G(main_vm), 0, sizeof(ASYNC_G(main_vm)));
	zend_hash_init(&ASYNC_G(filenames), 8, NULL, ZVAL_PTR_DTOR, 0);
	ASYNC_G(last_filename) = NULL;
	ASYNC_G(deferred) = NULL;
	ASYNC_G(deferred_count) = ASYNC_G(deferred_size) = 0;
	ASYNC_G(deferred_frees) = ASYNC_G(deferred_frees_last) = NULL;
	ASYNC_G(request_ended) = false;
	ASYNC_G(warnings) = NULL;
	ASYNC_G(warning_count) = ASYNC_G(warning_size) = 0;
	ASYNC_G(deferred_scopes) = NULL;
	ASYNC_G(deferred_scope_count) = ASYNC_G(deferred_scope_size) = 0;
	ASYNC_G(bailout_pending) = false;
	ASYNC_G(aborting) = false;
	ASYNC_G(fatal_abort) = false;
	ASYNC_G(fiber_used) = false;
	ASYNC_G(fiber_contexts) = false;
	ASYNC_G(fiber_left) = NULL;
	register_end_of_script();
}

bool async_request_unwind(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return false;
	}
	/* What shutdown functions and destructors started (C16, C19). */
	drain();
	/* What is left (after a deadlock, exit or a fatal error) unwinds. */
	async_abort_all(TASYNC_ABORT_END);
	tasync_runtime_run(rt);
	async_safe_point();
	return true;
}

void async_request_end(void)
{
	if (ASYNC_G(deferred) != NULL) {
		efree(ASYNC_G(deferred));
		ASYNC_G(deferred) = NULL;
	}
	ASYNC_G(deferred_count) = ASYNC_G(deferred_size) = 0;
	/* Objects the request left alive (a fatal error skips their
	 * destructors) are freed after this, when the engine frees its object
	 * store: what they release (a Pool's callables, values, errors) goes at
	 * once, there is no queue left to flush (C22). */
	ASYNC_G(request_ended) = true;
	if (ASYNC_G(deferred_scopes) != NULL) {
		efree(ASYNC_G(deferred_scopes));
		ASYNC_G(deferred_scopes) = NULL;
	}
	ASYNC_G(deferred_scope_count) = ASYNC_G(deferred_scope_size) = 0;
	if (ASYNC_G(warnings) != NULL) {
		efree(ASYNC_G(warnings));
		ASYNC_G(warnings) = NULL;
	}
	ASYNC_G(warning_count) = ASYNC_G(warning_size) = 0;
	zend_hash_destroy(&ASYNC_G(filenames));
	ASYNC_G(last_filename) = NULL;
}
