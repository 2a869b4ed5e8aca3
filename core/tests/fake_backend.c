/*
 * Deliberately defective or unusual backends for the loader tests. One
 * source, compiled once per FAKE_KIND. The working variants borrow libuv's
 * table from the real uv backend (found through $TASYNC_BACKEND_DIR) and
 * change what the test is about.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_NO_ENTRY 1      /* exports no entry symbol */
#define FAKE_NULL_TABLE 2    /* entry returns NULL */
#define FAKE_WRONG_MAJOR 3   /* built for ABI 2.0 */
#define FAKE_TOO_SMALL 4     /* table smaller than ABI 1.0 requires */
#define FAKE_MISSING_OP 5    /* io_start is NULL */
#define FAKE_INIT_FAILS 6    /* loop_create fails with a reason */
#define FAKE_OLDER_MINOR 7   /* table ends at child_open: optional entries absent */
#define FAKE_NEWER_MINOR 8   /* a newer minor with extra members at the end */

#ifndef FAKE_KIND
#error FAKE_KIND must be defined
#endif

__attribute__((unused)) static const tasync_backend_t *real_uv(void) {
    char path[4096];
    const char *dir = getenv("TASYNC_BACKEND_DIR");
    void *dl;
    tasync_backend_entry_fn entry;
    snprintf(path, sizeof(path), "%s/tasync-backend-uv.so", dir != NULL ? dir : ".");
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) return NULL;
    *(void **)&entry = dlsym(dl, TASYNC_BACKEND_ENTRY_SYMBOL);
    return entry != NULL ? entry(TASYNC_ABI_VERSION) : NULL;
}

#if FAKE_KIND == FAKE_NO_ENTRY

TASYNC_PLUGIN_EXPORT int not_the_entry(void) { return 0; }

#else

struct bigger {
    tasync_backend_t base;
    void *future_member_1;
    void *future_member_2;
};

static struct bigger g_table;

static int failing_create(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    (void)out;
    if (opts != NULL && opts->errbuf != NULL)
        snprintf(opts->errbuf, opts->errbuf_size, "io_uring_queue_init: Operation not permitted (simulated refusal)");
    return -EPERM;
}

TASYNC_BACKEND_ENTRY_DEFINE {
    const tasync_backend_t *uv;
    (void)core_abi_version;
    if (FAKE_KIND == FAKE_NULL_TABLE) return NULL;
    uv = real_uv();
    if (uv == NULL) return NULL;
    memcpy(&g_table.base, uv, sizeof(g_table.base));
    g_table.base.name = "fake";
    switch (FAKE_KIND) {
        case FAKE_WRONG_MAJOR: g_table.base.abi_version = TASYNC_ABI_MAKE(2, 0); break;
        case FAKE_TOO_SMALL: g_table.base.size = (uint32_t)offsetof(tasync_backend_t, io_open); break;
        case FAKE_MISSING_OP: g_table.base.io_start = NULL; break;
        case FAKE_INIT_FAILS: g_table.base.loop_create = failing_create; break;
        case FAKE_OLDER_MINOR:
            /* As if ABI 1.0 had ended at child_open: the capability bits
             * still claim offload, but the members are not in the table. */
            g_table.base.size = (uint32_t)TASYNC_BACKEND_REQUIRED_SIZE;
            g_table.base.capabilities |= TASYNC_CAP_OFFLOAD | TASYNC_CAP_COMPLETION;
            g_table.base.op_submit = NULL; /* beyond size anyway */
            break;
        case FAKE_NEWER_MINOR:
            g_table.base.size = (uint32_t)sizeof(g_table);
            g_table.base.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR + 5);
            g_table.future_member_1 = (void *)&g_table;
            g_table.future_member_2 = (void *)&g_table;
            break;
        default: break;
    }
    return &g_table.base;
}

#endif
