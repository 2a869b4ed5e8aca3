/*
 * io/poll.h - one wait on several fds (io/poll.c), under stream_select(),
 * socket_select(), mysqli_poll() and curl's multi handles, and the loop the
 * three select-like PHP functions share around it.
 */
#ifndef ASYNC_IO_POLL_H
#define ASYNC_IO_POLL_H

#include "io/wait.h"

/* How an fd of a poll set is watched. */
typedef enum async_io_poll_mode {
	/* As it is: whoever closes it forgets it first (a socket stream's fd,
	 * libcurl's sockets), which ends the wait as readiness. */
	ASYNC_IO_POLL_WATCH = 0,
	/* Through a dup() made for the wait and closed after it: any fd PHP's
	 * code owns and may close and reuse (pipes, STDIN, a mysqli socket). */
	ASYNC_IO_POLL_DUP,
	/* As it is, and the caller's own (a dup() it made), which the caller
	 * forgets and closes afterwards; forgetting it meanwhile ends the wait
	 * as readiness (socket_select's sockets, which socket_close() may end). */
	ASYNC_IO_POLL_OWN,
} async_io_poll_mode;

typedef struct async_io_poll_fd {
	int fd;                  /* as added */
	int watched;             /* what the wait watches: fd, or its dup() */
	unsigned events;         /* TASYNC_IO_* bits */
	async_io_poll_mode mode;
} async_io_poll_fd;

/* The fds of one wait, each once (an fd added twice wants both events). */
typedef struct async_io_poll_set {
	async_io_poll_fd *fds;
	uint32_t count;
	uint32_t size;
	HashTable *index;        /* fd => position, once the set is large */
} async_io_poll_set;

void async_io_poll_init(async_io_poll_set *set);
void async_io_poll_add(async_io_poll_set *set, int fd, unsigned events, async_io_poll_mode mode);
void async_io_poll_free(async_io_poll_set *set);

/* Flags of async_io_poll_wait(). */
enum {
	/* Any fd's wait that ends is readiness, whatever it ended with (the
	 * caller polls what is ready: curl). Without it, an fd the reactor
	 * refuses makes the wait ASYNC_IO_UNSUPPORTED. */
	ASYNC_IO_POLL_ANY_END = 1,
	/* When a helper cannot be started for every fd, the others are watched
	 * for at most 10 ms, then the wait ends as readiness (curl, which then
	 * tries every socket). Without it, the wait is ASYNC_IO_UNSUPPORTED. */
	ASYNC_IO_POLL_SHORT_WATCH = 2,
};

/*
 * Waits until one fd of set is ready for its events, or also (may be NULL)
 * completes, or the deadline (0 = none) passes. ASYNC_IO_READY,
 * ASYNC_IO_TIMEOUT, the C18 statuses of async_io_after_wait(), or
 * ASYNC_IO_UNSUPPORTED when the runtime cannot wait on the set (nothing to
 * watch and no deadline; see the flags). With nothing to watch and a
 * deadline, the coroutine sleeps until then (PHP's select would).
 */
async_io_status async_io_poll_wait(async_io_poll_set *set, tasync_awaitable_t *also, uint64_t deadline,
	unsigned flags);

/* ------------------------------------------------ the select-like loop */

/*
 * One call of stream_select(), socket_select() or mysqli_poll() in a
 * coroutine: PHP's own function computes every result. It runs with a
 * zero timeout; while it finds nothing ready and the deadline has not
 * passed, the first three arguments (arrays taken by reference) are put
 * back as given and the coroutine waits (wait) for their fds; then PHP's
 * function runs again. So return values, the arrays' rewriting, warnings
 * and errors are PHP's.
 */
typedef struct async_io_select_call {
	zif_handler orig;        /* PHP's own function */
	/* Whether the call is taken over, from its timeout arguments (args[3],
	 * and args[4] or NULL): false leaves it to PHP's function (its errors,
	 * a poll that does not wait); true with the absolute deadline (0: none). */
	bool (*timeout)(const zval *zsec, const zval *zusec, uint64_t *deadline);
	/* Waits for the fds of the arrays as given (saved[0..2]; UNDEF where an
	 * argument is not kept) until deadline. */
	async_io_status (*wait)(struct async_io_select_call *call, zval *saved, uint64_t deadline);
	/* A wait cancelled (C18) or ended by a close (socket_close) fails the
	 * call: the warning PHP gives for a failed call; false is returned. */
	void (*failed)(struct async_io_select_call *call, async_io_status st);
	bool keep_all;           /* keep and put back the three arguments whatever
	                          * they are (mysqli_poll), not only arrays */
	bool round_up;           /* the fallback to PHP's own wait without a
	                          * microseconds argument rounds the time left up
	                          * to whole seconds (stream_select) */
	int max_fd;              /* for wait and failed to share (stream_select) */
} async_io_select_call;

/*
 * The whole call of one of those functions (its arrays, then the timeout
 * at args[3], seconds, and args[4], microseconds, when given): PHP's own
 * function outside a coroutine or when call->timeout declines, else the
 * loop. When the runtime cannot wait on the fds, PHP's own function waits
 * for the time left (or as asked, without a deadline).
 */
void async_io_select(async_io_select_call *call, INTERNAL_FUNCTION_PARAMETERS);

#endif /* ASYNC_IO_POLL_H */
