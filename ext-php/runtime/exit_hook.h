/*
 * runtime/exit_hook.h - exit()/die() starts graceful shutdown, rule C15
 * (runtime/exit_hook.c).
 */
#ifndef ASYNC_RUNTIME_EXIT_HOOK_H
#define ASYNC_RUNTIME_EXIT_HOOK_H

/* MINIT / MSHUTDOWN: the hook on exit() put in place, then removed. */
void async_exit_hook_startup(void);
void async_exit_hook_shutdown(void);

#endif /* ASYNC_RUNTIME_EXIT_HOOK_H */
