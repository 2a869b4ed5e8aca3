/*
 * api/group.c - Async\TaskGroup over the core's task groups (group.h; rule
 * G1): a scope with results, an optional concurrency limit with a bounded
 * queue, keyed tasks, all()/race()/any() as Async\Future objects,
 * iteration in completion order, close(), awaitCompletion() and finally
 * handlers.
 *
 * The TaskGroup object owns its group and lets go of it when it is
 * destroyed (tasync_group_let_go): silently, tasks not started never start,
 * running ones finish as zombies; errors nobody handled go to the group's
 * scope (S10).
 */
#include "api/group.h"

#include "api/awaitable.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/future.h"
#include "api/item_iterator.h"
#include "api/scope.h"
#include "api/scope_holds.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_closures.h"
#include "zend_interfaces.h"
#include "stubs/group_arginfo.h"

zend_class_entry *async_ce_task_group;
static zend_object_handlers group_handlers;

static zend_object *group_create(zend_class_entry *ce)
{
	async_group *g = zend_object_alloc(sizeof(async_group), ce);
	g->group = NULL;
	zend_object_std_init(&g->std, ce);
	object_properties_init(&g->std, ce);
	g->std.handlers = &group_handlers;
	return &g->std;
}

static void group_dtor(zend_object *obj)
{
	async_group *g = async_group_from_obj(obj);
	if (g->group == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	/* Exception handlers may run (errors nobody handled): keep an
	 * exception that is unwinding aside. */
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	tasync_group_let_go(g->group);
	async_safe_point();
	async_exception_restore(&aside);
	async_rethrow_bailout();
}

static void group_free(zend_object *obj)
{
	async_group *g = async_group_from_obj(obj);
	if (g->group != NULL) {
		if (ASYNC_G(rt) != NULL) {
			async_scope_unhold(tasync_group_scope(g->group));
		}
		tasync_group_release(g->group);
		g->group = NULL;
		async_flush_releases();
	}
	zend_object_std_dtor(obj);
}

/* Adds entry e's key => value to array. */
static void add_entry(zval *array, const tasync_group_entry_t *e, zval *value)
{
	if (e->key.is_string) {
		zend_symtable_str_update(Z_ARRVAL_P(array), e->key.str, e->key.len, value);
	} else {
		zend_hash_index_update(Z_ARRVAL_P(array), (zend_ulong) e->key.num, value);
	}
}

/* key => result (errors false) or key => error (errors true) of the tasks
 * done so far, in spawn order. */
static void collect(tasync_group_t *group, zval *out, bool errors)
{
	size_t n = tasync_group_count(group);
	array_init(out);
	for (size_t i = 0; i < n; i++) {
		tasync_group_entry_t e;
		memset(&e, 0, sizeof(e));
		e.size = sizeof(e);
		if (tasync_group_entry(group, i, 0, &e) != 0 || e.state != TASYNC_GROUP_TASK_DONE ||
			(e.error != NULL) != errors) {
			continue;
		}
		zval zv;
		if (errors) {
			ZVAL_OBJ_COPY(&zv, (zend_object *) e.error);
		} else {
			async_value_unbox(e.value, &zv);
		}
		add_entry(out, &e, &zv);
	}
}

/* The results of all(): key => value in spawn order of the tasks that
 * succeeded (called by the core when all() completes with its results;
 * builds a PHP array, runs no PHP code). */
static void *build_results(void *data, tasync_group_t *group)
{
	(void) data;
	zval results;
	collect(group, &results, false);
	void *box = async_value_box(&results);
	zval_ptr_dtor(&results);
	return box;
}

#define THIS_GROUP() async_group_from_obj(Z_OBJ_P(ZEND_THIS))

/* The group of $this, or NULL with an exception thrown. */
static tasync_group_t *this_group(zval *this_zv)
{
	async_group *g = async_group_from_obj(Z_OBJ_P(this_zv));
	if (g->group == NULL || ASYNC_G(rt) == NULL || tasync_scope_runtime(tasync_group_scope(g->group)) != ASYNC_G(rt)) {
		zend_throw_exception(async_ce_async_exception, "The task group belongs to a runtime that no longer exists", 0);
		return NULL;
	}
	return g->group;
}

tasync_group_t *async_group_new(INTERNAL_FUNCTION_PARAMETERS, void *(*build)(void *data, tasync_group_t *group))
{
	zend_long concurrency = 0, queue_limit = 0;
	bool concurrency_null = true, queue_limit_null = true;
	zend_object *scope_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 3)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(concurrency, concurrency_null)
		Z_PARAM_LONG_OR_NULL(queue_limit, queue_limit_null)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(scope_obj, async_ce_scope)
	ZEND_PARSE_PARAMETERS_END_EX(return NULL);
	if (!concurrency_null && (concurrency < 1 || concurrency > UINT32_MAX)) {
		zend_argument_value_error(1, "must be null or between 1 and %u", (unsigned) UINT32_MAX);
		return NULL;
	}
	if (!queue_limit_null && (queue_limit < 0 || queue_limit > UINT32_MAX)) {
		zend_argument_value_error(2, "must be null or between 0 and %u", (unsigned) UINT32_MAX);
		return NULL;
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return NULL;
	}
	tasync_scope_t *parent = NULL;
	if (scope_obj != NULL) {
		parent = async_scope_from_obj(scope_obj)->scope;
		if (parent == NULL || tasync_scope_runtime(parent) != rt) {
			zend_throw_exception(async_ce_async_exception, "The scope belongs to a runtime that no longer exists", 0);
			return NULL;
		}
	}
	tasync_group_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.concurrency = concurrency_null ? 0 : (uint32_t) concurrency;
	/* Back-pressure by default: twice the concurrency may wait. */
	if (!concurrency_null) {
		opts.queue_limit = !queue_limit_null ? (uint32_t) queue_limit
			: (concurrency > UINT32_MAX / 2 ? UINT32_MAX : (uint32_t) concurrency * 2);
	}
	opts.parent = parent;
	opts.build_results = build;
	void *err = NULL;
	tasync_group_t *group = NULL;
	int rc = tasync_group_create(rt, &opts, &group, &err);
	if (rc != 0) {
		async_throw_error(rc, err);
		return NULL;
	}
	async_scope_hold(tasync_group_scope(group));
	return group;
}

ZEND_METHOD(Async_TaskGroup, __construct)
{
	async_group *g = THIS_GROUP();
	if (g->group != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	g->group = async_group_new(INTERNAL_FUNCTION_PARAM_PASSTHRU, build_results);
}

void async_group_spawn_call(INTERNAL_FUNCTION_PARAMETERS, tasync_group_t *group, bool with_key)
{
	zend_string *key_str = NULL;
	zend_long key_num = 0;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args = NULL;
	uint32_t argc = 0;
	HashTable *named = NULL;
	if (with_key) {
		ZEND_PARSE_PARAMETERS_START(2, -1)
			Z_PARAM_STR_OR_LONG(key_str, key_num)
			Z_PARAM_FUNC(fci, fcc)
			Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
		ZEND_PARSE_PARAMETERS_END();
	} else {
		ZEND_PARSE_PARAMETERS_START(1, -1)
			Z_PARAM_FUNC(fci, fcc)
			Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
		ZEND_PARSE_PARAMETERS_END();
	}
	if (group == NULL) {
		zend_throw_exception(async_ce_async_exception, "The task group belongs to a runtime that no longer exists", 0);
		RETURN_THROWS();
	}
	tasync_group_key_t key;
	memset(&key, 0, sizeof(key));
	if (key_str != NULL) {
		key.is_string = 1;
		key.str = ZSTR_VAL(key_str);
		key.len = ZSTR_LEN(key_str);
	} else {
		key.num = key_num;
	}
	async_spawn_call(return_value, NULL, group, with_key ? &key : NULL, &fci, &fcc, args, argc, named);
}

/* The group of $this for spawn(): NULL when it is gone (the spawn call
 * throws). */
static tasync_group_t *spawn_group(zval *this_zv)
{
	async_group *g = async_group_from_obj(Z_OBJ_P(this_zv));
	if (g->group == NULL || ASYNC_G(rt) == NULL || tasync_scope_runtime(tasync_group_scope(g->group)) != ASYNC_G(rt)) {
		return NULL;
	}
	return g->group;
}

ZEND_METHOD(Async_TaskGroup, spawn)
{
	async_group_spawn_call(INTERNAL_FUNCTION_PARAM_PASSTHRU, spawn_group(ZEND_THIS), false);
}

ZEND_METHOD(Async_TaskGroup, spawnWithKey)
{
	async_group_spawn_call(INTERNAL_FUNCTION_PARAM_PASSTHRU, spawn_group(ZEND_THIS), true);
}

/* A Future over one of the group's awaitables (made by make). */
static void return_future(INTERNAL_FUNCTION_PARAMETERS, int (*make)(tasync_group_t *, tasync_awaitable_t **))
{
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *aw = NULL;
	int rc = make(group, &aw);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	RETURN_OBJ(async_future_create(aw, ASYNC_FUTURE_GROUP, Z_OBJ_P(ZEND_THIS)));
}

ZEND_METHOD(Async_TaskGroup, all)
{
	bool ignore_errors = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(ignore_errors)
	ZEND_PARSE_PARAMETERS_END();
	return_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, ignore_errors ? tasync_group_all_ignoring_errors : tasync_group_all);
}

ZEND_METHOD(Async_TaskGroup, race)
{
	ZEND_PARSE_PARAMETERS_NONE();
	return_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, tasync_group_race);
}

ZEND_METHOD(Async_TaskGroup, any)
{
	ZEND_PARSE_PARAMETERS_NONE();
	return_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, tasync_group_any);
}

ZEND_METHOD(Async_TaskGroup, getResults)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	collect(group, return_value, false);
}

ZEND_METHOD(Async_TaskGroup, getErrors)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	collect(group, return_value, true);
	tasync_group_suppress_errors(group);
}

ZEND_METHOD(Async_TaskGroup, suppressErrors)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_group_suppress_errors(group);
}

ZEND_METHOD(Async_TaskGroup, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_group_close(group);
	async_safe_point();
}

ZEND_METHOD(Async_TaskGroup, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_group *g = THIS_GROUP();
	RETURN_BOOL(g->group == NULL || (tasync_group_flags(g->group) & TASYNC_GROUP_CLOSED));
}

ZEND_METHOD(Async_TaskGroup, isFinished)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_group *g = THIS_GROUP();
	RETURN_BOOL(g->group == NULL || (tasync_group_flags(g->group) & TASYNC_GROUP_FINISHED));
}

ZEND_METHOD(Async_TaskGroup, awaitCompletion)
{
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *cancellation;
	if (!async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	/* The caller may drop the group and the cancellation while it waits. */
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	if (cancel_obj != NULL) {
		GC_ADDREF(cancel_obj);
	}
	void *err = NULL;
	int rc = tasync_group_await_completion(ASYNC_G(rt), group, cancellation, &err);
	OBJ_RELEASE(self);
	if (cancel_obj != NULL) {
		OBJ_RELEASE(cancel_obj);
	}
	async_switch_done(rc, err);
}

void async_group_finally(INTERNAL_FUNCTION_PARAMETERS, tasync_group_t *group)
{
	zend_object *closure;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(closure, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();
	if (group == NULL) {
		zend_throw_exception(async_ce_async_exception, "The task group belongs to a runtime that no longer exists", 0);
		RETURN_THROWS();
	}
	zval callable;
	ZVAL_OBJ(&callable, closure);
	if ((tasync_group_flags(group) & TASYNC_GROUP_COMPLETED)
			&& (tasync_scope_flags(tasync_group_scope(group)) & TASYNC_SCOPE_FINISHED)) {
		/* Closed and everything in it finished already: the callback runs
		 * (in a coroutine of its own, C11) before finally() returns, and
		 * its exception is finally()'s. */
		zend_fcall_info fci;
		zend_fcall_info_cache fcc;
		if (zend_fcall_info_init(&callable, 0, &fci, &fcc, NULL, NULL) != SUCCESS) {
			RETURN_THROWS();
		}
		tasync_runtime_t *rt = ASYNC_G(rt);
		zval co_zv;
		ZVAL_UNDEF(&co_zv);
		async_spawn_call(&co_zv, tasync_scope_global(rt), NULL, NULL, &fci, &fcc, ZEND_THIS, 1, NULL);
		if (Z_TYPE(co_zv) != IS_OBJECT) {
			RETURN_THROWS();
		}
		tasync_coroutine_t *co = async_coroutine_obj_from(Z_OBJ(co_zv))->co;
		void *value = NULL, *err = NULL;
		int rc = tasync_await(rt, tasync_coroutine_awaitable(co), NULL, &value, &err);
		tasync_value_release(rt, value);
		zval_ptr_dtor(&co_zv);
		if (!async_after_switch()) {
			tasync_error_release(rt, err);
			RETURN_THROWS();
		}
		if (rc != 0) {
			async_throw_error(rc, err);
		}
		return;
	}
	/* Otherwise once the group and its scope have completed (C11: before
	 * awaitCompletion() returns). The callback holds the group until then. */
	tasync_spawn_options_t opts;
	async_finally_options(&opts, &callable, Z_OBJ_P(ZEND_THIS), NULL);
	int rc = tasync_group_on_finally(group, &opts);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_TaskGroup, finally)
{
	async_group_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU, spawn_group(ZEND_THIS));
}

ZEND_METHOD(Async_TaskGroup, onFinally)
{
	async_group_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU, spawn_group(ZEND_THIS));
}

ZEND_METHOD(Async_TaskGroup, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

ZEND_METHOD(Async_TaskGroup, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_group_close(group);
	tasync_scope_cancel(tasync_group_scope(group), error);
	async_safe_point();
	async_rethrow_bailout();
}

ZEND_METHOD(Async_TaskGroup, dispose)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_group_close(group);
	void *err = NULL;
	int rc = tasync_scope_dispose(tasync_group_scope(group), TASYNC_DISPOSE_CANCEL, 0, &err);
	async_core_call_done(rc, err);
}

static void group_scope_object(INTERNAL_FUNCTION_PARAMETERS)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(async_scope_object_for(tasync_group_scope(group)));
}

ZEND_METHOD(Async_TaskGroup, getScope)
{
	group_scope_object(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_TaskGroup, provideScope)
{
	group_scope_object(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_TaskGroup, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_group *g = THIS_GROUP();
	RETURN_LONG(g->group != NULL ? (zend_long) tasync_group_count(g->group) : 0);
}

/* ------------------------------------------------------------ iterator */

/* foreach ($group as $key => [$result, $error]): in completion order,
 * waiting (tasync_group_wait_next) for each next task. */
static zend_result group_fetch(async_item_iterator *ii)
{
	tasync_group_t *group = this_group(&ii->it.data);
	if (group == NULL) {
		return FAILURE;
	}
	void *err = NULL;
	int rc = tasync_group_wait_next(ASYNC_G(rt), group, (size_t) ii->position, NULL, &err);
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return FAILURE;
	}
	if (rc < 0) {
		async_throw_error(rc, err);
		return FAILURE;
	}
	if (rc == 0) {
		return FAILURE; /* no task left */
	}
	tasync_group_entry_t e;
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	if (tasync_group_entry(group, (size_t) ii->position, 1, &e) != 0) {
		return FAILURE;
	}
	zval value, error;
	async_value_unbox(e.error == NULL ? e.value : NULL, &value);
	if (e.error != NULL) {
		ZVAL_OBJ_COPY(&error, (zend_object *) e.error);
	} else {
		ZVAL_NULL(&error);
	}
	array_init_size(&ii->current, 2);
	add_next_index_zval(&ii->current, &value);
	add_next_index_zval(&ii->current, &error);
	if (e.key.is_string) {
		ZVAL_STRINGL(&ii->key, e.key.str, e.key.len);
	} else {
		ZVAL_LONG(&ii->key, (zend_long) e.key.num);
	}
	return SUCCESS;
}

/* The position is the completion index being looked at. */
static const async_item_iterator_kind group_items = {
	.fetch = group_fetch,
	.by_ref_message = "An iterator cannot be used with foreach by reference",
	.position_key = false,
	.rewinds = true,
};

static zend_object_iterator *group_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	(void) ce;
	return async_item_iterator_create(&group_items, object, by_ref);
}

void async_register_group_class(void)
{
	async_ce_task_group = register_class_Async_TaskGroup(zend_ce_aggregate, zend_ce_countable, async_ce_scope_provider);
	async_ce_task_group->create_object = group_create;
	async_ce_task_group->get_iterator = group_get_iterator;
	memcpy(&group_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	group_handlers.offset = XtOffsetOf(async_group, std);
	group_handlers.dtor_obj = group_dtor;
	group_handlers.free_obj = group_free;
	group_handlers.clone_obj = NULL;
}
