/*
 * Backends the conformance tool must refuse with a clear message and exit
 * status 2 (see conformance/cli_test.sh). One source, built once per
 * BROKEN_KIND.
 */
#include <tasync/backend.h>

#include <stddef.h>

#define BROKEN_NO_ENTRY 1   /* exports something, but not the entry symbol */
#define BROKEN_NULL_TABLE 2 /* the entry refuses (returns NULL) */
#define BROKEN_WRONG_MAJOR 3 /* a table built for ABI 2.0 */
#define BROKEN_TOO_SMALL 4  /* a table smaller than ABI 1.0 requires */

#if BROKEN_KIND == BROKEN_NO_ENTRY

TASYNC_PLUGIN_EXPORT int tasync_backend_entry_misspelled(void) { return 0; }

#else

#if BROKEN_KIND == BROKEN_NULL_TABLE

TASYNC_BACKEND_ENTRY_DEFINE {
    (void)core_abi_version;
    return NULL;
}

#else

static tasync_backend_t g_table;

TASYNC_BACKEND_ENTRY_DEFINE {
    (void)core_abi_version;
    g_table.size = sizeof(g_table);
    g_table.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, 0);
    g_table.name = "broken";
    g_table.version = "0";
#if BROKEN_KIND == BROKEN_WRONG_MAJOR
    g_table.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR + 1, 0);
#elif BROKEN_KIND == BROKEN_TOO_SMALL
    g_table.size = (uint32_t)offsetof(tasync_backend_t, io_open);
#endif
    return &g_table;
}

#endif
#endif
