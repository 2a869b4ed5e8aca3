// Completion-style operations (tasync_await_op): native on backends that
// run the opcode, emulated otherwise, so that every backend offers the same
// operations (docs/backend-guide.md).
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

const char *op_name(int opcode) {
    switch (opcode) {
        case TASYNC_OP_READ: return "read";
        case TASYNC_OP_WRITE: return "write";
        case TASYNC_OP_RECV: return "recv";
        case TASYNC_OP_SEND: return "send";
        case TASYNC_OP_ACCEPT: return "accept";
        case TASYNC_OP_CONNECT: return "connect";
        case TASYNC_OP_CLOSE: return "close";
        case TASYNC_OP_FSYNC: return "fsync";
        case TASYNC_OP_OPENAT: return "openat";
        default: return "operation";
    }
}

// Sets *out_error for a failed operation (not for cancellations, whose
// error the wait already produced).
int op_failed(tasync_runtime *rt, const tasync_op_t *op, int code, void **out_error) {
    if (out_error != nullptr && *out_error == nullptr)
        *out_error = rt->make_error(TASYNC_ERROR_SYSTEM, code,
                                    std::string(op_name(op->opcode)) + " failed: " + tasync_strerror(code));
    return code;
}

// ------------------------------------------------------------- native path

struct OpWait : Wait {
    tasync_runtime *rt = nullptr;
    tasync_op_t *op = nullptr;
    bool in_flight = false;
    bool cancel_sent = false;
    Waiter cancel_waiter;
    tasync_awaitable *cancellation = nullptr;
};

void op_done(tasync_op_t *op) {
    auto *w = static_cast<OpWait *>(op->data);
    w->in_flight = false;
    --w->rt->jobs_in_flight;
    w->rt->wake(w, 0);
}

// The kernel owns the buffer: ask the backend to cancel and wait for the
// completion, which carries -ECANCELED or the real result.
bool op_on_cancel(Wait *base) {
    auto *w = static_cast<OpWait *>(base);
    if (w->in_flight && !w->cancel_sent) {
        w->cancel_sent = true;
        w->rt->reactor()->op_cancel(w->rt->loop, w->op);
    }
    return false;
}

void op_cleanup(Wait *base) {
    auto *w = static_cast<OpWait *>(base);
    if (w->cancellation != nullptr) {
        if (w->cancel_waiter.link.linked()) w->cancellation->remove_waiter(&w->cancel_waiter);
        tasync_awaitable *c = w->cancellation;
        w->cancellation = nullptr;
        if (--c->refs == 0) c->destroy();
    }
}

// The cancellation awaitable of a native op fires: cancel the op, keep
// waiting for its completion.
void op_cancellation_fired(Waiter *waiter, tasync_awaitable *) {
    op_on_cancel(static_cast<OpWait *>(waiter->data));
}

int run_native(tasync_runtime *rt, tasync_op_t *op, tasync_awaitable *cancellation, void **out_error) {
    OpWait w;
    w.kind = WaitKind::Op;
    w.rt = rt;
    w.op = op;
    w.keeps_result = true;
    w.on_cancel = &op_on_cancel;
    w.cleanup = &op_cleanup;
    w.fd = op->fd;
    op->cb = &op_done;
    op->data = &w;
    op->result = 0;
    int rc = rt->reactor()->op_submit(rt->loop, op);
    if (rc != 0) return op_failed(rt, op, rc, out_error);
    w.in_flight = true;
    ++rt->jobs_in_flight;
    if (cancellation != nullptr) {
        ++cancellation->refs;
        w.cancellation = cancellation;
        w.cancel_waiter.notify = &op_cancellation_fired;
        w.cancel_waiter.data = &w;
        if (cancellation->completed) op_on_cancel(&w);
        else cancellation->add_waiter(&w.cancel_waiter);
    }
    // Returns once the backend completed the op: a cancellation of the
    // coroutine or the cancellation awaitable only asked the backend to
    // cancel it, and whatever the op produced is its outcome.
    rt->suspend_on(w);
    tasync_coroutine *co = w.co;
    if (op->result == -ECANCELED) {
        // The coroutine's cancellation asked for it (inside a protect
        // section only the forced shutdown can, C15, C20): it ends with that
        // cancellation's error (C7), not with a failed operation.
        const bool by_awaitable = cancellation != nullptr && cancellation->completed;
        if (co->cancel_pending && (co->protect_depth == 0 || !by_awaitable)) {
            co->cancel_pending = false;
            if (out_error != nullptr) {
                rt->retain_error(co->cancel_error);
                *out_error = co->cancel_error;
            }
            return -ECANCELED;
        }
        if (cancellation != nullptr && cancellation->completed) {
            if (out_error != nullptr)
                *out_error = rt->make_error(TASYNC_ERROR_AWAIT_CANCELLED, TASYNC_EAWAIT_CANCELLED,
                                            "Await was cancelled by its cancellation awaitable");
            return TASYNC_EAWAIT_CANCELLED;
        }
    }
    // A result that won the race is returned; a pending cancellation of the
    // coroutine is delivered at its next suspension point.
    if (op->result < 0) return op_failed(rt, op, op->result, out_error);
    return op->result;
}

// -------------------------------------------------------------- emulation

struct Blocking {
    tasync_op_t *op;
};

// A blocking system call for a regular file, on a worker thread.
void run_blocking(void *p) {
    tasync_op_t *op = static_cast<Blocking *>(p)->op;
    ssize_t r = -1;
    switch (op->opcode) {
        case TASYNC_OP_READ:
            r = op->offset >= 0 ? pread(op->fd, op->buf, op->len, op->offset) : read(op->fd, op->buf, op->len);
            break;
        case TASYNC_OP_WRITE:
            r = op->offset >= 0 ? pwrite(op->fd, op->buf, op->len, op->offset) : write(op->fd, op->buf, op->len);
            break;
        case TASYNC_OP_FSYNC:
            r = (op->op_flags & TASYNC_FSYNC_DATASYNC) ? fdatasync(op->fd) : fsync(op->fd);
            break;
        case TASYNC_OP_OPENAT:
            r = openat(op->fd, static_cast<const char *>(op->buf), static_cast<int>(op->op_flags), op->mode);
            break;
        default: errno = EINVAL; break;
    }
    op->result = r < 0 ? -errno : static_cast<int32_t>(r);
}

// One non-blocking attempt for a socket or pipe. Returns true when done
// (op->result set), false when it would block.
bool try_nonblocking(tasync_op_t *op) {
    ssize_t r;
    switch (op->opcode) {
        case TASYNC_OP_READ:
            r = op->offset >= 0 ? pread(op->fd, op->buf, op->len, op->offset) : read(op->fd, op->buf, op->len);
            break;
        case TASYNC_OP_WRITE:
            r = op->offset >= 0 ? pwrite(op->fd, op->buf, op->len, op->offset) : write(op->fd, op->buf, op->len);
            break;
        case TASYNC_OP_RECV: r = recv(op->fd, op->buf, op->len, static_cast<int>(op->op_flags) | MSG_DONTWAIT); break;
        case TASYNC_OP_SEND:
            r = send(op->fd, op->buf, op->len, static_cast<int>(op->op_flags) | MSG_DONTWAIT | MSG_NOSIGNAL);
            break;
        case TASYNC_OP_ACCEPT: {
            socklen_t len = op->addrlen;
            r = accept4(op->fd, static_cast<sockaddr *>(op->buf), op->buf != nullptr ? &len : nullptr,
                        static_cast<int>(op->op_flags));
            if (r >= 0) op->addrlen = len;
            break;
        }
        default: errno = EINVAL; r = -1; break;
    }
    if (r >= 0) {
        op->result = static_cast<int32_t>(r);
        return true;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return false;
    op->result = -errno;
    return true;
}

unsigned events_for(int opcode) {
    switch (opcode) {
        case TASYNC_OP_READ:
        case TASYNC_OP_RECV:
        case TASYNC_OP_ACCEPT: return TASYNC_IO_READABLE;
        default: return TASYNC_IO_WRITABLE;
    }
}

bool is_regular(tasync_runtime *rt, int fd) {
    if (fd < 0) return false;
    if (static_cast<std::size_t>(fd) >= rt->fd_info.size()) rt->fd_info.resize(fd + 1);
    FdInfo &info = rt->fd_info[fd];
    if (!info.known) {
        struct stat st;
        info.regular = fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode));
        info.known = true;
    }
    return info.regular;
}

int emulate(tasync_runtime *rt, tasync_op_t *op, tasync_awaitable *cancellation, void **out_error) {
    switch (op->opcode) {
        case TASYNC_OP_NOP: op->result = 0; return 0;
        case TASYNC_OP_CLOSE: {
            tasync_fd_forget(rt, op->fd);
            op->result = close(op->fd) == 0 ? 0 : -errno;
            if (op->result == -EINTR) op->result = 0;  // Linux closed it anyway
            return op->result < 0 ? op_failed(rt, op, op->result, out_error) : 0;
        }
        case TASYNC_OP_FSYNC:
        case TASYNC_OP_OPENAT: break;
        case TASYNC_OP_READ:
        case TASYNC_OP_WRITE:
            if (is_regular(rt, op->fd)) break;
            [[fallthrough]];
        case TASYNC_OP_RECV:
        case TASYNC_OP_SEND:
        case TASYNC_OP_ACCEPT: {
            if (op->fd < 0) return op_failed(rt, op, -EBADF, out_error);
            // Try first unless the last attempt in this direction would have
            // blocked, or the last transfer was short (a read that got less
            // than it asked for emptied the socket; a write that put less
            // filled it): then wait for readiness first. In request/response
            // traffic that saves the system call that would only have said
            // EAGAIN; a stream that stays ready keeps transferring full
            // buffers and keeps trying first.
            if (static_cast<std::size_t>(op->fd) >= rt->fd_info.size()) rt->fd_info.resize(op->fd + 1);
            const unsigned ev = events_for(op->opcode);
            for (;;) {
                bool &would_block = ev == TASYNC_IO_READABLE ? rt->fd_info[op->fd].read_would_block
                                                             : rt->fd_info[op->fd].write_would_block;
                if (!would_block) {
                    if (try_nonblocking(op)) {
                        if (op->result < 0) return op_failed(rt, op, op->result, out_error);
                        if (op->opcode != TASYNC_OP_ACCEPT && static_cast<std::uint64_t>(op->result) < op->len)
                            would_block = true;
                        return op->result;
                    }
                    would_block = true;
                }
                int rc = tasync_await_fd(rt, op->fd, ev, cancellation, nullptr, out_error);
                if (static_cast<std::size_t>(op->fd) < rt->fd_info.size()) {
                    (ev == TASYNC_IO_READABLE ? rt->fd_info[op->fd].read_would_block
                                              : rt->fd_info[op->fd].write_would_block) = false;
                }
                if (rc != 0) return rc;
            }
        }
        case TASYNC_OP_CONNECT: {
            if (op->fd < 0) return op_failed(rt, op, -EBADF, out_error);
            if (connect(op->fd, static_cast<const sockaddr *>(op->buf), static_cast<socklen_t>(op->len)) == 0) {
                op->result = 0;
                return 0;
            }
            if (errno != EINPROGRESS && errno != EINTR) {
                op->result = -errno;
                return op_failed(rt, op, op->result, out_error);
            }
            int rc = tasync_await_fd(rt, op->fd, TASYNC_IO_WRITABLE, cancellation, nullptr, out_error);
            if (rc != 0) return rc;
            int err = 0;
            socklen_t len = sizeof(err);
            if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
            op->result = -err;
            return err != 0 ? op_failed(rt, op, op->result, out_error) : 0;
        }
        default: return op_failed(rt, op, -EINVAL, out_error);
    }
    // Regular files and metadata operations block in the kernel: offload.
    Blocking b{op};
    int rc = tasync_offload(rt, &run_blocking, &b, cancellation, out_error);
    if (rc != 0) return rc;
    return op->result < 0 ? op_failed(rt, op, op->result, out_error) : op->result;
}

}  // namespace

extern "C" TASYNC_API int tasync_await_op(tasync_runtime_t *rt, tasync_op_t *op, tasync_awaitable_t *cancellation,
                                          void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    if (rt == nullptr) rt = tls_runtime;
    if (op == nullptr || op->size < offsetof(tasync_op_t, internal)) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (op->opcode >= TASYNC_OP_COUNT_) return op_failed(rt, op, -EINVAL, out_error);
    if (cancellation != nullptr && cancellation->completed) {
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_AWAIT_CANCELLED, TASYNC_EAWAIT_CANCELLED,
                                        "Await was cancelled by its cancellation awaitable");
        return TASYNC_EAWAIT_CANCELLED;
    }
    if ((rt->ops->op_mask & TASYNC_OP_BIT(op->opcode)) != 0) {
        if (op->opcode == TASYNC_OP_CLOSE) tasync_fd_forget(rt, op->fd);
        return run_native(rt, op, cancellation, out_error);
    }
    return emulate(rt, op, cancellation, out_error);
}
