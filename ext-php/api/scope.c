/*
 * api/scope.c - Async\Scope and Async\ScopeProvider over the core's scope tree
 * (api/include/tasync/scope.h; docs/rules.md, rules S1-S15). The rules are
 * the core's: this file maps objects, callables and exceptions.
 *
 * Objects. A core scope has at most one Scope object at a time (its host
 * data points at it). The object new Scope() or Scope::inherit() returns
 * owns the scope: destroying it disposes the scope (S8: safely, or by
 * cancellation after asNotSafely()). A Scope object made later for the
 * same scope (Scope::global(), a parent, a handler's argument,
 * getChildScopes()) only stands for it: dropping it changes nothing.
 *
 * Handlers. Exception handlers (S10, S11) are PHP callables the core calls
 * on the failing coroutine, where they may suspend; one that throws hands
 * its exception back, and the core takes it on to the parent.
 *
 * Garbage collection (C17). The core scope holds PHP values: its
 * context's values and its handlers. A Scope object may report them to the
 * collector only when releasing the object would release them, that is
 * when it is the scope's only holder: no unfinished coroutine in its
 * subtree, no child scope, and no other PHP object holding the scope (a
 * Context object, a TaskGroup, a pending onFinally() callback: counted in
 * ASYNC_G(scope_extras), api/scope_holds.c). Otherwise the values stay
 * alive until then.
 */
#include "api/scope.h"

#include "api/awaitable.h"
#include "api/context.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/scope_holds.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"
#include "stubs/scope_arginfo.h"

zend_class_entry *async_ce_scope;
zend_class_entry *async_ce_scope_provider;
zend_class_entry *async_ce_spawn_strategy;
static zend_object_handlers scope_handlers;

enum { HANDLER_OWN = 0, HANDLER_CHILDREN = 1 };

typedef struct async_handler {
	zval callable;
	tasync_scope_t *scope;           /* borrowed: the scope it is set on */
	int slot;
} async_handler;

/* ------------------------------------------------------------- object */

/* TASYNC_DISPOSE_ON_RELEASE of a scope whose PHP owner is going away. */
static void scope_dispose_on_release(tasync_scope_t *scope)
{
	void *err = NULL;
	tasync_scope_dispose(scope, TASYNC_DISPOSE_ON_RELEASE, 0, &err);
	if (err != NULL) {
		OBJ_RELEASE((zend_object *) err);
	}
}

static zend_object *scope_create(zend_class_entry *ce)
{
	async_scope *s = zend_object_alloc(sizeof(async_scope), ce);
	s->scope = NULL;
	s->handlers[0] = s->handlers[1] = NULL;
	s->owner = false;
	s->is_global = false;
	s->allow_zombies = false;
	zend_object_std_init(&s->std, ce);
	object_properties_init(&s->std, ce);
	s->std.handlers = &scope_handlers;
	return &s->std;
}

/* Makes obj stand for scope (a new reference to the scope is taken). */
static void scope_attach(async_scope *s, tasync_scope_t *scope, bool owner)
{
	s->scope = scope;
	s->owner = owner;
	s->is_global = (tasync_scope_flags(scope) & TASYNC_SCOPE_GLOBAL) != 0;
	if (!s->is_global) {
		tasync_scope_retain(scope);
	}
	tasync_scope_set_host_data(scope, &s->std);
}

zend_object *async_scope_object_for(tasync_scope_t *scope)
{
	zend_object *obj = tasync_scope_host_data(scope);
	if (obj != NULL) {
		GC_ADDREF(obj);
		return obj;
	}
	zval zv;
	object_init_ex(&zv, async_ce_scope);
	scope_attach(async_scope_from_obj(Z_OBJ(zv)), scope, false);
	return Z_OBJ(zv);
}

/* Stops standing for the scope and drops the reference (the scope itself
 * lives on while its coroutines, children or other holders need it). */
static void scope_detach(async_scope *s)
{
	zend_object *obj = &s->std;
	if (s->scope == NULL) {
		return;
	}
	if (!s->is_global) {
		/* A scope the runtime detached at its end is still ours to release. */
		if (tasync_scope_host_data(s->scope) == obj) {
			tasync_scope_set_host_data(s->scope, NULL);
		}
		tasync_scope_release(s->scope);
	} else if (ASYNC_G(rt) != NULL && tasync_scope_host_data(s->scope) == obj) {
		tasync_scope_set_host_data(s->scope, NULL);
	}
	s->scope = NULL;
}

/*
 * The object is being destroyed. Its owner lets go of the scope (S8:
 * dispose on release); then the reference is dropped here, where PHP code
 * may run, so that what the scope held (its context's values) is released
 * now rather than at some later safe point.
 */
static void scope_dtor(zend_object *obj)
{
	async_scope *s = async_scope_from_obj(obj);
	if (s->scope == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	/* Like a destructor: an exception already unwinding stays aside. */
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	if (s->owner && !s->is_global) {
		s->owner = false;
		if (s->allow_zombies && (tasync_scope_flags(s->scope) & TASYNC_SCOPE_NOT_SAFELY)) {
			/* Not safely by inheritance or asNotSafely(), then
			 * allowZombies(): the later call wins. */
			void *err = NULL;
			tasync_scope_dispose(s->scope, TASYNC_DISPOSE_SAFELY, 0, &err);
			if (err != NULL) {
				OBJ_RELEASE((zend_object *) err);
			}
		} else {
			scope_dispose_on_release(s->scope);
		}
	}
	scope_detach(s);
	async_safe_point();
	async_exception_restore(&aside);
	async_rethrow_bailout();
}

static void scope_free(zend_object *obj)
{
	/* Without a destructor call (after a fatal error, or the runtime's end). */
	scope_detach(async_scope_from_obj(obj));
	async_flush_releases();
	zend_object_std_dtor(obj);
}

static HashTable *scope_get_gc(zend_object *obj, zval **table, int *num)
{
	async_scope *s = async_scope_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (s->scope != NULL && !s->is_global && ASYNC_G(rt) != NULL && async_scope_held_alone(s->scope)) {
		async_context_gc(tasync_scope_context(s->scope), buf);
		for (int i = 0; i < 2; i++) {
			if (s->handlers[i] != NULL) {
				zend_get_gc_buffer_add_zval(buf, &s->handlers[i]->callable);
			}
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* $scope->context: the scope's Context, read-only. */
static bool is_context_member(zend_string *member)
{
	return zend_string_equals_literal(member, "context");
}

static zval *scope_read_property(zend_object *obj, zend_string *member, int type, void **cache_slot, zval *rv)
{
	async_scope *s = async_scope_from_obj(obj);
	if (is_context_member(member) && s->scope != NULL && ASYNC_G(rt) != NULL) {
		if (type == BP_VAR_W || type == BP_VAR_RW || type == BP_VAR_UNSET) {
			zend_throw_error(NULL, "Cannot modify readonly property Async\\Scope::$context");
			return &EG(uninitialized_zval);
		}
		ZVAL_OBJ(rv, async_scope_context_object(s->scope));
		return rv;
	}
	return zend_std_read_property(obj, member, type, cache_slot, rv);
}

static zval *scope_write_property(zend_object *obj, zend_string *member, zval *value, void **cache_slot)
{
	if (is_context_member(member)) {
		zend_throw_error(NULL, "Cannot modify readonly property Async\\Scope::$context");
		return &EG(error_zval);
	}
	return zend_std_write_property(obj, member, value, cache_slot);
}

static zval *scope_get_property_ptr_ptr(zend_object *obj, zend_string *member, int type, void **cache_slot)
{
	if (is_context_member(member)) {
		return NULL; /* through read_property / write_property */
	}
	return zend_std_get_property_ptr_ptr(obj, member, type, cache_slot);
}

static int scope_has_property(zend_object *obj, zend_string *member, int has_set_exists, void **cache_slot)
{
	if (is_context_member(member)) {
		return async_scope_from_obj(obj)->scope != NULL && ASYNC_G(rt) != NULL;
	}
	return zend_std_has_property(obj, member, has_set_exists, cache_slot);
}

static void scope_unset_property(zend_object *obj, zend_string *member, void **cache_slot)
{
	if (is_context_member(member)) {
		zend_throw_error(NULL, "Cannot unset readonly property Async\\Scope::$context");
		return;
	}
	zend_std_unset_property(obj, member, cache_slot);
}

bool async_scope_of_provider(zend_object *provider, tasync_scope_t **out)
{
	*out = NULL;
	if (provider == NULL) {
		return true;
	}
	if (provider->ce == async_ce_scope) {
		*out = async_scope_from_obj(provider)->scope;
		return true;
	}
	zval rv;
	zend_call_method_with_0_params(provider, provider->ce, NULL, "providescope", &rv);
	if (EG(exception)) {
		zval_ptr_dtor(&rv);
		return false;
	}
	if (Z_TYPE(rv) == IS_NULL) {
		return true;
	}
	if (Z_TYPE(rv) != IS_OBJECT || Z_OBJCE(rv) != async_ce_scope) {
		zend_type_error("%s::provideScope(): Return value must be of type ?Async\\Scope, %s returned",
			ZSTR_VAL(provider->ce->name), zend_zval_type_name(&rv));
		zval_ptr_dtor(&rv);
		return false;
	}
	/* The provider keeps its scope alive; borrowed. */
	*out = async_scope_from_obj(Z_OBJ(rv))->scope;
	zval_ptr_dtor(&rv);
	return true;
}

/* ----------------------------------------------------------- handlers */

static int exception_handler_call(void *data, tasync_scope_t *scope, tasync_coroutine_t *co, void *error,
	void **out_error)
{
	async_handler *h = data;
	zval args[3], rv;
	tasync_coroutine_t *cur = ASYNC_G(aborting) ? tasync_coroutine_current(ASYNC_G(rt)) : NULL;
	if (cur != NULL && async_coroutine_aborted(cur)) {
		/* A held error released by the end of a request that is aborting
		 * (S10 after a fatal error): no more user code from before the
		 * abort; the error goes on as if there were no handler. */
		return 1;
	}
	ZVAL_OBJ(&args[0], async_scope_object_for(scope));
	if (co != NULL) {
		ZVAL_OBJ(&args[1], async_coroutine_object_for(co));
	} else {
		ZVAL_NULL(&args[1]);
	}
	ZVAL_OBJ_COPY(&args[2], (zend_object *) error);
	zend_object *thrown = NULL;
	bool ran = async_call_adopting(&h->callable, &rv, 3, args, &thrown);
	zval_ptr_dtor(&rv);
	for (int i = 0; i < 3; i++) {
		zval_ptr_dtor(&args[i]);
	}
	if (thrown != NULL) {
		/* The handler's "throw": the core takes it on to the parent. */
		*out_error = thrown;
		return 1;
	}
	/* Could not run (not on a PHP coroutine, or a fatal error): the error
	 * goes on as if there were no handler. */
	return ran ? 0 : 1;
}

static void exception_handler_release(void *data)
{
	async_handler *h = data;
	/* Called by the core when the handler is replaced or the scope freed. */
	if (ASYNC_G(rt) != NULL) {
		zend_object *obj = tasync_scope_host_data(h->scope);
		if (obj != NULL && async_scope_from_obj(obj)->handlers[h->slot] == h) {
			async_scope_from_obj(obj)->handlers[h->slot] = NULL;
		}
	}
	async_defer_release(&h->callable);
	efree(h);
}

typedef struct after_cancel_call {
	zval *callable;
	zend_object *thrown;
} after_cancel_call;

static int after_cancellation_handler_call(void *data, tasync_scope_t *scope, void *error)
{
	after_cancel_call *call = data;
	zval args[2], rv;
	ZVAL_OBJ_COPY(&args[0], (zend_object *) error);
	ZVAL_OBJ(&args[1], async_scope_object_for(scope));
	bool ran = async_call_from_core(call->callable, &rv, 2, args, &call->thrown);
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
	/* Nonzero stops the wait: the handler threw (or could not run). */
	return call->thrown != NULL || !ran ? 1 : 0;
}

/* ------------------------------------------------------------ methods */

#define THIS_SCOPE() async_scope_from_obj(Z_OBJ_P(ZEND_THIS))

/* True when the scope's runtime is gone (a destructor run by the request's
 * last collection): the scope is finished and closed, its lists empty. */
static bool scope_outlived_runtime(zval *this_zv)
{
	async_scope *s = async_scope_from_obj(Z_OBJ_P(this_zv));
	return s->scope == NULL || ASYNC_G(rt) == NULL || tasync_scope_runtime(s->scope) != ASYNC_G(rt);
}

/* The scope of $this, or NULL with an exception thrown: for what needs a
 * live runtime (spawning, waiting, handlers, the context). What only reads
 * the scope, or asks a finished scope to end, answers after the runtime is
 * gone too (see scope_outlived_runtime). */
static tasync_scope_t *this_scope(zval *this_zv)
{
	if (scope_outlived_runtime(this_zv)) {
		zend_throw_exception(async_ce_async_exception, "The scope belongs to a runtime that no longer exists", 0);
		return NULL;
	}
	return async_scope_from_obj(Z_OBJ_P(this_zv))->scope;
}

static bool refuse_global(async_scope *s, const char *what)
{
	if (s->is_global) {
		zend_throw_exception_ex(async_ce_async_exception, 0,
			"The global scope cannot be %s; use Async\\gracefulShutdown() to end the program's coroutines", what);
		return true;
	}
	return false;
}

ZEND_METHOD(Async_Scope, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_scope *s = THIS_SCOPE();
	if (s->scope != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_scope_t *scope = NULL;
	void *err = NULL;
	int rc = tasync_scope_create(rt, NULL, &scope, &err);
	if (rc != 0) {
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	scope_attach(s, scope, true);
	tasync_scope_release(scope); /* scope_attach took its own */
}

ZEND_METHOD(Async_Scope, inherit)
{
	zend_object *provider = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(provider, async_ce_scope_provider)
	ZEND_PARSE_PARAMETERS_END();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_scope_t *parent = NULL;
	if (!async_scope_of_provider(provider, &parent)) {
		RETURN_THROWS();
	}
	if (parent != NULL && tasync_scope_runtime(parent) != rt) {
		zend_throw_exception(async_ce_async_exception, "The scope belongs to a runtime that no longer exists", 0);
		RETURN_THROWS();
	}
	if (parent == NULL) {
		parent = tasync_scope_current(rt);
	}
	tasync_scope_t *scope = NULL;
	void *err = NULL;
	int rc = tasync_scope_create(rt, parent, &scope, &err);
	if (rc != 0) {
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	object_init_ex(return_value, async_ce_scope);
	scope_attach(async_scope_from_obj(Z_OBJ_P(return_value)), scope, true);
	tasync_scope_release(scope);
}

ZEND_METHOD(Async_Scope, global)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(async_scope_object_for(tasync_scope_global(rt)));
}

ZEND_METHOD(Async_Scope, provideScope)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, spawn)
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
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL) {
		RETURN_THROWS();
	}
	async_spawn_call(return_value, scope, NULL, NULL, &fci, &fcc, args, argc, named);
}

ZEND_METHOD(Async_Scope, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	if (scope_outlived_runtime(ZEND_THIS) && !THIS_SCOPE()->is_global) {
		return; /* finished: nothing left to cancel */
	}
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL || refuse_global(THIS_SCOPE(), "cancelled")) {
		RETURN_THROWS();
	}
	int rc = tasync_scope_cancel(scope, error);
	async_core_call_done(rc, NULL);
}

static void scope_dispose_with(INTERNAL_FUNCTION_PARAMETERS, int strategy, uint64_t timeout_ns)
{
	if (scope_outlived_runtime(ZEND_THIS) && !THIS_SCOPE()->is_global) {
		return; /* finished: disposing it again is a no-op (S7) */
	}
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL || refuse_global(THIS_SCOPE(), "disposed")) {
		RETURN_THROWS();
	}
	void *err = NULL;
	int rc = tasync_scope_dispose(scope, strategy, timeout_ns, &err);
	async_core_call_done(rc, err);
}

ZEND_METHOD(Async_Scope, dispose)
{
	ZEND_PARSE_PARAMETERS_NONE();
	scope_dispose_with(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_DISPOSE_CANCEL, 0);
}

ZEND_METHOD(Async_Scope, disposeSafely)
{
	ZEND_PARSE_PARAMETERS_NONE();
	scope_dispose_with(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_DISPOSE_SAFELY, 0);
}

ZEND_METHOD(Async_Scope, disposeAfterTimeout)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	/* The core checks the range (0 < ms < 10 min) and names it. */
	uint64_t ns = ms <= 0 ? 0
		: (uint64_t) ms >= TASYNC_DISPOSE_TIMEOUT_MAX_NS / 1000000u ? TASYNC_DISPOSE_TIMEOUT_MAX_NS
		: (uint64_t) ms * 1000000u;
	scope_dispose_with(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_DISPOSE_AFTER_TIMEOUT, ns);
}

ZEND_METHOD(Async_Scope, asNotSafely)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!scope_outlived_runtime(ZEND_THIS)) {
		tasync_scope_set_not_safely(THIS_SCOPE()->scope);
	}
	THIS_SCOPE()->allow_zombies = false;
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, allowZombies)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_SCOPE()->allow_zombies = true;
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, awaitCompletion)
{
	zend_object *cancel_obj;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	tasync_awaitable_t *cancellation;
	if (scope == NULL || !async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	GC_ADDREF(cancel_obj);
	void *err = NULL;
	int rc = tasync_scope_await_completion(ASYNC_G(rt), scope, cancellation, &err);
	OBJ_RELEASE(cancel_obj);
	OBJ_RELEASE(self);
	async_switch_done(rc, err);
}

ZEND_METHOD(Async_Scope, awaitAfterCancellation)
{
	zval *handler = NULL;
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	if (ZEND_FCI_INITIALIZED(fci)) {
		handler = &fci.function_name;
	}
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *cancellation;
	if (!async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	zval callable;
	ZVAL_UNDEF(&callable);
	if (handler != NULL) {
		ZVAL_COPY(&callable, handler);
	}
	after_cancel_call call = { &callable, NULL };
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	if (cancel_obj != NULL) {
		GC_ADDREF(cancel_obj);
	}
	void *err = NULL;
	int rc = tasync_scope_await_after_cancellation(ASYNC_G(rt), scope,
		handler != NULL ? after_cancellation_handler_call : NULL, &call, cancellation, &err);
	if (cancel_obj != NULL) {
		OBJ_RELEASE(cancel_obj);
	}
	OBJ_RELEASE(self);
	zval_ptr_dtor(&callable);
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		if (call.thrown != NULL) {
			OBJ_RELEASE(call.thrown);
		}
		RETURN_THROWS();
	}
	async_rethrow_bailout();
	if (call.thrown != NULL) {
		/* The error handler threw: the wait ended with its exception. */
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		zval zv;
		ZVAL_OBJ(&zv, call.thrown);
		zend_throw_exception_object(&zv);
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

static void set_handler(INTERNAL_FUNCTION_PARAMETERS, int slot)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	async_scope *s = THIS_SCOPE();
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL) {
		RETURN_THROWS();
	}
	if (s->is_global) {
		/* Rule S11. */
		zend_throw_exception(async_ce_async_exception, slot == HANDLER_OWN
			? "Cannot set an exception handler on the global scope"
			: "Cannot set a child scope exception handler on the global scope", 0);
		RETURN_THROWS();
	}
	async_handler *h = emalloc(sizeof(*h));
	ZVAL_COPY(&h->callable, &fci.function_name);
	h->scope = scope;
	h->slot = slot;
	int rc = slot == HANDLER_OWN
		? tasync_scope_set_exception_handler(scope, exception_handler_call, h, exception_handler_release)
		: tasync_scope_set_child_exception_handler(scope, exception_handler_call, h, exception_handler_release);
	async_safe_point();
	if (rc != 0) {
		/* The core released h already. */
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	s->handlers[slot] = h;
}

ZEND_METHOD(Async_Scope, setExceptionHandler)
{
	set_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, HANDLER_OWN);
}

ZEND_METHOD(Async_Scope, setChildScopeExceptionHandler)
{
	set_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, HANDLER_CHILDREN);
}

static void scope_on_finally(INTERNAL_FUNCTION_PARAMETERS)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	if (scope_outlived_runtime(ZEND_THIS)) {
		/* The scope is finished, and there is no scheduler left: the
		 * callback runs at once (C11, S12), here. */
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
	tasync_scope_t *scope = THIS_SCOPE()->scope;
	tasync_spawn_options_t opts;
	async_finally_options(&opts, &fci.function_name, NULL, scope);
	int rc = tasync_scope_on_finally(scope, &opts);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Scope, onFinally)
{
	scope_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Scope, finally)
{
	scope_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Scope, getChildScopes)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (scope_outlived_runtime(ZEND_THIS)) {
		RETURN_EMPTY_ARRAY(); /* finished: no child left */
	}
	tasync_scope_t *scope = THIS_SCOPE()->scope;
	size_t n = tasync_scope_children(scope, NULL, 0);
	tasync_scope_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	n = tasync_scope_children(scope, list, n);
	array_init_size(return_value, (uint32_t) n);
	for (size_t i = 0; i < n; i++) {
		add_next_index_object(return_value, async_scope_object_for(list[i]));
	}
	efree(list);
}

ZEND_METHOD(Async_Scope, getCoroutines)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (scope_outlived_runtime(ZEND_THIS)) {
		RETURN_EMPTY_ARRAY(); /* finished: no coroutine left */
	}
	tasync_scope_t *scope = THIS_SCOPE()->scope;
	size_t n = tasync_scope_coroutines(scope, NULL, 0);
	tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	n = tasync_scope_coroutines(scope, list, n);
	array_init_size(return_value, (uint32_t) n);
	for (size_t i = 0; i < n; i++) {
		add_next_index_object(return_value, async_coroutine_object_for(list[i]));
	}
	efree(list);
}

ZEND_METHOD(Async_Scope, getContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_scope_t *scope = this_scope(ZEND_THIS);
	if (scope == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(async_scope_context_object(scope));
}

static uint32_t this_flags(zval *this_zv)
{
	async_scope *s = async_scope_from_obj(Z_OBJ_P(this_zv));
	if (s->scope == NULL || ASYNC_G(rt) == NULL) {
		/* Gone with its runtime: finished and closed. */
		return TASYNC_SCOPE_FINISHED | TASYNC_SCOPE_CLOSED;
	}
	return tasync_scope_flags(s->scope);
}

ZEND_METHOD(Async_Scope, isFinished)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(ZEND_THIS) & TASYNC_SCOPE_FINISHED);
}

ZEND_METHOD(Async_Scope, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(ZEND_THIS) & TASYNC_SCOPE_CLOSED);
}

ZEND_METHOD(Async_Scope, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(ZEND_THIS) & TASYNC_SCOPE_CANCELLED);
}

void async_register_scope_class(void)
{
	async_ce_scope = register_class_Async_Scope(async_ce_scope_provider);
	async_ce_scope->create_object = scope_create;
	memcpy(&scope_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	scope_handlers.offset = XtOffsetOf(async_scope, std);
	scope_handlers.dtor_obj = scope_dtor;
	scope_handlers.free_obj = scope_free;
	scope_handlers.get_gc = scope_get_gc;
	scope_handlers.read_property = scope_read_property;
	scope_handlers.write_property = scope_write_property;
	scope_handlers.get_property_ptr_ptr = scope_get_property_ptr_ptr;
	scope_handlers.has_property = scope_has_property;
	scope_handlers.unset_property = scope_unset_property;
	scope_handlers.clone_obj = NULL;
}
