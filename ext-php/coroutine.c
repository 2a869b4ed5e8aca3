/*
 * coroutine.c - Async\Coroutine and the entry point every PHP coroutine
 * starts in.
 *
 * Ownership: the PHP object holds one reference to the core coroutine (its
 * `co`), and the core holds one reference to the PHP object through the
 * spawn argument until the coroutine no longer needs it (arg_release). So a
 * coroutine that has not finished always has a live PHP object, whatever
 * the user keeps, and the object outlives the core's need for it.
 *
 * Each coroutine runs on its own PHP VM stack, set up here the way
 * Zend/zend_fibers.c sets up a Fiber's (zend_fiber_execute), below a frame
 * of an internal pseudo-function so that the engine always has a current
 * frame. The executor state is swapped in host.c's switch hooks.
 */
#include "php_async.h"

#include "zend_builtin_functions.h"
#include "zend_interfaces.h"
#include "stubs/coroutine_arginfo.h"

/* The first VM stack page of a coroutine: 4 KiB (Fibers take 16 KiB),
 * so that many suspended coroutines stay cheap; it grows on demand. */
#define ASYNC_VM_STACK_SIZE (256 * sizeof(zval))

zend_class_entry *async_ce_coroutine;
static zend_object_handlers coroutine_handlers;

/* The frame at the bottom of every coroutine's VM stack. */
static zend_function async_coroutine_function = { ZEND_INTERNAL_FUNCTION };

/* ------------------------------------------------------------- object */

static zend_object *coroutine_create(zend_class_entry *ce)
{
	async_coroutine *c = zend_object_alloc(sizeof(async_coroutine), ce);
	memset(c, 0, XtOffsetOf(async_coroutine, std));
	ZVAL_UNDEF(&c->fci.function_name);
	ZVAL_UNDEF(&c->named);
	zend_object_std_init(&c->std, ce);
	object_properties_init(&c->std, ce);
	c->std.handlers = &coroutine_handlers;
	return &c->std;
}

/* Drops the callable and its arguments (PHP context only). */
static void coroutine_release_call(async_coroutine *c)
{
	zval_ptr_dtor(&c->fci.function_name);
	ZVAL_UNDEF(&c->fci.function_name);
	if (c->fci.params != NULL) {
		for (uint32_t i = 0; i < c->fci.param_count; i++) {
			zval_ptr_dtor(&c->fci.params[i]);
		}
		efree(c->fci.params);
		c->fci.params = NULL;
		c->fci.param_count = 0;
	}
	zval_ptr_dtor(&c->named);
	ZVAL_UNDEF(&c->named);
	c->fci.named_params = NULL;
}

static void coroutine_free(zend_object *obj)
{
	async_coroutine *c = async_coroutine_from_obj(obj);
	if (c->co != NULL) {
		if (!c->is_main && tasync_coroutine_host_data(c->co) == &c->vm) {
			tasync_coroutine_set_host_data(c->co, NULL);
		}
		tasync_coroutine_release(c->co);
		c->co = NULL;
	}
	coroutine_release_call(c);
	async_flush_releases();
	/* Only a coroutine abandoned by a destroyed runtime still has pages. */
	zend_vm_stack stack = c->vm.vm_stack;
	while (stack != NULL) {
		zend_vm_stack prev = stack->prev;
		efree(stack);
		stack = prev;
	}
	c->vm.vm_stack = NULL;
	zend_object_std_dtor(obj);
}

static HashTable *coroutine_get_gc(zend_object *obj, zval **table, int *num)
{
	async_coroutine *c = async_coroutine_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	HashTable *last_symbol_table = NULL;

	zend_get_gc_buffer_add_zval(buf, &c->fci.function_name);
	for (uint32_t i = 0; i < c->fci.param_count; i++) {
		zend_get_gc_buffer_add_zval(buf, &c->fci.params[i]);
	}
	zend_get_gc_buffer_add_zval(buf, &c->named);

	if (c->co != NULL) {
		uint32_t flags = tasync_coroutine_flags(c->co);
		if (flags & TASYNC_CO_COMPLETED) {
			/* Rule C17: the result and the exception are visible. */
			void *value = NULL, *error = NULL;
			if (tasync_coroutine_outcome(c->co, &value, &error) == 0) {
				/* A result box shared with a task group or a Future is
				 * theirs too: reported by nobody rather than twice. */
				if (value != NULL && async_value_refs(value) == 1) {
					zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
				}
				if (error != NULL) {
					zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
				}
			}
		} else if (c->has_context && ASYNC_G(rt) != NULL) {
			/* Its private context: released when it completes (X2); while it
			 * runs the core holds this object, so reporting is harmless. */
			async_context_gc(tasync_coroutine_context(c->co), buf);
		}
		if (!(flags & TASYNC_CO_COMPLETED) && !c->is_main && (flags & TASYNC_CO_SUSPENDED)
				&& c->vm.current_execute_data != NULL) {
			/* The frames of a suspended coroutine, as Fibers report theirs. */
			for (zend_execute_data *ex = c->vm.current_execute_data; ex != NULL; ex = ex->prev_execute_data) {
				HashTable *symbol_table = zend_unfinished_execution_gc_ex(
					ex, ex->func && ZEND_USER_CODE(ex->func->type) ? ex->call : NULL, buf, false);
				if (symbol_table != NULL) {
					if (last_symbol_table != NULL) {
						zval *val;
						ZEND_HASH_FOREACH_VAL(last_symbol_table, val) {
							if (EXPECTED(Z_TYPE_P(val) == IS_INDIRECT)) {
								val = Z_INDIRECT_P(val);
							}
							zend_get_gc_buffer_add_zval(buf, val);
						} ZEND_HASH_FOREACH_END();
					}
					last_symbol_table = symbol_table;
				}
			}
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return last_symbol_table;
}

zend_object *async_coroutine_object_for(tasync_coroutine_t *co)
{
	void *hd = tasync_coroutine_host_data(co);
	zend_object *obj;
	if (hd == &ASYNC_G(main_vm)) {
		obj = async_main_coroutine_object();
		GC_ADDREF(obj);
		return obj;
	}
	if (hd != NULL) {
		async_coroutine *c = (async_coroutine *) ((char *) hd - XtOffsetOf(async_coroutine, vm));
		if (c->co == NULL) {
			/* A completion callback the core spawned, not started yet. */
			c->co = co;
			tasync_coroutine_retain(co);
		}
		GC_ADDREF(&c->std);
		return &c->std;
	}
	/* No object: a completed coroutine whose object was freed, or a native
	 * coroutine of another extension. A new object stands for it; a
	 * completed one keeps it (its host data is free), a running native one
	 * keeps its own host data (the switch hooks read it). */
	zval zv;
	object_init_ex(&zv, async_ce_coroutine);
	async_coroutine *c = async_coroutine_from_obj(Z_OBJ(zv));
	c->co = co;
	tasync_coroutine_retain(co);
	uint32_t flags = tasync_coroutine_flags(co);
	c->started = (flags & TASYNC_CO_STARTED) != 0;
	if (flags & TASYNC_CO_COMPLETED) {
		tasync_coroutine_set_host_data(co, &c->vm);
	}
	return Z_OBJ(zv);
}

zend_object *async_main_coroutine_object(void)
{
	if (ASYNC_G(main_object) == NULL) {
		zval zv;
		object_init_ex(&zv, async_ce_coroutine);
		async_coroutine *c = async_coroutine_from_obj(Z_OBJ(zv));
		c->is_main = true;
		c->started = true;
		c->co = ASYNC_G(main_co);
		tasync_coroutine_retain(c->co);
		ASYNC_G(main_object) = Z_OBJ(zv);
	}
	return ASYNC_G(main_object);
}

tasync_awaitable_t *async_awaitable_of(zend_object *obj)
{
	if (instanceof_function(obj->ce, async_ce_coroutine)) {
		async_coroutine *c = async_coroutine_from_obj(obj);
		return c->co != NULL ? tasync_coroutine_awaitable(c->co) : NULL;
	}
	if (instanceof_function(obj->ce, async_ce_timeout)) {
		return async_timeout_from_obj(obj)->aw;
	}
	if (instanceof_function(obj->ce, async_ce_future)) {
		return async_future_from_obj(obj)->aw;
	}
	return NULL;
}

/* ----------------------------------------------------------- spawn */

/* Takes a copy of the callable and its arguments. */
static void coroutine_set_call(async_coroutine *c, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t argc, HashTable *named)
{
	c->fci = *fci;
	c->fcc = *fcc;
	Z_TRY_ADDREF(c->fci.function_name);
	c->fci.params = NULL;
	c->fci.param_count = 0;
	c->fci.named_params = NULL;
	if (argc > 0) {
		c->fci.params = safe_emalloc(argc, sizeof(zval), 0);
		for (uint32_t i = 0; i < argc; i++) {
			ZVAL_COPY(&c->fci.params[i], &args[i]);
		}
		c->fci.param_count = argc;
	}
	if (named != NULL && zend_hash_num_elements(named) > 0) {
		ZVAL_ARR(&c->named, zend_array_dup(named));
		c->fci.named_params = Z_ARRVAL(c->named);
	}
}

static void coroutine_spawn_options(tasync_spawn_options_t *opts, async_coroutine *c)
{
	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	opts->entry = async_coroutine_entry;
	opts->arg = c;
	opts->arg_release = async_coroutine_arg_release;
	opts->host_data = &c->vm;
}

void async_spawn_call(zval *return_value, tasync_scope_t *scope, tasync_group_t *group, const tasync_group_key_t *key,
	zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, HashTable *named)
{
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		return;
	}
	object_init_ex(return_value, async_ce_coroutine);
	async_coroutine *c = async_coroutine_from_obj(Z_OBJ_P(return_value));
	coroutine_set_call(c, fci, fcc, args, argc, named);

	tasync_spawn_options_t opts;
	coroutine_spawn_options(&opts, c);
	opts.scope = scope;
	void *err = NULL;
	GC_ADDREF(&c->std); /* the core's reference, dropped in arg_release */
	int rc = group != NULL ? tasync_group_spawn(group, key, &opts, &c->co, &err)
	                       : tasync_spawn(rt, &opts, &c->co, &err);
	if (group != NULL && !async_after_switch()) {
		/* The group's queue limit suspended the caller and the request is
		 * ending meanwhile (an exception is thrown). */
		if (rc != 0) {
			GC_DELREF(&c->std);
			zval_ptr_dtor(return_value);
			ZVAL_UNDEF(return_value);
			if (err != NULL) {
				OBJ_RELEASE((zend_object *) err);
			}
		}
		return;
	}
	if (rc != 0) {
		GC_DELREF(&c->std);
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		async_safe_point();
		async_throw_error(rc, err);
	}
}

void async_finally_options(tasync_spawn_options_t *opts, zval *callable, zend_object *arg, tasync_scope_t *scope)
{
	zval zv;
	object_init_ex(&zv, async_ce_coroutine);
	async_coroutine *c = async_coroutine_from_obj(Z_OBJ(zv));
	memset(&c->fci, 0, sizeof(c->fci));
	memset(&c->fcc, 0, sizeof(c->fcc));
	c->fci.size = sizeof(c->fci);
	ZVAL_COPY(&c->fci.function_name, callable);
	c->fci.params = emalloc(sizeof(zval));
	c->fci.param_count = 1;
	if (arg != NULL) {
		ZVAL_OBJ_COPY(&c->fci.params[0], arg);
	} else {
		/* The Scope object is made when the callback starts: holding one
		 * now would keep the scope's owner alive, and its disposal (S8)
		 * from happening. */
		ZVAL_NULL(&c->fci.params[0]);
		c->finally_scope = scope;
		tasync_scope_retain(scope);
		async_scope_hold(scope);
	}
	/* The core holds the object (the reference object_init_ex made) until
	 * arg_release; the coroutine gets its object when it starts. */
	coroutine_spawn_options(opts, c);
}

/* ----------------------------------------------------------- entry */

/* The coroutine ended with EG(exception) set: that is its error. */
static void coroutine_failed(async_coroutine *c, tasync_coroutine_t *self)
{
	zend_object *ex = EG(exception);
	if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
		/* exit()/die() in this coroutine (graceful shutdown has started,
		 * see fiber_guard.c; the coroutine ends cancelled), or it was
		 * unwound because the request ends after a fatal error. */
		zend_clear_exception();
		return;
	}
	GC_ADDREF(ex);
	zend_clear_exception();
	tasync_coroutine_set_error(self, ex);
	OBJ_RELEASE(ex);
}

void async_coroutine_entry(tasync_coroutine_t *self, void *arg)
{
	async_coroutine *c = arg;
	bool bailed_out = false;

	/* The error_reporting the script started with, as for a new Fiber. */
	zend_long error_reporting = INI_INT("error_reporting");
	if (!error_reporting && !INI_STR("error_reporting")) {
		error_reporting = E_ALL;
	}

	zend_vm_stack stack = zend_vm_stack_new_page(ASYNC_VM_STACK_SIZE, NULL);
	EG(vm_stack) = stack;
	EG(vm_stack_top) = stack->top + ZEND_CALL_FRAME_SLOT;
	EG(vm_stack_end) = stack->end;
	EG(vm_stack_page_size) = ASYNC_VM_STACK_SIZE;

	zend_execute_data *bottom = (zend_execute_data *) stack->top;
	memset(bottom, 0, sizeof(zend_execute_data));
	bottom->func = &async_coroutine_function;
	EG(current_execute_data) = bottom;
	EG(jit_trace_num) = 0;
	EG(error_reporting) = (int) error_reporting;
	EG(active_fiber) = NULL;
#ifdef ZEND_CHECK_STACK_LIMIT
	{
		/* PHP 8.3+ checks recursion against the C stack: this coroutine's,
		 * less the reserve, as for a Fiber. */
		void *low = NULL, *high = NULL;
		if (tasync_coroutine_stack_bounds(self, &low, &high) == 0) {
			EG(stack_base) = high;
			EG(stack_limit) = (char *) low + EG(reserved_stack_size);
		}
	}
#endif
	c->started = true;
	if (c->co == NULL) {
		/* A completion callback the core spawned (C11, S12). */
		c->co = self;
		tasync_coroutine_retain(self);
	}
	if (c->finally_scope != NULL) {
		tasync_scope_t *scope = c->finally_scope;
		c->finally_scope = NULL;
		zval_ptr_dtor(&c->fci.params[0]);
		ZVAL_OBJ(&c->fci.params[0], async_scope_object_for(scope));
		async_scope_unhold(scope);
		tasync_scope_release(scope);
	}

	zend_first_try {
		async_safe_point();
		if (!EG(exception) && !c->doomed) {
			zval retval;
			ZVAL_UNDEF(&retval);
			c->fci.retval = &retval;
			zend_call_function(&c->fci, &c->fcc);
			if (!EG(exception) && !Z_ISUNDEF(retval)) {
				void *box = async_value_box(&retval);
				tasync_coroutine_set_result(self, box);
				tasync_value_release(ASYNC_G(rt), box);
			}
			zval_ptr_dtor(&retval);
		}
		if (EG(exception)) {
			coroutine_failed(c, self);
		}
		/* Destructors run here, still inside the coroutine. */
		coroutine_release_call(c);
		async_safe_point();
		if (EG(exception)) {
			coroutine_failed(c, self);
		}
		/* Rule S10 while this coroutine's VM stack still exists: the
		 * scope's exception handlers are PHP code and run right here. */
		if (!c->doomed) {
			tasync_coroutine_route_error(self);
			async_safe_point();
			if (EG(exception)) {
				/* A destructor run at the safe point threw: too late to
				 * change the outcome, report it as PHP reports exceptions
				 * thrown in destructors at the end of a script. */
				zend_object *late = EG(exception);
				GC_ADDREF(late);
				zend_clear_exception();
				zend_exception_error(late, E_WARNING);
			}
		}
	} zend_catch {
		/* A fatal error: the message is out; the frames are abandoned, as
		 * PHP abandons the main script's on a fatal error. */
		bailed_out = true;
		EG(current_execute_data) = bottom;
	} zend_end_try();

	if (bailed_out) {
		if (EG(exception)) {
			zend_clear_exception();
		}
		async_abort_all(ASYNC_ABORT_BAILOUT);
	}

	zend_vm_stack_destroy();
	EG(vm_stack) = NULL;
	EG(vm_stack_top) = NULL;
	EG(vm_stack_end) = NULL;
	EG(current_execute_data) = NULL;
	c->vm.vm_stack = NULL;
	c->vm.current_execute_data = NULL;
}

void async_coroutine_arg_release(void *arg)
{
	async_coroutine *c = arg;
	zval zv;
	/* Called from inside the core: only bookkeeping here, the releases
	 * wait for a safe point. */
	if (c->finally_scope != NULL) {
		async_scope_unhold(c->finally_scope);
		async_defer_scope_release(c->finally_scope);
		c->finally_scope = NULL;
	}
	if (!c->started) {
		/* Cancelled before it started (rule C7): it never runs. */
		async_defer_release(&c->fci.function_name);
		ZVAL_UNDEF(&c->fci.function_name);
		for (uint32_t i = 0; i < c->fci.param_count; i++) {
			async_defer_release(&c->fci.params[i]);
		}
		c->fci.param_count = 0;
		async_defer_release(&c->named);
		ZVAL_UNDEF(&c->named);
		c->fci.named_params = NULL;
	}
	ZVAL_OBJ(&zv, &c->std);
	async_defer_release(&zv);
}

/* ---------------------------------------------------------- methods */

#define THIS_COROUTINE() async_coroutine_from_obj(Z_OBJ_P(ZEND_THIS))

static uint32_t this_flags(INTERNAL_FUNCTION_PARAMETERS)
{
	async_coroutine *c = THIS_COROUTINE();
	(void) return_value;
	return c->co != NULL ? tasync_coroutine_flags(c->co) : TASYNC_CO_STARTED | TASYNC_CO_COMPLETED;
}

ZEND_METHOD(Async_Coroutine, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_throw_error(NULL, "Cannot directly construct Async\\Coroutine, use Async\\spawn()");
}

ZEND_METHOD(Async_Coroutine, getId)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	RETURN_LONG(c->co != NULL ? (zend_long) tasync_coroutine_id(c->co) : 0);
}

ZEND_METHOD(Async_Coroutine, asHiPriority)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	if (c->co != NULL) {
		tasync_coroutine_set_high_priority(c->co, 1);
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Coroutine, getResult)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	void *value = NULL, *error = NULL;
	if (c->co != NULL && tasync_coroutine_outcome(c->co, &value, &error) == 0 && error == NULL) {
		async_value_unbox(value, return_value);
		return;
	}
	RETURN_NULL();
}

ZEND_METHOD(Async_Coroutine, getException)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	void *value = NULL, *error = NULL;
	if (c->co != NULL && tasync_coroutine_outcome(c->co, &value, &error) == 0 && error != NULL) {
		RETURN_OBJ_COPY((zend_object *) error);
	}
	RETURN_NULL();
}

ZEND_METHOD(Async_Coroutine, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_cancellation_error)
	ZEND_PARSE_PARAMETERS_END();
	async_coroutine *c = THIS_COROUTINE();
	if (c->co == NULL) {
		return;
	}
	int rc = tasync_coroutine_cancel(c->co, error);
	async_safe_point();
	if (rc != 0 && !EG(exception)) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Coroutine, isStarted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_STARTED);
}

ZEND_METHOD(Async_Coroutine, isQueued)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_QUEUED);
}

ZEND_METHOD(Async_Coroutine, isRunning)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_RUNNING);
}

ZEND_METHOD(Async_Coroutine, isSuspended)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_SUSPENDED);
}

ZEND_METHOD(Async_Coroutine, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_CANCELLED);
}

ZEND_METHOD(Async_Coroutine, isCancellationRequested)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_CANCEL_REQUESTED);
}

ZEND_METHOD(Async_Coroutine, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(this_flags(INTERNAL_FUNCTION_PARAM_PASSTHRU) & TASYNC_CO_COMPLETED);
}

static void location_array(zval *rv, tasync_location_t loc)
{
	array_init_size(rv, 2);
	add_next_index_string(rv, loc.file != NULL ? loc.file : "");
	add_next_index_long(rv, loc.file != NULL ? (zend_long) loc.line : 0);
}

static void location_string(zval *rv, tasync_location_t loc)
{
	if (loc.file == NULL) {
		ZVAL_EMPTY_STRING(rv);
		return;
	}
	ZVAL_STR(rv, zend_strpprintf(0, "%s:%u", loc.file, (unsigned) loc.line));
}

ZEND_METHOD(Async_Coroutine, getSpawnFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSpawnLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	location_string(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_suspend_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	location_string(return_value, c->co ? tasync_coroutine_suspend_location(c->co) : (tasync_location_t){0});
}

/* The id of the unfinished coroutine whose awaitable aw is, or -1. */
static zend_long awaited_coroutine_id(tasync_awaitable_t *aw)
{
	size_t n = tasync_runtime_coroutines(ASYNC_G(rt), NULL, 0);
	tasync_coroutine_t **list = safe_emalloc(n ? n : 1, sizeof(*list), 0);
	zend_long id = -1;
	n = tasync_runtime_coroutines(ASYNC_G(rt), list, n);
	for (size_t i = 0; i < n; i++) {
		if (tasync_coroutine_awaitable(list[i]) == aw) {
			id = (zend_long) tasync_coroutine_id(list[i]);
			break;
		}
	}
	efree(list);
	return id;
}

ZEND_METHOD(Async_Coroutine, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	array_init(return_value);
	if (c->co == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	tasync_wait_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (tasync_coroutine_wait_info(c->co, &info) != 0 || info.kind == TASYNC_WAIT_NONE) {
		return;
	}
	static const char *const kinds[] = {
		[TASYNC_WAIT_YIELD] = "suspend", [TASYNC_WAIT_PARK] = "park", [TASYNC_WAIT_AWAIT] = "await",
		[TASYNC_WAIT_DELAY] = "delay", [TASYNC_WAIT_FD] = "fd", [TASYNC_WAIT_SIGNAL] = "signal",
		[TASYNC_WAIT_CHILD] = "child", [TASYNC_WAIT_OFFLOAD] = "offload", [TASYNC_WAIT_OP] = "io",
		[TASYNC_WAIT_SCOPE] = "scope", [TASYNC_WAIT_GROUP] = "task_group", [TASYNC_WAIT_END] = "end",
	};
	const char *kind = info.kind < sizeof(kinds) / sizeof(kinds[0]) && kinds[info.kind] ? kinds[info.kind] : "other";
	add_assoc_string(return_value, "type", kind);
	char text[256];
	tasync_coroutine_describe_wait(c->co, text, sizeof(text));
	add_assoc_string(return_value, "description", text);
	switch (info.kind) {
		case TASYNC_WAIT_AWAIT: {
			zend_long id = info.target != NULL ? awaited_coroutine_id(info.target) : -1;
			if (id >= 0) {
				add_assoc_long(return_value, "coroutine", id);
			}
			add_assoc_long(return_value, "count", (zend_long) info.count);
			break;
		}
		case TASYNC_WAIT_DELAY: {
			uint64_t now = tasync_runtime_now(ASYNC_G(rt));
			add_assoc_long(return_value, "remaining_ms",
				info.deadline_ns > now ? (zend_long) ((info.deadline_ns - now) / 1000000u) : 0);
			break;
		}
		case TASYNC_WAIT_FD:
		case TASYNC_WAIT_OP:
			add_assoc_long(return_value, "fd", info.fd);
			break;
		case TASYNC_WAIT_SIGNAL:
			add_assoc_long(return_value, "signal", info.signum);
			break;
		case TASYNC_WAIT_CHILD:
			add_assoc_long(return_value, "pid", info.pid);
			break;
		default:
			break;
	}
	zval loc;
	location_string(&loc, tasync_coroutine_suspend_location(c->co));
	add_assoc_zval(return_value, "location", &loc);
}

/* onFinally() and its alias finally(). */
static void coroutine_on_finally(INTERNAL_FUNCTION_PARAMETERS)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	zval *callable = &fci.function_name;
	async_coroutine *c = THIS_COROUTINE();
	if (c->co == NULL || ASYNC_G(rt) == NULL) {
		zend_throw_exception(async_ce_async_exception, "The coroutine belongs to a runtime that no longer exists", 0);
		RETURN_THROWS();
	}
	tasync_spawn_options_t opts;
	async_finally_options(&opts, callable, Z_OBJ_P(ZEND_THIS), NULL);
	int rc = tasync_coroutine_on_finally(c->co, &opts);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Coroutine, onFinally)
{
	coroutine_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Coroutine, finally)
{
	coroutine_on_finally(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_METHOD(Async_Coroutine, getScope)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine *c = THIS_COROUTINE();
	tasync_scope_t *scope = c->co != NULL && ASYNC_G(rt) != NULL ? tasync_coroutine_scope(c->co) : NULL;
	if (scope == NULL) {
		RETURN_NULL();
	}
	RETURN_OBJ(async_scope_object_for(scope));
}

ZEND_METHOD(Async_Coroutine, getTrace)
{
	zend_long options = DEBUG_BACKTRACE_PROVIDE_OBJECT, limit = 0;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(options)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();
	async_coroutine *c = THIS_COROUTINE();
	if (c->co == NULL) {
		RETURN_EMPTY_ARRAY();
	}
	uint32_t flags = tasync_coroutine_flags(c->co);
	if (flags & TASYNC_CO_RUNNING) {
		zend_fetch_debug_backtrace(return_value, 1, (int) options, (int) limit);
		return;
	}
	const async_vm_state *vm = c->is_main ? &ASYNC_G(main_vm) : &c->vm;
	if (!(flags & TASYNC_CO_SUSPENDED) || vm->current_execute_data == NULL) {
		RETURN_EMPTY_ARRAY();
	}
	/* Walk the suspended coroutine's frames as if they were current. */
	zend_execute_data *saved = EG(current_execute_data);
	EG(current_execute_data) = vm->current_execute_data;
	zend_fetch_debug_backtrace(return_value, 0, (int) options, (int) limit);
	EG(current_execute_data) = saved;
}

void async_register_coroutine_class(void)
{
	async_ce_coroutine = register_class_Async_Coroutine(async_ce_future_like);
	async_ce_coroutine->create_object = coroutine_create;
	memcpy(&coroutine_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	coroutine_handlers.offset = XtOffsetOf(async_coroutine, std);
	coroutine_handlers.free_obj = coroutine_free;
	coroutine_handlers.get_gc = coroutine_get_gc;
	coroutine_handlers.clone_obj = NULL;
}
