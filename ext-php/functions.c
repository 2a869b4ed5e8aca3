/*
 * functions.c - the functions of the Async namespace and the Awaitable /
 * FutureLike interfaces. Every function maps onto one or a few calls of
 * the core's C ABI; the rules they follow (C1-C6, C21) are the core's.
 */
#include "php_async.h"

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
}

/* ------------------------------------------------------------ helpers */

static async_wait_info *current_wait(tasync_runtime_t *rt)
{
	tasync_coroutine_t *cur = tasync_coroutine_current(rt);
	void *hd = cur ? tasync_coroutine_host_data(cur) : NULL;
	if (hd == NULL || hd == &ASYNC_G(main_vm)) {
		return &ASYNC_G(main_wait);
	}
	return &((async_coroutine *) ((char *) hd - XtOffsetOf(async_coroutine, vm)))->wait;
}

static bool current_is_main(tasync_runtime_t *rt)
{
	return tasync_coroutine_current(rt) == ASYNC_G(main_co);
}

/*
 * Throws what a suspension ended with. A deadlock (rule C14) cancels every
 * waiting coroutine; the main flow gets the DeadlockError itself, the
 * others their cancellation.
 */
static void throw_wait_error(tasync_runtime_t *rt, int rc, void *err)
{
	if (rc == -ECANCELED && ASYNC_G(deadlock_message) != NULL && !ASYNC_G(reported) && current_is_main(rt)) {
		ASYNC_G(reported) = true;
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		zend_throw_exception(async_ce_deadlock_error, ZSTR_VAL(ASYNC_G(deadlock_message)), 0);
		return;
	}
	async_throw_error(rc, err);
}

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

	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}

	object_init_ex(return_value, async_ce_coroutine);
	async_coroutine *c = async_coroutine_from_obj(Z_OBJ_P(return_value));
	c->fci = fci;
	c->fcc = fcc;
	Z_TRY_ADDREF(c->fci.function_name);
	c->fci.params = NULL;
	c->fci.param_count = 0;
	c->fci.named_params = NULL;
	if (argc > 0) {
		c->fci.params = safe_emalloc(argc, sizeof(zval), 0);
		for (uint32_t i = 0; i < argc; i++) {
			ZVAL_COPY(&c->fci.params[i], &args[i]);
		}
		c->fci.param_count = argc;
	}
	if (named != NULL && zend_hash_num_elements(named) > 0) {
		ZVAL_ARR(&c->named, zend_array_dup(named));
		c->fci.named_params = Z_ARRVAL(c->named);
	}

	tasync_spawn_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.entry = async_coroutine_entry;
	opts.arg = c;
	opts.arg_release = async_coroutine_arg_release;
	opts.host_data = &c->vm;

	void *err = NULL;
	GC_ADDREF(&c->std); /* the core's reference, dropped in arg_release */
	int rc = tasync_spawn(rt, &opts, &c->co, &err);
	if (rc != 0) {
		GC_DELREF(&c->std);
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	zend_hash_index_add_new_ptr(&ASYNC_G(coroutines), (zend_ulong) tasync_coroutine_id(c->co), c);
}

PHP_FUNCTION(Async_suspend)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	async_wait_info *w = current_wait(rt);
	void *err = NULL;
	w->kind = ASYNC_WAIT_SUSPEND;
	int rc = tasync_yield(rt, &err);
	current_wait(rt)->kind = ASYNC_WAIT_NONE;
	if (!async_after_switch()) {
		drop_outcome(rt, NULL, err);
		RETURN_THROWS();
	}
	if (rc != 0) {
		throw_wait_error(rt, rc, err);
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
	async_coroutine *target = instanceof_function(what_obj->ce, async_ce_coroutine) ? async_coroutine_from_obj(what_obj) : NULL;

	/* Keep the objects alive: the caller may drop them while we wait. */
	GC_ADDREF(what_obj);
	if (cancel_obj) {
		GC_ADDREF(cancel_obj);
	}
	if (target) {
		target->awaiters++;
	}
	async_wait_info *w = current_wait(rt);
	w->kind = ASYNC_WAIT_AWAIT;
	w->target = target != NULL && target->co != NULL ? tasync_coroutine_id(target->co) : 0;

	void *value = NULL, *err = NULL;
	int rc = tasync_await(rt, what, cancellation, &value, &err);

	current_wait(rt)->kind = ASYNC_WAIT_NONE;
	if (target) {
		target->awaiters--;
	}
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
	throw_wait_error(rt, rc, err);
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
	async_wait_info *w = current_wait(rt);
	w->kind = ASYNC_WAIT_DELAY;
	w->target = (uint64_t) ms;
	void *err = NULL;
	int rc = tasync_delay(rt, (uint64_t) ms * 1000000u, NULL, &err);
	current_wait(rt)->kind = ASYNC_WAIT_NONE;
	if (!async_after_switch()) {
		drop_outcome(rt, NULL, err);
		RETURN_THROWS();
	}
	if (rc != 0) {
		throw_wait_error(rt, rc, err);
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
	zend_object *obj = async_coroutine_object_for(tasync_coroutine_current(rt));
	if (obj == NULL) {
		zend_throw_exception(async_ce_async_exception, "Not inside a PHP coroutine", 0);
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(obj);
}

PHP_FUNCTION(Async_current_coroutine)
{
	ZEND_FN(Async_currentCoroutine)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_FUNCTION(Async_getCoroutines)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	if (ASYNC_G(rt) == NULL) {
		return;
	}
	async_coroutine *c;
	ZEND_HASH_FOREACH_PTR(&ASYNC_G(coroutines), c) {
		GC_ADDREF(&c->std);
		add_next_index_object(return_value, &c->std);
	} ZEND_HASH_FOREACH_END();
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
} wait_set;

static void wait_set_free(wait_set *set)
{
	for (uint32_t i = 0; i < set->count; i++) {
		wait_item *it = &set->items[i];
		if (instanceof_function(it->obj->ce, async_ce_coroutine)) {
			async_coroutine_from_obj(it->obj)->awaiters--;
		}
		zval_ptr_dtor(&it->key);
		OBJ_RELEASE(it->obj);
	}
	if (set->items) {
		efree(set->items);
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
		if (instanceof_function(it->obj->ce, async_ce_coroutine)) {
			/* Its failure is handled here, not reported as uncaught. */
			async_coroutine_from_obj(it->obj)->awaiters++;
		}
		if (ht) {
			zend_hash_move_forward_ex(ht, &pos);
		} else {
			iter->funcs->move_forward(iter);
		}
	}
	if (iter) {
		zend_iterator_dtor(iter);
	}
	return ok && !EG(exception);
}

/* Shared by the helper coroutines of one wait_any call. */
typedef struct any_state {
	uint32_t refs;
	tasync_awaitable_t *future;  /* completed by the first helper that sees its item done */
	uint32_t winner;
} any_state;

typedef struct any_helper {
	any_state *state;
	tasync_awaitable_t *aw;      /* one reference */
	uint32_t index;
} any_helper;

static void any_state_release(any_state *st)
{
	if (--st->refs == 0) {
		tasync_awaitable_release(st->future);
		efree(st);
	}
}

/* A native coroutine (no PHP state): waits for one item. */
static void any_helper_entry(tasync_coroutine_t *self, void *arg)
{
	any_helper *h = arg;
	(void) self;
	if (tasync_await(NULL, h->aw, NULL, NULL, NULL) != -ECANCELED
			&& !tasync_awaitable_is_completed(h->state->future)) {
		h->state->winner = h->index;
		tasync_future_resolve(h->state->future, NULL);
	}
}

static void any_helper_release(void *arg)
{
	any_helper *h = arg;
	tasync_awaitable_release(h->aw);
	any_state_release(h->state);
	efree(h);
}

/*
 * Waits until one of the items not done yet completes; returns 0 and its
 * index, or a core error code (with *err) when the caller's cancellation
 * or the caller itself was cancelled. The core has no "await any" (see the
 * report): one helper coroutine per pending item waits and completes a
 * shared future.
 */
static int wait_any(tasync_runtime_t *rt, wait_set *set, uint32_t *index, void **err)
{
	*err = NULL;
	tasync_awaitable_t *self_aw = tasync_coroutine_awaitable(tasync_coroutine_current(rt));
	for (uint32_t i = 0; i < set->count; i++) {
		if (set->items[i].done) {
			continue;
		}
		if (set->items[i].aw == self_aw) {
			*err = async_error_create(TASYNC_ERROR_ASYNC, TASYNC_ESELF_AWAIT, "A coroutine cannot await itself");
			return TASYNC_ESELF_AWAIT;
		}
		if (tasync_awaitable_is_completed(set->items[i].aw)) {
			*index = i;
			return 0;
		}
	}
	/* A cancellation that already fired: the await below fails at once. */
	bool cancelled = set->cancellation != NULL && tasync_awaitable_is_completed(set->cancellation);

	any_state *st = emalloc(sizeof(*st));
	st->refs = 1;
	st->winner = 0;
	int rc = tasync_future_create(rt, &st->future);
	if (rc != 0) {
		efree(st);
		return rc;
	}
	uint32_t pending = 0;
	tasync_coroutine_t **helpers = safe_emalloc(set->count, sizeof(*helpers), 0);
	for (uint32_t i = 0; i < set->count && !cancelled; i++) {
		if (set->items[i].done) {
			continue;
		}
		any_helper *h = emalloc(sizeof(*h));
		h->state = st;
		st->refs++;
		h->aw = set->items[i].aw;
		tasync_awaitable_retain(h->aw);
		h->index = i;
		tasync_spawn_options_t o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.entry = any_helper_entry;
		o.arg = h;
		o.arg_release = any_helper_release;
		tasync_coroutine_t *co = NULL;
		if (tasync_spawn(rt, &o, &co, NULL) != 0) {
			any_helper_release(h);
			continue;
		}
		helpers[pending++] = co;
	}

	async_wait_info *w = current_wait(rt);
	w->kind = ASYNC_WAIT_AWAIT_MANY;
	w->target = pending;
	rc = tasync_await(rt, st->future, set->cancellation, NULL, err);
	current_wait(rt)->kind = ASYNC_WAIT_NONE;
	if (rc == 0) {
		*index = st->winner;
	}

	/* The helpers still waiting are not needed any more. */
	zend_object *stop = NULL;
	for (uint32_t i = 0; i < pending; i++) {
		if (!(tasync_coroutine_flags(helpers[i]) & TASYNC_CO_COMPLETED)) {
			if (stop == NULL) {
				stop = async_error_create(TASYNC_ERROR_CANCELLATION, -ECANCELED, "The wait ended");
			}
			tasync_coroutine_cancel(helpers[i], stop);
		}
		tasync_coroutine_release(helpers[i]);
	}
	if (stop) {
		OBJ_RELEASE(stop);
	}
	efree(helpers);
	any_state_release(st);
	return rc;
}

/* The outcome of a completed item: 0 and a value, or TASYNC_EFAILED and an error. */
static int item_outcome(tasync_runtime_t *rt, wait_item *it, zval *value, zend_object **error)
{
	void *v = NULL, *e = NULL;
	int rc = tasync_await(rt, it->aw, NULL, &v, &e);
	*error = NULL;
	ZVAL_NULL(value);
	if (rc == 0) {
		async_value_unbox(v, value);
	} else {
		*error = e;
		e = NULL;
	}
	tasync_value_release(rt, v);
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
		throw_wait_error(rt, rc, err);
		return false;
	}
	return true;
}

PHP_FUNCTION(Async_await_all)
{
	AWAIT_MANY_PARSE();
	zval results, errors;
	array_init(&results);
	array_init(&errors);
	/* One after the other: the total wait is the longest one. */
	for (uint32_t i = 0; i < set.count; i++) {
		wait_item *it = &set.items[i];
		void *value = NULL, *err = NULL;
		async_wait_info *w = current_wait(rt);
		w->kind = ASYNC_WAIT_AWAIT_MANY;
		w->target = set.count - i;
		int rc = tasync_await(rt, it->aw, set.cancellation, &value, &err);
		current_wait(rt)->kind = ASYNC_WAIT_NONE;
		if (rc == 0 || rc == TASYNC_EFAILED) {
			zval zv;
			if (rc == 0) {
				async_value_unbox(value, &zv);
				add_keyed(&results, &it->key, &zv);
			} else {
				ZVAL_OBJ(&zv, (zend_object *) err);
				add_keyed(&errors, &it->key, &zv);
				err = NULL;
			}
			rc = 0;
		}
		tasync_value_release(rt, value);
		if (!resumed_ok(rt, rc, err)) {
			zval_ptr_dtor(&results);
			zval_ptr_dtor(&errors);
			wait_set_free(&set);
			RETURN_THROWS();
		}
	}
	wait_set_free(&set);
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &results);
	add_next_index_zval(return_value, &errors);
}

PHP_FUNCTION(Async_await_all_or_fail)
{
	AWAIT_MANY_PARSE();
	uint32_t n = set.count;
	zval *values = n ? safe_emalloc(n, sizeof(zval), 0) : NULL;
	bool ok = true;
	for (uint32_t i = 0; i < n; i++) {
		ZVAL_UNDEF(&values[i]);
	}
	for (uint32_t left = n; left > 0 && ok; left--) {
		uint32_t index = 0;
		void *err = NULL;
		int rc = wait_any(rt, &set, &index, &err);
		if (!resumed_ok(rt, rc, err)) {
			ok = false;
			break;
		}
		zend_object *error = NULL;
		if (item_outcome(rt, &set.items[index], &values[index], &error) != 0) {
			zval zv;
			ZVAL_OBJ(&zv, error);
			zend_throw_exception_object(&zv);
			ok = false;
		}
	}
	if (ok) {
		array_init_size(return_value, n);
		for (uint32_t i = 0; i < n; i++) {
			add_keyed(return_value, &set.items[i].key, &values[i]);
		}
	} else {
		for (uint32_t i = 0; i < n; i++) {
			zval_ptr_dtor(&values[i]);
		}
	}
	if (values) {
		efree(values);
	}
	wait_set_free(&set);
	if (!ok) {
		RETURN_THROWS();
	}
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
	if (item_outcome(rt, &set.items[index], return_value, &error) != 0) {
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
		if (item_outcome(rt, &set.items[index], &value, &error) == 0) {
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
