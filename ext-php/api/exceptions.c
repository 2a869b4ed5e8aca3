/*
 * api/exceptions.c - Async\AsyncException, CancellationError (rule C9: an
 * \Error, not an \Exception), AwaitCancelledException and DeadlockError;
 * the toolkit's TimeoutException, ChannelException (with its
 * ChannelCloseReason), PoolException, ServiceUnavailableException and
 * CompositeException; and the factory the core uses for the errors the
 * rules require.
 */
#include "api/exceptions.h"

#include "runtime/globals.h"

#include "zend_enum.h"
#include "stubs/exceptions_arginfo.h"

zend_class_entry *async_ce_async_exception;
zend_class_entry *async_ce_cancellation_error;
zend_class_entry *async_ce_await_cancelled;
zend_class_entry *async_ce_deadlock_error;
zend_class_entry *async_ce_timeout_exception;
zend_class_entry *async_ce_channel_close_reason;
zend_class_entry *async_ce_channel_exception;
zend_class_entry *async_ce_pool_exception;
zend_class_entry *async_ce_service_unavailable;
zend_class_entry *async_ce_composite_exception;

void async_register_exceptions(void)
{
	async_ce_async_exception = register_class_Async_AsyncException(zend_ce_exception);
	async_ce_cancellation_error = register_class_Async_CancellationError(zend_ce_error);
	async_ce_await_cancelled = register_class_Async_AwaitCancelledException(async_ce_cancellation_error);
	async_ce_deadlock_error = register_class_Async_DeadlockError(zend_ce_error);
	async_ce_timeout_exception = register_class_Async_TimeoutException(zend_ce_exception);
	async_ce_channel_close_reason = register_class_Async_ChannelCloseReason();
	async_ce_channel_exception = register_class_Async_ChannelException(async_ce_async_exception);
	async_ce_pool_exception = register_class_Async_PoolException(async_ce_async_exception);
	async_ce_service_unavailable = register_class_Async_ServiceUnavailableException(async_ce_async_exception);
	async_ce_composite_exception = register_class_Async_CompositeException(zend_ce_exception);
}

/* ------------------------------------------------- CompositeException */

/* The private $exceptions list (declared by the stub, [] by default). */
static zval *composite_list(zend_object *obj)
{
	zval rv;
	zval *list = zend_read_property(async_ce_composite_exception, obj, "exceptions", sizeof("exceptions") - 1, 1, &rv);
	ZVAL_DEREF(list);
	return list;
}

static void composite_add(zend_object *obj, zend_object *error)
{
	zval list;
	zval *cur = composite_list(obj);
	if (Z_TYPE_P(cur) == IS_ARRAY) {
		ZVAL_ARR(&list, zend_array_dup(Z_ARRVAL_P(cur)));
	} else {
		array_init(&list);
	}
	zval zv;
	ZVAL_OBJ_COPY(&zv, error);
	zend_hash_next_index_insert_new(Z_ARRVAL(list), &zv);
	zend_update_property(async_ce_composite_exception, obj, "exceptions", sizeof("exceptions") - 1, &list);
	zval_ptr_dtor(&list);
}

ZEND_METHOD(Async_CompositeException, addException)
{
	zend_object *error;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(error, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();
	composite_add(Z_OBJ_P(ZEND_THIS), error);
}

ZEND_METHOD(Async_CompositeException, getExceptions)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval *list = composite_list(Z_OBJ_P(ZEND_THIS));
	if (Z_TYPE_P(list) != IS_ARRAY) {
		RETURN_EMPTY_ARRAY();
	}
	RETURN_COPY(list);
}

static zend_class_entry *class_for_kind(int kind)
{
	switch (kind) {
		case TASYNC_ERROR_CANCELLATION: return async_ce_cancellation_error;
		case TASYNC_ERROR_AWAIT_CANCELLED: return async_ce_await_cancelled;
		case TASYNC_ERROR_DEADLOCK: return async_ce_deadlock_error;
		case TASYNC_ERROR_INVALID_ARGUMENT: return zend_ce_value_error;
		case TASYNC_ERROR_TIMEOUT: return async_ce_timeout_exception;
		case TASYNC_ERROR_CHANNEL: return async_ce_channel_exception;
		case TASYNC_ERROR_POOL: return async_ce_pool_exception;
		case TASYNC_ERROR_SERVICE_UNAVAILABLE: return async_ce_service_unavailable;
		default: return async_ce_async_exception;
	}
}

/*
 * A closed channel's error: the core names the reason between the last
 * parentheses of its message (channel.h's reasons, spelled as
 * ChannelCloseReason's values); the exception carries it as $reason and
 * says it in a sentence of its own.
 */
static const struct {
	const char *value;   /* ChannelCloseReason's backing value */
	const char *name;    /* its case */
	const char *message;
} channel_reasons[] = {
	{ "explicit", "EXPLICIT", "Channel is closed" },
	{ "disposed", "DISPOSED", "Channel disposed" },
	{ "no producers timeout", "NO_PRODUCERS", "Channel deadlock: no producers" },
	{ "no consumers timeout", "NO_CONSUMERS", "Channel deadlock: no consumers" },
	{ "deadlock", "DEADLOCK", "Channel deadlock" },
	{ "scope disposed", "SCOPE_DISPOSED", "Channel closed: owner scope disposed" },
};

static size_t channel_reason_of(const char *message)
{
	const char *open = strrchr(message, '(');
	const char *close = open != NULL ? strchr(open, ')') : NULL;
	if (close != NULL) {
		size_t len = (size_t) (close - open - 1);
		for (size_t i = 0; i < sizeof(channel_reasons) / sizeof(channel_reasons[0]); i++) {
			if (strlen(channel_reasons[i].value) == len && memcmp(open + 1, channel_reasons[i].value, len) == 0) {
				return i;
			}
		}
	}
	return 0;
}

static void set_message(zend_object *obj, const char *message, zend_long code)
{
	zend_class_entry *base = zend_get_exception_base(obj);
	zval tmp;
	ZVAL_STRING(&tmp, message);
	zend_update_property_ex(base, obj, ZSTR_KNOWN(ZEND_STR_MESSAGE), &tmp);
	zval_ptr_dtor(&tmp);
	if (code != 0) {
		ZVAL_LONG(&tmp, code);
		zend_update_property_ex(base, obj, ZSTR_KNOWN(ZEND_STR_CODE), &tmp);
	}
}

/*
 * Where a DeadlockError points: the first coroutine found waiting (the main
 * coroutine first, then by id), as the core lists them in its report.
 */
static bool deadlock_location(tasync_location_t *out)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *list[64];
	size_t n = rt != NULL ? tasync_runtime_coroutines(rt, list, 64) : 0;
	for (size_t i = 0; i < n && i < 64; i++) {
		tasync_wait_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (tasync_coroutine_wait_info(list[i], &info) != 0) {
			continue;
		}
		if (info.kind == TASYNC_WAIT_NONE || info.kind == TASYNC_WAIT_YIELD || info.kind == TASYNC_WAIT_END) {
			continue;
		}
		*out = tasync_coroutine_suspend_location(list[i]);
		return out->file != NULL;
	}
	return false;
}

zend_object *async_error_create(int kind, int code, const char *message)
{
	if (kind == TASYNC_ERROR_DEADLOCK) {
		/* Made by the scheduler, which found every coroutine waiting: it
		 * points at the first waiter and has no trace of its own. */
		tasync_location_t loc;
		if (deadlock_location(&loc)) {
			zend_string *file = zend_string_init(loc.file, strlen(loc.file), 0);
			zend_object *ex = async_error_create_at(async_ce_deadlock_error, message, file, loc.line);
			zend_string_release(file);
			return ex;
		}
	}
	zval ex;
	object_init_ex(&ex, class_for_kind(kind));
	if (kind == TASYNC_ERROR_CHANNEL) {
		size_t i = channel_reason_of(message);
		set_message(Z_OBJ(ex), channel_reasons[i].message, 0);
		zval reason;
		ZVAL_OBJ_COPY(&reason, zend_enum_get_case_cstr(async_ce_channel_close_reason, channel_reasons[i].name));
		zend_update_property(async_ce_channel_exception, Z_OBJ(ex), "reason", sizeof("reason") - 1, &reason);
		zval_ptr_dtor(&reason);
		return Z_OBJ(ex);
	}
	if (kind == TASYNC_ERROR_POOL && code == TASYNC_EPOOL_CLOSED) {
		message = "Pool is closed";
	} else if (kind == TASYNC_ERROR_SERVICE_UNAVAILABLE) {
		message = "Service is unavailable (circuit breaker is open)";
	}
	/* Operating-system errors carry the errno as their code. */
	set_message(Z_OBJ(ex), message, kind == TASYNC_ERROR_SYSTEM && code < 0 && !TASYNC_IS_PROJECT_ERROR(code) ? -code : 0);
	return Z_OBJ(ex);
}

zend_object *async_error_create_at(zend_class_entry *ce, const char *message, zend_string *file, zend_long line)
{
	zval ex, tmp;
	/* Without a current frame the object gets an empty trace: what it
	 * reports happened between coroutines, not in the caller's stack. */
	zend_execute_data *saved = EG(current_execute_data);
	EG(current_execute_data) = NULL;
	object_init_ex(&ex, ce);
	EG(current_execute_data) = saved;
	set_message(Z_OBJ(ex), message, 0);
	zend_class_entry *base = zend_get_exception_base(Z_OBJ(ex));
	if (file != NULL) {
		ZVAL_STR_COPY(&tmp, file);
		zend_update_property_ex(base, Z_OBJ(ex), ZSTR_KNOWN(ZEND_STR_FILE), &tmp);
		zval_ptr_dtor(&tmp);
		ZVAL_LONG(&tmp, line);
		zend_update_property_ex(base, Z_OBJ(ex), ZSTR_KNOWN(ZEND_STR_LINE), &tmp);
	}
	return Z_OBJ(ex);
}

zend_object *async_composite_create(const char *message, zend_object **errors, size_t n)
{
	zval ex;
	object_init_ex(&ex, async_ce_composite_exception);
	set_message(Z_OBJ(ex), message, 0);
	for (size_t i = 0; i < n; i++) {
		composite_add(Z_OBJ(ex), errors[i]);
	}
	return Z_OBJ(ex);
}
