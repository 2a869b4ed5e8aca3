/*
 * io/processes.h - child processes of popen, the exec family and proc_open
 * (io/processes.c): reaping, the spawn attributes proc_open.c uses.
 */
#ifndef ASYNC_IO_PROCESSES_H
#define ASYNC_IO_PROCESSES_H

#include "runtime/globals.h"
#include <spawn.h>

/*
 * Reaps child pid as pclose() does and returns what PHP's pclose returns
 * (the exit code, the raw status after a signal, -1 on failure). When
 * wait, a coroutine suspends until the child exited (outside coroutines
 * the thread blocks as in PHP); a cancelled wait, or !wait, leaves the
 * child to be reaped later without waiting and returns -1.
 */
int async_io_proc_reap(pid_t pid, bool wait);

/* Leaves child pid to be reaped, without waiting, once it has exited (at a
 * later spawn or the request's end). */
void async_io_proc_abandon(pid_t pid);

/* posix_spawnattr_init() with the calling thread's signal mask for the
 * child (a spawn runs on a pool thread). Returns 0, or an error number with
 * attr not initialised. */
int async_io_proc_spawnattr_init(posix_spawnattr_t *attr);

/* A copy of environ (the array only, emalloc'd; the strings stay put while
 * the PHP thread, the only one that changes them, waits for a spawn). */
char **async_io_proc_environ(void);

#endif /* ASYNC_IO_PROCESSES_H */
