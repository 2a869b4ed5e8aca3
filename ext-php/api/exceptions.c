/*
 * api/exceptions.c - Async\AsyncException, CancellationError (rule C9: an
 * \Error, not an \Exception), AwaitCancelledException and DeadlockError,
 * and the factory the core uses for the errors the rules require.
 */
#include "api/exceptions.h"

#include "runtime/globals.h"

#include "stubs/exceptions_arginfo.h"

zend_class_entry *async_ce_async_exception;
zend_class_entry *async_ce_cancellation_error;
zend_class_entry *async_ce_await_cancelled;
zend_class_entry *async_ce_deadlock_error;

void async_register_exceptions(void)
{
	async_ce_async_exception = register_class_Async_AsyncException(zend_ce_exception);
	async_ce_cancellation_error = register_class_Async_CancellationError(zend_ce_error);
	async_ce_await_cancelled = register_class_Async_AwaitCancelledException(async_ce_cancellation_error);
	async_ce_deadlock_error = register_class_Async_DeadlockError(zend_ce_error);
}

static zend_class_entry *class_for_kind(int kind)
{
	switch (kind) {
		case TASYNC_ERROR_CANCELLATION: return async_ce_cancellation_error;
		case TASYNC_ERROR_AWAIT_CANCELLED: return async_ce_await_cancelled;
		case TASYNC_ERROR_DEADLOCK: return async_ce_deadlock_error;
		case TASYNC_ERROR_INVALID_ARGUMENT: return zend_ce_value_error;
		default: return async_ce_async_exception;
	}
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
