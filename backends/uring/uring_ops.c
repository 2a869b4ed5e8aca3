/*
 * tasync-backend-uring's completion operations (TASYNC_CAP_COMPLETION, G9)
 * as io_uring requests, with a readiness wait and a retry where an older
 * kernel answers -EAGAIN (or -EINPROGRESS for connect) instead of waiting.
 * An op keeps its loop in internal[0], its state in internal[1], and its
 * links in the loop's list in internal[2..3]. TASYNC_URING_TEST_EAGAIN (a
 * conformance build only) makes first attempts on pipes and sockets
 * non-blocking, so that the retry path runs on this kernel too.
 */
#include "uring.h"

#include <poll.h>
#include <sys/socket.h>
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)0)
#endif
#include <sys/stat.h>

/* State bits of an op in flight, kept in op->internal[1]. */
enum op_state {
    OPS_CANCEL = 1,      /* op_cancel was called */
    OPS_POLLING = 2,     /* waiting for readiness before trying again */
    OPS_CONNECTING = 4,  /* connect in progress: result is SO_ERROR */
    OPS_LOST = 8         /* in the parent's ring at a fork (G11): -ECANCELED */
};

/* Largest transfer the kernel performs in one call (MAX_RW_COUNT); it also
 * keeps the result representable in tasync_op_t.result. */
#define MAX_TRANSFER 0x7ffff000u

static uint64_t g_op_mask;

static unsigned op_state(const tasync_op_t *op) { return (unsigned)(uintptr_t)op->internal[1]; }
static void op_set_state(tasync_op_t *op, unsigned st) { op->internal[1] = (void *)(uintptr_t)st; }

static void op_link(struct tasync_loop *l, tasync_op_t *op) {
    op->internal[0] = l;
    op->internal[1] = NULL;
    op->internal[2] = NULL;
    op->internal[3] = l->ops;
    if (l->ops != NULL) l->ops->internal[2] = op;
    l->ops = op;
}

static void op_unlink(struct tasync_loop *l, tasync_op_t *op) {
    tasync_op_t *prev = op->internal[2], *next = op->internal[3];
    if (prev != NULL) prev->internal[3] = next;
    else l->ops = next;
    if (next != NULL) next->internal[2] = prev;
    op->internal[0] = op->internal[1] = op->internal[2] = op->internal[3] = NULL;
}

/* ACCEPT hands &op->addrlen to the kernel as a socklen_t. */
_Static_assert(sizeof(socklen_t) == sizeof(uint32_t), "socklen_t must match tasync_op_t.addrlen");

static int is_regular_file(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode));
}

/* Fills sqe for op. first is nonzero on the first attempt. */
static void prep_op(struct io_uring_sqe *sqe, tasync_op_t *op, int first) {
    unsigned len = op->len > MAX_TRANSFER ? MAX_TRANSFER : (unsigned)op->len;
    /* TASYNC_OFFSET_CURRENT (-1) becomes (u64)-1, io_uring's "file
     * position"; other negative offsets are refused by the kernel (-EINVAL)
     * as pread would. */
    uint64_t off = (uint64_t)op->offset;
    (void)first;
    switch (op->opcode) {
        case TASYNC_OP_READ: io_uring_prep_read(sqe, op->fd, op->buf, len, off); break;
        case TASYNC_OP_WRITE: io_uring_prep_write(sqe, op->fd, op->buf, len, off); break;
        case TASYNC_OP_RECV: io_uring_prep_recv(sqe, op->fd, op->buf, len, (int)op->op_flags); break;
        case TASYNC_OP_SEND: io_uring_prep_send(sqe, op->fd, op->buf, len, (int)(op->op_flags | MSG_NOSIGNAL)); break;
        case TASYNC_OP_ACCEPT:
            io_uring_prep_accept(sqe, op->fd, op->buf, op->buf != NULL ? (socklen_t *)&op->addrlen : NULL,
                                 (int)op->op_flags);
            break;
        case TASYNC_OP_CONNECT: io_uring_prep_connect(sqe, op->fd, op->buf, (socklen_t)op->len); break;
        case TASYNC_OP_CLOSE: io_uring_prep_close(sqe, op->fd); break;
        case TASYNC_OP_FSYNC:
            io_uring_prep_fsync(sqe, op->fd, (op->op_flags & TASYNC_FSYNC_DATASYNC) ? IORING_FSYNC_DATASYNC : 0);
            break;
        case TASYNC_OP_OPENAT: io_uring_prep_openat(sqe, op->fd, op->buf, (int)op->op_flags, (mode_t)op->mode); break;
        default: io_uring_prep_nop(sqe); break;
    }
#ifdef TASYNC_URING_TEST_EAGAIN
    if (first && !is_regular_file(op->fd)) {
        if (op->opcode == TASYNC_OP_READ || op->opcode == TASYNC_OP_WRITE) sqe->rw_flags = RWF_NOWAIT;
        if (op->opcode == TASYNC_OP_RECV || op->opcode == TASYNC_OP_SEND) sqe->msg_flags |= MSG_DONTWAIT;
    }
#endif
}

/* Poll mask to wait for before trying op again after result res, or 0 when
 * res is final. Current kernels wait inside io_uring for pollable files
 * even when they are O_NONBLOCK; older ones return -EAGAIN (or, for
 * connect, -EINPROGRESS), which the contract must not leak. */
static unsigned op_retry_mask(const tasync_op_t *op, int res) {
    switch (op->opcode) {
        case TASYNC_OP_READ:
        case TASYNC_OP_WRITE:
            if (res != -EAGAIN || is_regular_file(op->fd)) return 0;
            return op->opcode == TASYNC_OP_READ ? POLLIN : POLLOUT;
        case TASYNC_OP_RECV:
        case TASYNC_OP_SEND:
            if (res != -EAGAIN || (op->op_flags & MSG_DONTWAIT)) return 0; /* the caller asked for it */
            return op->opcode == TASYNC_OP_RECV ? POLLIN : POLLOUT;
        case TASYNC_OP_ACCEPT:
            return res == -EAGAIN ? POLLIN : 0;
        case TASYNC_OP_CONNECT:
            return res == -EAGAIN || res == -EINPROGRESS ? POLLOUT : 0;
        default:
            return 0;
    }
}

/* Delivers the op's result: the callback runs once (G9), never during
 * loop_destroy. */
static void op_finish(struct tasync_loop *l, tasync_op_t *op, int res) {
    op_unlink(l, op);
    op->result = res;
    /* The kernel filled the buffer behind valgrind's back (it does not
     * follow io_uring requests): tell memcheck the bytes are defined. A
     * no-op natively. */
    if (res > 0 && (op->opcode == TASYNC_OP_READ || op->opcode == TASYNC_OP_RECV))
        VALGRIND_MAKE_MEM_DEFINED(op->buf, (size_t)res);
    if (l->destroying) return;
    l->dispatched++;
    op->cb(op);
}

/* The CQE of the readiness wait: try again, or finish. */
static void on_op_poll_cqe(struct tasync_loop *l, tasync_op_t *op, int res) {
    unsigned st = op_state(op);
    struct io_uring_sqe *sqe;
    if ((st & OPS_CANCEL) || l->destroying || res == -ECANCELED) {
        op_finish(l, op, -ECANCELED);
        return;
    }
    if (res < 0) {
        op_finish(l, op, res);
        return;
    }
    if (st & OPS_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof(err);
        if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        op_finish(l, op, -err);
        return;
    }
    sqe = get_sqe(l);
    if (sqe == NULL) {
        op_finish(l, op, -EAGAIN);
        return;
    }
    prep_op(sqe, op, 0);
    op_set_state(op, st & ~(unsigned)OPS_POLLING);
    count_request(l, sqe, ud_pack(op, TAG_OP));
}

void uring_on_op_cqe(struct tasync_loop *l, tasync_op_t *op, int res) {
    unsigned st = op_state(op);
    unsigned mask;
    if (st & OPS_POLLING) {
        on_op_poll_cqe(l, op, res);
        return;
    }
    mask = l->destroying ? 0 : op_retry_mask(op, res);
    if (mask != 0 && (st & OPS_CANCEL)) {
        /* It would have waited for readiness: cancelled instead, not the
         * -EAGAIN the caller never asked for. */
        op_finish(l, op, -ECANCELED);
        return;
    }
    if (mask != 0) {
        struct io_uring_sqe *sqe = get_sqe(l);
        if (sqe != NULL) {
            io_uring_prep_poll_add(sqe, op->fd, mask);
            st |= OPS_POLLING;
            if (op->opcode == TASYNC_OP_CONNECT && res == -EINPROGRESS) st |= OPS_CONNECTING;
            op_set_state(op, st);
            count_request(l, sqe, ud_pack(op, TAG_OP));
            return;
        }
    }
    op_finish(l, op, res);
}

int uring_op_submit(tasync_loop_t *loop, tasync_op_t *op) {
    struct io_uring_sqe *sqe;
    if (loop == NULL || op == NULL || op->size < sizeof(tasync_op_t) || op->cb == NULL) return -EINVAL;
    if (op->opcode >= TASYNC_OPCODE_COUNT || !(g_op_mask & TASYNC_OP_BIT(op->opcode))) return -EINVAL;
    if (((uintptr_t)op & OP_ALIGN_MASK) != 0 || loop->destroying) return -EINVAL;
    sqe = get_sqe(loop);
    if (sqe == NULL) return -EBUSY;
    op->result = 0;
    op_link(loop, op);
    prep_op(sqe, op, 1);
    count_request(loop, sqe, ud_pack(op, TAG_OP));
    return 0;
}

/* Asks the kernel to cancel op: its CQE then carries -ECANCELED, or its real
 * result if it won the race; either way the callback runs once (G9). */
int uring_op_cancel(tasync_loop_t *loop, tasync_op_t *op) {
    unsigned st;
    int rc;
    if (loop == NULL || op == NULL || op->internal[0] != (void *)loop) return -ENOENT;
    st = op_state(op);
    if (st & OPS_CANCEL) return 0;
    rc = queue_cancel(loop, ud_pack(op, TAG_OP));
    if (rc == 0) op_set_state(op, st | OPS_CANCEL);
    return rc;
}

void uring_ops_cancel_all(struct tasync_loop *l) {
    tasync_op_t *op;
    for (op = l->ops; op != NULL; op = op->internal[3]) queue_cancel(l, ud_pack(op, TAG_OP));
}

void uring_ops_lost_in_fork(struct tasync_loop *l) {
    tasync_op_t *op;
    for (op = l->ops; op != NULL; op = op->internal[3]) {
        op_set_state(op, op_state(op) | OPS_LOST);
        l->lost_ops = 1;
    }
}

void uring_finish_lost_ops(struct tasync_loop *l) {
    tasync_op_t *op, *next;
    l->lost_ops = 0;
    for (op = l->ops; op != NULL; op = next) {
        next = op->internal[3];
        if (op_state(op) & OPS_LOST) op_finish(l, op, -ECANCELED);
    }
}

uint64_t uring_ops_probe(void) {
    static const struct {
        int tasync;
        int uring;
    } ops[] = {
        {TASYNC_OP_NOP, IORING_OP_NOP},       {TASYNC_OP_READ, IORING_OP_READ},
        {TASYNC_OP_WRITE, IORING_OP_WRITE},   {TASYNC_OP_RECV, IORING_OP_RECV},
        {TASYNC_OP_SEND, IORING_OP_SEND},     {TASYNC_OP_ACCEPT, IORING_OP_ACCEPT},
        {TASYNC_OP_CONNECT, IORING_OP_CONNECT}, {TASYNC_OP_CLOSE, IORING_OP_CLOSE},
        {TASYNC_OP_FSYNC, IORING_OP_FSYNC},   {TASYNC_OP_OPENAT, IORING_OP_OPENAT},
    };
    struct io_uring_probe *probe = io_uring_get_probe();
    size_t i;
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        /* Without a probe (io_uring refused) loop_create fails anyway and
         * says why; advertise the full set. */
        if (probe == NULL || io_uring_opcode_supported(probe, ops[i].uring))
            g_op_mask |= TASYNC_OP_BIT(ops[i].tasync);
    }
    if (probe != NULL) io_uring_free_probe(probe);
    return g_op_mask;
}
