/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: c465042b2af83c82e9c12641c3ff6db62a5ec4cc */

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

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_signal, 0, 1, Async\\Future, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, signal, Async\\Signal, MAY_BE_LONG, NULL)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Awaitable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_spawn_with, 0, 2, Async\\Coroutine, 0)
	ZEND_ARG_OBJ_INFO(0, provider, Async\\ScopeProvider, 0)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_iterate, 0, 2, IS_VOID, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, iterable, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, concurrency, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, cancelPending, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_runtime_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_currentCoroutine, 0, 0, Async\\Coroutine, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_current_coroutine arginfo_Async_currentCoroutine

#define arginfo_Async_getCoroutines arginfo_Async_runtime_stats

#define arginfo_Async_get_coroutines arginfo_Async_runtime_stats

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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_SpawnStrategy_beforeCoroutineEnqueue, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_OBJ_INFO(0, coroutine, Async\\Coroutine, 0)
	ZEND_ARG_OBJ_INFO(0, scope, Async\\Scope, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_SpawnStrategy_afterCoroutineEnqueue, 0, 2, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, coroutine, Async\\Coroutine, 0)
	ZEND_ARG_OBJ_INFO(0, scope, Async\\Scope, 0)
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
ZEND_FUNCTION(Async_spawn_with);
ZEND_FUNCTION(Async_iterate);
ZEND_FUNCTION(Async_runtime_stats);
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
	ZEND_NS_FALIAS("Async", spawn_with, Async_spawn_with, arginfo_Async_spawn_with)
	ZEND_NS_FALIAS("Async", iterate, Async_iterate, arginfo_Async_iterate)
	ZEND_NS_FALIAS("Async", runtime_stats, Async_runtime_stats, arginfo_Async_runtime_stats)
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


static const zend_function_entry class_Async_Signal_methods[] = {
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


static const zend_function_entry class_Async_SpawnStrategy_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_SpawnStrategy, beforeCoroutineEnqueue, arginfo_class_Async_SpawnStrategy_beforeCoroutineEnqueue, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_SpawnStrategy, afterCoroutineEnqueue, arginfo_class_Async_SpawnStrategy_afterCoroutineEnqueue, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_Signal(void)
{
	zend_class_entry *class_entry = zend_register_internal_enum("Async\\Signal", IS_LONG, class_Async_Signal_methods);

	zval enum_case_SIGHUP_value;
	ZVAL_LONG(&enum_case_SIGHUP_value, 1);
	zend_enum_add_case_cstr(class_entry, "SIGHUP", &enum_case_SIGHUP_value);

	zval enum_case_SIGINT_value;
	ZVAL_LONG(&enum_case_SIGINT_value, 2);
	zend_enum_add_case_cstr(class_entry, "SIGINT", &enum_case_SIGINT_value);

	zval enum_case_SIGQUIT_value;
	ZVAL_LONG(&enum_case_SIGQUIT_value, 3);
	zend_enum_add_case_cstr(class_entry, "SIGQUIT", &enum_case_SIGQUIT_value);

	zval enum_case_SIGILL_value;
	ZVAL_LONG(&enum_case_SIGILL_value, 4);
	zend_enum_add_case_cstr(class_entry, "SIGILL", &enum_case_SIGILL_value);

	zval enum_case_SIGABRT_value;
	ZVAL_LONG(&enum_case_SIGABRT_value, 6);
	zend_enum_add_case_cstr(class_entry, "SIGABRT", &enum_case_SIGABRT_value);

	zval enum_case_SIGFPE_value;
	ZVAL_LONG(&enum_case_SIGFPE_value, 8);
	zend_enum_add_case_cstr(class_entry, "SIGFPE", &enum_case_SIGFPE_value);

	zval enum_case_SIGKILL_value;
	ZVAL_LONG(&enum_case_SIGKILL_value, 9);
	zend_enum_add_case_cstr(class_entry, "SIGKILL", &enum_case_SIGKILL_value);

	zval enum_case_SIGUSR1_value;
	ZVAL_LONG(&enum_case_SIGUSR1_value, 10);
	zend_enum_add_case_cstr(class_entry, "SIGUSR1", &enum_case_SIGUSR1_value);

	zval enum_case_SIGSEGV_value;
	ZVAL_LONG(&enum_case_SIGSEGV_value, 11);
	zend_enum_add_case_cstr(class_entry, "SIGSEGV", &enum_case_SIGSEGV_value);

	zval enum_case_SIGUSR2_value;
	ZVAL_LONG(&enum_case_SIGUSR2_value, 12);
	zend_enum_add_case_cstr(class_entry, "SIGUSR2", &enum_case_SIGUSR2_value);

	zval enum_case_SIGTERM_value;
	ZVAL_LONG(&enum_case_SIGTERM_value, 15);
	zend_enum_add_case_cstr(class_entry, "SIGTERM", &enum_case_SIGTERM_value);

	zval enum_case_SIGBREAK_value;
	ZVAL_LONG(&enum_case_SIGBREAK_value, 21);
	zend_enum_add_case_cstr(class_entry, "SIGBREAK", &enum_case_SIGBREAK_value);

	zval enum_case_SIGABRT2_value;
	ZVAL_LONG(&enum_case_SIGABRT2_value, 22);
	zend_enum_add_case_cstr(class_entry, "SIGABRT2", &enum_case_SIGABRT2_value);

	zval enum_case_SIGWINCH_value;
	ZVAL_LONG(&enum_case_SIGWINCH_value, 28);
	zend_enum_add_case_cstr(class_entry, "SIGWINCH", &enum_case_SIGWINCH_value);

	return class_entry;
}

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

static zend_class_entry *register_class_Async_SpawnStrategy(zend_class_entry *class_entry_Async_ScopeProvider)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "SpawnStrategy", class_Async_SpawnStrategy_methods);
	class_entry = zend_register_internal_interface(&ce);
	zend_class_implements(class_entry, 1, class_entry_Async_ScopeProvider);

	return class_entry;
}
