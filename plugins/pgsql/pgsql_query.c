/*
 * pgsql_query.c - pg_query, pg_query_params, pg_prepare and pg_execute
 * inside coroutines.
 *
 * Each does what ext/pgsql's handler does (pgsql.c, PHP-8.2), in the same
 * order and with the same warnings, notices and return values, except
 * that PQexec / PQexecParams / PQprepare / PQexecPrepared are replaced by
 * apg_exec, which sends the same command with libpq's asynchronous API
 * and waits for the results on the coroutine's waits (conn.c). The result
 * object is made by ext/pgsql's PgSql\Result class and filled as ext/pgsql
 * fills it (layout.c checks the layout first).
 *
 * PHP's retry of a command after PQreset when (auto_reset_persistent & 2)
 * is not repeated: the ini setting is a boolean in PHP 8.2, so the bit is
 * never set and the retry never runs in PHP either.
 */
#include "async_pgsql.h"

static zif_handler orig_pg_query, orig_pg_query_params, orig_pg_prepare, orig_pg_execute;

/* FETCH_DEFAULT_LINK + CHECK_DEFAULT_LINK of pgsql.c; NULL with an
 * exception pending. */
static apg_link *apg_default_link(void)
{
	apg_pgsql_globals *g = apg_pgsql_globals_ptr();
	apg_link *link = g->default_link != NULL ? apg_link_from_obj(g->default_link) : NULL;
	php_error_docref(NULL, E_DEPRECATED, "Automatic fetching of PostgreSQL connection is deprecated");
	if (link == NULL) {
		zend_throw_error(NULL, "No PostgreSQL connection opened yet");
		return NULL;
	}
	return link;
}

/* CHECK_PGSQL_LINK of pgsql.c. */
static bool apg_check_link(apg_link *link)
{
	if (link->conn == NULL) {
		zend_throw_error(NULL, "PostgreSQL connection has already been closed");
		return false;
	}
	return true;
}

/* PHP_PQ_ERROR of pgsql.c. */
static void apg_pq_error(const char *text, PGconn *conn)
{
	zend_string *msg = apg_trim_message(PQerrorMessage(conn));
	php_error_docref(NULL, E_WARNING, text, ZSTR_VAL(msg));
	zend_string_release(msg);
}

static void apg_free_params(char **params, int num_params)
{
	if (num_params > 0) {
		for (int i = 0; i < num_params; i++) {
			if (params[i]) {
				efree(params[i]);
			}
		}
		efree(params);
	}
}

/* The parameters of pg_query_params (try_string: zval_try_get_string with
 * references followed) or pg_execute (zval_get_tmp_string). false with an
 * exception pending. */
static bool apg_params(zval *arr, bool try_string, char ***out, int *count)
{
	zval *tmp;
	int num_params = zend_hash_num_elements(Z_ARRVAL_P(arr));
	char **params = NULL;
	*out = NULL;
	*count = num_params;
	if (num_params == 0) {
		return true;
	}
	int i = 0;
	params = (char **) safe_emalloc(sizeof(char *), num_params, 0);
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(arr), tmp) {
		if (try_string) {
			ZVAL_DEREF(tmp);
		}
		if (Z_TYPE_P(tmp) == IS_NULL) {
			params[i] = NULL;
		} else if (try_string) {
			zend_string *param_str = zval_try_get_string(tmp);
			if (!param_str) {
				apg_free_params(params, i);
				*count = 0;
				return false;
			}
			params[i] = estrndup(ZSTR_VAL(param_str), ZSTR_LEN(param_str));
			zend_string_release(param_str);
		} else {
			zend_string *tmp_str;
			zend_string *str = zval_get_tmp_string(tmp, &tmp_str);
			params[i] = estrndup(ZSTR_VAL(str), ZSTR_LEN(str));
			zend_tmp_string_release(tmp_str);
		}
		i++;
	} ZEND_HASH_FOREACH_END();
	*out = params;
	return true;
}

/* The four functions differ in what they parse and send. */
typedef enum apg_qkind { APG_Q_QUERY, APG_Q_PARAMS, APG_Q_PREPARE, APG_Q_EXECUTE } apg_qkind;

static void apg_query_common(INTERNAL_FUNCTION_PARAMETERS, apg_qkind kind, tasync_coroutine_t *co)
{
	zval *pgsql_link = NULL, *pv_param_arr = NULL;
	char *query = NULL, *stmtname = NULL;
	size_t query_len, stmtname_len;
	apg_link *link;
	uint32_t short_form = kind == APG_Q_QUERY ? 1 : 2;

	if (ZEND_NUM_ARGS() == short_form) {
		zend_result r = FAILURE;
		switch (kind) {
			case APG_Q_QUERY: r = zend_parse_parameters(ZEND_NUM_ARGS(), "s", &query, &query_len); break;
			case APG_Q_PARAMS: r = zend_parse_parameters(ZEND_NUM_ARGS(), "sa", &query, &query_len, &pv_param_arr); break;
			case APG_Q_PREPARE: r = zend_parse_parameters(ZEND_NUM_ARGS(), "ss", &stmtname, &stmtname_len, &query, &query_len); break;
			case APG_Q_EXECUTE: r = zend_parse_parameters(ZEND_NUM_ARGS(), "sa", &stmtname, &stmtname_len, &pv_param_arr); break;
		}
		if (r == FAILURE) {
			RETURN_THROWS();
		}
		if ((link = apg_default_link()) == NULL) {
			RETURN_THROWS();
		}
	} else {
		zend_result r = FAILURE;
		switch (kind) {
			case APG_Q_QUERY:
				r = zend_parse_parameters(ZEND_NUM_ARGS(), "Os", &pgsql_link, apg_link_ce, &query, &query_len);
				break;
			case APG_Q_PARAMS:
				r = zend_parse_parameters(ZEND_NUM_ARGS(), "Osa", &pgsql_link, apg_link_ce, &query, &query_len, &pv_param_arr);
				break;
			case APG_Q_PREPARE:
				r = zend_parse_parameters(ZEND_NUM_ARGS(), "Oss", &pgsql_link, apg_link_ce, &stmtname, &stmtname_len, &query, &query_len);
				break;
			case APG_Q_EXECUTE:
				r = zend_parse_parameters(ZEND_NUM_ARGS(), "Osa", &pgsql_link, apg_link_ce, &stmtname, &stmtname_len, &pv_param_arr);
				break;
		}
		if (r == FAILURE) {
			RETURN_THROWS();
		}
		link = apg_link_from_obj(Z_OBJ_P(pgsql_link));
		if (!apg_check_link(link)) {
			RETURN_THROWS();
		}
	}

	PGconn *pgsql = link->conn;
	apg_op op;
	if (apg_op_begin(&op, pgsql, co) != APG_DONE) {
		RETURN_THROWS();
	}
	/* The link stays alive while we wait, even if it is only the default
	 * link and another coroutine closes it. */
	zend_object *hold = &link->std;
	GC_ADDREF(hold);
	PGresult *pgsql_result = NULL;
	char **params = NULL;
	int num_params = 0;
	apg_status st;

	/* PHP: PQsetnonblocking(pgsql, 0), which sends what is unsent. */
	bool flush_failed;
	st = apg_flush(&op, &flush_failed);
	if (st != APG_DONE) {
		goto out;
	}
	if (flush_failed) {
		php_error_docref(NULL, E_NOTICE, "Cannot set connection to blocking mode");
		RETVAL_FALSE;
		goto out;
	}
	int leftover;
	bool ok;
	st = apg_discard_results(&op, &leftover, &ok);
	if (st != APG_DONE) {
		goto out;
	}
	if (leftover) {
		php_error_docref(NULL, E_NOTICE, "Found results on this connection. Use pg_get_result() to get these results first");
	}
	if (pv_param_arr != NULL && !apg_params(pv_param_arr, kind == APG_Q_PARAMS, &params, &num_params)) {
		st = APG_RAISED;
		goto out;
	}

	apg_cmd cmd = {0};
	switch (kind) {
		case APG_Q_QUERY:
			cmd.kind = APG_CMD_QUERY;
			cmd.text = query;
			break;
		case APG_Q_PARAMS:
			cmd.kind = APG_CMD_PARAMS;
			cmd.text = query;
			break;
		case APG_Q_PREPARE:
			cmd.kind = APG_CMD_PREPARE;
			cmd.text = query;
			cmd.stmt_name = stmtname;
			break;
		case APG_Q_EXECUTE:
			cmd.kind = APG_CMD_PREPARED;
			cmd.text = stmtname;
			break;
	}
	cmd.nparams = num_params;
	cmd.values = (const char *const *) params;
	st = apg_exec(&op, &cmd, &pgsql_result);
	apg_free_params(params, num_params);
	if (st == APG_RAISED || st == APG_BUSY) {
		goto out;
	}
	st = APG_DONE; /* a cancelled query reports the server's answer below */

	ExecStatusType status = pgsql_result ? PQresultStatus(pgsql_result) : (ExecStatusType) PQstatus(pgsql);
	switch (status) {
		case PGRES_EMPTY_QUERY:
		case PGRES_BAD_RESPONSE:
		case PGRES_NONFATAL_ERROR:
		case PGRES_FATAL_ERROR:
			apg_pq_error("Query failed: %s", pgsql);
			PQclear(pgsql_result);
			pgsql_result = NULL;
			RETVAL_FALSE;
			break;
		case PGRES_COMMAND_OK:
		default:
			if (pgsql_result) {
				object_init_ex(return_value, apg_result_ce);
				apg_result *pg_result = apg_result_from_obj(Z_OBJ_P(return_value));
				pg_result->conn = pgsql;
				pg_result->result = pgsql_result;
				pg_result->row = 0;
				pgsql_result = NULL;
			} else {
				RETVAL_FALSE;
			}
			break;
	}

out:
	PQclear(pgsql_result);
	apg_op_end(&op, 0);
	OBJ_RELEASE(hold);
	if (st == APG_RAISED) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

#define APG_QUERY_HOOK(name, kind)                                      \
	static ZEND_NAMED_FUNCTION(apg_##name)                              \
	{                                                                   \
		tasync_coroutine_t *co = apg_coroutine();                       \
		if (co == NULL) {                                               \
			orig_##name(INTERNAL_FUNCTION_PARAM_PASSTHRU);              \
			return;                                                     \
		}                                                               \
		apg_query_common(INTERNAL_FUNCTION_PARAM_PASSTHRU, kind, co);   \
	}

APG_QUERY_HOOK(pg_query, APG_Q_QUERY)
APG_QUERY_HOOK(pg_query_params, APG_Q_PARAMS)
APG_QUERY_HOOK(pg_prepare, APG_Q_PREPARE)
APG_QUERY_HOOK(pg_execute, APG_Q_EXECUTE)

void apg_pgsql_query_startup(void)
{
	orig_pg_query = apg_hook(CG(function_table), "pg_query", apg_pg_query);
	orig_pg_query_params = apg_hook(CG(function_table), "pg_query_params", apg_pg_query_params);
	orig_pg_prepare = apg_hook(CG(function_table), "pg_prepare", apg_pg_prepare);
	orig_pg_execute = apg_hook(CG(function_table), "pg_execute", apg_pg_execute);
	/* pg_exec is pg_query's alias: same handler, its own entry. */
	if (orig_pg_query != NULL) {
		apg_hook(CG(function_table), "pg_exec", apg_pg_query);
	}
}
