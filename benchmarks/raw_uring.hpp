// The ring set-up the raw liburing baselines share: the same flags the uring
// backend asks for (SINGLE_ISSUER | DEFER_TASKRUN | TASKRUN_FLAG, falling
// back while the kernel answers -EINVAL), so that a raw figure and a runtime
// figure differ by the code around the ring, not by the ring.
#pragma once

#include <liburing.h>

#include <cstring>

namespace tasync_bench {

// Returns 0 or the -errno of the last attempt; *flags_out receives the flags
// the ring was created with.
inline int uring_setup(unsigned entries, struct io_uring *ring, unsigned *flags_out = nullptr) {
    static const unsigned kFlags[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
            IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
            IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
        IORING_SETUP_CLAMP,
    };
    int rc = -EINVAL;
    for (unsigned f : kFlags) {
        struct io_uring_params p;
        std::memset(&p, 0, sizeof(p));
        p.flags = f;
        rc = io_uring_queue_init_params(entries, ring, &p);
        if (rc == 0) {
            if (flags_out != nullptr) *flags_out = f;
            return 0;
        }
        if (rc != -EINVAL) break;
    }
    return rc;
}

// A free SQE; submits the batch so far when the queue is full.
inline struct io_uring_sqe *uring_sqe(struct io_uring *ring) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    if (sqe == nullptr) {
        io_uring_submit(ring);
        sqe = io_uring_get_sqe(ring);
    }
    return sqe;
}

}  // namespace tasync_bench
