/*
 * The randomized tester's clock backend (tasync-random-clock.so): a backend
 * whose table the tester fills in itself. The core loads backends only
 * from files, so the tester points it at this one; the table is a copy of
 * the real backend's (uv, uring or ev, which the tester loads itself) with
 * the clock, the wait and the wakeup replaced by the tester's virtual clock
 * (clock.hpp). Nothing here but the table: the logic is the tester's.
 */
#include <tasync/backend.h>

static tasync_backend_t g_table;

/* The table the entry function returns, for the tester to fill before it
 * creates a runtime on this backend. */
TASYNC_PLUGIN_EXPORT tasync_backend_t *tasync_random_clock_table(void) { return &g_table; }

TASYNC_BACKEND_ENTRY_DEFINE {
    (void)core_abi_version;
    return g_table.size != 0 ? &g_table : NULL;
}
