/*
 * runtime/fibers.c - PHP's Fibers inside coroutines (rule C13), and every
 * coroutine switch told to the fiber-switch observers as a fiber switch.
 *
 * A Fiber runs on a C stack of its own; the coroutine that resumes it runs
 * on that stack until the fiber suspends or ends. When code inside the
 * fiber waits (I/O, await, delay, suspend), the core switches the
 * coroutine away from wherever it is, the fiber's stack included: the
 * fiber stays with its coroutine and the others run meanwhile. What PHP
 * keeps about fibers in the executor globals is therefore per coroutine:
 * EG(active_fiber) and EG(current_fiber_context) are saved and restored by
 * the switch hooks (runtime/host.c) with the rest of the VM state.
 * zend_fiber_switch_context() takes EG(current_fiber_context) as the
 * context it leaves and records it as the fiber's caller, so each
 * coroutine that meets a Fiber needs a zend_fiber_context of its own: a
 * context with no stack (the coroutine's stack is the core's), kind
 * Async\Coroutine's class entry, which only ever serves as the place a
 * fiber returns to. The main flow keeps PHP's EG(main_fiber_context).
 *
 * Debuggers and profilers (Xdebug, Datadog, New Relic, OpenTelemetry...)
 * follow Fibers through the fiber observers of zend_observer.h: each keeps
 * what it knows per zend_fiber_context (Xdebug: the function stack) and
 * swaps it when told of a switch. So the coroutine contexts are also what
 * those observers are shown: every switch between PHP coroutines (the main
 * flow included) is a zend_observer_fiber_switch_notify(from, to), with
 * PHP's status transitions (INIT on the first switch in, RUNNING while
 * running, SUSPENDED while away, DEAD on the last switch out) and an
 * init/destroy notification around each context's life. `from` is the
 * context the coroutine was in when it left: its own, or a Fiber's when it
 * waits inside one. A Fiber's context keeps the status PHP gave it
 * (RUNNING while its coroutine is away): PHP decides with it whether a
 * fiber may be resumed or must be unwound when destroyed.
 *
 * Contexts cost memory and a switch that notifies costs calls, so both
 * happen only in "fiber mode" (ASYNC_G(fiber_contexts)): once a Fiber was
 * created in the request, or from the start when observers listen.
 * Otherwise a switch pays one branch (the enter hook's test of the flag)
 * and a coroutine one store at its start. In fiber mode every switch
 * notifies, observers or not: PHP keeps the function observers' current
 * frame per fiber context and swaps it only in that notification, and the
 * end handlers of zend_observer.h run only for the frame it names (this
 * extension's own observer of the main script's end among them, see
 * runtime/request.c). PHP does not say whether any fiber observer is
 * registered, so async.fiber_observers decides whether fiber mode starts
 * with the runtime: "auto" counts them present when a Zend extension other
 * than OPcache (Xdebug, Datadog's tracer) or an extension known to observe
 * fibers or calls (New Relic, OpenTelemetry, Tideways, Blackfire) is
 * loaded, or "1". An observer it cannot see hears of the coroutines that
 * started before the request's first Fiber only from their next switch, as
 * new fibers (a context told INIT): one that keeps stacks (Xdebug) then has
 * theirs wrong, which is why this setting has no "0".
 */
#include "runtime/fibers.h"

#include "runtime/globals.h"

#include "zend_extensions.h"
#include "zend_fibers.h"
#include "zend_observer.h"

static zif_handler original_fiber_construct;
static void *coroutine_kind;

/* -1: not decided yet in this process. */
static int observed = -1;

/* The first frame observers may look at when a coroutine starts: its
 * function's first line (Xdebug names the coroutine's stack with it). */
static zend_op_array unnamed_function;
static zend_op unnamed_opline;

static ZEND_NAMED_FUNCTION(async_fiber_construct);

/* ------------------------------------------------------------ contexts */

static zend_fiber_context *context_create(void)
{
	zend_fiber_context *ctx = ecalloc(1, sizeof(*ctx));
	ctx->kind = coroutine_kind;
	ctx->status = ZEND_FIBER_STATUS_INIT;
	zend_observer_fiber_init_notify(ctx);
	return ctx;
}

static void context_destroy(zend_fiber_context *ctx)
{
	ctx->status = ZEND_FIBER_STATUS_DEAD;
	zend_observer_fiber_destroy_notify(ctx);
	efree(ctx);
}

static bool is_coroutine_context(const zend_fiber_context *ctx)
{
	return ctx->kind == coroutine_kind && ctx->kind != NULL;
}

/*
 * The switch from `from` (the context the last PHP coroutine left, NULL
 * when unknown) to `to`, as zend_fiber_switch_context() tells it: the
 * observers first, then the status of both. A coroutine context that died
 * is destroyed once told, as PHP destroys a dead fiber's context after its
 * last switch.
 */
static void context_switch(zend_fiber_context *from, zend_fiber_context *to)
{
	ASYNC_G(fiber_left) = NULL;
	if (from != NULL && from != to) {
		zend_observer_fiber_switch_notify(from, to);
		if (from->status == ZEND_FIBER_STATUS_DEAD) {
			if (is_coroutine_context(from)) {
				context_destroy(from);
			}
		} else if (from->kind != zend_ce_fiber && from->status == ZEND_FIBER_STATUS_RUNNING) {
			from->status = ZEND_FIBER_STATUS_SUSPENDED;
		}
	}
	if (to->kind != zend_ce_fiber) {
		to->status = ZEND_FIBER_STATUS_RUNNING;
	}
}

/* Gives the running coroutine (vm, not the main flow's) its own context
 * when it has none yet. */
static void ensure_own_context(async_vm_state *vm)
{
	if (vm == NULL || vm == &ASYNC_G(main_vm) || vm->own_fiber_context != NULL) {
		return;
	}
	vm->own_fiber_context = context_create();
	if (EG(current_fiber_context) == EG(main_fiber_context) || EG(current_fiber_context) == NULL) {
		/* It ran on the main flow's context, which no Fiber used here. */
		EG(current_fiber_context) = vm->own_fiber_context;
	}
}

/* ------------------------------------------------------------- the mode */

bool async_fibers_observed(void)
{
	if (EXPECTED(observed >= 0)) {
		return observed != 0;
	}
	if (ASYNC_G(fiber_observers) > 0) {
		observed = 1;
		return true;
	}
	/* "auto": the debuggers and profilers that observe fibers are Zend
	 * extensions (Xdebug), or extensions known to (module names); OPcache
	 * observes none. */
	observed = 0;
	for (zend_llist_element *e = zend_extensions.head; e != NULL; e = e->next) {
		zend_extension *ext = (zend_extension *) e->data;
		if (ext->name != NULL && strcmp(ext->name, "Zend OPcache") != 0) {
			observed = 1;
			return true;
		}
	}
	static const char *const observing_modules[] = {
		"newrelic", "opentelemetry", "tideways", "tideways_xhprof", "blackfire", "ddtrace", "datadog-profiling",
	};
	for (size_t i = 0; i < sizeof(observing_modules) / sizeof(observing_modules[0]); i++) {
		if (zend_hash_str_exists(&module_registry, observing_modules[i], strlen(observing_modules[i]))) {
			observed = 1;
			return true;
		}
	}
	return false;
}

void async_fibers_runtime_created(void)
{
	ASYNC_G(fiber_left) = NULL;
	ASYNC_G(fiber_contexts) = ASYNC_G(fiber_used) || async_fibers_observed();
}

void async_fibers_runtime_destroyed(void)
{
	zend_fiber_context *left = ASYNC_G(fiber_left);
	ASYNC_G(fiber_left) = NULL;
	if (left != NULL && left->status == ZEND_FIBER_STATUS_DEAD && is_coroutine_context(left)) {
		context_destroy(left);
	}
	ASYNC_G(fiber_contexts) = false;
}

/* --------------------------------------------------------- the switches */

void async_fibers_entered(async_vm_state *vm)
{
	zend_fiber_context *to = vm->fiber_context;
	if (to == NULL) {
		/* A coroutine that has not started: its start does the rest. */
		return;
	}
	if (vm != &ASYNC_G(main_vm) && vm->own_fiber_context == NULL) {
		/* It started before the request's first Fiber. */
		ensure_own_context(vm);
		to = EG(current_fiber_context);
	}
	context_switch(ASYNC_G(fiber_left), to);
}

void async_fibers_coroutine_start(async_vm_state *vm, zend_function *fn)
{
	if (EXPECTED(!ASYNC_G(fiber_contexts))) {
		/* Never NULL for PHP, and no Fiber exists that could use it. */
		EG(current_fiber_context) = EG(main_fiber_context);
		return;
	}
	EG(current_fiber_context) = NULL;
	ensure_own_context(vm);
	zend_fiber_context *from = ASYNC_G(fiber_left);
	if (from == NULL) {
		context_switch(NULL, vm->own_fiber_context);
		return;
	}
	/* Observers may look at the current frame (Xdebug names the new stack
	 * after its file and line): show them the function the coroutine
	 * runs, as if at its first line. */
	zend_execute_data *bottom = EG(current_execute_data);
	zend_execute_data first;
	memset(&first, 0, sizeof(first));
	first.func = fn != NULL && ZEND_USER_CODE(fn->type) ? fn : (zend_function *) &unnamed_function;
	if (bottom != NULL) {
		bottom->prev_execute_data = &first;
	} else {
		EG(current_execute_data) = &first;
	}
	context_switch(from, vm->own_fiber_context);
	if (bottom != NULL) {
		bottom->prev_execute_data = NULL;
	}
	EG(current_execute_data) = bottom;
}

void async_fibers_coroutine_end(async_vm_state *vm, bool fatal)
{
	zend_fiber_context *own = vm->own_fiber_context;
	if (own == NULL) {
		return;
	}
	vm->own_fiber_context = NULL;
	own->status = ZEND_FIBER_STATUS_DEAD;
	if (fatal) {
		/* What the function observers still count as running ends while
		 * its frames exist (PHP does it at the switch out of a dead
		 * fiber, which comes after the frames went here). */
		zend_observer_fcall_end_all();
	}
	if (EG(current_fiber_context) != own) {
		/* Not the context the switch out will name: nobody else will. */
		context_destroy(own);
		return;
	}
	/* The switch out of the coroutine tells the observers and destroys it
	 * (context_switch). */
}

void async_fibers_adopted_left(void)
{
	if (ASYNC_G(fiber_contexts)) {
		ASYNC_G(fiber_left) = EG(current_fiber_context);
	}
}

void async_fibers_vm_free(async_vm_state *vm)
{
	zend_fiber_context *own = vm->own_fiber_context;
	if (own == NULL) {
		return;
	}
	vm->own_fiber_context = NULL;
	if (ASYNC_G(fiber_left) == own) {
		ASYNC_G(fiber_left) = NULL;
	}
	context_destroy(own);
}

/* ------------------------------------------------------------ valgrind */

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
/*
 * Debian's PHP is built without valgrind support, so the C stacks of its
 * Fibers are not registered with valgrind, which then takes a switch
 * between one and a coroutine's stack (registered by the core) for a jump
 * of the stack pointer within one stack and loses track of both. Under
 * valgrind only, an init and a destroy observer register each Fiber's
 * stack; zend_fiber_stack (private to Zend/zend_fibers.c) starts with its
 * base and size.
 */
typedef struct fiber_stack_head {
	void *pointer;
	size_t size;
} fiber_stack_head;

static HashTable valgrind_stacks;

static void valgrind_fiber_init(zend_fiber_context *ctx)
{
	if (ctx->kind != zend_ce_fiber || ctx->stack == NULL) {
		return;
	}
	fiber_stack_head *stack = (fiber_stack_head *) ctx->stack;
	char *lo = stack->pointer;
	unsigned id = VALGRIND_STACK_REGISTER(lo, lo + stack->size);
	zend_hash_index_update_ptr(&valgrind_stacks, (zend_ulong) (uintptr_t) ctx, (void *) (uintptr_t) id);
}

static void valgrind_fiber_destroy(zend_fiber_context *ctx)
{
	void *id = zend_hash_index_find_ptr(&valgrind_stacks, (zend_ulong) (uintptr_t) ctx);
	if (id != NULL) {
		VALGRIND_STACK_DEREGISTER((unsigned) (uintptr_t) id);
		zend_hash_index_del(&valgrind_stacks, (zend_ulong) (uintptr_t) ctx);
	}
}

static void valgrind_startup(void)
{
	if (RUNNING_ON_VALGRIND) {
		zend_hash_init(&valgrind_stacks, 8, NULL, NULL, 1);
		zend_observer_fiber_init_register(valgrind_fiber_init);
		zend_observer_fiber_destroy_register(valgrind_fiber_destroy);
	}
}

static void valgrind_shutdown(void)
{
	if (RUNNING_ON_VALGRIND) {
		zend_hash_destroy(&valgrind_stacks);
	}
}
#else
static void valgrind_startup(void) {}
static void valgrind_shutdown(void) {}
#endif

/* ------------------------------------------------------ new Fiber (C13) */

static ZEND_NAMED_FUNCTION(async_fiber_construct)
{
	ASYNC_G(fiber_used) = true;
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt != NULL && !ASYNC_G(fiber_contexts)) {
		/* The request's first Fiber: from now on every coroutine has a
		 * context of its own, this one at once, the others when they next
		 * run (async_fibers_entered). */
		ASYNC_G(fiber_contexts) = true;
		ASYNC_G(fiber_left) = NULL;
		async_vm_state *vm = tasync_coroutine_host_data(tasync_coroutine_current(rt));
		if (vm != NULL && vm != &ASYNC_G(main_vm)) {
			/* Until now the coroutines shared what the main flow's context
			 * holds (the function observers' current frame, which this
			 * extension's own observer of the main script's end relies
			 * on): told as a switch out of the main flow into this
			 * coroutine, the main flow keeps it and this one starts
			 * afresh, as every coroutine from now on. */
			ensure_own_context(vm);
			context_switch(EG(main_fiber_context), vm->own_fiber_context);
		}
	}
	original_fiber_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_fibers_startup(void *kind)
{
	coroutine_kind = kind;
	valgrind_startup();
	unnamed_function.type = ZEND_USER_FUNCTION;
	unnamed_function.filename = zend_string_init_interned("[coroutine]", sizeof("[coroutine]") - 1, 1);
	unnamed_function.opcodes = &unnamed_opline;
	zend_function *ctor = zend_ce_fiber->constructor;
	if (ctor != NULL && ctor->type == ZEND_INTERNAL_FUNCTION) {
		original_fiber_construct = ctor->internal_function.handler;
		ctor->internal_function.handler = async_fiber_construct;
	}
}

void async_fibers_shutdown(void)
{
	valgrind_shutdown();
	zend_function *ctor = zend_ce_fiber->constructor;
	if (original_fiber_construct != NULL && ctor != NULL && ctor->internal_function.handler == async_fiber_construct) {
		ctor->internal_function.handler = original_fiber_construct;
	}
	original_fiber_construct = NULL;
}
