/*
 * runtime/signal.h - Async\signal() next to pcntl's and Zend's signal
 * handling, rule C26 (runtime/signal.c).
 */
#ifndef ASYNC_RUNTIME_SIGNAL_H
#define ASYNC_RUNTIME_SIGNAL_H

/* MINIT: wraps pcntl_signal(). */
void async_signal_startup(void);
/* RSHUTDOWN, after the runtime is destroyed: gives PHP's signal
 * dispositions back. */
void async_signal_request_shutdown(void);

#endif /* ASYNC_RUNTIME_SIGNAL_H */
