/*
 * tasync/backend.h - the single exported entry symbol of a backend.
 *
 * A backend shared object exports exactly one symbol:
 *
 *     TASYNC_BACKEND_ENTRY_DEFINE { ... return &my_table; }
 *
 * which expands to the definition of tasync_backend_entry with default
 * visibility. Build the rest of the backend with -fvisibility=hidden.
 * What the table holds, and which of its entries a host requires, is in
 * reactor.h (tasync_backend_t, TASYNC_BACKEND_ENTRIES).
 */
#ifndef TASYNC_BACKEND_H
#define TASYNC_BACKEND_H

#include "reactor.h"

/* Name of the entry symbol, for dlsym. Since: ABI 1.0. */
#define TASYNC_BACKEND_ENTRY_SYMBOL "tasync_backend_entry"

TASYNC_EXTERN_C_BEGIN

/*
 * The entry function. core_abi_version is the TASYNC_ABI_VERSION of the host
 * that loads the backend, so a backend may adapt (or return NULL to refuse).
 * Returns a table that stays valid until the shared object is unloaded; the
 * caller never writes to it. Since: ABI 1.0.
 */
typedef const tasync_backend_t *(*tasync_backend_entry_fn)(uint32_t core_abi_version);

#ifdef __cplusplus
#  define TASYNC_BACKEND_ENTRY_LINKAGE_ extern "C"
#else
#  define TASYNC_BACKEND_ENTRY_LINKAGE_
#endif
/* Begins the definition of the entry function, exported with default
 * visibility; its parameter is core_abi_version. Since: ABI 1.0. */
#define TASYNC_BACKEND_ENTRY_DEFINE \
    TASYNC_BACKEND_ENTRY_LINKAGE_ TASYNC_PLUGIN_EXPORT const tasync_backend_t *tasync_backend_entry(uint32_t core_abi_version)

TASYNC_EXTERN_C_END

#endif /* TASYNC_BACKEND_H */
