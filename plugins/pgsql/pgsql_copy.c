/*
 * pgsql_copy.c - pg_copy_from and pg_copy_to inside coroutines: PHP's
 * handlers (pgsql.c, PHP-8.2) with the COPY data moved by libpq's
 * non-blocking calls (PQputCopyData / PQputCopyEnd returning 0 when the
 * socket is full, PQgetCopyData in async mode returning 0 until a row is
 * in) and the coroutine waiting on the socket in between. Warnings and
 * return values are PHP's.
 */
#include "async_pgsql.h"

static zif_handler orig_pg_copy_from, orig_pg_copy_to;

static void apg_copy_error(const char *text, PGconn *conn)
{
	zend_string *msg = apg_trim_message(PQerrorMessage(conn));
	php_error_docref(NULL, E_WARNING, text, ZSTR_VAL(msg));
	zend_string_release(msg);
}

/* Reads the results that end the COPY; *failed when one is not
 * COMMAND_OK (PHP warns for each). */
static apg_status apg_copy_finish(apg_op *op, bool warn, bool *failed)
{
	for (;;) {
		PGresult *r;
		apg_status st = apg_get_result(op, &r);
		if (st != APG_DONE && st != APG_CANCELLED) {
			return st;
		}
		if (r == NULL) {
			return st;
		}
		if (warn && PQresultStatus(r) != PGRES_COMMAND_OK) {
			apg_copy_error("Copy command failed: %s", op->conn);
			*failed = true;
		}
		PQclear(r);
	}
}

/* Waits for the socket while a COPY call returned 0 (would block). */
static apg_status apg_copy_wait(apg_op *op, unsigned events)
{
	bool failed;
	/* apg_flush waits for writability (and reads what comes meanwhile). */
	if (events & TASYNC_IO_WRITABLE) {
		return apg_flush(op, &failed);
	}
	return apg_wait_result(op);
}

/* What pg_copy_from and pg_copy_to share before any row moves: PHP's checks
 * of the connection and of the separator (argument number delim_arg), the
 * COPY statement sent, and its first result checked for the COPY state
 * (PGRES_COPY_IN for FROM STDIN, PGRES_COPY_OUT for TO STDOUT).
 * *begun says whether *op was begun (then the caller ends it); *copying
 * whether the connection is now in the COPY state. Returns APG_RAISED when
 * an exception is pending, else APG_DONE; APG_DONE without *copying means
 * PHP's warning was given and the call returns false. */
static apg_status apg_copy_start(apg_op *op, tasync_coroutine_t *co, zval *pgsql_link,
		zend_string *table_name, zend_string *pg_delimiter, uint32_t delim_arg,
		const char *pg_null_as, bool from, bool *begun, bool *copying)
{
	*begun = false;
	*copying = false;
	apg_link *link = apg_link_from_obj(Z_OBJ_P(pgsql_link));
	if (link->conn == NULL) {
		zend_throw_error(NULL, "PostgreSQL connection has already been closed");
		return APG_RAISED;
	}
	PGconn *pgsql = link->conn;
	if (!pg_delimiter) {
		pg_delimiter = ZSTR_CHAR('\t');
	} else if (ZSTR_LEN(pg_delimiter) != 1) {
		zend_argument_value_error(delim_arg, "must be one character");
		return APG_RAISED;
	}
	char *query;
	spprintf(&query, 0, from ? "COPY %s FROM STDIN DELIMITER E'%c' NULL AS E'%s'"
			: "COPY %s TO STDOUT DELIMITER E'%c' NULL AS E'%s'",
		ZSTR_VAL(table_name), *ZSTR_VAL(pg_delimiter), pg_null_as ? pg_null_as : "\\\\N");
	if (apg_op_begin(op, pgsql, co) != APG_DONE) {
		efree(query);
		return APG_RAISED;
	}
	*begun = true;
	PGresult *pgsql_result = NULL;
	apg_cmd cmd = {.kind = APG_CMD_QUERY, .text = query};
	apg_status st = apg_exec(op, &cmd, &pgsql_result);
	efree(query);
	if (st == APG_RAISED) {
		PQclear(pgsql_result);
		return st;
	}
	/* As PHP does: without a result the status is the connection's. */
	ExecStatusType status = pgsql_result ? PQresultStatus(pgsql_result) : (ExecStatusType) PQstatus(pgsql);
	bool had_result = pgsql_result != NULL;
	PQclear(pgsql_result);
	if (status != (from ? PGRES_COPY_IN : PGRES_COPY_OUT)) {
		apg_copy_error("Copy command failed: %s", pgsql);
		return APG_DONE;
	}
	*copying = had_result;   /* PHP returns false, silently, without one */
	return APG_DONE;
}

/* pg_copy_from(PgSql\Connection $connection, string $table_name, array $rows, string $separator = "\t", string $null_as = "\\\\N"): bool */
static ZEND_NAMED_FUNCTION(apg_pg_copy_from)
{
	tasync_coroutine_t *co = apg_coroutine();
	if (co == NULL) {
		orig_pg_copy_from(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *pgsql_link = NULL, *pg_rows, *value;
	zend_string *table_name;
	zend_string *pg_delimiter = NULL;
	char *pg_null_as = NULL;
	size_t pg_null_as_len;

	if (zend_parse_parameters(ZEND_NUM_ARGS(), "OPa|Ss", &pgsql_link, apg_link_ce,
			&table_name, &pg_rows, &pg_delimiter, &pg_null_as, &pg_null_as_len) == FAILURE) {
		RETURN_THROWS();
	}
	apg_op op;
	bool begun, copying;
	apg_status st = apg_copy_start(&op, co, pgsql_link, table_name, pg_delimiter, 4, pg_null_as, true,
		&begun, &copying);
	if (!begun) {
		RETURN_THROWS();
	}
	if (st == APG_RAISED) {
		goto out;
	}
	if (!copying) {
		RETVAL_FALSE;
		goto out;
	}
	PGconn *pgsql = op.conn;
	apg_op_sending(&op);
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(pg_rows), value) {
		zend_string *tmp = zval_try_get_string(value);
		if (UNEXPECTED(!tmp)) {
			/* PHP returns here in the middle of the COPY; the connection
			 * is brought out of it so that it stays in sync. */
			PQputCopyEnd(pgsql, "COPY aborted: a row could not be converted to a string");
			bool f = false;
			apg_copy_finish(&op, false, &f);
			st = APG_RAISED;
			goto out;
		}
		size_t len = ZSTR_LEN(tmp);
		char *row = emalloc(len + 2);
		memcpy(row, ZSTR_VAL(tmp), len);
		row[len] = '\0';
		if (len > 0 && row[len - 1] != '\n') {
			row[len++] = '\n';
			row[len] = '\0';
		}
		int rc;
		while ((rc = PQputCopyData(pgsql, row, (int) strlen(row))) == 0) {
			st = apg_copy_wait(&op, TASYNC_IO_WRITABLE);
			if (st != APG_DONE) {
				break;
			}
		}
		efree(row);
		zend_string_release(tmp);
		if (st == APG_RAISED) {
			goto out;
		}
		if (rc != 1) {
			apg_copy_error("copy failed: %s", pgsql);
			RETVAL_FALSE;
			goto out;
		}
	} ZEND_HASH_FOREACH_END();

	int rc;
	while ((rc = PQputCopyEnd(pgsql, NULL)) == 0) {
		st = apg_copy_wait(&op, TASYNC_IO_WRITABLE);
		if (st != APG_DONE) {
			break;
		}
	}
	if (st == APG_RAISED) {
		goto out;
	}
	if (rc != 1) {
		apg_copy_error("putcopyend failed: %s", pgsql);
		RETVAL_FALSE;
		goto out;
	}
	bool command_failed = false;
	bool flush_failed;
	st = apg_flush(&op, &flush_failed);
	apg_op_sent(&op);
	if (st != APG_RAISED) {
		st = apg_copy_finish(&op, true, &command_failed);
	}
	if (st == APG_RAISED) {
		goto out;
	}
	if (command_failed) {
		RETVAL_FALSE;
	} else {
		RETVAL_TRUE;
	}
out:
	apg_op_end(&op, 0);
	if (st == APG_RAISED) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

/* pg_copy_to(PgSql\Connection $connection, string $table_name, string $separator = "\t", string $null_as = "\\\\N"): array|false */
static ZEND_NAMED_FUNCTION(apg_pg_copy_to)
{
	tasync_coroutine_t *co = apg_coroutine();
	if (co == NULL) {
		orig_pg_copy_to(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *pgsql_link;
	zend_string *table_name;
	zend_string *pg_delimiter = NULL;
	char *pg_null_as = NULL;
	size_t pg_null_as_len = 0;

	if (zend_parse_parameters(ZEND_NUM_ARGS(), "OP|Ss", &pgsql_link, apg_link_ce,
			&table_name, &pg_delimiter, &pg_null_as, &pg_null_as_len) == FAILURE) {
		RETURN_THROWS();
	}
	apg_op op;
	bool begun, copying;
	apg_status st = apg_copy_start(&op, co, pgsql_link, table_name, pg_delimiter, 3, pg_null_as, false,
		&begun, &copying);
	if (!begun) {
		RETURN_THROWS();
	}
	if (st == APG_RAISED) {
		goto out;
	}
	if (!copying) {
		RETVAL_FALSE;
		goto out;
	}
	PGconn *pgsql = op.conn;
	array_init(return_value);
	for (;;) {
		char *csv = NULL;
		int ret = PQgetCopyData(pgsql, &csv, 1);
		if (ret > 0) {
			add_next_index_string(return_value, csv);
			PQfreemem(csv);
			continue;
		}
		if (ret == -1) {
			break;
		}
		if (ret == 0) {
			st = apg_wait_read(&op);
			if (st == APG_DONE) {
				PQconsumeInput(pgsql);
				continue;
			}
			if (st == APG_RAISED) {
				goto out;
			}
			/* Cancelled: the drain ended the COPY; PHP's failure. */
		}
		/* -2, or cancelled */
		apg_copy_error("getline failed: %s", pgsql);
		zval_ptr_dtor(return_value);
		RETVAL_FALSE;
		goto out;
	}
	bool unused = false;
	st = apg_copy_finish(&op, false, &unused);
out:
	apg_op_end(&op, 0);
	if (st == APG_RAISED) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

void apg_pgsql_copy_startup(void)
{
	orig_pg_copy_from = apg_hook(CG(function_table), "pg_copy_from", apg_pg_copy_from);
	orig_pg_copy_to = apg_hook(CG(function_table), "pg_copy_to", apg_pg_copy_to);
}
