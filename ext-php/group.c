/*
 * group.c - Async\TaskGroup over the core's task groups (group.h; rule
 * G1): a scope with results, an optional concurrency limit, keyed tasks,
 * all()/race()/any() as Async\Future objects, and iteration in completion
 * order.
 *
 * The TaskGroup object owns its group and, like a Scope object, lets go of
 * the group's scope when it is destroyed (rule S8: tasks still running go
 * on as zombies, with a warning; dispose() first to cancel them).
 */
#include "php_async.h"

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
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	async_scope_dispose_on_release(tasync_group_scope(g->group));
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

/* The results of all(): key => value in spawn order (called by the core
 * when every task succeeded; builds a PHP array, runs no PHP code). */
static void *build_results(void *data, tasync_group_t *group)
{
	(void) data;
	zval results;
	size_t n = tasync_group_count(group);
	array_init_size(&results, (uint32_t) n);
	for (size_t i = 0; i < n; i++) {
		tasync_group_entry_t e;
		memset(&e, 0, sizeof(e));
		e.size = sizeof(e);
		if (tasync_group_entry(group, i, 0, &e) != 0) {
			continue;
		}
		zval value;
		async_value_unbox(e.value, &value);
		if (e.key.is_string) {
			zend_symtable_str_update(Z_ARRVAL(results), e.key.str, e.key.len, &value);
		} else {
			zend_hash_index_update(Z_ARRVAL(results), (zend_ulong) e.key.num, &value);
		}
	}
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

ZEND_METHOD(Async_TaskGroup, __construct)
{
	zend_long concurrency = 0;
	bool concurrency_null = true;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(concurrency, concurrency_null)
	ZEND_PARSE_PARAMETERS_END();
	async_group *g = THIS_GROUP();
	if (g->group != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	if (!concurrency_null && (concurrency < 1 || concurrency > UINT32_MAX)) {
		zend_argument_value_error(1, "must be null or between 1 and %u", (unsigned) UINT32_MAX);
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_group_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.concurrency = concurrency_null ? 0 : (uint32_t) concurrency;
	opts.build_results = build_results;
	void *err = NULL;
	int rc = tasync_group_create(rt, &opts, &g->group, &err);
	if (rc != 0) {
		g->group = NULL;
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	async_scope_hold(tasync_group_scope(g->group));
}

static void group_spawn(INTERNAL_FUNCTION_PARAMETERS, bool with_key)
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
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
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

ZEND_METHOD(Async_TaskGroup, spawn)
{
	group_spawn(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Async_TaskGroup, spawnWithKey)
{
	group_spawn(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

static void group_awaitable(INTERNAL_FUNCTION_PARAMETERS, int (*make)(tasync_group_t *, tasync_awaitable_t **))
{
	ZEND_PARSE_PARAMETERS_NONE();
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
	RETURN_OBJ(async_future_create(aw, Z_OBJ_P(ZEND_THIS)));
}

ZEND_METHOD(Async_TaskGroup, all)
{
	group_awaitable(INTERNAL_FUNCTION_PARAM_PASSTHRU, tasync_group_all);
}

ZEND_METHOD(Async_TaskGroup, race)
{
	group_awaitable(INTERNAL_FUNCTION_PARAM_PASSTHRU, tasync_group_race);
}

ZEND_METHOD(Async_TaskGroup, any)
{
	group_awaitable(INTERNAL_FUNCTION_PARAM_PASSTHRU, tasync_group_any);
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
typedef struct group_iterator {
	zend_object_iterator it;         /* it.data: the TaskGroup */
	size_t index;                    /* the completion index being looked at */
	bool fetched;                    /* current and key hold entry `index` */
	zval current;
	zval key;
} group_iterator;

static void iterator_clear(group_iterator *gi)
{
	zval_ptr_dtor(&gi->current);
	zval_ptr_dtor(&gi->key);
	ZVAL_UNDEF(&gi->current);
	ZVAL_UNDEF(&gi->key);
	gi->fetched = false;
}

static void iterator_dtor(zend_object_iterator *it)
{
	group_iterator *gi = (group_iterator *) it;
	iterator_clear(gi);
	zval_ptr_dtor(&it->data);
}

static int iterator_valid(zend_object_iterator *it)
{
	group_iterator *gi = (group_iterator *) it;
	if (gi->fetched) {
		return SUCCESS;
	}
	tasync_group_t *group = this_group(&it->data);
	if (group == NULL) {
		return FAILURE;
	}
	void *err = NULL;
	int rc = tasync_group_wait_next(ASYNC_G(rt), group, gi->index, NULL, &err);
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
	if (tasync_group_entry(group, gi->index, 1, &e) != 0) {
		return FAILURE;
	}
	zval value, error;
	async_value_unbox(e.error == NULL ? e.value : NULL, &value);
	if (e.error != NULL) {
		ZVAL_OBJ_COPY(&error, (zend_object *) e.error);
	} else {
		ZVAL_NULL(&error);
	}
	array_init_size(&gi->current, 2);
	add_next_index_zval(&gi->current, &value);
	add_next_index_zval(&gi->current, &error);
	if (e.key.is_string) {
		ZVAL_STRINGL(&gi->key, e.key.str, e.key.len);
	} else {
		ZVAL_LONG(&gi->key, (zend_long) e.key.num);
	}
	gi->fetched = true;
	return SUCCESS;
}

static zval *iterator_get_current_data(zend_object_iterator *it)
{
	group_iterator *gi = (group_iterator *) it;
	return gi->fetched ? &gi->current : &EG(uninitialized_zval);
}

static void iterator_get_current_key(zend_object_iterator *it, zval *key)
{
	group_iterator *gi = (group_iterator *) it;
	if (gi->fetched) {
		ZVAL_COPY(key, &gi->key);
	} else {
		ZVAL_NULL(key);
	}
}

static void iterator_move_forward(zend_object_iterator *it)
{
	group_iterator *gi = (group_iterator *) it;
	iterator_clear(gi);
	gi->index++;
}

static void iterator_rewind(zend_object_iterator *it)
{
	group_iterator *gi = (group_iterator *) it;
	iterator_clear(gi);
	gi->index = 0;
}

static HashTable *iterator_get_gc(zend_object_iterator *it, zval **table, int *n)
{
	group_iterator *gi = (group_iterator *) it;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &it->data);
	zend_get_gc_buffer_add_zval(buf, &gi->current);
	zend_get_gc_buffer_add_zval(buf, &gi->key);
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

static const zend_object_iterator_funcs group_iterator_funcs = {
	.dtor = iterator_dtor,
	.valid = iterator_valid,
	.get_current_data = iterator_get_current_data,
	.get_current_key = iterator_get_current_key,
	.move_forward = iterator_move_forward,
	.rewind = iterator_rewind,
	.invalidate_current = NULL,
	.get_gc = iterator_get_gc,
};

static zend_object_iterator *group_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	(void) ce;
	if (by_ref) {
		zend_throw_error(NULL, "An iterator cannot be used with foreach by reference");
		return NULL;
	}
	group_iterator *gi = emalloc(sizeof(*gi));
	zend_iterator_init(&gi->it);
	ZVAL_OBJ_COPY(&gi->it.data, Z_OBJ_P(object));
	gi->it.funcs = &group_iterator_funcs;
	gi->index = 0;
	gi->fetched = false;
	ZVAL_UNDEF(&gi->current);
	ZVAL_UNDEF(&gi->key);
	return &gi->it;
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
