// Operations on file descriptors and threads: pipes and socket pairs whose
// bytes follow a known pattern (so a lost, doubled or reordered byte is
// seen), readiness waits, completion operations (native or emulated),
// offloaded work, and callback timers that write, settle, resume, cancel
// and spawn from outside any coroutine.
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

// Reads what p has (up to a buffer), checking the bytes; returns read(2)'s result.
ssize_t read_pipe(Episode &ep, PipeRec *p, std::size_t want, const char *how);

namespace {

// True when fd's buffer takes a write now. Only a reader makes a full
// end writable again, and nobody is bound to read: writers that could block
// skip a full end instead.
bool writable_now(int fd) {
    struct pollfd pfd{fd, POLLOUT, 0};
    return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLOUT) != 0;
}

void release_error(Episode &ep, void *e) {
    if (e != nullptr && ep.host.is_error(e)) ep.host.release(static_cast<Error *>(e));
}

PipeRec *pick_pipe(Episode &ep, Rng &rng) {
    if (ep.open_pipes.empty()) return nullptr;
    return ep.open_pipes[rng.below(static_cast<std::uint32_t>(ep.open_pipes.size()))];
}

// Checks that bytes read from p continue its stream.
void check_bytes(Episode &ep, PipeRec *p, const unsigned char *buf, std::size_t n, const char *how) {
    for (std::size_t i = 0; i < n; ++i) {
        if (buf[i] != p->pattern(p->read + i)) {
            RANDOM_CHECK(ep, false, how << " on pipe p" << p->pid << " returned byte " << p->read + i
                                        << " out of order (a byte was lost, doubled or reordered)");
            return;
        }
    }
    RANDOM_CHECK(ep, p->read + n <= p->written + p->inflight_write,
                 how << " on pipe p" << p->pid << " returned bytes nobody wrote");
    p->read += n;
}

// A repeating timer that writes to p while readers wait on it, and reads
// from it while a writer waits for a full end (other writers may fill it
// while that writer waits): a waiter on p is always woken eventually.
void feed_later(Episode &ep, PipeRec *p, Rng &rng);

void timer_cb(tasync_timer_t *t, void *data);

TimerRec *new_timer(Episode &ep, Rng &rng, int action, std::uint64_t timeout, std::uint64_t repeat) {
    ep.timers.emplace_back();
    TimerRec *r = &ep.timers.back();
    r->tmid = ep.next_id++;
    r->rng = Rng(rng.fork());
    r->action = action;
    int rc = tasync_timer_create(ep.rt, &timer_cb, r, &r->t);
    RANDOM_CHECK(ep, rc == 0, "tasync_timer_create returned " << rc);
    r->timeout_ns = timeout;
    r->repeat_ns = repeat;
    r->max_fires = repeat != 0 ? 1 + static_cast<int>(rng.below(4)) : 1;
    r->armed_ns = ep.now();
    rc = tasync_timer_start(r->t, timeout, repeat);
    RANDOM_CHECK(ep, rc == 0, "tasync_timer_start returned " << rc);
    r->armed = true;
    ep.live_timers.push_back(r);
    return r;
}

void feed_later(Episode &ep, PipeRec *p, Rng &rng) {
    if (p->feeder) return;
    // Repeating: another reader may drain what it wrote before a waiter
    // runs; it stops when nobody waits on the pipe any more.
    p->feeder = true;
    new_timer(ep, rng, 100 + static_cast<int>(p->pid), ep.duration(rng), 1 + ep.duration(rng));
}

void forget_timer(Episode &ep, TimerRec *t) {
    for (std::size_t i = 0; i < ep.live_timers.size(); ++i) {
        if (ep.live_timers[i] == t) {
            ep.live_timers[i] = ep.live_timers.back();
            ep.live_timers.pop_back();
            break;
        }
    }
}

void timer_cb(tasync_timer_t *t, void *data) {
    auto *r = static_cast<TimerRec *>(data);
    Episode &ep = this_episode();
    ++ep.op_index;
    ep.trace("#" + std::to_string(ep.op_index) + " timer tm" + std::to_string(r->tmid) + " fires (action " +
             std::to_string(r->action) + ")");
    RANDOM_CHECK(ep, !ep.destroyed, "timer tm" << r->tmid << " fired inside tasync_runtime_destroy");
    // Virtual time makes a timer that fires forever (a waiter it feeds that
    // is never woken) spin instead of taking the wall-clock cap's minute.
    RANDOM_CHECK(ep, ep.op_index < 20 * (ep.budget + 1000),
                 "livelock: timer tm" << r->tmid << " keeps firing, " << ep.op_index << " operations into an episode of "
                                      << ep.budget);
    if (ep.failed) {
        // The episode winds down unchecked: a timer that would go on
        // firing (the livelock above) must not keep it from ending.
        destroy_timer(ep, r);
        return;
    }
    RANDOM_CHECK(ep, t == r->t, "a timer callback got another timer");
    RANDOM_CHECK(ep, tasync_coroutine_current(ep.rt) == nullptr, "a timer callback runs inside a coroutine");
    RANDOM_CHECK(ep, !r->destroyed, "timer tm" << r->tmid << " fired after it was destroyed");
    RANDOM_CHECK(ep, r->armed, "timer tm" << r->tmid << " fired while stopped");
    if (r->fires == 0)
        RANDOM_CHECK(ep, ep.now() >= r->armed_ns + r->timeout_ns,
                     "timer tm" << r->tmid << " of " << r->timeout_ns << " ns fired after " << ep.now() - r->armed_ns << " ns");
    ++r->fires;
    if (r->repeat_ns == 0) r->armed = false;
    ep.sync();  // what happened before the timer fired comes first
    Rng &rng = r->rng;
    bool feeder_done = false;
    if (r->action >= 100) {
        for (PipeRec &p : ep.pipes) {
            if (static_cast<int>(p.pid) + 100 != r->action) continue;
            if (p.closed || p.write_closed || (p.fd_waiters == 0 && !p.reader_busy)) {
                feeder_done = true;
                p.feeder = false;
            } else if (p.write_waiters > 0 && !p.reader_busy && !writable_now(p.wfd)) {
                read_pipe(ep, &p, 1 + rng.below(4096), "the feeder's read");
            } else if (!p.writer_busy) {
                write_pipe(ep, &p, 1 + rng.below(64));
            }
        }
    } else {
        switch (r->action) {
            case 1: {
                PipeRec *p = pick_pipe(ep, rng);
                if (p != nullptr && !p->write_closed && !p->writer_busy) write_pipe(ep, p, 1 + rng.below(64));
                break;
            }
            case 2: {
                std::vector<AwRec *> open;
                for (AwRec *a : ep.futures) {
                    if (a->kind == AwRec::Kind::Future && !a->completed) open.push_back(a);
                }
                if (!open.empty()) settle_future(ep, open[rng.below(static_cast<std::uint32_t>(open.size()))], rng);
                break;
            }
            case 3:
                if (!ep.parked.empty())
                    resume_parked(ep, ep.parked[rng.below(static_cast<std::uint32_t>(ep.parked.size()))], rng);
                break;
            case 4:
                if (!ep.unfinished.empty()) {
                    CoRec *c = ep.unfinished[rng.below(static_cast<std::uint32_t>(ep.unfinished.size()))];
                    if (c->state != CoState::Registered && c->core != nullptr) {
                        int rc = tasync_coroutine_cancel(c->core, nullptr);
                        RANDOM_CHECK(ep, rc == 0, "cancelling from a timer callback returned " << rc);
                        ep.cancel_co(c, ep.slot(nullptr, true));
                    }
                }
                break;
            case 5:
                if (ep.unfinished.size() < Episode::kMaxUnfinished && !ep.out_of_budget()) {
                    CoRec *c = ep.new_co(CoKind::Task, 1, rng.fork());
                    c->program = ep.make_program(c->rng, CoKind::Task, 1);
                    tasync_spawn_options_t o = ep.spawn_options(c, nullptr);
                    tasync_coroutine_t *h = nullptr;
                    int rc = tasync_spawn(ep.rt, &o, &h, nullptr);
                    RANDOM_CHECK(ep, rc == 0, "spawning from a timer callback returned " << rc);
                    if (rc == 0) {
                        c->core = h;
                        ep.spawned(c, ep.global);
                        tasync_coroutine_release(h);
                    } else {
                        c->state = CoState::Done;
                        c->spawn_failed = true;
                    }
                }
                break;
            default: break;
        }
    }
    if (r->action >= 100) {
        if (feeder_done) destroy_timer(ep, r);
    } else if (r->repeat_ns != 0 && r->fires >= r->max_fires) {
        if (rng.chance(50)) {
            tasync_timer_stop(t);
            r->armed = false;
        } else {
            destroy_timer(ep, r);  // inside its own callback (runtime.h: safe)
        }
    }
    ep.check_world();
}

}  // namespace

void destroy_timer(Episode &ep, TimerRec *t) {
    if (t->destroyed) return;
    t->destroyed = true;
    t->armed = false;
    forget_timer(ep, t);
    tasync_timer_destroy(t->t);
}

void write_pipe(Episode &ep, PipeRec *p, std::size_t n) {
    if (p->written - p->read > 16384 || !writable_now(p->wfd)) return;  // never fill it
    unsigned char buf[512];
    if (n > sizeof(buf)) n = sizeof(buf);
    for (std::size_t i = 0; i < n; ++i) buf[i] = p->pattern(p->written + i);
    ssize_t w = write(p->wfd, buf, n);
    // A socket pair near its limit may take part of it.
    RANDOM_CHECK(ep, w == static_cast<ssize_t>(n) || (p->socket && w > 0), "writing " << n << " bytes to pipe p" << p->pid << " wrote " << w
                                                                << " (" << std::strerror(errno) << ")");
    if (w > 0) {
        p->written += static_cast<std::uint64_t>(w);
        ++p->write_epoch;
    }
}

void close_pipe(Episode &ep, PipeRec *p, bool write_end_only) {
    if (!p->write_closed) {
        if (!ep.destroyed) tasync_fd_forget(ep.rt, p->wfd);
        close(p->wfd);
        p->wfd = -1;
        p->write_closed = true;
        ++p->write_epoch;  // the end of file makes the read end ready
    }
    if (write_end_only || p->closed) return;
    if (!ep.destroyed) tasync_fd_forget(ep.rt, p->rfd);
    close(p->rfd);
    p->rfd = -1;
    p->closed = true;
    for (std::size_t i = 0; i < ep.open_pipes.size(); ++i) {
        if (ep.open_pipes[i] == p) {
            ep.open_pipes[i] = ep.open_pipes.back();
            ep.open_pipes.pop_back();
            break;
        }
    }
}

std::string op_pipe_create(Episode &ep, CoRec *self) {
    if (ep.open_pipes.size() >= Episode::kMaxPipes) return "skip";
    ep.pipes.emplace_back();
    PipeRec *p = &ep.pipes.back();
    p->pid = ep.next_id++;
    int fds[2];
    p->socket = self->rng.chance(50);
    int rc = p->socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds)
                       : pipe2(fds, O_NONBLOCK | O_CLOEXEC);
    RANDOM_CHECK(ep, rc == 0, "creating a pipe failed: " << std::strerror(errno));
    if (rc != 0) {
        p->closed = p->write_closed = true;
        return "failed";
    }
    p->rfd = fds[0];
    p->wfd = fds[1];
    ep.open_pipes.push_back(p);
    return "p" + std::to_string(p->pid) + (p->socket ? " (socket pair)" : " (pipe)") + " fds " + std::to_string(p->rfd) +
           "," + std::to_string(p->wfd);
}

std::string op_pipe_write(Episode &ep, CoRec *self) {
    PipeRec *p = pick_pipe(ep, self->rng);
    if (p == nullptr || p->write_closed || p->writer_busy) return "skip";
    const std::size_t n = 1 + self->rng.below(512);
    write_pipe(ep, p, n);
    return "p" + std::to_string(p->pid) + " " + std::to_string(n) + " bytes";
}

ssize_t read_pipe(Episode &ep, PipeRec *p, std::size_t want, const char *how) {
    unsigned char buf[4096];
    if (want > sizeof(buf)) want = sizeof(buf);
    ssize_t r = read(p->rfd, buf, want);
    // Readers may be ahead of `written` while a write operation is in
    // flight (the kernel wrote part of it before its completion came).
    const std::uint64_t avail = p->written > p->read ? p->written - p->read : 0;
    if (r > 0) {
        check_bytes(ep, p, buf, static_cast<std::size_t>(r), how);
    } else if (r == 0) {
        RANDOM_CHECK(ep, p->write_closed && avail == 0, how << " on pipe p" << p->pid << " met the end of file early");
    } else {
        RANDOM_CHECK(ep, errno == EAGAIN && avail == 0,
                     how << " on pipe p" << p->pid << " failed: " << std::strerror(errno) << " with " << avail << " bytes buffered");
    }
    return r;
}

std::string op_pipe_read(Episode &ep, CoRec *self) {
    PipeRec *p = pick_pipe(ep, self->rng);
    if (p == nullptr || p->reader_busy) return "skip";
    const ssize_t r = read_pipe(ep, p, 1 + self->rng.below(1024), "a read");
    return "p" + std::to_string(p->pid) + " got " + std::to_string(r);
}

std::string op_await_fd(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    PipeRec *p = pick_pipe(ep, rng);
    if (p == nullptr) return "skip";
    const bool readable = p->write_closed || rng.chance(70);
    const int fd = readable ? p->rfd : p->wfd;
    if (!readable) {
        // Only a reader makes a full end writable again, and nobody is
        // bound to read: wait only for an end that is writable now (a
        // socket pair counts each small write's buffer overhead, so it can
        // fill with far fewer bytes than the model keeps buffered).
        if (!writable_now(fd)) return "p" + std::to_string(p->pid) + " skip (full)";
    }
    AwRec *canc = pick_cancellation(ep, self);
    Pin canc_pin(canc);
    tasync_awaitable_t *canc_aw = canc_pin.aw;
    // A reader blocked on an idle pipe must get data eventually, a writer
    // on an end that fills meanwhile room.
    if ((canc == nullptr || canc->kind != AwRec::Kind::Timeout) && !p->write_closed) feed_later(ep, p, rng);
    const bool canc_done = canc != nullptr && (canc->completed || tasync_awaitable_is_completed(canc_aw));
    self->wait = WaitRec{};
    self->wait.pipe = p;
    self->wait.events = readable ? TASYNC_IO_READABLE : TASYNC_IO_WRITABLE;
    self->wait.pipe_epoch = p->write_epoch;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::Fd);
    if (canc_done) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    ++p->fd_waiters;
    if (!readable) ++p->write_waiters;
    unsigned revents = 0;
    void *err = nullptr;
    int rc = tasync_await_fd(ep.rt, fd, self->wait.events, canc_aw, &revents, &err);
    --p->fd_waiters;
    if (!readable) --p->write_waiters;
    ep.end_wait(self);
    if (rc == -ECANCELED || rc == TASYNC_EAWAIT_CANCELLED) {
        ep.expect_cancel_outcome(self, rc, err, "an fd wait");
        if (rc == TASYNC_EAWAIT_CANCELLED) RANDOM_CHECK(ep, canc_aw != nullptr && tasync_awaitable_is_completed(canc_aw), "C5: an fd wait says its cancellation completed");
    } else if (rc == -EBADF) {
        ep.expect_cancel_outcome(self, rc, err, "an fd wait");
        RANDOM_CHECK(ep, readable ? p->closed : p->write_closed, "an fd wait on pipe p" << p->pid << " got -EBADF while it was open");
    } else {
        ep.expect_cancel_outcome(self, rc, err, "an fd wait");
        RANDOM_CHECK(ep, rc == 0, "an fd wait on pipe p" << p->pid << " returned " << rc);
        RANDOM_CHECK(ep, (revents & self->wait.events) != 0 || (revents & TASYNC_IO_HANGUP) != 0 || revents != 0,
                     "an fd wait returned no events");
        // No check that a reported readable end still has data: readiness
        // is a hint (reactor.h, G5). io_uring reports it from a poll
        // completion posted while the pipe was readable, and a reader that
        // emptied it before the next loop_run leaves it stale for a wait
        // registered meanwhile; any backend may do the same. Readers loop
        // on EAGAIN (op_pipe_read).
    }
    release_error(ep, err);
    return "p" + std::to_string(p->pid) + (readable ? " readable" : " writable") + " rc=" + std::to_string(rc);
}

static std::string run_op(Episode &ep, CoRec *self, bool read_op) {
    Rng &rng = self->rng;
    PipeRec *p = pick_pipe(ep, rng);
    if (p == nullptr) return "skip";
    if (read_op ? p->reader_busy : (p->writer_busy || p->write_closed || p->written - p->read > 16384 || !writable_now(p->wfd)))
        return "skip";
    (read_op ? p->reader_busy : p->writer_busy) = true;
    // The buffer lives on the heap, owned by an OnUnwind alone: the
    // runtime's destruction may drop this stack, suspended in the
    // operation, without unwinding it (the release frees it then).
    auto holder = std::make_shared<std::vector<unsigned char>>(1 + rng.below(512));
    std::vector<unsigned char> &buf = *holder;
    OnUnwind free_buf([owned = std::move(holder)] {});
    const std::uint64_t offset = p->written;
    if (!read_op) {
        for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = p->pattern(offset + i);
    }
    tasync_op_t op{};
    op.size = sizeof(op);
    const bool sock_call = p->socket && rng.chance(40);
    op.opcode = read_op ? (sock_call ? TASYNC_OP_RECV : TASYNC_OP_READ) : (sock_call ? TASYNC_OP_SEND : TASYNC_OP_WRITE);
    op.fd = read_op ? p->rfd : p->wfd;
    op.buf = buf.data();
    op.len = buf.size();
    op.offset = sock_call ? 0 : TASYNC_OFFSET_CURRENT;
    AwRec *canc = pick_cancellation(ep, self);
    Pin canc_pin(canc);
    tasync_awaitable_t *canc_aw = canc_pin.aw;
    if (read_op && (canc == nullptr || canc->kind != AwRec::Kind::Timeout) && !p->write_closed) feed_later(ep, p, rng);
    self->wait = WaitRec{};
    self->wait.pipe = p;
    self->wait.cancellation = canc;
    self->wait.keeps_result = true;
    if (!read_op) {
        // The kernel may write before the completion is delivered: a reader
        // may see these bytes first.
        p->inflight_write = buf.size();
        ++p->write_epoch;
    }
    ep.begin_wait(self, WaitKind::Op);
    void *err = nullptr;
    int rc = tasync_await_op(ep.rt, &op, canc_aw, &err);
    ep.end_wait(self);
    (read_op ? p->reader_busy : p->writer_busy) = false;
    if (!read_op) p->inflight_write = 0;
    const char *what = read_op ? "a read operation" : "a write operation";
    if (rc == -ECANCELED || rc == TASYNC_EAWAIT_CANCELLED) {
        ep.expect_cancel_outcome(self, rc, err, what);
        if (rc == TASYNC_EAWAIT_CANCELLED)
            RANDOM_CHECK(ep, canc_aw != nullptr && tasync_awaitable_is_completed(canc_aw), "C5: " << what << " says its cancellation completed");
    } else if (rc > 0) {
        // A result that won the race with a cancellation is returned; the
        // cancellation then waits for the next suspension point.
        RANDOM_CHECK(ep, static_cast<std::size_t>(rc) <= buf.size(), what << " returned " << rc << " of " << buf.size());
        if (read_op) {
            check_bytes(ep, p, buf.data(), static_cast<std::size_t>(rc), what);
        } else {
            RANDOM_CHECK(ep, p->written == offset, "the model let another writer in");
            p->written += static_cast<std::uint64_t>(rc);
            ++p->write_epoch;
        }
    } else if (rc == 0) {
        RANDOM_CHECK(ep, read_op && p->write_closed && p->read == p->written,
                     what << " on pipe p" << p->pid << " returned 0 before the end of the stream");
    } else {
        RANDOM_CHECK(ep, false, what << " on pipe p" << p->pid << " failed with " << rc);
    }
    if (!read_op) {
        // What readers took must have been written: a write that reports
        // less (or a cancellation) while the kernel wrote more lost a result.
        RANDOM_CHECK(ep, p->read <= p->written,
                     what << " on pipe p" << p->pid << " returned " << rc << " but readers got "
                          << (p->read - p->written) << " more bytes of it");
    }
    release_error(ep, err);
    return "p" + std::to_string(p->pid) + " " + std::to_string(buf.size()) + " bytes rc=" + std::to_string(rc);
}

std::string op_op_read(Episode &ep, CoRec *self) { return run_op(ep, self, true); }
std::string op_op_write(Episode &ep, CoRec *self) { return run_op(ep, self, false); }

std::string op_pipe_close(Episode &ep, CoRec *self) {
    PipeRec *p = pick_pipe(ep, self->rng);
    if (p == nullptr || p->reader_busy || p->writer_busy) return "skip";
    const bool write_only = !p->write_closed && self->rng.chance(50);
    close_pipe(ep, p, write_only);
    return "p" + std::to_string(p->pid) + (write_only ? " write end" : "");
}

namespace {

void offload_fn(void *data) {
    auto *r = static_cast<OffloadRec *>(data);
    the_clock().job_run(&r->job);  // until virtual time ends the work
    r->running.fetch_add(1);
    r->runs.fetch_add(1);
    r->running.fetch_sub(1);
    the_clock().job_finished(&r->job);
}

}  // namespace

std::string op_offload(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ep.offloads.push_back(std::make_unique<OffloadRec>());
    OffloadRec *r = ep.offloads.back().get();
    const std::uint64_t duration = rng.chance(30) ? 0 : ep.duration(rng);
    AwRec *canc = pick_cancellation(ep, self);
    Pin canc_pin(canc);
    tasync_awaitable_t *canc_aw = canc_pin.aw;
    self->wait = WaitRec{};
    self->wait.cancellation = canc;
    self->wait.keeps_result = true;
    ep.begin_wait(self, WaitKind::Offload);
    void *err = nullptr;
    the_clock().job_submitting(&r->job, self->core, duration);
    int rc = tasync_offload(ep.rt, &offload_fn, r, canc_aw, &err);
    the_clock().job_returned(&r->job);
    ep.end_wait(self);
    r->runs_at_return = r->runs.load();
    RANDOM_CHECK(ep, r->running.load() == 0, "offloaded work still runs after tasync_offload returned " << rc);
    if (rc == 0) {
        RANDOM_CHECK(ep, r->runs_at_return == 1, "tasync_offload returned 0 after " << r->runs_at_return << " runs");
    } else {
        ep.expect_cancel_outcome(self, rc, err, "offload");
        RANDOM_CHECK(ep, rc == -ECANCELED || rc == TASYNC_EAWAIT_CANCELLED, "tasync_offload returned " << rc);
        // Work that ran returns its result; only work taken back before
        // it started ends cancelled (runtime.h).
        RANDOM_CHECK(ep, r->runs_at_return == 0,
                     "tasync_offload returned " << rc << " after the work ran " << r->runs_at_return << " times");
    }
    release_error(ep, err);
    return "rc=" + std::to_string(rc) + " runs " + std::to_string(r->runs_at_return) + " (" + std::to_string(duration) +
           " ns)";
}

std::string op_timer_start(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_timers.size() >= Episode::kMaxTimers) return "skip";
    const std::uint64_t repeat = rng.chance(30) ? 1 + ep.duration(rng) : 0;
    TimerRec *r = new_timer(ep, rng, static_cast<int>(rng.below(6)), ep.duration(rng), repeat);
    if (rng.chance(20)) {
        tasync_timer_set_ref(r->t, 0);
        r->ref = false;
    }
    return "tm" + std::to_string(r->tmid) + " action " + std::to_string(r->action) + (repeat != 0 ? " repeating" : "") +
           (r->ref ? "" : " unref");
}

std::string op_timer_stop(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    std::vector<TimerRec *> own;
    for (TimerRec *t : ep.live_timers) {
        if (t->action < 100) own.push_back(t);
    }
    if (own.empty()) return "skip";
    TimerRec *t = own[rng.below(static_cast<std::uint32_t>(own.size()))];
    if (rng.chance(50)) {
        int rc = tasync_timer_stop(t->t);
        RANDOM_CHECK(ep, rc == 0, "tasync_timer_stop returned " << rc);
        t->armed = false;
        if (rng.chance(50)) {
            const std::uint64_t d = ep.duration(rng);
            t->armed_ns = ep.now();
            rc = tasync_timer_start(t->t, d, 0);
            RANDOM_CHECK(ep, rc == 0, "restarting a timer returned " << rc);
            t->armed = true;
            t->timeout_ns = d;
            t->fires = 0;
            t->repeat_ns = 0;
            return "tm" + std::to_string(t->tmid) + " restarted";
        }
        return "tm" + std::to_string(t->tmid) + " stopped";
    }
    destroy_timer(ep, t);
    return "tm" + std::to_string(t->tmid) + " destroyed";
}

}  // namespace tasync_random
