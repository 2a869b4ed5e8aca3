/*
 * runtime/fiber_guard.h - rule C13: Fibers and coroutines exclude each
 * other (runtime/fiber_guard.c).
 */
#ifndef ASYNC_RUNTIME_FIBER_GUARD_H
#define ASYNC_RUNTIME_FIBER_GUARD_H

/* MINIT / MSHUTDOWN: Fiber::__construct wrapped, then given back. */
void async_fiber_guard_startup(void);
void async_fiber_guard_shutdown(void);

#endif /* ASYNC_RUNTIME_FIBER_GUARD_H */
