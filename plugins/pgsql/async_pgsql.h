/*
 * async_pgsql.h - the extension async_pgsql: ext/pgsql (pg_*) and PDO
 * pgsql made cooperative inside coroutines through the tasync C ABI alone
 * (api/include/tasync), PHP's installed headers and libpq. README.md says
 * how it works and how to write such an extension. Files:
 *
 *   module.c        module entry, ini, the hook table, the runtime checks
 *   layout.c        the layouts of ext/pgsql and pdo_pgsql it relies on,
 *                   pinned to the PHP versions they were checked against,
 *                   and the self-check that disables the plugin on mismatch
 *   conn.c          one cooperative operation on a PGconn: the waits, the
 *                   sharing guard, cancellation (PQcancel on the thread
 *                   pool, drain), flushing, PQexec done without blocking
 *   pgsql_connect.c pg_connect, pg_pconnect
 *   pgsql_query.c   pg_query, pg_query_params, pg_prepare, pg_execute
 *   pgsql_send.c    pg_send_*, pg_get_result, and the busy guard of every
 *                   other function that takes a connection
 *   pgsql_copy.c    pg_copy_from, pg_copy_to
 *   pdo.c           PDO pgsql: connect, exec, query, prepare + execute,
 *                   transactions, lastInsertId
 *
 * The rule every hook follows: tasync_coroutine_suspendable() NULL (no
 * runtime on the thread, not in a coroutine, the host refuses) or the
 * plugin disabled by its self-check means PHP's own handler runs unchanged.
 */
#ifndef ASYNC_PGSQL_H
#define ASYNC_PGSQL_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "ext/pdo/php_pdo_driver.h"

#include <libpq-fe.h>
#include <tasync/tasync.h>

#define PHP_ASYNC_PGSQL_VERSION "0.1.0"

extern zend_module_entry async_pgsql_module_entry;
#define phpext_async_pgsql_ptr &async_pgsql_module_entry

/*
 * The PHP versions whose private layouts (below) were read from php-src's
 * PHP-8.2 branch (ext/pgsql/pgsql.c, php_pgsql.h, ext/pdo_pgsql/
 * php_pdo_pgsql_int.h) and checked at run time by layout.c. Another PHP
 * version does not compile: the layouts must be checked again first.
 */
#if PHP_VERSION_ID < 80200 || PHP_VERSION_ID >= 80300
# error "async_pgsql relies on private layouts of ext/pgsql and pdo_pgsql checked for PHP 8.2 only (see layout.c)"
#endif

/* ------------------------------------------------ ext/pgsql (pgsql.c) */

/* PgSql\Connection's object: pgsql_link_handle. */
typedef struct apg_link {
	PGconn *conn;            /* NULL once closed */
	zend_string *hash;       /* its key in PGG(connections) */
	HashTable *notices;
	bool persistent;
	zend_object std;
} apg_link;

/* PgSql\Result's object: pgsql_result_handle. */
typedef struct apg_result {
	PGconn *conn;
	PGresult *result;
	int row;
	zend_object std;
} apg_result;

/* PgSql\Lob's object: pgLofp. */
typedef struct apg_lob {
	PGconn *conn;
	int lofd;
	zend_object std;
} apg_lob;

/* ext/pgsql's module globals (zend_pgsql_globals, php_pgsql.h). */
typedef struct apg_pgsql_globals {
	zend_long num_links, num_persistent;
	zend_long max_links, max_persistent;
	zend_long allow_persistent;
	zend_long auto_reset_persistent;
	int ignore_notices, log_notices;
	zend_object *default_link;
	HashTable field_oids;
	HashTable table_oids;
	HashTable connections;
} apg_pgsql_globals;

/* From pgsql.c. */
#define APG_CONNECT_FORCE_NEW (1 << 1)
#define APG_CONNECT_ASYNC (1 << 2)

/* ------------------------------------ pdo_pgsql (php_pdo_pgsql_int.h) */

typedef struct apg_pdo_error_info {
	const char *file;
	int line;
	unsigned int errcode;
	char *errmsg;
} apg_pdo_error_info;

/* pdo_pgsql_db_handle: dbh->driver_data. */
typedef struct apg_pdo_handle {
	PGconn *server;
	unsigned attached:1;
	unsigned _reserved:31;
	apg_pdo_error_info einfo;
	Oid pgoid;
	unsigned int stmt_counter;
	bool emulate_prepares;
	bool disable_native_prepares;
	bool disable_prepares;
	HashTable *lob_streams;
} apg_pdo_handle;

/* pdo_pgsql_column. */
typedef struct apg_pdo_column {
	Oid pgsql_type;
} apg_pdo_column;

/* pdo_pgsql_stmt: stmt->driver_data. */
typedef struct apg_pdo_stmt {
	apg_pdo_handle *H;
	PGresult *result;
	apg_pdo_column *cols;
	char *cursor_name;
	char *stmt_name;
	zend_string *query;
	char **param_values;
	int *param_lengths;
	int *param_formats;
	Oid *param_types;
	int current_row;
	bool is_prepared;
} apg_pdo_stmt;

/* ------------------------------------------------------------- module.c */

ZEND_BEGIN_MODULE_GLOBALS(async_pgsql)
	bool disabled;              /* the self-check failed: every hook passes through */
	zend_long layout_fault;     /* test-only ini: pretend a layout differs (layout.c) */
	HashTable busy;             /* PGconn* => apg_use*: connections in use (conn.c) */
	bool busy_ready;
	HashTable watched;          /* PGconn* => fd the runtime watches (conn.c) */
	bool watched_ready;
ZEND_END_MODULE_GLOBALS(async_pgsql)

ZEND_EXTERN_MODULE_GLOBALS(async_pgsql)
#define APG_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async_pgsql, v)

/*
 * The coroutine the calling hook may suspend, or NULL when PHP's own
 * handler must run: no runtime, not a coroutine that may suspend, or the
 * plugin disabled.
 */
tasync_coroutine_t *apg_coroutine(void);

/* Replaces the handler of function name (in ft: CG(function_table) or a
 * class's); returns the original, or NULL when there is no such internal
 * function. Restored at MSHUTDOWN. */
zif_handler apg_hook(HashTable *ft, const char *name, zif_handler handler);

/* ------------------------------------------------------------- layout.c */

/* ext/pgsql's classes and globals, found at MINIT; NULL without ext/pgsql. */
extern zend_class_entry *apg_link_ce, *apg_result_ce, *apg_lob_ce;
apg_pgsql_globals *apg_pgsql_globals_ptr(void);

/* Finds ext/pgsql's classes and checks what can be checked at MINIT. */
void apg_layout_startup(void);

/*
 * Checks the layouts against what ext/pgsql itself reports (once per
 * process, at the first cooperative call); on a mismatch warns once and
 * disables the plugin. Returns false when the plugin is disabled.
 */
bool apg_layout_verify_pgsql(void);

/* After the first cooperative connect: PGG(default_link) and
 * PGG(connections) must show the link just made. */
bool apg_layout_verify_pgsql_link(zend_object *link);

/* pdo_pgsql's handle, probed through pdo_pgsql's own methods on a handle
 * this plugin filled (pdo.c). */
bool apg_layout_verify_pdo(const struct pdo_dbh_methods *orig);

/* Warns (once) that the plugin is disabled and why. */
void apg_disable(const char *why);

static inline apg_link *apg_link_from_obj(zend_object *obj)
{
	return (apg_link *) ((char *) obj - XtOffsetOf(apg_link, std));
}

static inline apg_result *apg_result_from_obj(zend_object *obj)
{
	return (apg_result *) ((char *) obj - XtOffsetOf(apg_result, std));
}

static inline apg_lob *apg_lob_from_obj(zend_object *obj)
{
	return (apg_lob *) ((char *) obj - XtOffsetOf(apg_lob, std));
}

/* --------------------------------------------------------------- conn.c */

/* How a cooperative operation ended. */
typedef enum apg_status {
	APG_DONE = 0,    /* as the blocking libpq call would have ended (its result may be an error) */
	APG_CANCELLED,   /* the coroutine was cancelled: the query was cancelled on the server and
	                  * its results drained (or the connection broken); the call fails as PHP
	                  * documents a failed one; the cancellation is pending again (C18) */
	APG_RAISED,      /* the host raised an error (an exception is pending): return at once */
	APG_BUSY,        /* another coroutine uses the connection: an Error was thrown */
} apg_status;

/* One operation of the calling coroutine on a connection. */
typedef struct apg_op {
	PGconn *conn;
	tasync_runtime_t *rt;
	tasync_coroutine_t *co;
	int fd;                  /* the socket the runtime watches for us, or -1 */
	void *cancel_err;        /* the cancellation that ended a wait, until apg_settle */
	bool entered;
	bool was_nonblocking;
	bool cancelling;         /* a cancellation was seen: draining */
	bool second_cancel;      /* another one arrived meanwhile */
	bool raised;             /* the host raised an error: return at once */
} apg_op;

/*
 * Starts an operation: claims conn for the calling coroutine (APG_BUSY and
 * an Error naming both coroutines when another one holds it).
 */
apg_status apg_op_begin(apg_op *op, PGconn *conn, tasync_coroutine_t *co);
/* Around a send: non-blocking mode (so that libpq never waits to send),
 * then the mode the connection had (see conn.c). */
void apg_op_sending(apg_op *op);
void apg_op_sent(apg_op *op);

/* Ends it: the blocking mode as before (or non-blocking when
 * nonblocking_after is 1, blocking when 0), the claim released, the fd
 * forgotten by the runtime. */
void apg_op_end(apg_op *op, int nonblocking_after);

/* Before libpq closes conn's socket (PQfinish, PQreset): the runtime
 * forgets the watch this plugin kept on it. */
void apg_conn_closing(PGconn *conn);

/* Whether a coroutine is inside an operation on conn. */
bool apg_conn_is_busy(PGconn *conn);

/* Throws the sharing Error if another coroutine holds conn; true if so. */
bool apg_conn_busy_error(PGconn *conn);

/* Sends libpq's output buffer. APG_DONE also when libpq failed (its error
 * message says why; *failed set). */
apg_status apg_flush(apg_op *op, bool *failed);

/* Waits until PQgetResult would not block. */
apg_status apg_wait_result(apg_op *op);

/* Waits until the socket is readable (COPY OUT data); the caller then
 * calls PQconsumeInput. */
apg_status apg_wait_read(apg_op *op);

/*
 * PQgetResult without blocking: *out is the next result, or NULL when the
 * command is complete.
 */
apg_status apg_get_result(apg_op *op, PGresult **out);

/* Discards every pending result, as PQexec does before a new command
 * (PQexecStart); *leftover counts them. false: the connection broke. */
apg_status apg_discard_results(apg_op *op, int *leftover, bool *ok);

/* What a PQexec-family call sends. */
typedef enum apg_cmd_kind { APG_CMD_QUERY, APG_CMD_PARAMS, APG_CMD_PREPARE, APG_CMD_PREPARED } apg_cmd_kind;

typedef struct apg_cmd {
	apg_cmd_kind kind;
	const char *text;          /* query, or the statement name for PREPARED */
	const char *stmt_name;     /* PREPARE */
	int nparams;
	const Oid *types;
	const char *const *values;
	const int *lengths;
	const int *formats;
} apg_cmd;

/*
 * What PQexec / PQexecParams / PQprepare / PQexecPrepared would return,
 * without blocking the thread: *out receives the last result (NULL where
 * libpq would return NULL).
 */
apg_status apg_exec(apg_op *op, const apg_cmd *cmd, PGresult **out);

/* Waits for PQconnectPoll / PQresetPoll to finish (reset: true), each step
 * on the thread pool when offload (then notice_arg must be the argument of
 * the connection's notice processor, which is restored afterwards);
 * deadline 0: none (runtime clock, ns). *ok: CONNECTION_OK reached. */
apg_status apg_connect_poll(apg_op *op, bool reset, uint64_t deadline, bool *ok, bool *timed_out, bool offload,
	void *notice_arg);

/* libpq's "connection to server ... failed: what" for conn's host, for
 * failures libpq does not report itself (timeout, cancellation). */
zend_string *apg_connect_failure(PGconn *conn, const char *what);

/* The connect_timeout of conn as libpq applies it (seconds; 0 none). */
int apg_connect_timeout(PGconn *conn);

/* Runs fn(data) on the runtime's thread pool (no PHP inside fn). */
apg_status apg_offload(apg_op *op, void (*fn)(void *data), void *data);

/* PHP's _php_pgsql_trim_message. */
zend_string *apg_trim_message(const char *message);

/* RSHUTDOWN: forgets the claims of coroutines that never resumed. */
void apg_conn_request_shutdown(void);

/* ------------------------------------------------------------ startups */

void apg_pgsql_connect_startup(void);
void apg_pgsql_query_startup(void);
void apg_pgsql_send_startup(void);
void apg_pgsql_send_shutdown(void);
/* Puts apg_conn_closing in front of PgSql\Connection's free_obj. */
void apg_pgsql_hook_link_free(zend_object *probe);
void apg_pgsql_copy_startup(void);
void apg_pdo_startup(void);
void apg_pdo_shutdown(void);

#endif /* ASYNC_PGSQL_H */
