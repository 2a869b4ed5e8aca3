/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: d33c8589ac3331760877090559d8233940fcbe0a */




static const zend_function_entry class_Async_AsyncException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_CancellationError_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_AwaitCancelledException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_DeadlockError_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_AsyncException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "AsyncException", class_Async_AsyncException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_CancellationError(zend_class_entry *class_entry_Error)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CancellationError", class_Async_CancellationError_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Error);
	zend_register_class_alias("Async\\AsyncCancellation", class_entry);

	return class_entry;
}

static zend_class_entry *register_class_Async_AwaitCancelledException(zend_class_entry *class_entry_Async_CancellationError)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "AwaitCancelledException", class_Async_AwaitCancelledException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_CancellationError);
	zend_register_class_alias("Async\\OperationCanceledException", class_entry);

	return class_entry;
}

static zend_class_entry *register_class_Async_DeadlockError(zend_class_entry *class_entry_Error)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "DeadlockError", class_Async_DeadlockError_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Error);

	return class_entry;
}
