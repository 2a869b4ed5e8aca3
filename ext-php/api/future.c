/*
 * api/future.c - Async\FutureState and Async\Future over the core's
 * futures (future.h; rule T2): single assignment with an error that says
 * where the first completion happened, creation and completion locations,
 * a failure nobody observed reported like an unobserved coroutine failure
 * (S10), and map()/catch()/finally() as derived futures whose callbacks run
 * in coroutines of their own (tasync_future_then).
 *
 * A Future is also what the runtime hands out for work it does itself:
 * TaskGroup::all(), race() and any() (group.h), Channel::recvAsync() (a
 * channel operation), a TaskSet's joins and signal(). Each keeps what made
 * it reachable (async_future.owner), and cancel() stops that work.
 */
#include "api/future.h"

#include "api/awaitable.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/group.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"
#include "stubs/future_arginfo.h"

zend_class_entry *async_ce_future;
zend_class_entry *async_ce_future_state;
static zend_object_handlers future_handlers;
static zend_object_handlers state_handlers;

/* ------------------------------------------------------------ helpers */

tasync_awaitable_t *async_future_new(void)
{
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return NULL;
	}
	tasync_future_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.flags = TASYNC_FUTURE_REPORT_UNOBSERVED;
	tasync_awaitable_t *aw = NULL;
	int rc = tasync_future_create_ex(rt, &opts, &aw);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		return NULL;
	}
	return aw;
}

int async_future_settle(tasync_awaitable_t *aw, zval *value, zend_object *error)
{
	void *box = NULL, *err = NULL;
	if (error == NULL) {
		zval null;
		ZVAL_NULL(&null);
		box = async_value_box(value != NULL ? value : &null);
	}
	int rc = tasync_future_complete(aw, box, error, &err);
	if (box != NULL) {
		tasync_value_release(ASYNC_G(rt), box);
	}
	if (err != NULL) {
		tasync_error_release(ASYNC_G(rt), err);
	}
	return rc;
}

void async_awaiting_coroutines(tasync_awaitable_t *aw, zval *return_value)
{
	array_init(return_value);
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL || aw == NULL) {
		return;
	}
	size_t n = tasync_runtime_coroutines(rt, NULL, 0);
	tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	n = tasync_runtime_coroutines(rt, list, n);
	for (size_t i = 0; i < n; i++) {
		tasync_wait_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (tasync_coroutine_wait_info(list[i], &info) == 0 && info.kind == TASYNC_WAIT_AWAIT && info.target == aw) {
			add_next_index_object(return_value, async_coroutine_object_for(list[i]));
		}
	}
	efree(list);
}

/* [file, line] of loc ([null, 0] when unknown). */
static void location_array(tasync_location_t loc, zval *return_value)
{
	array_init(return_value);
	if (loc.file != NULL) {
		add_next_index_string(return_value, loc.file);
	} else {
		add_next_index_null(return_value);
	}
	add_next_index_long(return_value, loc.file != NULL ? (zend_long) loc.line : 0);
}

/* "file:line" of loc, or "unknown". */
static void location_string(tasync_location_t loc, zval *return_value)
{
	if (loc.file == NULL) {
		RETURN_STRING("unknown");
	}
	RETURN_STR(zend_strpprintf(0, "%s:%u", loc.file, loc.line));
}

static bool cancelled_outcome(tasync_awaitable_t *aw)
{
	void *value = NULL, *error = NULL;
	if (aw == NULL || ASYNC_G(rt) == NULL || tasync_awaitable_outcome(aw, &value, &error) != TASYNC_EFAILED) {
		return false;
	}
	return instanceof_function(((zend_object *) error)->ce, async_ce_cancellation_error);
}

/* An outcome the garbage collector may see: all()'s array is the
 * future's own, race()'s value is a task's (shared: reported by nobody). */
static void outcome_gc(tasync_awaitable_t *aw, zend_get_gc_buffer *buf)
{
	void *value = NULL, *error = NULL;
	if (aw != NULL && ASYNC_G(rt) != NULL && tasync_awaitable_outcome(aw, &value, &error) != TASYNC_EBAD_STATE) {
		if (value != NULL && async_value_refs(value) == 1) {
			zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
		}
		if (error != NULL) {
			zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
		}
	}
}

/* ------------------------------------------------------- FutureState */

typedef struct async_future_state {
	tasync_awaitable_t *aw;          /* the core future (one reference) */
	zend_object std;
} async_future_state;

static inline async_future_state *state_from_obj(zend_object *obj)
{
	return (async_future_state *) ((char *) obj - XtOffsetOf(async_future_state, std));
}

static zend_object *state_create(zend_class_entry *ce)
{
	async_future_state *s = zend_object_alloc(sizeof(async_future_state), ce);
	s->aw = NULL;
	zend_object_std_init(&s->std, ce);
	object_properties_init(&s->std, ce);
	s->std.handlers = &state_handlers;
	return &s->std;
}

static void state_free(zend_object *obj)
{
	async_future_state *s = state_from_obj(obj);
	/* The last reference may report an unobserved failure (T2): the core
	 * only queues that. */
	tasync_awaitable_release(s->aw);
	s->aw = NULL;
	async_flush_releases();
	zend_object_std_dtor(obj);
}

static HashTable *state_get_gc(zend_object *obj, zval **table, int *num)
{
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	outcome_gc(state_from_obj(obj)->aw, buf);
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* The core future of $this, or NULL with an exception thrown. */
static tasync_awaitable_t *this_state(zval *this_zv)
{
	async_future_state *s = state_from_obj(Z_OBJ_P(this_zv));
	if (s->aw == NULL || ASYNC_G(rt) == NULL) {
		zend_throw_exception(async_ce_async_exception, "FutureState is already destroyed", 0);
		return NULL;
	}
	return s->aw;
}

ZEND_METHOD(Async_FutureState, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future_state *s = state_from_obj(Z_OBJ_P(ZEND_THIS));
	if (s->aw != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	s->aw = async_future_new();
}

/* complete() and error(): the single assignment (T2). */
static void state_settle(zval *this_zv, zval *value, zend_object *error)
{
	tasync_awaitable_t *aw = this_state(this_zv);
	if (aw == NULL) {
		return;
	}
	int rc = async_future_settle(aw, value, error);
	async_safe_point();
	if (rc == TASYNC_EFUTURE_COMPLETED) {
		tasync_location_t at = tasync_future_completed_location(aw);
		zend_throw_exception_ex(async_ce_async_exception, 0, "FutureState is already completed at %s:%u",
			at.file != NULL ? at.file : "Unknown", at.file != NULL ? at.line : 0);
	} else if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_FutureState, complete)
{
	zval *result;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(result)
	ZEND_PARSE_PARAMETERS_END();
	state_settle(ZEND_THIS, result, NULL);
}

ZEND_METHOD(Async_FutureState, error)
{
	zend_object *throwable;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(throwable, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();
	state_settle(ZEND_THIS, NULL, throwable);
}

ZEND_METHOD(Async_FutureState, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future_state *s = state_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_BOOL(s->aw != NULL && tasync_awaitable_is_completed(s->aw));
}

ZEND_METHOD(Async_FutureState, ignore)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future_state *s = state_from_obj(Z_OBJ_P(ZEND_THIS));
	tasync_awaitable_observe(s->aw);
}

ZEND_METHOD(Async_FutureState, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_awaiting_coroutines(state_from_obj(Z_OBJ_P(ZEND_THIS))->aw, return_value);
}

ZEND_METHOD(Async_FutureState, getCreatedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_array(tasync_future_created_location(state_from_obj(Z_OBJ_P(ZEND_THIS))->aw), return_value);
}

ZEND_METHOD(Async_FutureState, getCreatedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_string(tasync_future_created_location(state_from_obj(Z_OBJ_P(ZEND_THIS))->aw), return_value);
}

ZEND_METHOD(Async_FutureState, getCompletedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_array(tasync_future_completed_location(state_from_obj(Z_OBJ_P(ZEND_THIS))->aw), return_value);
}

ZEND_METHOD(Async_FutureState, getCompletedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_string(tasync_future_completed_location(state_from_obj(Z_OBJ_P(ZEND_THIS))->aw), return_value);
}

/* ------------------------------------------------------------ Future */

static zend_object *future_create(zend_class_entry *ce)
{
	async_future *f = zend_object_alloc(sizeof(async_future), ce);
	f->aw = NULL;
	f->owner = NULL;
	f->worker = NULL;
	f->kind = ASYNC_FUTURE_PLAIN;
	zend_object_std_init(&f->std, ce);
	object_properties_init(&f->std, ce);
	f->std.handlers = &future_handlers;
	return &f->std;
}

static void future_free(zend_object *obj)
{
	async_future *f = async_future_from_obj(obj);
	if (f->worker != NULL) {
		/* Nobody can await its outcome any more: the work stops (a signal
		 * wait would otherwise keep the program alive). */
		if (ASYNC_G(rt) != NULL && !(tasync_coroutine_flags(f->worker) & TASYNC_CO_COMPLETED)) {
			tasync_coroutine_cancel(f->worker, NULL);
		}
		tasync_coroutine_release(f->worker);
		f->worker = NULL;
	}
	tasync_awaitable_release(f->aw);
	f->aw = NULL;
	if (f->owner != NULL) {
		OBJ_RELEASE(f->owner);
		f->owner = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

static HashTable *future_get_gc(zend_object *obj, zval **table, int *num)
{
	async_future *f = async_future_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (f->owner != NULL) {
		zend_get_gc_buffer_add_obj(buf, f->owner);
	}
	/* A FutureState's outcome is reported by the state (which this Future
	 * holds): reported twice, the collector would count it twice. */
	if (f->owner == NULL || f->owner->ce != async_ce_future_state) {
		outcome_gc(f->aw, buf);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

zend_object *async_future_create(tasync_awaitable_t *aw, async_future_kind kind, zend_object *owner)
{
	zval zv;
	object_init_ex(&zv, async_ce_future);
	async_future *f = async_future_from_obj(Z_OBJ(zv));
	f->aw = aw;
	f->kind = kind;
	f->owner = owner;
	if (owner != NULL) {
		GC_ADDREF(owner);
	}
	return Z_OBJ(zv);
}

#define THIS_FUTURE() async_future_from_obj(Z_OBJ_P(ZEND_THIS))

/* The core awaitable of $this, or NULL with an exception thrown. */
static tasync_awaitable_t *this_future(zval *this_zv)
{
	async_future *f = async_future_from_obj(Z_OBJ_P(this_zv));
	if (f->aw == NULL || ASYNC_G(rt) == NULL) {
		zend_throw_exception(async_ce_async_exception, "Future has no state", 0);
		return NULL;
	}
	return f->aw;
}

/* Future::completed() and failed(). */
static void future_settled(zval *return_value, zval *value, zend_object *error)
{
	tasync_awaitable_t *aw = async_future_new();
	if (aw == NULL) {
		RETURN_THROWS();
	}
	async_future_settle(aw, value, error);
	async_safe_point();
	RETURN_OBJ(async_future_create(aw, ASYNC_FUTURE_PLAIN, NULL));
}

ZEND_METHOD(Async_Future, completed)
{
	zval *value = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();
	future_settled(return_value, value, NULL);
}

ZEND_METHOD(Async_Future, failed)
{
	zend_object *throwable;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(throwable, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();
	future_settled(return_value, NULL, throwable);
}

ZEND_METHOD(Async_Future, __construct)
{
	zend_object *state;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(state, async_ce_future_state)
	ZEND_PARSE_PARAMETERS_END();
	async_future *f = THIS_FUTURE();
	if (f->aw != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	async_future_state *s = state_from_obj(state);
	if (s->aw == NULL) {
		zend_throw_exception(async_ce_async_exception, "FutureState is already destroyed", 0);
		RETURN_THROWS();
	}
	f->aw = s->aw;
	tasync_awaitable_retain(f->aw);
	f->owner = state;
	GC_ADDREF(state);
}

ZEND_METHOD(Async_Future, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	async_future *f = THIS_FUTURE();
	if (ASYNC_G(rt) == NULL || f->aw == NULL || tasync_awaitable_is_completed(f->aw)) {
		return; /* completed: nothing (as for a coroutine, C7) */
	}
	switch (f->kind) {
		case ASYNC_FUTURE_GROUP: {
			async_group *g = async_group_from_obj(f->owner);
			if (g->group != NULL) {
				tasync_scope_cancel(tasync_group_scope(g->group), error);
			}
			break;
		}
		case ASYNC_FUTURE_CHANNEL_OP:
			tasync_channel_op_cancel(f->aw, error);
			break;
		case ASYNC_FUTURE_PLAIN: {
			zend_object *err = error;
			if (err == NULL) {
				err = async_error_create(TASYNC_ERROR_CANCELLATION, -ECANCELED, "The future was cancelled");
			} else {
				GC_ADDREF(err);
			}
			async_future_settle(f->aw, NULL, err);
			if (f->worker != NULL) {
				tasync_coroutine_cancel(f->worker, err);
			}
			OBJ_RELEASE(err);
			break;
		}
	}
	async_safe_point();
	async_rethrow_bailout();
}

ZEND_METHOD(Async_Future, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_future *f = THIS_FUTURE();
	RETURN_BOOL(f->aw != NULL && tasync_awaitable_is_completed(f->aw));
}

ZEND_METHOD(Async_Future, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(cancelled_outcome(THIS_FUTURE()->aw));
}

ZEND_METHOD(Async_Future, ignore)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_awaitable_observe(THIS_FUTURE()->aw);
	RETURN_COPY(ZEND_THIS);
}

/* ------------------------------------------------ map, catch, finally */

/* The callback of a derived future, in its coroutine (tasync_future_then):
 * it reads the source's outcome, which the derivation keeps. */
typedef struct then_call {
	zval callable;
	tasync_awaitable_t *source;      /* borrowed */
	uint32_t mode;                   /* tasync_future_then_mode_t */
} then_call;

static void then_entry(tasync_coroutine_t *self, void *arg)
{
	then_call *t = arg;
	void *value = NULL, *error = NULL;
	zval args[1], rv;
	tasync_awaitable_outcome(t->source, &value, &error);
	if (error != NULL) {
		ZVAL_OBJ_COPY(&args[0], (zend_object *) error);
	} else {
		async_value_unbox(value, &args[0]);
	}
	ZVAL_UNDEF(&rv);
	call_user_function(NULL, NULL, &t->callable, &rv, 1, args);
	zval_ptr_dtor(&args[0]);
	if (!EG(exception) && t->mode != TASYNC_FUTURE_THEN_FINALLY && !Z_ISUNDEF(rv)) {
		void *box = async_value_box(&rv);
		tasync_coroutine_set_result(self, box);
		tasync_value_release(ASYNC_G(rt), box);
	}
	zval_ptr_dtor(&rv);
}

static void then_free(void *arg)
{
	then_call *t = arg;
	async_defer_release(&t->callable);
	efree(t);
}

static void future_derive(INTERNAL_FUNCTION_PARAMETERS, uint32_t mode)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	tasync_awaitable_t *aw = this_future(ZEND_THIS);
	if (aw == NULL) {
		RETURN_THROWS();
	}
	then_call *t = emalloc(sizeof(*t));
	ZVAL_COPY(&t->callable, &fci.function_name);
	t->source = aw;
	t->mode = mode;
	tasync_spawn_options_t opts;
	async_native_options(&opts, then_entry, t, then_free);
	tasync_awaitable_t *derived = NULL;
	/* On failure the core released the callback (arg_release). */
	int rc = tasync_future_then(aw, mode, &opts, TASYNC_FUTURE_REPORT_UNOBSERVED, &derived);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	RETURN_OBJ(async_future_create(derived, ASYNC_FUTURE_PLAIN, NULL));
}

ZEND_METHOD(Async_Future, map)
{
	future_derive(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_FUTURE_THEN_MAP);
}

ZEND_METHOD(Async_Future, catch)
{
	future_derive(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_FUTURE_THEN_CATCH);
}

ZEND_METHOD(Async_Future, finally)
{
	future_derive(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_FUTURE_THEN_FINALLY);
}

/* ------------------------------------------------------------- await */

ZEND_METHOD(Async_Future, await)
{
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *what = this_future(ZEND_THIS);
	tasync_awaitable_t *cancellation;
	if (what == NULL || !async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	async_await_object(rt, Z_OBJ_P(ZEND_THIS), what, cancel_obj, cancellation, return_value);
}

/* -------------------------------------------------------- introspection */

ZEND_METHOD(Async_Future, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_awaiting_coroutines(THIS_FUTURE()->aw, return_value);
}

ZEND_METHOD(Async_Future, getCreatedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_array(tasync_future_created_location(THIS_FUTURE()->aw), return_value);
}

ZEND_METHOD(Async_Future, getCreatedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_string(tasync_future_created_location(THIS_FUTURE()->aw), return_value);
}

ZEND_METHOD(Async_Future, getCompletedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_array(tasync_future_completed_location(THIS_FUTURE()->aw), return_value);
}

ZEND_METHOD(Async_Future, getCompletedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	location_string(tasync_future_completed_location(THIS_FUTURE()->aw), return_value);
}

/* The core awaitable behind a Future object (api/awaitable.c). */
static tasync_awaitable_t *future_awaitable(zend_object *obj)
{
	return async_future_from_obj(obj)->aw;
}

void async_register_future_class(void)
{
	async_ce_future_state = register_class_Async_FutureState();
	async_ce_future_state->create_object = state_create;
	memcpy(&state_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	state_handlers.offset = XtOffsetOf(async_future_state, std);
	state_handlers.free_obj = state_free;
	state_handlers.get_gc = state_get_gc;
	state_handlers.clone_obj = NULL;

	async_ce_future = register_class_Async_Future(async_ce_future_like);
	async_awaitable_register(async_ce_future, future_awaitable);
	async_ce_future->create_object = future_create;
	memcpy(&future_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	future_handlers.offset = XtOffsetOf(async_future, std);
	future_handlers.free_obj = future_free;
	future_handlers.get_gc = future_get_gc;
	future_handlers.clone_obj = NULL;
}
