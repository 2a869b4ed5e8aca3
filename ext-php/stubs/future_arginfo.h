/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 360d8533c9659938578d3d8f7458b7ea15d3b597 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Async_Future___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Future_cancel, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellationError, Async\\CancellationError, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Future_isCompleted, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_Future_isCancelled arginfo_class_Async_Future_isCompleted


ZEND_METHOD(Async_Future, __construct);
ZEND_METHOD(Async_Future, cancel);
ZEND_METHOD(Async_Future, isCompleted);
ZEND_METHOD(Async_Future, isCancelled);


static const zend_function_entry class_Async_Future_methods[] = {
	ZEND_ME(Async_Future, __construct, arginfo_class_Async_Future___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Async_Future, cancel, arginfo_class_Async_Future_cancel, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Future, isCompleted, arginfo_class_Async_Future_isCompleted, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Future, isCancelled, arginfo_class_Async_Future_isCancelled, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_Future(zend_class_entry *class_entry_Async_FutureLike)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "Future", class_Async_Future_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_Async_FutureLike);

	return class_entry;
}
