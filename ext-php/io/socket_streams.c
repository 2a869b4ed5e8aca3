/*
 * io/socket_streams.c - socket streams inside coroutines (rule C18): tcp, udp,
 * unix and udg transports, fsockopen(), stream_socket_client() /
 * _server() / _accept() / _pair(), and every stream function on them
 * (fread, fwrite, fgets, fgetc, stream_get_contents, stream_get_line,
 * feof, fflush, stream_socket_recvfrom / _sendto, ...).
 *
 * How. At MINIT the transport factories of tcp/udp/unix/udg are wrapped:
 * each socket stream gets a copy of its ops table (same label, same
 * cast/stat/flush) whose read, write, close and set_option are ours (the
 * transport options, set_option, are io/socket_transport.c's). They
 * decide per call: outside a coroutine, for non-blocking streams
 * (stream_set_blocking(false)) and for zero timeouts, PHP's own op runs
 * unchanged. Otherwise only the waiting changes:
 *
 *  - read: PHP's own read runs with a zero timeout (its poll() returns at
 *    once); when it would have waited, the coroutine awaits readability
 *    through the runtime (tasync_await_fd) until the stream's timeout
 *    (stream_set_timeout / default_socket_timeout), then retries. When the
 *    timeout passes, PHP's own read runs once more with a zero timeout so
 *    that the result and stream_get_meta_data()'s timed_out are PHP's.
 *  - write: send(MSG_DONTWAIT); on EAGAIN the coroutine awaits
 *    writability; the timeout again ends in PHP's own write. Writers take
 *    turns: a coroutine that waits in the middle of an fwrite() holds the
 *    stream's write turn, so two fwrite()s are never interleaved.
 *  - accept and connect (io/socket_transport.c): PHP's own code with a
 *    zero timeout / the asynchronous connect, then the wait through the
 *    runtime; host names are resolved on the thread pool.
 *  - close: tasync_fd_forget() before PHP closes the fd; fclose() of a
 *    stream other coroutines wait on wakes them (their call fails as on a
 *    closed socket) and returns once they have left the stream.
 *
 * The fd keeps its blocking mode: PHP code that uses it directly (ext/
 * sockets' socket_import_stream, proc_open descriptors) sees no change.
 * TLS streams read and write through io/tls.c (PHP's own OpenSSL code in
 * its non-blocking mode); with an ext/openssl whose layout is unknown,
 * stream_socket_enable_crypto() hands the stream back to PHP's own ops.
 */
#include "io/socket_streams.h"

#include "io/busy.h"
#include "io/families.h"
#include "io/hooks.h"
#include "io/read_target.h"
#include "io/socket_transport.h"
#include "io/tls.h"
#include "io/wait.h"
#include "runtime/globals.h"

#include "php_network.h"
#include "ext/standard/file.h"

#include <inttypes.h>
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

#ifndef MSG_DONTWAIT
# error "socket streams need MSG_DONTWAIT"
#endif

/* ---------------------------------------------------------- wrapped ops */

typedef struct io_ops {
	php_stream_ops ops;            /* first: stream->ops points here */
	const php_stream_ops *orig;
	bool openssl;                  /* ext/openssl's ops: TLS may be active (io/tls.c) */
	bool direct;                   /* stream sockets read by xp_socket.c's
	                                * php_sockop_read (tcp, unix): reads call
	                                * recv() here instead (io_recv_now) */
} io_ops;

#define IO_OPS_MAX 16
static io_ops io_ops_table[IO_OPS_MAX];
static uint32_t io_ops_count;
#ifdef ZTS
# include <pthread.h>
static pthread_mutex_t io_ops_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static ssize_t io_sock_write(php_stream *stream, const char *buf, size_t count);
static ssize_t io_sock_read(php_stream *stream, char *buf, size_t count);
static int io_sock_close(php_stream *stream, int close_handle);

bool async_io_stream_is_socket(php_stream *stream)
{
	const char *p = (const char *) stream->ops;
	return p >= (const char *) &io_ops_table[0] && p < (const char *) &io_ops_table[IO_OPS_MAX];
}

static inline const php_stream_ops *io_orig(php_stream *stream)
{
	return ((const io_ops *) stream->ops)->orig;
}

const php_stream_ops *async_io_stream_orig_ops(php_stream *stream)
{
	return io_orig(stream);
}

bool async_io_stream_openssl(php_stream *stream)
{
	return ((const io_ops *) stream->ops)->openssl;
}

/* A wrapped stream whose TLS is active: its reads and writes are io/tls.c's. */
static inline bool io_tls_on(php_stream *stream)
{
	return ((const io_ops *) stream->ops)->openssl && async_io_tls_active(stream);
}

/* The socket ops of xp_socket.c and ext/openssl's tcp ops: their abstract
 * begins with a php_netstream_data_t. */
static bool io_is_socket_label(const char *label)
{
	static const char *const labels[] = {
		"tcp_socket", "tcp_socket/ssl", "udp_socket", "unix_socket", "udg_socket", "generic_socket",
	};
	if (label == NULL) {
		return false;
	}
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		if (strcmp(label, labels[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* One wrapped table per original table, made on first sight (a handful:
 * the tables of tcp, tcp over openssl, udp, unix, udg, socket pairs). */
static const php_stream_ops *io_wrapped_ops(const php_stream_ops *orig)
{
	const php_stream_ops *found = NULL;
#ifdef ZTS
	pthread_mutex_lock(&io_ops_lock);
#endif
	for (uint32_t i = 0; i < io_ops_count && found == NULL; i++) {
		if (io_ops_table[i].orig == orig) {
			found = &io_ops_table[i].ops;
		}
	}
	if (found == NULL && io_ops_count < IO_OPS_MAX && io_is_socket_label(orig->label) && orig->read != NULL
			&& orig->write != NULL && orig->close != NULL && orig->set_option != NULL) {
		io_ops *w = &io_ops_table[io_ops_count];
		w->ops = *orig;
		w->ops.read = io_sock_read;
		w->ops.write = io_sock_write;
		w->ops.close = io_sock_close;
		w->ops.set_option = async_io_stream_set_option;
		w->orig = orig;
		w->openssl = strcmp(orig->label, "tcp_socket/ssl") == 0;
		/* ext/openssl's tcp ops read through php_sockop_read until TLS is
		 * enabled; once it is, io/tls.c reads (io_sock_read). */
		w->direct = strcmp(orig->label, "tcp_socket") == 0 || strcmp(orig->label, "tcp_socket/ssl") == 0
			|| strcmp(orig->label, "unix_socket") == 0;
		io_ops_count++;
		found = &w->ops;
	}
#ifdef ZTS
	pthread_mutex_unlock(&io_ops_lock);
#endif
	return found;
}

/* Makes a socket stream concurrent inside coroutines (no-op otherwise). */
void async_io_stream_wrap(php_stream *stream)
{
	if (stream == NULL || async_io_stream_is_socket(stream)) {
		return;
	}
	const php_stream_ops *w = io_wrapped_ops(stream->ops);
	if (w != NULL) {
		stream->ops = w;
	}
}

/* Calls PHP's set_option with PHP's ops in place: xp_socket.c tells udp
 * and unix sockets from tcp by the address of stream->ops. */
int async_io_stream_delegate_option(php_stream *stream, const php_stream_ops *orig, int option, int value, void *ptrparam)
{
	const php_stream_ops *mine = stream->ops;
	stream->ops = orig;
	int rc = orig->set_option(stream, option, value, ptrparam);
	if (stream->ops == orig) {
		stream->ops = mine;
	}
	return rc;
}

static ssize_t io_send_failed(size_t count, int err);

/* The status of a wait as seen by an operation on stream: a stream that
 * fclose() is closing ends every wait. role: 0 none (accept, recvfrom),
 * 1 the stream's reader, 2 its writer (C24). The deadline travels with the
 * wait (io/wait.c): a keep-alive connection under default_socket_timeout
 * arms and disarms one entry of the runtime's timer heap per wait, and
 * allocates nothing. */
static async_io_status io_wait_as(php_stream *stream, int fd, unsigned events, uint64_t deadline,
		tasync_coroutine_t *self, int role)
{
	async_io_busy *b = async_io_busy_enter_fd(stream, fd);
	if (async_io_busy_refused(b)) {
		async_io_busy_leave(b);
		return ASYNC_IO_CLOSED;
	}
	/* Kept until io_sock_close (or the switch to PHP's own ops): a
	 * keep-alive connection waits once per request. */
	b->kept = async_io_stream_is_socket(stream);
	if (role == 1) {
		b->reader = self;
	} else if (role == 2) {
		b->writer = self;
	}
	async_io_status st = async_io_wait_fd(fd, events, deadline, NULL);
	async_io_busy_check_gone(b);
	if (role == 1 && b->reader == self) {
		b->reader = NULL;
		b->intruder = 0;
	} else if (role == 2 && b->writer == self) {
		b->writer = NULL;
	}
	bool closing = b->closing;
	async_io_busy_leave(b);
	return closing && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

async_io_status async_io_stream_wait_on(php_stream *stream, int fd, unsigned events, uint64_t deadline)
{
	return io_wait_as(stream, fd, events, deadline, NULL, 0);
}

async_io_status async_io_stream_fd_shortage_wait(php_stream *stream, uint64_t deadline)
{
	async_io_busy *b = async_io_busy_enter(stream);
	if (async_io_busy_refused(b)) {
		async_io_busy_leave(b);
		return ASYNC_IO_CLOSED;
	}
	async_io_status st = async_io_fd_shortage_wait(deadline);
	async_io_busy_check_gone(b);
	bool closing = b->closing;
	async_io_busy_leave(b);
	return closing && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

async_io_status async_io_stream_wait(php_stream *stream, int fd, unsigned events, uint64_t deadline,
		tasync_coroutine_t *self, bool reading)
{
	return io_wait_as(stream, fd, events, deadline, self, reading ? 1 : 2);
}

void async_io_stream_fail(php_stream *stream)
{
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	if (sock != NULL && sock->socket != -1) {
		int fd = sock->socket;
		if (ASYNC_G(rt) != NULL) {
			tasync_fd_forget(ASYNC_G(rt), fd);
		}
		/* The fd number stays the stream's (PHP closes it), but now names
		 * one end of a pair whose other end is closed: reads see EOF,
		 * writes fail with EPIPE, whatever the peer still sends is gone.
		 * dup2() drops this process's reference to the connection, which
		 * closes it when it was the last one. No shutdown(): that would
		 * end the connection for a forked process sharing it too (a child
		 * cancelling its copy of a wait must leave the parent's socket be,
		 * fork/001). */
		int pair[2];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
			dup2(pair[0], fd);
			close(pair[0]);
			close(pair[1]);
		}
	}
	stream->eof = 1;
	stream->readpos = stream->writepos = 0;
	if (ASYNC_G(rt) != NULL) {
		async_io_busy *b = async_io_busy_enter(stream);
		b->failed = true;
		async_io_busy_leave(b);
	}
}

/* An operation on a failed stream: the coroutine's cancellation, when it
 * ignored the failed call that came of it, is thrown here as at any
 * hooked wait (a loop of reads ends); otherwise the call fails at once. */
static ssize_t io_failed_call(php_stream *stream, tasync_coroutine_t *self, bool reading, size_t count)
{
	if (tasync_coroutine_flags(self) & TASYNC_CO_CANCEL_REQUESTED) {
		void *err = NULL;
		int rc = tasync_yield(ASYNC_G(rt), &err);
		if (async_io_after_wait(rc, err) == ASYNC_IO_ABORTED) {
			return -1;
		}
	}
	if (reading) {
		stream->eof = 1;
		return 0; /* EOF, as on a connection the peer closed */
	}
	return io_send_failed(count, EPIPE);
}

/*
 * Rule C24 at the start of a read (write) of a coroutine: refused (false,
 * *result set) while another coroutine is suspended reading (writing) the
 * stream, or when fclose() is closing it. A coroutine refused as a reader
 * that wrote to the stream while the reader waited has sent a request
 * whose reply the reader would take: the stream is failed.
 */
bool async_io_stream_closing(php_stream *stream)
{
	return async_io_busy_refused(async_io_busy_find(stream));
}

static bool io_claim(php_stream *stream, int fd, tasync_coroutine_t *self, bool reading, size_t count,
		ssize_t *result)
{
	async_io_busy *b = async_io_busy_find_fd(stream, fd);
	if (b == NULL) {
		return true;
	}
	if (b->failed) {
		*result = io_failed_call(stream, self, reading, count);
		return false;
	}
	if (async_io_busy_refused(b)) {
		if (reading) {
			stream->eof = 1;
			*result = -1;
		} else {
			*result = io_send_failed(count, EBADF);
		}
		return false;
	}
	tasync_coroutine_t *owner = reading ? b->reader : b->writer;
	if (owner == NULL || owner == self) {
		if (!reading && b->reader != NULL && b->reader != self) {
			b->intruder = tasync_coroutine_id(self);
		}
		return true;
	}
	*result = -1;
	if (reading && b->intruder == tasync_coroutine_id(self)) {
		php_error_docref(NULL, E_WARNING,
			"Coroutine #%" PRIu64 " cannot read this stream: coroutine #%" PRIu64 " is reading it; "
			"the connection is closed, as what coroutine #%" PRIu64 " wrote would be answered to the other one",
			tasync_coroutine_id(self), tasync_coroutine_id(owner), tasync_coroutine_id(self));
		async_io_stream_fail(stream);
		return false;
	}
	php_error_docref(NULL, E_WARNING,
		reading ? "Coroutine #%" PRIu64 " cannot read this stream: coroutine #%" PRIu64 " is reading it"
		        : "Coroutine #%" PRIu64 " cannot write to this stream: coroutine #%" PRIu64 " is writing to it",
		tasync_coroutine_id(self), tasync_coroutine_id(owner));
	return false;
}

/* ------------------------------------------------------------------ read */

/*
 * PHP's own read with a zero timeout: it polls without waiting and reads
 * what is there. *would_block tells that PHP would have waited (unless
 * final: then PHP's timeout outcome is the result).
 */
static ssize_t io_read_now(const php_stream_ops *orig, php_netstream_data_t *sock, async_io_target *t, bool final,
		bool *would_block)
{
	*would_block = false;
	if (t->count == 0) {
		return 0; /* the buffer filled up meanwhile: the caller has data */
	}
	struct timeval saved = sock->timeout;
	sock->timeout.tv_sec = 0;
	sock->timeout.tv_usec = 0;
	sock->timeout_event = 0;
	errno = 0;
	ssize_t n = orig->read(t->stream, t->buf, t->count);
	int err = errno;
	sock->timeout = saved;
	if (!final && (sock->timeout_event
			|| (n <= 0 && !t->stream->eof && (err == EAGAIN || err == EWOULDBLOCK)))) {
		sock->timeout_event = 0;
		*would_block = true;
		return 0;
	}
	return async_io_target_result(t, n);
}

/*
 * Stream sockets whose last read came back short: their receive queue was
 * empty then, so the next read waits for readability before it calls
 * recv() instead of calling it for an EAGAIN (one system call less per
 * request of a keep-alive connection). A stale bit costs one pass of the
 * reactor: readiness is level-triggered, a readable fd is reported at the
 * next poll. Bits of fds beyond the map are not kept.
 */
#define IO_DRAINED_FDS 65536
ZEND_TLS uint64_t io_drained[IO_DRAINED_FDS / 64];

/*
 * Accepted stream sockets not read from yet (async_io_stream_accepted): a client's first
 * request rarely arrives with its connection, and the first fread() of one
 * peeks at the receive queue once to find out (io_queue_looks_empty).
 */
ZEND_TLS uint64_t io_fresh[IO_DRAINED_FDS / 64];

/* One bit per fd in either map. */
static inline void io_fdbit_set(uint64_t *map, int fd, bool on)
{
	if (fd >= 0 && fd < IO_DRAINED_FDS) {
		uint64_t bit = UINT64_C(1) << (fd % 64);
		map[fd / 64] = on ? map[fd / 64] | bit : map[fd / 64] & ~bit;
	}
}

static inline bool io_fdbit_peek(const uint64_t *map, int fd)
{
	return fd >= 0 && fd < IO_DRAINED_FDS && (map[fd / 64] & (UINT64_C(1) << (fd % 64))) != 0;
}

/* Clears fd's bit; returns whether it was set. */
static inline bool io_fdbit_take(uint64_t *map, int fd)
{
	bool was = io_fdbit_peek(map, fd);
	io_fdbit_set(map, fd, false);
	return was;
}

#define io_drained_set(fd, on) io_fdbit_set(io_drained, (fd), (on))
#define io_drained_peek(fd) io_fdbit_peek(io_drained, (fd))
#define io_drained_take(fd) io_fdbit_take(io_drained, (fd))
#define io_fresh_set(fd, on) io_fdbit_set(io_fresh, (fd), (on))
#define io_fresh_take(fd) io_fdbit_take(io_fresh, (fd))

void async_io_stream_accepted(int fd)
{
	io_fresh_set(fd, true);
}

/*
 * Whether fd's receive queue is empty, as far as is known without a system
 * call (the last read came back short), or, on an accepted socket's first
 * read, by one recv(MSG_PEEK | MSG_DONTWAIT) of a byte: one system call per
 * connection, and a first request already there is read at once.
 */
static bool io_queue_looks_empty(int fd)
{
	if (io_drained_peek(fd)) {
		return true;
	}
	if (!io_fresh_take(fd)) {
		return false;
	}
	int saved = errno;
	char byte;
	ssize_t n;
	do {
		n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	bool empty = n < 0 && PHP_IS_TRANSIENT_ERROR(errno);
	errno = saved;
	if (empty) {
		io_drained_set(fd, true);
	}
	return empty;
}

/*
 * What php_sockop_read() (main/streams/xp_socket.c) does for a blocking
 * stream socket, without its zero-timeout poll() before the recv(): one
 * system call. EAGAIN sets *would_block.
 */
static ssize_t io_recv_now(php_stream *stream, php_netstream_data_t *sock, async_io_target *t, bool *would_block)
{
	*would_block = false;
	if (t->count == 0) {
		return 0; /* the buffer filled up meanwhile: the caller has data */
	}
	/* PHP clears timed_out at every blocking read (php_sock_stream_wait_for_data). */
	sock->timeout_event = 0;
	ssize_t n;
	do {
		n = recv(sock->socket, t->buf, t->count, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (PHP_IS_TRANSIENT_ERROR(errno)) {
			*would_block = true;
			return 0;
		}
		stream->eof = 1;
		return -1;
	}
	if (n == 0) {
		stream->eof = 1;
		return 0;
	}
	if ((size_t) n < t->count) {
		io_drained_set(sock->socket, true);
	}
	php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(stream), n, 0);
	return async_io_target_result(t, n);
}

/*
 * A stream whose read timeout passed while fread() waited before calling
 * the read (io_fread_wait): its read makes PHP's final zero-timeout read
 * at once instead of waiting a second time.
 */
ZEND_TLS php_stream *io_deadline_passed;

static ssize_t io_sock_read(php_stream *stream, char *buf, size_t count)
{
	const php_stream_ops *orig = io_orig(stream);
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	tasync_coroutine_t *self;
	if (sock == NULL || sock->socket == -1 || !sock->is_blocked || count == 0
			|| (self = async_io_coroutine()) == NULL) {
		return orig->read(stream, buf, count);
	}
	ssize_t refused;
	if (!io_claim(stream, sock->socket, self, true, count, &refused)) {
		return refused;
	}
	if (io_tls_on(stream)) {
		return async_io_tls_io(stream, orig, true, buf, count, self);
	}
	if (async_io_tv_is_zero(&sock->timeout)) {
		return orig->read(stream, buf, count);
	}
	async_io_target t;
	async_io_target_init(&t, stream, buf, count);
	if (io_deadline_passed == stream) {
		io_deadline_passed = NULL;
		bool would_block;
		return io_read_now(orig, sock, &t, true, &would_block);
	}
	/* Read from the clock only when the read waits (most reads of a
	 * keep-alive server find their data). */
	uint64_t deadline = UINT64_MAX;
	bool direct = ((const io_ops *) stream->ops)->direct;
	for (;;) {
		bool would_block = true;
		if (!direct || !io_drained_take(sock->socket)) {
			ssize_t n = direct ? io_recv_now(stream, sock, &t, &would_block)
				: io_read_now(orig, sock, &t, false, &would_block);
			if (!would_block) {
				return n;
			}
		}
		if (deadline == UINT64_MAX) {
			deadline = async_io_deadline(&sock->timeout);
		}
		async_io_status st = io_wait_as(stream, sock->socket, TASYNC_IO_READABLE, deadline, self, 1);
		switch (st) {
			case ASYNC_IO_READY:
				async_io_target_refresh(&t);
				continue;
			case ASYNC_IO_TIMEOUT:
				async_io_target_refresh(&t);
				return io_read_now(orig, sock, &t, true, &would_block);
			case ASYNC_IO_UNSUPPORTED:
				async_io_target_refresh(&t);
				return t.count == 0 ? 0 : async_io_target_result(&t, orig->read(stream, t.buf, t.count));
			case ASYNC_IO_CLOSED:
				stream->eof = 1;
				return -1;
			default:
				/* Cancelled (C18: a failed read; fread() returns false) or
				 * aborted: the stream fails with it (C24), so that nobody
				 * reads the reply this read was waiting for. */
				async_io_stream_fail(stream);
				return -1;
		}
	}
}

/*
 * fread() allocates a string of the length asked for (often 64 KiB in a
 * server) before it reads. On a stream socket whose receive queue was found
 * empty, the coroutine waits for readability here, before that allocation:
 * a suspended reader holds no buffer (1000 idle keep-alive connections
 * held 64 MiB of scattered Zend MM pages), and the string allocated after
 * the wakeup is freed before the next request (it lands in the same warm
 * pages every time). The read itself is still PHP's fread() and our read op.
 * Returns true when fread() should go on; false with *result the read's
 * result otherwise (-1: fread() returns false; 0: an empty string).
 */
static bool io_fread_wait(php_stream *stream, ssize_t *result)
{
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	tasync_coroutine_t *self;
	if (stream->readpos != stream->writepos || stream->eof || sock == NULL || sock->socket == -1
			|| !sock->is_blocked || !((const io_ops *) stream->ops)->direct || async_io_tv_is_zero(&sock->timeout)
			|| io_tls_on(stream) || (self = async_io_coroutine()) == NULL || !io_queue_looks_empty(sock->socket)) {
		return true;
	}
	if (!io_claim(stream, sock->socket, self, true, 1, result)) {
		return false;
	}
	uint64_t deadline = async_io_deadline(&sock->timeout);
	async_io_status st = io_wait_as(stream, sock->socket, TASYNC_IO_READABLE, deadline, self, 1);
	switch (st) {
		case ASYNC_IO_READY:
		case ASYNC_IO_UNSUPPORTED:
			io_drained_set(sock->socket, false);
			return true;
		case ASYNC_IO_TIMEOUT:
			io_drained_set(sock->socket, false);
			io_deadline_passed = stream;
			return true;
		case ASYNC_IO_CLOSED:
			stream->eof = 1;
			*result = -1;
			return false;
		default:
			/* As io_sock_read: the stream fails with a cancelled read (C24). */
			async_io_stream_fail(stream);
			*result = -1;
			return false;
	}
}

static zif_handler orig_fread;

/*
 * fread() of at least a chunk from a stream socket whose read buffer is
 * empty: PHP would receive into the stream's own read buffer (8 KiB per
 * connection) and copy from there into the string. At 1000 connections those
 * buffers are as cold as the connections, and the kernel's copy into them
 * was 7 % of a keep-alive server's time (perf, _copy_to_iter; 0.8 % for
 * AMPHP, which reads unbuffered). The string is received into directly, one
 * chunk at most, which is what the buffered read returns at most.
 */
static bool io_fread_direct(php_stream *stream, zend_long len)
{
	return len >= (zend_long) stream->chunk_size && stream->chunk_size > 1
		&& stream->readpos == stream->writepos && !(stream->flags & PHP_STREAM_FLAG_NO_BUFFER)
		&& stream->readfilters.head == NULL && ((const io_ops *) stream->ops)->direct;
}

/* fread(resource $stream, int $length): string|false */
static ZEND_NAMED_FUNCTION(async_io_fread)
{
	zval *res;
	zend_long len;
	php_stream *stream;
	ssize_t result;
	if (ZEND_NUM_ARGS() == 2 && Z_TYPE_P(ZEND_CALL_ARG(execute_data, 1)) == IS_RESOURCE
			&& Z_TYPE_P(ZEND_CALL_ARG(execute_data, 2)) == IS_LONG
			&& (res = ZEND_CALL_ARG(execute_data, 1), len = Z_LVAL_P(ZEND_CALL_ARG(execute_data, 2)), len > 0)
			&& (stream = zend_fetch_resource2(Z_RES_P(res), NULL, php_file_le_stream(), php_file_le_pstream())) != NULL
			&& async_io_stream_is_socket(stream)) {
		if (!io_fread_wait(stream, &result)) {
			if (result < 0) {
				RETURN_FALSE;
			}
			RETURN_EMPTY_STRING();
		}
		if (io_fread_direct(stream, len) && async_io_coroutine() != NULL) {
			/* What php_stream_read_to_str() does on an unbuffered stream
			 * (_php_stream_read's one read of a socket), for this call
			 * only: the stream keeps its buffer for the calls that need
			 * one (fgets, small freads). */
			size_t want = stream->chunk_size;
			zend_string *str = zend_string_alloc(want, 0);
			ssize_t n = stream->ops->read(stream, ZSTR_VAL(str), want);
			io_deadline_passed = NULL;
			if (n < 0) {
				zend_string_efree(str);
				RETURN_FALSE;
			}
			if (n > 0) {
				stream->position += n;
			}
			ZSTR_LEN(str) = (size_t) n;
			ZSTR_VAL(str)[n] = '\0';
			if ((size_t) n < want / 2) {
				str = zend_string_truncate(str, (size_t) n, 0);
			}
			RETURN_NEW_STR(str);
		}
	}
	orig_fread(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	io_deadline_passed = NULL;
}

/* ----------------------------------------------------------------- write */

/* PHP's report of a failed send (xp_socket.c): a notice, then -1. */
static ssize_t io_send_failed(size_t count, int err)
{
	char *estr = php_socket_strerror(err, NULL, 0);
	php_error_docref(NULL, E_NOTICE, "Send of " ZEND_LONG_FMT " bytes failed with errno=%d %s", (zend_long) count, err, estr);
	efree(estr);
	return -1;
}

/* PHP's own write with a zero timeout: PHP's outcome of a timed-out write. */
static ssize_t io_write_timed_out(const php_stream_ops *orig, php_stream *stream, php_netstream_data_t *sock,
		const char *buf, size_t count)
{
	struct timeval saved = sock->timeout;
	sock->timeout.tv_sec = 0;
	sock->timeout.tv_usec = 0;
	ssize_t n = orig->write(stream, buf, count);
	sock->timeout = saved;
	return n;
}

static ssize_t io_write_ended(const php_stream_ops *orig, php_stream *stream, php_netstream_data_t *sock,
		const char *buf, size_t count, async_io_status st)
{
	switch (st) {
		case ASYNC_IO_TIMEOUT:
			return io_write_timed_out(orig, stream, sock, buf, count);
		case ASYNC_IO_UNSUPPORTED:
			return orig->write(stream, buf, count);
		case ASYNC_IO_CLOSED:
			return io_send_failed(count, EBADF);
		case ASYNC_IO_CANCELLED:
			/* C18: a failed send, reported as PHP reports one. */
			return io_send_failed(count, ECANCELED);
		default:
			return -1;
	}
}

static ssize_t io_sock_write(php_stream *stream, const char *buf, size_t count)
{
	const php_stream_ops *orig = io_orig(stream);
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	tasync_coroutine_t *self;
	if (sock == NULL || sock->socket == -1 || !sock->is_blocked || count == 0
			|| (self = async_io_coroutine()) == NULL) {
		return orig->write(stream, buf, count);
	}
	ssize_t refused;
	if (!io_claim(stream, sock->socket, self, false, count, &refused)) {
		return refused;
	}
	if (io_tls_on(stream)) {
		return async_io_tls_io(stream, orig, false, (char *) buf, count, self);
	}
	if (async_io_tv_is_zero(&sock->timeout)) {
		return orig->write(stream, buf, count);
	}
	uint64_t deadline = UINT64_MAX; /* read from the clock at the first wait */
	for (;;) {
		ssize_t n = send(sock->socket, buf, count, MSG_DONTWAIT);
		if (n >= 0) {
			if (n > 0) {
				php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(stream), n, 0);
			}
			return n;
		}
		int err = errno;
		if (err == EINTR) {
			continue;
		}
		if (err != EAGAIN && err != EWOULDBLOCK) {
			return io_send_failed(count, err);
		}
		/* The send buffer is full: wait as the stream's writer. */
		if (deadline == UINT64_MAX) {
			deadline = async_io_deadline(&sock->timeout);
		}
		async_io_status st = io_wait_as(stream, sock->socket, TASYNC_IO_WRITABLE, deadline, self, 2);
		if (st == ASYNC_IO_READY) {
			continue;
		}
		if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_ABORTED) {
			/* Part of a message may have gone: the stream fails (C24). */
			async_io_stream_fail(stream);
		}
		return io_write_ended(orig, stream, sock, buf, count, st);
	}
}

/* ----------------------------------------------------------------- close */

static int io_sock_close(php_stream *stream, int close_handle)
{
	const php_stream_ops *orig = io_orig(stream);
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	if (sock != NULL && sock->socket != -1) {
		io_drained_set(sock->socket, false);
		io_fresh_set(sock->socket, false);
	}
	if (sock != NULL && sock->socket != -1 && ASYNC_G(rt) != NULL) {
		/* The reactor must not keep watching an fd number that close()
		 * hands back to the system. */
		tasync_fd_forget(ASYNC_G(rt), sock->socket);
	}
	bool releases_fd = sock != NULL && sock->socket != -1 && close_handle;
	async_io_busy *b = sock != NULL && sock->socket != -1 ? async_io_busy_find_fd(stream, sock->socket)
		: async_io_busy_find(stream);
	if (b != NULL) {
		/* However the stream is freed (fclose() has let the users leave
		 * already; a driver's php_stream_free(), gzclose(), a resource
		 * destructor have not), no coroutine may still be suspended in it
		 * when PHP frees it: the close waits for them to leave, or, where
		 * it cannot wait, they never return into it. */
		b->failed = false;
		b->kept = false;
		if (async_io_busy_drain(b)) {
			async_io_busy_detach(b);
			async_io_busy_release(b);
		} else {
			async_io_busy_orphan(b);
		}
	}
	int rc = orig->close(stream, close_handle);
	if (releases_fd) {
		async_io_fd_released(); /* a call waiting for a descriptor tries again */
	}
	return rc;
}

/* ---------------------------------------------------------------- fclose */

static zif_handler orig_fclose;

/*
 * fclose(): lets the coroutines waiting on stream leave it before PHP's
 * close starts, while the resource is still valid: their waits end (the fd
 * is forgotten), their calls fail as on a closed socket, and this one waits
 * until none is inside the stream any more (async_io_busy_drain). False,
 * with nothing changed, when that cannot be waited for here: fclose() is
 * refused. A second fclose() meanwhile waits too, then fails as fclose()
 * of a closed resource does.
 */
static bool io_quiesce(php_stream *stream)
{
	async_io_busy *b = async_io_busy_find(stream);
	if (b == NULL || b->users == 0) {
		return true;
	}
	if (async_io_coroutine() == NULL) {
		return false;
	}
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	if (sock != NULL && sock->socket != -1) {
		tasync_fd_forget(ASYNC_G(rt), sock->socket);
	}
	b->closers++; /* b outlives the close of the first closer */
	async_io_busy_drain(b);
	b->closers--;
	async_io_busy_release(b);
	return true;
}

static ZEND_NAMED_FUNCTION(async_io_fclose)
{
	if (ASYNC_G(rt) != NULL && ZEND_NUM_ARGS() >= 1) {
		zval *arg = ZEND_CALL_ARG(execute_data, 1);
		ZVAL_DEREF(arg);
		if (Z_TYPE_P(arg) == IS_RESOURCE) {
			php_stream *stream = zend_fetch_resource2(Z_RES_P(arg), NULL, php_file_le_stream(), php_file_le_pstream());
			if (stream != NULL && async_io_stream_is_socket(stream) && !io_quiesce(stream)) {
				if (!EG(exception)) {
					php_error_docref(NULL, E_WARNING, "Cannot close a stream other coroutines are waiting on from here");
				}
				RETURN_FALSE;
			}
		}
	}
	orig_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------- module */

void async_io_socket_streams_startup(void)
{
	orig_fclose = async_io_hook("fclose", async_io_fclose);
	orig_fread = async_io_hook("fread", async_io_fread);
}
