/*
 * fiber_observer_probe.so - a PHP extension for the tests of the observer
 * area: it registers the fiber init, switch and destroy observers of
 * zend_observer.h, as debuggers and profilers do, and records what they are
 * told, so that a phpt can check what a coroutine switch looks like to
 * them (rule C13, ext-php/runtime/fibers.c).
 *
 * fiber_probe_events(): list<string> returns the events of the request so
 * far, one string each: "init #N kind", "switch #A kind STATUS -> #B kind
 * STATUS", "destroy #N kind STATUS", where #N numbers the contexts in the
 * order they are first seen and kind is main (EG(main_fiber_context)),
 * fiber (a Fiber's), coroutine (kind Async\Coroutine) or other.
 * fiber_probe_reset() forgets them. fiber_probe_current(): string names the
 * context the engine runs in now.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_fibers.h"
#include "zend_observer.h"

static HashTable ids;      /* context pointer => number */
static zval events;        /* the list of strings */
static bool active;

static zend_long context_id(zend_fiber_context *ctx)
{
	zval *found = zend_hash_index_find(&ids, (zend_ulong) (uintptr_t) ctx);
	if (found != NULL) {
		return Z_LVAL_P(found);
	}
	zval id;
	ZVAL_LONG(&id, zend_hash_num_elements(&ids));
	zend_hash_index_add_new(&ids, (zend_ulong) (uintptr_t) ctx, &id);
	return Z_LVAL(id);
}

static const char *kind_name(zend_fiber_context *ctx)
{
	if (ctx == EG(main_fiber_context)) {
		return "main";
	}
	if (ctx->kind == zend_ce_fiber) {
		return "fiber";
	}
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "async\\coroutine", sizeof("async\\coroutine") - 1);
	return ce != NULL && ctx->kind == ce ? "coroutine" : "other";
}

static const char *status_name(zend_fiber_status s)
{
	switch (s) {
		case ZEND_FIBER_STATUS_INIT: return "INIT";
		case ZEND_FIBER_STATUS_RUNNING: return "RUNNING";
		case ZEND_FIBER_STATUS_SUSPENDED: return "SUSPENDED";
		case ZEND_FIBER_STATUS_DEAD: return "DEAD";
	}
	return "?";
}

static void record(zend_string *s)
{
	add_next_index_str(&events, s);
}

static void on_init(zend_fiber_context *ctx)
{
	if (!active) {
		return;
	}
	record(zend_strpprintf(0, "init #" ZEND_LONG_FMT " %s", context_id(ctx), kind_name(ctx)));
}

static void on_switch(zend_fiber_context *from, zend_fiber_context *to)
{
	if (!active) {
		return;
	}
	record(zend_strpprintf(0, "switch #" ZEND_LONG_FMT " %s %s -> #" ZEND_LONG_FMT " %s %s",
		context_id(from), kind_name(from), status_name(from->status),
		context_id(to), kind_name(to), status_name(to->status)));
}

static void on_destroy(zend_fiber_context *ctx)
{
	if (!active) {
		return;
	}
	record(zend_strpprintf(0, "destroy #" ZEND_LONG_FMT " %s %s", context_id(ctx), kind_name(ctx), status_name(ctx->status)));
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fiber_probe_events, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fiber_probe_reset, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fiber_probe_current, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

PHP_FUNCTION(fiber_probe_events)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_COPY(&events);
}

PHP_FUNCTION(fiber_probe_reset)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_hash_clean(Z_ARRVAL(events));
}

PHP_FUNCTION(fiber_probe_current)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_fiber_context *ctx = EG(current_fiber_context);
	RETURN_STR(zend_strpprintf(0, "#" ZEND_LONG_FMT " %s %s", context_id(ctx), kind_name(ctx), status_name(ctx->status)));
}

static const zend_function_entry probe_functions[] = {
	PHP_FE(fiber_probe_events, arginfo_fiber_probe_events)
	PHP_FE(fiber_probe_reset, arginfo_fiber_probe_reset)
	PHP_FE(fiber_probe_current, arginfo_fiber_probe_current)
	PHP_FE_END
};

static PHP_MINIT_FUNCTION(fiber_observer_probe)
{
	zend_observer_fiber_init_register(on_init);
	zend_observer_fiber_switch_register(on_switch);
	zend_observer_fiber_destroy_register(on_destroy);
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(fiber_observer_probe)
{
	zend_hash_init(&ids, 8, NULL, NULL, 0);
	array_init(&events);
	/* The main flow's context is #0. */
	context_id(EG(main_fiber_context));
	active = true;
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(fiber_observer_probe)
{
	active = false;
	zval_ptr_dtor(&events);
	ZVAL_UNDEF(&events);
	zend_hash_destroy(&ids);
	return SUCCESS;
}

zend_module_entry fiber_observer_probe_module_entry = {
	STANDARD_MODULE_HEADER,
	"fiber_observer_probe",
	probe_functions,
	PHP_MINIT(fiber_observer_probe),
	NULL,
	PHP_RINIT(fiber_observer_probe),
	PHP_RSHUTDOWN(fiber_observer_probe),
	NULL,
	"1.0",
	STANDARD_MODULE_PROPERTIES
};

ZEND_GET_MODULE(fiber_observer_probe)
