/*
 * pdo.c - PDO pgsql inside coroutines: connecting, exec, query, prepare +
 * execute, beginTransaction / commit / rollBack, lastInsertId.
 *
 * PDO reaches pdo_pgsql through two tables: the driver (pdo_driver_t, its
 * db_handle_factory makes a connection) and the methods of each handle
 * (dbh->methods) and statement (stmt->methods). pdo_pgsql exports neither.
 * The handle methods are learnt once per process at the first new PDO():
 * PDO's constructor is asked, on a scratch object, for a pgsql connection
 * to a Unix socket directory that does not exist (libpq fails at once,
 * without any network traffic), and pdo_pgsql leaves its methods on the
 * failed handle; the failure is discarded. After the layout check
 * (apg_layout_verify_pdo, on a handle of our own) this plugin's driver
 * takes the name "pgsql": its factory is pdo_pgsql's (PHP-8.2) with the
 * same connection string, errors and handle, connecting with PQconnectdb
 * outside coroutines and cooperatively inside them. Every handle gets a
 * copy of pdo_pgsql's methods where the ones that talk to the server wait
 * cooperatively in coroutines and are pdo_pgsql's own otherwise; every
 * statement likewise gets a copy of pdo_pgsql's statement methods with a
 * cooperative executer.
 *
 * The cooperative versions do what pdo_pgsql's do (ext/pdo_pgsql,
 * PHP-8.2: pgsql_driver.c, pgsql_statement.c), with the same errors
 * (SQLSTATE, driver code, message) through PDO's error modes; only the
 * PQexec-family calls are replaced by conn.c's apg_exec. Not cooperative:
 * the pgsqlCopy*, pgsqlLOB* and pgsqlGetNotify methods, scrollable cursors'
 * fetches, and the liveness check of persistent handles (PQreset).
 */
#include "async_pgsql.h"

#include "ext/pdo/php_pdo.h"
#include "ext/pdo/php_pdo_error.h"
#include "ext/standard/php_string.h"
#include "zend_exceptions.h"

/* pdo_pgsql's, learnt at the first new PDO(). */
static const struct pdo_dbh_methods *orig_methods;
static const struct pdo_stmt_methods *orig_stmt_methods;

/* Ours: copies with the cooperative entries. */
static pdo_driver_t apg_driver;
static struct pdo_dbh_methods apg_methods;
static struct pdo_stmt_methods apg_stmt_methods;

static zif_handler orig_pdo_construct;

/* From php_pdo_pgsql.h (not installed). */
#define APG_PDO_PGSQL_ATTR_DISABLE_PREPARES PDO_ATTR_DRIVER_SPECIFIC

static int apg_pdo_stmt_execute(pdo_stmt_t *stmt);
static int apg_pdo_stmt_dtor(pdo_stmt_t *stmt);
static bool apg_learning, apg_learnt, apg_registered;

#define APG_PDO_PROBE_DSN "pgsql:host=/nonexistent/async_pgsql-probe port=1"

/* ---------------------------------------------------------- errors */

/* pdo_pgsql's _pdo_pgsql_trim_message. */
static char *apg_pdo_trim(const char *message, int persistent)
{
	size_t len = strlen(message);
	if (len == 0) {
		return pestrdup("", persistent);
	}
	size_t i = len - 1;
	if (i > 1 && (message[i - 1] == '\r' || message[i - 1] == '\n') && message[i] == '.') {
		--i;
	}
	while (i > 0 && (message[i] == '\r' || message[i] == '\n')) {
		--i;
	}
	++i;
	char *tmp = pemalloc(i + 1, persistent);
	memcpy(tmp, message, i);
	tmp[i] = '\0';
	return tmp;
}

/* pdo_pgsql's _pdo_pgsql_error. */
static int apg_pdo_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt, int errcode, const char *sqlstate, const char *msg)
{
	apg_pdo_handle *H = dbh->driver_data;
	pdo_error_type *pdo_err = stmt ? &stmt->error_code : &dbh->error_code;
	apg_pdo_error_info *einfo = &H->einfo;
	char *errmsg = PQerrorMessage(H->server);

	einfo->errcode = errcode;
	einfo->file = __FILE__;
	einfo->line = __LINE__;
	if (einfo->errmsg) {
		pefree(einfo->errmsg, dbh->is_persistent);
		einfo->errmsg = NULL;
	}
	if (sqlstate == NULL || strlen(sqlstate) >= sizeof(pdo_error_type)) {
		strcpy(*pdo_err, "HY000");
	} else {
		strcpy(*pdo_err, sqlstate);
	}
	if (msg) {
		einfo->errmsg = pestrdup(msg, dbh->is_persistent);
	} else if (errmsg) {
		einfo->errmsg = apg_pdo_trim(errmsg, dbh->is_persistent);
	}
	if (!dbh->methods) {
		pdo_throw_exception(einfo->errcode, einfo->errmsg, pdo_err);
	}
	return errcode;
}

#define apg_sqlstate(r) PQresultErrorField((r), PG_DIAG_SQLSTATE)

/* pdo_pgsql_close_lob_streams. */
static void apg_pdo_close_lob_streams(pdo_dbh_t *dbh)
{
	zend_resource *res;
	apg_pdo_handle *H = dbh->driver_data;
	if (H->lob_streams) {
		ZEND_HASH_REVERSE_FOREACH_PTR(H->lob_streams, res) {
			if (res->type >= 0) {
				zend_list_close(res);
			}
		} ZEND_HASH_FOREACH_END();
	}
}

/* ------------------------------------------- one cooperative command */

/* The coroutine to suspend for dbh, or NULL: pdo_pgsql's own code runs. */
static tasync_coroutine_t *apg_pdo_coroutine(pdo_dbh_t *dbh)
{
	apg_pdo_handle *H = dbh->driver_data;
	if (H == NULL || H->server == NULL) {
		return NULL;
	}
	return apg_coroutine();
}

/* PQexec-family call on dbh's connection, cooperatively. false: an
 * exception is pending (sharing Error, or the host raised). */
static bool apg_pdo_exec(pdo_dbh_t *dbh, tasync_coroutine_t *co, const apg_cmd *cmd, PGresult **out)
{
	apg_pdo_handle *H = dbh->driver_data;
	apg_op op;
	*out = NULL;
	if (apg_op_begin(&op, H->server, co) != APG_DONE) {
		return false;
	}
	apg_status st = apg_exec(&op, cmd, out);
	/* pdo_pgsql's connections are in blocking mode between calls. */
	apg_op_end(&op, 0);
	if (st == APG_RAISED) {
		PQclear(*out);
		*out = NULL;
		return false;
	}
	return true;
}

static bool apg_pdo_query(pdo_dbh_t *dbh, tasync_coroutine_t *co, const char *sql, PGresult **out)
{
	apg_cmd cmd = {.kind = APG_CMD_QUERY, .text = sql};
	return apg_pdo_exec(dbh, co, &cmd, out);
}

/* ------------------------------------------------------ dbh methods */

static zend_long apg_pdo_doer(pdo_dbh_t *dbh, const zend_string *sql)
{
	tasync_coroutine_t *co = apg_pdo_coroutine(dbh);
	if (co == NULL) {
		return orig_methods->doer(dbh, sql);
	}
	apg_pdo_handle *H = dbh->driver_data;
	PGresult *res;
	zend_long ret = 1;
	bool in_trans = orig_methods->in_transaction(dbh);

	if (!apg_pdo_query(dbh, co, ZSTR_VAL(sql), &res)) {
		return -1;
	}
	if (res == NULL) {
		apg_pdo_error(dbh, NULL, PGRES_FATAL_ERROR, NULL, NULL);
		return -1;
	}
	ExecStatusType qs = PQresultStatus(res);
	if (qs != PGRES_COMMAND_OK && qs != PGRES_TUPLES_OK) {
		apg_pdo_error(dbh, NULL, qs, apg_sqlstate(res), NULL);
		PQclear(res);
		return -1;
	}
	H->pgoid = PQoidValue(res);
	if (qs == PGRES_COMMAND_OK) {
		ret = ZEND_ATOL(PQcmdTuples(res));
	} else {
		ret = Z_L(0);
	}
	PQclear(res);
	if (in_trans && !orig_methods->in_transaction(dbh)) {
		apg_pdo_close_lob_streams(dbh);
	}
	return ret;
}

/* pdo_pgsql_transaction_cmd */
static bool apg_pdo_transaction_cmd(const char *cmd, pdo_dbh_t *dbh, tasync_coroutine_t *co)
{
	PGresult *res;
	bool ret = true;
	if (!apg_pdo_query(dbh, co, cmd, &res)) {
		return false;
	}
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		apg_pdo_error(dbh, NULL, PQresultStatus(res), apg_sqlstate(res), NULL);
		ret = false;
	}
	PQclear(res);
	return ret;
}

static bool apg_pdo_begin(pdo_dbh_t *dbh)
{
	tasync_coroutine_t *co = apg_pdo_coroutine(dbh);
	if (co == NULL) {
		return orig_methods->begin(dbh);
	}
	return apg_pdo_transaction_cmd("BEGIN", dbh, co);
}

static bool apg_pdo_commit(pdo_dbh_t *dbh)
{
	tasync_coroutine_t *co = apg_pdo_coroutine(dbh);
	if (co == NULL) {
		return orig_methods->commit(dbh);
	}
	bool ret = apg_pdo_transaction_cmd("COMMIT", dbh, co);
	if (EG(exception)) {
		return false;
	}
	/* When deferred constraints are used the commit could fail, and a
	 * ROLLBACK implicitly ran (pdo_pgsql, bug #67462). */
	if (ret) {
		apg_pdo_close_lob_streams(dbh);
	} else {
		dbh->in_txn = orig_methods->in_transaction(dbh);
	}
	return ret;
}

static bool apg_pdo_rollback(pdo_dbh_t *dbh)
{
	tasync_coroutine_t *co = apg_pdo_coroutine(dbh);
	if (co == NULL) {
		return orig_methods->rollback(dbh);
	}
	bool ret = apg_pdo_transaction_cmd("ROLLBACK", dbh, co);
	if (ret) {
		apg_pdo_close_lob_streams(dbh);
	}
	return ret;
}

static zend_string *apg_pdo_last_insert_id(pdo_dbh_t *dbh, const zend_string *name)
{
	tasync_coroutine_t *co = apg_pdo_coroutine(dbh);
	if (co == NULL) {
		return orig_methods->last_id(dbh, name);
	}
	zend_string *id = NULL;
	PGresult *res;
	bool ok;
	if (name == NULL) {
		ok = apg_pdo_query(dbh, co, "SELECT LASTVAL()", &res);
	} else {
		const char *q[1] = {ZSTR_VAL(name)};
		apg_cmd cmd = {.kind = APG_CMD_PARAMS, .text = "SELECT CURRVAL($1)", .nparams = 1, .values = q};
		ok = apg_pdo_exec(dbh, co, &cmd, &res);
	}
	if (!ok) {
		return NULL;
	}
	ExecStatusType status = PQresultStatus(res);
	if (res && status == PGRES_TUPLES_OK) {
		id = zend_string_init((char *) PQgetvalue(res, 0, 0), PQgetlength(res, 0, 0), 0);
	} else {
		apg_pdo_error(dbh, NULL, status, apg_sqlstate(res), NULL);
	}
	PQclear(res);
	return id;
}

static bool apg_pdo_verify_stmt(pdo_dbh_t *dbh, pdo_stmt_t *stmt, zend_string *sql);

/* pdo_pgsql's closer PQfinish-es the connection: the runtime forgets the
 * socket first (conn.c). */
static void apg_pdo_closer(pdo_dbh_t *dbh)
{
	apg_pdo_handle *H = dbh->driver_data;
	if (H != NULL && H->server != NULL) {
		apg_conn_closing(H->server);
	}
	orig_methods->closer(dbh);
}

static bool apg_pdo_preparer(pdo_dbh_t *dbh, zend_string *sql, pdo_stmt_t *stmt, zval *driver_options)
{
	/* pdo_pgsql's: it only sets the statement up (the prepare itself is
	 * deferred to the first execute). */
	bool ok = orig_methods->preparer(dbh, sql, stmt, driver_options);
	if (!ok || stmt->methods == NULL || APG_G(disabled)) {
		return ok;
	}
	if (orig_stmt_methods == NULL) {
		orig_stmt_methods = stmt->methods;
		memcpy(&apg_stmt_methods, orig_stmt_methods, sizeof(apg_stmt_methods));
		apg_stmt_methods.executer = apg_pdo_stmt_execute;
		apg_stmt_methods.dtor = apg_pdo_stmt_dtor;
	}
	if (stmt->methods == orig_stmt_methods && apg_pdo_verify_stmt(dbh, stmt, sql)) {
		stmt->methods = &apg_stmt_methods;
	}
	return ok;
}

/* ------------------------------------------------------ statements */

/* pgsql_stmt_execute, cooperatively. */
static int apg_pdo_stmt_execute(pdo_stmt_t *stmt)
{
	apg_pdo_stmt *S = stmt->driver_data;
	apg_pdo_handle *H = S->H;
	tasync_coroutine_t *co = apg_pdo_coroutine(stmt->dbh);
	if (co == NULL) {
		return orig_stmt_methods->executer(stmt);
	}
	ExecStatusType status;
	bool in_trans = stmt->dbh->methods->in_transaction(stmt->dbh);
	int nparams = stmt->bound_params ? (int) zend_hash_num_elements(stmt->bound_params) : 0;

	/* ensure that we free any previous unfetched results */
	if (S->result) {
		PQclear(S->result);
		S->result = NULL;
	}
	S->current_row = 0;

	if (S->cursor_name) {
		char *q = NULL;
		PGresult *r;
		if (S->is_prepared) {
			spprintf(&q, 0, "CLOSE %s", S->cursor_name);
			bool ok = apg_pdo_query(stmt->dbh, co, q, &r);
			efree(q);
			PQclear(r);
			if (!ok) {
				return 0;
			}
		}
		spprintf(&q, 0, "DECLARE %s SCROLL CURSOR WITH HOLD FOR %s", S->cursor_name, ZSTR_VAL(stmt->active_query_string));
		bool ok = apg_pdo_query(stmt->dbh, co, q, &S->result);
		efree(q);
		if (!ok) {
			return 0;
		}
		/* check if declare failed */
		status = PQresultStatus(S->result);
		if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
			apg_pdo_error(stmt->dbh, stmt, status, apg_sqlstate(S->result), NULL);
			return 0;
		}
		PQclear(S->result);
		S->result = NULL;
		/* the cursor was declared correctly */
		S->is_prepared = 1;
		/* fetch to be able to get the number of tuples later, but don't
		 * advance the cursor pointer */
		spprintf(&q, 0, "FETCH FORWARD 0 FROM %s", S->cursor_name);
		ok = apg_pdo_query(stmt->dbh, co, q, &S->result);
		efree(q);
		if (!ok) {
			return 0;
		}
	} else if (S->stmt_name) {
		/* using a prepared statement */
		if (!S->is_prepared) {
stmt_retry:
			/* we deferred the prepare until now, because we didn't know
			 * anything about the parameter types; now we do */
			{
				apg_cmd cmd = {.kind = APG_CMD_PREPARE, .text = ZSTR_VAL(S->query), .stmt_name = S->stmt_name,
					.nparams = nparams, .types = S->param_types};
				if (!apg_pdo_exec(stmt->dbh, co, &cmd, &S->result)) {
					return 0;
				}
			}
			status = PQresultStatus(S->result);
			switch (status) {
				case PGRES_COMMAND_OK:
				case PGRES_TUPLES_OK:
					/* it worked */
					S->is_prepared = 1;
					PQclear(S->result);
					S->result = NULL;
					break;
				default: {
					char *sqlstate = apg_sqlstate(S->result);
					/* 42P05: the prepared statement already existed (a
					 * pooler kept the server connection of a PHP that
					 * died): deallocate it and retry once, as pdo_pgsql. */
					if (sqlstate && !strcmp(sqlstate, "42P05")) {
						char buf[100];
						PGresult *res;
						snprintf(buf, sizeof(buf), "DEALLOCATE %s", S->stmt_name);
						PQclear(S->result);
						S->result = NULL;
						if (!apg_pdo_query(stmt->dbh, co, buf, &res)) {
							return 0;
						}
						PQclear(res);
						goto stmt_retry;
					} else {
						apg_pdo_error(stmt->dbh, stmt, status, sqlstate, NULL);
						return 0;
					}
				}
			}
		}
		apg_cmd cmd = {.kind = APG_CMD_PREPARED, .text = S->stmt_name, .nparams = nparams,
			.values = (const char *const *) S->param_values, .lengths = S->param_lengths, .formats = S->param_formats};
		if (!apg_pdo_exec(stmt->dbh, co, &cmd, &S->result)) {
			return 0;
		}
	} else if (stmt->supports_placeholders == PDO_PLACEHOLDER_NAMED) {
		/* execute query with parameters */
		apg_cmd cmd = {.kind = APG_CMD_PARAMS, .text = ZSTR_VAL(S->query), .nparams = nparams, .types = S->param_types,
			.values = (const char *const *) S->param_values, .lengths = S->param_lengths, .formats = S->param_formats};
		if (!apg_pdo_exec(stmt->dbh, co, &cmd, &S->result)) {
			return 0;
		}
	} else {
		/* execute plain query (with embedded parameters) */
		if (!apg_pdo_query(stmt->dbh, co, ZSTR_VAL(stmt->active_query_string), &S->result)) {
			return 0;
		}
	}
	status = PQresultStatus(S->result);

	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		apg_pdo_error(stmt->dbh, stmt, status, apg_sqlstate(S->result), NULL);
		return 0;
	}

	stmt->column_count = (int) PQnfields(S->result);
	if (S->cols == NULL) {
		S->cols = ecalloc(stmt->column_count, sizeof(apg_pdo_column));
	}

	if (status == PGRES_COMMAND_OK) {
		stmt->row_count = ZEND_ATOL(PQcmdTuples(S->result));
		H->pgoid = PQoidValue(S->result);
	} else {
		stmt->row_count = (zend_long) PQntuples(S->result);
	}

	if (in_trans && !stmt->dbh->methods->in_transaction(stmt->dbh)) {
		apg_pdo_close_lob_streams(stmt->dbh);
	}
	return 1;
}

/* pgsql_stmt_dtor, with its DEALLOCATE and CLOSE round trips cooperative
 * (a statement dropped in a coroutine would otherwise block for one round
 * trip each time). When another coroutine is inside an operation on the
 * connection, the round trips are skipped: the server forgets the prepared
 * statement and the cursor with the session, and a destructor must not
 * throw the sharing Error. */
static int apg_pdo_stmt_dtor(pdo_stmt_t *stmt)
{
	apg_pdo_stmt *S = stmt->driver_data;
	tasync_coroutine_t *co = apg_pdo_coroutine(stmt->dbh);
	if (co == NULL) {
		return orig_stmt_methods->dtor(stmt);
	}
	bool server_obj_usable = !Z_ISUNDEF(stmt->database_object_handle)
		&& IS_OBJ_VALID(EG(objects_store).object_buckets[Z_OBJ_HANDLE(stmt->database_object_handle)])
		&& !(OBJ_FLAGS(Z_OBJ(stmt->database_object_handle)) & IS_OBJ_FREE_CALLED);
	bool may_talk = server_obj_usable && !apg_conn_is_busy(S->H->server);

	if (S->result) {
		PQclear(S->result);
		S->result = NULL;
	}
	if (S->stmt_name) {
		if (S->is_prepared && may_talk) {
			char *q = NULL;
			PGresult *res;
			spprintf(&q, 0, "DEALLOCATE %s", S->stmt_name);
			apg_pdo_query(stmt->dbh, co, q, &res);
			efree(q);
			PQclear(res);
		}
		efree(S->stmt_name);
		S->stmt_name = NULL;
	}
	if (S->param_lengths) {
		efree(S->param_lengths);
		S->param_lengths = NULL;
	}
	if (S->param_values) {
		efree(S->param_values);
		S->param_values = NULL;
	}
	if (S->param_formats) {
		efree(S->param_formats);
		S->param_formats = NULL;
	}
	if (S->param_types) {
		efree(S->param_types);
		S->param_types = NULL;
	}
	if (S->query) {
		zend_string_release(S->query);
		S->query = NULL;
	}
	if (S->cursor_name) {
		if (may_talk && !EG(exception)) {
			char *q = NULL;
			PGresult *res;
			spprintf(&q, 0, "CLOSE %s", S->cursor_name);
			apg_pdo_query(stmt->dbh, co, q, &res);
			efree(q);
			PQclear(res);
		}
		efree(S->cursor_name);
		S->cursor_name = NULL;
	}
	if (S->cols) {
		efree(S->cols);
		S->cols = NULL;
	}
	efree(S);
	stmt->driver_data = NULL;
	return 1;
}

/* ------------------------------------------------------ connecting */

static void apg_pdo_notice(void *arg, const char *message)
{
	/* pdo_pgsql's processor ignores notices too (PHP 8.2). */
	(void) arg;
	(void) message;
}

typedef struct apg_pdo_start_job {
	const char *conn_str;
	PGconn *conn;
} apg_pdo_start_job;

static void apg_pdo_start_work(void *data)
{
	apg_pdo_start_job *job = data;
	job->conn = PQconnectStart(job->conn_str);
}

/* _pdo_pgsql_escape_credentials */
static zend_string *apg_pdo_escape_credentials(char *str)
{
	if (str) {
		return php_addcslashes_str(str, strlen(str), "\\'", sizeof("\\'"));
	}
	return NULL;
}

/* pdo_pgsql_handle_factory with the connection made cooperatively. */
static int apg_pdo_factory(pdo_dbh_t *dbh, zval *driver_options)
{
	tasync_coroutine_t *co = apg_coroutine();
	apg_pdo_handle *H;
	int ret = 0;
	char *conn_str, *p, *e;
	zend_string *tmp_user, *tmp_pass;
	zend_long connect_timeout = 30;

	H = pecalloc(1, sizeof(apg_pdo_handle), dbh->is_persistent);
	dbh->driver_data = H;
	dbh->skip_param_evt = 1 << PDO_PARAM_EVT_EXEC_POST | 1 << PDO_PARAM_EVT_FETCH_PRE | 1 << PDO_PARAM_EVT_FETCH_POST;
	H->einfo.errcode = 0;
	H->einfo.errmsg = NULL;

	/* PostgreSQL wants params in the connect string to be separated by
	 * spaces; PDO's semicolons are converted. */
	e = (char *) dbh->data_source + strlen(dbh->data_source);
	p = (char *) dbh->data_source;
	while ((p = memchr(p, ';', (e - p)))) {
		*p = ' ';
	}
	if (driver_options) {
		connect_timeout = pdo_attr_lval(driver_options, PDO_ATTR_TIMEOUT, 30);
	}
	tmp_user = !strstr((char *) dbh->data_source, "user=") ? apg_pdo_escape_credentials(dbh->username) : NULL;
	tmp_pass = !strstr((char *) dbh->data_source, "password=") ? apg_pdo_escape_credentials(dbh->password) : NULL;
	if (tmp_user && tmp_pass) {
		spprintf(&conn_str, 0, "%s user='%s' password='%s' connect_timeout=" ZEND_LONG_FMT, (char *) dbh->data_source,
			ZSTR_VAL(tmp_user), ZSTR_VAL(tmp_pass), connect_timeout);
	} else if (tmp_user) {
		spprintf(&conn_str, 0, "%s user='%s' connect_timeout=" ZEND_LONG_FMT, (char *) dbh->data_source,
			ZSTR_VAL(tmp_user), connect_timeout);
	} else if (tmp_pass) {
		spprintf(&conn_str, 0, "%s password='%s' connect_timeout=" ZEND_LONG_FMT, (char *) dbh->data_source,
			ZSTR_VAL(tmp_pass), connect_timeout);
	} else {
		spprintf(&conn_str, 0, "%s connect_timeout=" ZEND_LONG_FMT, (char *) dbh->data_source, connect_timeout);
	}

	apg_status st = APG_DONE;
	zend_string *failure_str = NULL;
	apg_pdo_start_job job = {.conn_str = conn_str, .conn = NULL};
	if (co == NULL) {
		/* Outside coroutines: pdo_pgsql's blocking connect. */
		job.conn = PQconnectdb(conn_str);
	} else {
		/* PQconnectStart resolves host names: on the thread pool. */
		apg_op op;
		memset(&op, 0, sizeof(op));
		op.rt = tasync_coroutine_runtime(co);
		op.co = co;
		op.fd = -1;
		st = apg_offload(&op, apg_pdo_start_work, &job);
		if (op.cancel_err != NULL) {
			int rc = tasync_wait_end(op.rt, -ECANCELED, op.cancel_err);
			op.cancel_err = NULL;
			st = rc == TASYNC_EHOST_RAISED ? APG_RAISED : APG_CANCELLED;
		}
	}
	/* NULL when libpq ran out of memory or the job never ran (libpq's
	 * calls accept NULL: PQerrorMessage says so, PQfinish does nothing). */
	H->server = job.conn;
	H->lob_streams = (HashTable *) pemalloc(sizeof(HashTable), dbh->is_persistent);
	zend_hash_init(H->lob_streams, 0, NULL, NULL, 1);
	if (tmp_user) {
		zend_string_release_ex(tmp_user, 0);
	}
	if (tmp_pass) {
		zend_string_release_ex(tmp_pass, 0);
	}
	efree(conn_str);

	if (co != NULL && st == APG_DONE && job.conn != NULL && PQstatus(H->server) != CONNECTION_BAD) {
		apg_op cop;
		apg_op_begin(&cop, H->server, co);
		int timeout = apg_connect_timeout(H->server);
		uint64_t deadline = timeout > 0 ? tasync_runtime_now(cop.rt) + (uint64_t) timeout * 1000000000u : 0;
		bool ok = false, timed_out = false;
		st = apg_connect_poll(&cop, false, deadline, &ok, &timed_out, true, NULL);
		apg_op_end(&cop, 0);
		if (st == APG_DONE && timed_out) {
			failure_str = apg_connect_failure(H->server, "timeout expired");
		} else if (st == APG_CANCELLED) {
			failure_str = apg_connect_failure(H->server, "the connecting coroutine was cancelled");
			st = APG_DONE;
		}
	} else if (st == APG_CANCELLED) {
		failure_str = zend_string_init("the connecting coroutine was cancelled",
			sizeof("the connecting coroutine was cancelled") - 1, 0);
		st = APG_DONE;
	}
	if (st == APG_RAISED) {
		goto cleanup;
	}
	if (PQstatus(H->server) != CONNECTION_OK || failure_str != NULL) {
		apg_pdo_error(dbh, NULL, PGRES_FATAL_ERROR, "08006", failure_str ? ZSTR_VAL(failure_str) : NULL);
		goto cleanup;
	}
	PQsetNoticeProcessor(H->server, apg_pdo_notice, NULL);
	H->attached = 1;
	H->pgoid = -1;
	dbh->alloc_own_columns = 1;
	dbh->max_escaped_char_length = 2;
	ret = 1;

cleanup:
	if (failure_str != NULL) {
		zend_string_release(failure_str);
	}
	dbh->methods = &apg_methods;
	if (!ret) {
		orig_methods->closer(dbh);
	}
	return ret;
}

/* ------------------------------------------------ layout self-check */

bool apg_layout_verify_pdo(const struct pdo_dbh_methods *orig)
{
	/* A handle filled by us, on a connection that failed (a valid PGconn),
	 * read and written by pdo_pgsql's own methods. */
	pdo_dbh_t *dbh = ecalloc(1, sizeof(pdo_dbh_t));
	apg_pdo_handle *H = ecalloc(1, sizeof(apg_pdo_handle));
	dbh->driver_data = H;
	H->server = PQconnectStart("host=/nonexistent/async_pgsql-probe");
	bool fault = APG_G(layout_fault) == 2;
	zval v, info;
	/* pdo_pgsql writes and reads H->emulate_prepares and
	 * H->disable_prepares through its attribute methods. */
	ZVAL_TRUE(&v);
	bool ok = H->server != NULL && orig->set_attribute(dbh, PDO_ATTR_EMULATE_PREPARES, &v) && H->emulate_prepares && !fault;
	ZVAL_FALSE(&v);
	ok = ok && orig->set_attribute(dbh, PDO_ATTR_EMULATE_PREPARES, &v) && !H->emulate_prepares;
	ZVAL_TRUE(&v);
	ok = ok && orig->set_attribute(dbh, APG_PDO_PGSQL_ATTR_DISABLE_PREPARES, &v) && H->disable_prepares;
	ok = ok && orig->get_attribute(dbh, APG_PDO_PGSQL_ATTR_DISABLE_PREPARES, &v) == 1 && Z_TYPE(v) == IS_TRUE;
	/* It reads H->server (PDO::ATTR_SERVER_INFO names the backend's PID). */
	ZVAL_UNDEF(&v);
	if (ok && orig->get_attribute(dbh, PDO_ATTR_SERVER_INFO, &v) == 1 && Z_TYPE(v) == IS_STRING) {
		char expect[32];
		snprintf(expect, sizeof(expect), "PID: %d;", PQbackendPID(H->server));
		ok = strncmp(Z_STRVAL(v), expect, strlen(expect)) == 0;
	} else {
		ok = false;
	}
	zval_ptr_dtor(&v);
	/* And H->einfo, through the error info method. */
	if (ok) {
		H->einfo.errcode = 4242;
		H->einfo.errmsg = estrdup("probe");
		array_init(&info);
		orig->fetch_err(dbh, NULL, &info);
		zval *code = zend_hash_index_find(Z_ARRVAL(info), 0);
		zval *msg = zend_hash_index_find(Z_ARRVAL(info), 1);
		ok = code != NULL && Z_TYPE_P(code) == IS_LONG && Z_LVAL_P(code) == 4242
			&& msg != NULL && Z_TYPE_P(msg) == IS_STRING && strcmp(Z_STRVAL_P(msg), "probe") == 0;
		zval_ptr_dtor(&info);
		efree(H->einfo.errmsg);
	}
	PQfinish(H->server);
	efree(H);
	efree(dbh);
	if (!ok) {
		apg_disable("pdo_pgsql's connection handle does not have the layout this build was made for");
	}
	return ok;
}

/* A statement pdo_pgsql just set up: its fields where our copy has them. */
static bool apg_pdo_verify_stmt(pdo_dbh_t *dbh, pdo_stmt_t *stmt, zend_string *sql)
{
	static bool checked;
	if (checked) {
		return !APG_G(disabled);
	}
	checked = true;
	apg_pdo_stmt *S = stmt->driver_data;
	bool ok = S != NULL && S->H == dbh->driver_data && S->query != NULL && S->result == NULL
		&& GC_TYPE(S->query) == IS_STRING && S->current_row == 0 && !S->is_prepared
		&& (S->stmt_name == NULL || strncmp(S->stmt_name, "pdo_stmt_", 9) == 0);
	(void) sql;
	if (!ok) {
		apg_disable("pdo_pgsql's statement does not have the layout this build was made for");
	}
	return ok;
}

/* ------------------------------------------------------- learning */

/*
 * Learns pdo_pgsql's driver and handle methods from a scratch PDO object
 * whose constructor failed at once, and puts this plugin's driver in its
 * place. Called in PDO::__construct (a PHP frame exists, so PDO may throw
 * there; the exception is discarded).
 */
static void apg_pdo_learn(void)
{
	apg_learnt = true;
	zend_class_entry *ce = php_pdo_get_dbh_ce();
	zval scratch, dsn, rv;
	if (object_init_ex(&scratch, ce) != SUCCESS) {
		return;
	}
	ZVAL_STRING(&dsn, APG_PDO_PROBE_DSN);
	apg_learning = true;
	zend_call_known_instance_method_with_1_params(ce->constructor, Z_OBJ(scratch), &rv, &dsn);
	apg_learning = false;
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&dsn);
	if (EG(exception)) {
		zend_clear_exception();
	}
	pdo_dbh_t *dbh = Z_PDO_DBH_P(&scratch);
	orig_methods = dbh->methods;
	zval_ptr_dtor(&scratch);
	if (orig_methods == NULL || orig_methods->closer == NULL || APG_G(disabled) || !apg_layout_verify_pdo(orig_methods)) {
		orig_methods = NULL;
		return;
	}
	memcpy(&apg_methods, orig_methods, sizeof(apg_methods));
	apg_methods.closer = apg_pdo_closer;
	apg_methods.doer = apg_pdo_doer;
	apg_methods.preparer = apg_pdo_preparer;
	apg_methods.begin = apg_pdo_begin;
	apg_methods.commit = apg_pdo_commit;
	apg_methods.rollback = apg_pdo_rollback;
	apg_methods.last_id = apg_pdo_last_insert_id;
	apg_driver.driver_name = "pgsql";
	apg_driver.driver_name_len = sizeof("pgsql") - 1;
	apg_driver.api_version = PDO_DRIVER_API;
	apg_driver.db_handle_factory = apg_pdo_factory;
	/* Unregistering goes by name: this removes pdo_pgsql's driver. */
	php_pdo_unregister_driver(&apg_driver);
	apg_registered = php_pdo_register_driver(&apg_driver) == SUCCESS;
}

/* PDO::__construct: learns pdo_pgsql's tables before the first connection. */
static ZEND_NAMED_FUNCTION(apg_pdo_construct)
{
	if (!apg_learnt && !apg_learning) {
		apg_pdo_learn();
	}
	orig_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void apg_pdo_startup(void)
{
	if (zend_hash_str_find_ptr(&module_registry, "pdo_pgsql", sizeof("pdo_pgsql") - 1) == NULL
			|| zend_hash_str_find_ptr(&module_registry, "pdo", sizeof("pdo") - 1) == NULL) {
		return;
	}
	zend_class_entry *ce = php_pdo_get_dbh_ce();
	if (ce == NULL) {
		return;
	}
	orig_pdo_construct = apg_hook(&ce->function_table, "__construct", apg_pdo_construct);
}

void apg_pdo_shutdown(void)
{
	if (apg_registered) {
		/* pdo_pgsql's MSHUTDOWN (after ours) unregisters by name too. */
		php_pdo_unregister_driver(&apg_driver);
		apg_registered = false;
	}
}
