// Channels (rule T1): the channel of channel.hpp and the C ABI of
// api/include/tasync/channel.h.
#include "tasync/core/channel.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

const char *reason_name(int why) {
    switch (why) {
        case TASYNC_CHANNEL_CLOSED_EXPLICIT: return "explicit";
        case TASYNC_CHANNEL_CLOSED_DISPOSED: return "disposed";
        case TASYNC_CHANNEL_CLOSED_NO_PRODUCERS: return "no producers timeout";
        case TASYNC_CHANNEL_CLOSED_NO_CONSUMERS: return "no consumers timeout";
        case TASYNC_CHANNEL_CLOSED_DEADLOCK: return "deadlock";
        case TASYNC_CHANNEL_CLOSED_SCOPE_DISPOSED: return "scope disposed";
        default: return "open";
    }
}

// Keeps a channel alive across code that may run the host's (a value's
// release may run a destructor that releases the channel).
struct Hold {
    explicit Hold(tasync_channel *c) : ch(c) { ++ch->refs; }
    ~Hold() { channel_unref(ch); }
    Hold(const Hold &) = delete;
    Hold &operator=(const Hold &) = delete;
    tasync_channel *ch;
};

void producer_timer_fired(TimerEntry *e) {
    auto *ch = static_cast<tasync_channel *>(e->owner);
    Hold hold(ch);
    ch->close(TASYNC_CHANNEL_CLOSED_NO_PRODUCERS);
}

void consumer_timer_fired(TimerEntry *e) {
    auto *ch = static_cast<tasync_channel *>(e->owner);
    Hold hold(ch);
    ch->close(TASYNC_CHANNEL_CLOSED_NO_CONSUMERS);
}

void chan_timeout_fired(TimerEntry *e) {
    auto *w = static_cast<ChanWait *>(e->owner);
    w->rt->wake(w, -ETIMEDOUT);
}

// A coroutine's wait ended (resumed, or dropped by runtime teardown): it
// leaves its line; a send's value not taken is the channel's to release.
void chan_wait_cleanup(Wait *base) {
    auto *w = static_cast<ChanWait *>(base);
    w->rt->timers.disarm(&w->timer);
    w->cancel.detach();
    tasync_channel *ch = w->ch;
    if (ch == nullptr) return;
    w->ch = nullptr;
    if (w->node.link.linked()) {
        (w->kind == WaitKind::ChannelSend ? ch->senders : ch->receivers).remove(&w->node);
        ch->update_timers();
    }
    void *v = w->node.value;
    w->node.value = nullptr;
    w->rt->release_value(v);
    channel_unref(ch);
}

// Ends a receiver's wait or operation with value (a reference it takes).
void serve_receiver(tasync_channel *ch, ChanNode *n, void *value) {
    ch->receivers.remove(n);
    if (n->wait != nullptr) {
        ch->rt->wake(n->wait, 0, value);
    } else {
        n->op->ch = nullptr;
        n->op->complete(value, nullptr);
    }
    ch->rearm(&ch->producer_timer, ch->no_producer_ns);  // a producer came
}

int not_usable(tasync_channel *ch) {
    if (ch == nullptr) return -EINVAL;
    return ch->rt == nullptr ? TASYNC_EBAD_STATE : 0;
}

int closed_code(tasync_channel *ch, void **out_error) {
    if (out_error != nullptr) *out_error = ch->closed_error(ch->reason);
    return TASYNC_ECHANNEL_CLOSED;
}

// Waits on a line of ch (send: value is the channel's reference, owned by
// the node until taken). Returns the wait's code, the received value in
// *out_value.
int wait_in_line(tasync_runtime *rt, tasync_channel *ch, bool send, void *value, tasync_awaitable *cancellation,
                 std::uint64_t timeout_ns, void **out_value, void **out_error) {
    ChanWait w;
    w.kind = send ? WaitKind::ChannelSend : WaitKind::ChannelRecv;
    w.object = ch;
    w.rt = rt;
    w.cleanup = &chan_wait_cleanup;
    // What was handed over stays handed over (rule T1): a cancellation that
    // comes after waits for the next suspension point.
    w.keeps_result = true;
    if (!w.cancel.attach(&w, cancellation)) {
        rt->release_value(value);
        return cancelled_at_once(rt, w, out_error);
    }
    w.node.wait = &w;
    w.node.value = value;
    w.ch = ch;
    ++ch->refs;
    (send ? ch->senders : ch->receivers).push_back(&w.node);
    ch->update_timers();
    if (timeout_ns != 0) {
        w.deadline = rt->fresh_now() + timeout_ns;
        w.timer.fire = &chan_timeout_fired;
        w.timer.owner = &w;
        rt->timers.arm(&w.timer, w.deadline);
    }
    rt->suspend_on(w);  // its cleanup leaves the line and drops the reference
    if (w.code == TASYNC_ECHANNEL_CLOSED && w.error == nullptr) {
        w.error = rt->make_error(TASYNC_ERROR_CHANNEL, TASYNC_ECHANNEL_CLOSED,
                                 std::string("The channel is closed (") + reason_name(w.reason) + ")");
    } else if (w.code == -ETIMEDOUT && w.error == nullptr) {
        w.error = rt->make_error(TASYNC_ERROR_TIMEOUT, -ETIMEDOUT,
                                 std::string(send ? "Sending to" : "Receiving from") +
                                     " the channel timed out after " + std::to_string(timeout_ns / 1000000) + " ms");
    }
    return finish_wait(rt, w, out_value, out_error);
}

ChannelOp *new_op(tasync_channel *ch, bool send) {
    auto *op = new ChannelOp(ch->rt, send);
    ch->rt->all.push_back(op);
    return op;
}

}  // namespace

// ================================================================== channel

tasync_channel::tasync_channel(tasync_runtime *r, const tasync_channel_options_t &o)
    : rt(r), capacity(o.capacity), flags(o.flags), no_producer_ns(o.no_producer_timeout_ns),
      no_consumer_ns(o.no_consumer_timeout_ns) {
    id = r->next_channel_id++;
    created_at = o.location.file != nullptr ? o.location : r->capture_location();
    const bool hard = (flags & TASYNC_CHANNEL_HARD_TIMEOUTS) != 0;
    producer_timer.fire = &producer_timer_fired;
    producer_timer.owner = this;
    producer_timer.ref = hard;
    consumer_timer.fire = &consumer_timer_fired;
    consumer_timer.owner = this;
    consumer_timer.ref = hard;
}

ChanNode *tasync_channel::first(ChanLine &line) {
    while (ChanNode *n = line.front()) {
        if (n->live()) return n;
        line.remove(n);  // a dead wait: its coroutine finds it unlinked
    }
    return nullptr;
}

bool tasync_channel::offer(void *value) {
    if (ChanNode *r = first(receivers)) {
        serve_receiver(this, r, value);
        return true;
    }
    if (buffer.size() < capacity && first(senders) == nullptr) {
        buffer.push_back(value);
        return true;
    }
    return false;
}

void tasync_channel::served_sender(ChanNode *n) {
    senders.remove(n);
    n->value = nullptr;
    if (n->wait != nullptr) {
        rt->wake(n->wait, 0);
    } else {
        n->op->ch = nullptr;
        n->op->complete(nullptr, nullptr);
    }
    rearm(&consumer_timer, no_consumer_ns);  // a consumer came
}

bool tasync_channel::take(void **out) {
    if (!buffer.empty()) {
        *out = buffer.front();
        buffer.pop_front();
        // The freed place goes to the first waiting sender's value at once.
        while (buffer.size() < capacity) {
            ChanNode *s = first(senders);
            if (s == nullptr) break;
            buffer.push_back(s->value);
            served_sender(s);
        }
        return true;
    }
    if (ChanNode *s = first(senders)) {
        *out = s->value;
        served_sender(s);
        return true;
    }
    return false;
}

void tasync_channel::rearm(TimerEntry *t, std::uint64_t ns) {
    if (ns != 0 && t->armed() && rt != nullptr && !rt->destroying) rt->timers.arm(t, rt->fresh_now() + ns);
}

void tasync_channel::update_timers() {
    if (rt == nullptr || rt->destroying) return;
    auto keep = [&](TimerEntry *t, std::uint64_t ns, ChanLine &line) {
        if (ns != 0 && !closed() && first(line) != nullptr) {
            if (!t->armed()) rt->timers.arm(t, rt->fresh_now() + ns);
        } else {
            rt->timers.disarm(t);
        }
    };
    keep(&producer_timer, no_producer_ns, receivers);
    keep(&consumer_timer, no_consumer_ns, senders);
}

bool tasync_channel::close(int why) {
    if (closed()) return false;
    reason = why;
    if (rt == nullptr) return true;
    rt->timers.disarm(&producer_timer);
    rt->timers.disarm(&consumer_timer);
    // Every waiter leaves its line first; then the host's code runs (errors
    // made, operations completed, values released) on a consistent channel.
    std::vector<ChanNode *> ended;
    while (ChanNode *n = senders.pop_front()) ended.push_back(n);
    while (ChanNode *n = receivers.pop_front()) ended.push_back(n);
    std::vector<void *> values;
    std::vector<ChannelOp *> ops;
    for (ChanNode *n : ended) {
        if (n->value != nullptr) values.push_back(n->value);  // a sender's: it stays the sender's
        n->value = nullptr;
        if (n->wait != nullptr) {
            n->wait->reason = why;
            rt->wake(n->wait, TASYNC_ECHANNEL_CLOSED);
        } else if (!rt->destroying) {
            n->op->ch = nullptr;
            ++n->op->refs;
            ops.push_back(n->op);
        } else {
            n->op->ch = nullptr;
        }
    }
    for (ChannelOp *op : ops) {
        op->complete(nullptr, closed_error(why));
        if (--op->refs == 0) op->destroy();
    }
    for (void *v : values) rt->release_value(v);
    return true;
}

std::size_t tasync_channel::live_count(const ChanLine &line) const {
    std::size_t n = 0;
    for (const ChanNode *p = line.front(); p != nullptr; p = line.next(p)) n += p->live() ? 1 : 0;
    return n;
}

std::string tasync_channel::describe() const {
    return "channel " + std::to_string(id) + " (capacity " + std::to_string(capacity) + ") created" +
           tasync_runtime::at(created_at);
}

void *tasync_channel::closed_error(int why) const {
    return rt->make_error(TASYNC_ERROR_CHANNEL, TASYNC_ECHANNEL_CLOSED,
                          std::string("The channel is closed (") + reason_name(why) + ")");
}

namespace tasync::detail {

void channel_unref(tasync_channel *ch) {
    if (--ch->refs != 0) return;
    tasync_runtime *rt = ch->rt;
    std::deque<void *> values;
    if (rt != nullptr) {
        ++ch->refs;  // closing runs the host's code, which may take a reference
        ch->close(TASYNC_CHANNEL_CLOSED_DISPOSED);
        if (--ch->refs != 0) return;
        rt->timers.disarm(&ch->producer_timer);
        rt->timers.disarm(&ch->consumer_timer);
        rt->channels.erase(ch);
        values.swap(ch->buffer);
    }
    delete ch;
    if (rt != nullptr) {
        for (void *v : values) rt->release_value(v);
    }
}

void ChannelOp::withdraw() {
    tasync_channel *c = ch;
    if (c == nullptr) return;
    ch = nullptr;
    (send ? c->senders : c->receivers).remove(&node);
    void *v = node.value;
    node.value = nullptr;
    c->update_timers();
    if (rt != nullptr) rt->release_value(v);
}

void ChannelOp::destroy() {
    withdraw();  // a pending operation nobody holds any more
    tasync_awaitable::destroy();
}

void ChannelOp::detach() {
    withdraw();
    tasync_awaitable::detach();
}

}  // namespace tasync::detail

void tasync_runtime::teardown_channels() {
    std::vector<tasync_channel *> all(channels.begin(), channels.end());
    channels.clear();
    for (tasync_channel *ch : all) {
        timers.disarm(&ch->producer_timer);
        timers.disarm(&ch->consumer_timer);
        // The waits and operations left their lines when the coroutines
        // and awaitables were dropped; what is buffered goes now.
        while (ChanNode *n = ch->senders.pop_front()) {
            release_value(n->value);
            n->value = nullptr;
        }
        while (ch->receivers.pop_front() != nullptr) {
        }
        for (void *v : ch->buffer) release_value(v);
        ch->buffer.clear();
        if (!ch->closed()) ch->reason = TASYNC_CHANNEL_CLOSED_DISPOSED;
        ch->rt = nullptr;
    }
}

// ===================================================================== ABI

extern "C" {

TASYNC_API int tasync_channel_create(tasync_runtime_t *rt, const tasync_channel_options_t *opts,
                                     tasync_channel_t **out) {
    if (out != nullptr) *out = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || out == nullptr) return -EINVAL;
    tasync_channel_options_t o{};
    if (opts != nullptr) {
        if (opts->size < offsetof(tasync_channel_options_t, location)) return -EINVAL;
        std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    }
    auto *ch = new tasync_channel(rt, o);
    rt->channels.insert(ch);
    *out = ch;
    return 0;
}

TASYNC_API void tasync_channel_retain(tasync_channel_t *ch) {
    if (ch != nullptr) ++ch->refs;
}

TASYNC_API void tasync_channel_release(tasync_channel_t *ch) {
    if (ch != nullptr) channel_unref(ch);
}

TASYNC_API int tasync_channel_send(tasync_runtime_t *rt, tasync_channel_t *ch, void *value,
                                   tasync_awaitable_t *cancellation, uint64_t timeout_ns, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (int rc = not_usable(ch); rc != 0) return rc;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (ch->rt != rt) return TASYNC_EWRONG_THREAD;
    if (cancellation != nullptr && cancellation->rt != rt)
        return cancellation->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    if (ch->closed()) return closed_code(ch, out_error);
    rt->retain_value(value);
    if (ch->offer(value)) {
        ch->update_timers();
        return 0;
    }
    return wait_in_line(rt, ch, true, value, cancellation, timeout_ns, nullptr, out_error);
}

TASYNC_API int tasync_channel_recv(tasync_runtime_t *rt, tasync_channel_t *ch, tasync_awaitable_t *cancellation,
                                   uint64_t timeout_ns, void **out_value, void **out_error) {
    if (out_value != nullptr) *out_value = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (int rc = not_usable(ch); rc != 0) return rc;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (ch->rt != rt) return TASYNC_EWRONG_THREAD;
    if (cancellation != nullptr && cancellation->rt != rt)
        return cancellation->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    void *v = nullptr;
    if (ch->take(&v)) {
        ch->update_timers();
        if (out_value != nullptr) *out_value = v;
        else rt->release_value(v);
        return 0;
    }
    if (ch->closed()) return closed_code(ch, out_error);
    return wait_in_line(rt, ch, false, nullptr, cancellation, timeout_ns, out_value, out_error);
}

TASYNC_API int tasync_channel_try_send(tasync_channel_t *ch, void *value) {
    if (int rc = not_usable(ch); rc != 0) return rc;
    if (ch->closed()) return TASYNC_ECHANNEL_CLOSED;
    tasync_runtime *rt = ch->rt;
    rt->retain_value(value);
    if (!ch->offer(value)) {
        rt->release_value(value);
        return -EAGAIN;
    }
    ch->update_timers();
    return 0;
}

TASYNC_API int tasync_channel_try_recv(tasync_channel_t *ch, void **out_value) {
    if (out_value != nullptr) *out_value = nullptr;
    if (int rc = not_usable(ch); rc != 0) return rc;
    void *v = nullptr;
    if (!ch->take(&v)) return ch->closed() ? TASYNC_ECHANNEL_CLOSED : -EAGAIN;
    ch->update_timers();
    if (out_value != nullptr) *out_value = v;
    else ch->rt->release_value(v);
    return 0;
}

TASYNC_API int tasync_channel_send_async(tasync_channel_t *ch, void *value, tasync_awaitable_t **out) {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr) return -EINVAL;
    if (int rc = not_usable(ch); rc != 0) return rc;
    ChannelOp *op = new_op(ch, true);
    *out = op;
    if (ch->closed()) {
        op->complete(nullptr, ch->closed_error(ch->reason));
        return 0;
    }
    ch->rt->retain_value(value);
    if (ch->offer(value)) {
        ch->update_timers();
        op->complete(nullptr, nullptr);
        return 0;
    }
    op->node.value = value;
    op->ch = ch;
    ch->senders.push_back(&op->node);
    ch->update_timers();
    return 0;
}

TASYNC_API int tasync_channel_recv_async(tasync_channel_t *ch, tasync_awaitable_t **out) {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr) return -EINVAL;
    if (int rc = not_usable(ch); rc != 0) return rc;
    ChannelOp *op = new_op(ch, false);
    *out = op;
    void *v = nullptr;
    if (ch->take(&v)) {
        ch->update_timers();
        op->complete(v, nullptr);
        return 0;
    }
    if (ch->closed()) {
        op->complete(nullptr, ch->closed_error(ch->reason));
        return 0;
    }
    op->ch = ch;
    ch->receivers.push_back(&op->node);
    ch->update_timers();
    return 0;
}

TASYNC_API int tasync_channel_op_cancel(tasync_awaitable_t *aw, void *error) {
    if (aw == nullptr || aw->kind != AwaitableKind::ChannelOp) return -EINVAL;
    auto *op = static_cast<ChannelOp *>(aw);
    tasync_runtime *rt = op->rt;
    if (rt == nullptr || op->completed || op->ch == nullptr) return TASYNC_EBAD_STATE;
    ++op->refs;
    op->withdraw();
    if (error != nullptr) {
        rt->retain_error(error);
    } else {
        error = rt->make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                               "The channel operation was cancelled" + tasync_runtime::at(rt->capture_location()));
    }
    op->complete(nullptr, error);
    if (--op->refs == 0) op->destroy();
    return 0;
}

TASYNC_API int tasync_channel_close(tasync_channel_t *ch, int reason) {
    if (ch == nullptr || reason < TASYNC_CHANNEL_CLOSED_EXPLICIT || reason > TASYNC_CHANNEL_CLOSED_SCOPE_DISPOSED)
        return -EINVAL;
    if (ch->rt == nullptr) return ch->closed() ? TASYNC_ECHANNEL_CLOSED : TASYNC_EBAD_STATE;
    Hold hold(ch);
    return ch->close(reason) ? 0 : TASYNC_ECHANNEL_CLOSED;
}

TASYNC_API int tasync_channel_close_reason(const tasync_channel_t *ch) { return ch != nullptr ? ch->reason : -EINVAL; }

TASYNC_API size_t tasync_channel_count(const tasync_channel_t *ch) { return ch != nullptr ? ch->buffer.size() : 0; }

TASYNC_API uint64_t tasync_channel_capacity(const tasync_channel_t *ch) { return ch != nullptr ? ch->capacity : 0; }

TASYNC_API int tasync_channel_info(const tasync_channel_t *ch, tasync_channel_info_t *out) {
    if (ch == nullptr || out == nullptr || out->size < sizeof(uint32_t) * 2) return -EINVAL;
    tasync_channel_info_t info{};
    info.size = out->size < sizeof(info) ? out->size : static_cast<uint32_t>(sizeof(info));
    info.close_reason = static_cast<uint32_t>(ch->reason);
    info.id = ch->id;
    info.capacity = ch->capacity;
    info.count = ch->buffer.size();
    info.senders = ch->live_count(ch->senders);
    info.receivers = ch->live_count(ch->receivers);
    info.location = ch->created_at;
    std::memcpy(out, &info, info.size);
    return 0;
}

}  // extern "C"
