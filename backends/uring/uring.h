/*
 * What uring_backend.c (the reactor) and uring_ops.c (the completion
 * operations) share: the loop, how a CQE names what it is about
 * (user_data), and the SQE helpers. Nothing here is exported.
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
    TAG_OP = 0,     /* a completion operation's request or readiness wait */
    TAG_HANDLE = 1, /* the poll of an io handle */
    TAG_WAKE = 2,   /* the loop's wakeup eventfd (multishot) */
    TAG_IGNORE = 3  /* poll removals and updates, cancellations */
};

struct tasync_loop {
    struct io_uring ring;
    unsigned kreqs;   /* requests whose final CQE is not seen yet */
    unsigned entries; /* queue depth, for the ring a forked child makes */
    int destroying;
    int dispatched;
    int oneshot_only; /* the kernel refused multishot polls */
    int wake_fd;
    int wake_armed;
    int lost_ops;     /* some ops are OPS_LOST: finish them at the next loop_run */
    int valgrind;     /* wait in poll(2) on the ring's fd (wait_for_cqes) */
    struct tasync_handle *all;                     /* every handle not yet freed */
    struct tasync_handle *dirty_head, *dirty_tail; /* polls to arm, change or remove at the next run */
    tasync_op_t *ops;                              /* completion operations in flight */
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
/* The CQE of an op's request or readiness wait (an op has one at a time). */
void uring_on_op_cqe(struct tasync_loop *l, tasync_op_t *op, int res);
/* loop_destroy: asks the kernel to cancel every op in flight. */
void uring_ops_cancel_all(struct tasync_loop *l);
/* G11: the ops in flight at a fork are the parent's; finish them with
 * -ECANCELED at the next loop_run. */
void uring_ops_lost_in_fork(struct tasync_loop *l);
void uring_finish_lost_ops(struct tasync_loop *l);

#endif /* TASYNC_URING_H */
