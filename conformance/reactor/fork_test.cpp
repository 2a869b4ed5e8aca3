// loop_fork (G11, optional since ABI 1.1): in a child made by fork(), a
// loop created before the fork gets kernel objects of its own and keeps its
// handles; the parent's loop is not disturbed by what the child does.
//
// The child cannot report through GoogleTest: it runs the checks with the
// table directly and ends with _exit(code), code 0 meaning all held; the
// parent turns a nonzero code into the failure it names.
#include <sys/wait.h>

#include <cstdio>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

class Fork : public LoopTest {
protected:
    void SetUp() override {
        if (B().loop_fork == nullptr) GTEST_SKIP() << "the backend has no loop_fork (G11 is optional)";
        LoopTest::SetUp();
    }
};

struct Counter {
    int calls = 0;
};

void count_io(tasync_handle_t *, void *d, int, unsigned) { static_cast<Counter *>(d)->calls++; }

// Runs the loop (table calls only, for the child) until c->calls > 0.
bool child_run_until(tasync_loop_t *loop, const Counter &c) {
    const std::uint64_t end = mono_ns() + static_cast<std::uint64_t>(kPatience);
    while (c.calls == 0 && mono_ns() < end) {
        if (B().loop_run(loop, 50 * kMs) < 0) return false;
    }
    return c.calls > 0;
}

// What a child's exit code means.
const char *child_failure(int code) {
    switch (code) {
        case 10: return "loop_fork failed in the child";
        case 11: return "an io handle opened before the fork did not report in the child";
        case 14: return "loop_wakeup did not end a wait in the child";
        case 15: return "an io handle opened in the child did not report";
        case 16: return "io_stop failed in the child";
        case 20: return "an op in flight at the fork did not finish with -ECANCELED in the child";
        case 21: return "an op in flight at the fork was called back more than once in the child";
        case 22: return "loop_run waited out its timeout after delivering the ops lost in the fork (G7)";
        default: return "the child crashed or ended unexpectedly";
    }
}

void expect_child_ok(pid_t pid) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "G11: the child was killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "G11: " << child_failure(WEXITSTATUS(status));
}

}  // namespace

TEST_F(Fork, G11_ChildKeepsItsHandlesAndTheParentKeepsItsWatches) {
    FdPair a = make_pipe(O_NONBLOCK), b = make_pipe(O_NONBLOCK);
    Counter a_calls, b_calls;
    Handle io_a, io_b;
    ASSERT_EQ(B().io_open(loop, a.a, count_io, &a_calls, io_a.out()), 0);
    ASSERT_EQ(B().io_start(io_a, TASYNC_IO_READABLE), 0);
    ASSERT_EQ(B().io_open(loop, b.a, count_io, &b_calls, io_b.out()), 0);
    ASSERT_EQ(B().io_start(io_b, TASYNC_IO_READABLE), 0);
    loop.run(0);  // everything registered with the kernel
    ASSERT_EQ(a_calls.calls + b_calls.calls, 0);

    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (B().loop_fork(loop) != 0) _exit(10);
        // What a backend sharing the parent's epoll set or ring would undo
        // in the parent.
        if (B().io_stop(io_a) != 0) _exit(16);
        if (put(b.b, 1) != 1) _exit(11);
        if (!child_run_until(loop, b_calls)) _exit(11);
        // Nothing else ready, so that only the wakeup can end the wait.
        if (B().io_stop(io_b) != 0) _exit(16);
        B().loop_wakeup(loop);
        const std::uint64_t start = mono_ns();
        B().loop_run(loop, 4 * kSec);
        if (mono_ns() - start > static_cast<std::uint64_t>(2 * kSec)) _exit(14);
        FdPair c = make_pipe(O_NONBLOCK);
        Counter c_calls;
        tasync_handle_t *io_c = nullptr;
        if (B().io_open(loop, c.a, count_io, &c_calls, &io_c) != 0 || B().io_start(io_c, TASYNC_IO_READABLE) != 0)
            _exit(15);
        put(c.b, 1);
        if (!child_run_until(loop, c_calls)) _exit(15);
        _exit(0);
    }
    expect_child_ok(pid);

    // The parent's watches are intact: its io handle still reports, a
    // wakeup still ends a wait.
    drain(b.a);
    ASSERT_EQ(put(a.b, 1), 1);
    EXPECT_TRUE(loop.run_until([&] { return a_calls.calls > 0; })) << "G11: the child's io_stop removed the parent's watch";
    ASSERT_EQ(B().io_stop(io_a), 0);  // nothing else ready: only the wakeup can end the wait
    ASSERT_EQ(B().io_stop(io_b), 0);
    ASSERT_EQ(B().loop_wakeup(loop), 0);
    const std::uint64_t start = mono_ns();
    loop.run(4 * kSec);
    EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(2 * kSec)) << "G11: the parent lost its wakeup";
}

TEST_F(Fork, G11_OpsInFlightAtTheForkFinishWithECANCELEDInTheChildOnly) {
    if (!has_cap(TASYNC_CAP_COMPLETION) || !has_op(TASYNC_OP_READ)) GTEST_SKIP() << "no completion READ";
    FdPair p = make_pipe(O_NONBLOCK);
    struct Box {
        tasync_op_t op{};
        char buf[4] = {};
        int calls = 0;
    } box;
    box.op.size = sizeof(box.op);
    box.op.opcode = TASYNC_OP_READ;
    box.op.fd = p.a;
    box.op.buf = box.buf;
    box.op.len = sizeof(box.buf);
    box.op.offset = TASYNC_OFFSET_CURRENT;
    box.op.data = &box;
    box.op.cb = [](tasync_op_t *op) { static_cast<Box *>(op->data)->calls++; };
    ASSERT_EQ(B().op_submit(loop, &box.op), 0);
    loop.run(0);  // in the kernel now
    ASSERT_EQ(box.calls, 0);

    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (B().loop_fork(loop) != 0) _exit(10);
        // Ready at once: the first loop_run delivers it and does not then
        // wait out its timeout (G7).
        const std::uint64_t start = mono_ns();
        B().loop_run(loop, 4 * kSec);
        if (box.calls != 1 || box.op.result != -ECANCELED) _exit(20);
        if (mono_ns() - start > static_cast<std::uint64_t>(2 * kSec)) _exit(22);
        B().loop_run(loop, 10 * kMs);
        if (box.calls != 1) _exit(21);
        _exit(0);
    }
    expect_child_ok(pid);
    // The parent's read is still in flight and completes with the data.
    ASSERT_EQ(put(p.b, 1), 1);
    EXPECT_TRUE(loop.run_until([&] { return box.calls > 0; }));
    EXPECT_EQ(box.calls, 1);
    EXPECT_EQ(box.op.result, 1) << err_text(box.op.result);
}
