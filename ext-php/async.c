/*
 * async.c - the module: ini settings, the runtime's lifetime in a request,
 * and the end of the script.
 *
 * Lifetime. The runtime is created on the first use of the API in a request
 * (scripts that never use it pay nothing, and Fibers keep working there,
 * rule C13) and destroyed in RSHUTDOWN; each request gets a fresh one. The
 * context that creates it becomes the main coroutine (rule C3).
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
 * RSHUTDOWN runs the scheduler once more, unwinds whatever is left and
 * destroys the runtime.
 *
 * exit()/die() starts graceful shutdown (C15, fiber_guard.c). A fatal error
 * (zend_bailout) inside a coroutine ends that coroutine; async_abort_all()
 * then marks every other one (and the main flow) to unwind at its next
 * resume without running more user code. The main flow re-raises the
 * bailout, so the request ends as after any fatal error.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php_async.h"
#include "php_async_io.h"

#include "ext/standard/basic_functions.h"
#include "ext/standard/info.h"
#include "php_ini.h"
#include "zend_observer.h"
#include "zend_smart_str.h"

ZEND_DECLARE_MODULE_GLOBALS(async)

extern const zend_function_entry *async_functions;
void async_fiber_guard_shutdown(void);
void async_exit_hook_shutdown(void);

/* ------------------------------------------------------------------ ini */

static ZEND_INI_MH(OnUpdateStackSize)
{
	zend_long size = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (size != 0 && size < 16 * 1024) {
		php_error_docref(NULL, E_WARNING, "async.stack_size must be 0 (the default) or at least 16K");
		return FAILURE;
	}
	ASYNC_G(stack_size) = size;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateStackCache)
{
	zend_long n = ZEND_STRTOL(ZSTR_VAL(new_value), NULL, 10);
	if (n < 1 || n > 1048576) {
		php_error_docref(NULL, E_WARNING, "async.stack_cache must be between 1 and 1048576");
		return FAILURE;
	}
	ASYNC_G(stack_cache) = n;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateZombieTimeout)
{
	double seconds = zend_strtod(ZSTR_VAL(new_value), NULL);
	if (seconds < 0) {
		php_error_docref(NULL, E_WARNING, "async.zombie_coroutine_timeout must not be negative");
		return FAILURE;
	}
	ASYNC_G(zombie_timeout) = seconds;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateFileOffload)
{
	if (zend_string_equals_literal_ci(new_value, "auto") || ZSTR_LEN(new_value) == 0) {
		ASYNC_G(file_offload) = ASYNC_IO_OFFLOAD_AUTO;
	} else if (zend_string_equals_literal_ci(new_value, "always")) {
		ASYNC_G(file_offload) = ASYNC_IO_OFFLOAD_ALWAYS;
	} else if (zend_string_equals_literal_ci(new_value, "never")) {
		ASYNC_G(file_offload) = ASYNC_IO_OFFLOAD_NEVER;
	} else {
		php_error_docref(NULL, E_WARNING, "async.file_offload must be auto, always or never");
		return FAILURE;
	}
	return SUCCESS;
}

/* async.thread_pool_size: the most threads the core's pool runs blocking
 * work on (DNS, files, flock), on every backend. Threads start on demand and exit after 10 s idle; 0 is the
 * core's default (64). Read when the runtime is created. */
static ZEND_INI_MH(OnUpdateThreadPoolSize)
{
	zend_long n = ZEND_STRTOL(ZSTR_VAL(new_value), NULL, 10);
	if (n < 0 || n > 1024) {
		php_error_docref(NULL, E_WARNING, "async.thread_pool_size must be between 0 (the default) and 1024");
		return FAILURE;
	}
	ASYNC_G(thread_pool_size) = n;
	return SUCCESS;
}

/* Which shared object the runtime loads is the administrator's choice
 * (php.ini, -d, FPM's php_admin_value), never a script's: ini_set() or a
 * .user.ini could otherwise make the process run native code of its
 * choosing, with dl() disabled. The core also refuses a backend file or
 * directory writable by others than its owner (docs/php.md). */
PHP_INI_BEGIN()
	STD_PHP_INI_ENTRY("async.reactor", "uv", PHP_INI_SYSTEM, OnUpdateString, reactor, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.backend_dir", "", PHP_INI_SYSTEM, OnUpdateString, backend_dir, zend_async_globals, async_globals)
	PHP_INI_ENTRY("async.zombie_coroutine_timeout", "2", PHP_INI_ALL, OnUpdateZombieTimeout)
	PHP_INI_ENTRY("async.stack_size", "256K", PHP_INI_ALL, OnUpdateStackSize)
	PHP_INI_ENTRY("async.stack_cache", "128", PHP_INI_ALL, OnUpdateStackCache)
	PHP_INI_ENTRY("async.stall_timeout", "10", PHP_INI_ALL, async_on_update_stall_timeout)
	PHP_INI_ENTRY("async.file_offload", "auto", PHP_INI_ALL, OnUpdateFileOffload)
	PHP_INI_ENTRY("async.thread_pool_size", "0", PHP_INI_ALL, OnUpdateThreadPoolSize)
PHP_INI_END()

/* -------------------------------------------------------------- runtime */

static int create_runtime(tasync_runtime_t **out, char *errbuf, size_t errbuf_size)
{
	tasync_runtime_options_t o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = TASYNC_RUNTIME_FALLBACK_DEFAULT;
	o.backend = ASYNC_G(reactor);
	o.backend_dir = ASYNC_G(backend_dir) && *ASYNC_G(backend_dir) ? ASYNC_G(backend_dir) : NULL;
	o.stack_size = (size_t) ASYNC_G(stack_size);
	o.stack_cache = (uint32_t) ASYNC_G(stack_cache);
	o.thread_pool_size = (uint32_t) ASYNC_G(thread_pool_size);
	o.host = &async_host;
	o.errbuf = errbuf;
	o.errbuf_size = errbuf_size;
	o.zombie_timeout_ns = ASYNC_G(zombie_timeout) > 0 ? (uint64_t) (ASYNC_G(zombie_timeout) * 1e9) : 1;
	/* Under `ulimit -v`, PHP's heap must still find room to grow to
	 * memory_limit after coroutine stacks took what they could: a stack that
	 * does not fit fails its coroutine, where PHP's allocator would end the
	 * process. */
	o.address_space_reserve = (PG(memory_limit) > 0 && (uint64_t) PG(memory_limit) < ((uint64_t) 1 << 40)
		? (size_t) PG(memory_limit) : (size_t) 256 << 20) + ((size_t) 64 << 20);
	return tasync_runtime_create(&o, out);
}

tasync_runtime_t *async_runtime(void)
{
	if (EXPECTED(ASYNC_G(rt) != NULL)) {
		return ASYNC_G(rt);
	}
	if (ASYNC_G(fiber_used) || EG(active_fiber) != NULL) {
		zend_throw_exception(async_ce_async_exception,
			"Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other", 0);
		return NULL;
	}
	char why[512] = "";
	tasync_runtime_t *rt = NULL;
	int rc = create_runtime(&rt, why, sizeof(why));
	if (rc != 0) {
		async_safe_point();
		zend_throw_exception_ex(async_ce_async_exception, rc, "Cannot start the True Async runtime: %s",
			why[0] ? why : tasync_strerror(rc));
		return NULL;
	}
	ASYNC_G(rt) = rt;
	ASYNC_G(main_co) = tasync_coroutine_current(rt);
	async_stall_runtime_created(rt);
	tasync_coroutine_set_host_data(ASYNC_G(main_co), &ASYNC_G(main_vm));
	/* A backend that could not be loaded was replaced by uv: say why. */
	async_safe_point();
	return rt;
}

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

/* ------------------------------------------------------------- module */

static PHP_GINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(async_globals, 0, sizeof(*async_globals));
}

static PHP_MINIT_FUNCTION(async)
{
	REGISTER_INI_ENTRIES();
	async_register_exceptions();
	async_register_interfaces();
	async_register_coroutine_class();
	async_register_timeout_class();
	async_register_scope_class();
	async_register_context_class();
	async_register_group_class();
	async_register_future_class();
	async_fiber_guard_startup();
	async_exit_hook_startup();
	zend_observer_fcall_register(observe_top_level_code);
	async_io_startup();
	async_signal_startup();

	end_of_script_function.type = ZEND_INTERNAL_FUNCTION;
	end_of_script_function.function_name = zend_string_init_interned("Async\\{end of script}", sizeof("Async\\{end of script}") - 1, 1);
	end_of_script_function.handler = async_end_of_script;
	end_of_script_function.module = &async_module_entry;
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(async)
{
	async_io_shutdown();
	async_exit_hook_shutdown();
	async_fiber_guard_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	ASYNC_G(rt) = NULL;
	ASYNC_G(main_co) = NULL;
	ASYNC_G(main_object) = NULL;
	memset(&ASYNC_G(main_vm), 0, sizeof(ASYNC_G(main_vm)));
	zend_hash_init(&ASYNC_G(filenames), 8, NULL, ZVAL_PTR_DTOR, 0);
	ASYNC_G(last_filename) = NULL;
	ASYNC_G(deferred) = NULL;
	ASYNC_G(deferred_count) = ASYNC_G(deferred_size) = 0;
	ASYNC_G(warnings) = NULL;
	ASYNC_G(warning_count) = ASYNC_G(warning_size) = 0;
	ASYNC_G(deferred_scopes) = NULL;
	ASYNC_G(deferred_scope_count) = ASYNC_G(deferred_scope_size) = 0;
	async_scope_extras_init();
	ASYNC_G(bailout_pending) = false;
	ASYNC_G(aborting) = false;
	ASYNC_G(fatal_abort) = false;
	ASYNC_G(fiber_used) = false;
	/* ext/sockets and ext/mysqli loaded after async (dl()) are taken over now. */
	async_io_sockets_startup();
	async_io_mysqli_startup();
	async_io_pdo_startup();
	register_end_of_script();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(async)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt != NULL) {
		/* What shutdown functions and destructors started (C16, C19). */
		drain();
		/* What is left (after a deadlock, exit or a fatal error) unwinds. */
		async_abort_all(TASYNC_ABORT_END);
		tasync_runtime_run(rt);
		async_safe_point();

		if (ASYNC_G(main_object) != NULL) {
			/* The main coroutine dies with the runtime: detach its object. */
			async_coroutine_obj *c = async_coroutine_obj_from(ASYNC_G(main_object));
			tasync_coroutine_release(c->co);
			c->co = NULL;
			OBJ_RELEASE(ASYNC_G(main_object));
			ASYNC_G(main_object) = NULL;
		}
		async_io_request_shutdown();
		tasync_coroutine_set_host_data(ASYNC_G(main_co), NULL);
		ASYNC_G(rt) = NULL;
		ASYNC_G(main_co) = NULL;
		tasync_runtime_destroy(rt);
		async_signal_request_shutdown();
		/* Show nothing more; release what the teardown handed back. */
		for (uint32_t i = 0; i < ASYNC_G(warning_count); i++) {
			zend_string_release(ASYNC_G(warnings)[i].message);
		}
		ASYNC_G(warning_count) = 0;
		async_safe_point();
	}
	if (ASYNC_G(deferred) != NULL) {
		efree(ASYNC_G(deferred));
		ASYNC_G(deferred) = NULL;
	}
	if (ASYNC_G(deferred_scopes) != NULL) {
		efree(ASYNC_G(deferred_scopes));
		ASYNC_G(deferred_scopes) = NULL;
	}
	ASYNC_G(deferred_scope_count) = ASYNC_G(deferred_scope_size) = 0;
	async_scope_extras_destroy();
	if (ASYNC_G(warnings) != NULL) {
		efree(ASYNC_G(warnings));
		ASYNC_G(warnings) = NULL;
	}
	ASYNC_G(warning_count) = ASYNC_G(warning_size) = 0;
	zend_hash_destroy(&ASYNC_G(filenames));
	ASYNC_G(last_filename) = NULL;
	return SUCCESS;
}

static void capability_names(uint64_t caps, smart_str *out)
{
	static const struct { uint64_t bit; const char *name; } names[] = {
		{ TASYNC_CAP_COMPLETION, "completion" },
		{ TASYNC_CAP_OFFLOAD, "offload" },
		{ TASYNC_CAP_FILE_READINESS, "file-readiness" },
		{ TASYNC_CAP_PIDFD, "pidfd" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (caps & names[i].bit) {
			if (out->s != NULL && ZSTR_LEN(out->s) > 0) {
				smart_str_appends(out, ", ");
			}
			smart_str_appends(out, names[i].name);
		}
	}
	if (out->s == NULL || ZSTR_LEN(out->s) == 0) {
		smart_str_appends(out, "none");
	}
	smart_str_0(out);
}

static void op_names(uint64_t mask, smart_str *out)
{
	static const char *names[TASYNC_OP_COUNT_] = {
		"nop", "read", "write", "recv", "send", "accept", "connect", "close", "fsync", "openat",
	};
	for (int op = 0; op < TASYNC_OP_COUNT_; op++) {
		if (mask & TASYNC_OP_BIT(op)) {
			if (out->s != NULL && ZSTR_LEN(out->s) > 0) {
				smart_str_appends(out, ", ");
			}
			smart_str_appends(out, names[op]);
		}
	}
	if (out->s == NULL || ZSTR_LEN(out->s) == 0) {
		smart_str_appends(out, "none (emulated by the core)");
	}
	smart_str_0(out);
}

static PHP_MINFO_FUNCTION(async)
{
	char buf[256];
	php_info_print_table_start();
	php_info_print_table_row(2, "True Async support", "enabled");
	php_info_print_table_row(2, "Extension version", PHP_ASYNC_VERSION);
	uint32_t core_abi = tasync_core_abi_version();
	snprintf(buf, sizeof(buf), "%u.%u (libtasync %s, built against %u.%u)",
		TASYNC_ABI_MAJOR_OF(core_abi), TASYNC_ABI_MINOR_OF(core_abi), tasync_core_version_string(),
		TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR);
	php_info_print_table_row(2, "ABI version", buf);

	/* The backend in use: the request's runtime, or a short-lived one. */
	tasync_runtime_t *rt = ASYNC_G(rt);
	bool temporary = false;
	char why[512] = "";
	if (rt == NULL && tasync_runtime_current() == NULL) {
		if (create_runtime(&rt, why, sizeof(why)) == 0) {
			temporary = true;
		} else {
			rt = NULL;
		}
	}
	for (uint32_t i = 0; i < ASYNC_G(warning_count); i++) {
		php_info_print_table_row(2, "Backend warning", ZSTR_VAL(ASYNC_G(warnings)[i].message));
		zend_string_release(ASYNC_G(warnings)[i].message);
	}
	ASYNC_G(warning_count) = 0;
	if (rt != NULL) {
		tasync_backend_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		tasync_runtime_backend_info(rt, &info);
		php_info_print_table_row(2, "Backend", info.name ? info.name : "?");
		php_info_print_table_row(2, "Backend version", info.version ? info.version : "?");
		php_info_print_table_row(2, "Backend path", info.path ? info.path : "?");
		snprintf(buf, sizeof(buf), "%u.%u", TASYNC_ABI_MAJOR_OF(info.abi_version), TASYNC_ABI_MINOR_OF(info.abi_version));
		php_info_print_table_row(2, "Backend ABI version", buf);
		smart_str caps = {0}, ops = {0};
		capability_names(info.capabilities, &caps);
		op_names(info.op_mask, &ops);
		php_info_print_table_row(2, "Backend capabilities", ZSTR_VAL(caps.s));
		php_info_print_table_row(2, "Native operations", ZSTR_VAL(ops.s));
		smart_str_free(&caps);
		smart_str_free(&ops);
	} else {
		php_info_print_table_row(2, "Backend", why[0] ? why : "not loaded");
	}
	if (temporary) {
		tasync_runtime_destroy(rt);
		async_safe_point();
	}
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

static const zend_module_dep async_deps[] = {
	ZEND_MOD_REQUIRED("standard")
	/* Its tcp transport must be registered before ours wraps it. */
	ZEND_MOD_OPTIONAL("openssl")
	/* Its functions must exist before io_curl.c takes them over. */
	ZEND_MOD_OPTIONAL("curl")
	/* pcntl_signal() is wrapped by signal.c (Async\signal, C26). */
	ZEND_MOD_OPTIONAL("pcntl")
	/* Likewise for io_sockets.c (which also looks again at RINIT). */
	ZEND_MOD_OPTIONAL("sockets")
	ZEND_MOD_OPTIONAL("mysqli")
	ZEND_MOD_END
};

zend_module_entry async_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	async_deps,
	"async",
	NULL, /* functions: set in get_module */
	PHP_MINIT(async),
	PHP_MSHUTDOWN(async),
	PHP_RINIT(async),
	PHP_RSHUTDOWN(async),
	PHP_MINFO(async),
	PHP_ASYNC_VERSION,
	PHP_MODULE_GLOBALS(async),
	PHP_GINIT(async),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_ASYNC
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_DLEXPORT zend_module_entry *get_module(void);
ZEND_DLEXPORT zend_module_entry *get_module(void)
{
	async_module_entry.functions = async_functions;
	return &async_module_entry;
}
#endif
