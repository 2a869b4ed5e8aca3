/*
 * api/context.c - Async\Context (rules X1 and X2) over the core's contexts
 * (api/include/tasync/context.h), and currentContext(), coroutineContext(),
 * rootContext().
 *
 * A Context object stands for a scope's context (it holds the scope), a
 * coroutine's private one (it holds the Coroutine object), one object per
 * context while it lives, or a free-standing context made by new Context()
 * (no parent: it sees only its own keys). Values are boxed PHP values the
 * context retains; object keys are the objects themselves (tagged
 * pointers, see php_async.h), so the slot is reachable only through the
 * object. Keys are strings or objects, nothing else (X1): an int key is a
 * TypeError even in coercive mode, not the string it would convert to.
 */
#include "api/context.h"

#include "api/coroutine.h"
#include "api/exceptions.h"
#include "api/scope_holds.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"
#include "zend_weakrefs.h"
#include "stubs/context_arginfo.h"

zend_class_entry *async_ce_context;
static zend_object_handlers context_handlers;

static zend_object *context_create(zend_class_entry *ce)
{
	async_context *c = zend_object_alloc(sizeof(async_context), ce);
	c->scope = NULL;
	c->is_global = false;
	c->coroutine = NULL;
	c->own = NULL;
	zend_object_std_init(&c->std, ce);
	object_properties_init(&c->std, ce);
	c->std.handlers = &context_handlers;
	return &c->std;
}

static void context_free(zend_object *obj)
{
	async_context *c = async_context_from_obj(obj);
	if (c->own != NULL) {
		/* Its values are released with it (or were, with the runtime). */
		tasync_context_release(c->own);
		c->own = NULL;
	}
	if (c->coroutine != NULL) {
		async_coroutine_obj *co = async_coroutine_obj_from(c->coroutine);
		if (co->context == obj) {
			co->context = NULL;
		}
		OBJ_RELEASE(c->coroutine);
		c->coroutine = NULL;
	}
	if (c->scope != NULL) {
		if (ASYNC_G(rt) != NULL) {
			zend_object **slot = async_scope_context_slot(c->scope);
			if (slot != NULL && *slot == obj) {
				*slot = NULL;
			}
			async_scope_unhold(c->scope);
		}
		/* After the runtime went, only a root or child scope survives (detached). */
		if (!c->is_global) {
			tasync_scope_release(c->scope);
		}
		c->scope = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/* The Coroutine object it holds: the collector follows that edge. The
 * values of a scope's context are reported by the Scope object (api/scope.c);
 * those of a free-standing context by its only holder, this object. */
static HashTable *context_get_gc(zend_object *obj, zval **table, int *num)
{
	async_context *c = async_context_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (c->coroutine != NULL) {
		zend_get_gc_buffer_add_obj(buf, c->coroutine);
	}
	if (c->own != NULL && ASYNC_G(rt) != NULL) {
		async_context_gc(c->own, buf);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

zend_object *async_scope_context_object(tasync_scope_t *scope)
{
	zend_object **slot = async_scope_context_slot(scope);
	if (slot != NULL && *slot != NULL) {
		GC_ADDREF(*slot);
		return *slot;
	}
	zval zv;
	object_init_ex(&zv, async_ce_context);
	async_context *c = async_context_from_obj(Z_OBJ(zv));
	c->scope = scope;
	c->is_global = (tasync_scope_flags(scope) & TASYNC_SCOPE_GLOBAL) != 0;
	if (!c->is_global) {
		tasync_scope_retain(scope);
	}
	async_scope_hold(scope);
	slot = async_scope_context_slot(scope);
	if (slot != NULL) {
		*slot = Z_OBJ(zv);
	}
	return Z_OBJ(zv);
}

zend_object *async_context_for_coroutine(zend_object *coroutine)
{
	async_coroutine_obj *co = async_coroutine_obj_from(coroutine);
	if (co->context != NULL) {
		GC_ADDREF(co->context);
		return co->context;
	}
	zval zv;
	object_init_ex(&zv, async_ce_context);
	async_context *c = async_context_from_obj(Z_OBJ(zv));
	c->coroutine = coroutine;
	GC_ADDREF(coroutine);
	co->context = Z_OBJ(zv);
	co->has_context = true;
	return Z_OBJ(zv);
}

static void gc_entry(void *data, const tasync_context_key_t *key, void *value)
{
	zend_get_gc_buffer *buf = data;
	if (key->object != NULL) {
		zend_get_gc_buffer_add_obj(buf, ASYNC_KEY_OBJECT(key->object));
	}
	if (value != NULL && async_value_refs(value) == 1) {
		zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
	}
}

void async_context_gc(tasync_context_t *ctx, zend_get_gc_buffer *buf)
{
	if (ctx != NULL) {
		tasync_context_foreach(ctx, gc_entry, buf);
	}
}

/* ------------------------------------------------------------ methods */

/* The core context, or NULL with an exception thrown. */
static tasync_context_t *this_context(zval *this_zv)
{
	async_context *c = async_context_from_obj(Z_OBJ_P(this_zv));
	tasync_context_t *ctx = NULL;
	if (ASYNC_G(rt) != NULL) {
		if (c->own != NULL) {
			ctx = c->own;
		} else if (c->scope != NULL) {
			ctx = tasync_scope_context(c->scope);
		} else if (c->coroutine != NULL) {
			async_coroutine_obj *co = async_coroutine_obj_from(c->coroutine);
			ctx = co->co != NULL ? tasync_coroutine_context(co->co) : NULL;
		}
	}
	if (ctx == NULL) {
		zend_throw_exception(async_ce_async_exception, "The context belongs to a runtime that no longer exists", 0);
	}
	return ctx;
}

static void make_key(tasync_context_key_t *key, zend_object *obj, zend_string *str)
{
	if (obj != NULL) {
		key->object = ASYNC_OBJECT_KEY(obj);
		key->str = NULL;
		key->len = 0;
	} else {
		key->object = NULL;
		key->str = ZSTR_VAL(str);
		key->len = ZSTR_LEN(str);
	}
}

/* Rule X1: a key is a string or an object, in coercive mode too (an int
 * or a float would silently become another key than the caller meant). */
static bool key_of(zval *zkey, zend_object **obj, zend_string **str)
{
	if (Z_TYPE_P(zkey) == IS_OBJECT) {
		*obj = Z_OBJ_P(zkey);
		return true;
	}
	if (Z_TYPE_P(zkey) == IS_STRING) {
		*str = Z_STR_P(zkey);
		return true;
	}
	zend_argument_type_error(1, "must be of type object|string, %s given", zend_zval_type_name(zkey));
	return false;
}

#define KEY_PARAM() \
	zval *zkey; \
	zend_object *key_obj = NULL; \
	zend_string *key_str = NULL; \
	ZEND_PARSE_PARAMETERS_START(1, 1) \
		Z_PARAM_ZVAL(zkey) \
	ZEND_PARSE_PARAMETERS_END(); \
	if (!key_of(zkey, &key_obj, &key_str)) { \
		RETURN_THROWS(); \
	} \
	tasync_context_t *ctx = this_context(ZEND_THIS); \
	if (ctx == NULL) { \
		RETURN_THROWS(); \
	} \
	tasync_context_key_t key; \
	make_key(&key, key_obj, key_str)

/* find/get and their local forms: the stored value, a WeakReference
 * dereferenced when deref (X1); null when the key is missing. */
static void context_read(INTERNAL_FUNCTION_PARAMETERS, bool local, bool deref)
{
	KEY_PARAM();
	void *value = NULL;
	if (!tasync_context_find(ctx, &key, local ? 1 : 0, &value) || value == NULL) {
		RETURN_NULL();
	}
	zval *zv = async_value_zval(value);
	if (deref && Z_TYPE_P(zv) == IS_OBJECT && Z_OBJCE_P(zv) == zend_ce_weakref) {
		zend_call_method_with_0_params(Z_OBJ_P(zv), zend_ce_weakref, NULL, "get", return_value);
		return;
	}
	RETURN_COPY(zv);
}

static void context_has(INTERNAL_FUNCTION_PARAMETERS, bool local)
{
	KEY_PARAM();
	RETURN_BOOL(tasync_context_find(ctx, &key, local ? 1 : 0, NULL));
}

ZEND_METHOD(Async_Context, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_context *c = async_context_from_obj(Z_OBJ_P(ZEND_THIS));
	if (c->own != NULL || c->scope != NULL || c->coroutine != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	int rc = tasync_context_create(rt, &c->own);
	if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Context, find)
{
	context_read(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, true);
}

ZEND_METHOD(Async_Context, get)
{
	context_read(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, false);
}

ZEND_METHOD(Async_Context, has)
{
	context_has(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Async_Context, findLocal)
{
	context_read(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, true);
}

ZEND_METHOD(Async_Context, getLocal)
{
	context_read(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, false);
}

ZEND_METHOD(Async_Context, hasLocal)
{
	context_has(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Async_Context, set)
{
	zval *zkey;
	zend_object *key_obj = NULL;
	zend_string *key_str = NULL;
	zval *value;
	bool replace = false;
	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_ZVAL(zkey)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(replace)
	ZEND_PARSE_PARAMETERS_END();
	if (!key_of(zkey, &key_obj, &key_str)) {
		RETURN_THROWS();
	}
	tasync_context_t *ctx = this_context(ZEND_THIS);
	if (ctx == NULL) {
		RETURN_THROWS();
	}
	tasync_context_key_t key;
	make_key(&key, key_obj, key_str);
	void *box = async_value_box(value);
	int rc = tasync_context_set(ctx, &key, box, replace ? 1 : 0);
	tasync_value_release(ASYNC_G(rt), box);
	async_safe_point();
	if (rc == -EEXIST) {
		if (key_str != NULL) {
			zend_throw_exception_ex(async_ce_async_exception, 0,
				"The key \"%s\" is already set in this context; pass $replace = true to replace it", ZSTR_VAL(key_str));
		} else {
			zend_throw_exception_ex(async_ce_async_exception, 0,
				"The %s key is already set in this context; pass $replace = true to replace it", ZSTR_VAL(key_obj->ce->name));
		}
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Context, unset)
{
	KEY_PARAM();
	tasync_context_unset(ctx, &key);
	async_safe_point();
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* ---------------------------------------------------------- functions */

PHP_FUNCTION(Async_currentContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(async_scope_context_object(tasync_scope_current(rt)));
}

PHP_FUNCTION(Async_current_context)
{
	ZEND_FN(Async_currentContext)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_FUNCTION(Async_rootContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(async_scope_context_object(tasync_scope_global(rt)));
}

PHP_FUNCTION(Async_root_context)
{
	ZEND_FN(Async_rootContext)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_FUNCTION(Async_coroutineContext)
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
	zend_object *co = async_coroutine_object_for(cur);
	RETVAL_OBJ(async_context_for_coroutine(co));
	OBJ_RELEASE(co);
}

PHP_FUNCTION(Async_coroutine_context)
{
	ZEND_FN(Async_coroutineContext)(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_register_context_class(void)
{
	async_ce_context = register_class_Async_Context();
	async_ce_context->create_object = context_create;
	memcpy(&context_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	context_handlers.offset = XtOffsetOf(async_context, std);
	context_handlers.free_obj = context_free;
	context_handlers.get_gc = context_get_gc;
	context_handlers.clone_obj = NULL;
}
