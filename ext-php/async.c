/*
 * async.c - the module: the top of the extension, which nothing else
 * includes. It declares the ini settings and the module globals, lists
 * the startup and shutdown of every wing in the order they must run, and
 * assembles the host table from the members the wings implement:
 *
 *   api/      the PHP classes and functions of the Async namespace
 *   io/       rule C18: the blocking PHP functions taken over, one file per
 *             family, over the I/O floor (io/wait.c, io/busy.c, io/poll.c,
 *             io/hooks.c)
 *   runtime/  the runtime in a request, the host's callbacks, the guards
 *             (Fibers, exit()), the stall watchdog, signals
 *
 * docs/architecture.md draws the layers; ext-php/tools/check_includes.py
 * keeps the imports running one way (no file below includes this one's
 * header, php_async.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php_async.h"

#include "api/channel.h"
#include "api/context.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/functions.h"
#include "api/future.h"
#include "api/group.h"
#include "api/pool.h"
#include "api/scope.h"
#include "api/scope_holds.h"
#include "api/spawn.h"
#include "api/task_set.h"
#include "api/timeout.h"
#include "io/busy.h"
#include "io/families.h"
#include "io/filesystems.h"
#include "io/hooks.h"
#include "io/wait.h"
#include "runtime/exit_hook.h"
#include "runtime/fibers.h"
#include "runtime/host.h"
#include "runtime/request.h"
#include "runtime/runtime.h"
#include "runtime/signal.h"
#include "runtime/stall.h"

#include "ext/standard/info.h"
#include "php_ini.h"
#include "zend_smart_str.h"

ZEND_DECLARE_MODULE_GLOBALS(async)

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
 * work (DNS, files, flock) on at once, on every backend. Threads start on
 * demand and exit after 10 s idle; 0 is the core's default (64). Read when
 * the runtime is created. */
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

/* async.fiber_observers: whether coroutine switches are told to the
 * fiber-switch observers of zend_observer.h (debuggers, profilers; rule
 * C13, runtime/fibers.c) from the runtime's start: "auto" (when a Zend
 * extension other than OPcache, or an extension known to observe fibers, is
 * loaded) or "1". There is no "0": an observer that tracks stacks (Xdebug)
 * must hear of every coroutine from its start once any switch is told, and
 * a request's first Fiber makes every switch told. Decided once per
 * process, at its first runtime. */
static ZEND_INI_MH(OnUpdateFiberObservers)
{
	if (zend_string_equals_literal_ci(new_value, "auto") || ZSTR_LEN(new_value) == 0) {
		ASYNC_G(fiber_observers) = -1;
	} else if (zend_string_equals_literal_ci(new_value, "on") || zend_string_equals_literal(new_value, "1")) {
		ASYNC_G(fiber_observers) = 1;
	} else {
		php_error_docref(NULL, E_WARNING, "async.fiber_observers must be auto or 1");
		return FAILURE;
	}
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
	PHP_INI_ENTRY("async.fiber_observers", "auto", PHP_INI_SYSTEM, OnUpdateFiberObservers)
PHP_INI_END()

/* ----------------------------------------------------------- host table */

/* What the core calls back (api/include/tasync/host.h), from the wings
 * that implement each member. */
static const tasync_host_t async_host = {
	.size = sizeof(tasync_host_t),
	.value_retain = async_host_value_retain,
	.value_release = async_host_value_release,
	.error_retain = async_host_error_retain,
	.error_release = async_host_error_release,
	.error_create = async_host_error_create,
	.error_is_cancellation = async_host_error_is_cancellation,
	.error_describe = async_host_error_describe,
	.coroutine_enter = async_host_coroutine_enter,
	.coroutine_leave = async_host_coroutine_leave,
	.coroutine_free = async_host_coroutine_free,
	.warning = async_host_warning,
	.capture_location = async_host_capture_location,
	.may_suspend = async_host_may_suspend,
	.wait_end = async_host_wait_end,
	.warning_at = async_host_warning_at,
	.stall_report = async_stall_report,
};

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
	async_runtime_set_host(&async_host);
	async_register_exceptions();
	async_register_interfaces();
	async_register_coroutine_class();
	async_register_timeout_class();
	async_register_scope_class();
	async_register_context_class();
	async_register_group_class();
	async_register_future_class();
	async_register_channel_class();
	async_register_pool_class();
	async_register_task_set_class();
	async_fibers_startup(async_ce_coroutine);
	async_exit_hook_startup();
	async_request_startup(&async_module_entry);
	/* Rule C18: every family takes over its functions, then the aliases of
	 * those functions get the same hooks. */
	async_io_sleep_startup();
	async_io_socket_transport_startup();
	async_io_socket_streams_startup();
	async_io_select_startup();
	async_io_dns_startup();
	async_io_dns_records_startup();
	async_io_file_contents_startup();
	async_io_stdio_startup();
	async_io_file_metadata_startup();
	async_io_processes_startup();
	async_io_proc_open_startup();
	async_io_ext_sockets_startup();
	async_io_mysqli_startup();
#ifdef ASYNC_HAVE_CURL
	async_io_curl_startup();
#endif
	async_io_hook_aliases();
	async_signal_startup();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(async)
{
	async_io_ext_sockets_shutdown();
	async_io_mysqli_shutdown();
	async_io_socket_transport_shutdown();
	async_io_unhook_all();
	async_io_stdio_shutdown();
	async_io_file_metadata_shutdown();
	async_io_filesystems_shutdown();
	async_exit_hook_shutdown();
	async_fibers_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	async_scope_extras_init();
	/* ext/sockets, ext/mysqli and ext/pdo loaded after async (dl()) are
	 * taken over now. */
	async_io_ext_sockets_startup();
	async_io_mysqli_startup();
	async_io_pdo_startup();
	async_request_begin();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(async)
{
	if (async_request_unwind()) {
		async_coroutine_main_detach();
		/* Every wing lets go of the runtime before it goes. */
#ifdef ASYNC_HAVE_CURL
		async_io_curl_request_shutdown();
#endif
		async_io_stdio_request_shutdown();
		async_io_processes_request_shutdown();
		async_io_proc_open_request_shutdown();
		async_io_pdo_request_shutdown();
		async_io_busy_request_shutdown();
		async_runtime_destroy();
		async_signal_request_shutdown();
		/* Show nothing more; release what the teardown handed back. */
		async_host_discard_warnings();
	}
	async_request_end();
	async_scope_extras_destroy();
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
		if (async_runtime_create(&rt, why, sizeof(why)) == 0) {
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
	/* Its functions must exist before io/curl.c takes them over. */
	ZEND_MOD_OPTIONAL("curl")
	/* pcntl_signal() is wrapped by runtime/signal.c (Async\signal, C26). */
	ZEND_MOD_OPTIONAL("pcntl")
	/* Likewise for io/ext_sockets.c and io/mysqli.c (which look again at RINIT). */
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
