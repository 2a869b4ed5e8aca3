/*
 * api/await_many.c - Async\await_all(), await_all_or_fail(), await_any_or_fail(),
 * await_first_success(), await_any_of() and await_any_of_or_fail() (rule
 * G2). The combinators are the core's (tasync/await_many.h): this file feeds
 * a PHP iterable into a set, one awaitable at a time as the iterable
 * produces it, and maps the set's entries back onto the input's keys.
 */
#include "api/awaitable.h"
#include "api/exceptions.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"

/* One call: the set, and for each item fed (in feed order) its key and a
 * reference to its object. */
typedef struct many_call {
	tasync_await_many_t *set;
	zval *keys;
	zend_object **objs;
	uint32_t count;
	uint32_t size;
	zend_object *cancel_obj;     /* one reference, or NULL */
	tasync_awaitable_t *cancellation;
} many_call;

static void call_free(many_call *c)
{
	/* Unsubscribes what is still subscribed before the objects go. */
	tasync_await_many_destroy(c->set);
	c->set = NULL;
	for (uint32_t i = 0; i < c->count; i++) {
		zval_ptr_dtor(&c->keys[i]);
		OBJ_RELEASE(c->objs[i]);
	}
	if (c->keys) {
		efree(c->keys);
		efree(c->objs);
	}
	if (c->cancel_obj) {
		OBJ_RELEASE(c->cancel_obj);
	}
}

/* Feeds one item; false with an exception thrown. The key is taken over. */
static bool call_add(many_call *c, zval *key, zval *val, uint32_t arg_num)
{
	ZVAL_DEREF(val);
	tasync_awaitable_t *aw = Z_TYPE_P(val) == IS_OBJECT && instanceof_function(Z_OBJCE_P(val), async_ce_awaitable)
		? async_awaitable_of(Z_OBJ_P(val)) : NULL;
	if (aw == NULL) {
		zend_argument_type_error(arg_num, "must contain only Async\\Awaitable objects, %s given", zend_zval_type_name(val));
		zval_ptr_dtor(key);
		return false;
	}
	int rc = tasync_await_many_add(c->set, aw);
	if (rc != 0) {
		zval_ptr_dtor(key);
		async_throw_error(rc, NULL);
		return false;
	}
	if (c->count == c->size) {
		c->size = c->size ? c->size * 2 : 8;
		c->keys = safe_erealloc(c->keys, c->size, sizeof(zval), 0);
		c->objs = safe_erealloc(c->objs, c->size, sizeof(zend_object *), 0);
	}
	ZVAL_COPY_VALUE(&c->keys[c->count], key);
	c->objs[c->count] = Z_OBJ_P(val);
	GC_ADDREF(Z_OBJ_P(val));
	c->count++;
	return true;
}

/* The iterable failed midway: what it handed over counts as observed
 * (S10), the call answers for it with its own exception; a later failure
 * of those awaitables does not escalate as uncaught. */
static bool call_fed_observed(many_call *c)
{
	for (uint32_t i = 0; i < c->count; i++) {
		tasync_awaitable_observe(async_awaitable_of(c->objs[i]));
	}
	return false;
}

/*
 * Creates the set and feeds it the whole iterable: each awaitable is
 * subscribed to as soon as the iterable produced it. False with an
 * exception thrown (a bad item, or the iterator threw): call_free() then
 * unsubscribes what was fed, which counts as observed.
 */
static bool call_init(many_call *c, uint32_t mode, zend_long count, zval *iterable, uint32_t arg_num,
	zend_object *cancel_obj)
{
	memset(c, 0, sizeof(*c));
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return false;
	}
	if (!async_cancellation_of(cancel_obj, &c->cancellation)) {
		return false;
	}
	if (cancel_obj) {
		GC_ADDREF(cancel_obj);
		c->cancel_obj = cancel_obj;
	}
	tasync_await_many_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.mode = mode;
	opts.count = (uint64_t) count;
	int rc = tasync_await_many_create(rt, &opts, &c->set);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		return false;
	}

	if (Z_TYPE_P(iterable) == IS_ARRAY) {
		zend_string *skey;
		zend_ulong nkey;
		zval *val;
		ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(iterable), nkey, skey, val) {
			zval key;
			if (skey) {
				ZVAL_STR_COPY(&key, skey);
			} else {
				ZVAL_LONG(&key, (zend_long) nkey);
			}
			if (!call_add(c, &key, val, arg_num)) {
				return call_fed_observed(c);
			}
		} ZEND_HASH_FOREACH_END();
		return true;
	}

	zend_object_iterator *iter = Z_OBJCE_P(iterable)->get_iterator(Z_OBJCE_P(iterable), iterable, 0);
	if (iter == NULL || EG(exception)) {
		return false;
	}
	bool ok = true;
	if (iter->funcs->rewind) {
		iter->funcs->rewind(iter);
	}
	/* A generator may suspend between items (it runs in this coroutine):
	 * what it produced so far is subscribed meanwhile. */
	while (!EG(exception) && iter->funcs->valid(iter) == SUCCESS) {
		zval *val = iter->funcs->get_current_data(iter);
		if (val == NULL || EG(exception)) {
			break;
		}
		zval key;
		if (iter->funcs->get_current_key) {
			iter->funcs->get_current_key(iter, &key);
			if (EG(exception)) {
				zval_ptr_dtor(&key);
				break;
			}
		} else {
			ZVAL_LONG(&key, (zend_long) c->count);
		}
		if (!call_add(c, &key, val, arg_num)) {
			ok = false;
			break;
		}
		iter->funcs->move_forward(iter);
	}
	zend_iterator_dtor(iter);
	return ok && !EG(exception) ? true : call_fed_observed(c);
}

/* Seals the set and waits for its outcome. Returns true when the outcome
 * is known (*failure: the deciding error of a failed outcome, a new
 * reference, or NULL); false with an exception thrown (the caller was
 * cancelled, its cancellation fired, C6, or the request is ending). */
static bool call_wait(many_call *c, zend_object **failure)
{
	*failure = NULL;
	void *err = NULL;
	int rc = tasync_await_many_wait(ASYNC_G(rt), c->set, c->cancellation, &err);
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return false;
	}
	if (rc == TASYNC_EFAILED) {
		*failure = (zend_object *) err;
		return true;
	}
	if (rc != 0) {
		async_throw_error(rc, err);
		return false;
	}
	return true;
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

static bool entry_at(many_call *c, size_t i, bool by_completion, tasync_await_many_entry_t *e)
{
	memset(e, 0, sizeof(*e));
	e->size = sizeof(*e);
	return tasync_await_many_entry(c->set, i, by_completion ? 1 : 0, e) == 0;
}

/* The results, keyed like the input: in input order (preserve_order) or
 * completion order; with fill_null, every input key, null where there is
 * no result. */
static void build_results(many_call *c, zval *results, bool preserve_order, bool fill_null)
{
	tasync_await_many_entry_t e;
	bool by_completion = !preserve_order && !fill_null;
	size_t n = by_completion ? tasync_await_many_taken_count(c->set) : tasync_await_many_count(c->set);
	array_init_size(results, (uint32_t) n);
	for (size_t i = 0; i < n; i++) {
		if (!entry_at(c, i, by_completion, &e)) {
			continue;
		}
		zval value;
		if (e.state == TASYNC_AWAIT_ITEM_SUCCEEDED) {
			async_value_unbox(e.value, &value);
		} else if (fill_null) {
			ZVAL_NULL(&value);
		} else {
			continue;
		}
		add_keyed(results, &c->keys[e.index], &value);
	}
}

/* The errors of the items taken, keyed like the input, in completion order. */
static void build_errors(many_call *c, zval *errors)
{
	tasync_await_many_entry_t e;
	size_t n = tasync_await_many_taken_count(c->set);
	array_init(errors);
	for (size_t i = 0; i < n; i++) {
		if (entry_at(c, i, true, &e) && e.state == TASYNC_AWAIT_ITEM_FAILED) {
			zval zv;
			ZVAL_OBJ_COPY(&zv, (zend_object *) e.error);
			add_keyed(errors, &c->keys[e.index], &zv);
		}
	}
}

static void return_pair(zval *return_value, zval *first, zval *second)
{
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, first);
	add_next_index_zval(return_value, second);
}

static void throw_failure(zend_object *failure)
{
	zval zv;
	ZVAL_OBJ(&zv, failure);
	zend_throw_exception_object(&zv);
}

/* [results, errors] for await_all() and await_any_of(). */
static void results_and_errors(INTERNAL_FUNCTION_PARAMETERS, uint32_t mode, zend_long count, zval *iterable,
	uint32_t arg_num, zend_object *cancel_obj, bool preserve_order, bool fill_null)
{
	many_call c;
	zend_object *failure = NULL;
	if (!call_init(&c, mode, count, iterable, arg_num, cancel_obj) || !call_wait(&c, &failure)) {
		call_free(&c);
		RETURN_THROWS();
	}
	if (failure != NULL) {
		OBJ_RELEASE(failure); /* these modes never fail */
	}
	zval results, errors;
	build_results(&c, &results, preserve_order, fill_null);
	build_errors(&c, &errors);
	call_free(&c);
	return_pair(return_value, &results, &errors);
}

/* Results, or the first failure thrown, for the *_or_fail functions. */
static void results_or_fail(INTERNAL_FUNCTION_PARAMETERS, uint32_t mode, zend_long count, zval *iterable,
	uint32_t arg_num, zend_object *cancel_obj, bool preserve_order)
{
	many_call c;
	zend_object *failure = NULL;
	if (!call_init(&c, mode, count, iterable, arg_num, cancel_obj) || !call_wait(&c, &failure)) {
		call_free(&c);
		RETURN_THROWS();
	}
	if (failure != NULL) {
		call_free(&c);
		throw_failure(failure);
		RETURN_THROWS();
	}
	build_results(&c, return_value, preserve_order, false);
	call_free(&c);
}

PHP_FUNCTION(Async_await_all)
{
	zval *iterable;
	zend_object *cancel_obj = NULL;
	bool preserve_order = true, fill_null = false;
	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
		Z_PARAM_BOOL(fill_null)
	ZEND_PARSE_PARAMETERS_END();
	results_and_errors(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_AWAIT_ALL, 0, iterable, 1, cancel_obj,
		preserve_order, fill_null);
}

PHP_FUNCTION(Async_await_all_or_fail)
{
	zval *iterable;
	zend_object *cancel_obj = NULL;
	bool preserve_order = true;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
	ZEND_PARSE_PARAMETERS_END();
	results_or_fail(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_AWAIT_ALL_OR_FAIL, 0, iterable, 1, cancel_obj,
		preserve_order);
}

PHP_FUNCTION(Async_await_any_of)
{
	zend_long count;
	zval *iterable;
	zend_object *cancel_obj = NULL;
	bool preserve_order = true, fill_null = false;
	ZEND_PARSE_PARAMETERS_START(2, 5)
		Z_PARAM_LONG(count)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
		Z_PARAM_BOOL(fill_null)
	ZEND_PARSE_PARAMETERS_END();
	if (count < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	results_and_errors(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_AWAIT_ANY_OF, count, iterable, 2, cancel_obj,
		preserve_order, fill_null);
}

PHP_FUNCTION(Async_await_any_of_or_fail)
{
	zend_long count;
	zval *iterable;
	zend_object *cancel_obj = NULL;
	bool preserve_order = true;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_LONG(count)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
	ZEND_PARSE_PARAMETERS_END();
	if (count < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	results_or_fail(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_AWAIT_ANY_OF_OR_FAIL, count, iterable, 2, cancel_obj,
		preserve_order);
}

/* The first to succeed (first_success) or to complete (any): false with an
 * exception thrown; an empty iterable is a ValueError. */
static bool first_of(many_call *c, uint32_t mode, zval *iterable, zend_object *cancel_obj, zend_object **failure)
{
	if (!call_init(c, mode, 0, iterable, 1, cancel_obj)) {
		return false;
	}
	if (tasync_await_many_count(c->set) == 0) {
		zend_argument_value_error(1, "must contain at least one awaitable");
		return false;
	}
	return call_wait(c, failure);
}

PHP_FUNCTION(Async_await_any_or_fail)
{
	zval *iterable;
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	many_call c;
	zend_object *failure = NULL;
	if (!first_of(&c, TASYNC_AWAIT_ANY_OR_FAIL, iterable, cancel_obj, &failure)) {
		call_free(&c);
		RETURN_THROWS();
	}
	if (failure != NULL) {
		call_free(&c);
		throw_failure(failure);
		RETURN_THROWS();
	}
	tasync_await_many_entry_t e;
	if (entry_at(&c, 0, true, &e) && e.state == TASYNC_AWAIT_ITEM_SUCCEEDED) {
		async_value_unbox(e.value, return_value);
	}
	call_free(&c);
}

PHP_FUNCTION(Async_await_first_success)
{
	zval *iterable;
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	many_call c;
	zend_object *failure = NULL;
	if (!first_of(&c, TASYNC_AWAIT_FIRST_SUCCESS, iterable, cancel_obj, &failure)) {
		call_free(&c);
		RETURN_THROWS();
	}
	if (failure != NULL) {
		OBJ_RELEASE(failure); /* every one failed: the errors say it */
	}
	zval result, errors;
	ZVAL_NULL(&result);
	tasync_await_many_entry_t e;
	size_t n = tasync_await_many_taken_count(c.set);
	for (size_t i = 0; i < n; i++) {
		if (entry_at(&c, i, true, &e) && e.state == TASYNC_AWAIT_ITEM_SUCCEEDED) {
			async_value_unbox(e.value, &result);
			break;
		}
	}
	build_errors(&c, &errors);
	call_free(&c);
	return_pair(return_value, &result, &errors);
}
