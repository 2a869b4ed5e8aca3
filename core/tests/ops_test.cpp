// Completion-style operations through the runtime (tasync_await_op): native
// on backends that have them, emulated otherwise; the same outcomes either way.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "test_host.hpp"

using namespace tasync_test;

namespace {

tasync_op_t make_op(int opcode, int fd, void *buf = nullptr, uint64_t len = 0) {
    tasync_op_t op;
    std::memset(&op, 0, sizeof(op));
    op.size = sizeof(op);
    op.opcode = static_cast<uint16_t>(opcode);
    op.fd = fd;
    op.buf = buf;
    op.len = len;
    op.offset = TASYNC_OFFSET_CURRENT;
    return op;
}

int listener(uint16_t *port) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    EXPECT_EQ(bind(s, reinterpret_cast<sockaddr *>(&a), sizeof(a)), 0);
    EXPECT_EQ(listen(s, 16), 0);
    socklen_t len = sizeof(a);
    getsockname(s, reinterpret_cast<sockaddr *>(&a), &len);
    *port = ntohs(a.sin_port);
    return s;
}

sockaddr_in loopback(uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    return a;
}

}  // namespace

class Ops : public RuntimeTest {
protected:
    int op(tasync_op_t &o, tasync_awaitable_t *cancel = nullptr) {
        void *e = nullptr;
        int rc = tasync_await_op(rt, &o, cancel, &e);
        if (rc < 0) {
            EXPECT_NE(e, nullptr) << "a failed op gives an error object";
            last_error = message_of(e);
            if (e != nullptr) host.release(static_cast<Error *>(e));
        } else {
            EXPECT_EQ(e, nullptr);
        }
        return rc;
    }
    std::string last_error;
};

TEST_F(Ops, PipeReadWaitsForTheWriter) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 3 * kMs, nullptr, nullptr);
        char msg[] = "ping";
        tasync_op_t w = make_op(TASYNC_OP_WRITE, p[1], msg, 4);
        EXPECT_EQ(op(w), 4);
    });
    char buf[16] = {0};
    tasync_op_t r = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r), 4);
    EXPECT_STREQ(buf, "ping");
    tasync_op_t c1 = make_op(TASYNC_OP_CLOSE, p[0]), c2 = make_op(TASYNC_OP_CLOSE, p[1]);
    EXPECT_EQ(op(c1), 0);
    EXPECT_EQ(op(c2), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, ShortWriteOnAFullPipe) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    const std::size_t big = 1 << 20;
    std::string data(big, 'x');
    tasync_op_t w = make_op(TASYNC_OP_WRITE, p[1], data.data(), big);
    int n = op(w);
    EXPECT_GT(n, 0);
    EXPECT_LT(static_cast<std::size_t>(n), big) << "a pipe holds far less than 1 MiB";
    // A short read: ask for more than is there.
    std::string buf(big, '\0');
    tasync_op_t r = make_op(TASYNC_OP_READ, p[0], buf.data(), big);
    int got = op(r);
    EXPECT_GT(got, 0);
    EXPECT_LE(got, n);
    close(p[0]);
    close(p[1]);
    tasync_fd_forget(rt, p[0]);
    tasync_fd_forget(rt, p[1]);
    EXPECT_EQ(run(), 0);
}

// After a short read the next read may wait for readiness before trying
// (emulated ops save the call that would say EAGAIN); data that is already
// there when it starts must still be returned at once, and an end of file
// must still be seen.
TEST_F(Ops, ReadAfterAShortReadGetsDataAlreadyThere) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    char buf[16] = {0};
    ASSERT_EQ(write(p[1], "ab", 2), 2);
    tasync_op_t r1 = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r1), 2) << "a short read";
    ASSERT_EQ(write(p[1], "cde", 3), 3);  // there before the next read starts
    tasync_op_t r2 = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r2), 3);
    EXPECT_EQ(std::string(buf, 3), "cde");
    ASSERT_EQ(write(p[1], "f", 1), 1);
    close(p[1]);
    tasync_op_t r3 = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r3), 1);
    tasync_op_t r4 = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r4), 0) << "end of file after a short read";
    tasync_op_t c = make_op(TASYNC_OP_CLOSE, p[0]);
    EXPECT_EQ(op(c), 0);
    EXPECT_EQ(run(), 0);
}

// Request/response over a socket pair with reads far larger than a message:
// every read is short, and every byte arrives in order.
TEST_F(Ops, RequestResponseWithShortReads) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
    constexpr int kRounds = 200;
    go([&](tasync_coroutine_t *) {  // echo server
        char buf[4096];
        for (;;) {
            tasync_op_t r = make_op(TASYNC_OP_RECV, sv[1], buf, sizeof(buf));
            int n = op(r);
            if (n <= 0) break;
            tasync_op_t w = make_op(TASYNC_OP_SEND, sv[1], buf, static_cast<uint64_t>(n));
            EXPECT_EQ(op(w), n);
        }
        tasync_op_t c = make_op(TASYNC_OP_CLOSE, sv[1]);
        EXPECT_EQ(op(c), 0);
    });
    for (int i = 0; i < kRounds; ++i) {
        char msg[64], back[4096];
        std::memset(msg, 'a' + i % 26, sizeof(msg));
        tasync_op_t w = make_op(TASYNC_OP_SEND, sv[0], msg, sizeof(msg));
        ASSERT_EQ(op(w), 64);
        int got = 0;
        while (got < 64) {
            tasync_op_t r = make_op(TASYNC_OP_RECV, sv[0], back + got, sizeof(back) - static_cast<size_t>(got));
            int n = op(r);
            ASSERT_GT(n, 0);
            got += n;
        }
        ASSERT_EQ(got, 64);
        ASSERT_EQ(std::memcmp(back, msg, 64), 0) << "round " << i;
    }
    tasync_op_t c = make_op(TASYNC_OP_CLOSE, sv[0]);
    EXPECT_EQ(op(c), 0);
    EXPECT_EQ(run(), 0);
}

// After a short write (the pipe is full) the next write waits until the
// pipe has room, then completes.
TEST_F(Ops, WriteAfterAShortWriteWaitsForRoom) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    const std::size_t big = 1 << 20;
    std::string data(big, 'x');
    tasync_op_t w1 = make_op(TASYNC_OP_WRITE, p[1], data.data(), big);
    int n = op(w1);
    ASSERT_GT(n, 0);
    ASSERT_LT(static_cast<std::size_t>(n), big);
    bool drained = false;
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        std::string sink(big, '\0');
        std::size_t total = 0;
        while (total < static_cast<std::size_t>(n)) {
            ssize_t r = read(p[0], sink.data(), big);
            ASSERT_GT(r, 0);
            total += static_cast<std::size_t>(r);
        }
        drained = true;
    });
    char y = 'y';
    tasync_op_t w2 = make_op(TASYNC_OP_WRITE, p[1], &y, 1);
    EXPECT_EQ(op(w2), 1);
    EXPECT_TRUE(drained) << "the write completed only once the pipe had room";
    char back = 0;
    tasync_op_t r = make_op(TASYNC_OP_READ, p[0], &back, 1);
    EXPECT_EQ(op(r), 1);
    EXPECT_EQ(back, 'y');
    tasync_op_t c1 = make_op(TASYNC_OP_CLOSE, p[0]), c2 = make_op(TASYNC_OP_CLOSE, p[1]);
    EXPECT_EQ(op(c1), 0);
    EXPECT_EQ(op(c2), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, BadFdIsEbadf) {
    char buf[4];
    tasync_op_t r = make_op(TASYNC_OP_READ, 1000000, buf, sizeof(buf));
    EXPECT_EQ(op(r), -EBADF);
    EXPECT_NE(last_error.find("Bad file descriptor"), std::string::npos) << last_error;
    tasync_op_t c = make_op(TASYNC_OP_CLOSE, 1000000);
    EXPECT_EQ(op(c), -EBADF);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, ConnectionRefused) {
    uint16_t port = 0;
    int l = listener(&port);
    close(l);  // nobody listens there now
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in a = loopback(port);
    tasync_op_t c = make_op(TASYNC_OP_CONNECT, s, &a, sizeof(a));
    EXPECT_EQ(op(c), -ECONNREFUSED);
    tasync_op_t cl = make_op(TASYNC_OP_CLOSE, s);
    EXPECT_EQ(op(cl), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, TcpAcceptConnectSendRecv) {
    uint16_t port = 0;
    int l = listener(&port);
    go([&](tasync_coroutine_t *) {  // server: accept, echo once
        sockaddr_in peer{};
        tasync_op_t a = make_op(TASYNC_OP_ACCEPT, l, &peer);
        a.addrlen = sizeof(peer);
        a.op_flags = SOCK_NONBLOCK | SOCK_CLOEXEC;
        int c = op(a);
        ASSERT_GE(c, 0);
        EXPECT_EQ(peer.sin_family, AF_INET);
        char buf[64];
        tasync_op_t r = make_op(TASYNC_OP_RECV, c, buf, sizeof(buf));
        int n = op(r);
        ASSERT_GT(n, 0);
        tasync_op_t s = make_op(TASYNC_OP_SEND, c, buf, static_cast<uint64_t>(n));
        EXPECT_EQ(op(s), n);
        tasync_op_t cl = make_op(TASYNC_OP_CLOSE, c);
        EXPECT_EQ(op(cl), 0);
    });
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in a = loopback(port);
    tasync_op_t c = make_op(TASYNC_OP_CONNECT, s, &a, sizeof(a));
    ASSERT_EQ(op(c), 0);
    char msg[] = "hello over tcp";
    tasync_op_t snd = make_op(TASYNC_OP_SEND, s, msg, sizeof(msg));
    EXPECT_EQ(op(snd), static_cast<int>(sizeof(msg)));
    char back[64] = {0};
    tasync_op_t rcv = make_op(TASYNC_OP_RECV, s, back, sizeof(back));
    EXPECT_EQ(op(rcv), static_cast<int>(sizeof(msg)));
    EXPECT_STREQ(back, msg);
    // The server closed: the next recv sees the end of the stream.
    tasync_op_t eof = make_op(TASYNC_OP_RECV, s, back, sizeof(back));
    EXPECT_EQ(op(eof), 0);
    tasync_op_t cl = make_op(TASYNC_OP_CLOSE, s), cll = make_op(TASYNC_OP_CLOSE, l);
    EXPECT_EQ(op(cl), 0);
    EXPECT_EQ(op(cll), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, FileOpenWriteFsyncReadClose) {
    char path[] = "/tmp/tasync-ops-XXXXXX";
    int tmp = mkstemp(path);
    ASSERT_GE(tmp, 0);
    close(tmp);
    tasync_op_t o = make_op(TASYNC_OP_OPENAT, AT_FDCWD, path);
    o.op_flags = O_RDWR | O_TRUNC | O_CLOEXEC;
    int fd = op(o);
    ASSERT_GE(fd, 0);
    char data[] = "file contents";
    tasync_op_t w = make_op(TASYNC_OP_WRITE, fd, data, sizeof(data));
    w.offset = 0;
    EXPECT_EQ(op(w), static_cast<int>(sizeof(data)));
    tasync_op_t f = make_op(TASYNC_OP_FSYNC, fd);
    EXPECT_EQ(op(f), 0);
    char back[32] = {0};
    tasync_op_t r = make_op(TASYNC_OP_READ, fd, back, sizeof(back));
    r.offset = 5;
    EXPECT_EQ(op(r), static_cast<int>(sizeof(data)) - 5);
    EXPECT_STREQ(back, "contents");
    tasync_op_t c = make_op(TASYNC_OP_CLOSE, fd);
    EXPECT_EQ(op(c), 0);
    unlink(path);
    tasync_op_t missing = make_op(TASYNC_OP_OPENAT, AT_FDCWD, path);
    missing.op_flags = O_RDONLY;
    EXPECT_EQ(op(missing), -ENOENT);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, PendingReadIsCancellable) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    int rc = 0;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        char buf[8];
        tasync_op_t r = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
        void *e = nullptr;
        rc = tasync_await_op(rt, &r, nullptr, &e);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
        host.release(static_cast<Error *>(e));
    });
    tasync_delay(rt, 2 * kMs, nullptr, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -ECANCELED);
    tasync_coroutine_release(co);
    tasync_fd_forget(rt, p[0]);
    close(p[0]);
    close(p[1]);
}

TEST_F(Ops, ReadWithACancellationAwaitable) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 3 * kMs, &t), 0);
    char buf[8];
    tasync_op_t r = make_op(TASYNC_OP_READ, p[0], buf, sizeof(buf));
    EXPECT_EQ(op(r, t), TASYNC_EAWAIT_CANCELLED);
    tasync_awaitable_release(t);
    tasync_fd_forget(rt, p[0]);
    close(p[0]);
    close(p[1]);
    EXPECT_EQ(run(), 0);
}

TEST_F(Ops, UnknownOpcodeIsEinval) {
    tasync_op_t o = make_op(77, 0);
    EXPECT_EQ(op(o), -EINVAL);
    EXPECT_EQ(run(), 0);
}
