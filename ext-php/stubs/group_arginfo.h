/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 709935aa1f26de5a9964ba20186497c1c2c584ec */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Async_TaskGroup___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, concurrency, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_TaskGroup_spawn, 0, 1, Async\\Coroutine, 0)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_TaskGroup_spawnWithKey, 0, 2, Async\\Coroutine, 0)
	ZEND_ARG_TYPE_MASK(0, key, MAY_BE_STRING|MAY_BE_LONG, NULL)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_TaskGroup_all, 0, 0, Async\\Future, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_TaskGroup_race arginfo_class_Async_TaskGroup_all

#define arginfo_class_Async_TaskGroup_any arginfo_class_Async_TaskGroup_all

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_TaskGroup_getIterator, 0, 0, Iterator, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_TaskGroup_cancel, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellationError, Async\\CancellationError, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_TaskGroup_dispose, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_TaskGroup_getScope, 0, 0, Async\\Scope, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_TaskGroup_provideScope arginfo_class_Async_TaskGroup_getScope

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_TaskGroup_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Async_TaskGroup, __construct);
ZEND_METHOD(Async_TaskGroup, spawn);
ZEND_METHOD(Async_TaskGroup, spawnWithKey);
ZEND_METHOD(Async_TaskGroup, all);
ZEND_METHOD(Async_TaskGroup, race);
ZEND_METHOD(Async_TaskGroup, any);
ZEND_METHOD(Async_TaskGroup, getIterator);
ZEND_METHOD(Async_TaskGroup, cancel);
ZEND_METHOD(Async_TaskGroup, dispose);
ZEND_METHOD(Async_TaskGroup, getScope);
ZEND_METHOD(Async_TaskGroup, provideScope);
ZEND_METHOD(Async_TaskGroup, count);


static const zend_function_entry class_Async_TaskGroup_methods[] = {
	ZEND_ME(Async_TaskGroup, __construct, arginfo_class_Async_TaskGroup___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, spawn, arginfo_class_Async_TaskGroup_spawn, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, spawnWithKey, arginfo_class_Async_TaskGroup_spawnWithKey, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, all, arginfo_class_Async_TaskGroup_all, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, race, arginfo_class_Async_TaskGroup_race, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, any, arginfo_class_Async_TaskGroup_any, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, getIterator, arginfo_class_Async_TaskGroup_getIterator, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, cancel, arginfo_class_Async_TaskGroup_cancel, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, dispose, arginfo_class_Async_TaskGroup_dispose, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, getScope, arginfo_class_Async_TaskGroup_getScope, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, provideScope, arginfo_class_Async_TaskGroup_provideScope, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_TaskGroup, count, arginfo_class_Async_TaskGroup_count, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_TaskGroup(zend_class_entry *class_entry_IteratorAggregate, zend_class_entry *class_entry_Countable, zend_class_entry *class_entry_Async_ScopeProvider)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "TaskGroup", class_Async_TaskGroup_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 3, class_entry_IteratorAggregate, class_entry_Countable, class_entry_Async_ScopeProvider);

	return class_entry;
}
