/*
 * functions.c - the functions of the Async namespace and the Awaitable /
 * FutureLike interfaces. Every function maps onto one or a few calls of
 * the core's C ABI; the rules they follow (C1-C6, C21) are the core's.
 */
#include "php_async.h"

#include "zend_closures.h"
#include "zend_interfaces.h"
#include "stubs/async_arginfo.h"

zend_class_entry *async_ce_awaitable;
zend_class_entry *async_ce_future_like;

const zend_function_entry *async_functions = ext_functions;

/* --------------------------------------------------------- interfaces */

/* Only the extension's classes can be awaited: the core must know them. */
static int awaitable_implemented(zend_class_entry *iface, zend_class_entry *ce)
{
	if (ce->type != ZEND_INTERNAL_CLASS) {
		zend_error_noreturn(E_ERROR, "Class %s cannot implement interface %s: it is implemented by the extension's classes only",
			ZSTR_VAL(ce->name), ZSTR_VAL(iface->name));
	}
	return SUCCESS;
}

void async_register_interfaces(void)
{
	async_ce_awaitable = register_class_Async_Awaitable();
	async_ce_awaitable->interface_gets_implemented = awaitable_implemented;
	async_ce_future_like = register_class_Async_FutureLike(async_ce_awaitable);
	async_ce_future_like->interface_gets_implemented = awaitable_implemented;
	async_ce_scope_provider = register_class_Async_ScopeProvider();
}

/* ------------------------------------------------------------ helpers */

static void drop_outcome(tasync_runtime_t *rt, void *value, void *err)
{
	tasync_value_release(rt, value);
	if (err != NULL) {
		OBJ_RELEASE((zend_object *) err);
	}
}

/* --------------------------------------------------------- spawn etc. */

PHP_FUNCTION(Async_spawn)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args = NULL;
	uint32_t argc = 0;
	HashTable *named = NULL;

	ZEND_PARSE_PARAMETERS_START(1, -1)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
	ZEND_PARSE_PARAMETERS_END();

	async_spawn_call(return_value, NULL, NULL, NULL, &fci, &fcc, args, argc, named);
}

PHP_FUNCTION(Async_suspend)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	void *err = NULL;
	int rc = tasync_yield(rt, &err);
	if (!async_after_switch()) {
		drop_outcome(rt, NULL, err);
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

PHP_FUNCTION(Async_await)
{
	zend_object *what_obj, *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_OBJ_OF_CLASS(what_obj, async_ce_future_like)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();

	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *what = async_awaitable_of(what_obj);
	tasync_awaitable_t *cancellation = cancel_obj != NULL ? async_awaitable_of(cancel_obj) : NULL;
	if (what == NULL || (cancel_obj != NULL && cancellation == NULL)) {
		zend_throw_exception(async_ce_async_exception, "The awaitable belongs to a runtime that no longer exists", 0);
		RETURN_THROWS();
	}
	/* Keep the objects alive: the caller may drop them while we wait. */
	GC_ADDREF(what_obj);
	if (cancel_obj) {
		GC_ADDREF(cancel_obj);
	}
	void *value = NULL, *err = NULL;
	int rc = tasync_await(rt, what, cancellation, &value, &err);

	OBJ_RELEASE(what_obj);
	if (cancel_obj) {
		OBJ_RELEASE(cancel_obj);
	}
	if (!async_after_switch()) {
		drop_outcome(rt, value, err);
		RETURN_THROWS();
	}
	if (rc == 0) {
		async_value_unbox(value, return_value);
		tasync_value_release(rt, value);
		return;
	}
	tasync_value_release(rt, value);
	async_throw_error(rc, err);
}

PHP_FUNCTION(Async_delay)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	if (ms < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	void *err = NULL;
	int rc = tasync_delay(rt, (uint64_t) ms * 1000000u, NULL, &err);
	if (!async_after_switch()) {
		drop_outcome(rt, NULL, err);
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

PHP_FUNCTION(Async_sleep)
{
	ZEND_FN(Async_delay)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_FUNCTION(Async_timeout)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	object_init_ex(return_value, async_ce_timeout);
	if (!async_timeout_init(async_timeout_from_obj(Z_OBJ_P(return_value)), ms, 1)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		RETURN_THROWS();
	}
}

PHP_FUNCTION(Async_currentCoroutine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_coroutine_t *cur = tasync_coroutine_current(rt);
	if (cur == NULL) {
		zend_throw_exception(async_ce_async_exception, "Not inside a coroutine", 0);
		RETURN_THROWS();
	}
	RETURN_OBJ(async_coroutine_object_for(cur));
}

PHP_FUNCTION(Async_current_coroutine)
{
	ZEND_FN(Async_currentCoroutine)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_FUNCTION(Async_getCoroutines)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return;
	}
	/* Every unfinished coroutine, the main one first (it is a coroutine
	 * too, C3), then in spawn order; zombies included. */
	size_t n = tasync_runtime_coroutines(rt, NULL, 0);
	tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	n = tasync_runtime_coroutines(rt, list, n);
	for (size_t i = 0; i < n; i++) {
		zend_object *obj = async_coroutine_object_for(list[i]);
		if (obj != NULL) {
			add_next_index_object(return_value, obj);
		}
	}
	efree(list);
}

PHP_FUNCTION(Async_get_coroutines)
{
	ZEND_FN(Async_getCoroutines)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ------------------------------------------------- awaiting many at once */

typedef struct wait_item {
	zval key;
	zend_object *obj;            /* one reference */
	tasync_awaitable_t *aw;      /* borrowed from obj */
	bool done;
} wait_item;

typedef struct wait_set {
	wait_item *items;
	uint32_t count;
	zend_object *cancel_obj;     /* one reference, or NULL */
	tasync_awaitable_t *cancellation;
	tasync_awaitable_t **pending; /* scratch for tasync_await_any */
	uint32_t *pending_index;
	uint32_t first_open;          /* no item below it is still to be done */
	bool checked;                 /* tasync_await_any has vetted the items */
} wait_set;

static void wait_set_free(wait_set *set)
{
	for (uint32_t i = 0; i < set->count; i++) {
		zval_ptr_dtor(&set->items[i].key);
		OBJ_RELEASE(set->items[i].obj);
	}
	if (set->items) {
		efree(set->items);
	}
	if (set->pending) {
		efree(set->pending);
		efree(set->pending_index);
	}
	if (set->cancel_obj) {
		OBJ_RELEASE(set->cancel_obj);
	}
}

/* Collects the awaitables of an iterable; false with an exception thrown. */
static bool wait_set_init(wait_set *set, zval *iterable, zend_object *cancel_obj)
{
	memset(set, 0, sizeof(*set));
	uint32_t size = 8;
	set->items = safe_emalloc(size, sizeof(wait_item), 0);
	if (cancel_obj) {
		set->cancellation = async_awaitable_of(cancel_obj);
		GC_ADDREF(cancel_obj);
		set->cancel_obj = cancel_obj;
	}

	zend_object_iterator *iter = NULL;
	HashTable *ht = Z_TYPE_P(iterable) == IS_ARRAY ? Z_ARRVAL_P(iterable) : NULL;
	HashPosition pos = 0;
	if (ht) {
		zend_hash_internal_pointer_reset_ex(ht, &pos);
	} else {
		iter = Z_OBJCE_P(iterable)->get_iterator(Z_OBJCE_P(iterable), iterable, 0);
		if (iter == NULL || EG(exception)) {
			return false;
		}
		if (iter->funcs->rewind) {
			iter->funcs->rewind(iter);
		}
	}
	bool ok = true;
	for (;;) {
		zval *val, key;
		if (ht) {
			val = zend_hash_get_current_data_ex(ht, &pos);
			if (val == NULL) {
				break;
			}
			zend_hash_get_current_key_zval_ex(ht, &key, &pos);
		} else {
			if (EG(exception) || iter->funcs->valid(iter) != SUCCESS) {
				break;
			}
			val = iter->funcs->get_current_data(iter);
			if (val == NULL || EG(exception)) {
				break;
			}
			if (iter->funcs->get_current_key) {
				iter->funcs->get_current_key(iter, &key);
			} else {
				ZVAL_LONG(&key, set->count);
			}
		}
		ZVAL_DEREF(val);
		tasync_awaitable_t *aw = Z_TYPE_P(val) == IS_OBJECT && instanceof_function(Z_OBJCE_P(val), async_ce_awaitable)
			? async_awaitable_of(Z_OBJ_P(val)) : NULL;
		if (aw == NULL) {
			zend_argument_type_error(1, "must contain only Async\\Awaitable objects, %s given", zend_zval_type_name(val));
			zval_ptr_dtor(&key);
			ok = false;
			break;
		}
		if (set->count == size) {
			size *= 2;
			set->items = safe_erealloc(set->items, size, sizeof(wait_item), 0);
		}
		wait_item *it = &set->items[set->count++];
		ZVAL_COPY_VALUE(&it->key, &key);
		it->obj = Z_OBJ_P(val);
		GC_ADDREF(it->obj);
		it->aw = aw;
		it->done = false;
		if (ht) {
			zend_hash_move_forward_ex(ht, &pos);
		} else {
			iter->funcs->move_forward(iter);
		}
	}
	if (iter) {
		zend_iterator_dtor(iter);
	}
	if (ok && set->count > 0) {
		set->pending = safe_emalloc(set->count, sizeof(*set->pending), 0);
		set->pending_index = safe_emalloc(set->count, sizeof(*set->pending_index), 0);
	}
	return ok && !EG(exception);
}

/*
 * Waits until one of the items not done yet completes (tasync_await_any,
 * which also counts as awaiting each of them, so that their errors are
 * handled here: rule S10); returns 0 and its index, or a core error code
 * (with *err) when the caller's cancellation fired, the caller was
 * cancelled, or the caller is one of the items (C6).
 */
static int wait_any(tasync_runtime_t *rt, wait_set *set, uint32_t *index, void **err)
{
	uint32_t n = 0;
	*err = NULL;
	while (set->first_open < set->count && set->items[set->first_open].done) {
		set->first_open++;
	}
	if (set->checked) {
		/* Once the core has vetted the items (C6, wrong runtime), the ones
		 * that completed meanwhile are taken without another await_any:
		 * the lowest index first, as tasync_await_any would answer. This
		 * keeps await_all() of n items O(n) when they complete together
		 * (one wake-up, then a pass over what is done) instead of n
		 * registrations of up to n waiters. */
		for (uint32_t i = set->first_open; i < set->count; i++) {
			if (!set->items[i].done && tasync_awaitable_is_completed(set->items[i].aw)) {
				*index = i;
				return 0;
			}
		}
	}
	for (uint32_t i = set->first_open; i < set->count; i++) {
		if (!set->items[i].done) {
			set->pending[n] = set->items[i].aw;
			set->pending_index[n] = i;
			n++;
		}
	}
	ZEND_ASSERT(n > 0);
	int rc = tasync_await_any(rt, set->pending, n, set->cancellation, err);
	if (rc >= 0) {
		set->checked = true;
		*index = set->pending_index[rc];
		return 0;
	}
	return rc;
}

/* The outcome of a completed item: 0 and a value, or TASYNC_EFAILED and an
 * error (a new reference). */
static int item_outcome(wait_item *it, zval *value, zend_object **error)
{
	void *v = NULL, *e = NULL;
	int rc = tasync_awaitable_outcome(it->aw, &v, &e);
	*error = NULL;
	ZVAL_NULL(value);
	if (e != NULL) {
		/* Handed to the caller: it answers for the error now (S10). */
		tasync_awaitable_observe(it->aw);
		*error = e;
		GC_ADDREF(*error);
		rc = TASYNC_EFAILED;
	} else {
		async_value_unbox(v, value);
		rc = 0;
	}
	it->done = true;
	return rc;
}

static void add_keyed(zval *array, zval *key, zval *value)
{
	if (Z_TYPE_P(key) == IS_LONG) {
		zend_hash_index_update(Z_ARRVAL_P(array), Z_LVAL_P(key), value);
	} else if (Z_TYPE_P(key) == IS_STRING) {
		zend_symtable_update(Z_ARRVAL_P(array), Z_STR_P(key), value);
	} else {
		zend_hash_next_index_insert(Z_ARRVAL_P(array), value);
	}
}

#define AWAIT_MANY_PARSE() \
	zval *iterable; \
	zend_object *cancel_obj = NULL; \
	ZEND_PARSE_PARAMETERS_START(1, 2) \
		Z_PARAM_ITERABLE(iterable) \
		Z_PARAM_OPTIONAL \
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable) \
	ZEND_PARSE_PARAMETERS_END(); \
	tasync_runtime_t *rt = async_runtime(); \
	if (rt == NULL) { \
		RETURN_THROWS(); \
	} \
	wait_set set; \
	if (!wait_set_init(&set, iterable, cancel_obj)) { \
		wait_set_free(&set); \
		RETURN_THROWS(); \
	}

/* After a suspension of an await_* function; false: return at once (an
 * exception is pending). Consumes err. */
static bool resumed_ok(tasync_runtime_t *rt, int rc, void *err)
{
	if (!async_after_switch()) {
		drop_outcome(rt, NULL, err);
		return false;
	}
	if (rc != 0) {
		async_throw_error(rc, err);
		return false;
	}
	return true;
}

/* Frees the per-item outcomes of await_all*(). */
static void free_outcomes(zval *values, zend_object **errors, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		zval_ptr_dtor(&values[i]);
		if (errors[i] != NULL) {
			OBJ_RELEASE(errors[i]);
		}
	}
	efree(values);
	efree(errors);
}

PHP_FUNCTION(Async_await_all)
{
	AWAIT_MANY_PARSE();
	uint32_t n = set.count;
	zval *values = safe_emalloc(n ? n : 1, sizeof(zval), 0);
	zend_object **errors = safe_emalloc(n ? n : 1, sizeof(zend_object *), 0);
	for (uint32_t i = 0; i < n; i++) {
		ZVAL_NULL(&values[i]);
		errors[i] = NULL;
	}
	/* One await_any over what is left, again and again: every item stays
	 * awaited until it completes, so a failure is this caller's to handle
	 * (S10) whenever it happens; the total wait is the longest one. */
	for (uint32_t left = n; left > 0; left--) {
		uint32_t index = 0;
		void *err = NULL;
		int rc = wait_any(rt, &set, &index, &err);
		if (!resumed_ok(rt, rc, err)) {
			free_outcomes(values, errors, n);
			wait_set_free(&set);
			RETURN_THROWS();
		}
		item_outcome(&set.items[index], &values[index], &errors[index]);
	}
	zval results, failures;
	array_init(&results);
	array_init(&failures);
	for (uint32_t i = 0; i < n; i++) {
		if (errors[i] != NULL) {
			zval zv;
			ZVAL_OBJ(&zv, errors[i]);
			errors[i] = NULL;
			add_keyed(&failures, &set.items[i].key, &zv);
		} else {
			add_keyed(&results, &set.items[i].key, &values[i]);
			ZVAL_UNDEF(&values[i]);
		}
	}
	free_outcomes(values, errors, n);
	wait_set_free(&set);
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &results);
	add_next_index_zval(return_value, &failures);
}

PHP_FUNCTION(Async_await_all_or_fail)
{
	AWAIT_MANY_PARSE();
	uint32_t n = set.count;
	zval *values = safe_emalloc(n ? n : 1, sizeof(zval), 0);
	zend_object **errors = safe_emalloc(n ? n : 1, sizeof(zend_object *), 0);
	for (uint32_t i = 0; i < n; i++) {
		ZVAL_NULL(&values[i]);
		errors[i] = NULL;
	}
	for (uint32_t left = n; left > 0; left--) {
		uint32_t index = 0;
		void *err = NULL;
		int rc = wait_any(rt, &set, &index, &err);
		if (!resumed_ok(rt, rc, err)) {
			free_outcomes(values, errors, n);
			wait_set_free(&set);
			RETURN_THROWS();
		}
		if (item_outcome(&set.items[index], &values[index], &errors[index]) != 0) {
			/* The first failure, at once; the others go on (a later failure
			 * of theirs is no longer awaited here, rule S10). */
			zval zv;
			ZVAL_OBJ(&zv, errors[index]);
			errors[index] = NULL;
			zend_throw_exception_object(&zv);
			free_outcomes(values, errors, n);
			wait_set_free(&set);
			RETURN_THROWS();
		}
	}
	array_init_size(return_value, n);
	for (uint32_t i = 0; i < n; i++) {
		add_keyed(return_value, &set.items[i].key, &values[i]);
		ZVAL_UNDEF(&values[i]);
	}
	free_outcomes(values, errors, n);
	wait_set_free(&set);
}

PHP_FUNCTION(Async_await_any_or_fail)
{
	AWAIT_MANY_PARSE();
	if (set.count == 0) {
		wait_set_free(&set);
		zend_argument_value_error(1, "must contain at least one awaitable");
		RETURN_THROWS();
	}
	uint32_t index = 0;
	void *err = NULL;
	int rc = wait_any(rt, &set, &index, &err);
	if (!resumed_ok(rt, rc, err)) {
		wait_set_free(&set);
		RETURN_THROWS();
	}
	zend_object *error = NULL;
	if (item_outcome(&set.items[index], return_value, &error) != 0) {
		zval zv;
		ZVAL_OBJ(&zv, error);
		zend_throw_exception_object(&zv);
	}
	wait_set_free(&set);
}

PHP_FUNCTION(Async_await_first_success)
{
	AWAIT_MANY_PARSE();
	if (set.count == 0) {
		wait_set_free(&set);
		zend_argument_value_error(1, "must contain at least one awaitable");
		RETURN_THROWS();
	}
	zval errors, result;
	array_init(&errors);
	ZVAL_NULL(&result);
	for (uint32_t left = set.count; left > 0; left--) {
		uint32_t index = 0;
		void *err = NULL;
		int rc = wait_any(rt, &set, &index, &err);
		if (!resumed_ok(rt, rc, err)) {
			zval_ptr_dtor(&errors);
			wait_set_free(&set);
			RETURN_THROWS();
		}
		zend_object *error = NULL;
		zval value;
		if (item_outcome(&set.items[index], &value, &error) == 0) {
			ZVAL_COPY_VALUE(&result, &value);
			break;
		}
		zval zv;
		ZVAL_OBJ(&zv, error);
		add_keyed(&errors, &set.items[index].key, &zv);
	}
	wait_set_free(&set);
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &result);
	add_next_index_zval(return_value, &errors);
}

/* ------------------------------------------------------------ protect */

PHP_FUNCTION(Async_protect)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_object *closure;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(closure, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	zval callable;
	ZVAL_OBJ(&callable, closure);
	if (zend_fcall_info_init(&callable, 0, &fci, &fcc, NULL, NULL) != SUCCESS) {
		RETURN_THROWS();
	}
	int rc = tasync_protect_begin(rt);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	/* Rule C20: cancellation is held back while the closure runs. */
	fci.retval = return_value;
	zend_call_function(&fci, &fcc);
	void *err = NULL;
	rc = tasync_protect_end(rt, &err);
	async_safe_point();
	if (rc != -ECANCELED) {
		return;
	}
	/* A cancellation arrived meanwhile: delivered now. If the closure threw,
	 * its exception goes on and carries the cancellation as its innermost
	 * previous exception (chosen: the closure's outcome is not hidden, and
	 * the cancellation is not lost; the coroutine ends cancelled anyway,
	 * rule C8, unless that exception ends it first). */
	if (EG(exception)) {
		if (err != NULL) {
			zend_exception_set_previous(EG(exception), (zend_object *) err);
		}
		return;
	}
	zval_ptr_dtor(return_value);
	ZVAL_UNDEF(return_value);
	async_throw_error(rc, err);
}

/* -------------------------------------------------- graceful shutdown */

PHP_FUNCTION(Async_gracefulShutdown)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_runtime_shutdown(rt, error);
	async_safe_point();
}

PHP_FUNCTION(Async_graceful_shutdown)
{
	ZEND_FN(Async_gracefulShutdown)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}
