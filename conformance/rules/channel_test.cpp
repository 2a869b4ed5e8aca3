// Rule T1: channels (channel.h): order, fairness and reservation,
// cancellation that loses nothing, closing, the self-closing timeouts, and
// introspection.
#include <string>
#include <vector>

#include "rules.hpp"

using namespace tasync_rules;

class Channel : public Rules {
protected:
    tasync_channel_t *channel(uint64_t capacity, uint64_t no_producer_ms = 0, uint64_t no_consumer_ms = 0,
                              uint32_t flags = 0) {
        tasync_channel_options_t o{};
        o.size = sizeof(o);
        o.capacity = capacity;
        o.flags = flags;
        o.no_producer_timeout_ns = no_producer_ms * kMs;
        o.no_consumer_timeout_ns = no_consumer_ms * kMs;
        tasync_channel_t *ch = nullptr;
        EXPECT_EQ(tasync_channel_create(rt, &o, &ch), 0);
        return ch;
    }

    // Sends the number v; returns the code (the error's message in last_error).
    int send(tasync_channel_t *ch, long v, tasync_awaitable_t *cancellation = nullptr, uint64_t timeout_ms = 0) {
        Value *val = host.value(v);
        void *e = nullptr;
        int rc = tasync_channel_send(rt, ch, val, cancellation, timeout_ms * kMs, &e);
        host.release(val);
        last_error = e != nullptr ? message_of(e) : "";
        last_kind = kind_of(e);
        release_error(e);
        return rc;
    }

    // Receives: the number received, or -1000 - the code's position (the
    // code in last_rc, the error's message in last_error).
    long recv(tasync_channel_t *ch, tasync_awaitable_t *cancellation = nullptr, uint64_t timeout_ms = 0) {
        void *v = nullptr, *e = nullptr;
        last_rc = tasync_channel_recv(rt, ch, cancellation, timeout_ms * kMs, &v, &e);
        long r = last_rc == 0 ? (v != nullptr ? static_cast<Value *>(v)->v : 0) : -1000;
        last_error = e != nullptr ? message_of(e) : "";
        last_kind = kind_of(e);
        release_value(v);
        release_error(e);
        return r;
    }

    long try_recv(tasync_channel_t *ch) {
        void *v = nullptr;
        last_rc = tasync_channel_try_recv(ch, &v);
        long r = last_rc == 0 ? static_cast<Value *>(v)->v : -1000;
        release_value(v);
        return r;
    }

    int try_send(tasync_channel_t *ch, long v) {
        Value *val = host.value(v);
        int rc = tasync_channel_try_send(ch, val);
        host.release(val);
        return rc;
    }

    // A coroutine receiving n values into `out` as "r<tag>:<v>".
    void receiver(tasync_channel_t *ch, const std::string &tag, int n = 1) {
        go([this, ch, tag, n](tasync_coroutine_t *) {
            for (int i = 0; i < n; ++i) {
                long v = recv(ch);
                say("r" + tag + ":" + (last_rc == 0 ? std::to_string(v) : tasync_err_name(last_rc)));
            }
        });
    }

    void sender(tasync_channel_t *ch, const std::string &tag, long v) {
        go([this, ch, tag, v](tasync_coroutine_t *) {
            int rc = send(ch, v);
            say("s" + tag + ":" + (rc == 0 ? std::string("ok") : tasync_err_name(rc)));
        });
    }

    void yield_n(int n) {
        for (int i = 0; i < n; ++i) EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    }

    tasync_channel_info_t info(tasync_channel_t *ch) {
        tasync_channel_info_t i{};
        i.size = sizeof(i);
        EXPECT_EQ(tasync_channel_info(ch, &i), 0);
        return i;
    }

    static std::string code(int rc) { return rc == 0 ? "ok" : tasync_err_name(rc); }

    int last_rc = 0;
    int last_kind = 0;
    std::string last_error;
    using V = std::vector<std::string>;
};

TEST_F(Channel, T1_ARendezvousSendWaitsForItsReceiver) {
    tasync_channel_t *ch = channel(0);
    sender(ch, "1", 10);
    yield_n(2);
    EXPECT_TRUE(out.empty()) << "capacity 0: the send waits until a receiver takes the value";
    EXPECT_EQ(info(ch).senders, 1u);
    EXPECT_EQ(tasync_channel_count(ch), 0u);
    EXPECT_EQ(recv(ch), 10);
    yield_n(1);
    EXPECT_EQ(out, (V{"s1:ok"}));
    EXPECT_EQ(try_send(ch, 1), -EAGAIN) << "nobody waits to receive";
    EXPECT_EQ(run(), 0);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ABufferedChannelKeepsOrderAndSuspendsSendersWhenFull) {
    tasync_channel_t *ch = channel(2);
    EXPECT_EQ(send(ch, 1), 0);
    EXPECT_EQ(send(ch, 2), 0) << "room in the buffer: no wait";
    EXPECT_EQ(tasync_channel_count(ch), 2u);
    EXPECT_EQ(try_send(ch, 3), -EAGAIN) << "full";
    sender(ch, "3", 3);
    yield_n(2);
    EXPECT_TRUE(out.empty()) << "a full buffer suspends the sender";
    EXPECT_EQ(recv(ch), 1);
    EXPECT_EQ(tasync_channel_count(ch), 2u) << "the freed place took the waiting sender's value at once";
    EXPECT_EQ(recv(ch), 2);
    EXPECT_EQ(recv(ch), 3);
    EXPECT_EQ(try_recv(ch), -1000);
    EXPECT_EQ(last_rc, -EAGAIN);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"s3:ok"}));
    EXPECT_EQ(tasync_channel_capacity(ch), 2u);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_WaitingReceiversAreServedInArrivalOrder) {
    tasync_channel_t *ch = channel(0);
    receiver(ch, "A");
    receiver(ch, "B");
    receiver(ch, "C");
    yield_n(2);
    EXPECT_EQ(info(ch).receivers, 3u);
    for (long v = 1; v <= 3; ++v) EXPECT_EQ(send(ch, v), 0) << "a receiver waits: taken at once";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"rA:1", "rB:2", "rC:3"}));
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_WaitingSendersAreServedInArrivalOrder) {
    tasync_channel_t *ch = channel(1);
    EXPECT_EQ(send(ch, 0), 0);
    sender(ch, "A", 1);
    sender(ch, "B", 2);
    sender(ch, "C", 3);
    yield_n(2);
    EXPECT_EQ(info(ch).senders, 3u);
    std::vector<long> got;
    for (int i = 0; i < 4; ++i) got.push_back(recv(ch));
    EXPECT_EQ(got, (std::vector<long>{0, 1, 2, 3}));
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"sA:ok", "sB:ok", "sC:ok"}));
    tasync_channel_release(ch);
}

// No barging: what a sender hands a waiting receiver is the receiver's
// before it runs; a coroutine that comes later but runs first finds nothing.
TEST_F(Channel, T1_AValueHandedToAWaitingReceiverIsReservedForIt) {
    tasync_channel_t *ch = channel(4);
    receiver(ch, "A");
    yield_n(2);
    EXPECT_EQ(send(ch, 7), 0);
    EXPECT_EQ(tasync_channel_count(ch), 0u) << "handed to the receiver, not buffered";
    EXPECT_EQ(try_recv(ch), -1000) << "the main flow runs before the receiver: it must not take the value";
    EXPECT_EQ(last_rc, -EAGAIN);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"rA:7"}));
    tasync_channel_release(ch);
}

// No barging for senders either: the place a receiver frees in a full
// buffer is filled by the first waiting sender's value at once.
TEST_F(Channel, T1_APlaceFreedInAFullBufferIsReservedForTheFirstWaitingSender) {
    tasync_channel_t *ch = channel(1);
    EXPECT_EQ(send(ch, 1), 0);
    sender(ch, "A", 2);
    yield_n(2);
    EXPECT_EQ(recv(ch), 1);
    EXPECT_EQ(try_send(ch, 99), -EAGAIN) << "the freed place went to A's value, not to a newcomer";
    EXPECT_EQ(recv(ch), 2);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"sA:ok"}));
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ACancelledReceiveTakesNothingAndTheNextReceiverGetsTheValue) {
    tasync_channel_t *ch = channel(0);
    tasync_awaitable_t *stop = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &stop), 0);
    go([&](tasync_coroutine_t *) {
        recv(ch, stop);
        say(std::string("A:") + tasync_err_name(last_rc));
    });
    receiver(ch, "B");
    yield_n(2);
    ASSERT_EQ(tasync_future_resolve(stop, nullptr), 0);
    EXPECT_EQ(send(ch, 5), 0) << "B waits: the cancelled A is skipped";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:TASYNC_EAWAIT_CANCELLED", "rB:5"}));
    tasync_awaitable_release(stop);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ACancelledSendDeliversNothing) {
    tasync_channel_t *ch = channel(0);
    tasync_coroutine_t *s = spawn([&](tasync_coroutine_t *) {
        int rc = send(ch, 5);
        say(std::string("s:") + tasync_err_name(rc));
    });
    yield_n(2);
    EXPECT_EQ(info(ch).senders, 1u);
    EXPECT_EQ(tasync_coroutine_cancel(s, nullptr), 0);
    EXPECT_EQ(info(ch).senders, 0u) << "a cancelled sender no longer counts";
    EXPECT_EQ(try_recv(ch), -1000) << "the cancelled send's value was not delivered";
    EXPECT_EQ(last_rc, -EAGAIN);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"s:ECANCELED"}));
    tasync_coroutine_release(s);
    tasync_channel_release(ch);
}

// Once a value was handed over, the operation has happened: a cancellation
// that arrives before the waiter runs again does not take it back; it is
// delivered at the next suspension point.
TEST_F(Channel, T1_AValueHandedOverBeforeACancellationIsKept) {
    tasync_channel_t *ch = channel(0);
    tasync_coroutine_t *r = spawn([&](tasync_coroutine_t *) {
        long v = recv(ch);
        say("recv " + std::to_string(v) + " " + code(last_rc));
        say("then " + code(tasync_yield(rt, nullptr)));
    });
    tasync_coroutine_t *s = spawn([&](tasync_coroutine_t *) { say("send " + code(send(ch, 9))); });
    yield_n(1);  // r waits, then s hands it 9: r is queued behind the main flow
    EXPECT_EQ(out, (V{"send ok"}));
    EXPECT_EQ(tasync_coroutine_cancel(r, nullptr), 0) << "r was handed 9 and has not run yet";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"send ok", "recv 9 ok", "then ECANCELED"}));
    tasync_coroutine_release(r);
    tasync_coroutine_release(s);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ASendWhoseValueWasTakenReportsSuccessDespiteALaterCancellation) {
    tasync_channel_t *ch = channel(0);
    tasync_coroutine_t *s = spawn([&](tasync_coroutine_t *) {
        say("send " + code(send(ch, 4)));
        say("then " + code(tasync_yield(rt, nullptr)));
    });
    yield_n(2);
    EXPECT_EQ(recv(ch), 4);
    EXPECT_EQ(tasync_coroutine_cancel(s, nullptr), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"send ok", "then ECANCELED"})) << "the value is the receiver's: the send succeeded";
    tasync_coroutine_release(s);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_AWaitWithATimeoutEndsWithETIMEDOUTAndLeavesTheLine) {
    tasync_channel_t *ch = channel(0);
    EXPECT_EQ(recv(ch, nullptr, 5), -1000);
    EXPECT_EQ(last_rc, -ETIMEDOUT);
    EXPECT_EQ(last_kind, TASYNC_ERROR_TIMEOUT);
    EXPECT_EQ(send(ch, 1, nullptr, 5), -ETIMEDOUT);
    EXPECT_EQ(last_kind, TASYNC_ERROR_TIMEOUT);
    EXPECT_EQ(info(ch).senders + info(ch).receivers, 0u);
    EXPECT_EQ(run(), 0);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ClosingLetsReceiversDrainThenFailsEveryone) {
    tasync_channel_t *ch = channel(3);
    EXPECT_EQ(send(ch, 1), 0);
    EXPECT_EQ(send(ch, 2), 0);
    EXPECT_EQ(tasync_channel_close(ch, TASYNC_CHANNEL_CLOSED_EXPLICIT), 0);
    EXPECT_EQ(tasync_channel_close(ch, TASYNC_CHANNEL_CLOSED_DEADLOCK), TASYNC_ECHANNEL_CLOSED) << "closed once";
    EXPECT_EQ(tasync_channel_close_reason(ch), TASYNC_CHANNEL_CLOSED_EXPLICIT) << "the first reason stays";
    EXPECT_EQ(send(ch, 3), TASYNC_ECHANNEL_CLOSED) << "a send fails at once";
    EXPECT_EQ(last_kind, TASYNC_ERROR_CHANNEL);
    EXPECT_EQ(try_send(ch, 3), TASYNC_ECHANNEL_CLOSED);
    EXPECT_EQ(recv(ch), 1);
    EXPECT_EQ(recv(ch), 2);
    EXPECT_EQ(recv(ch), -1000);
    EXPECT_EQ(last_rc, TASYNC_ECHANNEL_CLOSED);
    EXPECT_EQ(last_error, "The channel is closed (explicit)");
    EXPECT_EQ(try_recv(ch), -1000);
    EXPECT_EQ(last_rc, TASYNC_ECHANNEL_CLOSED);
    EXPECT_EQ(run(), 0);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ClosingWakesWaitingSendersAndReceivers) {
    tasync_channel_t *full = channel(1);
    tasync_channel_t *empty = channel(1);
    EXPECT_EQ(send(full, 1), 0);
    sender(full, "A", 2);
    receiver(empty, "B");
    yield_n(2);
    EXPECT_EQ(tasync_channel_close(full, TASYNC_CHANNEL_CLOSED_EXPLICIT), 0);
    EXPECT_EQ(tasync_channel_close(empty, TASYNC_CHANNEL_CLOSED_SCOPE_DISPOSED), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"sA:TASYNC_ECHANNEL_CLOSED", "rB:TASYNC_ECHANNEL_CLOSED"}));
    EXPECT_EQ(recv(full), 1) << "what was buffered before closing is still received";
    EXPECT_EQ(tasync_channel_count(full), 0u) << "A's value stayed A's";
    tasync_channel_release(full);
    tasync_channel_release(empty);
}

TEST_F(Channel, T1_AsynchronousOperationsWaitInLineWithCoroutines) {
    tasync_channel_t *ch = channel(0);
    receiver(ch, "A");
    yield_n(2);
    tasync_awaitable_t *r = nullptr;
    ASSERT_EQ(tasync_channel_recv_async(ch, &r), 0);
    EXPECT_FALSE(tasync_awaitable_is_completed(r));
    Value *v = host.value(1);
    tasync_awaitable_t *s1 = nullptr;
    ASSERT_EQ(tasync_channel_send_async(ch, v, &s1), 0);
    host.release(v);
    EXPECT_TRUE(tasync_awaitable_is_completed(s1)) << "taken at once by A, the first in line";
    EXPECT_FALSE(tasync_awaitable_is_completed(r)) << "the operation is behind A";
    EXPECT_EQ(send(ch, 2), 0);
    ASSERT_TRUE(tasync_awaitable_is_completed(r));
    void *got = nullptr, *err = nullptr;
    EXPECT_EQ(tasync_awaitable_outcome(r, &got, &err), 0);
    EXPECT_EQ(static_cast<Value *>(got)->v, 2);
    tasync_awaitable_t *s2 = nullptr;
    v = host.value(3);
    ASSERT_EQ(tasync_channel_send_async(ch, v, &s2), 0);
    host.release(v);
    EXPECT_FALSE(tasync_awaitable_is_completed(s2)) << "nobody receives: it waits";
    EXPECT_EQ(recv(ch), 3);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, s2, nullptr, nullptr, &e), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"rA:1"}));
    tasync_awaitable_release(r);
    tasync_awaitable_release(s1);
    tasync_awaitable_release(s2);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_AWithdrawnOperationLeavesItsPlaceToTheNextWaiter) {
    tasync_channel_t *ch = channel(0);
    tasync_awaitable_t *first = nullptr;
    ASSERT_EQ(tasync_channel_recv_async(ch, &first), 0);
    receiver(ch, "B");
    yield_n(2);
    EXPECT_EQ(tasync_channel_op_cancel(first, nullptr), 0);
    EXPECT_EQ(tasync_channel_op_cancel(first, nullptr), TASYNC_EBAD_STATE) << "completed: left as it is";
    void *v = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_awaitable_outcome(first, &v, &e), TASYNC_EFAILED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
    EXPECT_EQ(send(ch, 8), 0);
    // A pending operation nobody holds any more is withdrawn too.
    Value *val = host.value(9);
    tasync_awaitable_t *dropped = nullptr;
    ASSERT_EQ(tasync_channel_send_async(ch, val, &dropped), 0);
    host.release(val);
    EXPECT_EQ(info(ch).senders, 1u);
    tasync_awaitable_release(dropped);
    EXPECT_EQ(info(ch).senders, 0u);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"rB:8"}));
    tasync_awaitable_release(first);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_NoProducerTimeoutClosesAChannelNobodySendsTo) {
    tasync_channel_t *ch = channel(0, 10, 0, TASYNC_CHANNEL_HARD_TIMEOUTS);
    EXPECT_EQ(recv(ch), -1000);
    EXPECT_EQ(last_rc, TASYNC_ECHANNEL_CLOSED);
    EXPECT_EQ(last_error, "The channel is closed (no producers timeout)");
    EXPECT_EQ(tasync_channel_close_reason(ch), TASYNC_CHANNEL_CLOSED_NO_PRODUCERS);
    EXPECT_EQ(run(), 0);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_NoConsumerTimeoutClosesAChannelNobodyReceivesFrom) {
    tasync_channel_t *ch = channel(0, 0, 10, TASYNC_CHANNEL_HARD_TIMEOUTS);
    EXPECT_EQ(send(ch, 1), TASYNC_ECHANNEL_CLOSED);
    EXPECT_EQ(tasync_channel_close_reason(ch), TASYNC_CHANNEL_CLOSED_NO_CONSUMERS);
    EXPECT_EQ(run(), 0);
    tasync_channel_release(ch);
}

// The timers are soft by default: a program whose coroutines all wait on
// the channel meets the deadlock rule (C14) instead of waiting for them.
TEST_F(Channel, T1_SoftTimeoutsDoNotKeepTheRuntimeAliveAndTheDeadlockReportNamesTheChannel) {
    host.location_line = 40;
    tasync_channel_t *ch = channel(0, 60000);
    tasync_coroutine_t *r = spawn([&](tasync_coroutine_t *) {
        recv(ch);
        say(std::string("r:") + tasync_err_name(last_rc));
    });
    yield_n(2);
    tasync_wait_info_t wi{};
    wi.size = sizeof(wi);
    ASSERT_EQ(tasync_coroutine_wait_info(r, &wi), 0);
    EXPECT_EQ(wi.kind, static_cast<uint32_t>(TASYNC_WAIT_CHANNEL_RECV));
    EXPECT_EQ(wi.channel, ch);
    char buf[256];
    tasync_coroutine_describe_wait(r, buf, sizeof(buf));
    EXPECT_EQ(std::string(buf), "receiving from channel 1 (capacity 0) created at test.php:41");
    EXPECT_EQ(run(), TASYNC_EDEADLOCK);
    EXPECT_TRUE(warned("receiving from channel 1 (capacity 0) created at test.php:41"));
    void *fatal = tasync_runtime_take_error(rt);
    release_error(fatal);
    EXPECT_EQ(out, (V{"r:ECANCELED"}));
    tasync_coroutine_release(r);
    tasync_channel_release(ch);
}

TEST_F(Channel, T1_ReleasingAChannelFailsItsPendingOperationsAndLeaksNothing) {
    tasync_channel_t *ch = channel(2);
    EXPECT_EQ(send(ch, 1), 0);
    EXPECT_EQ(send(ch, 2), 0);
    Value *v = host.value(3);
    tasync_awaitable_t *s = nullptr;
    ASSERT_EQ(tasync_channel_send_async(ch, v, &s), 0);
    host.release(v);
    tasync_channel_release(ch);
    ASSERT_TRUE(tasync_awaitable_is_completed(s));
    void *val = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_awaitable_outcome(s, &val, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "The channel is closed (disposed)");
    tasync_awaitable_release(s);
    EXPECT_EQ(host.live_values, 0) << "buffered values and the pending send's were released";
    EXPECT_EQ(run(), 0);
}

// The runtime destroyed while coroutines wait on a channel that holds
// values: nothing leaks (TearDown checks the host's counts).
TEST_F(Channel, T1_TheRuntimeGoesWithWaitersAndBufferedValues) {
    tasync_channel_t *full = channel(1);
    tasync_channel_t *empty = channel(0);
    EXPECT_EQ(send(full, 1), 0);
    // The sender's own reference is dropped while it waits: what is left
    // is the channel's (a stack the destruction drops holds nothing).
    Value *two = host.value(2);
    go([&](tasync_coroutine_t *) { tasync_channel_send(rt, full, two, nullptr, 0, nullptr); });
    receiver(empty, "B");
    Value *v = host.value(3);
    tasync_awaitable_t *op = nullptr;
    ASSERT_EQ(tasync_channel_send_async(full, v, &op), 0);
    host.release(v);
    yield_n(2);
    host.release(two);
    EXPECT_EQ(info(full).senders, 2u);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_EQ(host.live_values, 0);
    tasync_awaitable_release(op);
    tasync_channel_release(full);
    tasync_channel_release(empty);
}
