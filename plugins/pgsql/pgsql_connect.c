/*
 * pgsql_connect.c - pg_connect and pg_pconnect inside coroutines.
 *
 * pg_connect: ext/pgsql's own handler is asked for the connection with
 * PGSQL_CONNECT_ASYNC, which makes it use PQconnectStart instead of the
 * blocking PQconnectdb while doing all of its own bookkeeping (the
 * PgSql\Connection object, the table of connections, the default link, the
 * notice processor, max_links). This file then drives PQconnectPoll on the
 * coroutine's waits, applies connect_timeout (libpq leaves it to the
 * caller of PQconnectPoll), and makes the result look exactly like a
 * blocking connect: the link is filed under the key a blocking connect
 * uses (so later pg_connect calls with the same string reuse it, as in
 * PHP), and a failed connect leaves the default link as it was and warns
 * with PHP's message. The host name is still resolved inside
 * PQconnectStart (libpq has no asynchronous resolver): numeric addresses,
 * Unix sockets and /etc/hosts names do not wait.
 *
 * pg_pconnect: done here the way ext/pgsql does it (php_pgsql_do_connect),
 * with its round trips on a reused persistent connection (the
 * auto_reset_persistent ping, PQreset of a lost one, RESET ALL) made
 * cooperatively, and a new connection started by PQconnectStart on the
 * thread pool (so that even name resolution does not block) and finished
 * by PQconnectPoll.
 */
#include "async_pgsql.h"

#include "zend_smart_str.h"
#include "zend_list.h"

static zif_handler orig_pg_connect, orig_pg_pconnect;
/* Set while this file calls ext/pgsql's own handler through the function
 * table: the hook then passes the call through. */
static bool apg_passthrough;

/* The key ext/pgsql files a connection under. */
static zend_string *apg_link_key(const char *connstr, size_t len, zend_long type)
{
	smart_str str = {0};
	smart_str_appends(&str, "pgsql");
	smart_str_appendl(&str, connstr, len);
	smart_str_appendc(&str, '_');
	smart_str_append_long(&str, type & ~APG_CONNECT_FORCE_NEW);
	smart_str_0(&str);
	return str.s;
}

/* Calls ext/pgsql's own function name with a connection string and type. */
static void apg_call_pgsql(const char *name, const char *connstr, size_t len, zend_long type, zval *retval)
{
	zval fname, args[2];
	ZVAL_STRING(&fname, name);
	ZVAL_STRINGL(&args[0], connstr, len);
	ZVAL_LONG(&args[1], type);
	apg_passthrough = true;
	if (call_user_function(NULL, NULL, &fname, retval, 2, args) != SUCCESS) {
		ZVAL_FALSE(retval);
	}
	apg_passthrough = false;
	zval_ptr_dtor(&fname);
	zval_ptr_dtor(&args[0]);
}

/*
 * Drives the connection attempt of conn (started by PQconnectStart, or
 * PQresetStart when reset) to its end. Returns APG_DONE with *ok, or with
 * *failure set to the message to print when it failed for a reason libpq
 * does not report itself (timeout, cancellation); APG_RAISED.
 */
static apg_status apg_finish_connect(PGconn *conn, tasync_coroutine_t *co, bool reset, bool *ok, zend_string **failure,
	bool offload, void *notice_arg)
{
	apg_op op;
	*failure = NULL;
	*ok = false;
	if (apg_op_begin(&op, conn, co) != APG_DONE) {
		return APG_RAISED; /* cannot happen: nobody else knows conn yet */
	}
	int timeout = apg_connect_timeout(conn);
	uint64_t deadline = timeout > 0 ? tasync_runtime_now(op.rt) + (uint64_t) timeout * 1000000000u : 0;
	bool timed_out = false;
	apg_status st = apg_connect_poll(&op, reset, deadline, ok, &timed_out, offload, notice_arg);
	apg_op_end(&op, 0);
	if (st == APG_DONE && timed_out) {
		*failure = apg_connect_failure(conn, "timeout expired");
	} else if (st == APG_CANCELLED) {
		*failure = apg_connect_failure(conn, "the connecting coroutine was cancelled");
		st = APG_DONE;
	}
	return st;
}

static void apg_warn_unable(PGconn *conn, zend_string *failure)
{
	if (failure != NULL) {
		php_error_docref(NULL, E_WARNING, "Unable to connect to PostgreSQL server: %s", ZSTR_VAL(failure));
		zend_string_release(failure);
		return;
	}
	zend_string *msg = apg_trim_message(conn != NULL ? PQerrorMessage(conn) : "");
	php_error_docref(NULL, E_WARNING, "Unable to connect to PostgreSQL server: %s", ZSTR_VAL(msg));
	zend_string_release(msg);
}

/* pg_connect(string $connection_string, int $flags = 0): PgSql\Connection|false */
static ZEND_NAMED_FUNCTION(apg_pg_connect)
{
	char *connstr;
	size_t len;
	zend_long type = 0;
	tasync_coroutine_t *co;

	if (apg_passthrough || (co = apg_coroutine()) == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "s|l", &connstr, &len, &type) == FAILURE
			|| (type & APG_CONNECT_ASYNC)) {
		/* Not in a coroutine, bad arguments (PHP reports them), or the
		 * caller asked for PHP's own non-blocking connect. */
		orig_pg_connect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	apg_pgsql_globals *g = apg_pgsql_globals_ptr();
	zend_string *key = apg_link_key(connstr, len, type);
	if (!(type & APG_CONNECT_FORCE_NEW) && zend_hash_exists(&g->connections, key)) {
		/* PHP reuses the link it has: nothing blocks. */
		zend_string_release(key);
		orig_pg_connect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	/* The default link before: a failed connect must leave it as it was. */
	zend_object *prev_default = g->default_link;
	if (prev_default != NULL) {
		GC_ADDREF(prev_default);
	}
	zval link_zv;
	apg_call_pgsql("pg_connect", connstr, len, type | APG_CONNECT_ASYNC | APG_CONNECT_FORCE_NEW, &link_zv);
	if (Z_TYPE(link_zv) != IS_OBJECT) {
		/* PQconnectStart refused at once; PHP warned (or threw). */
		if (prev_default != NULL) {
			OBJ_RELEASE(prev_default);
		}
		zend_string_release(key);
		RETVAL_COPY_VALUE(&link_zv);
		return;
	}
	zend_object *obj = Z_OBJ(link_zv);
	if (!apg_layout_verify_pgsql_link(obj)) {
		/* Our view of ext/pgsql is wrong: let PHP close what it made and
		 * connect the blocking way (the plugin is disabled now). */
		zval fname, rv;
		ZVAL_STRING(&fname, "pg_close");
		call_user_function(NULL, NULL, &fname, &rv, 1, &link_zv);
		zval_ptr_dtor(&fname);
		zval_ptr_dtor(&rv);
		zval_ptr_dtor(&link_zv);
		if (prev_default != NULL) {
			OBJ_RELEASE(prev_default);
		}
		zend_string_release(key);
		orig_pg_connect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	apg_link *link = apg_link_from_obj(obj);

	/* File it where a blocking connect would have. */
	zend_hash_del(&g->connections, link->hash);
	zend_string_release(link->hash);
	link->hash = key;
	zend_hash_update(&g->connections, key, &link_zv);

	bool ok;
	zend_string *failure;
	/* ext/pgsql's notice processor has the link as its argument (libpq's
	 * default one, when notices are ignored, has none). */
	apg_status st = apg_finish_connect(link->conn, co, false, &ok, &failure, true, link);
	if (st == APG_DONE && ok) {
		if (prev_default != NULL) {
			OBJ_RELEASE(prev_default);
		}
		RETURN_COPY_VALUE(&link_zv);
	}
	if (st == APG_DONE) {
		apg_warn_unable(link->conn, failure);
	} else if (failure != NULL) {
		zend_string_release(failure);
	}
	/* Undo: the default link as it was, the new link freed by ext/pgsql
	 * itself (it leaves the table of connections and the link count). */
	if (g->default_link == obj) {
		g->default_link = prev_default;
		OBJ_RELEASE(obj);
	} else if (prev_default != NULL) {
		OBJ_RELEASE(prev_default);
	}
	zval_ptr_dtor(&link_zv);
	if (st == APG_RAISED) {
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

/* ---------------------------------------------------------- pg_pconnect */

typedef struct apg_start_job {
	const char *connstr;
	PGconn *conn;
} apg_start_job;

static void apg_start_work(void *data)
{
	apg_start_job *job = data;
	job->conn = PQconnectStart(job->connstr);
}

/* ext/pgsql's notice processor, as _php_pgsql_notice_handler. */
static void apg_notice_handler(void *arg, const char *message)
{
	apg_link *link = arg;
	if (zend_ini_long("pgsql.ignore_notice", sizeof("pgsql.ignore_notice") - 1, 0)) {
		return;
	}
	if (!link->notices) {
		link->notices = zend_new_array(1);
	}
	zend_string *trimmed = apg_trim_message(message);
	if (zend_ini_long("pgsql.log_notice", sizeof("pgsql.log_notice") - 1, 0)) {
		php_error_docref(NULL, E_NOTICE, "%s", ZSTR_VAL(trimmed));
	}
	zval tmp;
	ZVAL_STR(&tmp, trimmed);
	zend_hash_next_index_insert(link->notices, &tmp);
}

/* PQexec(conn, sql) without blocking, result discarded; false when the
 * coroutine must return at once (an exception is pending). */
static bool apg_exec_discard(PGconn *conn, tasync_coroutine_t *co, const char *sql)
{
	apg_op op;
	if (apg_op_begin(&op, conn, co) != APG_DONE) {
		return false;
	}
	apg_cmd cmd = {.kind = APG_CMD_QUERY, .text = sql};
	PGresult *res = NULL;
	apg_status st = apg_exec(&op, &cmd, &res);
	apg_op_end(&op, 0);
	PQclear(res);
	return st != APG_RAISED && st != APG_BUSY;
}

static int apg_le_plink(void)
{
	static int id = -1;
	if (id < 0) {
		id = zend_fetch_list_dtor_id("pgsql link persistent");
	}
	return id;
}

/* The PgSql\Connection of a persistent connection, as ext/pgsql makes it:
 * takes key; becomes the default link. */
static void apg_make_plink(zval *return_value, PGconn *conn, zend_string *key)
{
	apg_pgsql_globals *g = apg_pgsql_globals_ptr();
	object_init_ex(return_value, apg_link_ce);
	apg_link *link = apg_link_from_obj(Z_OBJ_P(return_value));
	link->conn = conn;
	link->hash = key;
	link->notices = NULL;
	link->persistent = 1;
	if (!zend_ini_long("pgsql.ignore_notice", sizeof("pgsql.ignore_notice") - 1, 0)) {
		PQsetNoticeProcessor(conn, apg_notice_handler, link);
	}
	/* php_pgsql_set_default_link */
	GC_ADDREF(Z_OBJ_P(return_value));
	if (g->default_link != NULL) {
		zend_object_release(g->default_link);
	}
	g->default_link = Z_OBJ_P(return_value);
}

/* pg_pconnect(string $connection_string, int $flags = 0): PgSql\Connection|false */
static ZEND_NAMED_FUNCTION(apg_pg_pconnect)
{
	char *connstr;
	size_t len;
	zend_long type = 0;
	tasync_coroutine_t *co;

	if ((co = apg_coroutine()) == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "s|l", &connstr, &len, &type) == FAILURE
			|| !zend_ini_long("pgsql.allow_persistent", sizeof("pgsql.allow_persistent") - 1, 0)
			|| apg_le_plink() <= 0) {
		/* Without persistent links PHP makes an ordinary one: pg_connect's
		 * hook would, but through this handler it would block; this case
		 * is rare enough to stay PHP's. */
		orig_pg_pconnect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	apg_pgsql_globals *g = apg_pgsql_globals_ptr();
	zend_string *key = apg_link_key(connstr, len, type);
	zend_resource *le = zend_hash_find_ptr(&EG(persistent_list), key);
	if (le != NULL) {
		/* An existing link: the round trips PHP makes on it (the
		 * auto_reset_persistent ping, a reset of a lost connection, RESET
		 * ALL), cooperatively, then the object as PHP makes it. */
		zend_string_release(key);
		if (le->type != apg_le_plink() || le->ptr == NULL) {
			orig_pg_pconnect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
		}
		PGconn *conn = le->ptr;
		if (g->auto_reset_persistent & 1) {
			if (!apg_exec_discard(conn, co, "select 1")) {
				RETURN_THROWS();
			}
		}
		if (PQstatus(conn) == CONNECTION_BAD) {
			if (PQresetStart(conn)) {
				bool ok;
				zend_string *failure;
				/* Its notice processor's argument is not known here: the
				 * reset's steps run on the loop (a rare path). */
				if (apg_finish_connect(conn, co, true, &ok, &failure, false, NULL) == APG_RAISED) {
					RETURN_THROWS();
				}
				if (failure != NULL) {
					zend_string_release(failure);
				}
			}
			if (PQstatus(conn) == CONNECTION_BAD) {
				php_error_docref(NULL, E_WARNING, "PostgreSQL connection lost, unable to reconnect");
				zend_string *k = apg_link_key(connstr, len, type);
				zend_hash_del(&EG(persistent_list), k);
				zend_string_release(k);
				RETURN_FALSE;
			}
		}
		if (PQprotocolVersion(conn) >= 3 && PQparameterStatus(conn, "server_version") != NULL
				&& zend_strtod(PQparameterStatus(conn, "server_version"), NULL) >= 7.2) {
			if (!apg_exec_discard(conn, co, "RESET ALL;")) {
				RETURN_THROWS();
			}
		}
		apg_make_plink(return_value, conn, apg_link_key(connstr, len, type));
		return;
	}

	if (g->max_links != -1 && g->num_links >= g->max_links) {
		zend_string_release(key);
		php_error_docref(NULL, E_WARNING, "Cannot create new link. Too many open links (" ZEND_LONG_FMT ")", g->num_links);
		RETURN_FALSE;
	}
	if (g->max_persistent != -1 && g->num_persistent >= g->max_persistent) {
		zend_string_release(key);
		php_error_docref(NULL, E_WARNING, "Cannot create new link. Too many open persistent links (" ZEND_LONG_FMT ")",
			g->num_persistent);
		RETURN_FALSE;
	}

	/* PQconnectStart resolves host names: on the thread pool. */
	apg_op op;
	memset(&op, 0, sizeof(op));
	op.rt = tasync_coroutine_runtime(co);
	op.co = co;
	op.fd = -1;
	apg_start_job job = {.connstr = connstr, .conn = NULL};
	apg_status st = apg_offload(&op, apg_start_work, &job);
	if (op.cancel_err != NULL) {
		/* Cancelled while resolving: the attempt is abandoned. */
		int rc = tasync_wait_end(op.rt, -ECANCELED, op.cancel_err);
		op.cancel_err = NULL;
		st = rc == TASYNC_EHOST_RAISED ? APG_RAISED : APG_CANCELLED;
	}
	PGconn *conn = job.conn;
	bool ok = false;
	zend_string *failure = NULL;
	if (st == APG_DONE && conn != NULL && PQstatus(conn) != CONNECTION_BAD) {
		st = apg_finish_connect(conn, co, false, &ok, &failure, true, NULL);
	} else if (st == APG_CANCELLED) {
		failure = zend_string_init("the connecting coroutine was cancelled",
			sizeof("the connecting coroutine was cancelled") - 1, 0);
		st = APG_DONE;
	}
	if (st == APG_RAISED || !ok || conn == NULL || PQstatus(conn) != CONNECTION_OK) {
		if (st != APG_RAISED) {
			apg_warn_unable(conn, failure);
		} else if (failure != NULL) {
			zend_string_release(failure);
		}
		if (conn != NULL) {
			PQfinish(conn);
		}
		zend_string_release(key);
		if (st == APG_RAISED) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	if (zend_register_persistent_resource(ZSTR_VAL(key), ZSTR_LEN(key), conn, apg_le_plink()) == NULL) {
		PQfinish(conn);
		zend_string_release(key);
		RETURN_FALSE;
	}
	g->num_links++;
	g->num_persistent++;

	apg_make_plink(return_value, conn, key);
}

void apg_pgsql_connect_startup(void)
{
	orig_pg_connect = apg_hook(CG(function_table), "pg_connect", apg_pg_connect);
	orig_pg_pconnect = apg_hook(CG(function_table), "pg_pconnect", apg_pg_pconnect);
}
