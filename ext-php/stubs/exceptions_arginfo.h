/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 05c80535795fd7b5d76a86d0ccc63c221e09bb6b */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CompositeException_addException, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, exception, Throwable, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CompositeException_getExceptions, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Async_CompositeException, addException);
ZEND_METHOD(Async_CompositeException, getExceptions);


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


static const zend_function_entry class_Async_TimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ChannelCloseReason_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ChannelException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_PoolException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ServiceUnavailableException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_CompositeException_methods[] = {
	ZEND_ME(Async_CompositeException, addException, arginfo_class_Async_CompositeException_addException, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_CompositeException, getExceptions, arginfo_class_Async_CompositeException_getExceptions, ZEND_ACC_PUBLIC)
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

static zend_class_entry *register_class_Async_TimeoutException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "TimeoutException", class_Async_TimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_ChannelCloseReason(void)
{
	zend_class_entry *class_entry = zend_register_internal_enum("Async\\ChannelCloseReason", IS_STRING, class_Async_ChannelCloseReason_methods);

	zval enum_case_EXPLICIT_value;
	zend_string *enum_case_EXPLICIT_value_str = zend_string_init("explicit", strlen("explicit"), 1);
	ZVAL_STR(&enum_case_EXPLICIT_value, enum_case_EXPLICIT_value_str);
	zend_enum_add_case_cstr(class_entry, "EXPLICIT", &enum_case_EXPLICIT_value);

	zval enum_case_DISPOSED_value;
	zend_string *enum_case_DISPOSED_value_str = zend_string_init("disposed", strlen("disposed"), 1);
	ZVAL_STR(&enum_case_DISPOSED_value, enum_case_DISPOSED_value_str);
	zend_enum_add_case_cstr(class_entry, "DISPOSED", &enum_case_DISPOSED_value);

	zval enum_case_NO_PRODUCERS_value;
	zend_string *enum_case_NO_PRODUCERS_value_str = zend_string_init("no producers timeout", strlen("no producers timeout"), 1);
	ZVAL_STR(&enum_case_NO_PRODUCERS_value, enum_case_NO_PRODUCERS_value_str);
	zend_enum_add_case_cstr(class_entry, "NO_PRODUCERS", &enum_case_NO_PRODUCERS_value);

	zval enum_case_NO_CONSUMERS_value;
	zend_string *enum_case_NO_CONSUMERS_value_str = zend_string_init("no consumers timeout", strlen("no consumers timeout"), 1);
	ZVAL_STR(&enum_case_NO_CONSUMERS_value, enum_case_NO_CONSUMERS_value_str);
	zend_enum_add_case_cstr(class_entry, "NO_CONSUMERS", &enum_case_NO_CONSUMERS_value);

	zval enum_case_DEADLOCK_value;
	zend_string *enum_case_DEADLOCK_value_str = zend_string_init("deadlock", strlen("deadlock"), 1);
	ZVAL_STR(&enum_case_DEADLOCK_value, enum_case_DEADLOCK_value_str);
	zend_enum_add_case_cstr(class_entry, "DEADLOCK", &enum_case_DEADLOCK_value);

	zval enum_case_SCOPE_DISPOSED_value;
	zend_string *enum_case_SCOPE_DISPOSED_value_str = zend_string_init("scope disposed", strlen("scope disposed"), 1);
	ZVAL_STR(&enum_case_SCOPE_DISPOSED_value, enum_case_SCOPE_DISPOSED_value_str);
	zend_enum_add_case_cstr(class_entry, "SCOPE_DISPOSED", &enum_case_SCOPE_DISPOSED_value);

	return class_entry;
}

static zend_class_entry *register_class_Async_ChannelException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ChannelException", class_Async_ChannelException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	zend_string *property_reason_class_Async_ChannelCloseReason = zend_string_init("Async\\ChannelCloseReason", sizeof("Async\\ChannelCloseReason")-1, 1);
	zval property_reason_default_value;
	ZVAL_UNDEF(&property_reason_default_value);
	zend_string *property_reason_name = zend_string_init("reason", sizeof("reason") - 1, 1);
	zend_declare_typed_property(class_entry, property_reason_name, &property_reason_default_value, ZEND_ACC_PUBLIC, NULL, (zend_type) ZEND_TYPE_INIT_CLASS(property_reason_class_Async_ChannelCloseReason, 0, 0));
	zend_string_release(property_reason_name);

	return class_entry;
}

static zend_class_entry *register_class_Async_PoolException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "PoolException", class_Async_PoolException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_ServiceUnavailableException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ServiceUnavailableException", class_Async_ServiceUnavailableException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_CompositeException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CompositeException", class_Async_CompositeException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES;

	zval property_exceptions_default_value;
	ZVAL_EMPTY_ARRAY(&property_exceptions_default_value);
	zend_string *property_exceptions_name = zend_string_init("exceptions", sizeof("exceptions") - 1, 1);
	zend_declare_typed_property(class_entry, property_exceptions_name, &property_exceptions_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_exceptions_name);

	return class_entry;
}
