/*
 * What the two halves of tasync-backend-uring share: the loop and handle
 * objects, how a CQE names what it is about (user_data), and the SQE
 * helpers. uring_backend.c is the reactor (ring, readiness, wakeup, fork,
 * the table); uring_ops.c the completion operations (TASYNC_CAP_COMPLETION).
 * Nothing here is exported: the backend builds with -fvisibility=hidden.
 */
#ifndef TASYNC_URING_H
#define TASYNC_URING_H

#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <liburing.h>
#include <stdint.h>

/* What a CQE is about: the low bits of user_data (see ud_pack). */
enum ud_tag {
    TAG_OP = 0,      /* a completion operation: tasync_op_t */
    TAG_OP_POLL = 1, /* readiness wait of an op that met -EAGAIN */
    TAG_HANDLE = 2,  /* the poll of an io handle */
    TAG_WAKE = 3,    /* the loop's wakeup eventfd (multishot) */
    TAG_IGNORE = 4   /* poll removals and updates, cancellations */
};

/* State bits of an op in flight, kept in op->internal[1] (uring_ops.c). */
enum op_state {
    OPS_CANCEL = 1,      /* op_cancel was called */
    OPS_POLLING = 2,     /* waiting for readiness before trying again */
    OPS_CONNECTING = 4,  /* connect in progress: result is SO_ERROR */
    OPS_LOST = 8         /* in the parent's ring at a fork (G11): -ECANCELED */
};

struct tasync_handle; /* an io handle (uring_backend.c) */

struct tasync_loop {
    struct io_uring ring;
    /* Requests whose final CQE has not been seen yet (loop_destroy waits
     * for them). */
    unsigned kreqs;
    int in_run;
    int destroying;
    int dispatched;
    int oneshot_only; /* the kernel refused multishot polls */
    int wake_fd;
    int wake_armed;
    /* Every handle not yet freed, closed or not. */
    struct tasync_handle *all;
    /* Handles whose poll must be armed, changed or removed at the next
     * loop_run (FIFO). */
    struct tasync_handle *dirty_head, *dirty_tail;
    /* Closed handles freed at the end of the current loop_run. */
    struct tasync_handle *zombies;
    /* Completion operations in flight (linked through internal[2..3]). */
    tasync_op_t *ops;
    int lost_ops;     /* some are OPS_LOST: finish them at the next loop_run */
    unsigned entries; /* queue depth, for the ring a forked child makes */
    /* Under valgrind: the loop waits in poll(2) on the ring's fd (see
     * wait_for_cqes in uring_backend.c). */
    int valgrind;
};


/* ------------------------------------------------------------ user_data */

/* user_data is a pointer plus a tag: handles and loops come from calloc and
 * ops are 8-byte aligned (checked in op_submit), so on 64-bit systems the
 * tag fits in the three low bits; on 32-bit ones it goes above the pointer. */
#if UINTPTR_MAX > 0xffffffffu
static inline uint64_t ud_pack(const void *p, unsigned tag) { return (uint64_t)(uintptr_t)p | tag; }
static inline unsigned ud_tag(uint64_t ud) { return (unsigned)(ud & 7u); }
static inline void *ud_ptr(uint64_t ud) { return (void *)(uintptr_t)(ud & ~(uint64_t)7u); }
#define OP_ALIGN_MASK ((uintptr_t)7u)
#else
static inline uint64_t ud_pack(const void *p, unsigned tag) { return ((uint64_t)tag << 32) | (uintptr_t)p; }
static inline unsigned ud_tag(uint64_t ud) { return (unsigned)(ud >> 32) & 7u; }
static inline void *ud_ptr(uint64_t ud) { return (void *)(uintptr_t)(uint32_t)ud; }
#define OP_ALIGN_MASK ((uintptr_t)0u)
#endif

/* ------------------------------------------------------------- SQEs */

/* Returns a free SQE. When the SQ is full, the batch so far is submitted
 * (without waiting) and the SQE taken from the emptied queue. NULL only if
 * the kernel refuses the submission. */
static inline struct io_uring_sqe *get_sqe(struct tasync_loop *l) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);
    if (sqe == NULL) {
        io_uring_submit(&l->ring);
        sqe = io_uring_get_sqe(&l->ring);
    }
    return sqe;
}

/* Queues a request that posts one final CQE with user_data ud. */
static inline void count_request(struct tasync_loop *l, struct io_uring_sqe *sqe, uint64_t ud) {
    io_uring_sqe_set_data64(sqe, ud);
    l->kreqs++;
}

/* Queues the cancellation of the request identified by target. */
static inline int queue_cancel(struct tasync_loop *l, uint64_t target) {
    struct io_uring_sqe *sqe = get_sqe(l);
    if (sqe == NULL) return -EBUSY;
    io_uring_prep_cancel64(sqe, target, 0);
    count_request(l, sqe, ud_pack(NULL, TAG_IGNORE));
    return 0;
}

/* ------------------------------------------------ completion operations */

/* The opcodes the kernel supports (TASYNC_OP_BIT set), probed once. */
uint64_t uring_ops_probe(void);
int uring_op_submit(tasync_loop_t *loop, tasync_op_t *op);
int uring_op_cancel(tasync_loop_t *loop, tasync_op_t *op);
/* The CQE of an op's request (TAG_OP) or of its readiness wait (TAG_OP_POLL). */
void uring_on_op_cqe(struct tasync_loop *l, tasync_op_t *op, int res);
void uring_on_op_poll_cqe(struct tasync_loop *l, tasync_op_t *op, int res);
/* user_data of the request an op currently has in the kernel. */
uint64_t uring_op_current_ud(const tasync_op_t *op);
/* G11: the ops in flight at a fork are the parent's; finish them with
 * -ECANCELED at the next loop_run. */
void uring_ops_lost_in_fork(struct tasync_loop *l);
void uring_finish_lost_ops(struct tasync_loop *l);

#endif /* TASYNC_URING_H */
