/*
 * tasync/group.h - task groups (docs/rules.md, rule G1): a scope with
 * results.
 *
 * A group owns a scope (a child of the scope given at creation) and records
 * every task spawned through it under a key, with its outcome. Errors of
 * tasks are results of the group: while the group lives they are kept for
 * its readers and never flow up the scope tree by themselves (rule S10 does
 * not apply to them). An error counts as handled once a reader received it:
 * tasync_group_wait_next (iteration) announced it, tasync_group_suppress_errors
 * ran after it arrived, or an all()/race()/any() awaitable completed while
 * it was recorded (all() reports the group's failure, any() skips failures,
 * race() takes one). When the owner lets go of the group
 * (tasync_group_let_go, or the last tasync_group_release), the errors nobody
 * handled flow into S10 from the group's scope, each as if its task had
 * failed unawaited then.
 *
 * An optional concurrency limit holds tasks back (created, not queued) until
 * a running one finishes; held tasks start in spawn order. An optional queue
 * limit bounds how many may be held: tasync_group_spawn then suspends its
 * caller until one of them got a slot (back-pressure for producers).
 *
 * all(), race() and any() return awaitables built on the await-many
 * primitive (await_many.h, rule G2), fed every task, including tasks
 * spawned after the call, until they complete:
 *   all  completes when no task is unfinished: with the host's value built
 *        by build_results when every task succeeded (or errors are
 *        ignored), else with the first error in completion order. On an
 *        empty group it completes at once.
 *   race completes with the outcome (value or error) of the first task to
 *        complete, waiting for one if the group has none yet.
 *   any  completes with the value of the first task that succeeds; when no
 *        task is unfinished and none succeeded, with the first error.
 *
 * Life cycle: a group is open until tasync_group_close (or a cancellation
 * or disposal of its scope, or the owner letting go) closes it: no new task
 * is accepted, held and running tasks go on. A closed group whose tasks
 * have all finished is complete: its scope is closed then, and completes
 * once the coroutines the tasks left in it have finished; the group's
 * finally handlers run then (tasync_group_on_finally).
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
    /* With a concurrency limit: how many tasks may be held back waiting for
     * a slot before tasync_group_spawn suspends its caller; 0 = no limit.
     * Since: ABI 1.2 (older hosts pass a smaller size: no limit). */
    uint32_t queue_limit;
    uint32_t reserved0;
} tasync_group_options_t;

/* Group state bits (tasync_group_flags). Values never change.
 * Since: ABI 1.2. */
typedef enum tasync_group_flag {
    /* Refuses new tasks: closed, cancelled, disposed, or let go. */
    TASYNC_GROUP_CLOSED = 1,
    /* No task is held back or running (it may change while open). */
    TASYNC_GROUP_FINISHED = 2,
    /* Closed and finished: final. */
    TASYNC_GROUP_COMPLETED = 4,
    /* The owner let go of the group (tasync_group_let_go). */
    TASYNC_GROUP_LET_GO = 8
} tasync_group_flag_t;

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
/*
 * Reference counting. Dropping the last reference lets go of the group
 * first when the owner has not (tasync_group_let_go). Since: ABI 1.0;
 * Changed in ABI 1.2: tasks still held back then never start (they used to
 * start).
 */
TASYNC_API void tasync_group_retain(tasync_group_t *group);
/* Drops a reference, see tasync_group_retain. NULL is a no-op.
 * Since: ABI 1.0. */
TASYNC_API void tasync_group_release(tasync_group_t *group);

/*
 * What a host calls when its group object goes away (rule G1: releasing a
 * group is silent): the group closes; tasks still held back never start
 * (they complete cancelled, C7); running tasks leave the group and go on as
 * zombies of its scope (S9) without any warning, their later errors
 * following S10 from that scope; errors the group recorded and no reader
 * handled flow into S10 from the group's scope. Runs exception handlers,
 * which may suspend. Repeated calls do nothing. Since: ABI 1.2.
 */
TASYNC_API void tasync_group_let_go(tasync_group_t *group);

/*
 * Closes the group: no new task is accepted (tasync_group_spawn fails with
 * TASYNC_ESCOPE_CLOSED); held and running tasks go on. Callers suspended in
 * tasync_group_spawn by the queue limit are woken with the same error.
 * Returns 0. Since: ABI 1.2.
 */
TASYNC_API int tasync_group_close(tasync_group_t *group);

/*
 * Registers a finally handler of the group (rules G1, C11): once the group
 * has completed and its scope with it, a coroutine is spawned from
 * *callback (copied; its scope member is ignored: it runs in the global
 * scope, as every completion callback); callers of
 * tasync_group_await_completion resume only after every handler has
 * finished. Registering on a completed group spawns at once. On failure
 * (or when the runtime goes first) callback->arg_release runs. Returns 0
 * or -EINVAL. Since: ABI 1.2.
 */
TASYNC_API int tasync_group_on_finally(tasync_group_t *group, const tasync_spawn_options_t *callback);

/* tasync_group_flag_t bits. Since: ABI 1.2. */
TASYNC_API uint32_t tasync_group_flags(const tasync_group_t *group);

/* Marks every error recorded so far as handled (see the top of this
 * file). Since: ABI 1.2. */
TASYNC_API void tasync_group_suppress_errors(tasync_group_t *group);

/*
 * From a coroutine, on a closed group: waits until the group is complete,
 * its scope has completed and the group's finally handlers
 * (tasync_group_on_finally) have finished. Never fails with a task's error.
 * Returns 0; TASYNC_EBAD_STATE with an AsyncException when the group is not
 * closed; TASYNC_ESCOPE_DEADLOCK when the caller runs in the group's scope
 * (it would wait for itself); TASYNC_EAWAIT_CANCELLED / -ECANCELED as
 * tasync_await. Since: ABI 1.2.
 */
TASYNC_API int tasync_group_await_completion(tasync_runtime_t *rt, tasync_group_t *group,
                                             tasync_awaitable_t *cancellation, void **out_error);

/* The group's scope (borrowed): cancel or dispose it to stop the group.
 * Since: ABI 1.0. */
TASYNC_API tasync_scope_t *tasync_group_scope(const tasync_group_t *group);

/*
 * Spawns a task into the group's scope under key (NULL: the next integer
 * key, one above the largest integer key used so far, starting at 0).
 * task->scope is ignored. Fails with -EEXIST (and an AsyncException-kind
 * error) for a key already used, TASYNC_ESCOPE_CLOSED when the group or its
 * scope is closed. *out (may be NULL) receives a new reference.
 * With a queue limit (since ABI 1.2): while the task would be held back
 * and queue_limit tasks already are, suspends the calling coroutine until
 * one of them got a slot; fails with -EAGAIN outside a coroutine, or with
 * the codes of tasync_await when the caller is cancelled meanwhile.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_group_spawn(tasync_group_t *group, const tasync_group_key_t *key,
                                  const tasync_spawn_options_t *task, tasync_coroutine_t **out, void **out_error);

/* Tasks spawned so far. Since: ABI 1.0. */
TASYNC_API size_t tasync_group_count(const tasync_group_t *group);
/* How many of the tasks spawned so far completed. Since: ABI 1.0. */
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
/* all() that completes with build_results' value even when tasks failed
 * (the errors stay readable with tasync_group_entry). Since: ABI 1.2. */
TASYNC_API int tasync_group_all_ignoring_errors(tasync_group_t *group, tasync_awaitable_t **out);
/* race(), as described above; a new reference. Since: ABI 1.0. */
TASYNC_API int tasync_group_race(tasync_group_t *group, tasync_awaitable_t **out);
/* any(), as described above; a new reference. Since: ABI 1.0. */
TASYNC_API int tasync_group_any(tasync_group_t *group, tasync_awaitable_t **out);

/*
 * Iteration in completion order: from a coroutine, waits until more than
 * `index` tasks have completed (returns 1: read entry `index` by completion;
 * its error, if any, counts as handled from then on) or until no task is
 * unfinished (returns 0: the iteration is over). Other codes as
 * tasync_await. Since: ABI 1.0.
 */
TASYNC_API int tasync_group_wait_next(tasync_runtime_t *rt, tasync_group_t *group, size_t index,
                                      tasync_awaitable_t *cancellation, void **out_error);

TASYNC_EXTERN_C_END

#endif /* TASYNC_GROUP_H */
