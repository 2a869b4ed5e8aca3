/*
 * timeout.c - Async\Timeout: an Awaitable over the core's timeout
 * (tasync_timeout_create, rule C21). It holds no PHP values.
 */
#include "php_async.h"

#include "zend_interfaces.h"
#include "stubs/timeout_arginfo.h"

zend_class_entry *async_ce_timeout;
static zend_object_handlers timeout_handlers;

static zend_object *timeout_create(zend_class_entry *ce)
{
	async_timeout *t = zend_object_alloc(sizeof(async_timeout), ce);
	t->aw = NULL;
	zend_object_std_init(&t->std, ce);
	object_properties_init(&t->std, ce);
	t->std.handlers = &timeout_handlers;
	return &t->std;
}

static void timeout_free(zend_object *obj)
{
	async_timeout *t = async_timeout_from_obj(obj);
	tasync_awaitable_release(t->aw);
	t->aw = NULL;
	zend_object_std_dtor(obj);
}

/* Arms t for ms milliseconds from now; false with an exception thrown. */
bool async_timeout_init(async_timeout *t, zend_long ms, uint32_t arg_num)
{
	if (ms < 0) {
		zend_argument_value_error(arg_num, "must be greater than or equal to 0");
		return false;
	}
	if (t->aw != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		return false;
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return false;
	}
	int rc = tasync_timeout_create(rt, (uint64_t) ms * 1000000u, &t->aw);
	if (rc != 0) {
		async_throw_error(rc, NULL);
		return false;
	}
	return true;
}

ZEND_METHOD(Async_Timeout, __construct)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	async_timeout_init(async_timeout_from_obj(Z_OBJ_P(ZEND_THIS)), ms, 1);
}

ZEND_METHOD(Async_Timeout, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_timeout *t = async_timeout_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_BOOL(t->aw != NULL && tasync_awaitable_is_completed(t->aw));
}

void async_register_timeout_class(void)
{
	async_ce_timeout = register_class_Async_Timeout(async_ce_awaitable);
	async_ce_timeout->create_object = timeout_create;
	memcpy(&timeout_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	timeout_handlers.offset = XtOffsetOf(async_timeout, std);
	timeout_handlers.free_obj = timeout_free;
	timeout_handlers.clone_obj = NULL;
}
