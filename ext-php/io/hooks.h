/*
 * io/hooks.h - the table of hooked PHP functions (io/hooks.c).
 */
#ifndef ASYNC_IO_HOOKS_H
#define ASYNC_IO_HOOKS_H

#include "php.h"

/* Replaces the handler of an internal function; returns the original one,
 * or NULL when the function does not exist. Restored by
 * async_io_unhook_all() at MSHUTDOWN. */
zif_handler async_io_hook(const char *name, zif_handler handler);

/*
 * Functions that PHP declares as implementation aliases of a hooked one
 * (gzclose() is fclose()'s handler under another name) get the hook too:
 * their callers must not bypass it. Run after every hook is in place.
 */
void async_io_hook_aliases(void);

/* Puts PHP's handlers back (MSHUTDOWN), last hooked first. */
void async_io_unhook_all(void);

#endif /* ASYNC_IO_HOOKS_H */
