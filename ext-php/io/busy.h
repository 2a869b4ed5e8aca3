/*
 * io/busy.h - the wait state of a stream (io/busy.c), rule C24.
 */
#ifndef ASYNC_IO_BUSY_H
#define ASYNC_IO_BUSY_H

#include "io/wait.h"

/*
 * Exists for a stream while a coroutine is suspended in one of its
 * operations, or was failed, or (socket streams) from the first wait of
 * the stream to its close. Closing the stream (fclose(), or the close op
 * however PHP or a driver frees the stream) wakes the waiters and waits
 * until they have left it before PHP frees it; a second coroutine that
 * reads (writes) while another one is suspended reading (writing) is
 * refused (rule C24).
 */
typedef struct async_io_busy {
	php_stream *stream;            /* NULL once detached */
	uint32_t users;                /* coroutines suspended in an operation */
	uint32_t closers;              /* coroutines waiting for the users to leave */
	tasync_coroutine_t *reader;    /* suspended in a read (borrowed) */
	tasync_coroutine_t *writer;    /* suspended in a write (borrowed) */
	uint64_t intruder;             /* id of a coroutine that wrote while the
	                                * reader waited: its reply has no reader */
	tasync_awaitable_t *changed;   /* completed at the next change, or NULL */
	bool closing;                  /* fclose() waits for the users to leave */
	bool failed;                   /* async_io_stream_fail() ran: kept until close */
	bool gone;                     /* freed with users inside (a close that could
	                                * not wait): they must not return into it */
	int fd;                        /* the stream's fd where it is indexed by fd, or -1 */
	bool kept;                     /* a socket stream's: kept from its first wait
	                                * to its close (io/socket_streams.c), so that a wait
	                                * neither allocates nor inserts into the table */
} async_io_busy;

async_io_busy *async_io_busy_find(php_stream *stream);
/* Finds or creates the state and counts the caller as a user. */
async_io_busy *async_io_busy_enter(php_stream *stream);
/* The same for a stream whose fd is known (socket streams): found by fd
 * without a table lookup once it was seen with that fd. */
async_io_busy *async_io_busy_find_fd(php_stream *stream, int fd);
async_io_busy *async_io_busy_enter_fd(php_stream *stream, int fd);
/* Uncounts a user; frees the state once nobody needs it. */
void async_io_busy_leave(async_io_busy *b);
/* Wakes every coroutine waiting for a change of b. */
void async_io_busy_signal(async_io_busy *b);
/* Waits for the next change of b, counted as a user of the stream when
 * as_user (a closer waits without counting itself). */
async_io_status async_io_busy_wait(async_io_busy *b, uint64_t deadline, bool as_user);
/* Frees the state if nobody uses it. */
void async_io_busy_release(async_io_busy *b);
/* Forgets the stream of b (it is being freed); b lives on for its users. */
void async_io_busy_detach(async_io_busy *b);

/*
 * True when b's stream is being closed, so that a new operation on it is
 * refused (it fails at once): the caller's coroutine then yields once PHP's
 * call has returned (async_io_yield_soon), so that a loop of refused calls
 * lets the closer finish.
 */
bool async_io_busy_refused(async_io_busy *b);

/*
 * For a close of b's stream: marks it closing (new operations are refused,
 * waits end as ASYNC_IO_CLOSED), wakes the waiters and, when the caller is
 * a coroutine that may suspend, waits until every user has left, with its
 * cancellation held back meanwhile (it is pending again afterwards: the
 * close itself completes). The caller forgets the fd first, so that waits
 * on it end. False when users remain because the caller cannot wait here
 * (not a coroutine, a garbage collector's destructor, an exception pending):
 * the caller then frees the stream with async_io_busy_orphan().
 */
bool async_io_busy_drain(async_io_busy *b);

/*
 * The stream of b is freed while coroutines are still suspended in it (a
 * close that could not wait): b is detached and marked gone. Those
 * coroutines end with a fatal error instead of returning into PHP's code on
 * the freed stream (async_io_busy_check_gone).
 */
void async_io_busy_orphan(async_io_busy *b);

/* After a user's wait on b: does not return when b's stream is gone (the
 * user is uncounted; an aborted coroutine unwinds, others end with a fatal
 * error naming the cause). */
void async_io_busy_check_gone(async_io_busy *b);

/* RSHUTDOWN, before the runtime goes: frees what coroutines that never
 * resumed left behind, and the states kept for streams still open. */
void async_io_busy_request_shutdown(void);

#endif /* ASYNC_IO_BUSY_H */
