/*
 * api/coroutine.c - Async\Coroutine: a handle on a core coroutine (rule
 * S10's Future semantics count it), one object per coroutine while the
 * object lives, and its methods. How a PHP coroutine is spawned and run,
 * and who owns what, is api/spawn.c's.
 */
#include "api/coroutine.h"

#include "api/awaitable.h"
#include "api/context.h"
#include "api/exceptions.h"
#include "api/scope.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "zend_builtin_functions.h"
#include "zend_interfaces.h"
#include "stubs/coroutine_arginfo.h"

zend_class_entry *async_ce_coroutine;
static zend_object_handlers coroutine_handlers;

/* ------------------------------------------------------------- object */

static zend_object *coroutine_create(zend_class_entry *ce)
{
	async_coroutine_obj *o = zend_object_alloc(sizeof(async_coroutine_obj), ce);
	memset(o, 0, XtOffsetOf(async_coroutine_obj, std));
	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &coroutine_handlers;
	return &o->std;
}

static void coroutine_free(zend_object *obj)
{
	async_coroutine_obj *o = async_coroutine_obj_from(obj);
	if (o->co != NULL) {
		async_coroutine *c = o->is_main ? NULL : async_coroutine_of(o->co);
		if (c != NULL && c->object == obj) {
			c->object = NULL;
		}
		/* The last handle may escalate a held error (S10): the core only
		 * queues that, no PHP code runs here. */
		tasync_coroutine_release(o->co);
		o->co = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/*
 * Rule C17: the outcome of a completed coroutine is visible to the
 * collector, but only once the object is the coroutine's only holder in
 * practice: the coroutine has finished running (its stack is gone; one
 * that still runs, e.g. escalating a held error, keeps using it). The
 * frames and the private context of an unfinished coroutine belong to the
 * core, not to this handle, and are not reported.
 */
static HashTable *coroutine_get_gc(zend_object *obj, zval **table, int *num)
{
	async_coroutine_obj *o = async_coroutine_obj_from(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (o->co != NULL && !o->is_main) {
		uint32_t flags = tasync_coroutine_flags(o->co);
		void *value = NULL, *error = NULL;
		if ((flags & TASYNC_CO_COMPLETED) && (flags & TASYNC_CO_STARTED)
				&& tasync_coroutine_stack_bounds(o->co, NULL, NULL) != 0
				&& tasync_coroutine_outcome(o->co, &value, &error) == 0) {
			/* A result box shared with a task group or a Future is
			 * theirs too: reported by nobody rather than twice. */
			if (value != NULL && async_value_refs(value) == 1) {
				zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
			}
			if (error != NULL) {
				zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
			}
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* A new Coroutine object standing for co (takes a handle on it). */
static zend_object *coroutine_object_new(tasync_coroutine_t *co)
{
	zval zv;
	object_init_ex(&zv, async_ce_coroutine);
	async_coroutine_obj *o = async_coroutine_obj_from(Z_OBJ(zv));
	o->co = co;
	tasync_coroutine_retain(co);
	return Z_OBJ(zv);
}

zend_object *async_coroutine_object_for(tasync_coroutine_t *co)
{
	if (tasync_coroutine_host_data(co) == &ASYNC_G(main_vm)) {
		zend_object *obj = async_main_coroutine_object();
		GC_ADDREF(obj);
		return obj;
	}
	async_coroutine *c = async_coroutine_of(co);
	if (c != NULL && c->object != NULL) {
		GC_ADDREF(c->object);
		return c->object;
	}
	/* No object stands for it (its last one was freed, or it is a
	 * completion callback, or a coroutine of another extension). */
	zend_object *obj = coroutine_object_new(co);
	if (c != NULL) {
		c->co = co;
		c->object = obj;
	}
	return obj;
}

zend_object *async_main_coroutine_object(void)
{
	if (ASYNC_G(main_object) == NULL) {
		zend_object *obj = coroutine_object_new(ASYNC_G(main_co));
		async_coroutine_obj_from(obj)->is_main = true;
		ASYNC_G(main_object) = obj;
	}
	return ASYNC_G(main_object);
}

void async_coroutine_main_detach(void)
{
	if (ASYNC_G(main_object) != NULL) {
		/* The main coroutine dies with the runtime: detach its object. */
		async_coroutine_obj *c = async_coroutine_obj_from(ASYNC_G(main_object));
		tasync_coroutine_release(c->co);
		c->co = NULL;
		OBJ_RELEASE(ASYNC_G(main_object));
		ASYNC_G(main_object) = NULL;
	}
}

/* The core awaitable behind a Coroutine object (api/awaitable.c). */
static tasync_awaitable_t *coroutine_awaitable(zend_object *obj)
{
	async_coroutine_obj *o = async_coroutine_obj_from(obj);
	return o->co != NULL ? tasync_coroutine_awaitable(o->co) : NULL;
}

/* ---------------------------------------------------------- methods */

#define THIS_COROUTINE() async_coroutine_obj_from(Z_OBJ_P(ZEND_THIS))

static uint32_t this_flags(INTERNAL_FUNCTION_PARAMETERS)
{
	async_coroutine_obj *c = THIS_COROUTINE();
	(void) return_value;
	return c->co != NULL ? tasync_coroutine_flags(c->co) : TASYNC_CO_STARTED | TASYNC_CO_COMPLETED;
}

ZEND_METHOD(Async_Coroutine, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_throw_error(NULL, "Cannot directly construct Async\\Coroutine, use Async\\spawn()");
}

ZEND_METHOD(Async_Coroutine, getId)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	RETURN_LONG(c->co != NULL ? (zend_long) tasync_coroutine_id(c->co) : 0);
}

ZEND_METHOD(Async_Coroutine, asHiPriority)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co != NULL) {
		tasync_coroutine_set_high_priority(c->co, 1);
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Coroutine, getResult)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	void *value = NULL, *error = NULL;
	if (c->co != NULL && tasync_coroutine_outcome(c->co, &value, &error) == 0 && error == NULL) {
		async_value_unbox(value, return_value);
		return;
	}
	RETURN_NULL();
}

ZEND_METHOD(Async_Coroutine, getException)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	void *value = NULL, *error = NULL;
	if (c->co != NULL && tasync_coroutine_outcome(c->co, &value, &error) == 0 && error != NULL) {
		RETURN_OBJ_COPY((zend_object *) error);
	}
	RETURN_NULL();
}

ZEND_METHOD(Async_Coroutine, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co == NULL) {
		return;
	}
	int rc = tasync_coroutine_cancel(c->co, error);
	async_safe_point();
	if (rc != 0 && !EG(exception)) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Coroutine, isStarted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_STARTED);
}

ZEND_METHOD(Async_Coroutine, isQueued)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_QUEUED);
}

ZEND_METHOD(Async_Coroutine, isRunning)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_RUNNING);
}

ZEND_METHOD(Async_Coroutine, isSuspended)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_SUSPENDED);
}

ZEND_METHOD(Async_Coroutine, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_CANCELLED);
}

ZEND_METHOD(Async_Coroutine, isCancellationRequested)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_CANCEL_REQUESTED);
}

ZEND_METHOD(Async_Coroutine, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_COMPLETED);
}

static void location_array(zval *rv, tasync_location_t loc)
{
	array_init_size(rv, 2);
	add_next_index_string(rv, loc.file != NULL ? loc.file : "");
	add_next_index_long(rv, loc.file != NULL ? (zend_long) loc.line : 0);
}

static void location_string(zval *rv, tasync_location_t loc)
{
	if (loc.file == NULL) {
		ZVAL_EMPTY_STRING(rv);
		return;
	}
	ZVAL_STR(rv, zend_strpprintf(0, "%s:%u", loc.file, (unsigned) loc.line));
}

ZEND_METHOD(Async_Coroutine, getSpawnFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSpawnLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_string(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_suspend_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_string(return_value, c->co ? tasync_coroutine_suspend_location(c->co) : (tasync_location_t){0});
}

/* The id of the unfinished coroutine whose awaitable aw is, or -1. */
static zend_long awaited_coroutine_id(tasync_awaitable_t *aw)
{
	size_t n = tasync_runtime_coroutines(ASYNC_G(rt), NULL, 0);
	tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	zend_long id = -1;
	n = tasync_runtime_coroutines(ASYNC_G(rt), list, n);
	for (size_t i = 0; i < n; i++) {
		if (tasync_coroutine_awaitable(list[i]) == aw) {
			id = (zend_long) tasync_coroutine_id(list[i]);
			break;
		}
	}
	efree(list);
	return id;
}

ZEND_METHOD(Async_Coroutine, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	array_init(return_value);
	if (c->co == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	tasync_wait_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (tasync_coroutine_wait_info(c->co, &info) != 0 || info.kind == TASYNC_WAIT_NONE) {
		return;
	}
	static const char *const kinds[] = {
		[TASYNC_WAIT_YIELD] = "suspend", [TASYNC_WAIT_PARK] = "park", [TASYNC_WAIT_AWAIT] = "await",
		[TASYNC_WAIT_DELAY] = "delay", [TASYNC_WAIT_FD] = "fd", [TASYNC_WAIT_SIGNAL] = "signal",
		[TASYNC_WAIT_CHILD] = "child", [TASYNC_WAIT_OFFLOAD] = "offload", [TASYNC_WAIT_OP] = "io",
		[TASYNC_WAIT_SCOPE] = "scope", [TASYNC_WAIT_GROUP] = "task_group", [TASYNC_WAIT_END] = "end",
	};
	const char *kind = info.kind < sizeof(kinds) / sizeof(kinds[0]) && kinds[info.kind] ? kinds[info.kind] : "other";
	add_assoc_string(return_value, "type", kind);
	char text[256];
	tasync_coroutine_describe_wait(c->co, text, sizeof(text));
	add_assoc_string(return_value, "description", text);
	switch (info.kind) {
		case TASYNC_WAIT_AWAIT: {
			zend_long id = info.target != NULL ? awaited_coroutine_id(info.target) : -1;
			if (id >= 0) {
				add_assoc_long(return_value, "coroutine", id);
			}
			add_assoc_long(return_value, "count", (zend_long) info.count);
			break;
		}
		case TASYNC_WAIT_DELAY: {
			uint64_t now = tasync_runtime_now(ASYNC_G(rt));
			add_assoc_long(return_value, "remaining_ms",
				info.deadline_ns > now ? (zend_long) ((info.deadline_ns - now) / 1000000u) : 0);
			break;
		}
		case TASYNC_WAIT_FD:
		case TASYNC_WAIT_OP:
			add_assoc_long(return_value, "fd", info.fd);
			break;
		case TASYNC_WAIT_SIGNAL:
			add_assoc_long(return_value, "signal", info.signum);
			break;
		case TASYNC_WAIT_CHILD:
			add_assoc_long(return_value, "pid", info.pid);
			break;
		default:
			break;
	}
	zval loc;
	location_string(&loc, tasync_coroutine_suspend_location(c->co));
	add_assoc_zval(return_value, "location", &loc);
}

/* onFinally() and its alias finally(). */
static void coroutine_on_finally(INTERNAL_FUNCTION_PARAMETERS)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	zval *callable = &fci.function_name;
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co == NULL || ASYNC_G(rt) == NULL || tasync_coroutine_runtime(c->co) != ASYNC_G(rt)) {
		/* Its runtime is gone (a destructor run by the request's last
		 * collection): the coroutine is finished, so the callback runs at
		 * once (C11), here, there being no scheduler left. */
		zval arg, rv;
		ZVAL_OBJ(&arg, Z_OBJ_P(ZEND_THIS));
		fci.retval = &rv;
		fci.params = &arg;
		fci.param_count = 1;
		if (zend_call_function(&fci, &fcc) == SUCCESS) {
			zval_ptr_dtor(&rv);
		}
		return;
	}
	tasync_spawn_options_t opts;
	async_finally_options(&opts, callable, Z_OBJ_P(ZEND_THIS), NULL);
	int rc = tasync_coroutine_on_finally(c->co, &opts);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Coroutine, onFinally)
{
	coroutine_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Coroutine, finally)
{
	coroutine_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Coroutine, getContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	/* Its private context (X2), also once it completed (empty then). */
	RETURN_OBJ(async_context_for_coroutine(Z_OBJ_P(ZEND_THIS)));
}

ZEND_METHOD(Async_Coroutine, getScope)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	tasync_scope_t *scope = c->co != NULL && ASYNC_G(rt) != NULL ? tasync_coroutine_scope(c->co) : NULL;
	if (scope == NULL) {
		RETURN_NULL();
	}
	RETURN_OBJ(async_scope_object_for(scope));
}

ZEND_METHOD(Async_Coroutine, getTrace)
{
	zend_long options = DEBUG_BACKTRACE_PROVIDE_OBJECT, limit = 0;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(options)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co == NULL) {
		RETURN_EMPTY_ARRAY();
	}
	uint32_t flags = tasync_coroutine_flags(c->co);
	if (flags & TASYNC_CO_RUNNING) {
		zend_fetch_debug_backtrace(return_value, 1, (int) options, (int) limit);
		return;
	}
	async_coroutine *record = c->is_main ? NULL : async_coroutine_of(c->co);
	const async_vm_state *vm = c->is_main ? &ASYNC_G(main_vm) : record != NULL ? &record->vm : NULL;
	if (!(flags & TASYNC_CO_SUSPENDED) || vm == NULL || vm->current_execute_data == NULL) {
		RETURN_EMPTY_ARRAY();
	}
	/* Walk the suspended coroutine's frames as if they were current. */
	zend_execute_data *saved = EG(current_execute_data);
	EG(current_execute_data) = vm->current_execute_data;
	zend_fetch_debug_backtrace(return_value, 0, (int) options, (int) limit);
	EG(current_execute_data) = saved;
}

void async_register_coroutine_class(void)
{
	async_ce_coroutine = register_class_Async_Coroutine(async_ce_future_like);
	async_awaitable_register(async_ce_coroutine, coroutine_awaitable);
	async_ce_coroutine->create_object = coroutine_create;
	memcpy(&coroutine_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	coroutine_handlers.offset = XtOffsetOf(async_coroutine_obj, std);
	coroutine_handlers.free_obj = coroutine_free;
	coroutine_handlers.get_gc = coroutine_get_gc;
	coroutine_handlers.clone_obj = NULL;
}
