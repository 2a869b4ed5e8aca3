/*
 * api/functions.c - the functions of the Async namespace and the
 * registration of the Awaitable / FutureLike interfaces (what stands behind
 * them is api/awaitable.c's). Every function maps onto one or a few calls of
 * the core's C ABI; the rules they follow (C1-C6, C21) are the core's.
 * The await_*() combinators are in api/await_many.c.
 */
#include "api/functions.h"

#include "api/awaitable.h"
#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/scope.h"
#include "api/spawn.h"
#include "api/timeout.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_closures.h"
#include "zend_enum.h"
#include "zend_interfaces.h"
#include "stubs/async_arginfo.h"

const zend_function_entry *async_functions = ext_functions;
zend_class_entry *async_ce_signal;

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
	async_ce_spawn_strategy = register_class_Async_SpawnStrategy(async_ce_scope_provider);
	async_ce_signal = register_class_Async_Signal();
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

/* $strategy->$method($coroutine, $scope): false with its exception thrown. */
static bool strategy_hook(zend_object *strategy, const char *method, zval *coroutine, zval *scope)
{
	zval rv;
	zend_call_method(strategy, strategy->ce, NULL, method, strlen(method), &rv, 2, coroutine, scope);
	zval_ptr_dtor(&rv);
	return !EG(exception);
}

PHP_FUNCTION(Async_spawn_with)
{
	zend_object *provider;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args = NULL;
	uint32_t argc = 0;
	HashTable *named = NULL;

	ZEND_PARSE_PARAMETERS_START(2, -1)
		Z_PARAM_OBJ_OF_CLASS(provider, async_ce_scope_provider)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
	ZEND_PARSE_PARAMETERS_END();

	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	/* The scope it provides, held until the coroutine is spawned (a
	 * provider may hand out a Scope nobody else holds). */
	zval provided;
	ZVAL_UNDEF(&provided);
	tasync_scope_t *scope = NULL;
	if (provider->ce == async_ce_scope) {
		ZVAL_OBJ_COPY(&provided, provider);
	} else {
		zend_call_method_with_0_params(provider, provider->ce, NULL, "providescope", &provided);
		if (EG(exception)) {
			zval_ptr_dtor(&provided);
			RETURN_THROWS();
		}
		if (Z_TYPE(provided) != IS_NULL && (Z_TYPE(provided) != IS_OBJECT || Z_OBJCE(provided) != async_ce_scope)) {
			zend_type_error("%s::provideScope(): Return value must be of type ?Async\\Scope, %s returned",
				ZSTR_VAL(provider->ce->name), zend_zval_type_name(&provided));
			zval_ptr_dtor(&provided);
			RETURN_THROWS();
		}
	}
	if (Z_TYPE(provided) == IS_OBJECT) {
		scope = async_scope_from_obj(Z_OBJ(provided))->scope;
		if (scope == NULL || tasync_scope_runtime(scope) != rt) {
			zval_ptr_dtor(&provided);
			zend_throw_exception(async_ce_async_exception, "The scope belongs to a runtime that no longer exists", 0);
			RETURN_THROWS();
		}
	}
	async_spawn_call(return_value, scope, NULL, NULL, &fci, &fcc, args, argc, named);
	if (Z_TYPE_P(return_value) != IS_OBJECT || !instanceof_function(provider->ce, async_ce_spawn_strategy)) {
		zval_ptr_dtor(&provided);
		return;
	}
	/* The coroutine is queued and starts when the caller suspends (C1):
	 * the hooks run before that. */
	zval scope_zv;
	if (Z_TYPE(provided) == IS_OBJECT) {
		ZVAL_COPY(&scope_zv, &provided);
	} else {
		ZVAL_OBJ(&scope_zv, async_scope_object_for(tasync_coroutine_scope(async_coroutine_obj_from(Z_OBJ_P(return_value))->co)));
	}
	if (!strategy_hook(provider, "beforeCoroutineEnqueue", return_value, &scope_zv)) {
		/* It never starts (C7). */
		tasync_coroutine_cancel(async_coroutine_obj_from(Z_OBJ_P(return_value))->co, NULL);
		async_safe_point();
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	} else if (!strategy_hook(provider, "afterCoroutineEnqueue", return_value, &scope_zv)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
	zval_ptr_dtor(&scope_zv);
	zval_ptr_dtor(&provided);
}

PHP_FUNCTION(Async_runtime_stats)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_long total = 0, zombie = 0, queued = 0, suspended = 0;
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	if (rt != NULL) {
		size_t n = tasync_runtime_coroutines(rt, NULL, 0);
		tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
		n = tasync_runtime_coroutines(rt, list, n);
		for (size_t i = 0; i < n; i++) {
			uint32_t flags = tasync_coroutine_flags(list[i]);
			total++;
			zombie += (flags & TASYNC_CO_ZOMBIE) ? 1 : 0;
			queued += (flags & TASYNC_CO_QUEUED) ? 1 : 0;
			suspended += (flags & TASYNC_CO_SUSPENDED) && !(flags & TASYNC_CO_QUEUED) ? 1 : 0;
		}
		efree(list);
	}
	array_init(return_value);
	add_assoc_long(return_value, "coroutines_total", total);
	add_assoc_long(return_value, "coroutines_active", total - zombie);
	add_assoc_long(return_value, "coroutines_queued", queued);
	add_assoc_long(return_value, "coroutines_suspended", suspended);
	add_assoc_long(return_value, "coroutines_zombie", zombie);
	add_assoc_long(return_value, "fiber_stack_size", ASYNC_G(stack_size) > 0 ? ASYNC_G(stack_size) : 256 * 1024);
	add_assoc_long(return_value, "fiber_pool_min", ASYNC_G(stack_cache));
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
	async_switch_done(rc, err);
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
	async_await_object(rt, what_obj, what, cancel_obj, cancellation, return_value);
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
	async_switch_done(rc, err);
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
