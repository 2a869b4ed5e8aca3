/*
 * conn.c - one cooperative operation of a coroutine on a PGconn.
 *
 * libpq's asynchronous API does the protocol; this file only replaces the
 * places where libpq's blocking calls would wait in poll() by waits of the
 * calling coroutine on the connection's socket (tasync_await_fd), so that
 * other coroutines run meanwhile:
 *
 *   PQsendQuery*            (non-blocking mode: never waits)
 *   PQflush == 1            wait until the socket is writable (or readable:
 *                           then PQconsumeInput, as libpq's docs ask)
 *   PQisBusy                wait until readable, PQconsumeInput
 *   PQgetResult             only once PQisBusy() is 0, so it never waits
 *
 * Sharing (one connection, one coroutine at a time): while a coroutine is
 * inside an operation, the connection is claimed in APG_G(busy); another
 * coroutine that uses it gets an Error naming both coroutines instead of
 * mixed protocol traffic.
 *
 * Cancellation (rule C18): a wait that ends with the coroutine's
 * cancellation sends PQcancel (it opens a new connection to the server, so
 * it runs on the thread pool through tasync_offload, not on the loop) and
 * drains the connection until the server answered everything it was sent,
 * keeping the last result as PQexec would (usually "canceling statement due
 * to user request"; a result that won the race is kept too). The
 * connection is then in sync and usable. When that cannot be done (a
 * second cancellation, the server silent past APG_DRAIN_TIMEOUT_MS) the
 * socket is shut down so that the connection is clearly broken rather than
 * out of sync. Only then is tasync_wait_end told about the cancellation:
 * it makes it pending again for the coroutine's next suspension point, and
 * the PHP function fails (or returns the result that won) as documented.
 */
#include "async_pgsql.h"

#include <sys/socket.h>

/* How long a cancelled operation waits for the server to answer the cancel
 * request before it gives up on the connection. */
#define APG_DRAIN_TIMEOUT_MS 10000

typedef struct apg_use {
	uint64_t co_id;
	char function[96];       /* the PHP function that claimed the connection */
} apg_use;

/* "pg_query" or "PDOStatement::execute": the innermost PHP function
 * running now. Frames without a function (the dummy frame of a call from
 * C, a coroutine's first frame) are skipped. */
static void apg_function_name(char *buf, size_t len)
{
	zend_execute_data *ex = EG(current_execute_data);
	while (ex != NULL && (ex->func == NULL || ex->func->common.function_name == NULL)) {
		ex = ex->prev_execute_data;
	}
	if (ex == NULL) {
		snprintf(buf, len, "a destructor");
		return;
	}
	zend_class_entry *scope = ex->func->common.scope;
	snprintf(buf, len, "%s%s%s", scope != NULL ? ZSTR_VAL(scope->name) : "", scope != NULL ? "::" : "",
		ZSTR_VAL(ex->func->common.function_name));
}

static void apg_use_dtor(zval *zv)
{
	efree(Z_PTR_P(zv));
}

static apg_use *apg_use_find(PGconn *conn)
{
	if (!APG_G(busy_ready)) {
		return NULL;
	}
	return zend_hash_index_find_ptr(&APG_G(busy), (zend_ulong) (uintptr_t) conn);
}

bool apg_conn_is_busy(PGconn *conn)
{
	return apg_use_find(conn) != NULL;
}

bool apg_conn_busy_error(PGconn *conn)
{
	apg_use *u = apg_use_find(conn);
	if (u == NULL) {
		return false;
	}
	tasync_runtime_t *rt = tasync_runtime_current();
	tasync_coroutine_t *self = rt != NULL ? tasync_coroutine_current(rt) : NULL;
	uint64_t self_id = self != NULL ? tasync_coroutine_id(self) : 0;
	char fn[96];
	apg_function_name(fn, sizeof(fn));
	if (self_id == u->co_id) {
		zend_throw_error(NULL, "PostgreSQL connection is busy: coroutine #%" PRIu64
			" is already inside %s() on it and cannot call %s() on it at the same time",
			u->co_id, u->function, fn);
	} else {
		zend_throw_error(NULL, "PostgreSQL connection is busy: coroutine #%" PRIu64 " is inside %s() on it;"
			" coroutine #%" PRIu64 " cannot use it at the same time (give each coroutine its own connection)",
			u->co_id, u->function, self_id);
	}
	return true;
}

apg_status apg_op_begin(apg_op *op, PGconn *conn, tasync_coroutine_t *co)
{
	memset(op, 0, sizeof(*op));
	op->conn = conn;
	op->co = co;
	op->rt = tasync_coroutine_runtime(co);
	op->fd = -1;
	if (apg_conn_busy_error(conn)) {
		return APG_BUSY;
	}
	if (!APG_G(busy_ready)) {
		zend_hash_init(&APG_G(busy), 8, NULL, apg_use_dtor, 0);
		APG_G(busy_ready) = true;
	}
	apg_use *u = emalloc(sizeof(*u));
	u->co_id = tasync_coroutine_id(co);
	apg_function_name(u->function, sizeof(u->function));
	zend_hash_index_add_new_ptr(&APG_G(busy), (zend_ulong) (uintptr_t) conn, u);
	op->entered = true;
	op->was_nonblocking = PQisnonblocking(conn) != 0;
	return APG_DONE;
}

/*
 * The connection's blocking mode. libpq sends in non-blocking mode without
 * waiting (PQflush then reports what is left), so every send of ours
 * happens in it; reading never waits in either mode once PQisBusy() is 0.
 * A mode switch clears libpq's error message (PQsetnonblocking, PG >= 15),
 * so the switch to non-blocking happens right before a send (which clears
 * it anyway) and the switch back right after the send completed, before
 * any result's error is recorded: pg_last_error() then says what it says
 * after a blocking call. In blocking mode the output buffer is always
 * empty, so neither switch ever waits.
 */
void apg_op_sending(apg_op *op)
{
	if (!PQisnonblocking(op->conn)) {
		PQsetnonblocking(op->conn, 1);
	}
}

void apg_op_sent(apg_op *op)
{
	if (!op->was_nonblocking && PQisnonblocking(op->conn)) {
		PQsetnonblocking(op->conn, 0);
	}
}

/*
 * The runtime's watch of a connection's socket is kept from one operation
 * to the next (opening and closing it per query would cost four system
 * calls each time): APG_G(watched) records PGconn* => the fd. The runtime
 * must be told before the fd is closed (tasync_fd_forget), so:
 *  - a socket libpq closed during our operation (a lost connection) is
 *    forgotten at the operation's end, before any other code can open a
 *    socket with the same number on this thread;
 *  - apg_conn_closing() forgets it before PQfinish / PQreset close it
 *    (pg_close, pg_connection_reset, pg_ping, the free of a
 *    PgSql\Connection, PDO's closer);
 *  - only while the connection still owns that number (PQsocket says so):
 *    a record of a socket libpq closed in a call of PHP's own is dropped
 *    without a forget, since the number may belong to another watch by now.
 */
static void apg_forget_fd(apg_op *op)
{
	if (op->fd >= 0) {
		tasync_fd_forget(op->rt, op->fd);
		op->fd = -1;
	}
}

static void apg_watched_set(PGconn *conn, int fd)
{
	if (!APG_G(watched_ready)) {
		zend_hash_init(&APG_G(watched), 8, NULL, NULL, 0);
		APG_G(watched_ready) = true;
	}
	zval zv;
	ZVAL_LONG(&zv, fd);
	zend_hash_index_update(&APG_G(watched), (zend_ulong) (uintptr_t) conn, &zv);
}

static void apg_watched_del(PGconn *conn)
{
	if (APG_G(watched_ready)) {
		zend_hash_index_del(&APG_G(watched), (zend_ulong) (uintptr_t) conn);
	}
}

void apg_conn_closing(PGconn *conn)
{
	if (conn == NULL || !APG_G(watched_ready)) {
		return;
	}
	zval *zv = zend_hash_index_find(&APG_G(watched), (zend_ulong) (uintptr_t) conn);
	if (zv == NULL) {
		return;
	}
	int fd = (int) Z_LVAL_P(zv);
	tasync_runtime_t *rt = tasync_runtime_current();
	if (rt != NULL && PQsocket(conn) == fd && apg_use_find(conn) == NULL) {
		tasync_fd_forget(rt, fd);
	}
	apg_watched_del(conn);
}

void apg_op_end(apg_op *op, int nonblocking_after)
{
	if (!op->entered) {
		return;
	}
	op->entered = false;
	if (op->fd >= 0 && PQsocket(op->conn) == op->fd) {
		apg_watched_set(op->conn, op->fd);  /* kept for the next operation */
		op->fd = -1;
	} else {
		apg_watched_del(op->conn);
		apg_forget_fd(op);                   /* libpq closed it just now */
	}
	int want = nonblocking_after >= 0 ? nonblocking_after : op->was_nonblocking;
	if (PQisnonblocking(op->conn) != want) {
		/* Our operations leave nothing unsent: no wait here either. */
		PQsetnonblocking(op->conn, want);
	}
	if (op->cancel_err != NULL) {
		/* An operation left without apg_settle (a caller's bug): the
		 * cancellation must not be lost. */
		tasync_wait_end(op->rt, -ECANCELED, op->cancel_err);
		op->cancel_err = NULL;
	}
	zend_hash_index_del(&APG_G(busy), (zend_ulong) (uintptr_t) op->conn);
}

void apg_conn_request_shutdown(void)
{
	if (APG_G(watched_ready)) {
		zend_hash_destroy(&APG_G(watched));
		APG_G(watched_ready) = false;
	}
	if (APG_G(busy_ready)) {
		zend_hash_destroy(&APG_G(busy));
		APG_G(busy_ready) = false;
	}
}

/* What the end of a wait (rc and err from tasync_await_fd or
 * tasync_offload) means for an operation. A cancellation is kept for
 * apg_settle, to be raised once the connection is in sync again; a second
 * one while draining gives up on the drain: both APG_CANCELLED. A host
 * exception: APG_RAISED. Otherwise APG_DONE with *rc set to
 * tasync_wait_end's code. */
static apg_status apg_wait_outcome(apg_op *op, int *rc, void *err)
{
	if (*rc == -ECANCELED) {
		if (op->cancel_err == NULL && !op->cancelling) {
			op->cancel_err = err;
			op->cancelling = true;
		} else {
			tasync_error_release(op->rt, err);
			op->second_cancel = true;
		}
		return APG_CANCELLED;
	}
	*rc = tasync_wait_end(op->rt, *rc, err);
	if (*rc == TASYNC_EHOST_RAISED) {
		op->raised = true;
		return APG_RAISED;
	}
	return APG_DONE;
}

/* -------------------------------------------------------------- waits */

/*
 * One wait of the coroutine for events on the connection's socket, until
 * the absolute deadline (runtime clock; 0 none). APG_DONE when ready (or
 * *timed_out), APG_CANCELLED when the coroutine's cancellation ended the
 * wait (op->cancel_err keeps it for apg_settle), APG_RAISED.
 */
static apg_status apg_wait(apg_op *op, unsigned events, uint64_t deadline, bool *timed_out)
{
	int fd = PQsocket(op->conn);
	if (timed_out != NULL) {
		*timed_out = false;
	}
	if (fd < 0) {
		return APG_DONE; /* no socket: the next libpq call reports the error */
	}
	if (op->fd != fd) {
		/* The socket changed within this operation (a reset): the old one
		 * was closed just now. */
		apg_forget_fd(op);
		op->fd = fd;
	}
	/* The deadline travels with the wait (ABI 1.3): the runtime answers
	 * -ETIMEDOUT itself, at once when it has passed already. */
	unsigned revents = 0;
	void *err = NULL;
	int rc = tasync_await_fd_until(op->rt, fd, events, deadline, NULL, &revents, &err);
	apg_status st = apg_wait_outcome(op, &rc, err);
	if (st != APG_DONE) {
		return st;
	}
	if (rc == -ETIMEDOUT) {
		*timed_out = true;
		return APG_DONE;
	}
	/* -EBADF (someone forgot the fd) or a backend error: libpq's next call
	 * finds out what is wrong with the socket. */
	return APG_DONE;
}

/* Ends an operation's cancellation handling: the cancellation is pending
 * again (or raised) now that the connection is in sync. */
static apg_status apg_settle(apg_op *op, apg_status st)
{
	if (op->cancel_err != NULL) {
		void *err = op->cancel_err;
		op->cancel_err = NULL;
		int rc = tasync_wait_end(op->rt, -ECANCELED, err);
		if (rc == TASYNC_EHOST_RAISED) {
			op->raised = true;
			return APG_RAISED;
		}
		return st == APG_DONE ? APG_CANCELLED : st;
	}
	return op->raised ? APG_RAISED : st;
}

apg_status apg_offload(apg_op *op, void (*fn)(void *data), void *data)
{
	void *err = NULL;
	int rc = tasync_offload(op->rt, fn, data, NULL, &err);
	/* On a cancellation fn has run or never will; it is the caller's. */
	apg_status st = apg_wait_outcome(op, &rc, err);
	if (st != APG_DONE) {
		return st;
	}
	return rc == 0 ? APG_DONE : APG_CANCELLED;
}

/* ------------------------------------------------------- cancellation */

typedef struct apg_cancel_job {
	PGcancel *cancel;
	int ok;
	char errbuf[256];
} apg_cancel_job;

static void apg_cancel_work(void *data)
{
	apg_cancel_job *job = data;
	job->ok = PQcancel(job->cancel, job->errbuf, sizeof(job->errbuf));
}

/* Makes the connection clearly broken: libpq sees the end of the stream
 * and fails every later call with its "connection lost" error. */
static void apg_break(apg_op *op)
{
	int fd = PQsocket(op->conn);
	if (fd >= 0) {
		shutdown(fd, SHUT_RDWR);
		PQconsumeInput(op->conn);
	}
}

/*
 * After a cancellation ended a wait: asks the server to cancel what runs,
 * then reads until the command is complete (leaving a COPY on the way).
 * *last (may be NULL) receives the results as PQexecFinish keeps them (the
 * last one); without last they are discarded. Returns APG_RAISED only;
 * the connection is in sync or broken afterwards.
 */
static apg_status apg_cancel_drain(apg_op *op, PGresult **last)
{
	PGconn *conn = op->conn;
	bool sent_cancel = false, copy_in = false, copy_out = false;
	uint64_t deadline = tasync_runtime_now(op->rt) + (uint64_t) APG_DRAIN_TIMEOUT_MS * 1000000u;

	for (;;) {
		if (op->raised || op->second_cancel) {
			apg_break(op);
			break;
		}
		/* What we sent must reach the server completely first. */
		int fl = PQflush(conn);
		if (fl < 0) {
			apg_break(op);
			break;
		}
		if (!sent_cancel && (PQisBusy(conn) || fl == 1 || copy_out) && PQstatus(conn) == CONNECTION_OK) {
			sent_cancel = true;
			apg_cancel_job job = {0};
			job.cancel = PQgetCancel(conn);
			if (job.cancel != NULL) {
				apg_offload(op, apg_cancel_work, &job);
				PQfreeCancel(job.cancel);
				continue;
			}
		}
		bool wait = false;
		if (copy_in) {
			/* The server ends the COPY with an error. */
			int rc = PQputCopyEnd(conn, "COPY canceled: the coroutine was cancelled");
			if (rc < 0) {
				apg_break(op);
				break;
			}
			copy_in = rc == 0;
			wait = copy_in;
		} else if (copy_out) {
			char *buf;
			int n = PQgetCopyData(conn, &buf, 1);
			if (n > 0) {
				PQfreemem(buf);
				continue;
			}
			if (n == -2) {
				apg_break(op);
				break;
			}
			copy_out = n == 0;
			wait = copy_out;
		} else if (fl == 0 && !PQisBusy(conn)) {
			PGresult *r = PQgetResult(conn);
			if (r == NULL) {
				break;
			}
			ExecStatusType s = PQresultStatus(r);
			if (s == PGRES_COPY_IN || s == PGRES_COPY_OUT) {
				copy_in = s == PGRES_COPY_IN;
				copy_out = s == PGRES_COPY_OUT;
				PQclear(r);
			} else if (last != NULL) {
				PQclear(*last);
				*last = r;
			} else {
				PQclear(r);
			}
			if (PQstatus(conn) == CONNECTION_BAD) {
				break;
			}
			continue;
		} else {
			wait = true;
		}
		if (!wait) {
			continue;
		}
		bool timed_out = false;
		apg_status st = apg_wait(op, TASYNC_IO_READABLE | (fl == 1 || copy_in ? TASYNC_IO_WRITABLE : 0), deadline, &timed_out);
		if (st != APG_DONE) {
			continue; /* raised or cancelled again: the loop breaks the connection */
		}
		if (timed_out) {
			apg_break(op);
			break;
		}
		PQconsumeInput(conn);
	}
	/* What a broken connection still reports (its error result). */
	if (PQstatus(conn) == CONNECTION_BAD) {
		PGresult *r;
		while (!PQisBusy(conn) && (r = PQgetResult(conn)) != NULL) {
			if (last != NULL) {
				PQclear(*last);
				*last = r;
			} else {
				PQclear(r);
			}
		}
	}
	return op->raised ? APG_RAISED : APG_DONE;
}

apg_status apg_wait_read(apg_op *op)
{
	apg_status st = apg_wait(op, TASYNC_IO_READABLE, 0, NULL);
	if (st == APG_CANCELLED) {
		apg_cancel_drain(op, NULL);
		return apg_settle(op, APG_DONE);
	}
	if (st == APG_RAISED) {
		apg_break(op);
	}
	return st;
}

/* ----------------------------------------------------- the operations */

/* Sends libpq's output buffer; APG_CANCELLED leaves the cancellation in
 * op (the caller drains and settles). */
static apg_status apg_flush_raw(apg_op *op, bool *failed)
{
	*failed = false;
	for (;;) {
		int r = PQflush(op->conn);
		if (r == 0) {
			return APG_DONE;
		}
		if (r < 0) {
			*failed = true;
			return APG_DONE;
		}
		apg_status st = apg_wait(op, TASYNC_IO_READABLE | TASYNC_IO_WRITABLE, 0, NULL);
		if (st != APG_DONE) {
			return st;
		}
		/* Readable: libpq's docs ask to consume input before flushing
		 * again (the server may be waiting for us to read). */
		PQconsumeInput(op->conn);
	}
}

apg_status apg_flush(apg_op *op, bool *failed)
{
	apg_status st = apg_flush_raw(op, failed);
	if (st == APG_CANCELLED) {
		apg_cancel_drain(op, NULL);
		return apg_settle(op, APG_DONE);
	}
	if (st == APG_RAISED) {
		apg_break(op);
	}
	return st;
}

/* True when the server closed the connection and nothing is left to read
 * (the socket is readable: this never waits). */
static bool apg_peer_closed(PGconn *conn)
{
	int fd = PQsocket(conn);
	char c;
	if (fd < 0) {
		return false;
	}
	ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	return n == 0;
}

/* Waits until PQgetResult would not block; APG_CANCELLED leaves the
 * cancellation in op (the caller drains and settles). */
static apg_status apg_wait_ready(apg_op *op)
{
	for (;;) {
		int fl = PQflush(op->conn);
		if (fl < 0) {
			return APG_DONE; /* PQgetResult reports the failure */
		}
		if (fl == 0 && !PQisBusy(op->conn)) {
			return APG_DONE;
		}
		apg_status st = apg_wait(op, TASYNC_IO_READABLE | (fl == 1 ? TASYNC_IO_WRITABLE : 0), 0, NULL);
		if (st != APG_DONE) {
			return st;
		}
		if (apg_peer_closed(op->conn)) {
			/* Nothing but the end of the stream is left: PQgetResult meets
			 * it without waiting and reports the lost connection exactly
			 * as in a blocking call (PQconsumeInput would note the EOF,
			 * and PQgetResult would then add "invalid socket"). */
			return APG_DONE;
		}
		if (!PQconsumeInput(op->conn)) {
			/* The connection broke: libpq now reports it through
			 * PQgetResult (PQisBusy is 0 on a bad connection). */
			if (!PQisBusy(op->conn)) {
				return APG_DONE;
			}
		}
	}
}

apg_status apg_wait_result(apg_op *op)
{
	apg_status st = apg_wait_ready(op);
	if (st == APG_CANCELLED) {
		apg_cancel_drain(op, NULL);
		return apg_settle(op, APG_DONE);
	}
	if (st == APG_RAISED) {
		apg_break(op);
	}
	return st;
}

apg_status apg_get_result(apg_op *op, PGresult **out)
{
	*out = NULL;
	apg_status st = apg_wait_result(op);
	if (st != APG_DONE) {
		return st;
	}
	*out = PQgetResult(op->conn);
	return APG_DONE;
}

apg_status apg_discard_results(apg_op *op, int *leftover, bool *ok)
{
	*leftover = 0;
	*ok = true;
	for (;;) {
		PGresult *r;
		apg_status st = apg_get_result(op, &r);
		if (st != APG_DONE) {
			return st;
		}
		if (r == NULL) {
			return APG_DONE;
		}
		(*leftover)++;
		ExecStatusType s = PQresultStatus(r);
		PQclear(r);
		/* As PQexecStart: leave a COPY state behind. */
		if (s == PGRES_COPY_IN) {
			if (PQputCopyEnd(op->conn, "COPY terminated by new PQexec") < 0) {
				*ok = false;
				return APG_DONE;
			}
		} else if (s == PGRES_COPY_OUT) {
			char *buf;
			int n;
			for (;;) {
				n = PQgetCopyData(op->conn, &buf, 1);
				if (n > 0) {
					PQfreemem(buf);
					continue;
				}
				if (n == 0) {
					st = apg_wait(op, TASYNC_IO_READABLE, 0, NULL);
					if (st == APG_CANCELLED) {
						apg_cancel_drain(op, NULL);
						return apg_settle(op, APG_DONE);
					}
					if (st == APG_RAISED) {
						apg_break(op);
						return st;
					}
					PQconsumeInput(op->conn);
					continue;
				}
				break; /* -1: the COPY is over; -2: failed */
			}
		} else if (s == PGRES_COPY_BOTH) {
			*ok = false;
			return APG_DONE;
		}
		if (PQstatus(op->conn) == CONNECTION_BAD) {
			*ok = false;
			return APG_DONE;
		}
	}
}

static int apg_send(PGconn *conn, const apg_cmd *c)
{
	switch (c->kind) {
		case APG_CMD_QUERY:
			return PQsendQuery(conn, c->text);
		case APG_CMD_PARAMS:
			return PQsendQueryParams(conn, c->text, c->nparams, c->types, c->values, c->lengths, c->formats, 0);
		case APG_CMD_PREPARE:
			return PQsendPrepare(conn, c->stmt_name, c->text, c->nparams, c->types);
		case APG_CMD_PREPARED:
			return PQsendQueryPrepared(conn, c->text, c->nparams, c->values, c->lengths, c->formats, 0);
	}
	return 0;
}

apg_status apg_exec(apg_op *op, const apg_cmd *cmd, PGresult **out)
{
	PGresult *last = NULL;
	*out = NULL;

	/* PQexecStart: results the application did not read are dropped. */
	int leftover;
	bool ok;
	apg_status st = apg_discard_results(op, &leftover, &ok);
	if (st != APG_DONE) {
		return st;
	}
	if (!ok) {
		return APG_DONE;
	}
	apg_op_sending(op);
	if (!apg_send(op->conn, cmd)) {
		apg_op_sent(op);
		return APG_DONE; /* PQexec's NULL: the error message says why */
	}
	bool flush_failed;
	st = apg_flush_raw(op, &flush_failed);
	if (st == APG_DONE) {
		apg_op_sent(op);
	}
	/* PQexecFinish: every result, keeping the last; stop at a COPY state or
	 * a lost connection. */
	for (;;) {
		if (st == APG_DONE) {
			st = apg_wait_ready(op);
		}
		if (st == APG_CANCELLED) {
			apg_cancel_drain(op, &last);
			apg_op_sent(op);
			*out = last;
			st = apg_settle(op, APG_DONE);
			if (st == APG_RAISED) {
				PQclear(last);
				*out = NULL;
			}
			return st;
		}
		if (st == APG_RAISED) {
			apg_break(op);
			PQclear(last);
			return st;
		}
		PGresult *r = PQgetResult(op->conn);
		if (r == NULL) {
			break;
		}
		PQclear(last);
		last = r;
		ExecStatusType s = PQresultStatus(r);
		if (s == PGRES_COPY_IN || s == PGRES_COPY_OUT || s == PGRES_COPY_BOTH || PQstatus(op->conn) == CONNECTION_BAD) {
			break;
		}
	}
	apg_op_sent(op);
	*out = last;
	return APG_DONE;
}

/* --------------------------------------------------------- connecting */

/* One PQconnectPoll / PQresetPoll step, on the thread pool: the steps
 * compute the authentication (SCRAM's key derivation takes milliseconds of
 * CPU, far more under valgrind) and the TLS handshake, which must not stall
 * the other coroutines. */
typedef struct apg_poll_job {
	PGconn *conn;
	bool reset;
	PostgresPollingStatusType ps;
} apg_poll_job;

static void apg_poll_work(void *data)
{
	apg_poll_job *job = data;
	job->ps = job->reset ? PQresetPoll(job->conn) : PQconnectPoll(job->conn);
}

/* Notices libpq reports while a step runs on a worker thread are kept here
 * (no PHP there) and handed to the connection's own processor afterwards. */
typedef struct apg_notices {
	char **messages;
	size_t count, cap;
} apg_notices;

static void apg_collect_notice(void *arg, const char *message)
{
	apg_notices *n = arg;
	if (n->count == n->cap) {
		size_t cap = n->cap ? n->cap * 2 : 4;
		char **m = realloc(n->messages, cap * sizeof(*m));
		if (m == NULL) {
			return;
		}
		n->messages = m;
		n->cap = cap;
	}
	char *copy = strdup(message);
	if (copy != NULL) {
		n->messages[n->count++] = copy;
	}
}

apg_status apg_connect_poll(apg_op *op, bool reset, uint64_t deadline, bool *ok, bool *timed_out, bool offload,
	void *notice_arg)
{
	*ok = false;
	*timed_out = false;
	apg_notices notices = {0};
	PQnoticeProcessor own = offload ? PQsetNoticeProcessor(op->conn, apg_collect_notice, &notices) : NULL;
	apg_status st = APG_DONE;
	/* libpq's docs: behave as if the last poll returned WRITING. */
	PostgresPollingStatusType ps = PGRES_POLLING_WRITING;
	for (;;) {
		if (ps == PGRES_POLLING_OK) {
			*ok = true;
			break;
		}
		if (ps == PGRES_POLLING_FAILED) {
			break;
		}
		st = apg_wait(op, ps == PGRES_POLLING_READING ? TASYNC_IO_READABLE : TASYNC_IO_WRITABLE, deadline, timed_out);
		if (st != APG_DONE || *timed_out) {
			break;
		}
		apg_poll_job job = {.conn = op->conn, .reset = reset, .ps = PGRES_POLLING_FAILED};
		if (offload) {
			st = apg_offload(op, apg_poll_work, &job);
			if (st != APG_DONE) {
				break;
			}
		} else {
			apg_poll_work(&job);
		}
		ps = job.ps;
	}
	if (!offload) {
		return st == APG_CANCELLED ? apg_settle(op, APG_DONE) : st;
	}
	/* The connection's processor again, and what it missed. */
	PQsetNoticeProcessor(op->conn, own, notice_arg);
	for (size_t i = 0; i < notices.count; i++) {
		if (own != NULL && st != APG_RAISED) {
			own(notice_arg, notices.messages[i]);
		}
		free(notices.messages[i]);
	}
	free(notices.messages);
	if (st == APG_CANCELLED) {
		/* Nothing to drain: the caller abandons the connection. */
		return apg_settle(op, APG_DONE);
	}
	return st;
}

zend_string *apg_connect_failure(PGconn *conn, const char *what)
{
	const char *host = PQhost(conn);
	const char *port = PQport(conn);
	const char *addr = PQhostaddr(conn);
	if (port == NULL || port[0] == '\0') {
		port = "5432";
	}
	if (host != NULL && (host[0] == '/' || host[0] == '@')) {
		return strpprintf(0, "connection to server on socket \"%s/.s.PGSQL.%s\" failed: %s", host, port, what);
	}
	if (host == NULL) {
		host = "";
	}
	if (addr != NULL && addr[0] != '\0' && strcmp(addr, host) != 0) {
		return strpprintf(0, "connection to server at \"%s\" (%s), port %s failed: %s", host, addr, port, what);
	}
	return strpprintf(0, "connection to server at \"%s\", port %s failed: %s", host, port, what);
}

int apg_connect_timeout(PGconn *conn)
{
	int timeout = 0;
	PQconninfoOption *opts = PQconninfo(conn);
	if (opts == NULL) {
		return 0;
	}
	for (PQconninfoOption *o = opts; o->keyword != NULL; o++) {
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val != NULL && o->val[0] != '\0') {
			char *end;
			long v = strtol(o->val, &end, 10);
			while (*end == ' ') {
				end++;
			}
			if (*end == '\0' && v > 0) {
				/* libpq: a timeout below 2 s would be too short to succeed. */
				timeout = v < 2 ? 2 : (v > INT_MAX ? INT_MAX : (int) v);
			}
		}
	}
	PQconninfoFree(opts);
	return timeout;
}

/* ------------------------------------------------------------- misc */

zend_string *apg_trim_message(const char *message)
{
	size_t i = strlen(message);

	if (i > 2 && (message[i - 2] == '\r' || message[i - 2] == '\n') && message[i - 1] == '.') {
		--i;
	}
	while (i > 1 && (message[i - 1] == '\r' || message[i - 1] == '\n')) {
		--i;
	}
	return zend_string_init(message, i, 0);
}
