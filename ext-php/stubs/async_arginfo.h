/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: abaf5e2cf166eb4bb31b01e0b2dcc01c3e70790b */

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_spawn, 0, 1, Async\\Coroutine, 0)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_suspend, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await, 0, 1, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, awaitable, Async\\FutureLike, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_all, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, preserveKeyOrder, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, fillNull, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_all_or_fail, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, preserveKeyOrder, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_any_or_fail, 0, 1, IS_MIXED, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_first_success, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_any_of, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, count, IS_LONG, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, preserveKeyOrder, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, fillNull, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await_any_of_or_fail, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, count, IS_LONG, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, triggers, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, preserveKeyOrder, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_delay, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_sleep arginfo_Async_delay

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_timeout, 0, 1, Async\\Timeout, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_signal, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, signo, IS_LONG, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_currentCoroutine, 0, 0, Async\\Coroutine, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_current_coroutine arginfo_Async_currentCoroutine

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_getCoroutines, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_get_coroutines arginfo_Async_getCoroutines

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_protect, 0, 1, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, closure, Closure, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_gracefulShutdown, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellationError, Async\\CancellationError, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_Async_graceful_shutdown arginfo_Async_gracefulShutdown

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_currentContext, 0, 0, Async\\Context, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_current_context arginfo_Async_currentContext

#define arginfo_Async_coroutineContext arginfo_Async_currentContext

#define arginfo_Async_coroutine_context arginfo_Async_currentContext

#define arginfo_Async_rootContext arginfo_Async_currentContext

#define arginfo_Async_root_context arginfo_Async_currentContext

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_FutureLike_cancel, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\CancellationError, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_FutureLike_isCompleted, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_FutureLike_isCancelled arginfo_class_Async_FutureLike_isCompleted

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_ScopeProvider_provideScope, 0, 0, Async\\Scope, 1)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_spawn);
ZEND_FUNCTION(Async_suspend);
ZEND_FUNCTION(Async_await);
ZEND_FUNCTION(Async_await_all);
ZEND_FUNCTION(Async_await_all_or_fail);
ZEND_FUNCTION(Async_await_any_or_fail);
ZEND_FUNCTION(Async_await_first_success);
ZEND_FUNCTION(Async_await_any_of);
ZEND_FUNCTION(Async_await_any_of_or_fail);
ZEND_FUNCTION(Async_delay);
ZEND_FUNCTION(Async_sleep);
ZEND_FUNCTION(Async_timeout);
ZEND_FUNCTION(Async_signal);
ZEND_FUNCTION(Async_currentCoroutine);
ZEND_FUNCTION(Async_current_coroutine);
ZEND_FUNCTION(Async_getCoroutines);
ZEND_FUNCTION(Async_get_coroutines);
ZEND_FUNCTION(Async_protect);
ZEND_FUNCTION(Async_gracefulShutdown);
ZEND_FUNCTION(Async_graceful_shutdown);
ZEND_FUNCTION(Async_currentContext);
ZEND_FUNCTION(Async_current_context);
ZEND_FUNCTION(Async_coroutineContext);
ZEND_FUNCTION(Async_coroutine_context);
ZEND_FUNCTION(Async_rootContext);
ZEND_FUNCTION(Async_root_context);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async", spawn, Async_spawn, arginfo_Async_spawn)
	ZEND_NS_FALIAS("Async", suspend, Async_suspend, arginfo_Async_suspend)
	ZEND_NS_FALIAS("Async", await, Async_await, arginfo_Async_await)
	ZEND_NS_FALIAS("Async", await_all, Async_await_all, arginfo_Async_await_all)
	ZEND_NS_FALIAS("Async", await_all_or_fail, Async_await_all_or_fail, arginfo_Async_await_all_or_fail)
	ZEND_NS_FALIAS("Async", await_any_or_fail, Async_await_any_or_fail, arginfo_Async_await_any_or_fail)
	ZEND_NS_FALIAS("Async", await_first_success, Async_await_first_success, arginfo_Async_await_first_success)
	ZEND_NS_FALIAS("Async", await_any_of, Async_await_any_of, arginfo_Async_await_any_of)
	ZEND_NS_FALIAS("Async", await_any_of_or_fail, Async_await_any_of_or_fail, arginfo_Async_await_any_of_or_fail)
	ZEND_NS_FALIAS("Async", delay, Async_delay, arginfo_Async_delay)
	ZEND_NS_FALIAS("Async", sleep, Async_sleep, arginfo_Async_sleep)
	ZEND_NS_FALIAS("Async", timeout, Async_timeout, arginfo_Async_timeout)
	ZEND_NS_FALIAS("Async", signal, Async_signal, arginfo_Async_signal)
	ZEND_NS_FALIAS("Async", currentCoroutine, Async_currentCoroutine, arginfo_Async_currentCoroutine)
	ZEND_NS_FALIAS("Async", current_coroutine, Async_current_coroutine, arginfo_Async_current_coroutine)
	ZEND_NS_FALIAS("Async", getCoroutines, Async_getCoroutines, arginfo_Async_getCoroutines)
	ZEND_NS_FALIAS("Async", get_coroutines, Async_get_coroutines, arginfo_Async_get_coroutines)
	ZEND_NS_FALIAS("Async", protect, Async_protect, arginfo_Async_protect)
	ZEND_NS_FALIAS("Async", gracefulShutdown, Async_gracefulShutdown, arginfo_Async_gracefulShutdown)
	ZEND_NS_FALIAS("Async", graceful_shutdown, Async_graceful_shutdown, arginfo_Async_graceful_shutdown)
	ZEND_NS_FALIAS("Async", currentContext, Async_currentContext, arginfo_Async_currentContext)
	ZEND_NS_FALIAS("Async", current_context, Async_current_context, arginfo_Async_current_context)
	ZEND_NS_FALIAS("Async", coroutineContext, Async_coroutineContext, arginfo_Async_coroutineContext)
	ZEND_NS_FALIAS("Async", coroutine_context, Async_coroutine_context, arginfo_Async_coroutine_context)
	ZEND_NS_FALIAS("Async", rootContext, Async_rootContext, arginfo_Async_rootContext)
	ZEND_NS_FALIAS("Async", root_context, Async_root_context, arginfo_Async_root_context)
	ZEND_FE_END
};


static const zend_function_entry class_Async_Awaitable_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_FutureLike_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_FutureLike, cancel, arginfo_class_Async_FutureLike_cancel, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_FutureLike, isCompleted, arginfo_class_Async_FutureLike_isCompleted, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_FutureLike, isCancelled, arginfo_class_Async_FutureLike_isCancelled, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_Async_ScopeProvider_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_ScopeProvider, provideScope, arginfo_class_Async_ScopeProvider_provideScope, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_Awaitable(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "Awaitable", class_Async_Awaitable_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_Async_FutureLike(zend_class_entry *class_entry_Async_Awaitable)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "FutureLike", class_Async_FutureLike_methods);
	class_entry = zend_register_internal_interface(&ce);
	zend_class_implements(class_entry, 1, class_entry_Async_Awaitable);
	zend_register_class_alias("Async\\Completable", class_entry);

	return class_entry;
}

static zend_class_entry *register_class_Async_ScopeProvider(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ScopeProvider", class_Async_ScopeProvider_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}
