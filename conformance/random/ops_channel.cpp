// Channels (T1, channel.h): sends and receives of every form, with and
// without a cancellation awaitable or a timeout, kept operations awaited,
// withdrawn or dropped, closing and releasing. The model follows every
// value sent: a value is received at most once, never after its send
// failed, a send whose value was received succeeded, a receiving coroutine
// gets values in the order their sends began, and the channel's count stays
// within what the sends and receives that returned allow (nothing lost).
#include <tasync/channel.h>

#include "ops.hpp"

namespace tasync_random {

namespace {

std::string cname(const ChanRec *c) { return "ch" + std::to_string(c->chid); }

ChanRec *pick_chan(Episode &ep, Rng &rng) {
    if (ep.live_chans.empty()) return nullptr;
    return ep.live_chans[rng.below(static_cast<std::uint32_t>(ep.live_chans.size()))];
}

void swap_out(std::vector<ChanOpRec *> &v, ChanOpRec *o) {
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == o) {
            v[i] = v.back();
            v.pop_back();
            return;
        }
    }
}

// A send begins: its value takes its place in the channel's order.
Value *begin_send(Episode &ep, ChanRec *c) {
    Value *v = ep.host.value(static_cast<long>(ep.op_index), "value sent on " + cname(c));
    c->sent[v] = SentRec{SentRec::State::InFlight, c->next_seq++};
    return v;
}

// A send (or send operation) of v ended.
void send_ended(Episode &ep, ChanRec *c, const Value *v, bool ok, const char *how) {
    SentRec &s = c->sent[v];
    if (ok) {
        RANDOM_CHECK(ep, s.state != SentRec::State::Failed, "T1: " << how << " on " << cname(c) << " succeeded twice?");
        if (s.state == SentRec::State::InFlight) {
            s.state = SentRec::State::Accepted;
            ++c->accepted_unreceived;
        }
        return;
    }
    RANDOM_CHECK(ep, s.state != SentRec::State::Received,
                 "T1: " << how << " on " << cname(c) << " failed although its value was received (delivered and failed)");
    if (s.state == SentRec::State::Accepted) --c->accepted_unreceived;
    s.state = SentRec::State::Failed;
}

// v was received from c, by the coroutine `by` (NULL: an operation).
void received(Episode &ep, ChanRec *c, const void *v, const CoRec *by, const char *how) {
    RANDOM_CHECK(ep, ep.host.is_value(v), "T1: " << how << " on " << cname(c) << " returned something else than a value");
    if (ep.failed) return;
    auto it = c->sent.find(static_cast<const Value *>(v));
    RANDOM_CHECK(ep, it != c->sent.end(), "T1: " << how << " on " << cname(c) << " returned a value never sent on it");
    if (ep.failed) return;
    SentRec &s = it->second;
    RANDOM_CHECK(ep, s.state != SentRec::State::Received,
                 "T1: " << how << " on " << cname(c) << " received value #" << s.seq << " a second time");
    RANDOM_CHECK(ep, s.state != SentRec::State::Failed,
                 "T1: " << how << " on " << cname(c) << " received value #" << s.seq << " whose send had failed");
    if (s.state == SentRec::State::Accepted) --c->accepted_unreceived;
    s.state = SentRec::State::Received;
    if (by == nullptr) return;
    auto last = c->last_seq.find(by);
    if (last != c->last_seq.end())
        RANDOM_CHECK(ep, s.seq > last->second,
                     "T1: " << ep.name(by) << " received value #" << s.seq << " of " << cname(c) << " after #"
                            << last->second << ": not in the order the sends began");
    c->last_seq[by] = s.seq;
}

tasync_channel_info_t info_of(ChanRec *c) {
    tasync_channel_info_t i{};
    i.size = sizeof(i);
    tasync_channel_info(c->ch, &i);
    return i;
}

// A kept operation completed: what it did.
void learn_op(Episode &ep, ChanOpRec *o) {
    if (o->done || !o->held || !tasync_awaitable_is_completed(o->aw)) return;
    o->done = true;
    void *v = nullptr;
    void *e = nullptr;
    int rc = tasync_awaitable_outcome(o->aw, &v, &e);
    ChanRec *c = o->chan;
    if (rc != 0) {
        RANDOM_CHECK(ep, ep.host.is_error(e), "T1: a failed channel operation has no error");
        const int kind = ep.host.is_error(e) ? static_cast<Error *>(e)->kind : 0;
        RANDOM_CHECK(ep, kind == TASYNC_ERROR_CANCELLATION || (kind == TASYNC_ERROR_CHANNEL && (c->closed || !c->held)),
                     "T1: operation o" << o->oid << " on the open " << cname(c) << " failed with kind " << kind);
    }
    if (o->send) send_ended(ep, c, o->value, rc == 0, "send operation");
    else if (rc == 0) received(ep, c, v, nullptr, "receive operation");
}

}  // namespace

void Episode::learn_chan_ops() {
    for (ChanOpRec *o : live_ops) learn_op(*this, o);
}

void Episode::check_chans() {
    for (ChanRec *c : live_chans) {
        if (failed) return;
        const tasync_channel_info_t i = info_of(c);
        const std::string n = cname(c);
        RANDOM_CHECK(*this, i.count <= c->capacity, "T1: " << n << " buffers " << i.count << " of " << c->capacity);
        RANDOM_CHECK(*this, i.receivers == 0 || i.count == 0,
                     "T1: " << n << " keeps " << i.count << " values while " << i.receivers << " receivers wait");
        RANDOM_CHECK(*this, i.senders == 0 || i.count == c->capacity,
                     "T1: " << n << " has room while " << i.senders << " senders wait");
        const long lower = c->accepted_unreceived - c->receivers;
        const long upper = c->accepted_unreceived + c->senders;
        RANDOM_CHECK(*this, static_cast<long>(i.count) >= lower && static_cast<long>(i.count) <= upper,
                     "T1: " << n << " buffers " << i.count << " values; the model allows " << lower << ".." << upper
                            << " (a value lost or made up)");
        if (c->closed) {
            RANDOM_CHECK(*this, i.close_reason == TASYNC_CHANNEL_CLOSED_EXPLICIT,
                         "T1: the closed " << n << " says reason " << i.close_reason);
            RANDOM_CHECK(*this, i.senders == 0, "T1: senders still wait on the closed " << n);
        } else {
            RANDOM_CHECK(*this, i.close_reason == TASYNC_CHANNEL_OPEN, "T1: " << n << " closed by itself");
        }
    }
}

std::string op_chan_create(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_chans.size() >= Episode::kMaxChans) return "skip";
    ep.chans.emplace_back();
    ChanRec *c = &ep.chans.back();
    c->chid = ep.next_id++;
    c->capacity = rng.below(4);
    tasync_channel_options_t o{};
    o.size = sizeof(o);
    o.capacity = c->capacity;
    int rc = tasync_channel_create(ep.rt, &o, &c->ch);
    RANDOM_CHECK(ep, rc == 0 && c->ch != nullptr, "T1: tasync_channel_create returned " << rc);
    if (rc != 0) {
        c->held = false;
        return rc_text(rc);
    }
    RANDOM_CHECK(ep, tasync_channel_capacity(c->ch) == c->capacity, "T1: the capacity changed");
    ep.live_chans.push_back(c);
    return cname(c) + " capacity " + std::to_string(c->capacity);
}

std::string op_chan_send(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ChanRec *c = pick_chan(ep, rng);
    if (c == nullptr) return "skip";
    const bool was_closed = c->closed;
    Value *v = begin_send(ep, c);
    // The tester's reference goes even when the runtime is destroyed while
    // this coroutine waits (its stack is dropped unwound).
    OnUnwind release_v([v, &host = ep.host] { host.release(v); });
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const std::uint64_t timeout = rng.chance(15) ? 1 + ep.duration(rng) : 0;
    self->wait = WaitRec{};
    self->wait.keeps_result = true;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::ChanSend);
    ++c->senders;
    void *err = nullptr;
    int rc = tasync_channel_send(ep.rt, c->ch, v, canc != nullptr ? canc->aw : nullptr, timeout, &err);
    --c->senders;
    ep.end_wait(self);
    if (common_outcome(ep, self, rc, err, canc, "channel send")) {
        send_ended(ep, c, v, false, "a cancelled send");
    } else if (was_closed && rc != TASYNC_ECHANNEL_CLOSED) {
        RANDOM_CHECK(ep, false, "T1: a send on the closed " << cname(c) << " returned " << rc);
    } else if (rc == 0) {
        send_ended(ep, c, v, true, "send");
    } else if (rc == TASYNC_ECHANNEL_CLOSED) {
        RANDOM_CHECK(ep, c->closed, "T1: a send on the open " << cname(c) << " failed as closed");
        RANDOM_CHECK(ep, ep.host.is_error(err) && static_cast<Error *>(err)->kind == TASYNC_ERROR_CHANNEL,
                     "T1: a send on the closed " << cname(c) << " gave no channel error");
        send_ended(ep, c, v, false, "send");
    } else if (rc == -ETIMEDOUT) {
        RANDOM_CHECK(ep, timeout != 0 && ep.host.is_error(err) && static_cast<Error *>(err)->kind == TASYNC_ERROR_TIMEOUT,
                     "T1: a send without a timeout timed out, or without a timeout error");
        send_ended(ep, c, v, false, "a timed out send");
    } else {
        RANDOM_CHECK(ep, false, "T1: a send on " << cname(c) << " returned " << rc);
    }
    release_outs(ep, nullptr, err);
    return cname(c) + " " + rc_text(rc);
}

std::string op_chan_recv(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ChanRec *c = pick_chan(ep, rng);
    if (c == nullptr) return "skip";
    const bool was_closed = c->closed;
    const std::size_t count_before = tasync_channel_count(c->ch);
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const std::uint64_t timeout = rng.chance(15) ? 1 + ep.duration(rng) : 0;
    self->wait = WaitRec{};
    self->wait.keeps_result = true;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::ChanRecv);
    ++c->receivers;
    void *v = nullptr;
    void *err = nullptr;
    int rc = tasync_channel_recv(ep.rt, c->ch, canc != nullptr ? canc->aw : nullptr, timeout, &v, &err);
    --c->receivers;
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, err, canc, "channel recv")) {
        if (was_closed)
            RANDOM_CHECK(ep, rc == (count_before > 0 ? 0 : TASYNC_ECHANNEL_CLOSED),
                         "T1: a receive on the closed " << cname(c) << " holding " << count_before << " returned " << rc
                                                        << " (it drains, then fails)");
        if (rc == 0) {
            received(ep, c, v, self, "recv");
        } else if (rc == TASYNC_ECHANNEL_CLOSED) {
            RANDOM_CHECK(ep, c->closed, "T1: a receive on the open " << cname(c) << " failed as closed");
            RANDOM_CHECK(ep, ep.host.is_error(err) && static_cast<Error *>(err)->kind == TASYNC_ERROR_CHANNEL,
                         "T1: a receive on the closed " << cname(c) << " gave no channel error");
        } else {
            RANDOM_CHECK(ep, rc == -ETIMEDOUT && timeout != 0, "T1: a receive on " << cname(c) << " returned " << rc);
        }
    }
    release_outs(ep, v, err);
    return cname(c) + " " + rc_text(rc);
}

std::string op_chan_try(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ChanRec *c = pick_chan(ep, rng);
    if (c == nullptr) return "skip";
    const tasync_channel_info_t before = info_of(c);
    if (rng.chance(50)) {
        Value *v = begin_send(ep, c);
        int rc = tasync_channel_try_send(c->ch, v);
        const bool room = before.receivers > 0 || (before.count < c->capacity && before.senders == 0);
        if (c->closed) RANDOM_CHECK(ep, rc == TASYNC_ECHANNEL_CLOSED, "T1: try_send on the closed " << cname(c) << " returned " << rc);
        else RANDOM_CHECK(ep, rc == (room ? 0 : -EAGAIN), "T1: try_send on " << cname(c) << " returned " << rc);
        send_ended(ep, c, v, rc == 0, "try_send");
        ep.host.release(v);
        return cname(c) + " try_send " + rc_text(rc);
    }
    void *v = nullptr;
    int rc = tasync_channel_try_recv(c->ch, &v);
    const bool some = before.count > 0 || before.senders > 0;
    if (some) RANDOM_CHECK(ep, rc == 0, "T1: try_recv on " << cname(c) << " holding values returned " << rc);
    else RANDOM_CHECK(ep, rc == (c->closed ? TASYNC_ECHANNEL_CLOSED : -EAGAIN), "T1: try_recv on the empty " << cname(c) << " returned " << rc);
    if (rc == 0) received(ep, c, v, self, "try_recv");
    release_outs(ep, v, nullptr);
    return cname(c) + " try_recv " + rc_text(rc);
}

std::string op_chan_async(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ChanRec *c = pick_chan(ep, rng);
    if (c == nullptr || ep.live_ops.size() >= Episode::kMaxChanOps) return "skip";
    ep.chan_ops.emplace_back();
    ChanOpRec *o = &ep.chan_ops.back();
    o->oid = ep.next_id++;
    o->chan = c;
    o->send = rng.chance(50);
    int rc;
    if (o->send) {
        Value *v = begin_send(ep, c);
        o->value = v;
        rc = tasync_channel_send_async(c->ch, v, &o->aw);
        ep.host.release(v);
    } else {
        rc = tasync_channel_recv_async(c->ch, &o->aw);
    }
    RANDOM_CHECK(ep, rc == 0 && o->aw != nullptr, "T1: a channel operation returned " << rc);
    if (rc != 0) {
        o->held = false;
        o->done = true;
        return rc_text(rc);
    }
    ep.live_ops.push_back(o);
    learn_op(ep, o);
    return "o" + std::to_string(o->oid) + (o->send ? " send on " : " recv on ") + cname(c) +
           (o->done ? " (at once)" : "");
}

std::string op_chan_await_op(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_ops.empty()) return "skip";
    ChanOpRec *o = ep.live_ops[rng.below(static_cast<std::uint32_t>(ep.live_ops.size()))];
    tasync_awaitable_t *aw = o->aw;
    tasync_awaitable_retain(aw);
    OnUnwind release([aw] { tasync_awaitable_release(aw); });
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    // Completed already (or maybe so): the core need not deliver a pending
    // cancellation there (expect.hpp, kFastPathDeliversCancellation).
    const bool fast = tasync_awaitable_is_completed(aw) || (canc != nullptr && completed_now(ep, canc));
    self->wait = WaitRec{};
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::ChanOp);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *v = nullptr;
    void *e = nullptr;
    ++o->awaiters;
    int rc = tasync_await(ep.rt, aw, canc != nullptr ? canc->aw : nullptr, &v, &e);
    --o->awaiters;
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, e, canc, "await of a channel operation")) {
        void *ov = nullptr;
        void *oe = nullptr;
        int orc = tasync_awaitable_outcome(aw, &ov, &oe);
        RANDOM_CHECK(ep, (rc == 0 && orc == 0 && v == ov) || (rc == TASYNC_EFAILED && orc == TASYNC_EFAILED && e == oe),
                     "C4: awaiting o" << o->oid << " returned " << rc << ", its outcome is " << orc);
    }
    release_outs(ep, v, e);
    return "o" + std::to_string(o->oid) + " " + rc_text(rc);
}

std::string op_chan_op_drop(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_ops.empty()) return "skip";
    ChanOpRec *o = ep.live_ops[rng.below(static_cast<std::uint32_t>(ep.live_ops.size()))];
    learn_op(ep, o);
    if (rng.chance(50)) {
        const bool pending = !o->done;
        int rc = tasync_channel_op_cancel(o->aw, nullptr);
        RANDOM_CHECK(ep, rc == (pending ? 0 : TASYNC_EBAD_STATE),
                     "T1: withdrawing the " << (pending ? "pending" : "completed") << " o" << o->oid << " returned " << rc);
        learn_op(ep, o);
        RANDOM_CHECK(ep, o->done, "T1: the withdrawn o" << o->oid << " did not complete");
        return "o" + std::to_string(o->oid) + " withdrawn " + rc_text(rc);
    }
    // Released: a pending operation nobody else holds is withdrawn with it
    // (its value, a send's, is never received); one a coroutine awaits lives on.
    if (o->awaiters > 0) return "skip (awaited)";
    if (!o->done && o->send) send_ended(ep, o->chan, o->value, false, "a dropped send operation");
    swap_out(ep.live_ops, o);
    o->held = false;
    tasync_awaitable_release(o->aw);
    return "o" + std::to_string(o->oid) + " released";
}

std::string op_chan_close(Episode &ep, CoRec *self) {
    ChanRec *c = pick_chan(ep, self->rng);
    if (c == nullptr) return "skip";
    int rc = tasync_channel_close(c->ch, TASYNC_CHANNEL_CLOSED_EXPLICIT);
    RANDOM_CHECK(ep, rc == (c->closed ? TASYNC_ECHANNEL_CLOSED : 0), "T1: closing " << cname(c) << " returned " << rc);
    c->closed = true;
    ep.learn_chan_ops();
    return cname(c) + " " + rc_text(rc);
}

std::string op_chan_release(Episode &ep, CoRec *self) {
    ChanRec *c = pick_chan(ep, self->rng);
    // Coroutines waiting on it hold it: nobody could serve them any more.
    if (c == nullptr || c->senders > 0 || c->receivers > 0) return "skip";
    ep.learn_chan_ops();
    for (std::size_t i = 0; i < ep.live_chans.size(); ++i) {
        if (ep.live_chans[i] == c) {
            ep.live_chans[i] = ep.live_chans.back();
            ep.live_chans.pop_back();
            break;
        }
    }
    c->held = false;
    tasync_channel_release(c->ch);
    c->ch = nullptr;
    ep.learn_chan_ops();  // its pending operations failed (disposed)
    for (ChanOpRec *o : ep.live_ops)
        RANDOM_CHECK(ep, o->chan != c || o->done, "T1: o" << o->oid << " is pending on the released " << cname(c));
    return cname(c);
}

// The end of the program: closing lets every waiter go.
void Episode::end_chans_and_pools() {
    for (ChanRec *c : live_chans) {
        if (!c->closed) tasync_channel_close(c->ch, TASYNC_CHANNEL_CLOSED_EXPLICIT);
        c->closed = true;
    }
    for (PoolRec *p : live_pools) {
        if (!p->closed) tasync_pool_close(p->p);
        p->closed = true;
    }
    learn_chan_ops();
}

void Episode::release_chans_and_pools() {
    learn_chan_ops();
    std::vector<ChanOpRec *> ops;
    ops.swap(live_ops);
    for (ChanOpRec *o : ops) {
        o->held = false;
        tasync_awaitable_release(o->aw);
    }
    std::vector<ChanRec *> chs;
    chs.swap(live_chans);
    for (ChanRec *c : chs) {
        c->held = false;
        tasync_channel_release(c->ch);
        c->ch = nullptr;
    }
    std::vector<PoolRec *> ps;
    ps.swap(live_pools);
    for (PoolRec *p : ps) {
        p->held = false;
        tasync_pool_release(p->p);
    }
}

}  // namespace tasync_random
