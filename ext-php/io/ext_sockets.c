/*
 * io/ext_sockets.c - ext/sockets inside coroutines (rule C18): socket_connect,
 * socket_accept, socket_read, socket_write, socket_recv, socket_send,
 * socket_recvfrom, socket_sendto and socket_select on blocking sockets
 * suspend only the calling coroutine.
 *
 * How. PHP's own function runs once on the socket made non-blocking for
 * the call: it then either completes, fails as PHP fails, or fails with
 * EAGAIN / EINPROGRESS, which PHP records silently (PHP_SOCKET_ERROR warns
 * for neither). In the last case the error it recorded is put back as it
 * was (socket_last_error() does not change for a wait), the coroutine
 * waits for the socket through the runtime, and PHP's function runs again.
 * So results, warnings and socket_last_error() are PHP's own. The timeout
 * is the socket's: SO_RCVTIMEO for accept and the receiving functions,
 * SO_SNDTIMEO for connect and the sending ones (socket_set_option); when it
 * passes, PHP's function runs once more without waiting and fails with
 * EAGAIN as a blocking call does when SO_RCVTIMEO/SO_SNDTIMEO expire (a
 * connect: EINPROGRESS, as PHP's). socket_connect's outcome is the
 * connect's SO_ERROR, reported as PHP reports a failed connect.
 * socket_read() in PHP_NORMAL_READ mode reads a byte at a time until a
 * line ends: it waits (peeking) until a whole line, the length asked for
 * or the end of the stream is there, then PHP's function reads it.
 * socket_select() runs PHP's select with a zero timeout and, while
 * nothing is ready, waits for any of the sockets, as stream_select() does
 * (io/select.c).
 *
 * socket_recv() with MSG_WAITALL on a stream socket gathers every byte
 * asked for (PHP's non-blocking attempt would return the first ones).
 * socket_close() of a socket other coroutines wait on (in any of these
 * calls, socket_select() included) wakes them first: their calls fail with
 * EBADF (the dup() they watch would otherwise keep the connection open and
 * the wait endless).
 *
 * A call that finds no descriptor left (socket_accept, socket_create,
 * socket_create_pair: EMFILE, ENFILE) fails as PHP fails, then waits before
 * it returns until PHP closes a descriptor or a backoff passes (io/wait.c):
 * a loop of such calls never spins.
 *
 * Sockets made non-blocking (socket_set_nonblock) never suspend, outside
 * coroutines nothing changes. A socket's fd is waited on through a dup()
 * the runtime forgets before closing it: ext/sockets closes its fds
 * without telling anyone. A receive or send cancelled midway (C18: false
 * and PHP's warning with ECANCELED) leaves a stream socket failed as a
 * connection reset would (C24): the next call sees EOF or EPIPE.
 *
 * ext/sockets may be loaded after async: the functions are taken over at
 * MINIT when it is there (async depends on it optionally, so its MINIT
 * runs first), otherwise at the first RINIT that finds it.
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/poll.h"
#include "io/wait.h"
#include "runtime/globals.h"

#ifndef HAVE_SOCKETS
# define HAVE_SOCKETS 1
#endif
#include "ext/sockets/php_sockets.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

static zif_handler orig_socket_connect, orig_socket_accept, orig_socket_read, orig_socket_write, orig_socket_recv,
	orig_socket_send, orig_socket_recvfrom, orig_socket_sendto, orig_socket_select, orig_socket_close,
	orig_socket_create, orig_socket_create_pair;

static bool io_sockets_hooked;
static zend_class_entry *io_socket_ce;
static zend_module_entry *io_sockets_module;

/* ext/sockets' socket_last_error() without an argument. */
static int *io_sockets_last_error(void)
{
#ifdef ZTS
	return &ZEND_TSRMG_BULK(*io_sockets_module->globals_id_ptr, zend_sockets_globals *)->last_error;
#else
	return &((zend_sockets_globals *) io_sockets_module->globals_ptr)->last_error;
#endif
}

/* The blocking Socket of the first argument, or NULL (PHP's own code). */
static php_socket *io_socket_arg(zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() < 1 || async_io_coroutine() == NULL) {
		return NULL;
	}
	zval *z = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(z);
	if (Z_TYPE_P(z) != IS_OBJECT || Z_OBJCE_P(z) != io_socket_ce) {
		return NULL;
	}
	php_socket *s = Z_SOCKET_P(z);
	return s->bsd_socket >= 0 && s->blocking ? s : NULL;
}

/* The deadline of SO_RCVTIMEO / SO_SNDTIMEO (0: none). */
static uint64_t io_socket_deadline(php_socket *s, int optname)
{
	struct timeval tv;
	socklen_t len = sizeof(tv);
	if (getsockopt(s->bsd_socket, SOL_SOCKET, optname, &tv, &len) != 0 || (tv.tv_sec == 0 && tv.tv_usec == 0)) {
		return 0;
	}
	return async_io_deadline(&tv);
}

static inline bool io_would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINPROGRESS;
}

/*
 * PHP's function once, on the socket made non-blocking for the call.
 * True when it would have blocked: the errors it recorded are undone
 * (unless final: then its failure is the call's). The would-block is read
 * from socket_last_error(), which every failure sets (socket_accept
 * records its error on the new socket, not on the listener).
 */
static bool io_socket_attempt(php_socket *s, zif_handler orig, bool final, INTERNAL_FUNCTION_PARAMETERS)
{
	int fd = s->bsd_socket;
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return false;
	}
	int *last = io_sockets_last_error();
	int saved_error = s->error, saved_last = *last;
	*last = 0;
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (s->bsd_socket == fd) {
		fcntl(fd, F_SETFL, flags);
	}
	bool would_block = !final && Z_TYPE_P(return_value) == IS_FALSE && !EG(exception) && io_would_block(*last);
	if (would_block) {
		s->error = saved_error;
		*last = saved_last;
	} else if (*last == 0) {
		*last = saved_last; /* PHP's success leaves it alone */
	}
	return would_block;
}

/*
 * A coroutine waiting on a socket, listed (on its own stack) while it
 * waits, so that socket_close() from another coroutine can end the wait:
 * the dup() it watches keeps the connection open, so no event would ever
 * come otherwise.
 */
typedef struct io_socket_waiter {
	php_socket *socket;
	int watched;
	bool closed;
	struct io_socket_waiter *next;
} io_socket_waiter;

ZEND_TLS io_socket_waiter *io_socket_waiters;

/*
 * Waits until fd (s's) is ready for events. ext/sockets closes its fds
 * without telling anyone, so the runtime watches a dup() that it forgets
 * before it is closed. ASYNC_IO_CLOSED when socket_close() closed s
 * meanwhile.
 */
static async_io_status io_socket_wait(php_socket *s, int fd, unsigned events, uint64_t deadline)
{
	int watched = dup(fd);
	bool own = false;
	if (watched < 0) {
		if (!async_io_fd_shortage(errno)) {
			return ASYNC_IO_UNSUPPORTED;
		}
		/* No descriptor left for the dup(): the socket's own, forgotten
		 * afterwards as the dup() would be (socket_close() forgets it too),
		 * rather than PHP's own blocking call, which would stall every
		 * coroutine while the process waits for descriptors. */
		watched = fd;
		own = true;
	}
	io_socket_waiter me = { .socket = s, .watched = watched, .closed = false, .next = io_socket_waiters };
	io_socket_waiters = &me;
	async_io_status st = async_io_wait_fd(watched, events, deadline, NULL);
	for (io_socket_waiter **p = &io_socket_waiters; *p != NULL; p = &(*p)->next) {
		if (*p == &me) {
			*p = me.next;
			break;
		}
	}
	tasync_fd_forget(ASYNC_G(rt), watched);
	if (!own) {
		close(watched);
	}
	return me.closed && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

/*
 * Ends w's wait: a coroutine waiting on the watched dup() resumes with
 * EBADF, and the dup() becomes a hung-up socket, ready at once for any
 * event, for a wait not begun yet (socket_select()'s helper coroutines
 * start after the select suspends, so a socket_close() can come first).
 */
static void io_socket_waiter_wake(io_socket_waiter *w)
{
	tasync_fd_forget(ASYNC_G(rt), w->watched);
	if (w->watched == w->socket->bsd_socket) {
		return; /* no dup() (io_socket_wait): the socket's own fd, closed next */
	}
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
		shutdown(pair[0], SHUT_RDWR);
		dup2(pair[0], w->watched);
		close(pair[0]);
		close(pair[1]);
	}
}

/*
 * Before ext/sockets closes s's fd: the coroutines waiting on the socket in
 * the calls above are woken (their calls fail with EBADF), and so is every
 * wait on the fd itself, whoever started it (another extension through the
 * ABI): the runtime forgets the fd (when the fd is a stream's, the stream's
 * close does it).
 */
static void io_socket_closing(php_socket *s)
{
	if (ASYNC_G(rt) == NULL || IS_INVALID_SOCKET(s)) {
		return;
	}
	for (io_socket_waiter *w = io_socket_waiters; w != NULL; w = w->next) {
		if (w->socket == s && !w->closed) {
			w->closed = true;
			io_socket_waiter_wake(w);
		}
	}
	if (Z_ISUNDEF(s->zstream)) {
		/* Otherwise the fd is the stream's of socket_export_stream(), whose
		 * close forgets it once the stream closes it. */
		tasync_fd_forget(ASYNC_G(rt), s->bsd_socket);
		async_io_fd_released(); /* a call waiting for a descriptor tries again */
	}
}

/* socket_close(Socket $socket): void. */
static ZEND_NAMED_FUNCTION(async_io_socket_close)
{
	if (ZEND_NUM_ARGS() >= 1) {
		zval *z = ZEND_CALL_ARG(execute_data, 1);
		ZVAL_DEREF(z);
		if (Z_TYPE_P(z) == IS_OBJECT && Z_OBJCE_P(z) == io_socket_ce) {
			io_socket_closing(Z_SOCKET_P(z));
		}
	}
	orig_socket_close(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* C18: the call fails as PHP reports a failed one of its kind. */
static void io_socket_failed(php_socket *s, const char *what, int err, zval *return_value)
{
	s->error = err;
	*io_sockets_last_error() = err;
	php_error_docref(NULL, E_WARNING, "%s [%d]: %s", what, err, strerror(err));
	RETVAL_FALSE;
}

/* C24: a stream socket whose receive or send was cancelled midway. */
static void io_socket_fail_connection(php_socket *s)
{
	int type = 0;
	socklen_t len = sizeof(type);
	if (getsockopt(s->bsd_socket, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) {
		return;
	}
	shutdown(s->bsd_socket, SHUT_RDWR);
	/* What watches the number now watches a file that goes: waits that
	 * another extension started on it end with EBADF. */
	tasync_fd_forget(ASYNC_G(rt), s->bsd_socket);
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
		dup2(pair[0], s->bsd_socket);
		close(pair[0]);
		close(pair[1]);
	}
}

/*
 * The common loop: attempt, wait for events until the socket's timeout,
 * attempt again. what is PHP's message for a failure of this function.
 */
static void io_socket_call(php_socket *s, zif_handler orig, unsigned events, int timeout_opt, const char *what,
		bool fails_connection, INTERNAL_FUNCTION_PARAMETERS)
{
	uint64_t deadline = 0;
	bool deadline_known = false;
	while (io_socket_attempt(s, orig, false, INTERNAL_FUNCTION_PARAM_PASSTHRU)) {
		if (!deadline_known) {
			deadline = io_socket_deadline(s, timeout_opt);
			deadline_known = true;
		}
		async_io_status st = io_socket_wait(s, s->bsd_socket, events, deadline);
		switch (st) {
			case ASYNC_IO_READY:
				continue;
			case ASYNC_IO_TIMEOUT:
				/* PHP's own failure of a timed-out blocking call (EAGAIN). */
				(void) io_socket_attempt(s, orig, true, INTERNAL_FUNCTION_PARAM_PASSTHRU);
				return;
			case ASYNC_IO_CANCELLED:
				if (fails_connection) {
					io_socket_fail_connection(s);
				}
				io_socket_failed(s, what, ECANCELED, return_value);
				return;
			case ASYNC_IO_ABORTED:
				if (fails_connection) {
					io_socket_fail_connection(s);
				}
				RETVAL_FALSE;
				return;
			case ASYNC_IO_CLOSED:
				/* socket_close() from another coroutine. */
				io_socket_failed(s, what, EBADF, return_value);
				return;
			default:
				/* The runtime cannot wait on it: PHP's own blocking call. */
				orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
				return;
		}
	}
}

/*
 * A call that failed for want of a descriptor (EMFILE, ENFILE in
 * socket_last_error()) has reported it as PHP does; before it returns, its
 * coroutine waits until PHP closes a descriptor or the backoff passes
 * (io/wait.c), so that a loop of such calls never spins and tries again
 * once a descriptor came back.
 */
static void io_socket_failed_for_fd(uint64_t deadline, zval *return_value)
{
	if (Z_TYPE_P(return_value) == IS_FALSE && !EG(exception) && async_io_fd_shortage(*io_sockets_last_error())
			&& async_io_coroutine() != NULL) {
		(void) async_io_fd_shortage_wait(deadline);
	}
}

/* socket_accept(Socket $socket): Socket|false */
static ZEND_NAMED_FUNCTION(async_io_socket_accept)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_accept(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* Linux: the accepted socket does not inherit the listener's O_NONBLOCK. */
	io_socket_call(s, orig_socket_accept, TASYNC_IO_READABLE, SO_RCVTIMEO, "unable to accept incoming connection",
		false, INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_OBJECT) {
		async_io_fd_obtained();
	} else if (s->bsd_socket >= 0) {
		io_socket_failed_for_fd(io_socket_deadline(s, SO_RCVTIMEO), return_value);
	}
}

/* socket_create(int $domain, int $type, int $protocol): Socket|false */
static ZEND_NAMED_FUNCTION(async_io_socket_create)
{
	orig_socket_create(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	io_socket_failed_for_fd(0, return_value);
}

/* socket_create_pair(int $domain, int $type, int $protocol, array &$pair): bool */
static ZEND_NAMED_FUNCTION(async_io_socket_create_pair)
{
	orig_socket_create_pair(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	io_socket_failed_for_fd(0, return_value);
}

/* socket_connect(Socket $socket, string $address, ?int $port = null): bool */
static ZEND_NAMED_FUNCTION(async_io_socket_connect)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_connect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (!io_socket_attempt(s, orig_socket_connect, false, INTERNAL_FUNCTION_PARAM_PASSTHRU)) {
		return; /* connected at once, or failed as PHP fails */
	}
	int fd = s->bsd_socket;
	async_io_status st = io_socket_wait(s, fd, TASYNC_IO_WRITABLE, io_socket_deadline(s, SO_SNDTIMEO));
	switch (st) {
		case ASYNC_IO_READY: {
			int so_error = 0;
			socklen_t len = sizeof(so_error);
			if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) {
				so_error = errno;
			}
			if (so_error == 0) {
				RETVAL_TRUE;
			} else {
				io_socket_failed(s, "unable to connect", so_error, return_value);
			}
			return;
		}
		case ASYNC_IO_TIMEOUT:
			/* As PHP's connect when SO_SNDTIMEO expires: EINPROGRESS, silently. */
			s->error = EINPROGRESS;
			*io_sockets_last_error() = EINPROGRESS;
			RETVAL_FALSE;
			return;
		case ASYNC_IO_CANCELLED:
			io_socket_failed(s, "unable to connect", ECANCELED, return_value);
			return;
		case ASYNC_IO_CLOSED:
			io_socket_failed(s, "unable to connect", EBADF, return_value);
			return;
		case ASYNC_IO_ABORTED:
			RETVAL_FALSE;
			return;
		default: {
			/* PHP's own wait: a blocking poll for the outcome. */
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			int so_error = 0;
			socklen_t len = sizeof(so_error);
			if (poll(&p, 1, -1) < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) {
				so_error = errno;
			}
			if (so_error == 0) {
				RETVAL_TRUE;
			} else {
				io_socket_failed(s, "unable to connect", so_error, return_value);
			}
			return;
		}
	}
}

/* Waits until a PHP_NORMAL_READ of up to length bytes would not block. */
static async_io_status io_socket_line_wait(php_socket *s, zend_long length)
{
	size_t cap = length > 65536 ? 65536 : (size_t) (length > 0 ? length : 1);
	char *peek = emalloc(cap);
	uint64_t deadline = 0;
	bool deadline_known = false;
	async_io_status st = ASYNC_IO_READY;
	for (;;) {
		ssize_t n = recv(s->bsd_socket, peek, cap, MSG_PEEK | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n >= 0 && (n == 0 || (size_t) n == cap || memchr(peek, '\n', n) || memchr(peek, '\r', n))) {
			break; /* a line, the length, or the end */
		}
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			break; /* PHP reports the error */
		}
		if (!deadline_known) {
			deadline = io_socket_deadline(s, SO_RCVTIMEO);
			deadline_known = true;
		}
		st = io_socket_wait(s, s->bsd_socket, TASYNC_IO_READABLE, deadline);
		if (st != ASYNC_IO_READY) {
			break;
		}
	}
	efree(peek);
	return st;
}

/* socket_read(Socket $socket, int $length, int $mode = PHP_BINARY_READ): string|false */
static ZEND_NAMED_FUNCTION(async_io_socket_read)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_read(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *args = ZEND_CALL_ARG(execute_data, 1);
	if (ZEND_NUM_ARGS() >= 3 && Z_TYPE(args[2]) == IS_LONG && Z_LVAL(args[2]) == PHP_NORMAL_READ
			&& ZEND_NUM_ARGS() >= 2 && Z_TYPE(args[1]) == IS_LONG) {
		switch (io_socket_line_wait(s, Z_LVAL(args[1]))) {
			case ASYNC_IO_CANCELLED:
				io_socket_fail_connection(s);
				io_socket_failed(s, "unable to read from socket", ECANCELED, return_value);
				return;
			case ASYNC_IO_ABORTED:
				io_socket_fail_connection(s);
				RETVAL_FALSE;
				return;
			case ASYNC_IO_CLOSED:
				io_socket_failed(s, "unable to read from socket", EBADF, return_value);
				return;
			case ASYNC_IO_TIMEOUT:
				/* PHP's line read on a socket whose SO_RCVTIMEO passed. */
				s->error = EAGAIN;
				*io_sockets_last_error() = EAGAIN;
				RETVAL_FALSE;
				return;
			default:
				orig_socket_read(INTERNAL_FUNCTION_PARAM_PASSTHRU);
				return;
		}
	}
	io_socket_call(s, orig_socket_read, TASYNC_IO_READABLE, SO_RCVTIMEO, "unable to read from socket", true,
		INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/*
 * socket_recv() with MSG_WAITALL on a stream socket: a blocking recv()
 * returns once length bytes came (or the peer closed, SO_RCVTIMEO passed,
 * an error came: then what came so far, if anything). PHP's one non-blocking
 * attempt would return the first bytes only, so the bytes are gathered here
 * (without PHP's function), with PHP's results and warnings.
 */
static void io_socket_recv_waitall(php_socket *s, zval *zbuf, zend_long len, zend_long flags, zval *return_value)
{
	zend_string *buf = zend_string_alloc((size_t) len, 0);
	size_t got = 0;
	int err = 0;
	uint64_t deadline = 0;
	bool deadline_known = false;
	async_io_status st = ASYNC_IO_READY;
	while (got < (size_t) len) {
		ssize_t n = recv(s->bsd_socket, ZSTR_VAL(buf) + got, (size_t) len - got,
			(int) (flags & ~MSG_WAITALL) | MSG_DONTWAIT);
		if (n > 0) {
			got += (size_t) n;
			continue;
		}
		if (n == 0) {
			break; /* the peer closed */
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			err = errno;
			break;
		}
		if (!deadline_known) {
			deadline = io_socket_deadline(s, SO_RCVTIMEO);
			deadline_known = true;
		}
		st = io_socket_wait(s, s->bsd_socket, TASYNC_IO_READABLE, deadline);
		if (st == ASYNC_IO_TIMEOUT) {
			err = EAGAIN;
			st = ASYNC_IO_READY;
			break;
		}
		if (st == ASYNC_IO_UNSUPPORTED) {
			/* PHP's own blocking receive of the rest. */
			ssize_t m = recv(s->bsd_socket, ZSTR_VAL(buf) + got, (size_t) len - got, (int) flags);
			if (m > 0) {
				got += (size_t) m;
			} else if (m < 0) {
				err = errno;
			}
			st = ASYNC_IO_READY;
			break;
		}
		if (st != ASYNC_IO_READY) {
			break;
		}
	}
	if (st != ASYNC_IO_READY) {
		zend_string_efree(buf);
		ZEND_TRY_ASSIGN_REF_NULL(zbuf);
		if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_ABORTED) {
			/* C24: what came so far is gone with the connection. */
			io_socket_fail_connection(s);
		}
		if (st == ASYNC_IO_ABORTED) {
			RETURN_FALSE;
		}
		io_socket_failed(s, "unable to read from socket", st == ASYNC_IO_CLOSED ? EBADF : ECANCELED, return_value);
		return;
	}
	if (got == 0) {
		zend_string_efree(buf);
		ZEND_TRY_ASSIGN_REF_NULL(zbuf);
		if (err != 0) {
			/* As PHP_SOCKET_ERROR: recorded always, a warning unless EAGAIN. */
			s->error = err;
			*io_sockets_last_error() = err;
			if (err != EAGAIN && err != EWOULDBLOCK) {
				php_error_docref(NULL, E_WARNING, "unable to read from socket [%d]: %s", err, strerror(err));
			}
			RETURN_FALSE;
		}
		RETURN_LONG(0);
	}
	ZSTR_LEN(buf) = got;
	ZSTR_VAL(buf)[got] = '\0';
	ZEND_TRY_ASSIGN_REF_NEW_STR(zbuf, buf);
	RETURN_LONG((zend_long) got);
}

static ZEND_NAMED_FUNCTION(async_io_socket_recv)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_recv(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *args = ZEND_CALL_ARG(execute_data, 1);
	int type = 0;
	socklen_t type_len = sizeof(type);
	if (ZEND_NUM_ARGS() == 4 && Z_ISREF(args[1]) && Z_TYPE(args[2]) == IS_LONG && Z_LVAL(args[2]) > 0
			&& Z_LVAL(args[2]) < ZEND_LONG_MAX && Z_TYPE(args[3]) == IS_LONG && (Z_LVAL(args[3]) & MSG_WAITALL)
			&& getsockopt(s->bsd_socket, SOL_SOCKET, SO_TYPE, &type, &type_len) == 0 && type == SOCK_STREAM) {
		io_socket_recv_waitall(s, &args[1], Z_LVAL(args[2]), Z_LVAL(args[3]), return_value);
		return;
	}
	io_socket_call(s, orig_socket_recv, TASYNC_IO_READABLE, SO_RCVTIMEO, "unable to read from socket", true,
		INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_NAMED_FUNCTION(async_io_socket_recvfrom)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_recvfrom(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	io_socket_call(s, orig_socket_recvfrom, TASYNC_IO_READABLE, SO_RCVTIMEO, "unable to recvfrom", true,
		INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/*
 * socket_write / socket_send on a blocking socket: a blocking send() sends
 * everything (unless SO_SNDTIMEO passes or it fails midway, when it
 * returns what it sent), so a partial non-blocking write is followed by
 * waits and writes of the rest. The data is the second argument, len_arg
 * is the index of the length (which may be absent or null).
 */
static void io_socket_send_all(php_socket *s, zif_handler orig, uint32_t len_arg, INTERNAL_FUNCTION_PARAMETERS)
{
	zval *args = ZEND_CALL_ARG(execute_data, 1);
	uint32_t argc = ZEND_NUM_ARGS();
	zval *zdata = &args[1], *zlen = argc > len_arg ? &args[len_arg] : NULL;
	if (argc < 2 || Z_TYPE_P(zdata) != IS_STRING || (zlen != NULL && Z_TYPE_P(zlen) != IS_LONG && Z_TYPE_P(zlen) != IS_NULL)
			|| (zlen != NULL && Z_TYPE_P(zlen) == IS_LONG && Z_LVAL_P(zlen) < 0)) {
		/* PHP's argument errors, or something it does not send. */
		io_socket_call(s, orig, TASYNC_IO_WRITABLE, SO_SNDTIMEO, "unable to write to socket", true,
			INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	size_t want = Z_STRLEN_P(zdata);
	if (zlen != NULL && Z_TYPE_P(zlen) == IS_LONG && (size_t) Z_LVAL_P(zlen) < want) {
		want = (size_t) Z_LVAL_P(zlen);
	}
	zval data_arg, len_value;
	ZVAL_COPY_VALUE(&data_arg, zdata);
	if (zlen != NULL) {
		ZVAL_COPY_VALUE(&len_value, zlen);
	}
	size_t sent = 0;
	for (;;) {
		io_socket_call(s, orig, TASYNC_IO_WRITABLE, SO_SNDTIMEO, "unable to write to socket", true,
			INTERNAL_FUNCTION_PARAM_PASSTHRU);
		if (zdata != &data_arg && Z_TYPE_P(zdata) == IS_STRING && Z_STR_P(zdata) != Z_STR(data_arg)) {
			zval_ptr_dtor_str(zdata);
		}
		if (Z_TYPE_P(return_value) != IS_LONG || EG(exception)) {
			if (sent > 0 && !EG(exception) && Z_TYPE_P(return_value) == IS_FALSE) {
				RETVAL_LONG((zend_long) sent); /* as a blocking send stopped midway */
			}
			break;
		}
		sent += (size_t) Z_LVAL_P(return_value);
		if (Z_LVAL_P(return_value) <= 0 || sent >= want || s->bsd_socket < 0) {
			RETVAL_LONG((zend_long) sent);
			break;
		}
		/* The rest, from where the socket stopped taking it. */
		ZVAL_STRINGL(zdata, Z_STRVAL(data_arg) + sent, want - sent);
		if (zlen != NULL) {
			ZVAL_LONG(zlen, (zend_long) (want - sent));
		}
	}
	ZVAL_COPY_VALUE(zdata, &data_arg);
	if (zlen != NULL) {
		ZVAL_COPY_VALUE(zlen, &len_value);
	}
}

/* socket_write(Socket $socket, string $data, ?int $length = null): int|false */
static ZEND_NAMED_FUNCTION(async_io_socket_write)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_write(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	io_socket_send_all(s, orig_socket_write, 2, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* socket_send(Socket $socket, string $data, int $length, int $flags): int|false */
static ZEND_NAMED_FUNCTION(async_io_socket_send)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_send(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	io_socket_send_all(s, orig_socket_send, 2, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_NAMED_FUNCTION(async_io_socket_sendto)
{
	php_socket *s = io_socket_arg(execute_data);
	if (s == NULL) {
		orig_socket_sendto(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	io_socket_call(s, orig_socket_sendto, TASYNC_IO_WRITABLE, SO_SNDTIMEO, "unable to write to socket", true,
		INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* The sockets of socket_select()'s arrays, each once, with the events
 * wanted of it. */
typedef struct io_select_set {
	php_socket **sockets;
	unsigned *events;
	uint32_t n, cap;
} io_select_set;

static void io_select_collect(zval *array, unsigned events, io_select_set *set)
{
	if (array == NULL || Z_TYPE_P(array) != IS_ARRAY) {
		return;
	}
	zval *elem;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), elem) {
		ZVAL_DEREF(elem);
		if (Z_TYPE_P(elem) != IS_OBJECT || Z_OBJCE_P(elem) != io_socket_ce || Z_SOCKET_P(elem)->bsd_socket < 0) {
			continue;
		}
		php_socket *s = Z_SOCKET_P(elem);
		uint32_t i = 0;
		while (i < set->n && set->sockets[i] != s) {
			i++;
		}
		if (i < set->n) {
			set->events[i] |= events;
			continue;
		}
		if (set->n == set->cap) {
			set->cap = set->cap ? set->cap * 2 : 8;
			set->sockets = safe_erealloc(set->sockets, set->cap, sizeof(php_socket *), 0);
			set->events = safe_erealloc(set->events, set->cap, sizeof(unsigned), 0);
		}
		set->sockets[set->n] = s;
		set->events[set->n] = events;
		set->n++;
	} ZEND_HASH_FOREACH_END();
}

/*
 * Waits until one of the sockets of the arrays is ready or the deadline
 * passes. Each is watched through a dup() listed as a waiter, as
 * io_socket_wait() does, so that socket_close() of any of them from
 * another coroutine ends the wait: ASYNC_IO_CLOSED then.
 */
static async_io_status io_select_wait(async_io_select_call *call, zval *saved, uint64_t deadline)
{
	(void) call;
	io_select_set sockets = { 0 };
	io_select_collect(&saved[0], TASYNC_IO_READABLE, &sockets);
	io_select_collect(&saved[1], TASYNC_IO_WRITABLE, &sockets);
	io_select_collect(&saved[2], TASYNC_IO_PRIORITY, &sockets);
	uint32_t n = sockets.n;
	io_socket_waiter *waiters = n > 0 ? safe_emalloc(n, sizeof(io_socket_waiter), 0) : NULL;
	async_io_poll_set set;
	async_io_poll_init(&set);
	uint32_t listed = 0;
	for (; listed < n; listed++) {
		int fd = dup(sockets.sockets[listed]->bsd_socket);
		if (fd < 0) {
			break;
		}
		waiters[listed] = (io_socket_waiter) {
			.socket = sockets.sockets[listed], .watched = fd, .closed = false, .next = io_socket_waiters,
		};
		io_socket_waiters = &waiters[listed];
		async_io_poll_add(&set, fd, sockets.events[listed], ASYNC_IO_POLL_OWN);
	}
	async_io_status st = listed == n ? async_io_poll_wait(&set, NULL, deadline, 0) : ASYNC_IO_UNSUPPORTED;
	bool closed = false;
	for (uint32_t i = 0; i < listed; i++) {
		for (io_socket_waiter **p = &io_socket_waiters; *p != NULL; p = &(*p)->next) {
			if (*p == &waiters[i]) {
				*p = waiters[i].next;
				break;
			}
		}
		closed |= waiters[i].closed;
		tasync_fd_forget(ASYNC_G(rt), waiters[i].watched);
		close(waiters[i].watched);
	}
	async_io_poll_free(&set);
	if (waiters != NULL) {
		efree(waiters);
	}
	if (sockets.sockets != NULL) {
		efree(sockets.sockets);
		efree(sockets.events);
	}
	return closed && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

static void io_select_failed(async_io_select_call *call, async_io_status st)
{
	(void) call;
	/*
	 * Cancelled (C18), or socket_close() of one of its sockets from another
	 * coroutine: the select fails as select(2) fails on a closed descriptor
	 * (EBADF), reported as PHP reports a failed select; the arrays stay as
	 * given. (PHP's TypeError "contains a closed socket" is its check of the
	 * arguments, before any wait.)
	 */
	int err = st == ASYNC_IO_CLOSED ? EBADF : ECANCELED;
	*io_sockets_last_error() = err;
	php_error_docref(NULL, E_WARNING, "Unable to select [%d]: %s", err, strerror(err));
}

static bool io_select_timeout(const zval *zsec, const zval *zusec, uint64_t *deadline)
{
	if ((Z_TYPE_P(zsec) != IS_NULL && Z_TYPE_P(zsec) != IS_LONG) || (zusec != NULL && Z_TYPE_P(zusec) != IS_LONG)) {
		return false;
	}
	bool forever = Z_TYPE_P(zsec) == IS_NULL;
	zend_long sec = forever ? 0 : Z_LVAL_P(zsec);
	zend_long usec = zusec != NULL ? Z_LVAL_P(zusec) : 0;
	if (sec < 0 || usec < 0 || (!forever && sec == 0 && usec == 0)) {
		return false;
	}
	*deadline = forever ? 0 : async_io_deadline_in(sec, usec);
	return true;
}

/* socket_select(?array &$read, ?array &$write, ?array &$except, ?int $seconds, int $microseconds = 0): int|false */
static ZEND_NAMED_FUNCTION(async_io_socket_select)
{
	async_io_select_call call = {
		.orig = orig_socket_select, .timeout = io_select_timeout, .wait = io_select_wait, .failed = io_select_failed,
	};
	async_io_select(&call, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_io_ext_sockets_startup(void)
{
	if (io_sockets_hooked) {
		return;
	}
	io_sockets_module = zend_hash_str_find_ptr(&module_registry, "sockets", sizeof("sockets") - 1);
	io_socket_ce = zend_hash_str_find_ptr(CG(class_table), "socket", sizeof("socket") - 1);
	if (io_sockets_module == NULL || io_socket_ce == NULL
#ifdef ZTS
			|| io_sockets_module->globals_id_ptr == NULL
#else
			|| io_sockets_module->globals_ptr == NULL
#endif
			|| io_sockets_module->globals_size < sizeof(zend_sockets_globals)) {
		return;
	}
	io_sockets_hooked = true;
	orig_socket_connect = async_io_hook("socket_connect", async_io_socket_connect);
	orig_socket_accept = async_io_hook("socket_accept", async_io_socket_accept);
	orig_socket_read = async_io_hook("socket_read", async_io_socket_read);
	orig_socket_write = async_io_hook("socket_write", async_io_socket_write);
	orig_socket_recv = async_io_hook("socket_recv", async_io_socket_recv);
	orig_socket_send = async_io_hook("socket_send", async_io_socket_send);
	orig_socket_recvfrom = async_io_hook("socket_recvfrom", async_io_socket_recvfrom);
	orig_socket_sendto = async_io_hook("socket_sendto", async_io_socket_sendto);
	orig_socket_select = async_io_hook("socket_select", async_io_socket_select);
	orig_socket_close = async_io_hook("socket_close", async_io_socket_close);
	orig_socket_create = async_io_hook("socket_create", async_io_socket_create);
	orig_socket_create_pair = async_io_hook("socket_create_pair", async_io_socket_create_pair);
}

void async_io_ext_sockets_shutdown(void)
{
	/* The module puts the handlers back (async_io_unhook_all); ext/sockets
	 * may go before us. */
	io_sockets_hooked = false;
	io_socket_ce = NULL;
	io_sockets_module = NULL;
}
