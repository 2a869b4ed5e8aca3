// Channels (rule T1, api/include/tasync/channel.h): a FIFO buffer of host
// values and two lines of waiters, senders and receivers, each a coroutine's
// wait or an asynchronous operation (an awaitable of its own).
//
// The invariants the fairness rule rests on, true between any two calls:
// while a live receiver waits the buffer is empty and no live sender waits;
// while a live sender waits the buffer is full. A counterpart serves the
// first live waiter of a line at once, handing it the value (or taking its
// value), so what is handed over is the waiter's before it runs again. A
// wait that ended otherwise (cancelled, timed out) stays linked until its
// coroutine runs and unlinks it; it is "dead" and skipped meanwhile.
//
// Cost: every operation is O(1) amortized (dead waiters are dropped from
// the front of a line as they are met).
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "cancel.hpp"
#include "runtime.hpp"

namespace tasync::detail {

struct ChanWait;
struct ChannelOp;

// A place in one of a channel's lines.
struct ChanNode {
    Link link;
    ChanWait *wait = nullptr;  // a coroutine's wait, or
    ChannelOp *op = nullptr;   // an asynchronous operation
    void *value = nullptr;     // a sender's value (owned until a receiver takes it)
    bool live() const;
};
using ChanLine = List<ChanNode, &ChanNode::link>;

// A coroutine waiting in tasync_channel_send or _recv (on its stack).
struct ChanWait : Wait {
    ChanNode node;
    tasync_channel *ch = nullptr;  // referenced until the cleanup
    tasync_runtime *rt = nullptr;
    TimerEntry timer;              // its timeout
    CancelLink cancel;
    int reason = 0;                // the close reason, when closing ended it
};

// tasync_channel_send_async / _recv_async: waits in a line as a coroutine
// would; completes when served.
struct ChannelOp final : tasync_awaitable {
    ChannelOp(tasync_runtime *r, bool is_send) : tasync_awaitable(AwaitableKind::ChannelOp, r), send(is_send) {
        node.op = this;
    }
    ChanNode node;
    tasync_channel *ch = nullptr;  // while node is linked
    bool send;

    // Withdraws it from its line (its value, a send's, released).
    void withdraw();
    void destroy() override;
    void detach() override;
};

inline bool ChanNode::live() const { return wait != nullptr ? !wait->done : !op->completed; }

}  // namespace tasync::detail

struct tasync_channel {
    tasync_channel(tasync_runtime *r, const tasync_channel_options_t &o);

    tasync_runtime *rt;            // nullptr once the runtime is gone
    std::uint32_t refs = 1;
    std::uint64_t id = 0;
    std::uint64_t capacity = 0;
    std::uint32_t flags = 0;
    std::uint64_t no_producer_ns = 0;
    std::uint64_t no_consumer_ns = 0;
    tasync_location_t created_at{};
    int reason = TASYNC_CHANNEL_OPEN;
    std::deque<void *> buffer;     // owned references, oldest first
    tasync::detail::ChanLine senders;
    tasync::detail::ChanLine receivers;
    tasync::detail::TimerEntry producer_timer;  // no_producer_timeout
    tasync::detail::TimerEntry consumer_timer;  // no_consumer_timeout

    bool closed() const { return reason != TASYNC_CHANNEL_OPEN; }
    // The first live waiter of a line (dead ones at its front dropped).
    tasync::detail::ChanNode *first(tasync::detail::ChanLine &line);
    // Accepts value (a reference the channel takes over when it returns
    // true): hands it to the first receiver, or buffers it when there is
    // room and no sender waits.
    bool offer(void *value);
    // Takes the next value (a reference for the caller): the oldest
    // buffered one (its place then goes to the first sender's value), else
    // the first sender's.
    bool take(void **out);
    // Ends a sender's wait or operation: its value was taken.
    void served_sender(tasync::detail::ChanNode *n);
    // Arms or disarms the no-producer and no-consumer timers.
    void update_timers();
    void rearm(tasync::detail::TimerEntry *t, std::uint64_t ns);
    // Closes; false when it was closed already.
    bool close(int why);
    std::size_t live_count(const tasync::detail::ChanLine &line) const;
    // "channel 3 (capacity 0) created at file:line"
    std::string describe() const;
    // The error of a closed channel, made by the host's factory.
    void *closed_error(int why) const;
};

namespace tasync::detail {
// Drops a reference; the last one closes (DISPOSED) and frees.
void channel_unref(tasync_channel *ch);
}  // namespace tasync::detail
