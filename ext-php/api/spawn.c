/*
 * api/spawn.c - what makes a PHP callable a core coroutine: its record,
 * the spawn options, and the entry point every PHP coroutine starts in
 * (Async\spawn(), Scope::spawn(), TaskGroup::spawn() and the onFinally
 * callbacks end here). The Async\Coroutine object is api/coroutine.c's.
 *
 * Ownership. Two things stand for a PHP coroutine, and neither outlives
 * what it points to:
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
 * frame. The executor state is swapped in the host's switch hooks
 * (runtime/host.c).
 */
#include "api/spawn.h"

#include "api/coroutine.h"
#include "api/scope.h"
#include "api/scope_holds.h"
#include "runtime/fibers.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_closures.h"

static void (*coroutine_end_hook)(tasync_coroutine_t *co);

void async_on_coroutine_end(void (*hook)(tasync_coroutine_t *co))
{
	coroutine_end_hook = hook;
}

/*
 * The VM stack of a coroutine. Its first page is a local array of
 * coroutine_entry(), so it lives on the coroutine's own C stack, in
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
	if (c->native_free != NULL) {
		void (*release)(void *) = c->native_free;
		c->native_free = NULL;
		release(c->native_arg);
	}
	c->native_arg = NULL;
}

/* A record the core no longer uses, at the next safe point: the callable,
 * its arguments and the scope it was to get are released. Only a coroutine
 * abandoned by a destroyed runtime still has output buffers and VM stack
 * pages: its frames are abandoned as PHP abandons them after a fatal error. */
static void record_free_now(async_deferred_free *node)
{
	async_coroutine *c = (async_coroutine *) ((char *) node - XtOffsetOf(async_coroutine, dead));
	coroutine_release_call(c);
	if (c->finally_scope != NULL) {
		tasync_scope_t *scope = c->finally_scope;
		c->finally_scope = NULL;
		async_scope_unhold(scope);
		async_defer_scope_release(scope);
	}
	async_vm_free_pages(&c->vm);
	async_fibers_vm_free(&c->vm);
	efree(c);
}

/*
 * Frees a record the core no longer uses. Called from inside the core,
 * where no PHP value may be released, so the whole record waits for the
 * next safe point, queued through a link inside it: an abort that ends
 * thousands of coroutines in one core call (rule C22, after memory ran
 * out) queues them without allocating anything.
 */
static void record_free(async_coroutine *c)
{
	async_defer_free(&c->dead, record_free_now);
}

void async_host_coroutine_free(void *hd, tasync_coroutine_t *co, void *co_data)
{
	async_vm_state *vm = co_data;
	(void) hd;
	(void) co;
	if (vm == &ASYNC_G(main_vm)) {
		return; /* the main flow's VM stack belongs to PHP */
	}
	/* The core is done with the coroutine's record. */
	record_free((async_coroutine *) ((char *) vm - XtOffsetOf(async_coroutine, vm)));
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

static void coroutine_entry(tasync_coroutine_t *self, void *arg);
static void coroutine_arg_release(void *arg);

static void coroutine_spawn_options(tasync_spawn_options_t *opts, async_coroutine *c)
{
	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	opts->entry = coroutine_entry;
	opts->arg = c;
	opts->arg_release = coroutine_arg_release;
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

void async_native_options(tasync_spawn_options_t *opts, void (*fn)(tasync_coroutine_t *self, void *arg), void *arg,
	void (*free)(void *arg))
{
	async_coroutine *c = record_create();
	c->native = fn;
	c->native_arg = arg;
	c->native_free = free;
	coroutine_spawn_options(opts, c);
	opts->host_data = NULL;
}

void async_native_discard(tasync_spawn_options_t *opts)
{
	if (opts->arg != NULL) {
		record_free(opts->arg);
		opts->arg = NULL;
	}
}

int async_spawn_native(tasync_scope_t *scope, void (*fn)(tasync_coroutine_t *self, void *arg), void *arg,
	void (*free)(void *arg), tasync_coroutine_t **out, void **out_error)
{
	if (out != NULL) {
		*out = NULL;
	}
	if (out_error != NULL) {
		*out_error = NULL;
	}
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_spawn_options_t opts;
	async_native_options(&opts, fn, arg, free);
	opts.scope = scope;
	if (rt == NULL) {
		async_native_discard(&opts);
		return TASYNC_EBAD_STATE;
	}
	tasync_coroutine_t *co = NULL;
	int rc = tasync_spawn(rt, &opts, &co, out_error);
	if (rc != 0) {
		/* The core took nothing. */
		async_native_discard(&opts);
		return rc;
	}
	if (out != NULL) {
		*out = co;
	} else {
		tasync_coroutine_release(co);
	}
	return 0;
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
		 * see runtime/exit_hook.c; the coroutine ends cancelled), or it was
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

/*
 * The ini value of error_reporting, as a Fiber reads it (INI_INT, and E_ALL
 * when it is unset), without INI_INT's two lookups by name in the table of
 * ini directives at every start (a sixth of an empty coroutine's cost). The
 * entry is the thread's for the module's life (its value changes with
 * ini_set(), the entry stays), so it is looked up once per thread.
 */
static zend_long coroutine_error_reporting(void)
{
	ZEND_TLS zend_ini_entry *entry;
	if (entry == NULL) {
		entry = zend_hash_str_find_ptr(EG(ini_directives), "error_reporting", sizeof("error_reporting") - 1);
		if (entry == NULL) {
			return E_ALL;
		}
	}
	return entry->value != NULL ? ZEND_STRTOL(ZSTR_VAL(entry->value), NULL, 0) : E_ALL;
}

/* The first VM stack page of a coroutine (see ASYNC_VM_STACK_FIRST). */
typedef union vm_first_page {
	zval align;
	char bytes[ASYNC_VM_STACK_FIRST];
} vm_first_page;

/*
 * Gives the running coroutine self the executor state of a new PHP
 * coroutine, on c's record: a VM stack whose first page is *page (in the
 * caller's frame, which outlives every PHP frame run on it), a bottom
 * frame, the script's error_reporting, normal error handling and no output
 * buffer of its own (C23). Returns the bottom frame.
 */
static zend_execute_data *vm_begin(async_coroutine *c, tasync_coroutine_t *self, vm_first_page *page)
{
	/* The error_reporting the script started with, as for a new Fiber. */
	zend_long error_reporting = coroutine_error_reporting();
	zend_vm_stack stack = (zend_vm_stack) page->bytes;
	stack->top = ZEND_VM_STACK_ELEMENTS(stack);
	stack->end = (zval *) (page->bytes + ASYNC_VM_STACK_FIRST);
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
#else
	(void) self;
#endif
	return bottom;
}

/* Takes down what vm_begin set up (its output buffers flushed or, after a
 * fatal error, abandoned): the executor has no VM stack afterwards. */
static void vm_end(async_coroutine *c)
{
	/* What a fatal error in the flush left (a no-op otherwise). */
	async_output_end();
	/* The snapshot taken at the coroutine's last suspension describes
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

static void coroutine_entry(tasync_coroutine_t *self, void *arg)
{
	async_coroutine *c = arg;
	volatile bool fatal = false;

	/* The first VM stack page: this frame outlives every PHP frame of the
	 * coroutine, a bailout included. */
	vm_first_page first_page;
	zend_execute_data *bottom = vm_begin(c, self, &first_page);
	/* Rule C13: the zend_fiber_context it is in (fibers.c). */
	zend_function *fn = c->fcc.function_handler;
	if (fn == NULL && Z_TYPE(c->fci.function_name) == IS_OBJECT && Z_OBJCE(c->fci.function_name) == zend_ce_closure) {
		fn = (zend_function *) zend_get_closure_method_def(Z_OBJ(c->fci.function_name));
	}
	async_fibers_coroutine_start(&c->vm, fn);
	c->started = true;
	if (c->co == NULL) {
		/* A completion callback or a native coroutine the core spawned
		 * (C11, S12): its record becomes its host data now. */
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
			if (c->native != NULL) {
				c->native(self, c->native_arg);
			} else {
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
		}
		if (EG(exception)) {
			fatal = coroutine_failed(c, self);
		}
		if (!fatal) {
			/* Destructors run here, still inside the coroutine. */
			coroutine_release_call(c);
			async_safe_point();
			/* Pooled PDO connections its statements outlive stay counted. */
			if (coroutine_end_hook != NULL) {
				coroutine_end_hook(self);
			}
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
	/* Its fiber context dies while its frames still exist (C13). */
	async_fibers_coroutine_end(&c->vm, fatal);
	vm_end(c);
}

/* ------------------------------------------------------------ adopting */

/* What the adopted call printed into buffers of its own goes out. */
static void adopted_output_end(void)
{
	if (EG(exception) == NULL) {
		zend_try {
			async_output_end();
		} zend_end_try();
	}
}

bool async_call_adopting(zval *callable, zval *retval, uint32_t argc, zval *argv, zend_object **thrown)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *cur = rt != NULL ? tasync_coroutine_current(rt) : NULL;
	if (cur == NULL || tasync_coroutine_host_data(cur) != NULL || (tasync_coroutine_flags(cur) & TASYNC_CO_MAIN)) {
		return async_call_from_core(callable, retval, argc, argv, thrown);
	}
	/* A coroutine of the core (or of another extension) without PHP
	 * state: it gets a VM for the call, on a record of its own that is
	 * its host data meanwhile (the call may suspend: the switch hooks
	 * save and restore that VM), and gives both back afterwards. */
	async_coroutine *c = record_create();
	c->co = cur;
	c->started = true;
	vm_first_page page;
	zend_execute_data *saved_ex = EG(current_execute_data);
	zend_vm_stack saved_stack = EG(vm_stack);
	zval *saved_top = EG(vm_stack_top), *saved_end = EG(vm_stack_end);
	size_t saved_page = EG(vm_stack_page_size);
	zend_fiber_context *saved_fiber_context = EG(current_fiber_context);
	vm_begin(c, cur, &page);
	tasync_coroutine_set_host_data(cur, &c->vm);
	/* Rule C13: a PHP coroutine meanwhile, in a fiber context of its own. */
	async_fibers_coroutine_start(&c->vm, NULL);
	bool ok = async_call_from_core(callable, retval, argc, argv, thrown);
	adopted_output_end();
	/* Its context dies; the next switch into a PHP coroutine tells the
	 * observers it was left, as a leave hook would have (the coroutine has
	 * no host data from now on), and frees it. */
	async_fibers_coroutine_end(&c->vm, false);
	async_fibers_adopted_left();
	tasync_coroutine_set_host_data(cur, NULL);
	vm_end(c);
	EG(current_fiber_context) = saved_fiber_context;
	EG(current_execute_data) = saved_ex;
	EG(vm_stack) = saved_stack;
	EG(vm_stack_top) = saved_top;
	EG(vm_stack_end) = saved_end;
	EG(vm_stack_page_size) = saved_page;
	efree(c);
	return ok;
}

static void coroutine_arg_release(void *arg)
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
