/*
 * io/pdo_pool.c - one PDO object, many coroutines (issue 26): the
 * transparent connection pool of PDO::ATTR_POOL_ENABLED for pdo_mysql,
 * pdo_pgsql and pdo_sqlite on stock PHP 8.2, built on the core's pools
 * (tasync/pool.h, rule T3).
 *
 * How one object serves many coroutines without patching PDO. A pooled
 * PDO object (the facade) never connects itself: its pdo_dbh_t stays as a
 * failed constructor leaves it (no driver). Each physical connection is a
 * PDO object of its own, made by PDO's own constructor with the facade's
 * DSN, credentials and options (the pool attributes taken out), and held
 * by the pool as its resource. PDO's methods (their zend_internal_function
 * handlers in PDO's class table) are wrapped once: called on a facade (its
 * object handlers are ours), the wrapper finds the calling coroutine's
 * connection (tasync_pool_leases: the one lent to it) or acquires one,
 * points the call frame's $this at that connection, runs PDO's own handler
 * and points $this back. PDO's code therefore runs unchanged on a real,
 * connected pdo_dbh_t, and everything it keeps per connection answers for
 * the calling coroutine: errorCode()/errorInfo(), lastInsertId(),
 * inTransaction(), attributes. A statement made by prepare()/query() holds
 * its connection object (pdo_stmt_t.database_object_handle), so it keeps
 * the connection as long as it lives, in its coroutine or after.
 *
 * Binding. The connection stays lent to the coroutine until it ends (the
 * pool takes it back by itself then, pool.h); session state set by one
 * call (SET @x, a temporary table, lastInsertId) is there for the next
 * call of the same coroutine, and an open transaction is pinned with it.
 * Before the connection is lent again (before_release, which the core
 * runs in the next borrower when the coroutine ended), it is reset:
 *  - a PDOStatement still alive (it outlived its coroutine) keeps the
 *    connection, which stays counted against ATTR_POOL_MAX meanwhile and
 *    comes back to the pool (reset as below) after its last statement
 *    went (see "Statements that outlive their coroutine");
 *  - a connection whose attributes the borrower changed with setAttribute()
 *    is closed, not reused;
 *  - an open transaction is rolled back (PDO's rollBack());
 *  - pdo_mysql: COM_CHANGE_USER through mysqlnd (session variables, user
 *    variables, temporary tables, the current database, server-side
 *    prepared statements, locks: as a new session), then the init command
 *    of MYSQL_ATTR_INIT_COMMAND again;
 *  - pdo_pgsql: DISCARD ALL (settings such as search_path, temporary
 *    tables, prepared statements, LISTEN, advisory locks);
 *  - pdo_sqlite: the handle is closed, every borrower opens its own (an
 *    open is cheap and a handle has no state worth keeping);
 *  - PDO's own error state is cleared (errorCode() "00000").
 * A reset that fails closes the connection instead.
 *
 * Statements that outlive their coroutine. Every statement made on a
 * pooled connection (prepare(), query()) gets object handlers of ours:
 * PDO's with free_obj wrapped. When a coroutine's PHP code is over (its
 * result, its closure and arguments released: api/spawn.c calls
 * async_pdo_pool_coroutine_end, its async_on_coroutine_end hook, in the
 * coroutine), each connection lent to it whose object something else than
 * the pool still references (the only references PDO gives out are
 * statements' database_object_handle, after the failed query's statement
 * is dropped) is handed to nobody (tasync_pool_transfer with NULL): still
 * lent, still counted against max, never lent to anyone else, and recorded
 * in pp_held_conns. Otherwise the core takes it back as usual. A
 * statement's free_obj then runs PDO's (which releases its reference to
 * the connection) and checks the reference count: when only the pool's is
 * left, that was the last statement, and the connection is given back
 * (tasync_pool_give_back) from a native coroutine of its own, so that
 * before_release's reset (which talks to the server and suspends) never
 * runs inside a destructor; a reset that fails destroys it, which frees
 * its place for a new connection. A reference count is what PHP already
 * maintains for the connection object exactly: no counter of our own can
 * drift from it. If the facade went meanwhile, the pool is closed and the
 * give back destroys the connection (pp_held_conns keeps a reference to
 * the pool, whose data is this record); at the end of the request
 * pp_held_conns is dropped and the runtime's teardown releases the pool's
 * reference: the connection then goes with its last statement as a plain
 * PDO object.
 *
 * Broken connections. After a call that failed, the connection's driver
 * is asked whether it is alive (pdo_dbh_methods.check_liveness: a ping
 * for mysql); a dead one (a KILL, a restarted server, a cut network, a
 * query interrupted by its coroutine's cancellation) is given back as
 * failed and destroyed at once: the failed call reports PDO's error, the
 * next call of the coroutine acquires a fresh connection. The
 * healthcheck interval pings idle connections the same way.
 *
 * Outside coroutines (no runtime yet: plain PHP) calls go to one
 * connection made by the constructor (so a connect error is the
 * constructor's PDOException, as without the pool); the pool's first
 * connection adopts it when it is idle.
 *
 * The self-check. What this relies on in PHP 8.2's PDO: pdo_dbh_object_t
 * (its inner pointer before zend_object, from the installed
 * php_pdo_driver.h), pdo_dbh_t's public fields (methods, driver,
 * in_txn, error_code, query_stmt, is_persistent), the handlers' use of
 * ZEND_THIS and, for mysql, that pdo_mysql's handle begins with its
 * MYSQLND pointer. Before the first pool is made, the offsets and fields
 * are compared with what PDO itself reports (the handlers' offset, the
 * driver name, error mode, persistence and transaction state through
 * PDO's getAttribute()/inTransaction(), the DSN), and for mysql the
 * MYSQLND connection's thread id with SELECT CONNECTION_ID(). A mismatch
 * turns the feature off with one warning: PDO::ATTR_POOL_ENABLED is then
 * ignored (one connection per object, rule C24 refusing sharing).
 * async.pdo_pool_layout_fault (test only) simulates a mismatch.
 */
#include "io/families.h"
#include "io/pdo.h"
#include "io/pdo_pool.h"
#include "io/wait.h"
#include "api/exceptions.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/pdo/php_pdo_driver.h"
#include "ext/mysqlnd/mysqlnd.h"

#include <tasync/pool.h>

#define PP_ATTR_ENABLED 22
#define PP_ATTR_MIN 23
#define PP_ATTR_MAX 24
#define PP_ATTR_HEALTHCHECK_INTERVAL 25
#define PP_ATTR_FIRST PP_ATTR_ENABLED
#define PP_ATTR_LAST PP_ATTR_HEALTHCHECK_INTERVAL
#define PP_MYSQL_ATTR_INIT_COMMAND 1002

typedef enum { PP_MYSQL, PP_PGSQL, PP_SQLITE } pp_driver;

/* One pooled PDO object's pool. Counted: the facade's reference, the
 * core's (the pool's data, until the pool is freed), a call in progress. */
typedef struct pp_rec {
	uint32_t refs;
	zend_object *facade;        /* weak: NULL once the facade went */
	pp_driver driver;
	zend_string *dsn;
	zval user, pass;            /* string or null */
	zval options;               /* the constructor's options without the pool's */
	zend_string *mysql_db;      /* mysql: dbname of the DSN (COM_CHANGE_USER), or NULL */
	uint32_t min, max;
	uint64_t interval_ms;
	zend_object *plain;         /* the connection outside coroutines (one reference) or NULL */
	tasync_pool_t *pool;        /* one reference, or NULL until first used in a coroutine */
	tasync_runtime_t *rt;       /* the runtime pool belongs to */
	HashTable dirty;            /* handles of connections whose attributes a borrower set */
} pp_rec;

enum {
	PP_PREPARE, PP_EXEC, PP_QUERY, PP_BEGIN, PP_COMMIT, PP_ROLLBACK, PP_IN_TXN, PP_LAST_ID,
	PP_ERROR_CODE, PP_ERROR_INFO, PP_SET_ATTR, PP_GET_ATTR, PP_QUOTE, PP_METHODS
};
static const char *const pp_method_names[PP_METHODS] = {
	"prepare", "exec", "query", "begintransaction", "commit", "rollback", "intransaction",
	"lastinsertid", "errorcode", "errorinfo", "setattribute", "getattribute", "quote",
};
static zif_handler pp_orig[PP_METHODS];
static zend_class_entry *pp_pdo_ce;
static zend_function *pp_pdo_ctor;
static zend_object_handlers pp_handlers;
static const zend_object_handlers *pp_pdo_handlers;
static bool pp_ready;              /* methods wrapped and constants declared */
static bool pp_checked;            /* the layout was checked (once per process) */
static bool pp_disabled;           /* the check failed: the option is ignored */
static bool pp_mysql_checked;
zend_long async_pdo_pool_layout_fault;

/* Facade object => pp_rec *. */
ZEND_TLS HashTable *pp_recs;
/* Connection object in a pool => pp_rec * (borrowed: the pool's data). */
ZEND_TLS HashTable *pp_conns;
/* Connection object lent to nobody while statements hold it => pp_held *. */
ZEND_TLS HashTable *pp_held_conns;

/* A connection whose coroutine ended while statements held it: still lent
 * (counted against max) to nobody, until its last statement goes. */
typedef struct pp_held {
	tasync_pool_t *pool;        /* one reference */
	void *resource;             /* the lease (the pool's reference) */
} pp_held;

static zend_object_handlers pp_stmt_handlers;
static const zend_object_handlers *pp_stmt_orig_handlers;
/* Statements with pp_stmt_handlers alive: while there is none, no
 * statement can hold a connection past its coroutine, and the end of a
 * coroutine (async_pdo_pool_coroutine_end, run at every coroutine's end)
 * has nothing to look at. */
ZEND_TLS uint32_t pp_live_stmts;

static pp_rec *pp_rec_of(zend_object *obj)
{
	if (pp_recs == NULL || obj->handlers != &pp_handlers) {
		return NULL;
	}
	return zend_hash_index_find_ptr(pp_recs, obj->handle);
}

static void pp_rec_unref(pp_rec *r)
{
	if (--r->refs != 0) {
		return;
	}
	zend_string_release(r->dsn);
	zval_ptr_dtor(&r->user);
	zval_ptr_dtor(&r->pass);
	zval_ptr_dtor(&r->options);
	if (r->mysql_db != NULL) {
		zend_string_release(r->mysql_db);
	}
	if (r->plain != NULL) {
		OBJ_RELEASE(r->plain);
	}
	zend_hash_destroy(&r->dirty);
	efree(r);
}

static inline pdo_dbh_t *pp_dbh(zend_object *obj)
{
	return php_pdo_dbh_fetch_inner(obj);
}

/* ------------------------------------------------------------ errors */

static zend_class_entry *pp_pdo_exception_ce(void)
{
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "pdoexception", sizeof("pdoexception") - 1);
	return ce != NULL ? ce : zend_ce_exception;
}

/* A PDOException as PDO throws one: code and errorInfo from sqlstate. */
static void pp_throw(const char *sqlstate, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	zend_class_entry *ce = pp_pdo_exception_ce();
	zend_object *ex = zend_throw_exception_ex(ce, 0, "SQLSTATE[%s]: General error: %s", sqlstate, msg);
	zval info, code;
	array_init(&info);
	add_next_index_string(&info, sqlstate);
	add_next_index_null(&info);
	add_next_index_string(&info, msg);
	if (ce != zend_ce_exception) {
		zend_update_property(ce, ex, "errorInfo", sizeof("errorInfo") - 1, &info);
	}
	zval_ptr_dtor(&info);
	ZVAL_STRING(&code, sqlstate);
	zend_update_property(zend_ce_exception, ex, "code", sizeof("code") - 1, &code);
	zval_ptr_dtor(&code);
}

/* ------------------------------------------------------- connections */

/* A new connection: PDO's constructor on a new PDO object, with the
 * facade's arguments. NULL with the constructor's exception pending. */
static zend_object *pp_connect(pp_rec *r)
{
	zval obj, args[4];
	if (object_init_ex(&obj, pp_pdo_ce) != SUCCESS) {
		return NULL;
	}
	ZVAL_STR_COPY(&args[0], r->dsn);
	ZVAL_COPY(&args[1], &r->user);
	ZVAL_COPY(&args[2], &r->pass);
	ZVAL_COPY(&args[3], &r->options);
	zend_call_known_instance_method(pp_pdo_ctor, Z_OBJ(obj), NULL, 4, args);
	for (int i = 0; i < 4; i++) {
		zval_ptr_dtor(&args[i]);
	}
	if (EG(exception) != NULL || pp_dbh(Z_OBJ(obj))->driver == NULL) {
		zval_ptr_dtor(&obj);
		if (EG(exception) == NULL) {
			pp_throw("HY000", "the pool could not open a connection");
		}
		return NULL;
	}
	return Z_OBJ(obj);
}

/* $conn->$method(...$args) on a connection: true when it ran without an
 * exception (dropped); *rv_out (may be NULL) receives what it returned. */
static bool pp_conn_call(zend_object *conn, const char *method, uint32_t argc, zval *args, zval *rv_out)
{
	zval rv;
	zend_function *fn = zend_hash_str_find_ptr(&pp_pdo_ce->function_table, method, strlen(method));
	ZVAL_UNDEF(&rv);
	if (rv_out != NULL) {
		ZVAL_UNDEF(rv_out);
	}
	if (fn == NULL) {
		return false;
	}
	zend_call_known_instance_method(fn, conn, &rv, argc, args);
	bool ran = EG(exception) == NULL && !Z_ISUNDEF(rv);
	if (EG(exception) != NULL) {
		zend_clear_exception();
	}
	if (rv_out != NULL) {
		ZVAL_COPY_VALUE(rv_out, &rv);
	} else {
		zval_ptr_dtor(&rv);
	}
	return ran;
}

/* The same, true when it returned something other than false. */
static bool pp_conn_ok(zend_object *conn, const char *method, uint32_t argc, zval *args)
{
	zval rv;
	bool ok = pp_conn_call(conn, method, argc, args, &rv) && Z_TYPE(rv) != IS_FALSE;
	zval_ptr_dtor(&rv);
	return ok;
}

/* exec($sql) on a connection. */
static bool pp_conn_exec(zend_object *conn, const char *sql)
{
	zval arg;
	ZVAL_STRING(&arg, sql);
	bool ok = pp_conn_ok(conn, "exec", 1, &arg);
	zval_ptr_dtor(&arg);
	return ok;
}

static bool pp_in_txn(zend_object *conn)
{
	pdo_dbh_t *dbh = pp_dbh(conn);
	if (dbh->methods == NULL) {
		return false;
	}
	if (dbh->methods->in_transaction != NULL) {
		return dbh->methods->in_transaction(dbh);
	}
	return dbh->in_txn;
}

/* The statement PDO keeps after a failed query() (for errorInfo()) holds
 * the connection: PDO drops it at the start of its next call; so do we. */
static void pp_clear_query_stmt(zend_object *conn)
{
	pdo_dbh_t *dbh = pp_dbh(conn);
	if (dbh->query_stmt != NULL) {
		dbh->query_stmt = NULL;
		zval_ptr_dtor(&dbh->query_stmt_zval);
	}
}

static MYSQLND *pp_mysqlnd(zend_object *conn)
{
	pdo_dbh_t *dbh = pp_dbh(conn);
	return dbh->driver_data != NULL ? *(MYSQLND **) dbh->driver_data : NULL;
}

/* Alive: the driver's check_liveness (mysql: a ping). */
static bool pp_alive(zend_object *conn)
{
	pdo_dbh_t *dbh = pp_dbh(conn);
	if (dbh->methods == NULL || dbh->is_closed) {
		return false;
	}
	if (dbh->methods->check_liveness == NULL) {
		return true;
	}
	return dbh->methods->check_liveness(dbh) == SUCCESS;
}

/* Resets a connection between borrowers (see the top); false: close it. */
static bool pp_reset(pp_rec *r, zend_object *conn)
{
	pp_clear_query_stmt(conn);
	if (GC_REFCOUNT(conn) > 1) {
		return false; /* statements hold it */
	}
	if (zend_hash_index_exists(&r->dirty, conn->handle) || r->driver == PP_SQLITE) {
		return false;
	}
	if (EG(exception) != NULL) {
		return false;
	}
	if (pp_in_txn(conn) && (!pp_conn_ok(conn, "rollback", 0, NULL) || pp_in_txn(conn))) {
		return false;
	}
	pdo_dbh_t *dbh = pp_dbh(conn);
	if (r->driver == PP_MYSQL) {
		MYSQLND *m = pp_mysqlnd(conn);
		if (m == NULL || m->data == NULL || dbh->username == NULL) {
			return false;
		}
		/* The credentials PDO connected with (the DSN's user= and
		 * password= included), the DSN's database. */
		const char *pass = dbh->password != NULL ? dbh->password : "";
		if (mysqlnd_change_user_ex(m, dbh->username, pass, r->mysql_db != NULL ? ZSTR_VAL(r->mysql_db) : "",
				false, strlen(pass)) != PASS) {
			return false;
		}
		zval *init = zend_hash_index_find(Z_ARRVAL(r->options), PP_MYSQL_ATTR_INIT_COMMAND);
		if (init != NULL && Z_TYPE_P(init) == IS_STRING && !pp_conn_exec(conn, Z_STRVAL_P(init))) {
			return false;
		}
		if (!dbh->auto_commit && !pp_conn_exec(conn, "SET autocommit=0")) {
			return false;
		}
	} else if (r->driver == PP_PGSQL) {
		if (!pp_conn_exec(conn, "DISCARD ALL")) {
			return false;
		}
	}
	pp_clear_query_stmt(conn);
	strcpy(pp_dbh(conn)->error_code, PDO_ERR_NONE);
	return true;
}

/* ------------------------------------------------- the core's callbacks */

static int pp_cb_create(void *data, tasync_pool_t *pool, void **out_resource, void **out_error)
{
	pp_rec *r = data;
	zend_object *conn = NULL;
	(void) pool;
	if (r->plain != NULL && GC_REFCOUNT(r->plain) == 1 && !pp_in_txn(r->plain)) {
		/* Adopted, reset as between borrowers: the pool counts it from now on. */
		conn = r->plain;
		r->plain = NULL;
		r->refs++;
		if (!pp_reset(r, conn)) {
			OBJ_RELEASE(conn);
			conn = NULL;
		}
		pp_rec_unref(r);
	}
	if (conn == NULL) {
		r->refs++;
		conn = pp_connect(r);
		pp_rec_unref(r);
		if (conn == NULL) {
			*out_error = EG(exception);
			EG(exception) = NULL;
			return TASYNC_EFAILED;
		}
	}
	strcpy(pp_dbh(conn)->error_code, PDO_ERR_NONE);
	if (pp_conns == NULL) {
		ALLOC_HASHTABLE(pp_conns);
		zend_hash_init(pp_conns, 8, NULL, NULL, 0);
	}
	zend_hash_index_update_ptr(pp_conns, conn->handle, r);
	zval zv;
	ZVAL_OBJ(&zv, conn);
	*out_resource = async_value_box(&zv);
	zval_ptr_dtor(&zv);
	return 0;
}

static zend_object *pp_resource_obj(void *resource)
{
	zval *zv = async_value_zval(resource);
	return Z_TYPE_P(zv) == IS_OBJECT ? Z_OBJ_P(zv) : NULL;
}

static void pp_cb_destroy(void *data, tasync_pool_t *pool, void *resource)
{
	pp_rec *r = data;
	(void) pool;
	zend_object *conn = pp_resource_obj(resource);
	if (conn != NULL) {
		zend_hash_index_del(&r->dirty, conn->handle);
		if (pp_conns != NULL) {
			zend_hash_index_del(pp_conns, conn->handle);
		}
	}
}

static int pp_cb_healthcheck(void *data, tasync_pool_t *pool, void *resource)
{
	(void) data;
	(void) pool;
	zend_object *conn = pp_resource_obj(resource);
	return conn != NULL && EG(exception) == NULL && pp_alive(conn);
}

static int pp_cb_before_release(void *data, tasync_pool_t *pool, void *resource)
{
	pp_rec *r = data;
	(void) pool;
	zend_object *conn = pp_resource_obj(resource);
	/* Outside any coroutine nothing can be said to the server: closed. */
	if (conn == NULL || async_io_coroutine() == NULL) {
		return 0;
	}
	r->refs++;
	int keep = pp_reset(r, conn);
	pp_rec_unref(r);
	return keep;
}

/* A check pass, in a coroutine with a PHP VM of its own (the connects and
 * the pings call PDO), in the global scope. */
typedef struct pp_check_arg {
	pp_rec *rec;                /* one reference */
	tasync_pool_t *pool;        /* one reference */
} pp_check_arg;

static void pp_check_entry(tasync_coroutine_t *self, void *arg)
{
	pp_check_arg *a = arg;
	void *err = NULL;
	(void) self;
	/* What fails here fails again for the borrower who needs it. */
	tasync_pool_check(ASYNC_G(rt), a->pool, &err);
	tasync_error_release(ASYNC_G(rt), err);
	async_safe_point();
	if (EG(exception) != NULL) {
		zend_clear_exception();
	}
}

static void pp_check_free(void *arg)
{
	pp_check_arg *a = arg;
	tasync_pool_release(a->pool);
	pp_rec_unref(a->rec);
	efree(a);
}

static void pp_cb_check_due(void *data, tasync_pool_t *pool)
{
	pp_rec *r = data;
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return;
	}
	pp_check_arg *a = emalloc(sizeof(*a));
	a->rec = r;
	a->pool = pool;
	r->refs++;
	tasync_pool_retain(pool);
	void *err = NULL;
	async_spawn_native(tasync_scope_global(rt), pp_check_entry, a, pp_check_free, NULL, &err);
	tasync_error_release(rt, err);
}

static void pp_cb_release_data(void *data)
{
	pp_rec *r = data;
	r->pool = NULL;
	pp_rec_unref(r);
}

/* ------------------------------------------------------------ the pool */

static tasync_pool_t *pp_pool(pp_rec *r)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (r->pool != NULL && r->rt == rt) {
		return r->pool;
	}
	if (r->pool != NULL) {
		/* A pool of a runtime that went. */
		tasync_pool_t *old = r->pool;
		r->pool = NULL;
		tasync_pool_release(old);
	}
	tasync_pool_callbacks_t cb;
	memset(&cb, 0, sizeof(cb));
	cb.size = sizeof(cb);
	cb.data = r;
	cb.create = pp_cb_create;
	cb.destroy = pp_cb_destroy;
	cb.healthcheck = pp_cb_healthcheck;
	cb.before_release = pp_cb_before_release;
	cb.check_due = pp_cb_check_due;
	cb.release_data = pp_cb_release_data;
	tasync_pool_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.min = r->min;
	opts.max = r->max;
	opts.healthcheck_interval_ns = r->interval_ms * 1000000u;
	tasync_pool_t *pool = NULL;
	int rc = tasync_pool_create(rt, &opts, &cb, &pool);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		return NULL;
	}
	r->refs++; /* the core's */
	r->pool = pool;
	r->rt = rt;
	if (r->min > 0) {
		void *err = NULL;
		rc = tasync_pool_fill(rt, pool, &err);
		if (!async_after_switch()) {
			tasync_error_release(rt, err);
			return NULL;
		}
		if (rc != 0) {
			async_throw_error(rc, err);
			return NULL;
		}
	}
	return r->pool;
}

/* The connection lent to co by pool, or NULL. */
static void *pp_lease_of(tasync_pool_t *pool, tasync_coroutine_t *co)
{
	void *resources[64];
	tasync_coroutine_t *owners[64];
	size_t n = tasync_pool_leases(pool, NULL, NULL, 0);
	void **res = n <= 64 ? resources : safe_emalloc(n, sizeof(void *), 0);
	tasync_coroutine_t **own = n <= 64 ? owners : safe_emalloc(n, sizeof(tasync_coroutine_t *), 0);
	n = tasync_pool_leases(pool, res, own, n);
	void *found = NULL;
	for (size_t i = 0; i < n; i++) {
		if (own[i] == co) {
			found = res[i];
			break;
		}
	}
	if (res != resources) {
		efree(res);
		efree(own);
	}
	return found;
}

/*
 * The connection of the calling coroutine (a new reference), acquired when
 * it has none (may wait: at max, in arrival order, cancellable); outside
 * coroutines the plain connection. *lease receives the pool's resource, or
 * NULL for the plain connection. NULL with an exception thrown.
 */
static zend_object *pp_connection(pp_rec *r, bool acquire, void **lease)
{
	*lease = NULL;
	tasync_coroutine_t *co = async_io_coroutine();
	if (co == NULL) {
		if (r->plain == NULL) {
			if (!acquire) {
				return NULL;
			}
			r->plain = pp_connect(r);
			if (r->plain == NULL) {
				return NULL;
			}
		}
		GC_ADDREF(r->plain);
		return r->plain;
	}
	tasync_pool_t *pool = pp_pool(r);
	if (pool == NULL) {
		return NULL;
	}
	void *resource = pp_lease_of(pool, co);
	if (resource == NULL) {
		if (!acquire) {
			return NULL;
		}
		tasync_runtime_t *rt = ASYNC_G(rt);
		void *err = NULL;
		tasync_pool_retain(pool);
		int rc = tasync_pool_acquire(rt, pool, NULL, 0, &resource, &err);
		if (!async_after_switch()) {
			if (rc == 0) {
				tasync_pool_give_back(pool, resource, NULL);
				tasync_value_release(rt, resource);
			}
			tasync_error_release(rt, err);
			tasync_pool_release(pool);
			return NULL;
		}
		if (rc != 0) {
			tasync_pool_release(pool);
			if (rc == TASYNC_EPOOL_CLOSED && err == NULL) {
				pp_throw("HY000", "the PDO object's connection pool is closed");
			} else {
				async_throw_error(rc, err);
			}
			return NULL;
		}
		tasync_value_release(rt, resource); /* the pool keeps its own */
		tasync_pool_release(pool);
	}
	zend_object *conn = pp_resource_obj(resource);
	if (conn == NULL) {
		pp_throw("HY000", "the pool lent no connection");
		return NULL;
	}
	*lease = resource;
	GC_ADDREF(conn);
	return conn;
}

/* After a call that failed on conn: a dead connection is given back as
 * failed (destroyed), so that the coroutine's next call gets a fresh one. */
static void pp_after_failure(pp_rec *r, zend_object *conn, void *lease)
{
	async_exception_aside aside;
	tasync_coroutine_t *co = ASYNC_G(rt) != NULL ? tasync_coroutine_current(ASYNC_G(rt)) : NULL;
	bool cancelled = co != NULL && (tasync_coroutine_flags(co) & TASYNC_CO_CANCEL_REQUESTED);
	async_exception_set_aside(&aside);
	bool alive = !cancelled && pp_alive(conn);
	async_exception_restore(&aside);
	if (alive) {
		return;
	}
	if (lease != NULL && r->pool != NULL) {
		zend_object *why = async_error_create(TASYNC_ERROR_POOL, -EPIPE, "PDO connection broken");
		tasync_pool_give_back(r->pool, lease, why);
		OBJ_RELEASE(why);
	} else if (lease == NULL && r->plain == conn) {
		r->plain = NULL;
		OBJ_RELEASE(conn);
	}
}

/* A statement's execute() failed (io/pdo.c): when its connection is the
 * calling coroutine's lease and is dead, it is replaced as after a failed
 * call of the PDO object. */
void async_pdo_pool_statement_failed(zend_object *stmt_obj)
{
	if (pp_conns == NULL) {
		return;
	}
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(stmt_obj);
	if (Z_TYPE(stmt->database_object_handle) != IS_OBJECT) {
		return;
	}
	zend_object *conn = Z_OBJ(stmt->database_object_handle);
	pp_rec *r = zend_hash_index_find_ptr(pp_conns, conn->handle);
	tasync_coroutine_t *co = ASYNC_G(rt) != NULL ? tasync_coroutine_current(ASYNC_G(rt)) : NULL;
	if (r == NULL || r->pool == NULL || co == NULL) {
		return;
	}
	void *lease = pp_lease_of(r->pool, co);
	if (lease == NULL || pp_resource_obj(lease) != conn) {
		return;
	}
	r->refs++;
	GC_ADDREF(conn);
	pp_after_failure(r, conn, lease);
	OBJ_RELEASE(conn);
	pp_rec_unref(r);
}

/* ------------------------------------- statements that outlive their coroutine */

/* Gives a held connection back, in a coroutine of its own (the reset
 * talks to the server). */
static void pp_held_entry(tasync_coroutine_t *self, void *arg)
{
	pp_held *h = arg;
	(void) self;
	tasync_pool_give_back(h->pool, h->resource, NULL);
	async_safe_point();
	if (EG(exception) != NULL) {
		zend_clear_exception();
	}
}

static void pp_held_free(void *arg)
{
	pp_held *h = arg;
	tasync_pool_release(h->pool);
	efree(h);
}

/* The last statement holding conn went: the pool takes it back. */
static void pp_held_return(zend_object *conn)
{
	pp_held *h = zend_hash_index_find_ptr(pp_held_conns, conn->handle);
	zend_hash_index_del(pp_held_conns, conn->handle);
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt != NULL) {
		void *err = NULL;
		pp_held *arg = emalloc(sizeof(*arg));
		*arg = *h;
		tasync_pool_retain(arg->pool);
		int rc = async_spawn_native(tasync_scope_global(rt), pp_held_entry, arg, pp_held_free, NULL, &err);
		tasync_error_release(rt, err);
		if (rc == 0) {
			pp_held_free(h);
			return;
		}
	}
	/* No coroutine to reset it in: given back as failed (destroyed), its
	 * place free for a new connection. */
	zend_object *why = async_error_create(TASYNC_ERROR_POOL, -EPIPE, "PDO connection not reset");
	tasync_pool_give_back(h->pool, h->resource, why);
	OBJ_RELEASE(why);
	pp_held_free(h);
}

/* free_obj of the statements made on pooled connections: PDO's, then the
 * check whether it was the last holder of a held connection. */
static void pp_stmt_free(zend_object *obj)
{
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(obj);
	zend_object *conn = NULL;
	if (pp_live_stmts > 0) {
		pp_live_stmts--;
	}
	if (pp_held_conns != NULL && Z_TYPE(stmt->database_object_handle) == IS_OBJECT
			&& zend_hash_index_exists(pp_held_conns, Z_OBJ(stmt->database_object_handle)->handle)) {
		conn = Z_OBJ(stmt->database_object_handle);
		GC_ADDREF(conn);
	}
	pp_stmt_orig_handlers->free_obj(obj);
	if (conn != NULL) {
		/* Ours and the pool's: no statement is left. */
		if (GC_REFCOUNT(conn) == 2 && pp_held_conns != NULL && zend_hash_index_exists(pp_held_conns, conn->handle)) {
			pp_held_return(conn);
		}
		OBJ_RELEASE(conn);
	}
}

/* A statement prepare() or query() made on the pooled connection conn. */
static void pp_stmt_made(zend_object *conn, zval *rv)
{
	if (Z_TYPE_P(rv) != IS_OBJECT) {
		return;
	}
	zend_object *obj = Z_OBJ_P(rv);
	if (pp_stmt_orig_handlers == NULL) {
		pp_stmt_orig_handlers = obj->handlers;
		pp_stmt_handlers = *obj->handlers;
		pp_stmt_handlers.free_obj = pp_stmt_free;
	}
	if (obj->handlers != pp_stmt_orig_handlers) {
		return;
	}
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(obj);
	if (Z_TYPE(stmt->database_object_handle) == IS_OBJECT && Z_OBJ(stmt->database_object_handle) == conn) {
		obj->handlers = &pp_stmt_handlers;
		pp_live_stmts++;
	}
}

/* The PHP code of co is over (api/spawn.c, in co): its connections that
 * statements still hold are handed to nobody (see the top). */
void async_pdo_pool_coroutine_end(tasync_coroutine_t *co)
{
	if (pp_live_stmts == 0 || pp_recs == NULL || pp_conns == NULL || ASYNC_G(rt) == NULL) {
		return; /* the core takes the coroutine's connections back */
	}
	pp_rec *r;
	ZEND_HASH_FOREACH_PTR(pp_recs, r) {
		if (r->pool == NULL || r->rt != ASYNC_G(rt)) {
			continue;
		}
		void *resource;
		while ((resource = pp_lease_of(r->pool, co)) != NULL) {
			zend_object *conn = pp_resource_obj(resource);
			if (conn == NULL) {
				break;
			}
			pp_clear_query_stmt(conn);
			if (GC_REFCOUNT(conn) <= 1 || tasync_pool_transfer(r->pool, resource, NULL) != 0) {
				break; /* the core takes it back */
			}
			if (pp_held_conns == NULL) {
				ALLOC_HASHTABLE(pp_held_conns);
				zend_hash_init(pp_held_conns, 8, NULL, NULL, 0);
			}
			pp_held *h = emalloc(sizeof(*h));
			h->pool = r->pool;
			h->resource = resource;
			tasync_pool_retain(h->pool);
			zend_hash_index_update_ptr(pp_held_conns, conn->handle, h);
		}
	} ZEND_HASH_FOREACH_END();
}

/* ------------------------------------------------------------ methods */

static bool pp_is_pool_attr(zend_long attr)
{
	return attr >= PP_ATTR_FIRST && attr <= PP_ATTR_LAST;
}

static void pp_pool_attr(pp_rec *r, zend_long attr, zval *return_value)
{
	switch (attr) {
		case PP_ATTR_ENABLED: RETVAL_BOOL(r != NULL); break;
		case PP_ATTR_MIN: RETVAL_LONG(r != NULL ? (zend_long) r->min : 0); break;
		case PP_ATTR_MAX: RETVAL_LONG(r != NULL ? (zend_long) r->max : 10); break;
		default: RETVAL_LONG(r != NULL ? (zend_long) r->interval_ms : 0); break;
	}
}

static bool pp_attr_arg(zend_execute_data *execute_data, zend_long *attr)
{
	if (ZEND_CALL_NUM_ARGS(execute_data) < 1) {
		return false;
	}
	zval *a = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(a);
	if (Z_TYPE_P(a) != IS_LONG) {
		return false;
	}
	*attr = Z_LVAL_P(a);
	return true;
}

static void pp_call(INTERNAL_FUNCTION_PARAMETERS, int m)
{
	zend_object *obj = Z_TYPE(EX(This)) == IS_OBJECT ? Z_OBJ(EX(This)) : NULL;
	pp_rec *r = obj != NULL ? pp_rec_of(obj) : NULL;
	zend_long attr;
	if (r == NULL) {
		if (m == PP_GET_ATTR && obj != NULL && pp_attr_arg(execute_data, &attr) && pp_is_pool_attr(attr)
				&& ZEND_CALL_NUM_ARGS(execute_data) == 1) {
			pp_pool_attr(NULL, attr, return_value);
			return;
		}
		pp_orig[m](INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if ((m == PP_GET_ATTR || m == PP_SET_ATTR) && pp_attr_arg(execute_data, &attr) && pp_is_pool_attr(attr)) {
		if (m == PP_GET_ATTR && ZEND_CALL_NUM_ARGS(execute_data) == 1) {
			pp_pool_attr(r, attr, return_value);
			return;
		}
		if (m == PP_SET_ATTR) {
			pp_throw("HY000", "the pool attributes can only be given to the constructor");
			RETURN_THROWS();
		}
	}
	r->refs++;
	void *lease = NULL;
	/* inTransaction() of a coroutine that has no connection: false. */
	zend_object *conn = pp_connection(r, m != PP_IN_TXN, &lease);
	if (conn == NULL) {
		if (!EG(exception) && m == PP_IN_TXN) {
			RETVAL_FALSE;
		}
		pp_rec_unref(r);
		return;
	}
	/* Only the pointer: the type info of a frame's This carries the
	 * call's flags (ZEND_CALL_INFO). */
	Z_OBJ(EX(This)) = conn;
	pp_orig[m](INTERNAL_FUNCTION_PARAM_PASSTHRU);
	Z_OBJ(EX(This)) = obj;
	if ((m == PP_PREPARE || m == PP_QUERY) && lease != NULL) {
		pp_stmt_made(conn, return_value);
	}
	bool failed = EG(exception) != NULL || Z_TYPE_P(return_value) == IS_FALSE;
	if (m == PP_SET_ATTR && !failed) {
		if (lease != NULL) {
			zend_hash_index_add_empty_element(&r->dirty, conn->handle);
		} else if (ZEND_CALL_NUM_ARGS(execute_data) >= 2 && pp_attr_arg(execute_data, &attr)) {
			/* Outside coroutines: every connection the pool makes gets it. */
			zval *v = ZEND_CALL_ARG(execute_data, 2);
			ZVAL_DEREF(v);
			Z_TRY_ADDREF_P(v);
			SEPARATE_ARRAY(&r->options);
			zend_hash_index_update(Z_ARRVAL(r->options), attr, v);
		}
	}
	if (failed && m <= PP_ROLLBACK) {
		pp_after_failure(r, conn, lease);
	}
	OBJ_RELEASE(conn);
	pp_rec_unref(r);
	if (failed) {
		async_io_pdo_deliver_cancellation();
	}
}

#define PP_HANDLER(n) \
	static ZEND_NAMED_FUNCTION(pp_hook_##n) { pp_call(INTERNAL_FUNCTION_PARAM_PASSTHRU, n); }
PP_HANDLER(0)
PP_HANDLER(1)
PP_HANDLER(2)
PP_HANDLER(3)
PP_HANDLER(4)
PP_HANDLER(5)
PP_HANDLER(6)
PP_HANDLER(7)
PP_HANDLER(8)
PP_HANDLER(9)
PP_HANDLER(10)
PP_HANDLER(11)
PP_HANDLER(12)
static const zif_handler pp_hooks[PP_METHODS] = {
	pp_hook_0, pp_hook_1, pp_hook_2, pp_hook_3, pp_hook_4, pp_hook_5, pp_hook_6,
	pp_hook_7, pp_hook_8, pp_hook_9, pp_hook_10, pp_hook_11, pp_hook_12,
};

/* --------------------------------------------------------- the facade */

/* The facade goes: its pool closes (waiters fail, idle connections are
 * closed, lent ones when their coroutine ends or their statements go). */
static void pp_facade_dtor(zend_object *obj)
{
	pp_pdo_handlers->dtor_obj(obj);
	pp_rec *r = pp_rec_of(obj);
	if (r != NULL && r->pool != NULL && r->rt == ASYNC_G(rt) && ASYNC_G(rt) != NULL) {
		async_exception_aside aside;
		async_exception_set_aside(&aside);
		tasync_pool_close(r->pool);
		async_safe_point();
		async_exception_restore(&aside);
	}
}

static void pp_facade_free(zend_object *obj)
{
	pp_rec *r = pp_rec_of(obj);
	if (r != NULL) {
		zend_hash_index_del(pp_recs, obj->handle);
		r->facade = NULL;
		tasync_pool_t *pool = r->pool;
		if (pool != NULL) {
			tasync_pool_close(pool);
			/* The core's reference to r goes with the pool. */
			r->pool = NULL;
			r->refs++;
			tasync_pool_release(pool);
			async_flush_releases();
			pp_rec_unref(r);
		}
		pp_rec_unref(r);
		if (zend_hash_num_elements(pp_recs) == 0) {
			zend_hash_destroy(pp_recs);
			FREE_HASHTABLE(pp_recs);
			pp_recs = NULL;
		}
	}
	pp_pdo_handlers->free_obj(obj);
}

/* ------------------------------------------------------ the self-check */

static void pp_disable(const char *why)
{
	pp_disabled = true;
	php_error_docref(NULL, E_WARNING,
		"PDO connection pooling is disabled: %s; PDO::ATTR_POOL_ENABLED is ignored", why);
}

/* Compares what this file reads in conn with what PDO reports. */
static bool pp_check_layout(zend_object *facade, zend_object *conn, const char *dsn)
{
	if (async_pdo_pool_layout_fault == 1
			|| facade->handlers->offset != (int) XtOffsetOf(pdo_dbh_object_t, std)) {
		pp_disable("PDO objects do not have the layout this build was made for");
		return false;
	}
	pdo_dbh_t *dbh = pp_dbh(conn);
	zval rv, a;
	bool same = true;
	ZVAL_LONG(&a, PDO_ATTR_DRIVER_NAME);
	same = pp_conn_call(conn, "getattribute", 1, &a, &rv) && Z_TYPE(rv) == IS_STRING
		&& dbh->driver != NULL && strcmp(Z_STRVAL(rv), dbh->driver->driver_name) == 0;
	zval_ptr_dtor(&rv);
	ZVAL_LONG(&a, PDO_ATTR_ERRMODE);
	same = same && pp_conn_call(conn, "getattribute", 1, &a, &rv) && Z_TYPE(rv) == IS_LONG
		&& Z_LVAL(rv) == (zend_long) dbh->error_mode;
	zval_ptr_dtor(&rv);
	ZVAL_LONG(&a, PDO_ATTR_PERSISTENT);
	same = same && pp_conn_call(conn, "getattribute", 1, &a, &rv)
		&& (Z_TYPE(rv) == IS_TRUE) == (dbh->is_persistent != 0);
	zval_ptr_dtor(&rv);
	same = same && pp_conn_call(conn, "intransaction", 0, NULL, &rv) && (Z_TYPE(rv) == IS_TRUE) == pp_in_txn(conn);
	zval_ptr_dtor(&rv);
	/* The DSN after its driver's prefix (pdo_pgsql turns its ';' into ' '). */
	const char *colon = strchr(dsn, ':');
	same = same && colon != NULL && dbh->data_source != NULL && strlen(dbh->data_source) == strlen(colon + 1);
	for (size_t i = 0; same && colon[1 + i] != '\0'; i++) {
		char want = colon[1 + i], got = dbh->data_source[i];
		same = got == want || (want == ';' && got == ' ');
	}
	if (!same) {
		pp_disable("a connected PDO object's fields are not where this build expects them");
		return false;
	}
	return true;
}

/* mysql: the MYSQLND of pdo_mysql's handle is the connection PDO talks on. */
static bool pp_check_mysql(zend_object *conn)
{
	MYSQLND *m = pp_mysqlnd(conn);
	zval sql, rv;
	ZVAL_STRING(&sql, "SELECT CONNECTION_ID()");
	ZVAL_UNDEF(&rv);
	bool ok = pp_conn_call(conn, "query", 1, &sql, &rv) && Z_TYPE(rv) == IS_OBJECT;
	zval_ptr_dtor(&sql);
	zend_long id = -1;
	if (ok) {
		zval col;
		ZVAL_UNDEF(&col);
		zend_call_method_with_0_params(Z_OBJ(rv), Z_OBJCE(rv), NULL, "fetchcolumn", &col);
		if (EG(exception) != NULL) {
			zend_clear_exception();
		}
		id = Z_TYPE(col) == IS_LONG ? Z_LVAL(col) : (Z_TYPE(col) == IS_STRING ? ZEND_STRTOL(Z_STRVAL(col), NULL, 10) : -1);
		zval_ptr_dtor(&col);
	}
	zval_ptr_dtor(&rv);
	uint64_t tid = m != NULL && m->data != NULL ? m->data->m->get_thread_id(m->data) : 0;
	if (async_pdo_pool_layout_fault == 2 || id < 0 || (uint64_t) id != tid) {
		pp_disable("pdo_mysql's connection handle is not where this build expects it");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- constructor */

/* key=value of a DSN's part after the driver prefix ("dbname"). */
static zend_string *pp_dsn_value(const char *spec, const char *key)
{
	size_t klen = strlen(key);
	const char *p = spec;
	while (*p) {
		while (*p == ';' || *p == ' ') {
			p++;
		}
		const char *end = strchr(p, ';');
		size_t len = end != NULL ? (size_t) (end - p) : strlen(p);
		if (len > klen && strncasecmp(p, key, klen) == 0 && p[klen] == '=') {
			return zend_string_init(p + klen + 1, len - klen - 1, 0);
		}
		p += len;
	}
	return NULL;
}

static bool pp_sqlite_in_memory(const char *spec)
{
	return spec[0] == '\0' || strcmp(spec, ":memory:") == 0 || strncmp(spec, "file::memory:", 13) == 0
		|| strstr(spec, "mode=memory") != NULL;
}

static bool pp_option_long(HashTable *opts, zend_long key, zend_long *out)
{
	zval *v = zend_hash_index_find(opts, key);
	if (v == NULL) {
		return false;
	}
	*out = zval_get_long(v);
	return true;
}

/*
 * Called by io/pdo.c's constructor wrapper before PDO's own constructor.
 * Returns true when it handled the construction (a pooled object, made or
 * failed with an exception); false: PDO's constructor runs, with the pool
 * attributes taken out of the options.
 */
bool async_pdo_pool_construct(INTERNAL_FUNCTION_PARAMETERS)
{
	if (!pp_ready || ZEND_CALL_NUM_ARGS(execute_data) < 4) {
		return false;
	}
	zval *opt_zv = ZEND_CALL_ARG(execute_data, 4);
	ZVAL_DEREF(opt_zv);
	if (Z_TYPE_P(opt_zv) != IS_ARRAY) {
		return false;
	}
	HashTable *opts = Z_ARRVAL_P(opt_zv);
	bool any = false;
	for (zend_long k = PP_ATTR_FIRST; k <= PP_ATTR_LAST + 1; k++) {
		any = any || zend_hash_index_exists(opts, k);
	}
	if (!any) {
		return false;
	}
	zval *en = zend_hash_index_find(opts, PP_ATTR_ENABLED);
	bool enabled = en != NULL && zend_is_true(en);
	zend_long min = 0, max = 10, interval = 0;
	pp_option_long(opts, PP_ATTR_MIN, &min);
	pp_option_long(opts, PP_ATTR_MAX, &max);
	pp_option_long(opts, PP_ATTR_HEALTHCHECK_INTERVAL, &interval);
	/* The options PDO sees: without the pool's (26: the reference's
	 * statement cache size, accepted and ignored). */
	zval tmpl;
	ZVAL_ARR(&tmpl, zend_array_dup(opts));
	for (zend_long k = PP_ATTR_FIRST; k <= PP_ATTR_LAST + 1; k++) {
		zend_hash_index_del(Z_ARRVAL(tmpl), k);
	}
	zval *slot = ZEND_CALL_ARG(execute_data, 4);
	zval_ptr_dtor(slot);
	ZVAL_COPY(slot, &tmpl);
	zend_object *facade = Z_OBJ(EX(This));
	zval *dsn_zv = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(dsn_zv);
	if (!enabled || pp_disabled || Z_TYPE_P(dsn_zv) != IS_STRING || facade->handlers != pp_pdo_handlers) {
		zval_ptr_dtor(&tmpl);
		return false;
	}
	const char *dsn = Z_STRVAL_P(dsn_zv);
	pp_driver driver;
	if (strncmp(dsn, "mysql:", 6) == 0) {
		driver = PP_MYSQL;
	} else if (strncmp(dsn, "pgsql:", 6) == 0) {
		driver = PP_PGSQL;
	} else if (strncmp(dsn, "sqlite:", 7) == 0) {
		driver = PP_SQLITE;
	} else {
		zval_ptr_dtor(&tmpl);
		pp_throw("IM001", "PDO::ATTR_POOL_ENABLED supports the mysql, pgsql and sqlite drivers (DSN \"%.40s\")", dsn);
		return true;
	}
	if (driver == PP_SQLITE && pp_sqlite_in_memory(dsn + 7)) {
		zval_ptr_dtor(&tmpl);
		pp_throw("HY000", "an in-memory (or temporary) SQLite database belongs to one handle and cannot be "
			"pooled: give PDO::ATTR_POOL_ENABLED a database file");
		return true;
	}
	zval *persistent = zend_hash_index_find(Z_ARRVAL(tmpl), PDO_ATTR_PERSISTENT);
	if (persistent != NULL && zend_is_true(persistent)) {
		zval_ptr_dtor(&tmpl);
		pp_throw("HY000", "PDO::ATTR_PERSISTENT and PDO::ATTR_POOL_ENABLED cannot be combined");
		return true;
	}
	if (min < 0 || max < 1 || min > max || max > UINT32_MAX || interval < 0) {
		zval_ptr_dtor(&tmpl);
		pp_throw("HY000", "the pool needs 0 <= PDO::ATTR_POOL_MIN <= PDO::ATTR_POOL_MAX, PDO::ATTR_POOL_MAX >= 1 "
			"and PDO::ATTR_POOL_HEALTHCHECK_INTERVAL >= 0 (given %ld, %ld, %ld)", (long) min, (long) max, (long) interval);
		return true;
	}
	pp_rec *r = ecalloc(1, sizeof(*r));
	r->refs = 1;
	r->driver = driver;
	r->dsn = zend_string_copy(Z_STR_P(dsn_zv));
	ZVAL_NULL(&r->user);
	ZVAL_NULL(&r->pass);
	for (uint32_t i = 2; i <= 3 && i <= ZEND_CALL_NUM_ARGS(execute_data); i++) {
		zval *v = ZEND_CALL_ARG(execute_data, i);
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) == IS_STRING) {
			ZVAL_COPY(i == 2 ? &r->user : &r->pass, v);
		}
	}
	ZVAL_COPY_VALUE(&r->options, &tmpl);
	r->min = (uint32_t) min;
	r->max = (uint32_t) max;
	r->interval_ms = (uint64_t) interval;
	zend_hash_init(&r->dirty, 8, NULL, NULL, 0);
	if (driver == PP_MYSQL) {
		r->mysql_db = pp_dsn_value(dsn + 6, "dbname");
	}
	/* The connection for calls outside coroutines: the constructor's
	 * errors are PDO's. */
	r->plain = pp_connect(r);
	if (r->plain == NULL) {
		pp_rec_unref(r);
		return true;
	}
	if (!pp_checked) {
		pp_checked = true;
		if (!pp_check_layout(facade, r->plain, dsn)) {
			/* Off: this object is a plain PDO object after all. */
			pp_rec_unref(r);
			return false;
		}
	}
	if (driver == PP_MYSQL && !pp_mysql_checked) {
		pp_mysql_checked = true;
		if (!pp_check_mysql(r->plain)) {
			pp_rec_unref(r);
			return false;
		}
	}
	if (pp_disabled) {
		pp_rec_unref(r);
		return false;
	}
	if (pp_recs == NULL) {
		ALLOC_HASHTABLE(pp_recs);
		zend_hash_init(pp_recs, 8, NULL, NULL, 0);
	}
	r->facade = facade;
	facade->handlers = &pp_handlers;
	zend_hash_index_update_ptr(pp_recs, facade->handle, r);
	/* In a coroutine with a minimum: the pool is made and filled now, so
	 * that a connect error is the constructor's. */
	if (min > 0 && async_io_coroutine() != NULL) {
		r->refs++;
		pp_pool(r);
		pp_rec_unref(r);
	}
	return true;
}

/* ------------------------------------------------------------- startup */

void async_pdo_pool_startup(void)
{
	if (pp_ready) {
		return;
	}
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "pdo", sizeof("pdo") - 1);
	if (ce == NULL || ce->type != ZEND_INTERNAL_CLASS || ce->constructor == NULL) {
		return;
	}
	for (int i = 0; i < PP_METHODS; i++) {
		zend_function *fn = zend_hash_str_find_ptr(&ce->function_table, pp_method_names[i], strlen(pp_method_names[i]));
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION) {
			return;
		}
	}
	/* PDO's object handlers, from an object of its own. */
	zval probe;
	if (object_init_ex(&probe, ce) != SUCCESS) {
		return;
	}
	pp_pdo_handlers = Z_OBJ(probe)->handlers;
	zval_ptr_dtor(&probe);
	pp_handlers = *pp_pdo_handlers;
	pp_handlers.dtor_obj = pp_facade_dtor;
	pp_handlers.free_obj = pp_facade_free;
	for (int i = 0; i < PP_METHODS; i++) {
		zend_function *fn = zend_hash_str_find_ptr(&ce->function_table, pp_method_names[i], strlen(pp_method_names[i]));
		pp_orig[i] = fn->internal_function.handler;
		fn->internal_function.handler = pp_hooks[i];
	}
	static const struct { const char *name; zend_long value; } consts[] = {
		{ "ATTR_POOL_ENABLED", PP_ATTR_ENABLED },
		{ "ATTR_POOL_MIN", PP_ATTR_MIN },
		{ "ATTR_POOL_MAX", PP_ATTR_MAX },
		{ "ATTR_POOL_HEALTHCHECK_INTERVAL", PP_ATTR_HEALTHCHECK_INTERVAL },
	};
	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++) {
		if (!zend_hash_str_exists(&ce->constants_table, consts[i].name, strlen(consts[i].name))) {
			zend_declare_class_constant_long(ce, consts[i].name, strlen(consts[i].name), consts[i].value);
		}
	}
	pp_pdo_ce = ce;
	pp_pdo_ctor = ce->constructor;
	async_on_coroutine_end(async_pdo_pool_coroutine_end);
	pp_ready = true;
}

void async_pdo_pool_request_shutdown(void)
{
	if (pp_held_conns != NULL) {
		/* The runtime's teardown releases the pools' references: held
		 * connections go with their last statement as plain objects. */
		pp_held *h;
		ZEND_HASH_FOREACH_PTR(pp_held_conns, h) {
			pp_held_free(h);
		} ZEND_HASH_FOREACH_END();
		zend_hash_destroy(pp_held_conns);
		FREE_HASHTABLE(pp_held_conns);
		pp_held_conns = NULL;
	}
	if (pp_conns != NULL) {
		/* Only a lookup for calls in coroutines, which are over. */
		zend_hash_destroy(pp_conns);
		FREE_HASHTABLE(pp_conns);
		pp_conns = NULL;
	}
	if (pp_recs == NULL) {
		return;
	}
	/* Facades still alive (freed after the modules' shutdown) forget the
	 * pools of the runtime that goes. */
	pp_rec *r;
	ZEND_HASH_FOREACH_PTR(pp_recs, r) {
		if (r->pool != NULL) {
			tasync_pool_t *pool = r->pool;
			tasync_pool_close(pool);
			r->pool = NULL;
			r->refs++;
			tasync_pool_release(pool);
			pp_rec_unref(r);
		}
	} ZEND_HASH_FOREACH_END();
}
