/*
 * io/pdo.c - rule C24 for PDO statements: one coroutine reads a
 * statement's open result set at a time.
 *
 * A buffered PDO result (PDO mysql's default) is read from the connection
 * inside execute(), so the stream-level check of C24 (io/socket_streams.c) never
 * sees two readers: a second coroutine that executes the same statement
 * while the first still fetches from it across a suspension replaces the
 * first one's rows, and the first then fetches the second's rows or
 * nothing. PDOStatement's execute and fetch methods are wrapped: a
 * successful execute() that produced a result set records the calling
 * coroutine as the statement's reader; a fetch by another coroutine makes
 * that one the reader (a statement handed over is read by its new owner);
 * the end of the rows (by fetch or foreach), fetchAll(), closeCursor() and
 * a last nextRowset() forget it. execute() by another coroutine while the reader is alive and
 * its result open fails through PDO's own error mode (an exception, a
 * warning or errorInfo) with SQLSTATE HY000 and a message that names both
 * coroutines. The record is keyed weakly by the statement object, so it
 * goes with the statement.
 *
 * A connect (new PDO) that its coroutine's cancellation interrupted fails
 * as PDO says a failed connect does, with a PDOException; rule C18 would
 * deliver the cancellation at the next suspension point, but the exception
 * ends the coroutine first. The constructor is wrapped: the coroutine ends
 * with the cancellation instead, the PDOException as its previous (as a
 * failed call of a pooled object does, io/pdo_pool.c). The constructor
 * wrapper also hands PDO::ATTR_POOL_ENABLED to io/pdo_pool.c, and a failed
 * execute() tells it, so that a dead pooled connection is replaced.
 */
#include "io/families.h"
#include "io/pdo.h"
#include "io/pdo_pool.h"
#include "io/wait.h"
#include "runtime/host.h"

#include "Zend/zend_exceptions.h"
#include "Zend/zend_weakrefs.h"
#include "ext/pdo/php_pdo_driver.h"

typedef enum {
	IO_PDO_EXECUTE,
	IO_PDO_FETCH,       /* false: the rows are over */
	IO_PDO_FETCH_ALL,   /* reads everything */
	IO_PDO_CLOSE,       /* closeCursor() */
	IO_PDO_NEXT_ROWSET, /* false: no more result sets */
	IO_PDO_METHODS
} io_pdo_kind;

static const struct {
	const char *name;
	io_pdo_kind kind;
} io_pdo_methods[] = {
	{ "execute", IO_PDO_EXECUTE },
	{ "fetch", IO_PDO_FETCH },
	{ "fetchobject", IO_PDO_FETCH },
	{ "fetchcolumn", IO_PDO_FETCH },
	{ "fetchall", IO_PDO_FETCH_ALL },
	{ "closecursor", IO_PDO_CLOSE },
	{ "nextrowset", IO_PDO_NEXT_ROWSET },
};
#define IO_PDO_HOOKS (sizeof(io_pdo_methods) / sizeof(io_pdo_methods[0]))

static zif_handler io_pdo_orig[IO_PDO_HOOKS];
static zend_class_entry *io_pdo_stmt_ce;

/* Statement object => tasync_coroutine_t * (retained): its reader. */
ZEND_TLS HashTable *io_pdo_readers;

static void io_pdo_reader_dtor(zval *zv)
{
	tasync_coroutine_release(Z_PTR_P(zv));
}

static tasync_coroutine_t *io_pdo_reader(zend_object *stmt)
{
	if (io_pdo_readers == NULL) {
		return NULL;
	}
	zval *zv = zend_hash_index_find(io_pdo_readers, zend_object_to_weakref_key(stmt));
	return zv != NULL ? Z_PTR_P(zv) : NULL;
}

static void io_pdo_forget(zend_object *stmt)
{
	if (io_pdo_reader(stmt) != NULL) {
		zend_weakrefs_hash_del(io_pdo_readers, stmt);
	}
}

static void io_pdo_set_reader(zend_object *stmt, tasync_coroutine_t *co)
{
	tasync_coroutine_t *now = io_pdo_reader(stmt);
	if (now == co) {
		return;
	}
	if (now != NULL) {
		zend_weakrefs_hash_del(io_pdo_readers, stmt);
	}
	if (io_pdo_readers == NULL) {
		ALLOC_HASHTABLE(io_pdo_readers);
		zend_hash_init(io_pdo_readers, 8, NULL, io_pdo_reader_dtor, 0);
	}
	tasync_coroutine_retain(co);
	zend_weakrefs_hash_add_ptr(io_pdo_readers, stmt, co);
}

/* Fails execute() as PDO fails a statement, by its error mode, without
 * linking against pdo.so (which may be loaded after us, or not at all). */
static void io_pdo_refuse(zend_object *obj, tasync_coroutine_t *self, tasync_coroutine_t *reader)
{
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(obj);
	char msg[256];
	snprintf(msg, sizeof(msg),
		"SQLSTATE[HY000]: General error: coroutine #%" PRIu64 " cannot execute this statement: coroutine #%" PRIu64
		" is reading its result set (it must fetch every row or call closeCursor() first)",
		tasync_coroutine_id(self), tasync_coroutine_id(reader));
	strcpy(stmt->error_code, "HY000");
	enum pdo_error_mode mode = stmt->dbh != NULL ? stmt->dbh->error_mode : PDO_ERRMODE_EXCEPTION;
	if (mode == PDO_ERRMODE_EXCEPTION) {
		zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "pdoexception", sizeof("pdoexception") - 1);
		zend_object *ex = zend_throw_exception(ce != NULL ? ce : zend_ce_exception, msg, 0);
		zval info;
		array_init(&info);
		add_next_index_string(&info, "HY000");
		add_next_index_null(&info);
		add_next_index_null(&info);
		if (ce != NULL) {
			zend_update_property(ce, ex, "errorInfo", sizeof("errorInfo") - 1, &info);
		}
		zval_ptr_dtor(&info);
		zval code;
		ZVAL_STRING(&code, "HY000");
		zend_update_property(zend_ce_exception, ex, "code", sizeof("code") - 1, &code);
		zval_ptr_dtor(&code);
	} else if (mode == PDO_ERRMODE_WARNING) {
		php_error_docref(NULL, E_WARNING, "%s", msg);
	}
}

static void io_pdo_call(INTERNAL_FUNCTION_PARAMETERS, size_t i)
{
	tasync_coroutine_t *self = async_io_coroutine();
	zend_object *obj = Z_TYPE(EX(This)) == IS_OBJECT ? Z_OBJ(EX(This)) : NULL;
	io_pdo_kind kind = io_pdo_methods[i].kind;
	if (self == NULL || obj == NULL) {
		io_pdo_orig[i](INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	tasync_coroutine_t *reader = io_pdo_reader(obj);
	if (kind == IO_PDO_EXECUTE && reader != NULL && reader != self
			&& !(tasync_coroutine_flags(reader) & TASYNC_CO_COMPLETED)) {
		io_pdo_refuse(obj, self, reader);
		RETURN_FALSE;
	}
	io_pdo_orig[i](INTERNAL_FUNCTION_PARAM_PASSTHRU);
	bool failed = Z_TYPE_P(return_value) == IS_FALSE || EG(exception) != NULL;
	if (failed && kind == IO_PDO_EXECUTE) {
		async_pdo_pool_statement_failed(obj);
	}
	switch (kind) {
		case IO_PDO_EXECUTE:
			if (!failed && php_pdo_stmt_fetch_object(obj)->column_count > 0) {
				io_pdo_set_reader(obj, self);
			} else {
				io_pdo_forget(obj);
			}
			break;
		case IO_PDO_FETCH:
		case IO_PDO_NEXT_ROWSET:
			if (failed) {
				io_pdo_forget(obj);
			} else if (reader != NULL) {
				io_pdo_set_reader(obj, self);
			}
			break;
		default:
			io_pdo_forget(obj);
			break;
	}
}

/*
 * foreach over a statement: the iterating coroutine becomes the reader of a
 * recorded result, and the end of the rows forgets it, as fetch() does.
 * PDO's iterator holds the statement in its data.
 */
static zend_object_iterator *(*io_pdo_orig_get_iterator)(zend_class_entry *ce, zval *object, int by_ref);
static const zend_object_iterator_funcs *io_pdo_orig_iter_funcs;
static zend_object_iterator_funcs io_pdo_iter_funcs;

static int io_pdo_iter_valid(zend_object_iterator *iter)
{
	int r = io_pdo_orig_iter_funcs->valid(iter);
	if (r != SUCCESS && Z_TYPE(iter->data) == IS_OBJECT) {
		io_pdo_forget(Z_OBJ(iter->data));
	}
	return r;
}

static zend_object_iterator *io_pdo_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	zend_object_iterator *it = io_pdo_orig_get_iterator(ce, object, by_ref);
	if (it == NULL || it->funcs == NULL) {
		return it;
	}
	if (io_pdo_orig_iter_funcs == NULL) {
		io_pdo_orig_iter_funcs = it->funcs;
		io_pdo_iter_funcs = *it->funcs;
		io_pdo_iter_funcs.valid = io_pdo_iter_valid;
	}
	if (it->funcs == io_pdo_orig_iter_funcs) {
		it->funcs = &io_pdo_iter_funcs;
	}
	tasync_coroutine_t *self = async_io_coroutine();
	if (self != NULL && Z_TYPE_P(object) == IS_OBJECT && io_pdo_reader(Z_OBJ_P(object)) != NULL) {
		io_pdo_set_reader(Z_OBJ_P(object), self);
	}
	return it;
}

#define IO_PDO_HANDLER(n) \
	static ZEND_NAMED_FUNCTION(io_pdo_hook_##n) { io_pdo_call(INTERNAL_FUNCTION_PARAM_PASSTHRU, n); }
IO_PDO_HANDLER(0)
IO_PDO_HANDLER(1)
IO_PDO_HANDLER(2)
IO_PDO_HANDLER(3)
IO_PDO_HANDLER(4)
IO_PDO_HANDLER(5)
IO_PDO_HANDLER(6)
static const zif_handler io_pdo_hooks[IO_PDO_HOOKS] = {
	io_pdo_hook_0, io_pdo_hook_1, io_pdo_hook_2, io_pdo_hook_3, io_pdo_hook_4, io_pdo_hook_5, io_pdo_hook_6,
};

static zif_handler io_pdo_orig_construct;

/*
 * After a PDO call that failed with an exception in a coroutine whose
 * cancellation was requested (C18 made it pending again): the cancellation
 * is delivered now, with the PDOException as its previous, so that the
 * coroutine ends with it rather than with an error that hides it.
 */
void async_io_pdo_deliver_cancellation(void)
{
	tasync_coroutine_t *self = EG(exception) != NULL && ASYNC_G(rt) != NULL ? tasync_coroutine_current(ASYNC_G(rt)) : NULL;
	if (self == NULL || !(tasync_coroutine_flags(self) & TASYNC_CO_CANCEL_REQUESTED)
			|| zend_is_unwind_exit(EG(exception)) || zend_is_graceful_exit(EG(exception))) {
		return;
	}
	zend_object *failure = EG(exception);
	const zend_op *opline = EG(opline_before_exception);
	EG(exception) = NULL;
	void *err = NULL;
	int rc = tasync_yield(ASYNC_G(rt), &err);
	async_safe_point();
	if (rc == -ECANCELED && err != NULL && EG(exception) == NULL) {
		zend_exception_set_previous((zend_object *) err, failure);
		zval zv;
		ZVAL_OBJ(&zv, (zend_object *) err);
		zend_throw_exception_object(&zv);
		return;
	}
	tasync_error_release(ASYNC_G(rt), err);
	if (EG(exception) != NULL) {
		zend_exception_set_previous(EG(exception), failure);
	} else {
		EG(exception) = failure;
		EG(opline_before_exception) = opline;
	}
}

static ZEND_NAMED_FUNCTION(io_pdo_construct)
{
	if (!async_pdo_pool_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU)) {
		io_pdo_orig_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
	/* A connect that the coroutine's cancellation interrupted. */
	async_io_pdo_deliver_cancellation();
}

void async_io_pdo_startup(void)
{
	async_pdo_pool_startup();
	if (io_pdo_orig_construct == NULL) {
		zend_class_entry *pdo = zend_hash_str_find_ptr(CG(class_table), "pdo", sizeof("pdo") - 1);
		zend_function *ctor = pdo != NULL && pdo->type == ZEND_INTERNAL_CLASS ? pdo->constructor : NULL;
		if (ctor != NULL && ctor->type == ZEND_INTERNAL_FUNCTION) {
			io_pdo_orig_construct = ctor->internal_function.handler;
			ctor->internal_function.handler = io_pdo_construct;
		}
	}
	if (io_pdo_stmt_ce != NULL) {
		return;
	}
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "pdostatement", sizeof("pdostatement") - 1);
	if (ce == NULL || ce->type != ZEND_INTERNAL_CLASS) {
		return;
	}
	for (size_t i = 0; i < IO_PDO_HOOKS; i++) {
		zend_function *fn = zend_hash_str_find_ptr(&ce->function_table, io_pdo_methods[i].name,
			strlen(io_pdo_methods[i].name));
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION) {
			return;
		}
	}
	for (size_t i = 0; i < IO_PDO_HOOKS; i++) {
		zend_function *fn = zend_hash_str_find_ptr(&ce->function_table, io_pdo_methods[i].name,
			strlen(io_pdo_methods[i].name));
		io_pdo_orig[i] = fn->internal_function.handler;
		fn->internal_function.handler = io_pdo_hooks[i];
	}
	if (ce->get_iterator != NULL) {
		io_pdo_orig_get_iterator = ce->get_iterator;
		ce->get_iterator = io_pdo_get_iterator;
	}
	io_pdo_stmt_ce = ce;
}

/* At the end of a request: the records go, with their weak references. */
void async_io_pdo_request_shutdown(void)
{
	async_pdo_pool_request_shutdown();
	if (io_pdo_readers == NULL) {
		return;
	}
	zend_ulong key;
	ZEND_HASH_FOREACH_NUM_KEY(io_pdo_readers, key) {
		zend_weakrefs_hash_del(io_pdo_readers, zend_weakref_key_to_object(key));
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(io_pdo_readers);
	FREE_HASHTABLE(io_pdo_readers);
	io_pdo_readers = NULL;
}
