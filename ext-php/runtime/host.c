/*
 * runtime/host.c - what the core calls back (api/include/tasync/host.h):
 * PHP values and exceptions as opaque pointers, source locations, warnings,
 * and the executor switch done in coroutine_enter / coroutine_leave exactly
 * as php-src's Fibers do it (Zend/zend_fibers.c); and the safe points where
 * what those callbacks queued runs. The module (async.c) assembles the
 * host table from these members and those of the other wings.
 *
 * One rule shapes this file: no PHP code may run inside a core callback (the
 * core is in the middle of scheduling, and PHP code could suspend or bail
 * out across its C++ frames). So a callback that would drop the last
 * reference of a PHP value (which may run a destructor), or that would show
 * a warning (which may run a user error handler), only queues the work; it
 * runs at the next safe point, when a PHP function of this extension gets
 * control back from the core (async_safe_point).
 */
#include "runtime/host.h"

#include "api/exceptions.h"
#include "runtime/fibers.h"
#include "runtime/globals.h"

#include "zend_fibers.h"
#include "zend_smart_str.h"

/* ------------------------------------------------------------- values */

typedef struct async_box {
	uint32_t refs;
	zval value;
} async_box;

void *async_value_box(zval *value)
{
	async_box *box = emalloc(sizeof(*box));
	box->refs = 1;
	ZVAL_COPY_DEREF(&box->value, value);
	return box;
}

void async_value_unbox(void *ptr, zval *dst)
{
	if (ptr == NULL) {
		ZVAL_NULL(dst);
		return;
	}
	ZVAL_COPY(dst, &((async_box *) ptr)->value);
}

zval *async_value_zval(void *ptr)
{
	return &((async_box *) ptr)->value;
}

uint32_t async_value_refs(void *ptr)
{
	return ((async_box *) ptr)->refs;
}

void async_defer_release(zval *zv)
{
	if (Z_REFCOUNTED_P(zv) && GC_TYPE(Z_COUNTED_P(zv)) == IS_NULL) {
		/* The garbage collector is destroying this value (it marks
		 * garbage that way, and frees it when the collection ends): drop
		 * the reference now, it runs no code; later it would be gone. */
		zval_ptr_dtor(zv);
		return;
	}
	if (ASYNC_G(request_ended)) {
		/* The runtime is gone and no core callback is on the stack: the
		 * engine is freeing the objects the request left (request.c). */
		zval_ptr_dtor(zv);
		return;
	}
	if (Z_REFCOUNTED_P(zv)) {
		/* The same value is queued already (the one cancellation error of
		 * an abort, released by every coroutine it ends, thousands in a
		 * row with no safe point between them): that entry still holds a
		 * reference, so this one is dropped now (it can neither free the
		 * value nor start the collector), and the queue does not grow
		 * with the number of coroutines. After an out-of-memory error
		 * (rule C22) the unwinding must need no memory per coroutine. */
		uint32_t n = ASYNC_G(deferred_count);
		for (uint32_t i = n; i > 0 && n - i < 8; i--) {
			zval *q = &ASYNC_G(deferred)[i - 1];
			if (Z_REFCOUNTED_P(q) && Z_COUNTED_P(q) == Z_COUNTED_P(zv)) {
				GC_DELREF(Z_COUNTED_P(zv));
				return;
			}
		}
	}
	if (ASYNC_G(deferred_count) == ASYNC_G(deferred_size)) {
		ASYNC_G(deferred_size) = ASYNC_G(deferred_size) ? ASYNC_G(deferred_size) * 2 : 16;
		ASYNC_G(deferred) = erealloc(ASYNC_G(deferred), sizeof(zval) * ASYNC_G(deferred_size));
	}
	ZVAL_COPY_VALUE(&ASYNC_G(deferred)[ASYNC_G(deferred_count)++], zv);
}

void async_host_value_retain(void *hd, void *value)
{
	(void) hd;
	if (ASYNC_IS_OBJECT_KEY(value)) {
		/* An object used as a context key (api/context.c). */
		GC_ADDREF(ASYNC_KEY_OBJECT(value));
		return;
	}
	((async_box *) value)->refs++;
}

void async_host_value_release(void *hd, void *value)
{
	async_box *box = value;
	(void) hd;
	if (ASYNC_IS_OBJECT_KEY(value)) {
		zval zv;
		ZVAL_OBJ(&zv, ASYNC_KEY_OBJECT(value));
		async_defer_release(&zv);
		return;
	}
	if (--box->refs != 0) {
		return;
	}
	/* Even a decrement that leaves the value alive may start the cycle
	 * collector (and destructors), so refcounted values go to the queue. */
	if (Z_REFCOUNTED(box->value)) {
		async_defer_release(&box->value);
	}
	efree(box);
}

/* ------------------------------------------------------------- errors */

void async_host_error_retain(void *hd, void *error)
{
	(void) hd;
	GC_ADDREF((zend_object *) error);
}

void async_host_error_release(void *hd, void *error)
{
	zval zv;
	(void) hd;
	ZVAL_OBJ(&zv, (zend_object *) error);
	async_defer_release(&zv);
}

void *async_host_error_create(void *hd, int kind, int code, const char *message)
{
	(void) hd;
	return async_error_create(kind, code, message);
}

int async_host_error_is_cancellation(void *hd, void *error)
{
	(void) hd;
	return instanceof_function(((zend_object *) error)->ce, async_ce_cancellation_error);
}

size_t async_host_error_describe(void *hd, void *error, char *buf, size_t len)
{
	zend_object *obj = error;
	zval rv, *msg;
	(void) hd;
	msg = zend_read_property_ex(zend_get_exception_base(obj), obj, ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
	const char *text = (msg && Z_TYPE_P(msg) == IS_STRING) ? Z_STRVAL_P(msg) : "";
	int n = snprintf(buf, len, "%s: %s", ZSTR_VAL(obj->ce->name), text);
	return n < 0 ? 0 : (size_t) n;
}

/* ------------------------------------------------------ the VM switch */

/*
 * Beyond what Fibers switch, rule C23 makes two pieces of engine state per
 * coroutine. The error-handling mode: PHP functions set EH_THROW around
 * work that may now suspend (a stream wrapper's opendir, a connect), and
 * another coroutine's warnings must not turn into that exception meanwhile.
 * The output-buffer stack: the handlers, the active one and the one running
 * (a callback may suspend), so that ob_start() in one coroutine does not
 * capture what the others print. OG(flags) stays the request's: it says
 * whether the output layer is up, disabled, has sent output, or flushes
 * implicitly, which are facts about the SAPI, not about one coroutine's
 * buffers. These are a few word copies each way, cheaper than comparing
 * them first.
 */
static void host_save_vm(async_vm_state *s)
{
	s->vm_stack = EG(vm_stack);
	s->vm_stack_top = EG(vm_stack_top);
	s->vm_stack_end = EG(vm_stack_end);
	s->vm_stack_page_size = EG(vm_stack_page_size);
	s->current_execute_data = EG(current_execute_data);
	s->error_reporting = EG(error_reporting);
	s->jit_trace_num = EG(jit_trace_num);
	s->bailout = EG(bailout);
	s->active_fiber = EG(active_fiber);
	s->fiber_context = EG(current_fiber_context);
	s->error_handling = EG(error_handling);
	s->exception_class = EG(exception_class);
	s->ob_handlers = OG(handlers);
	s->ob_active = OG(active);
	s->ob_running = OG(running);
#ifdef ZEND_CHECK_STACK_LIMIT
	s->stack_base = EG(stack_base);
	s->stack_limit = EG(stack_limit);
#endif
}

static void host_restore_vm(const async_vm_state *s)
{
	EG(vm_stack) = s->vm_stack;
	EG(vm_stack_top) = s->vm_stack_top;
	EG(vm_stack_end) = s->vm_stack_end;
	EG(vm_stack_page_size) = s->vm_stack_page_size;
	EG(current_execute_data) = s->current_execute_data;
	EG(error_reporting) = s->error_reporting;
	EG(jit_trace_num) = s->jit_trace_num;
	EG(bailout) = s->bailout;
	EG(active_fiber) = s->active_fiber;
	EG(current_fiber_context) = s->fiber_context;
	EG(error_handling) = s->error_handling;
	EG(exception_class) = s->exception_class;
	OG(handlers) = s->ob_handlers;
	OG(active) = s->ob_active;
	OG(running) = s->ob_running;
#ifdef ZEND_CHECK_STACK_LIMIT
	EG(stack_base) = s->stack_base;
	EG(stack_limit) = s->stack_limit;
#endif
}

/* ------------------------------------------------ output buffers (C23) */

static void host_output_abandon(async_vm_state *s);

void async_output_start(void)
{
	zend_stack_init(&OG(handlers), sizeof(php_output_handler *));
	OG(active) = NULL;
	OG(running) = NULL;
}

void async_output_end(void)
{
	/* php_output_end_all(): each buffer, innermost first, goes through its
	 * handler into the one below it, the last one to the SAPI. Not when a
	 * fatal error left a handler running: calling into it again would make
	 * PHP switch the whole output layer off ("Cannot use output buffering
	 * in output buffering display handlers"). */
	if (OG(active) != NULL && OG(running) == NULL) {
		php_output_end_all();
	}
	/* What is left then (a fatal error or exit() in a callback): the
	 * callbacks are not called again, but what their buffers hold is
	 * written out as it is, outermost first, before they are freed. The
	 * running callback's buffer holds what it printed, and the fatal
	 * error's message: plain PHP loses both (then reports "Cannot use
	 * output buffering in output buffering display handlers" at its
	 * shutdown, in place of the real error); C23 in docs/rules.md. */
	smart_str raw = {0};
	if (zend_stack_count(&OG(handlers)) > 0) {
		php_output_handler **list = OG(handlers).elements;
		for (int i = 0; i < OG(handlers).top; i++) {
			if (list[i]->buffer.used > 0) {
				smart_str_appendl(&raw, list[i]->buffer.data, list[i]->buffer.used);
			}
		}
		async_vm_state s;
		s.ob_handlers = OG(handlers);
		host_output_abandon(&s);
		OG(handlers) = s.ob_handlers;
	}
	OG(active) = NULL;
	OG(running) = NULL;
	zend_stack_destroy(&OG(handlers));
	/* With no buffer left, this goes to the SAPI. */
	if (raw.s != NULL) {
		php_output_write(ZSTR_VAL(raw.s), ZSTR_LEN(raw.s));
		smart_str_free(&raw);
	}
}

static void host_output_abandon(async_vm_state *s)
{
	php_output_handler **list = s->ob_handlers.elements;
	for (int i = s->ob_handlers.top - 1; i >= 0; i--) {
		php_output_handler *h = list[i];
		if ((h->flags & PHP_OUTPUT_HANDLER_USER) && h->func.user != NULL) {
			/* The callable may hold objects whose destructors are PHP code. */
			async_defer_release(&h->func.user->zoh);
			ZVAL_UNDEF(&h->func.user->zoh);
		}
		php_output_handler_free(&h);
	}
	s->ob_handlers.top = 0;
	s->ob_active = NULL;
	s->ob_running = NULL;
	if (s->ob_handlers.elements != NULL) {
		efree(s->ob_handlers.elements);
		s->ob_handlers.elements = NULL;
	}
	s->ob_handlers.max = 0;
}

void async_host_coroutine_enter(void *hd, tasync_coroutine_t *co, void *co_data)
{
	(void) hd;
	(void) co;
	if (co_data != NULL) {
		host_restore_vm(co_data);
		/* Fibers in coroutines and the fiber observers (C13): the switch's
		 * one branch when neither is in use. */
		if (UNEXPECTED(ASYNC_G(fiber_contexts))) {
			async_fibers_entered(co_data);
		}
	}
}

void async_host_coroutine_leave(void *hd, tasync_coroutine_t *co, void *co_data)
{
	(void) hd;
	(void) co;
	if (co_data != NULL) {
		host_save_vm(co_data);
		/* The `from` of the next switch the fiber observers hear of. */
		ASYNC_G(fiber_left) = EG(current_fiber_context);
	}
	/* Native coroutines (no PHP state) run next possibly: leave no frame
	 * pointer behind that capture_location could follow. */
	EG(current_execute_data) = NULL;
}

void async_vm_free_pages(async_vm_state *s)
{
	/* The first page may sit on a C stack that is gone already: it is
	 * compared, never read. */
	zend_vm_stack stack = s->vm_stack;
	while (stack != NULL && stack != s->vm_stack_first) {
		zend_vm_stack prev = stack->prev;
		efree(stack);
		stack = prev;
	}
	s->vm_stack = NULL;
	host_output_abandon(s);
}

/* ------------------------------------------------ warnings, locations */

/* Queues a warning for the next safe point, reported at where (the user
 * code that ran when the core raised it, or what it is about). */
void async_host_warning_at(void *hd, const char *message, const tasync_location_t *where)
{
	(void) hd;
	if (ASYNC_G(warning_count) == ASYNC_G(warning_size)) {
		ASYNC_G(warning_size) = ASYNC_G(warning_size) ? ASYNC_G(warning_size) * 2 : 8;
		ASYNC_G(warnings) = erealloc(ASYNC_G(warnings), sizeof(async_warning) * ASYNC_G(warning_size));
	}
	async_warning *w = &ASYNC_G(warnings)[ASYNC_G(warning_count)++];
	w->message = zend_string_init(message, strlen(message), 0);
	if (where != NULL) {
		w->where = *where;
	} else {
		memset(&w->where, 0, sizeof(w->where));
	}
}

void async_host_warning(void *hd, const char *message)
{
	async_host_warning_at(hd, message, NULL);
}

/*
 * The core asks at every spawn and every suspension (the suspend location
 * must outlive the suspension: introspection reads it after the coroutine
 * resumed or finished), so this is the cheap token only: the file name of
 * the innermost user frame, held, and the line. Text is made only when
 * introspection asks (getSpawnLocation() and the reports). One walk down
 * the frames does what zend_get_executed_filename_ex() and
 * zend_get_executed_lineno() do with one walk each.
 */
int async_host_capture_location(void *hd, tasync_location_t *out)
{
	(void) hd;
	zend_execute_data *ex = EG(current_execute_data);
	while (ex != NULL && (ex->func == NULL || !ZEND_USER_CODE(ex->func->type))) {
		ex = ex->prev_execute_data;
	}
	if (ex == NULL) {
		return -1;
	}
	zend_string *file = ex->func->op_array.filename;
#if PHP_VERSION_ID >= 80300
	if (UNEXPECTED(EG(filename_override) != NULL)) {
		/* PHP names another place while it evaluates a constant
		 * expression: say what it says. */
		file = zend_get_executed_filename_ex();
	}
#endif
	/* The core keeps the pointer until the runtime goes: hold a reference
	 * (eval()'d code's file name would otherwise be freed with it). */
	if (UNEXPECTED(file != ASYNC_G(last_filename))) {
		zend_ulong key = (zend_ulong) (uintptr_t) file;
		if (!zend_hash_index_exists(&ASYNC_G(filenames), key)) {
			zval zv;
			ZVAL_STR_COPY(&zv, file);
			zend_hash_index_add_new(&ASYNC_G(filenames), key, &zv);
		}
		ASYNC_G(last_filename) = file;
	}
	const zend_op *opline = ex->opline;
#if PHP_VERSION_ID >= 80300
	if (UNEXPECTED(EG(filename_override) != NULL)) {
		out->line = zend_get_executed_lineno();
	} else
#endif
	if (opline == NULL) {
		/* No SAVE_OPLINE() yet: the function's first line, as PHP says. */
		out->line = ex->func->op_array.opcodes[0].lineno;
	} else if (EG(exception) != NULL && opline->opcode == ZEND_HANDLE_EXCEPTION && opline->lineno == 0
			&& EG(opline_before_exception) != NULL) {
		out->line = EG(opline_before_exception)->lineno;
	} else {
		out->line = opline->lineno;
	}
	out->file = ZSTR_VAL(file);
	out->reserved0 = 0;
	return 0;
}

/* --------------------------------------------------------- safe points */

void async_safe_point(void)
{
	/* Warnings first: they describe what happened before the releases. */
	if (ASYNC_G(warning_count) > 0) {
		uint32_t n = ASYNC_G(warning_count);
		async_warning *list = ASYNC_G(warnings);
		ASYNC_G(warnings) = NULL;
		ASYNC_G(warning_count) = ASYNC_G(warning_size) = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (EG(exception)) {
				/* not shown */
			} else if (list[i].where.file != NULL) {
				zend_string *file = zend_string_init(list[i].where.file, strlen(list[i].where.file), 0);
				zend_error_at(E_WARNING, file, list[i].where.line, "%s", ZSTR_VAL(list[i].message));
				zend_string_release(file);
			} else {
				zend_error(E_WARNING, "%s", ZSTR_VAL(list[i].message));
			}
			zend_string_release(list[i].message);
		}
		efree(list);
	}
	async_flush_releases();
}

void async_defer_free(async_deferred_free *node, void (*run)(async_deferred_free *node))
{
	node->run = run;
	node->next = NULL;
	if (ASYNC_G(deferred_frees_last) != NULL) {
		ASYNC_G(deferred_frees_last)->next = node;
	} else {
		ASYNC_G(deferred_frees) = node;
	}
	ASYNC_G(deferred_frees_last) = node;
}

void async_flush_releases(void)
{
	while (ASYNC_G(deferred_count) > 0 || ASYNC_G(deferred_scope_count) > 0 || ASYNC_G(deferred_frees) != NULL) {
		if (ASYNC_G(deferred_frees) != NULL) {
			/* Each frees what holds the next pointer: unlink it first. */
			async_deferred_free *node = ASYNC_G(deferred_frees);
			ASYNC_G(deferred_frees) = node->next;
			if (ASYNC_G(deferred_frees) == NULL) {
				ASYNC_G(deferred_frees_last) = NULL;
			}
			node->run(node);
			continue;
		}
		if (ASYNC_G(deferred_scope_count) > 0) {
			tasync_scope_release(ASYNC_G(deferred_scopes)[--ASYNC_G(deferred_scope_count)]);
			continue;
		}
		zval zv;
		ZVAL_COPY_VALUE(&zv, &ASYNC_G(deferred)[--ASYNC_G(deferred_count)]);
		zval_ptr_dtor(&zv);
	}
}

void async_defer_scope_release(tasync_scope_t *scope)
{
	if (tasync_scope_flags(scope) & TASYNC_SCOPE_GLOBAL) {
		return; /* not refcounted, and gone with the runtime */
	}
	if (ASYNC_G(deferred_scope_count) == ASYNC_G(deferred_scope_size)) {
		ASYNC_G(deferred_scope_size) = ASYNC_G(deferred_scope_size) ? ASYNC_G(deferred_scope_size) * 2 : 8;
		ASYNC_G(deferred_scopes) = erealloc(ASYNC_G(deferred_scopes),
			sizeof(tasync_scope_t *) * ASYNC_G(deferred_scope_size));
	}
	ASYNC_G(deferred_scopes)[ASYNC_G(deferred_scope_count)++] = scope;
}

/* ------------------------------------------- PHP code inside core calls */

void async_exception_set_aside(async_exception_aside *a)
{
	a->exception = EG(exception);
	a->opline = EG(opline_before_exception);
	EG(exception) = NULL;
}

void async_exception_restore(const async_exception_aside *a)
{
	if (a->exception == NULL) {
		return;
	}
	if (EG(exception) != NULL) {
		zend_exception_set_previous(EG(exception), a->exception);
	} else {
		EG(exception) = a->exception;
		EG(opline_before_exception) = a->opline;
	}
}

/* Throws what a core call that may have run PHP code returned. */
void async_core_call_done(int rc, void *err)
{
	async_safe_point();
	async_rethrow_bailout();
	if (rc != 0) {
		async_throw_error(rc, err);
	} else if (err != NULL) {
		OBJ_RELEASE((zend_object *) err);
	}
}

bool async_call_from_core(zval *callable, zval *retval, uint32_t argc, zval *argv, zend_object **thrown)
{
	ZVAL_UNDEF(retval);
	*thrown = NULL;
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *cur = rt != NULL ? tasync_coroutine_current(rt) : NULL;
	if (cur == NULL || tasync_coroutine_host_data(cur) == NULL || ASYNC_G(bailout_pending)) {
		/* A native coroutine of another extension (no PHP VM stack of its
		 * own), or the request is already failing: no PHP code here. */
		return false;
	}
	/* Called while an exception unwinds (a destructor): keep it aside. */
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	bool ok = true;
	zend_fcall_info fci;
	fci.size = sizeof(fci);
	ZVAL_COPY_VALUE(&fci.function_name, callable);
	fci.object = NULL;
	fci.retval = retval;
	fci.params = argv;
	fci.param_count = argc;
	fci.named_params = NULL;
	zend_try {
		if (zend_call_function(&fci, NULL) != SUCCESS) {
			ok = false;
		}
	} zend_catch {
		/* A fatal error: the core is between its own frames here, so the
		 * bailout waits until it has returned (async_rethrow_bailout). */
		ASYNC_G(bailout_pending) = true;
		ok = false;
	} zend_end_try();
	if (EG(exception) != NULL && zend_is_unwind_exit(EG(exception)) && async_request_failed()) {
		/* A fatal error PHP reported by unwinding (C22): a bailout too. */
		zend_clear_exception();
		ASYNC_G(bailout_pending) = true;
		ok = false;
	}
	if (EG(exception) != NULL) {
		*thrown = EG(exception);
		GC_ADDREF(*thrown);
		zend_clear_exception();
	}
	async_exception_restore(&aside);
	return ok;
}

void async_rethrow_bailout(void)
{
	if (ASYNC_G(bailout_pending)) {
		ASYNC_G(bailout_pending) = false;
		zend_bailout();
	}
}

bool async_after_switch(void)
{
	async_safe_point();
	/* Only after async_abort_all can a resumed coroutine be aborted: until
	 * then a resume costs no call into the core. */
	tasync_coroutine_t *cur = ASYNC_G(aborting) && ASYNC_G(rt) != NULL ? tasync_coroutine_current(ASYNC_G(rt)) : NULL;
	if (cur != NULL && async_coroutine_aborted(cur)) {
		/* The request is ending (exit or a fatal error elsewhere, rule
		 * C22): this coroutine unwinds without running more user code, as
		 * the main flow does after exit(). The core aborts the main flow
		 * only for a fatal error: it bails out, as PHP's own main script
		 * does after one. */
		if (EG(exception)) {
			zend_clear_exception();
		}
		if (tasync_coroutine_flags(cur) & TASYNC_CO_MAIN) {
			zend_bailout();
		}
		zend_throw_unwind_exit();
		return false;
	}
	return !EG(exception);
}

void async_throw_error(int rc, void *err)
{
	if (EG(exception)) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return;
	}
	if (err != NULL) {
		zval zv;
		ZVAL_OBJ(&zv, (zend_object *) err);
		zend_throw_exception_object(&zv);
		return;
	}
	zend_throw_exception_ex(async_ce_async_exception, rc, "%s", tasync_strerror(rc));
}

void async_switch_done(int rc, void *err)
{
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return;
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

void async_abort_all(int mode)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return;
	}
	ASYNC_G(aborting) = true;
	if (mode == TASYNC_ABORT_FATAL) {
		ASYNC_G(fatal_abort) = true;
	}
	/* One cancellation error for all: it only wakes them; each one then
	 * unwinds with unwind_exit at its suspension point (the core decides
	 * which coroutines, the main flow included, are aborted). */
	zend_object *err = async_error_create(TASYNC_ERROR_CANCELLATION, -ECANCELED,
		"The program is shutting down");
	tasync_runtime_abort(rt, mode, err);
	OBJ_RELEASE(err);
}

void async_host_discard_warnings(void)
{
	for (uint32_t i = 0; i < ASYNC_G(warning_count); i++) {
		zend_string_release(ASYNC_G(warnings)[i].message);
	}
	ASYNC_G(warning_count) = 0;
	async_safe_point();
}
