/*
 * coroutine.c - Async\Coroutine and the entry point every PHP coroutine
 * starts in.
 *
 * Ownership. Two things stand for a PHP coroutine, and neither outlives
 * what it points to:
 *
 *  - The record (async_coroutine, php_async.h) is what the core holds: its
 *    host data (the VM state the switch hooks save and restore) and its
 *    spawn argument (the callable). It is not a PHP object, so no
 *    reference count or garbage collection can free it while the core
 *    still uses it: the core uses host data until it calls the host's
 *    coroutine_free (host.h), and the argument until arg_release. The
 *    record is freed when both are done: by coroutine_free for a coroutine
 *    that started, by arg_release for one that never did (which then
 *    takes the host data back). A completion callback's record becomes
 *    its coroutine's host data only when it starts: until then the
 *    extension does not know which core coroutine the core made for it.
 *  - The Coroutine object (async_coroutine_obj) is a handle: it holds one
 *    reference to the core coroutine through the ABI, which is what rule
 *    S10's Future semantics count (an error stays on the coroutine while a
 *    handle is alive). The core holds no reference to the object, so the
 *    object lives exactly as long as PHP code (or a pending onFinally
 *    callback) can reach it. The record points to the object weakly, so
 *    that currentCoroutine() and friends return the same object while it
 *    lives, and a new one after it was freed.
 *
 * (An earlier design embedded the record in the object and let the core
 * hold the object until arg_release; a completion callback's object never
 * learnt its core coroutine, so nothing detached the host data when it was
 * freed, and the core's coroutine_free then wrote into freed memory.)
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

/*
 * The VM stack of a coroutine. Its first page is a local array of
 * async_coroutine_entry(), so it lives on the coroutine's own C stack, in
 * the top page that the coroutine touches anyway: a suspended coroutine
 * that is not deep in PHP calls costs no PHP memory for its VM stack (and
 * nothing of memory_limit), and the page is as warm as the stack, which the
 * core's stack pool keeps for reuse (a burst of coroutines does not
 * allocate VM stack pages from Zend MM, whose empty chunks would go back
 * to the kernel). 2 KiB hold the bottom frame and a few frames of user
 * code (a closure awaiting delay() or fread() needs about 400 bytes); the C
 * frames of a suspension take 1.2 to 1.7 KiB, so both share one page.
 * Deeper code grows the stack on demand by pages of ASYNC_VM_STACK_PAGE
 * from Zend MM, as Fibers' stacks grow.
 */
#define ASYNC_VM_STACK_FIRST (128 * sizeof(zval))
#define ASYNC_VM_STACK_PAGE (256 * sizeof(zval))

zend_class_entry *async_ce_coroutine;
static zend_object_handlers coroutine_handlers;

/* The frame at the bottom of every coroutine's VM stack. */
static zend_function async_coroutine_function = { ZEND_INTERNAL_FUNCTION };

/* ------------------------------------------------------------- record */

static async_coroutine *record_create(void)
{
	async_coroutine *c = ecalloc(1, sizeof(*c));
	ZVAL_UNDEF(&c->fci.function_name);
	ZVAL_UNDEF(&c->named);
	return c;
}

async_coroutine *async_coroutine_of(tasync_coroutine_t *co)
{
	void *hd = co != NULL ? tasync_coroutine_host_data(co) : NULL;
	if (hd == NULL || hd == &ASYNC_G(main_vm)) {
		return NULL;
	}
	return (async_coroutine *) ((char *) hd - XtOffsetOf(async_coroutine, vm));
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

/* The same from inside a core callback: the releases wait for a safe point. */
static void coroutine_defer_release_call(async_coroutine *c)
{
	async_defer_release(&c->fci.function_name);
	ZVAL_UNDEF(&c->fci.function_name);
	for (uint32_t i = 0; i < c->fci.param_count; i++) {
		async_defer_release(&c->fci.params[i]);
	}
	if (c->fci.params != NULL) {
		efree(c->fci.params);
		c->fci.params = NULL;
	}
	c->fci.param_count = 0;
	async_defer_release(&c->named);
	ZVAL_UNDEF(&c->named);
	c->fci.named_params = NULL;
	if (c->finally_scope != NULL) {
		async_scope_unhold(c->finally_scope);
		async_defer_scope_release(c->finally_scope);
		c->finally_scope = NULL;
	}
}

/* Frees a record the core no longer uses (from inside the core too). */
static void record_free(async_coroutine *c)
{
	coroutine_defer_release_call(c);
	/* Only a coroutine abandoned by a destroyed runtime still has output
	 * buffers and VM stack pages: its frames are abandoned as PHP abandons
	 * them after a fatal error. */
	async_vm_free_pages(&c->vm);
	efree(c);
}

void async_coroutine_record_free(async_vm_state *vm)
{
	record_free((async_coroutine *) ((char *) vm - XtOffsetOf(async_coroutine, vm)));
}

/* ------------------------------------------------------------- object */

static zend_object *coroutine_create(zend_class_entry *ce)
{
	async_coroutine_obj *o = zend_object_alloc(sizeof(async_coroutine_obj), ce);
	memset(o, 0, XtOffsetOf(async_coroutine_obj, std));
	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &coroutine_handlers;
	return &o->std;
}

static void coroutine_free(zend_object *obj)
{
	async_coroutine_obj *o = async_coroutine_obj_from(obj);
	if (o->co != NULL) {
		async_coroutine *c = o->is_main ? NULL : async_coroutine_of(o->co);
		if (c != NULL && c->object == obj) {
			c->object = NULL;
		}
		/* The last handle may escalate a held error (S10): the core only
		 * queues that, no PHP code runs here. */
		tasync_coroutine_release(o->co);
		o->co = NULL;
	}
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/*
 * Rule C17: the outcome of a completed coroutine is visible to the
 * collector, but only once the object is the coroutine's only holder in
 * practice: the coroutine has finished running (its stack is gone; one
 * that still runs, e.g. escalating a held error, keeps using it). The
 * frames and the private context of an unfinished coroutine belong to the
 * core, not to this handle, and are not reported.
 */
static HashTable *coroutine_get_gc(zend_object *obj, zval **table, int *num)
{
	async_coroutine_obj *o = async_coroutine_obj_from(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (o->co != NULL && !o->is_main) {
		uint32_t flags = tasync_coroutine_flags(o->co);
		void *value = NULL, *error = NULL;
		if ((flags & TASYNC_CO_COMPLETED) && (flags & TASYNC_CO_STARTED)
				&& tasync_coroutine_stack_bounds(o->co, NULL, NULL) != 0
				&& tasync_coroutine_outcome(o->co, &value, &error) == 0) {
			/* A result box shared with a task group or a Future is
			 * theirs too: reported by nobody rather than twice. */
			if (value != NULL && async_value_refs(value) == 1) {
				zend_get_gc_buffer_add_zval(buf, async_value_zval(value));
			}
			if (error != NULL) {
				zend_get_gc_buffer_add_obj(buf, (zend_object *) error);
			}
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* A new Coroutine object standing for co (takes a handle on it). */
static zend_object *coroutine_object_new(tasync_coroutine_t *co)
{
	zval zv;
	object_init_ex(&zv, async_ce_coroutine);
	async_coroutine_obj *o = async_coroutine_obj_from(Z_OBJ(zv));
	o->co = co;
	tasync_coroutine_retain(co);
	return Z_OBJ(zv);
}

zend_object *async_coroutine_object_for(tasync_coroutine_t *co)
{
	if (tasync_coroutine_host_data(co) == &ASYNC_G(main_vm)) {
		zend_object *obj = async_main_coroutine_object();
		GC_ADDREF(obj);
		return obj;
	}
	async_coroutine *c = async_coroutine_of(co);
	if (c != NULL && c->object != NULL) {
		GC_ADDREF(c->object);
		return c->object;
	}
	/* No object stands for it (its last one was freed, or it is a
	 * completion callback, or a coroutine of another extension). */
	zend_object *obj = coroutine_object_new(co);
	if (c != NULL) {
		c->co = co;
		c->object = obj;
	}
	return obj;
}

zend_object *async_main_coroutine_object(void)
{
	if (ASYNC_G(main_object) == NULL) {
		zend_object *obj = coroutine_object_new(ASYNC_G(main_co));
		async_coroutine_obj_from(obj)->is_main = true;
		ASYNC_G(main_object) = obj;
	}
	return ASYNC_G(main_object);
}

tasync_awaitable_t *async_awaitable_of(zend_object *obj)
{
	if (instanceof_function(obj->ce, async_ce_coroutine)) {
		async_coroutine_obj *o = async_coroutine_obj_from(obj);
		return o->co != NULL ? tasync_coroutine_awaitable(o->co) : NULL;
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
	async_coroutine *c = record_create();
	coroutine_set_call(c, fci, fcc, args, argc, named);

	tasync_spawn_options_t opts;
	coroutine_spawn_options(&opts, c);
	opts.scope = scope;
	void *err = NULL;
	tasync_coroutine_t *co = NULL;
	int rc = group != NULL ? tasync_group_spawn(group, key, &opts, &co, &err)
	                       : tasync_spawn(rt, &opts, &co, &err);
	if (group != NULL && !async_after_switch()) {
		/* The group's queue limit suspended the caller and the request is
		 * ending meanwhile (an exception is thrown). */
		if (rc != 0) {
			coroutine_release_call(c);
			efree(c);
			if (err != NULL) {
				OBJ_RELEASE((zend_object *) err);
			}
		} else {
			/* The core runs (or unwinds) it; nobody takes the handle. */
			c->co = co;
			tasync_coroutine_release(co);
		}
		return;
	}
	if (rc != 0) {
		/* The core took nothing: the record is ours to free. */
		coroutine_release_call(c);
		efree(c);
		async_safe_point();
		async_throw_error(rc, err);
		return;
	}
	c->co = co;
	/* The handle spawn returned becomes the object's. */
	object_init_ex(return_value, async_ce_coroutine);
	async_coroutine_obj *o = async_coroutine_obj_from(Z_OBJ_P(return_value));
	o->co = co;
	c->object = Z_OBJ_P(return_value);
}

void async_finally_options(tasync_spawn_options_t *opts, zval *callable, zend_object *arg, tasync_scope_t *scope)
{
	async_coroutine *c = record_create();
	c->fci.size = sizeof(c->fci);
	ZVAL_COPY(&c->fci.function_name, callable);
	c->fci.params = emalloc(sizeof(zval));
	c->fci.param_count = 1;
	if (arg != NULL && instanceof_function(arg->ce, async_ce_coroutine)
			&& async_coroutine_obj_from(arg)->co != NULL) {
		ZVAL_NULL(&c->fci.params[0]);
		c->finally_owner = async_coroutine_obj_from(arg)->co;
	} else if (arg != NULL) {
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
	/* The core holds the record through arg_release from here; the record
	 * becomes host data when the callback starts (see the top comment). */
	coroutine_spawn_options(opts, c);
	opts->host_data = NULL;
}

/* ----------------------------------------------------------- entry */

/*
 * The coroutine ended with EG(exception) set: that is its error. Returns
 * true when it is no error of the coroutine but a fatal error that PHP
 * reported by unwinding (see async_request_failed()): the request ends.
 */
static bool coroutine_failed(async_coroutine *c, tasync_coroutine_t *self)
{
	zend_object *ex = EG(exception);
	(void) c;
	if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
		/* exit()/die() in this coroutine (graceful shutdown has started,
		 * see fiber_guard.c; the coroutine ends cancelled), or it was
		 * unwound because the request ends after a fatal error, or the
		 * fatal error happened here and PHP reported it by unwinding. */
		zend_clear_exception();
		return async_request_failed();
	}
	GC_ADDREF(ex);
	zend_clear_exception();
	tasync_coroutine_set_error(self, ex);
	OBJ_RELEASE(ex);
	return false;
}

void async_coroutine_entry(tasync_coroutine_t *self, void *arg)
{
	async_coroutine *c = arg;
	volatile bool fatal = false;

	/* The error_reporting the script started with, as for a new Fiber. */
	zend_long error_reporting = INI_INT("error_reporting");
	if (!error_reporting && !INI_STR("error_reporting")) {
		error_reporting = E_ALL;
	}

	/* The first VM stack page (see ASYNC_VM_STACK_FIRST): this frame
	 * outlives every PHP frame of the coroutine, a bailout included. */
	union {
		zval align;
		char bytes[ASYNC_VM_STACK_FIRST];
	} first_page;
	zend_vm_stack stack = (zend_vm_stack) first_page.bytes;
	stack->top = ZEND_VM_STACK_ELEMENTS(stack);
	stack->end = (zval *) (first_page.bytes + ASYNC_VM_STACK_FIRST);
	stack->prev = NULL;
	c->vm.vm_stack_first = stack;
	EG(vm_stack) = stack;
	EG(vm_stack_top) = stack->top + ZEND_CALL_FRAME_SLOT;
	EG(vm_stack_end) = stack->end;
	EG(vm_stack_page_size) = ASYNC_VM_STACK_PAGE;

	zend_execute_data *bottom = (zend_execute_data *) stack->top;
	memset(bottom, 0, sizeof(zend_execute_data));
	bottom->func = &async_coroutine_function;
	EG(current_execute_data) = bottom;
	EG(jit_trace_num) = 0;
	EG(error_reporting) = (int) error_reporting;
	EG(active_fiber) = NULL;
	/* Rule C23: normal error handling and no output buffer of its own. */
	EG(error_handling) = EH_NORMAL;
	EG(exception_class) = NULL;
	async_output_start();
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
		/* A completion callback the core spawned (C11, S12): its record
		 * becomes its host data now. */
		c->co = self;
		tasync_coroutine_set_host_data(self, &c->vm);
	}
	if (c->finally_owner != NULL) {
		ZVAL_OBJ(&c->fci.params[0], async_coroutine_object_for(c->finally_owner));
		c->finally_owner = NULL;
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
		/* After a fatal error no user code starts (C22): a coroutine that
		 * starts meanwhile (a completion callback, one queued before) ends
		 * at once; so does one the core aborted (C22: marked before it
		 * started, or a finally handler registered before the abort). */
		if (!EG(exception) && !async_coroutine_aborted(self) && !ASYNC_G(fatal_abort)) {
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
			fatal = coroutine_failed(c, self);
		}
		if (!fatal) {
			/* Destructors run here, still inside the coroutine. */
			coroutine_release_call(c);
			async_safe_point();
			if (EG(exception)) {
				fatal = coroutine_failed(c, self);
			}
		}
		if (!fatal) {
			/* Then its output buffers are flushed, as at the end of a
			 * request (C23); a callback's exception is its error too. */
			async_output_end();
			if (EG(exception)) {
				fatal = coroutine_failed(c, self);
			}
		}
		/* Rule S10 while this coroutine's VM stack still exists: the
		 * scope's exception handlers are PHP code and run right here. */
		if (!fatal && !async_coroutine_aborted(self)) {
			tasync_coroutine_route_error(self);
			async_safe_point();
			if (EG(exception)) {
				/* A destructor run at the safe point threw: too late to
				 * change the outcome, report it as PHP reports exceptions
				 * thrown in destructors at the end of a script. */
				zend_object *late = EG(exception);
				GC_ADDREF(late);
				zend_clear_exception();
				if (zend_is_unwind_exit(late) || zend_is_graceful_exit(late)) {
					OBJ_RELEASE(late);
					fatal = async_request_failed();
				} else {
					zend_exception_error(late, E_WARNING);
				}
			}
		}
	} zend_catch {
		/* A fatal error: the message is out; the frames are abandoned, as
		 * PHP abandons the main script's on a fatal error. */
		fatal = true;
		EG(current_execute_data) = bottom;
	} zend_end_try();

	if (fatal) {
		if (EG(exception)) {
			zend_clear_exception();
		}
		/* Rule C22: every other coroutine (and the main flow) unwinds
		 * without running more user code. An aborted coroutine unwinding
		 * is a consequence of that abort, not a new one. */
		if (!async_coroutine_aborted(self)) {
			async_abort_all(TASYNC_ABORT_FATAL);
		}
		/* PHP flushes the output buffers after a fatal error too (the
		 * message may be in one of them). */
		zend_try {
			async_output_end();
		} zend_end_try();
		if (EG(exception)) {
			zend_clear_exception();
		}
	}
	/* What a fatal error in the flush left (a no-op otherwise). */
	async_output_end();
	/* The snapshot taken at this coroutine's last suspension describes
	 * buffers that async_output_end() has just freed: forget it, so that
	 * freeing the pages below abandons nothing twice. */
	memset(&c->vm.ob_handlers, 0, sizeof(c->vm.ob_handlers));
	c->vm.ob_active = NULL;
	c->vm.ob_running = NULL;

	c->vm.vm_stack = EG(vm_stack);
	async_vm_free_pages(&c->vm);
	c->vm.vm_stack_first = NULL;
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
	/* Called from inside the core: only bookkeeping here, the releases
	 * wait for a safe point. */
	c->arg_released = true;
	if (c->started) {
		/* The entry released the call; coroutine_free frees the record. */
		return;
	}
	/* Never started (cancelled first, rule C7, or dropped with the runtime):
	 * no coroutine_free will see the record. */
	if (c->co != NULL && tasync_coroutine_host_data(c->co) == &c->vm) {
		tasync_coroutine_set_host_data(c->co, NULL);
	}
	record_free(c);
}

/* ---------------------------------------------------------- methods */

#define THIS_COROUTINE() async_coroutine_obj_from(Z_OBJ_P(ZEND_THIS))

static uint32_t this_flags(INTERNAL_FUNCTION_PARAMETERS)
{
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
	RETURN_LONG(c->co != NULL ? (zend_long) tasync_coroutine_id(c->co) : 0);
}

ZEND_METHOD(Async_Coroutine, asHiPriority)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co != NULL) {
		tasync_coroutine_set_high_priority(c->co, 1);
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Coroutine, getResult)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSpawnLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_string(return_value, c->co ? tasync_coroutine_spawn_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
	location_array(return_value, c->co ? tasync_coroutine_suspend_location(c->co) : (tasync_location_t){0});
}

ZEND_METHOD(Async_Coroutine, getSuspendLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co == NULL || ASYNC_G(rt) == NULL || tasync_coroutine_runtime(c->co) != ASYNC_G(rt)) {
		/* Its runtime is gone (a destructor run by the request's last
		 * collection): the coroutine is finished, so the callback runs at
		 * once (C11), here, there being no scheduler left. */
		zval arg, rv;
		ZVAL_OBJ(&arg, Z_OBJ_P(ZEND_THIS));
		fci.retval = &rv;
		fci.params = &arg;
		fci.param_count = 1;
		if (zend_call_function(&fci, &fcc) == SUCCESS) {
			zval_ptr_dtor(&rv);
		}
		return;
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

ZEND_METHOD(Async_Coroutine, getContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	/* Its private context (X2), also once it completed (empty then). */
	RETURN_OBJ(async_context_for_coroutine(Z_OBJ_P(ZEND_THIS)));
}

ZEND_METHOD(Async_Coroutine, getScope)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_obj *c = THIS_COROUTINE();
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
	async_coroutine_obj *c = THIS_COROUTINE();
	if (c->co == NULL) {
		RETURN_EMPTY_ARRAY();
	}
	uint32_t flags = tasync_coroutine_flags(c->co);
	if (flags & TASYNC_CO_RUNNING) {
		zend_fetch_debug_backtrace(return_value, 1, (int) options, (int) limit);
		return;
	}
	async_coroutine *record = c->is_main ? NULL : async_coroutine_of(c->co);
	const async_vm_state *vm = c->is_main ? &ASYNC_G(main_vm) : record != NULL ? &record->vm : NULL;
	if (!(flags & TASYNC_CO_SUSPENDED) || vm == NULL || vm->current_execute_data == NULL) {
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
	coroutine_handlers.offset = XtOffsetOf(async_coroutine_obj, std);
	coroutine_handlers.free_obj = coroutine_free;
	coroutine_handlers.get_gc = coroutine_get_gc;
	coroutine_handlers.clone_obj = NULL;
}
