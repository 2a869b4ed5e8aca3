/*
 * runtime/fibers.h - PHP's Fibers inside coroutines (rule C13) and
 * coroutine switches told to the fiber-switch observers
 * (runtime/fibers.c).
 */
#ifndef ASYNC_RUNTIME_FIBERS_H
#define ASYNC_RUNTIME_FIBERS_H

#include "runtime/globals.h"

/* MINIT: Fiber::__construct wrapped (it turns the fiber contexts on); kind
 * is what the zend_fiber_context of a coroutine names itself with (the
 * Async\Coroutine class entry). MSHUTDOWN gives the constructor back. */
void async_fibers_startup(void *kind);
void async_fibers_shutdown(void);

/* A runtime was created in this request: decides whether coroutines get
 * fiber contexts (a Fiber was created, or observers listen). */
void async_fibers_runtime_created(void);
/* The runtime is about to be destroyed, in the main flow. */
void async_fibers_runtime_destroyed(void);

/* True when the fiber observers are told about coroutine switches
 * (async.fiber_observers, decided once per process). */
bool async_fibers_observed(void);

/*
 * The host's coroutine_enter hook, after it restored vm: the slow path,
 * taken only while ASYNC_G(fiber_contexts) is set (the hot path's one
 * branch): gives vm's coroutine its context if it has none yet, tells the
 * observers of the switch from ASYNC_G(fiber_left) and updates the
 * contexts' status.
 */
void async_fibers_entered(async_vm_state *vm);

/*
 * A PHP coroutine starts (api/spawn.c, on its own stack, its VM set up):
 * EG(current_fiber_context) becomes its own context (made now) in fiber
 * mode, or the main flow's otherwise, which no Fiber then uses. fn is the
 * function it runs (names the context's first frame for observers), NULL
 * when unknown.
 */
void async_fibers_coroutine_start(async_vm_state *vm, zend_function *fn);

/* The coroutine's PHP code is over (before its VM pages go): its context
 * is dead; the next switch tells the observers and frees it. fatal: its
 * frames were abandoned by a fatal error. */
void async_fibers_coroutine_end(async_vm_state *vm, bool fatal);

/* PHP code called in a coroutine of the core (api/spawn.c,
 * async_call_adopting) is over and the coroutine loses its PHP state: the
 * context it leaves is the `from` of the next switch, as after a leave
 * hook. */
void async_fibers_adopted_left(void);

/* The record of a coroutine goes (from inside the core too): a context it
 * still has is destroyed. */
void async_fibers_vm_free(async_vm_state *vm);

#endif /* ASYNC_RUNTIME_FIBERS_H */
