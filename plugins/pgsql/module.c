/*
 * module.c - the module: ini settings, the table of hooked functions,
 * and the one question every hook asks first (apg_coroutine).
 */
#include "async_pgsql.h"

#include "ext/standard/info.h"
#include "php_ini.h"

ZEND_DECLARE_MODULE_GLOBALS(async_pgsql)

/* ------------------------------------------------------------ hook table */

typedef struct apg_hook_entry {
	HashTable *ft;
	const char *name;
	zif_handler original;
	zif_handler replacement;
} apg_hook_entry;

#define APG_HOOK_MAX 256
static apg_hook_entry apg_hooks[APG_HOOK_MAX];
static uint32_t apg_hook_count;

zif_handler apg_hook(HashTable *ft, const char *name, zif_handler handler)
{
	zend_function *fn = zend_hash_str_find_ptr(ft, name, strlen(name));
	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || apg_hook_count == APG_HOOK_MAX) {
		return NULL;
	}
	apg_hook_entry *h = &apg_hooks[apg_hook_count++];
	h->ft = ft;
	h->name = name;
	h->original = fn->internal_function.handler;
	h->replacement = handler;
	fn->internal_function.handler = handler;
	return h->original;
}

static void apg_unhook_all(void)
{
	while (apg_hook_count > 0) {
		apg_hook_entry *h = &apg_hooks[--apg_hook_count];
		zend_function *fn = zend_hash_str_find_ptr(h->ft, h->name, strlen(h->name));
		if (fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == h->replacement) {
			fn->internal_function.handler = h->original;
		}
	}
}

/* -------------------------------------------------------------- checks */

tasync_coroutine_t *apg_coroutine(void)
{
	if (APG_G(disabled)) {
		return NULL;
	}
	/* NULL without a runtime on this thread (async.so not loaded, or not
	 * used yet in this request), outside a coroutine, or when the host
	 * says this coroutine may not suspend now. */
	tasync_coroutine_t *co = tasync_coroutine_suspendable(NULL);
	if (co == NULL) {
		return NULL;
	}
	return apg_layout_verify_pgsql() ? co : NULL;
}

static bool apg_disable_warned;

void apg_disable(const char *why)
{
	APG_G(disabled) = true;
	if (!apg_disable_warned) {
		apg_disable_warned = true;
		php_error_docref(NULL, E_WARNING,
			"async_pgsql is disabled: %s; pg_* and PDO pgsql calls block as in plain PHP", why);
	}
}

/* ------------------------------------------------------------------ ini */

PHP_INI_BEGIN()
	/* For the test that proves the layout self-check works: 1 pretends that
	 * PgSql\Connection, 2 that pdo_pgsql's handle does not have the layout
	 * this build expects. Never set it otherwise. */
	STD_PHP_INI_ENTRY("async_pgsql.layout_fault", "0", PHP_INI_SYSTEM, OnUpdateLong, layout_fault,
		zend_async_pgsql_globals, async_pgsql_globals)
PHP_INI_END()

/* ------------------------------------------------------------ lifecycle */

static PHP_GINIT_FUNCTION(async_pgsql)
{
#if defined(COMPILE_DL_ASYNC_PGSQL) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(async_pgsql_globals, 0, sizeof(*async_pgsql_globals));
}

static PHP_MINIT_FUNCTION(async_pgsql)
{
	REGISTER_INI_ENTRIES();
	/* The core this was built against must offer ABI 1.2 (the blocking
	 * functions of extensions); a newer minor is fine. */
	uint32_t abi = tasync_core_abi_version();
	if (TASYNC_ABI_MAJOR_OF(abi) != TASYNC_ABI_VERSION_MAJOR || TASYNC_ABI_MINOR_OF(abi) < 2) {
		php_error_docref(NULL, E_CORE_WARNING, "async_pgsql needs libtasync ABI %d.2 or newer, the loaded core has %u.%u;"
			" the plugin is disabled", TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_MAJOR_OF(abi), TASYNC_ABI_MINOR_OF(abi));
		return SUCCESS;
	}
	apg_layout_startup();
	if (apg_link_ce != NULL) {
		apg_pgsql_connect_startup();
		apg_pgsql_query_startup();
		apg_pgsql_send_startup();
		apg_pgsql_copy_startup();
	}
	apg_pdo_startup();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(async_pgsql)
{
	apg_pdo_shutdown();
	apg_pgsql_send_shutdown();
	apg_unhook_all();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(async_pgsql)
{
	apg_conn_request_shutdown();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(async_pgsql)
{
	char buf[32];
	php_info_print_table_start();
	php_info_print_table_header(2, "async_pgsql", "enabled");
	php_info_print_table_row(2, "Version", PHP_ASYNC_PGSQL_VERSION);
	snprintf(buf, sizeof(buf), "%u.%u", TASYNC_ABI_MAJOR_OF(tasync_core_abi_version()),
		TASYNC_ABI_MINOR_OF(tasync_core_abi_version()));
	php_info_print_table_row(2, "tasync core ABI", buf);
	snprintf(buf, sizeof(buf), "%d", PQlibVersion());
	php_info_print_table_row(2, "libpq", buf);
	php_info_print_table_row(2, "ext/pgsql", apg_link_ce != NULL ? "cooperative in coroutines" : "not loaded");
	php_info_print_table_row(2, "Self-check", APG_G(disabled) ? "failed: plugin disabled" : "passed or pending");
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

static const zend_module_dep async_pgsql_deps[] = {
	/* Loaded after them (their classes and functions exist at our MINIT),
	 * whatever the order of the extension= lines. */
	ZEND_MOD_OPTIONAL("pgsql")
	ZEND_MOD_OPTIONAL("pdo")
	ZEND_MOD_OPTIONAL("pdo_pgsql")
	ZEND_MOD_OPTIONAL("async")
	ZEND_MOD_END
};

zend_module_entry async_pgsql_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	async_pgsql_deps,
	"async_pgsql",
	NULL,
	PHP_MINIT(async_pgsql),
	PHP_MSHUTDOWN(async_pgsql),
	NULL,
	PHP_RSHUTDOWN(async_pgsql),
	PHP_MINFO(async_pgsql),
	PHP_ASYNC_PGSQL_VERSION,
	PHP_MODULE_GLOBALS(async_pgsql),
	PHP_GINIT(async_pgsql),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_ASYNC_PGSQL
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(async_pgsql)
#endif
