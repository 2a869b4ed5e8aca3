// Completion-style operations (G9), run natively by backends that advertise
// TASYNC_CAP_COMPLETION and the opcode in op_mask. A backend without an
// opcode must refuse it (or lack op_submit altogether); the core's emulation
// of missing opcodes is tested with the core, not here.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

const char *op_name(int opcode) {
    static const char *names[] = {"NOP", "READ", "WRITE", "RECV", "SEND", "ACCEPT", "CONNECT", "CLOSE", "FSYNC", "OPENAT"};
    return opcode >= 0 && opcode < TASYNC_OP_COUNT_ ? names[opcode] : "unknown";
}

// An op and what became of it. If the test ends while the op is still in
// flight (a backend that never calls back), the op is cancelled, and if even
// that does not finish it the loop is destroyed (G8) before the memory the
// backend may write into goes away.
struct OpBox {
    tasync_op_t op{};
    int calls = 0;
    void (*then)(OpBox *) = nullptr;
    void *extra = nullptr;
    Loop *owner = nullptr;  // set while submitted and not yet called back

    OpBox() { reset(TASYNC_OP_NOP, -1); }
    OpBox(int opcode, int fd, void *buf = nullptr, std::uint64_t len = 0) { reset(opcode, fd, buf, len); }
    OpBox(const OpBox &) = delete;
    OpBox &operator=(const OpBox &) = delete;
    ~OpBox() {
        if (owner == nullptr || owner->get() == nullptr) return;
        if (B().op_cancel != nullptr) B().op_cancel(owner->get(), &op);
        if (!owner->run_until([&] { return owner == nullptr; }, 1 * kSec)) {
            ADD_FAILURE() << op_name(op.opcode) << " still in flight when its test ended; destroying the loop (G8)";
            owner->destroy();
        }
    }
    void reset(int opcode, int fd, void *buf = nullptr, std::uint64_t len = 0) {
        op = tasync_op_t{};
        op.size = sizeof(op);
        op.opcode = static_cast<std::uint16_t>(opcode);
        op.fd = fd;
        op.buf = buf;
        op.len = len;
        op.offset = TASYNC_OFFSET_CURRENT;
        op.cb = &OpBox::done;
        op.data = this;
        calls = 0;
    }
    int result() const { return op.result; }
    static void done(tasync_op_t *op) {
        in_callback();
        auto *b = static_cast<OpBox *>(op->data);
        b->calls++;
        b->owner = nullptr;
        if (b->then != nullptr) b->then(b);
    }
};

class Ops : public LoopTest {
protected:
    int submit(OpBox &b) {
        const int rc = B().op_submit(loop, &b.op);
        if (rc == 0) b.owner = &loop;
        return rc;
    }
    // Submits and waits for the callback; returns the result (or the
    // submit error, which must then come without a callback).
    int complete(OpBox &b) {
        const int rc = submit(b);
        if (rc != 0) {
            loop.spin(2);
            EXPECT_EQ(b.calls, 0) << "G9: op_submit failed (" << err_text(rc) << ") but the callback ran";
            return rc;
        }
        EXPECT_TRUE(wait(b)) << op_name(b.op.opcode) << " never completed";
        return b.result();
    }
    bool wait(OpBox &b) {
        const bool ok = loop.run_until([&] { return b.calls > 0; });
        loop.spin(2);
        EXPECT_LE(b.calls, 1) << "G9: the callback of one " << op_name(b.op.opcode) << " ran " << b.calls << " times";
        return ok;
    }
};

#define REQUIRE_OP(opcode)                                                                                    \
    do {                                                                                                      \
        if (!has_cap(TASYNC_CAP_COMPLETION))                                                                  \
            GTEST_SKIP() << "the backend has no native completion operations (no TASYNC_CAP_COMPLETION); " \
                            "the core emulates them";                                                         \
        if (!has_op(opcode))                                                                                  \
            GTEST_SKIP() << "the backend does not advertise " << op_name(opcode) << " in op_mask";            \
    } while (0)

// A loopback TCP listener on an ephemeral port.
struct Listener {
    Fd fd;
    sockaddr_in addr{};
    explicit Listener(int backlog = 16) {
        fd.reset(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
        socklen_t len = sizeof(addr);
        EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len), 0);
        if (backlog > 0) {
            EXPECT_EQ(listen(fd, backlog), 0);
        }
    }
};

// A temporary directory removed with its files.
struct TempDir {
    std::string path;
    TempDir() {
        const char *base = std::getenv("TMPDIR");
        std::string tmpl = std::string(base != nullptr && *base ? base : "/tmp") + "/tasync-conformance-XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        if (mkdtemp(buf.data()) != nullptr) path = buf.data();
        else ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
    }
    ~TempDir() {
        if (!path.empty()) {
            // Only files this test created, one level deep.
            for (const char *name : {"a", "b", "c"}) unlink((path + "/" + name).c_str());
            rmdir(path.c_str());
        }
    }
};

// An fd number that is certainly not open.
int closed_fd_number() {
    const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    close(fd);
    return fd;
}

}  // namespace

TEST_F(Ops, G9_UnadvertisedOpcodesAreRefusedWithoutCallback) {
    if (B().op_submit == nullptr) {
        EXPECT_FALSE(has_cap(TASYNC_CAP_COMPLETION));
        return;  // absent, as advertised
    }
    FdPair p = make_pipe(O_NONBLOCK);
    char buf[16];
    char path[] = "/nonexistent-tasync-conformance";
    std::vector<int> opcodes;
    for (int opcode = 0; opcode < TASYNC_OP_COUNT_; opcode++)
        if (!has_op(opcode)) opcodes.push_back(opcode);
    opcodes.push_back(TASYNC_OP_COUNT_);
    opcodes.push_back(200);
    for (int opcode : opcodes) {
        Fd victim(dup(p.a));  // what a wrongly executed CLOSE may close
        OpBox b(opcode, victim, opcode == TASYNC_OP_OPENAT ? static_cast<void *>(path) : buf, sizeof(buf));
        const int rc = submit(b);
        EXPECT_LT(rc, 0) << "G9: opcode " << opcode << " (" << op_name(opcode) << ") is not advertised but was accepted";
        if (rc == 0) {
            if (B().op_cancel != nullptr) B().op_cancel(loop, &b.op);
            loop.run_until([&] { return b.calls > 0; }, 1 * kSec);
            continue;
        }
        loop.spin(2);
        EXPECT_EQ(b.calls, 0) << "G9: a refused submit called back";
    }
}

TEST_F(Ops, G9_MalformedOpsAreRefusedWithoutCallback) {
    if (!has_cap(TASYNC_CAP_COMPLETION)) GTEST_SKIP() << "no TASYNC_CAP_COMPLETION";
    int opcode = 0;
    while (!has_op(opcode)) opcode++;
    FdPair p = make_pipe(O_NONBLOCK);
    char buf[4];
    {
        OpBox b(opcode, p.a, buf, sizeof(buf));
        b.op.cb = nullptr;
        EXPECT_LT(submit(b), 0) << "an op without a callback";
    }
    {
        OpBox b(opcode, p.a, buf, sizeof(buf));
        b.op.size = 8;
        const int rc = submit(b);
        EXPECT_LT(rc, 0) << "an op whose size is smaller than ABI 1.0's";
        loop.spin(2);
        EXPECT_EQ(b.calls, 0);
    }
}

TEST_F(Ops, G9_NopCompletesWithZero) {
    REQUIRE_OP(TASYNC_OP_NOP);
    OpBox b;
    b.op.result = 12345;
    EXPECT_EQ(complete(b), 0);
    EXPECT_EQ(b.calls, 1);
}

TEST_F(Ops, G9_ReadReturnsWhatIsAvailableAShortCount) {
    REQUIRE_OP(TASYNC_OP_READ);
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(write(p.b, "hello", 5), 5);
    char buf[100] = {0};
    OpBox b(TASYNC_OP_READ, p.a, buf, sizeof(buf));
    EXPECT_EQ(complete(b), 5);
    EXPECT_EQ(std::string(buf, 5), "hello");
}

TEST_F(Ops, G9_ZeroLengthReadCompletesWithZero) {
    REQUIRE_OP(TASYNC_OP_READ);
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b, 3), 3);
    char buf[1];
    OpBox b(TASYNC_OP_READ, p.a, buf, 0);
    EXPECT_EQ(complete(b), 0);
    EXPECT_EQ(drain(p.a), 3) << "nothing was consumed";
}

TEST_F(Ops, G9_ReadWaitsForDataWithoutBlockingTheLoop) {
    REQUIRE_OP(TASYNC_OP_READ);
    for (int flags : {O_NONBLOCK, 0}) {
        FdPair p = make_pipe(flags);
        char buf[16] = {0};
        OpBox b(TASYNC_OP_READ, p.a, buf, sizeof(buf));
        ASSERT_EQ(submit(b), 0);
        const std::uint64_t start = mono_ns();
        loop.spin(3);
        EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(1 * kSec))
            << "G7: loop_run(0) blocked on a read of an empty " << (flags ? "non-blocking" : "blocking") << " pipe";
        EXPECT_EQ(b.calls, 0) << "nothing to read yet";
        ASSERT_EQ(write(p.b, "abc", 3), 3);
        ASSERT_TRUE(wait(b));
        EXPECT_EQ(b.result(), 3);
        EXPECT_EQ(std::string(buf, 3), "abc");
    }
}

TEST_F(Ops, G9_ReadAtEndOfFileGivesZero) {
    REQUIRE_OP(TASYNC_OP_READ);
    FdPair p = make_pipe(O_NONBLOCK);
    p.b.reset();
    char buf[8];
    OpBox b(TASYNC_OP_READ, p.a, buf, sizeof(buf));
    EXPECT_EQ(complete(b), 0);
}

TEST_F(Ops, G9_WriteMayBeShortButReportsWhatWasWritten) {
    REQUIRE_OP(TASYNC_OP_WRITE);
    FdPair p = make_pipe(O_NONBLOCK);
    fcntl(p.b, F_SETPIPE_SZ, 4096);
    std::vector<unsigned char> data(256 * 1024);
    for (std::size_t i = 0; i < data.size(); i++) data[i] = static_cast<unsigned char>(i * 7 + i / 251);
    // A slow reader on another thread; it reads until end of file.
    std::vector<unsigned char> got;
    const int rfd = p.a;
    std::thread reader([&] {
        unsigned char buf[1024];
        for (;;) {
            const ssize_t n = read(rfd, buf, sizeof(buf));
            if (n > 0) {
                got.insert(got.end(), buf, buf + n);
                sleep_ns(20 * kUs);
            } else if (n == 0 || errno != EAGAIN) {
                break;
            } else {
                sleep_ns(200 * kUs);
            }
        }
    });
    OpBox b(TASYNC_OP_WRITE, p.b, data.data(), data.size());
    const int r = complete(b);
    p.b.reset();
    reader.join();
    ASSERT_GT(r, 0);
    EXPECT_LE(static_cast<std::size_t>(r), data.size());
    ASSERT_EQ(got.size(), static_cast<std::size_t>(r)) << "the result is exactly the number of bytes written";
    EXPECT_TRUE(std::equal(got.begin(), got.end(), data.begin())) << "and they are the first ones of the buffer";
    std::printf("[   INFO   ] WRITE of %zu bytes to a 4 KiB pipe wrote %d\n", data.size(), r);
}

TEST_F(Ops, G9_WriteToAPipeWithoutReaderFailsWithEPIPE) {
    REQUIRE_OP(TASYNC_OP_WRITE);
    FdPair p = make_pipe(O_NONBLOCK);
    p.a.reset();
    char c = 'x';
    OpBox b(TASYNC_OP_WRITE, p.b, &c, 1);
    EXPECT_EQ(complete(b), -EPIPE);
}

TEST_F(Ops, G9_BadFdFailsWithEBADF) {
    if (!has_cap(TASYNC_CAP_COMPLETION)) GTEST_SKIP() << "no TASYNC_CAP_COMPLETION";
    char buf[8] = {0};
    int tried = 0;
    for (int opcode : {TASYNC_OP_READ, TASYNC_OP_WRITE, TASYNC_OP_RECV, TASYNC_OP_SEND, TASYNC_OP_FSYNC, TASYNC_OP_CLOSE,
                       TASYNC_OP_ACCEPT}) {
        if (!has_op(opcode)) continue;
        tried++;
        for (int fd : {closed_fd_number(), -1}) {
            if (opcode == TASYNC_OP_CLOSE && fd < 0) continue;
            OpBox b(opcode, fd, opcode == TASYNC_OP_ACCEPT ? nullptr : buf, sizeof(buf));
            const int rc = complete(b);
            EXPECT_EQ(rc, -EBADF) << op_name(opcode) << " on fd " << fd << " gave " << err_text(rc);
        }
    }
    if (tried == 0) GTEST_SKIP() << "none of the fd opcodes is advertised";
}

TEST_F(Ops, G9_ConnectToAClosedPortFailsWithECONNREFUSED) {
    REQUIRE_OP(TASYNC_OP_CONNECT);
    sockaddr_in addr;
    {
        Listener unused(0);  // bound, never listening: connections are refused
        addr = unused.addr;
        for (int nonblock : {static_cast<int>(SOCK_NONBLOCK), 0}) {
            Fd s(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | nonblock, 0));
            OpBox b(TASYNC_OP_CONNECT, s, &addr, sizeof(addr));
            const int rc = complete(b);
            EXPECT_EQ(rc, -ECONNREFUSED) << (nonblock ? "non-blocking" : "blocking") << " socket: " << err_text(rc);
        }
    }
}

TEST_F(Ops, G9_AcceptConnectSendRecvOnLoopbackTcp) {
    REQUIRE_OP(TASYNC_OP_ACCEPT);
    REQUIRE_OP(TASYNC_OP_CONNECT);
    REQUIRE_OP(TASYNC_OP_SEND);
    REQUIRE_OP(TASYNC_OP_RECV);
    Listener l;
    sockaddr_in peer{};
    OpBox acc(TASYNC_OP_ACCEPT, l.fd, &peer);
    acc.op.addrlen = sizeof(peer);
    acc.op.op_flags = SOCK_CLOEXEC | SOCK_NONBLOCK;
    ASSERT_EQ(submit(acc), 0);
    loop.spin(2);
    EXPECT_EQ(acc.calls, 0) << "nobody connected yet";

    Fd client(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    OpBox con(TASYNC_OP_CONNECT, client, &l.addr, sizeof(l.addr));
    ASSERT_EQ(submit(con), 0);
    ASSERT_TRUE(loop.run_until([&] { return acc.calls > 0 && con.calls > 0; }));
    EXPECT_EQ(con.result(), 0);
    ASSERT_GE(acc.result(), 0) << err_text(acc.result());
    Fd server(acc.result());
    EXPECT_EQ(acc.op.addrlen, sizeof(sockaddr_in)) << "ACCEPT writes the peer address length";
    EXPECT_EQ(peer.sin_family, AF_INET);
    sockaddr_in local{};
    socklen_t len = sizeof(local);
    ASSERT_EQ(getsockname(client, reinterpret_cast<sockaddr *>(&local), &len), 0);
    EXPECT_EQ(peer.sin_port, local.sin_port) << "the address is the client's";
    EXPECT_TRUE(fcntl(server, F_GETFL) & O_NONBLOCK) << "op_flags SOCK_NONBLOCK applies to the new fd";
    EXPECT_TRUE(fcntl(server, F_GETFD) & FD_CLOEXEC) << "op_flags SOCK_CLOEXEC applies to the new fd";

    // A RECV posted before the data, a short SEND result, MSG_PEEK.
    char in[64] = {0};
    OpBox rcv(TASYNC_OP_RECV, server, in, sizeof(in));
    ASSERT_EQ(submit(rcv), 0);
    loop.spin(2);
    EXPECT_EQ(rcv.calls, 0);
    char ping[] = "ping";
    OpBox snd(TASYNC_OP_SEND, client, ping, 4);
    EXPECT_EQ(complete(snd), 4);
    ASSERT_TRUE(wait(rcv));
    EXPECT_EQ(rcv.result(), 4);
    EXPECT_EQ(std::string(in, 4), "ping");

    OpBox snd2(TASYNC_OP_SEND, server, ping, 4);
    EXPECT_EQ(complete(snd2), 4);
    char peek[8] = {0};
    OpBox pk(TASYNC_OP_RECV, client, peek, sizeof(peek));
    pk.op.op_flags = MSG_PEEK;
    EXPECT_EQ(complete(pk), 4);
    char rest[8] = {0};
    EXPECT_EQ(recv(client, rest, sizeof(rest), 0), 4) << "MSG_PEEK left the data in place";

    // The peer closes: RECV gives 0, then SEND fails.
    client.reset();
    OpBox eof(TASYNC_OP_RECV, server, in, sizeof(in));
    EXPECT_EQ(complete(eof), 0);
    int send_rc = 0;
    for (int i = 0; i < 10 && send_rc >= 0; i++) {
        OpBox s(TASYNC_OP_SEND, server, ping, 4);
        send_rc = complete(s);
    }
    EXPECT_TRUE(send_rc == -EPIPE || send_rc == -ECONNRESET) << err_text(send_rc);

    // ACCEPT without an address buffer.
    Fd client2(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    ASSERT_EQ(connect(client2, reinterpret_cast<sockaddr *>(&l.addr), sizeof(l.addr)), 0);
    OpBox acc2(TASYNC_OP_ACCEPT, l.fd);
    const int fd2 = complete(acc2);
    EXPECT_GE(fd2, 0) << err_text(fd2);
    if (fd2 >= 0) close(fd2);
}

TEST_F(Ops, G9_FileOpsOpenatWriteFsyncReadClose) {
    REQUIRE_OP(TASYNC_OP_OPENAT);
    REQUIRE_OP(TASYNC_OP_WRITE);
    REQUIRE_OP(TASYNC_OP_READ);
    REQUIRE_OP(TASYNC_OP_FSYNC);
    REQUIRE_OP(TASYNC_OP_CLOSE);
    TempDir dir;
    ASSERT_FALSE(dir.path.empty());
    std::string path = dir.path + "/a";
    OpBox open_op(TASYNC_OP_OPENAT, AT_FDCWD, path.data());
    open_op.op.op_flags = O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC;
    open_op.op.mode = 0600;
    const int fd = complete(open_op);
    ASSERT_GE(fd, 0) << err_text(fd);
    struct stat st;
    ASSERT_EQ(fstat(fd, &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << "OPENAT passes the mode";

    char text[] = "hello world";
    OpBox w1(TASYNC_OP_WRITE, fd, text, 11);
    w1.op.offset = 0;
    EXPECT_EQ(complete(w1), 11);
    char upper[] = "HELLO";
    OpBox w2(TASYNC_OP_WRITE, fd, upper, 5);
    w2.op.offset = 0;
    EXPECT_EQ(complete(w2), 5);
    OpBox sync(TASYNC_OP_FSYNC, fd);
    EXPECT_EQ(complete(sync), 0);
    OpBox dsync(TASYNC_OP_FSYNC, fd);
    dsync.op.op_flags = TASYNC_FSYNC_DATASYNC;
    EXPECT_EQ(complete(dsync), 0);
    char buf[32] = {0};
    OpBox r1(TASYNC_OP_READ, fd, buf, sizeof(buf));
    r1.op.offset = 6;
    EXPECT_EQ(complete(r1), 5) << "a read past the end of the data is short";
    EXPECT_EQ(std::string(buf, 5), "world");
    OpBox r2(TASYNC_OP_READ, fd, buf, sizeof(buf));
    r2.op.offset = 0;
    EXPECT_EQ(complete(r2), 11);
    EXPECT_EQ(std::string(buf, 11), "HELLO world");

    // TASYNC_OFFSET_CURRENT uses and advances the file position.
    ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
    OpBox c1(TASYNC_OP_READ, fd, buf, 6);
    EXPECT_EQ(complete(c1), 6);
    OpBox c2(TASYNC_OP_READ, fd, buf, sizeof(buf));
    EXPECT_EQ(complete(c2), 5);
    EXPECT_EQ(std::string(buf, 5), "world");
    EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 11);

    OpBox cl(TASYNC_OP_CLOSE, fd);
    EXPECT_EQ(complete(cl), 0);
    EXPECT_EQ(fcntl(fd, F_GETFD), -1) << "CLOSE closed the fd";

    // Relative to a directory fd; and errors.
    Fd dirfd(open(dir.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    char rel[] = "a";
    OpBox again(TASYNC_OP_OPENAT, dirfd, rel);
    again.op.op_flags = O_RDONLY | O_CLOEXEC;
    const int fd2 = complete(again);
    EXPECT_GE(fd2, 0) << err_text(fd2);
    if (fd2 >= 0) close(fd2);
    char missing[] = "no-such-file";
    OpBox none(TASYNC_OP_OPENAT, dirfd, missing);
    none.op.op_flags = O_RDONLY | O_CLOEXEC;
    EXPECT_EQ(complete(none), -ENOENT);
    OpBox excl(TASYNC_OP_OPENAT, dirfd, rel);
    excl.op.op_flags = O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC;
    excl.op.mode = 0600;
    EXPECT_EQ(complete(excl), -EEXIST);
}

TEST_F(Ops, G9_CancelOfAPendingOpDeliversECANCELEDOnce) {
    REQUIRE_OP(TASYNC_OP_READ);
    for (int runs_before_cancel : {0, 1, 3}) {
        FdPair p = make_pipe(O_NONBLOCK);
        char buf[8];
        OpBox b(TASYNC_OP_READ, p.a, buf, sizeof(buf));
        ASSERT_EQ(submit(b), 0);
        loop.spin(runs_before_cancel);
        ASSERT_EQ(b.calls, 0);
        EXPECT_EQ(B().op_cancel(loop, &b.op), 0);
        EXPECT_EQ(b.calls, 0) << "G2: op_cancel does not call back by itself";
        ASSERT_TRUE(wait(b));
        EXPECT_EQ(b.result(), -ECANCELED);
        // Cancelling twice, or after completion, changes nothing.
        B().op_cancel(loop, &b.op);
        loop.spin(2);
        EXPECT_EQ(b.calls, 1);
        // The data written now was not consumed by the cancelled read.
        ASSERT_EQ(write(p.b, "z", 1), 1);
        EXPECT_EQ(drain(p.a), 1);
    }
    if (has_op(TASYNC_OP_ACCEPT)) {
        Listener l;
        OpBox acc(TASYNC_OP_ACCEPT, l.fd);
        ASSERT_EQ(submit(acc), 0);
        loop.spin(1);
        EXPECT_EQ(B().op_cancel(loop, &acc.op), 0);
        ASSERT_TRUE(wait(acc));
        EXPECT_EQ(acc.result(), -ECANCELED);
    }
}

TEST_F(Ops, G9_CancelRacingCompletionCallsBackExactlyOnce) {
    // The data arrives around the cancel at every possible moment. Exactly
    // one callback comes; with -ECANCELED the byte is still in the pipe,
    // with 1 it was read: a cancelled op must not have consumed anything.
    REQUIRE_OP(TASYNC_OP_READ);
    FdPair p = make_pipe(O_NONBLOCK);
    std::mt19937 rng(99);
    int cancelled = 0, completed = 0;
    for (int i = 0; i < 2000; i++) {
        char buf[1];
        OpBox b(TASYNC_OP_READ, p.a, buf, 1);
        const unsigned plan = rng();
        if (plan % 5 == 0) {
            ASSERT_EQ(write(p.b, "r", 1), 1);
        }
        ASSERT_EQ(submit(b), 0);
        if ((plan >> 3) % 3 == 1) loop.run(0);
        if ((plan >> 5) % 5 == 1) {
            ASSERT_EQ(write(p.b, "r", 1), 1);
        }
        if ((plan >> 8) % 3 == 2) loop.run(0);
        if (b.calls == 0) {
            const int rc = B().op_cancel(loop, &b.op);
            EXPECT_TRUE(rc == 0 || rc == -ENOENT || rc == -EALREADY) << err_text(rc);
        }
        if ((plan >> 10) % 2) {
            ASSERT_EQ(write(p.b, "r", 1), 1);
        }
        ASSERT_TRUE(loop.run_until([&] { return b.calls > 0; })) << "iteration " << i;
        loop.run(0);
        ASSERT_EQ(b.calls, 1) << "G9: iteration " << i;
        if (b.result() == -ECANCELED) {
            cancelled++;
        } else {
            ASSERT_EQ(b.result(), 1) << "iteration " << i << ": " << err_text(b.result());
            completed++;
        }
        // Whatever is left in the pipe is exactly what was written minus
        // what the op (if it completed) read.
        const int written = (plan % 5 == 0) + ((plan >> 5) % 5 == 1) + ((plan >> 10) % 2);
        ASSERT_EQ(drain(p.a), written - (b.result() == 1 ? 1 : 0))
            << "iteration " << i << ": result " << err_text(b.result()) << " but the pipe says otherwise";
    }
    std::printf("[   INFO   ] cancel race: %d cancelled, %d completed first\n", cancelled, completed);
    EXPECT_GT(cancelled, 0);
    EXPECT_GT(completed, 0);
}

TEST_F(Ops, G9_CallbackMaySubmitTheNextOp) {
    REQUIRE_OP(TASYNC_OP_READ);
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b, 100), 100);
    struct Chain {
        Loop *loop;
        char buf[1];
        int total = 0;
    } chain{&loop, {0}};
    OpBox b(TASYNC_OP_READ, p.a, chain.buf, 1);
    b.extra = &chain;
    b.then = [](OpBox *self) {
        auto *c = static_cast<Chain *>(self->extra);
        if (self->result() == 1 && ++c->total < 100) {
            self->op.result = 0;
            EXPECT_EQ(B().op_submit(c->loop->get(), &self->op), 0) << "resubmitting from the callback";
            self->owner = c->loop;
        }
    };
    ASSERT_EQ(submit(b), 0);
    ASSERT_TRUE(loop.run_until([&] { return chain.total >= 100; }));
    loop.spin(2);
    EXPECT_EQ(b.calls, 100);
}

TEST_F(Ops, G9_ManyOpsInFlightAtOnce) {
    REQUIRE_OP(TASYNC_OP_READ);
    constexpr int kPipes = 1000;
    std::vector<FdPair> pipes;
    std::vector<OpBox> ops(kPipes);
    std::vector<char> bufs(kPipes);
    for (int i = 0; i < kPipes; i++) {
        pipes.push_back(make_pipe(O_NONBLOCK));
        ops[i].reset(TASYNC_OP_READ, pipes.back().a, &bufs[i], 1);
        ASSERT_EQ(submit(ops[i]), 0) << "op " << i;
    }
    loop.spin(2);
    for (int i = 0; i < kPipes; i++) {
        ASSERT_EQ(write(pipes[i].b, "m", 1), 1);
    }
    auto all_done = [&] {
        for (const OpBox &b : ops)
            if (b.calls == 0) return false;
        return true;
    };
    ASSERT_TRUE(loop.run_until(all_done));
    loop.spin(2);
    for (int i = 0; i < kPipes; i++) {
        EXPECT_EQ(ops[i].calls, 1) << "op " << i;
        EXPECT_EQ(ops[i].result(), 1) << "op " << i;
    }
}
