/*
 * tasync/channel.h - channels between coroutines (docs/rules.md, rule T1):
 * values passed from senders to receivers of the same runtime, in order.
 *
 * A channel of capacity 0 is a rendezvous: a send completes when a
 * receiver takes its value. A channel of capacity N > 0 buffers up to N
 * values in FIFO order: a send completes when its value is in the buffer
 * (or taken by a waiting receiver), and suspends while the buffer is full.
 *
 * Fairness. Waiting senders are served in the order they began to wait,
 * and so are waiting receivers. What a counterpart hands to a waiter is
 * reserved for it at once: a value a sender gives a waiting receiver is in
 * that receiver's hands before it runs again, and the place a receiver
 * frees in a full buffer is filled at once by the value of the first
 * waiting sender. A coroutine that comes later but runs first never takes
 * them (no barging). While coroutines wait to receive, the buffer is empty;
 * while coroutines wait to send, it is full.
 *
 * Cancellation. A send or receive that waits ends early when the calling
 * coroutine is cancelled (-ECANCELED), when its cancellation awaitable
 * completes first (TASYNC_EAWAIT_CANCELLED), or when its own timeout expires
 * (-ETIMEDOUT, a TASYNC_ERROR_TIMEOUT error). Such an end leaves the channel
 * as if the operation had never been tried: a cancelled send's value was
 * not delivered and is not in the buffer, a cancelled receive took nothing.
 * Once a value has been handed over, the operation has happened and reports
 * success even when a cancellation arrives before the waiter runs again:
 * nothing is lost and nothing is delivered twice. Such a cancellation of
 * the coroutine is delivered at its next suspension point (as for offloaded
 * work, runtime.h).
 *
 * Closing. tasync_channel_close() wakes every waiting sender with
 * TASYNC_ECHANNEL_CLOSED (their values stay theirs) and fails every later
 * send at once. Receivers take what is buffered, then every receive fails
 * with TASYNC_ECHANNEL_CLOSED. The error object is made by the host's
 * factory with kind TASYNC_ERROR_CHANNEL; a host that wants the reason in
 * it (PHP: ChannelException::$reason) reads tasync_channel_close_reason().
 * A channel can also close itself: when nobody sent for no_producer_timeout
 * while receivers waited (TASYNC_CHANNEL_CLOSED_NO_PRODUCERS), when nobody
 * received for no_consumer_timeout while senders waited
 * (TASYNC_CHANNEL_CLOSED_NO_CONSUMERS), or when its last reference goes
 * (TASYNC_CHANNEL_CLOSED_DISPOSED: pending asynchronous operations fail).
 *
 * Values are the host's (host.h): the channel retains a value it accepts
 * and hands that reference to the receiver (tasync_channel_recv's
 * *out_value, a receive future's value). Buffered values are released when
 * the channel is freed or the runtime destroyed; nothing leaks.
 *
 * Introspection: a coroutine waiting on a channel reports
 * TASYNC_WAIT_CHANNEL_SEND or TASYNC_WAIT_CHANNEL_RECV with the channel in
 * tasync_wait_info_t.channel, and the deadlock report (rule C14) names the
 * channel and where it was created.
 *
 * A channel belongs to the runtime of the thread that created it and is
 * used on that thread only. Since: ABI 1.3 (the whole header).
 */
#ifndef TASYNC_CHANNEL_H
#define TASYNC_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_channel tasync_channel_t;

/* Why a channel was closed (tasync_channel_close_reason). Values never
 * change. Since: ABI 1.3. */
typedef enum tasync_channel_close_reason {
    TASYNC_CHANNEL_OPEN = 0,                 /* not closed */
    TASYNC_CHANNEL_CLOSED_EXPLICIT = 1,      /* tasync_channel_close by its owner */
    TASYNC_CHANNEL_CLOSED_DISPOSED = 2,      /* its last reference went */
    TASYNC_CHANNEL_CLOSED_NO_PRODUCERS = 3,  /* receivers waited no_producer_timeout for a value */
    TASYNC_CHANNEL_CLOSED_NO_CONSUMERS = 4,  /* senders waited no_consumer_timeout for a receiver */
    TASYNC_CHANNEL_CLOSED_DEADLOCK = 5,      /* closed by a host that found a deadlock */
    TASYNC_CHANNEL_CLOSED_SCOPE_DISPOSED = 6 /* closed by a host whose owning scope was disposed */
} tasync_channel_close_reason_t;

/* Flags for tasync_channel_options_t.flags. Since: ABI 1.3. */
typedef enum tasync_channel_flag {
    /* The no-producer and no-consumer timers keep the runtime alive while
     * they run. Without it they do not: a program whose coroutines all wait
     * on the channel meets the deadlock rule (C14) first. */
    TASYNC_CHANNEL_HARD_TIMEOUTS = 1
} tasync_channel_flag_t;

/* Since: ABI 1.3. */
typedef struct tasync_channel_options {
    uint32_t size;      /* sizeof(tasync_channel_options_t) */
    uint32_t flags;     /* tasync_channel_flag_t bits */
    uint64_t capacity;  /* 0: rendezvous; N: a buffer of N values */
    /* Closes the channel with TASYNC_CHANNEL_CLOSED_NO_PRODUCERS when
     * receivers have waited this long and no value came (the clock starts
     * again at each value handed to a waiting receiver); 0: never. */
    uint64_t no_producer_timeout_ns;
    /* The same for senders waiting for receivers
     * (TASYNC_CHANNEL_CLOSED_NO_CONSUMERS); 0: never. */
    uint64_t no_consumer_timeout_ns;
    /* Where the channel was created, for introspection; file NULL: asked
     * from the host (host.h, capture_location). */
    tasync_location_t location;
} tasync_channel_options_t;

/* What tasync_channel_info reports. Since: ABI 1.3. */
typedef struct tasync_channel_info {
    uint32_t size;            /* set by the caller to sizeof(tasync_channel_info_t) */
    uint32_t close_reason;    /* tasync_channel_close_reason_t */
    uint64_t id;              /* unique among the runtime's channels, from 1 */
    uint64_t capacity;
    uint64_t count;           /* values in the buffer */
    uint64_t senders;         /* coroutines and asynchronous sends waiting */
    uint64_t receivers;       /* coroutines and asynchronous receives waiting */
    tasync_location_t location; /* where it was created */
} tasync_channel_info_t;

/*
 * Creates a channel (opts NULL: a rendezvous channel without timeouts).
 * *out receives the only reference. rt NULL means the calling thread's.
 * Returns 0, or -EINVAL (no runtime, out NULL, opts->size too small).
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_create(tasync_runtime_t *rt, const tasync_channel_options_t *opts,
                                     tasync_channel_t **out);

/* Takes a reference. NULL is a no-op. Since: ABI 1.3. */
TASYNC_API void tasync_channel_retain(tasync_channel_t *ch);

/*
 * Drops a reference. The last one closes the channel with
 * TASYNC_CHANNEL_CLOSED_DISPOSED (asynchronous operations still pending
 * fail with TASYNC_ECHANNEL_CLOSED), releases the buffered values and frees
 * it. A coroutine waiting in tasync_channel_send or _recv holds a reference
 * of its own until it returns. NULL is a no-op. Since: ABI 1.3.
 */
TASYNC_API void tasync_channel_release(tasync_channel_t *ch);

/*
 * From a coroutine: sends value (retained when the channel accepts it).
 * Returns 0 once a receiver took it or it is in the buffer (at once when a
 * receiver waits or the buffer has room and nobody waits to send before
 * the caller). Otherwise waits (rule T1's fairness and cancellation) and
 * returns 0; TASYNC_ECHANNEL_CLOSED when the channel is or becomes closed
 * (the value was not delivered); -ETIMEDOUT after timeout_ns (0: no
 * timeout); TASYNC_EAWAIT_CANCELLED when cancellation (may be NULL)
 * completes first; -ECANCELED when the caller is cancelled;
 * TASYNC_ENOT_IN_COROUTINE; -EINVAL. *out_error as in runtime.h.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_send(tasync_runtime_t *rt, tasync_channel_t *ch, void *value,
                                   tasync_awaitable_t *cancellation, uint64_t timeout_ns, void **out_error);

/*
 * From a coroutine: receives the next value: the oldest buffered one, else
 * the value of the first waiting sender, else waits for one. Returns 0 and
 * a new reference in *out_value (the value may be NULL; out_value NULL
 * drops it); TASYNC_ECHANNEL_CLOSED once the channel is closed and nothing
 * is buffered; the other codes as tasync_channel_send. Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_recv(tasync_runtime_t *rt, tasync_channel_t *ch, tasync_awaitable_t *cancellation,
                                   uint64_t timeout_ns, void **out_value, void **out_error);

/*
 * Sends without waiting: returns 0 when a waiting receiver took value or
 * the buffer had room with nobody waiting to send (value retained);
 * -EAGAIN when the caller would have to wait (a rendezvous channel without
 * a waiting receiver, a full buffer); TASYNC_ECHANNEL_CLOSED; -EINVAL.
 * Callable outside coroutines. Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_try_send(tasync_channel_t *ch, void *value);

/*
 * Receives without waiting: returns 0 and a new reference in *out_value;
 * -EAGAIN when nothing can be taken now; TASYNC_ECHANNEL_CLOSED when the
 * channel is closed and empty; -EINVAL. Callable outside coroutines.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_try_recv(tasync_channel_t *ch, void **out_value);

/*
 * Sends as an operation of its own: *out receives a new reference to an
 * awaitable (the operation) that completes with NULL once the value was
 * taken by a receiver or put in the buffer, or fails with the
 * TASYNC_ECHANNEL_CLOSED error when the channel closes first. The
 * operation waits in line with the coroutines that send (same fairness);
 * an operation that could complete at once is returned completed. Its
 * awaiters may wait with their own cancellation without cancelling it;
 * tasync_channel_op_cancel withdraws it. Releasing the last reference to
 * a pending operation withdraws it too. Returns 0, or -EINVAL.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_send_async(tasync_channel_t *ch, void *value, tasync_awaitable_t **out);

/*
 * Receives as an operation of its own (see tasync_channel_send_async): the
 * awaitable completes with the received value (the operation holds the
 * reference; read it with tasync_awaitable_outcome or await it), or fails
 * with the TASYNC_ECHANNEL_CLOSED error once the channel is closed and
 * empty. Returns 0, or -EINVAL. Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_recv_async(tasync_channel_t *ch, tasync_awaitable_t **out);

/*
 * Withdraws a pending operation of tasync_channel_send_async or _recv_async
 * from its channel: it completes with error (retained; NULL creates a
 * CancellationError) and its place in line goes to the next waiter; a
 * send's value was not delivered. An operation that completed already is
 * left as it is (its value was delivered or received: nothing is taken
 * back). Returns 0 when it withdrew the operation, TASYNC_EBAD_STATE when
 * it had completed, -EINVAL when op is not a channel operation.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_op_cancel(tasync_awaitable_t *op, void *error);

/*
 * Closes the channel with reason (a tasync_channel_close_reason_t other
 * than TASYNC_CHANNEL_OPEN; a host passes TASYNC_CHANNEL_CLOSED_EXPLICIT
 * for its users' close()): see "Closing" above. Returns 0, or
 * TASYNC_ECHANNEL_CLOSED when it was closed already (the first reason
 * stays), -EINVAL. Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_close(tasync_channel_t *ch, int reason);

/* The tasync_channel_close_reason_t of ch (TASYNC_CHANNEL_OPEN while open;
 * -EINVAL for NULL). Since: ABI 1.3. */
TASYNC_API int tasync_channel_close_reason(const tasync_channel_t *ch);

/* How many values the buffer holds now (0 for NULL). Since: ABI 1.3. */
TASYNC_API size_t tasync_channel_count(const tasync_channel_t *ch);

/* The capacity given at creation (0 for NULL). Since: ABI 1.3. */
TASYNC_API uint64_t tasync_channel_capacity(const tasync_channel_t *ch);

/*
 * Fills *out (out->size set by the caller) with the channel's state; the
 * location's strings are the host's. Returns 0 or -EINVAL.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_channel_info(const tasync_channel_t *ch, tasync_channel_info_t *out);

TASYNC_EXTERN_C_END

#endif /* TASYNC_CHANNEL_H */
