/*
 * api/task_set.c - Async\TaskSet: a task group (group.h, rule G1) whose
 * results are consumed as they arrive. The group runs the tasks (scope,
 * concurrency and queue limits, keys, close, finally handlers); this file
 * keeps what the set has not delivered yet.
 *
 * The set reads completions from the group in completion order (a cursor
 * over tasync_group_entry by completion) into its list of ready results.
 * A request (joinNext, joinAny, joinAll) is a Future the set completes:
 * at once when the list can answer it, else when a completion or the end
 * of the running tasks can. While requests wait, a coroutine of the set
 * (the pump, in the global scope) waits for the group's next completion
 * (tasync_group_wait_next) and serves them; it ends when no request waits
 * or no task runs (a later spawn starts it again). Iteration waits in the
 * iterating coroutine itself.
 *
 * Which result goes first: of the ready ones, the task spawned first.
 * Delivered results leave the set (count() drops); the group itself keeps
 * its record of every task until the set goes.
 */
#include "api/task_set.h"

#include "api/awaitable.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/future.h"
#include "api/group.h"
#include "api/item_iterator.h"
#include "api/scope.h"
#include "api/scope_holds.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_closures.h"
#include "zend_interfaces.h"
#include "stubs/task_set_arginfo.h"

zend_class_entry *async_ce_task_set;
static zend_object_handlers task_set_handlers;

/* A completed task whose result the set has not delivered. */
typedef struct set_entry {
	zval key;
	zval value;                      /* UNDEF when it failed */
	zend_object *error;              /* one reference, or NULL */
	zend_ulong order;                /* its place in spawn order */
} set_entry;

enum { REQ_NEXT, REQ_ANY, REQ_ALL };

typedef struct set_request {
	tasync_awaitable_t *future;      /* one reference */
	int kind;
	bool ignore_errors;
} set_request;

typedef struct async_task_set {
	tasync_group_t *group;           /* one reference */
	HashTable order;                 /* task coroutine => its place in spawn order */
	set_entry *ready;                /* in completion order */
	uint32_t ready_count, ready_size;
	size_t cursor;                   /* completions read into ready so far */
	size_t delivered;                /* results delivered (they left the set) */
	set_request *requests;           /* waiting, in the order they were made */
	uint32_t request_count, request_size;
	/* Completed when a task is spawned or the set closes: what an iterator
	 * waits for while the set is open and nothing runs (one reference). */
	tasync_awaitable_t *wake;
	bool pump_running;
	zend_object std;
} async_task_set;

static inline async_task_set *set_from_obj(zend_object *obj)
{
	return (async_task_set *) ((char *) obj - XtOffsetOf(async_task_set, std));
}

/* ------------------------------------------------------------ entries */

static void entry_dtor(set_entry *e)
{
	zval_ptr_dtor(&e->key);
	zval_ptr_dtor(&e->value);
	if (e->error != NULL) {
		OBJ_RELEASE(e->error);
	}
}

/* Reads the completions the group has and the set has not into ready. */
static void set_sync(async_task_set *s)
{
	if (s->group == NULL) {
		return;
	}
	size_t completed = tasync_group_completed_count(s->group);
	for (; s->cursor < completed; s->cursor++) {
		tasync_group_entry_t e;
		memset(&e, 0, sizeof(e));
		e.size = sizeof(e);
		if (tasync_group_entry(s->group, s->cursor, 1, &e) != 0) {
			break;
		}
		if (s->ready_count == s->ready_size) {
			s->ready_size = s->ready_size ? s->ready_size * 2 : 8;
			s->ready = erealloc(s->ready, sizeof(set_entry) * s->ready_size);
		}
		set_entry *r = &s->ready[s->ready_count++];
		if (e.key.is_string) {
			ZVAL_STRINGL(&r->key, e.key.str, e.key.len);
		} else {
			ZVAL_LONG(&r->key, (zend_long) e.key.num);
		}
		ZVAL_UNDEF(&r->value);
		r->error = NULL;
		if (e.error != NULL) {
			r->error = e.error;
			GC_ADDREF(r->error);
		} else {
			async_value_unbox(e.value, &r->value);
		}
		zval *order = zend_hash_index_find(&s->order, (zend_ulong) (uintptr_t) e.coroutine);
		r->order = order != NULL ? (zend_ulong) Z_LVAL_P(order) : (zend_ulong) s->cursor;
	}
	/* The set answers for the errors it holds now (see set_dtor). */
	tasync_group_suppress_errors(s->group);
}

/* Wakes an iterator waiting for a spawn or the close. */
static void set_wake(async_task_set *s)
{
	if (s->wake != NULL) {
		tasync_future_resolve(s->wake, NULL);
		tasync_awaitable_release(s->wake);
		s->wake = NULL;
	}
}

/* Index into ready of the entry to deliver next (successes only when
 * success_only), or -1. */
static int32_t set_pick(async_task_set *s, bool success_only)
{
	int32_t best = -1;
	for (uint32_t i = 0; i < s->ready_count; i++) {
		if (success_only && s->ready[i].error != NULL) {
			continue;
		}
		if (best < 0 || s->ready[i].order < s->ready[best].order) {
			best = (int32_t) i;
		}
	}
	return best;
}

/* Takes entry i out of ready (the caller owns its members now). */
static set_entry set_take(async_task_set *s, uint32_t i)
{
	set_entry e = s->ready[i];
	memmove(&s->ready[i], &s->ready[i + 1], sizeof(set_entry) * (s->ready_count - i - 1));
	s->ready_count--;
	s->delivered++;
	return e;
}

/* No task of the set is held back or running. */
static bool set_finished(async_task_set *s)
{
	return s->group == NULL || (tasync_group_flags(s->group) & TASYNC_GROUP_FINISHED) != 0;
}

static zend_ulong set_undelivered(async_task_set *s)
{
	return s->group != NULL ? (zend_ulong) (tasync_group_count(s->group) - s->delivered) : 0;
}

/* ----------------------------------------------------------- requests */

/* Completes future with entry e's outcome (its members are released). */
static void settle_with_entry(tasync_awaitable_t *future, set_entry *e)
{
	async_future_settle(future, Z_ISUNDEF(e->value) ? NULL : &e->value, e->error);
	entry_dtor(e);
}

/* Delivers every ready error at once, as one CompositeException (which
 * the caller owns), in completion order. */
static zend_object *set_take_errors(async_task_set *s, const char *message)
{
	zend_object **errors = safe_emalloc(s->ready_count ? s->ready_count : 1, sizeof(zend_object *), 0);
	size_t n = 0;
	for (uint32_t i = 0; i < s->ready_count;) {
		if (s->ready[i].error == NULL) {
			i++;
			continue;
		}
		set_entry e = set_take(s, i);
		errors[n++] = e.error;
		e.error = NULL;
		entry_dtor(&e);
	}
	zend_object *composite = async_composite_create(message, errors, n);
	for (size_t i = 0; i < n; i++) {
		OBJ_RELEASE(errors[i]);
	}
	efree(errors);
	return composite;
}

/* Tries to answer request r now; true when it is answered (or its future
 * was completed by somebody else, a cancel()). */
static bool set_serve_one(async_task_set *s, set_request *r)
{
	if (tasync_awaitable_is_completed(r->future)) {
		return true;
	}
	switch (r->kind) {
		case REQ_NEXT: {
			int32_t i = set_pick(s, false);
			if (i < 0) {
				return false;
			}
			set_entry e = set_take(s, (uint32_t) i);
			settle_with_entry(r->future, &e);
			return true;
		}
		case REQ_ANY: {
			int32_t i = set_pick(s, true);
			if (i >= 0) {
				set_entry e = set_take(s, (uint32_t) i);
				settle_with_entry(r->future, &e);
				return true;
			}
			if (!set_finished(s)) {
				return false;
			}
			/* Every task in the set failed. */
			zend_object *composite = set_take_errors(s, "All tasks of the TaskSet failed");
			async_future_settle(r->future, NULL, composite);
			OBJ_RELEASE(composite);
			return true;
		}
		case REQ_ALL: {
			if (!set_finished(s)) {
				return false;
			}
			bool failed = false;
			for (uint32_t i = 0; i < s->ready_count; i++) {
				failed = failed || s->ready[i].error != NULL;
			}
			if (failed && !r->ignore_errors) {
				zend_object *composite = set_take_errors(s, "Tasks of the TaskSet failed");
				async_future_settle(r->future, NULL, composite);
				OBJ_RELEASE(composite);
			}
			/* The results by key, in spawn order; every entry leaves. */
			zval results;
			array_init(&results);
			while (s->ready_count > 0) {
				int32_t i = set_pick(s, false);
				set_entry e = set_take(s, (uint32_t) i);
				if (e.error == NULL) {
					if (Z_TYPE(e.key) == IS_STRING) {
						zend_symtable_update(Z_ARRVAL(results), Z_STR(e.key), &e.value);
					} else {
						zend_hash_index_update(Z_ARRVAL(results), (zend_ulong) Z_LVAL(e.key), &e.value);
					}
					ZVAL_UNDEF(&e.value);
				}
				entry_dtor(&e);
			}
			if (!tasync_awaitable_is_completed(r->future)) {
				async_future_settle(r->future, &results, NULL);
			}
			zval_ptr_dtor(&results);
			return true;
		}
	}
	return true;
}

/* Answers what the set can answer now, in the order the requests came
 * (one that cannot be answered yet does not hold the later ones back). */
static void set_serve(async_task_set *s)
{
	set_sync(s);
	uint32_t kept = 0;
	for (uint32_t i = 0; i < s->request_count; i++) {
		set_request *r = &s->requests[i];
		if (set_serve_one(s, r)) {
			tasync_awaitable_release(r->future);
		} else {
			s->requests[kept++] = *r;
		}
	}
	s->request_count = kept;
}

static void pump_start(async_task_set *s);

static void pump_entry(tasync_coroutine_t *self, void *arg)
{
	async_task_set *s = arg;
	tasync_runtime_t *rt = ASYNC_G(rt);
	(void) self;
	while (s->request_count > 0 && s->group != NULL) {
		void *err = NULL;
		int rc = tasync_group_wait_next(rt, s->group, s->cursor, NULL, &err);
		tasync_error_release(rt, err);
		if (!async_after_switch() || rc < 0) {
			/* Cancelled (the program's end): the requests stay pending;
			 * their awaiters are cancelled too. */
			break;
		}
		set_serve(s);
		if (rc == 0) {
			break; /* no task runs: a spawn starts the pump again */
		}
	}
	s->pump_running = false;
}

static void pump_free(void *arg)
{
	async_task_set *s = arg;
	zval zv;
	ZVAL_OBJ(&zv, &s->std);
	async_defer_release(&zv);
}

/* Starts the pump when requests wait and tasks run. */
static void pump_start(async_task_set *s)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (s->pump_running || s->request_count == 0 || rt == NULL || set_finished(s)) {
		return;
	}
	GC_ADDREF(&s->std);
	void *err = NULL;
	if (async_spawn_native(tasync_scope_global(rt), pump_entry, s, pump_free, NULL, &err) == 0) {
		s->pump_running = true;
	}
	tasync_error_release(rt, err);
}

/* ------------------------------------------------------------- object */

static zend_object *set_create(zend_class_entry *ce)
{
	async_task_set *s = zend_object_alloc(sizeof(async_task_set), ce);
	memset(s, 0, XtOffsetOf(async_task_set, std));
	zend_hash_init(&s->order, 8, NULL, NULL, 0);
	zend_object_std_init(&s->std, ce);
	object_properties_init(&s->std, ce);
	s->std.handlers = &task_set_handlers;
	return &s->std;
}

/* A coroutine that fails with an error the set never delivered (S10 takes
 * it from its scope). */
static void undelivered_entry(tasync_coroutine_t *self, void *arg)
{
	zval zv;
	(void) self;
	ZVAL_OBJ_COPY(&zv, (zend_object *) arg);
	zend_throw_exception_object(&zv);
}

static void undelivered_free(void *arg)
{
	zval zv;
	ZVAL_OBJ(&zv, (zend_object *) arg);
	async_defer_release(&zv);
}

/*
 * The set goes (G1: silently): the errors it never delivered flow into
 * S10 as the group's unhandled ones do, each from the parent of the set's
 * scope, as a coroutine failing there unobserved.
 */
static void set_dtor(zend_object *obj)
{
	async_task_set *s = set_from_obj(obj);
	if (s->group == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	set_sync(s);
	tasync_scope_t *parent = tasync_scope_parent(tasync_group_scope(s->group));
	for (uint32_t i = 0; i < s->ready_count; i++) {
		if (s->ready[i].error == NULL) {
			continue;
		}
		zend_object *error = s->ready[i].error;
		s->ready[i].error = NULL;
		async_spawn_native(parent != NULL ? parent : tasync_scope_global(ASYNC_G(rt)), undelivered_entry, error,
			undelivered_free, NULL, NULL);
	}
	set_wake(s);
	tasync_group_let_go(s->group);
	async_safe_point();
	async_exception_restore(&aside);
	async_rethrow_bailout();
}

static void set_free(zend_object *obj)
{
	async_task_set *s = set_from_obj(obj);
	for (uint32_t i = 0; i < s->ready_count; i++) {
		entry_dtor(&s->ready[i]);
	}
	if (s->ready != NULL) {
		efree(s->ready);
	}
	for (uint32_t i = 0; i < s->request_count; i++) {
		tasync_awaitable_release(s->requests[i].future);
	}
	if (s->requests != NULL) {
		efree(s->requests);
	}
	zend_hash_destroy(&s->order);
	tasync_awaitable_release(s->wake);
	s->wake = NULL;
	if (s->group != NULL) {
		if (ASYNC_G(rt) != NULL) {
			async_scope_unhold(tasync_group_scope(s->group));
		}
		tasync_group_release(s->group);
		s->group = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

static HashTable *set_get_gc(zend_object *obj, zval **table, int *num)
{
	async_task_set *s = set_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	for (uint32_t i = 0; i < s->ready_count; i++) {
		zend_get_gc_buffer_add_zval(buf, &s->ready[i].value);
		if (s->ready[i].error != NULL) {
			zend_get_gc_buffer_add_obj(buf, s->ready[i].error);
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

#define THIS_SET() set_from_obj(Z_OBJ_P(ZEND_THIS))

/* The group of the set, or NULL with an exception thrown. */
static tasync_group_t *this_group(zval *this_zv)
{
	async_task_set *s = set_from_obj(Z_OBJ_P(this_zv));
	if (s->group == NULL || ASYNC_G(rt) == NULL || tasync_scope_runtime(tasync_group_scope(s->group)) != ASYNC_G(rt)) {
		zend_throw_exception(async_ce_async_exception, "The task set belongs to a runtime that no longer exists", 0);
		return NULL;
	}
	return s->group;
}

/* close(), cancel(), dispose(): the set takes no more tasks and an iterator
 * waiting for a spawn wakes. The group, or NULL with an exception thrown. */
static tasync_group_t *set_close(zval *this_zv)
{
	tasync_group_t *group = this_group(this_zv);
	if (group != NULL) {
		tasync_group_close(group);
		set_wake(set_from_obj(Z_OBJ_P(this_zv)));
	}
	return group;
}

ZEND_METHOD(Async_TaskSet, __construct)
{
	async_task_set *s = THIS_SET();
	if (s->group != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	s->group = async_group_new(INTERNAL_FUNCTION_PARAM_PASSTHRU, NULL);
}

static void set_spawn(INTERNAL_FUNCTION_PARAMETERS, bool with_key)
{
	async_task_set *s = THIS_SET();
	tasync_group_t *group = s->group != NULL && ASYNC_G(rt) != NULL ? s->group : NULL;
	size_t before = group != NULL ? tasync_group_count(group) : 0;
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	async_group_spawn_call(INTERNAL_FUNCTION_PARAM_PASSTHRU, group, with_key);
	if (Z_TYPE_P(return_value) == IS_OBJECT && s->group != NULL) {
		/* Its place in spawn order. */
		zval order;
		ZVAL_LONG(&order, (zend_long) before);
		tasync_coroutine_t *co = async_coroutine_obj_from(Z_OBJ_P(return_value))->co;
		zend_hash_index_update(&s->order, (zend_ulong) (uintptr_t) co, &order);
		set_wake(s);
		pump_start(s);
	}
	OBJ_RELEASE(self);
}

ZEND_METHOD(Async_TaskSet, spawn)
{
	set_spawn(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Async_TaskSet, spawnWithKey)
{
	set_spawn(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* A request's Future: answered now when it can be, else when the pump
 * sees what answers it. */
static void set_request_future(INTERNAL_FUNCTION_PARAMETERS, int kind, bool ignore_errors)
{
	tasync_group_t *group = this_group(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	async_task_set *s = THIS_SET();
	set_sync(s);
	if (kind != REQ_ALL && set_undelivered(s) == 0) {
		zend_throw_exception(async_ce_async_exception,
			kind == REQ_NEXT ? "Cannot call joinNext() on an empty TaskSet" : "Cannot call joinAny() on an empty TaskSet", 0);
		RETURN_THROWS();
	}
	tasync_awaitable_t *future = async_future_new();
	if (future == NULL) {
		RETURN_THROWS();
	}
	if (s->request_count == s->request_size) {
		s->request_size = s->request_size ? s->request_size * 2 : 4;
		s->requests = erealloc(s->requests, sizeof(set_request) * s->request_size);
	}
	set_request *r = &s->requests[s->request_count++];
	r->future = future;
	r->kind = kind;
	r->ignore_errors = ignore_errors;
	tasync_awaitable_retain(future);
	set_serve(s);
	pump_start(s);
	async_safe_point();
	RETURN_OBJ(async_future_create(future, ASYNC_FUTURE_PLAIN, Z_OBJ_P(ZEND_THIS)));
}

ZEND_METHOD(Async_TaskSet, joinNext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	set_request_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, REQ_NEXT, false);
}

ZEND_METHOD(Async_TaskSet, joinAny)
{
	ZEND_PARSE_PARAMETERS_NONE();
	set_request_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, REQ_ANY, false);
}

ZEND_METHOD(Async_TaskSet, joinAll)
{
	bool ignore_errors = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(ignore_errors)
	ZEND_PARSE_PARAMETERS_END();
	set_request_future(INTERNAL_FUNCTION_PARAM_PASSTHRU, REQ_ALL, ignore_errors);
}

ZEND_METHOD(Async_TaskSet, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	tasync_group_t *group = set_close(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	tasync_scope_cancel(tasync_group_scope(group), error);
	async_safe_point();
	async_rethrow_bailout();
}

ZEND_METHOD(Async_TaskSet, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (set_close(ZEND_THIS) == NULL) {
		RETURN_THROWS();
	}
	async_safe_point();
}

ZEND_METHOD(Async_TaskSet, dispose)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_group_t *group = set_close(ZEND_THIS);
	if (group == NULL) {
		RETURN_THROWS();
	}
	void *err = NULL;
	int rc = tasync_scope_dispose(tasync_group_scope(group), TASYNC_DISPOSE_CANCEL, 0, &err);
	async_core_call_done(rc, err);
}

ZEND_METHOD(Async_TaskSet, isFinished)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(set_finished(THIS_SET()));
}

ZEND_METHOD(Async_TaskSet, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_task_set *s = THIS_SET();
	RETURN_BOOL(s->group == NULL || (tasync_group_flags(s->group) & TASYNC_GROUP_CLOSED));
}

ZEND_METHOD(Async_TaskSet, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) set_undelivered(THIS_SET()));
}

ZEND_METHOD(Async_TaskSet, awaitCompletion)
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
	if (!async_after_switch()) {
		tasync_error_release(ASYNC_G(rt), err);
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

ZEND_METHOD(Async_TaskSet, finally)
{
	async_task_set *s = THIS_SET();
	async_group_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU,
		s->group != NULL && ASYNC_G(rt) != NULL ? s->group : NULL);
}

ZEND_METHOD(Async_TaskSet, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* ------------------------------------------------------------ iterator */

/* foreach ($set as $key => [$result, $error]): delivers each result as it
 * arrives, waiting in the iterating coroutine, until no task is left. */
static zend_result set_fetch(async_item_iterator *si)
{
	tasync_group_t *group = this_group(&si->it.data);
	if (group == NULL) {
		return FAILURE;
	}
	async_task_set *s = set_from_obj(Z_OBJ(si->it.data));
	for (;;) {
		set_sync(s);
		int32_t i = set_pick(s, false);
		if (i >= 0) {
			set_entry e = set_take(s, (uint32_t) i);
			array_init_size(&si->current, 2);
			if (e.error != NULL) {
				add_next_index_null(&si->current);
				add_next_index_object(&si->current, e.error);
				e.error = NULL;
			} else {
				add_next_index_zval(&si->current, &e.value);
				ZVAL_UNDEF(&e.value);
				add_next_index_null(&si->current);
			}
			ZVAL_COPY_VALUE(&si->key, &e.key);
			ZVAL_UNDEF(&e.key);
			entry_dtor(&e);
			return SUCCESS;
		}
		void *err = NULL;
		int rc = tasync_group_wait_next(ASYNC_G(rt), group, s->cursor, NULL, &err);
		if (!async_after_switch()) {
			tasync_error_release(ASYNC_G(rt), err);
			return FAILURE;
		}
		if (rc < 0) {
			async_throw_error(rc, err);
			return FAILURE;
		}
		if (rc == 0) {
			set_sync(s);
			if (s->ready_count > 0) {
				continue;
			}
			if (tasync_group_flags(group) & TASYNC_GROUP_CLOSED) {
				return FAILURE; /* closed, and no task left */
			}
			/* Open with nothing running: the next spawn or the close. */
			if (s->wake == NULL && tasync_future_create(ASYNC_G(rt), &s->wake) != 0) {
				return FAILURE;
			}
			tasync_awaitable_t *wake = s->wake;
			tasync_awaitable_retain(wake);
			rc = tasync_await(ASYNC_G(rt), wake, NULL, NULL, &err);
			tasync_awaitable_release(wake);
			if (!async_after_switch()) {
				tasync_error_release(ASYNC_G(rt), err);
				return FAILURE;
			}
			if (rc != 0) {
				async_throw_error(rc, err);
				return FAILURE;
			}
		}
	}
}

static const async_item_iterator_kind set_items = {
	.fetch = set_fetch,
	.by_ref_message = "Cannot iterate TaskSet by reference",
	.position_key = false,
	.rewinds = false,
};

static zend_object_iterator *set_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	(void) ce;
	return async_item_iterator_create(&set_items, object, by_ref);
}

void async_register_task_set_class(void)
{
	async_ce_task_set = register_class_Async_TaskSet(async_ce_awaitable, zend_ce_countable, zend_ce_aggregate);
	async_ce_task_set->create_object = set_create;
	async_ce_task_set->get_iterator = set_get_iterator;
	memcpy(&task_set_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	task_set_handlers.offset = XtOffsetOf(async_task_set, std);
	task_set_handlers.dtor_obj = set_dtor;
	task_set_handlers.free_obj = set_free;
	task_set_handlers.get_gc = set_get_gc;
	task_set_handlers.clone_obj = NULL;
}
