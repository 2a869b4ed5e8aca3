/*
 * tasync/group.h - task groups (DESIGN.md 5.4, rule G1): a scope with
 * results.
 *
 * A group owns a scope (a child of the scope given at creation) and records
 * every task spawned through it under a key, with its outcome. Errors of
 * tasks are results of the group: they are kept for the group's readers and
 * never flow up the scope tree (rule S10 does not apply to them). An
 * optional concurrency limit holds tasks back (created, not queued) until a
 * running one finishes; held tasks start in spawn order.
 *
 * all(), race() and any() return awaitables:
 *   all  completes when no task is unfinished: with the host's value built
 *        by build_results when every task succeeded, else with the first
 *        error in completion order. On an empty group it completes at once.
 *   race completes with the outcome (value or error) of the first task to
 *        complete, waiting for one if the group has none yet.
 *   any  completes with the value of the first task that succeeds; when no
 *        task is unfinished and none succeeded, with the first error.
 * Called on the runtime's thread.
 */
#ifndef TASYNC_GROUP_H
#define TASYNC_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_group tasync_group_t;

/* A task key: an integer, or the string str[0..len) (borrowed in calls). */
typedef struct tasync_group_key {
    uint32_t is_string;
    uint32_t reserved0;
    int64_t num;
    const char *str;
    size_t len;
} tasync_group_key_t;

/* Since: ABI 1.0. */
typedef struct tasync_group_options {
    uint32_t size;        /* sizeof(tasync_group_options_t) */
    uint32_t concurrency; /* most tasks running at once; 0 = no limit */
    /* Parent of the group's scope; NULL = the current scope. */
    tasync_scope_t *parent;
    /* Builds the value all() completes with when every task succeeded (e.g.
     * a map key => value in spawn order, read with tasync_group_entry).
     * Returns a new reference, or NULL. May be NULL: the value is NULL. */
    void *(*build_results)(void *data, tasync_group_t *group);
    void *data;
} tasync_group_options_t;

/* Task states in tasync_group_entry_t.state. */
typedef enum tasync_group_task_state {
    TASYNC_GROUP_TASK_HELD = 1,    /* waiting for a concurrency slot */
    TASYNC_GROUP_TASK_RUNNING = 2, /* queued, running or suspended */
    TASYNC_GROUP_TASK_DONE = 3     /* completed: value or error is final */
} tasync_group_task_state_t;

/* Since: ABI 1.0. */
typedef struct tasync_group_entry {
    uint32_t size;  /* set by the caller to sizeof(tasync_group_entry_t) */
    uint32_t state; /* tasync_group_task_state_t */
    tasync_group_key_t key; /* str borrowed from the group */
    tasync_coroutine_t *coroutine; /* borrowed */
    void *value;    /* borrowed outcome when DONE */
    void *error;
} tasync_group_entry_t;

/*
 * Creates a group and its scope (a child of opts->parent or the current
 * scope). *out receives a new reference. Fails with TASYNC_ESCOPE_CLOSED when
 * the parent is closed. Since: ABI 1.0.
 */
TASYNC_API int tasync_group_create(tasync_runtime_t *rt, const tasync_group_options_t *opts, tasync_group_t **out,
                                   void **out_error);
TASYNC_API void tasync_group_retain(tasync_group_t *group);
TASYNC_API void tasync_group_release(tasync_group_t *group);

/* The group's scope (borrowed): cancel or dispose it to stop the group. */
TASYNC_API tasync_scope_t *tasync_group_scope(const tasync_group_t *group);

/*
 * Spawns a task into the group's scope under key (NULL: the next integer
 * key, one above the largest integer key used so far, starting at 0).
 * task->scope is ignored. Fails with -EEXIST (and an AsyncException-kind
 * error) for a key already used, TASYNC_ESCOPE_CLOSED when the group's scope
 * is closed. *out (may be NULL) receives a new reference. Since: ABI 1.0.
 */
TASYNC_API int tasync_group_spawn(tasync_group_t *group, const tasync_group_key_t *key,
                                  const tasync_spawn_options_t *task, tasync_coroutine_t **out, void **out_error);

/* Tasks spawned so far, and how many of them completed. Since: ABI 1.0. */
TASYNC_API size_t tasync_group_count(const tasync_group_t *group);
TASYNC_API size_t tasync_group_completed_count(const tasync_group_t *group);

/*
 * Reads task i: in spawn order when by_completion is 0, else the i-th task
 * to complete. Returns 0, or -ERANGE. Since: ABI 1.0.
 */
TASYNC_API int tasync_group_entry(const tasync_group_t *group, size_t i, int by_completion,
                                  tasync_group_entry_t *out);

/* The awaitables described above; each call returns a new reference.
 * Since: ABI 1.0. */
TASYNC_API int tasync_group_all(tasync_group_t *group, tasync_awaitable_t **out);
TASYNC_API int tasync_group_race(tasync_group_t *group, tasync_awaitable_t **out);
TASYNC_API int tasync_group_any(tasync_group_t *group, tasync_awaitable_t **out);

/*
 * Iteration in completion order: from a coroutine, waits until more than
 * `index` tasks have completed (returns 1: read entry `index` by completion)
 * or until no task is unfinished (returns 0: the iteration is over). Other
 * codes as tasync_await. Since: ABI 1.0.
 */
TASYNC_API int tasync_group_wait_next(tasync_runtime_t *rt, tasync_group_t *group, size_t index,
                                      tasync_awaitable_t *cancellation, void **out_error);

TASYNC_EXTERN_C_END

#endif /* TASYNC_GROUP_H */
