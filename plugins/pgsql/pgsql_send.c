/*
 * pgsql_send.c - PHP's own asynchronous API (pg_send_query,
 * pg_send_query_params, pg_send_prepare, pg_send_execute, pg_get_result)
 * inside coroutines, and the busy guard of every other ext/pgsql function
 * that takes a connection.
 *
 * These handlers block only where the connection is busy: pg_get_result
 * waits in PQgetResult for the server's answer, and pg_send_* wait there
 * too for the results of a previous query they discard. So the coroutine
 * first waits (cooperatively) until PQgetResult would not block, then
 * PHP's own handler runs: return values, notices and the connection's
 * blocking mode stay exactly PHP's. What still blocks: pg_send_* of a query
 * larger than the socket's send buffer, which PHP sends in a loop of
 * usleep(10000) (it returns only when all is sent).
 *
 * The guard: while a coroutine is suspended in an operation on a
 * connection, another coroutine that passes the same connection (or a
 * result or large object of it) to any pg_* function gets an Error naming
 * both coroutines (conn.c), before libpq could mix their protocol traffic
 * or free the connection under the first one.
 */
#include "async_pgsql.h"

#include "zend_extensions.h"

/* Every hook's original handler, in a reserved slot of its zend_function
 * (zend_get_resource_handle), so that one handler can serve many. */
static int apg_slot = -1;

static zif_handler apg_original(zend_execute_data *execute_data)
{
	return (zif_handler) execute_data->func->internal_function.reserved[apg_slot];
}

static bool apg_hook_slot(const char *name, zif_handler handler)
{
	zif_handler orig = apg_hook(CG(function_table), name, handler);
	if (orig == NULL) {
		return false;
	}
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
	fn->internal_function.reserved[apg_slot] = (void *) orig;
	return true;
}

/* The connection behind the first argument, if it is a PgSql object. */
static PGconn *apg_arg_conn(zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() < 1) {
		return NULL;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(arg);
	if (Z_TYPE_P(arg) != IS_OBJECT) {
		return NULL;
	}
	zend_class_entry *ce = Z_OBJCE_P(arg);
	if (ce == apg_link_ce) {
		return apg_link_from_obj(Z_OBJ_P(arg))->conn;
	}
	if (ce == apg_result_ce) {
		return apg_result_from_obj(Z_OBJ_P(arg))->conn;
	}
	if (ce == apg_lob_ce) {
		return apg_lob_from_obj(Z_OBJ_P(arg))->conn;
	}
	return NULL;
}

/* Any other pg_* function: PHP's, unless another coroutine is inside an
 * operation on the same connection. */
static ZEND_NAMED_FUNCTION(apg_guard)
{
	if (APG_G(busy_ready) && zend_hash_num_elements(&APG_G(busy)) > 0 && !APG_G(disabled)) {
		PGconn *conn = apg_arg_conn(execute_data);
		if (conn != NULL && apg_conn_busy_error(conn)) {
			RETURN_THROWS();
		}
	}
	apg_original(execute_data)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* pg_close, pg_connection_reset, pg_ping: they may close the socket (PQfinish,
 * PQreset), so the runtime forgets it first (conn.c). */
static ZEND_NAMED_FUNCTION(apg_guard_closing)
{
	PGconn *conn = apg_arg_conn(execute_data);
	if (conn == NULL && ZEND_NUM_ARGS() == 0 && apg_link_ce != NULL) {
		zend_object *def = apg_pgsql_globals_ptr()->default_link;
		conn = def != NULL ? apg_link_from_obj(def)->conn : NULL;
	}
	if (conn != NULL && APG_G(busy_ready) && zend_hash_num_elements(&APG_G(busy)) > 0 && !APG_G(disabled)
			&& apg_conn_busy_error(conn)) {
		RETURN_THROWS();
	}
	apg_conn_closing(conn);
	apg_original(execute_data)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static const char *const apg_closing[] = {"pg_close", "pg_connection_reset", "pg_ping"};

/* PgSql\Connection's free_obj (ext/pgsql's object handlers): PQfinish. */
static void (*orig_link_free_obj)(zend_object *obj);
static zend_object_handlers *apg_link_handlers;

static void apg_link_free_obj(zend_object *obj)
{
	apg_link *link = apg_link_from_obj(obj);
	if (link->conn != NULL && !link->persistent) {
		apg_conn_closing(link->conn);
	}
	orig_link_free_obj(obj);
}

void apg_pgsql_hook_link_free(zend_object *probe)
{
	/* ext/pgsql's handlers of PgSql\Connection objects: one static table,
	 * reached through an object's handlers pointer (layout.c passes a new
	 * one once its layout is checked). */
	if (apg_link_handlers == NULL && probe->handlers->free_obj != apg_link_free_obj) {
		apg_link_handlers = (zend_object_handlers *) probe->handlers;
		orig_link_free_obj = apg_link_handlers->free_obj;
		apg_link_handlers->free_obj = apg_link_free_obj;
	}
}

void apg_pgsql_send_shutdown(void)
{
	if (apg_link_handlers != NULL && apg_link_handlers->free_obj == apg_link_free_obj) {
		apg_link_handlers->free_obj = orig_link_free_obj;
	}
}

/*
 * pg_send_query, pg_send_query_params, pg_send_prepare, pg_send_execute,
 * pg_get_result: wait until the connection's pending result is in, then
 * PHP's handler. A cancelled wait cancels the query on the server and
 * drains it; the function then fails as documented (false).
 */
static ZEND_NAMED_FUNCTION(apg_wait_then_php)
{
	tasync_coroutine_t *co = apg_coroutine();
	PGconn *conn = co != NULL ? apg_arg_conn(execute_data) : NULL;
	zval *arg = ZEND_NUM_ARGS() >= 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	if (conn == NULL || Z_OBJCE_P(arg) != apg_link_ce) {
		/* Not in a coroutine, or arguments PHP will reject. */
		apg_original(execute_data)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	apg_op op;
	if (apg_op_begin(&op, conn, co) != APG_DONE) {
		RETURN_THROWS();
	}
	zend_object *hold = Z_OBJ_P(arg);
	GC_ADDREF(hold);
	apg_status st = apg_wait_result(&op);
	/* PHP's handler manages the blocking mode itself. */
	apg_op_end(&op, -1);
	if (st == APG_DONE) {
		apg_original(execute_data)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	} else if (st == APG_CANCELLED) {
		RETVAL_FALSE;
	}
	OBJ_RELEASE(hold);
}

static const char *const apg_waiting[] = {
	"pg_send_query", "pg_send_query_params", "pg_send_prepare", "pg_send_execute", "pg_get_result",
};

/* Made cooperative elsewhere: not guarded here. */
static const char *const apg_own[] = {
	"pg_connect", "pg_pconnect", "pg_query", "pg_exec", "pg_query_params", "pg_prepare", "pg_execute",
	"pg_copy_from", "pg_copy_to",
};

static bool apg_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(name, list[i]) == 0) {
			return true;
		}
	}
	return false;
}

void apg_pgsql_send_startup(void)
{
	apg_slot = zend_get_resource_handle("async_pgsql");
	if (apg_slot < 0) {
		return;
	}
	for (size_t i = 0; i < sizeof(apg_waiting) / sizeof(apg_waiting[0]); i++) {
		apg_hook_slot(apg_waiting[i], apg_wait_then_php);
	}
	for (size_t i = 0; i < sizeof(apg_closing) / sizeof(apg_closing[0]); i++) {
		apg_hook_slot(apg_closing[i], apg_guard_closing);
	}

	zend_module_entry *m = zend_hash_str_find_ptr(&module_registry, "pgsql", sizeof("pgsql") - 1);
	if (m == NULL || m->functions == NULL) {
		return;
	}
	for (const zend_function_entry *fe = m->functions; fe->fname != NULL; fe++) {
		if (apg_in(fe->fname, apg_waiting, sizeof(apg_waiting) / sizeof(apg_waiting[0]))
				|| apg_in(fe->fname, apg_closing, sizeof(apg_closing) / sizeof(apg_closing[0]))
				|| apg_in(fe->fname, apg_own, sizeof(apg_own) / sizeof(apg_own[0]))) {
			continue;
		}
		/* Functions without a connection argument cost one check. */
		apg_hook_slot(fe->fname, apg_guard);
	}
}
