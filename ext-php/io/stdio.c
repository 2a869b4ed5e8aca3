/*
 * io_stdio.c - the streams of PHP's stdio ops inside coroutines (rule C18):
 * pipes (proc_open's, popen's, the exec family's), FIFOs, STDIN, STDOUT,
 * STDERR, php://stdin and friends, terminals, and plain files.
 *
 * How. PHP 8.2 keeps php_stream_stdio_ops writable (phpdbg patches it); at
 * MINIT its read, write, close and set_option are replaced by the functions
 * below, and restored at MSHUTDOWN. Every stdio stream, whoever opened it,
 * passes through them. Outside a coroutine, and for streams whose FILE* layer
 * is in use (a stdio cast), PHP's own op runs. Inside a coroutine only the
 * waiting changes; the system call that moves the data stays PHP's own op
 * whenever it can no longer block, so results, notices and the eof flag are
 * PHP's.
 *
 * Pipes, FIFOs, sockets, terminals and other character devices (fstat once
 * per stream; the answer is kept in bits of stream->flags):
 *  - read: poll() without waiting; ready (or hung up) -> PHP's read. Not
 *    ready on a blocking fd -> the coroutine awaits readability through the
 *    runtime, until stream_set_timeout()'s deadline when one was set (pipes
 *    honour it here; plain PHP refuses it for them). A timeout returns 0
 *    bytes and sets stream_get_meta_data()'s timed_out, as on a socket. A
 *    non-blocking fd (stream_set_blocking(false)) never waits.
 *  - write: poll() for writability, then PHP's write of at most PIPE_BUF
 *    bytes, which cannot block (the stream layer loops over the rest); a
 *    coroutine that had to wait keeps the stream's write turn until its
 *    next write went out, so two fwrite()s are not interleaved.
 * Plain files (the class of their filesystem decides, see io_fs.c):
 *  - read: preadv2(RWF_NOWAIT) serves data the page cache holds, inline, at
 *    the cost of a read(); what it cannot serve is read through the backend
 *    (io_uring natively, others on the pool) at most IO_FILE_CHUNK bytes at
 *    a time into a buffer of the call, then copied where the stream wants it.
 *    Where the filesystem has no RWF_NOWAIT, reads up to IO_FILE_INLINE
 *    bytes stay inline on a local disk. Remote files always go through the
 *    backend.
 *  - write: up to IO_FILE_INLINE bytes inline on a local disk (the page
 *    cache takes them), larger writes and writes to remote files through
 *    the backend, IO_FILE_CHUNK bytes at a time.
 *  - fsync()/fdatasync() through the backend; ftruncate() of remote files
 *    on the pool; mmap (which copy(), readfile() and fpassthru() use) is
 *    refused inside coroutines so that those read through the ops above.
 * Every stdio stream:
 *  - flock() (and LOCK_EX of file_put_contents, SplFileObject::flock): a
 *    blocking lock is tried with LOCK_NB; while another holder keeps it the
 *    coroutine waits (for an unlock or close of a file by this process, or
 *    a delay growing from 1 ms to 50 ms for other processes) and tries
 *    again; cancellable, and LOCK_NB/$would_block behave as PHP documents.
 *  - close: coroutines waiting on the stream are woken (their call fails as
 *    on a closed stream) and the closer waits until they left it; the fd is
 *    forgotten by the runtime before PHP closes it; the child of a stream
 *    made by io_proc.c (popen, the exec family) is waited for and reaped,
 *    and its status becomes the close's result, as pclose() gives it.
 *
 * Cancellation (C18): a cancelled read or write fails with PHP's notice for
 * a failed read/write (errno ECANCELED) and -1, so fread()/fwrite() return
 * false; a cancelled flock() returns false without $would_block.
 */
#include "php_async_io.h"

#include "ext/standard/file.h"
#include "ext/standard/flock_compat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/*
 * Bits of php_stream.flags that PHP 8.2 leaves unused (it defines 0x1 to
 * 0x400 and 0x80000000), kept by this file for stdio streams.
 */
#define IO_STDIO_KNOWN      0x40000000u /* the kind below was determined */
#define IO_STDIO_POLL       0x20000000u /* pipe, FIFO, socket, character device */
#define IO_STDIO_FILE       0x10000000u /* regular file */
#define IO_STDIO_REMOTE     0x08000000u /* file on a remote filesystem (io_fs.c) */
#define IO_STDIO_MEMORY     0x04000000u /* file on a memory filesystem */
#define IO_STDIO_NO_NOWAIT  0x02000000u /* the filesystem refuses RWF_NOWAIT */
#define IO_STDIO_WATCHED    0x01000000u /* the runtime saw the fd: forget it at close */
#define IO_STDIO_LOCKED     0x00800000u /* holds a flock() */
#define IO_STDIO_STATE      0x00400000u /* has an io_stdio_state */
#define IO_STDIO_CANCELLED  0x00200000u /* an operation was cancelled */
#define IO_STDIO_CLASSED    0x00100000u /* REMOTE/MEMORY were determined */

/* Plain-file operations through the backend move at most this much at a
 * time: io_uring copies a buffered read it completes in the submitting
 * thread, so one huge read stalls it (measured: 0.9 s for 200 MB). */
#define IO_FILE_CHUNK (256 * 1024)
/* Writes (and reads where RWF_NOWAIT is missing) of a local file up to this
 * size stay inline; see the benchmark in benchmarks/php/files.php. */
#define IO_FILE_INLINE (64 * 1024)

static php_stream_ops orig_ops;
static bool ops_patched;

/* ------------------------------------------------------ per-stream state */

/* What a few streams need beyond the flag bits. Persistent memory: streams
 * still open at the end of the request close after RSHUTDOWN. */
typedef struct io_stdio_state {
	struct timeval timeout;   /* stream_set_timeout(), when has_timeout */
	bool has_timeout;
	bool timed_out;
	bool abandon;             /* close without waiting for the child */
	pid_t child;              /* io_proc.c's child, reaped at close; 0: none */
} io_stdio_state;

ZEND_TLS HashTable io_states;
ZEND_TLS bool io_states_ready;

static void io_state_dtor(zval *zv)
{
	free(Z_PTR_P(zv));
}

static io_stdio_state *io_state_find(php_stream *stream)
{
	if (!(stream->flags & IO_STDIO_STATE) || !io_states_ready) {
		return NULL;
	}
	return zend_hash_index_find_ptr(&io_states, (zend_ulong) (uintptr_t) stream);
}

static io_stdio_state *io_state_get(php_stream *stream)
{
	io_stdio_state *s = io_state_find(stream);
	if (s != NULL) {
		return s;
	}
	if (!io_states_ready) {
		zend_hash_init(&io_states, 8, NULL, io_state_dtor, 1);
		io_states_ready = true;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		return NULL;
	}
	zend_hash_index_update_ptr(&io_states, (zend_ulong) (uintptr_t) stream, s);
	stream->flags |= IO_STDIO_STATE;
	return s;
}

/* Removes the state of stream; *out receives a copy when not NULL. */
static void io_state_drop(php_stream *stream, io_stdio_state *out)
{
	io_stdio_state *s = io_state_find(stream);
	if (out != NULL) {
		if (s != NULL) {
			*out = *s;
		} else {
			memset(out, 0, sizeof(*out));
		}
	}
	if (s != NULL) {
		zend_hash_index_del(&io_states, (zend_ulong) (uintptr_t) stream);
	}
	stream->flags &= ~IO_STDIO_STATE;
}

void async_io_stdio_set_child(php_stream *stream, pid_t pid)
{
	io_stdio_state *s = io_state_get(stream);
	if (s != NULL) {
		s->child = pid;
	}
}

void async_io_stdio_abandon_child(php_stream *stream)
{
	io_stdio_state *s = io_state_find(stream);
	if (s != NULL) {
		s->abandon = true;
	}
}

bool async_io_stdio_was_cancelled(php_stream *stream)
{
	return (stream->flags & IO_STDIO_CANCELLED) != 0;
}

/* ------------------------------------------------------------- the kind */

/*
 * The stream's fd and kind (IO_STDIO_POLL, IO_STDIO_FILE or 0 when PHP's
 * own op must run: no fd, the FILE* layer in use, another kind of file).
 */
static unsigned io_kind(php_stream *stream, int *fdp)
{
	int fd = -1;
	if (stream->stdiocast != NULL || orig_ops.cast == NULL
			|| orig_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) != SUCCESS || fd < 0) {
		return 0;
	}
	*fdp = fd;
	if (!(stream->flags & IO_STDIO_KNOWN)) {
		uint32_t k = IO_STDIO_KNOWN;
		zend_stat_t st;
		if (zend_fstat(fd, &st) == 0) {
			if (S_ISREG(st.st_mode)) {
				k |= IO_STDIO_FILE;
			} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)) {
				k |= IO_STDIO_POLL;
			}
		}
		stream->flags |= k;
	}
	return stream->flags & (IO_STDIO_POLL | IO_STDIO_FILE);
}

/* The filesystem class of a file stream (fd), async.file_offload applied. */
static async_io_fs_class io_file_class(php_stream *stream, int fd)
{
	switch (ASYNC_G(file_offload)) {
		case ASYNC_IO_OFFLOAD_ALWAYS:
			return ASYNC_IO_FS_REMOTE;
		case ASYNC_IO_OFFLOAD_NEVER:
			return ASYNC_IO_FS_MEMORY;
		default:
			break;
	}
	if (!(stream->flags & IO_STDIO_CLASSED)) {
		zend_stat_t st;
		if (zend_fstat(fd, &st) == 0) {
			switch (async_io_fs_of_dev(st.st_dev)) {
				case ASYNC_IO_FS_REMOTE:
					stream->flags |= IO_STDIO_REMOTE;
					break;
				case ASYNC_IO_FS_MEMORY:
					stream->flags |= IO_STDIO_MEMORY;
					break;
				default:
					break;
			}
		}
		stream->flags |= IO_STDIO_CLASSED;
	}
	return (stream->flags & IO_STDIO_REMOTE) ? ASYNC_IO_FS_REMOTE
		: (stream->flags & IO_STDIO_MEMORY) ? ASYNC_IO_FS_MEMORY : ASYNC_IO_FS_LOCAL;
}

static bool io_fd_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl == -1 || !(fl & O_NONBLOCK);
}

/* ------------------------------------------------------- read target */

/* ------------------------------------------------------ waits and turns */

static bool io_stream_closing(php_stream *stream)
{
	async_io_busy *b = async_io_busy_find(stream);
	return b != NULL && b->closing;
}

/* Waits until fd is ready for events, counted as a user of stream. */
static async_io_status io_wait_on(php_stream *stream, int fd, unsigned events, uint64_t deadline)
{
	async_io_busy *b = async_io_busy_enter(stream);
	if (b->closing) {
		async_io_busy_leave(b);
		return ASYNC_IO_CLOSED;
	}
	stream->flags |= IO_STDIO_WATCHED;
	async_io_status st = async_io_wait_fd(fd, events, deadline, NULL);
	async_io_busy_check_gone(b);
	bool closing = b->closing;
	async_io_busy_leave(b);
	return closing && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

static void io_write_turn_end(php_stream *stream, tasync_coroutine_t *self)
{
	async_io_busy *b = async_io_busy_find(stream);
	if (b != NULL && b->writer == self) {
		b->writer = NULL;
		async_io_busy_signal(b);
		async_io_busy_release(b);
	}
}

/* Waits while another coroutine holds the stream's write turn. */
static async_io_status io_write_turn_wait(php_stream *stream, tasync_coroutine_t *self, uint64_t deadline)
{
	async_io_busy *b;
	while ((b = async_io_busy_find(stream)) != NULL && b->writer != NULL && b->writer != self) {
		if (b->closing) {
			return ASYNC_IO_CLOSED;
		}
		async_io_status st = async_io_busy_wait(b, deadline, true);
		async_io_busy_check_gone(b);
		bool closing = b->closing;
		async_io_busy_release(b);
		if (st != ASYNC_IO_READY) {
			return st;
		}
		if (closing) {
			return ASYNC_IO_CLOSED;
		}
	}
	return b != NULL && b->closing ? ASYNC_IO_CLOSED : ASYNC_IO_READY;
}

static void io_failed(php_stream *stream, const char *what, size_t count, int err)
{
	if (!(stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS)) {
		php_error_docref(NULL, E_NOTICE, "%s of %zu bytes failed with errno=%d %s", what, count, err, strerror(err));
	}
}

/* The deadline of stream_set_timeout() for a pipe, or 0; clears timed_out. */
static uint64_t io_pipe_deadline(php_stream *stream)
{
	io_stdio_state *s = io_state_find(stream);
	if (s == NULL) {
		return 0;
	}
	s->timed_out = false;
	return s->has_timeout ? async_io_deadline(&s->timeout) : 0;
}

static void io_pipe_timed_out(php_stream *stream)
{
	io_stdio_state *s = io_state_find(stream);
	if (s != NULL) {
		s->timed_out = true;
	}
}

/* A wait that did not end with readiness, as a read or write sees it. */
static ssize_t io_wait_failed(php_stream *stream, const char *what, size_t count, async_io_status st)
{
	switch (st) {
		case ASYNC_IO_CLOSED:
			stream->eof = 1;
			return -1;
		case ASYNC_IO_CANCELLED:
			stream->flags |= IO_STDIO_CANCELLED;
			io_failed(stream, what, count, ECANCELED);
			return -1;
		default:
			return -1;
	}
}

/* ------------------------------------------------------------------ pipes */

static ssize_t io_pipe_read(php_stream *stream, int fd, char *buf, size_t count)
{
	if (io_stream_closing(stream)) {
		stream->eof = 1;
		return -1;
	}
	async_io_target t;
	async_io_target_init(&t, stream, buf, count);
	uint64_t deadline = io_pipe_deadline(stream);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, 0);
		if (n != 0 || !io_fd_blocking(fd)) {
			/* Data, end of file, an error, or a non-blocking fd: PHP's read
			 * returns at once. */
			if (t.count == 0) {
				return 0; /* another reader filled the buffer meanwhile */
			}
			return async_io_target_result(&t, orig_ops.read(stream, t.buf, t.count));
		}
		async_io_status st = io_wait_on(stream, fd, TASYNC_IO_READABLE, deadline);
		switch (st) {
			case ASYNC_IO_READY:
				async_io_target_refresh(&t);
				continue;
			case ASYNC_IO_TIMEOUT:
				io_pipe_timed_out(stream);
				return 0;
			case ASYNC_IO_UNSUPPORTED:
				async_io_target_refresh(&t);
				return t.count == 0 ? 0 : async_io_target_result(&t, orig_ops.read(stream, t.buf, t.count));
			default:
				return io_wait_failed(stream, "Read", count, st);
		}
	}
}

static ssize_t io_pipe_write(php_stream *stream, int fd, const char *buf, size_t count, tasync_coroutine_t *self)
{
	uint64_t deadline = io_pipe_deadline(stream);
	async_io_status st = io_write_turn_wait(stream, self, deadline);
	if (st == ASYNC_IO_READY) {
		for (;;) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			int n = poll(&p, 1, 0);
			if (n != 0 || !io_fd_blocking(fd)) {
				/* At most PIPE_BUF bytes fit a writable pipe without
				 * blocking; the stream layer writes the rest next. */
				io_write_turn_end(stream, self);
				return orig_ops.write(stream, buf, n != 0 && count > PIPE_BUF ? PIPE_BUF : count);
			}
			async_io_busy *b = async_io_busy_enter(stream);
			if (b->closing) {
				async_io_busy_leave(b);
				st = ASYNC_IO_CLOSED;
				break;
			}
			b->writer = self;
			stream->flags |= IO_STDIO_WATCHED;
			st = async_io_wait_fd(fd, TASYNC_IO_WRITABLE, deadline, NULL);
			async_io_busy_check_gone(b);
			if (b->closing && st != ASYNC_IO_ABORTED) {
				st = ASYNC_IO_CLOSED;
			}
			async_io_busy_leave(b);
			if (st != ASYNC_IO_READY) {
				break;
			}
		}
	}
	io_write_turn_end(stream, self);
	switch (st) {
		case ASYNC_IO_TIMEOUT:
			io_pipe_timed_out(stream);
			return 0; /* as a non-blocking write that found no room */
		case ASYNC_IO_UNSUPPORTED:
			return orig_ops.write(stream, buf, count);
		case ASYNC_IO_CLOSED:
			io_failed(stream, "Write", count, EBADF);
			return -1;
		default:
			return io_wait_failed(stream, "Write", count, st);
	}
}

/* ------------------------------------------------------------ plain files */

/*
 * One read or write of a file through the backend (io_uring natively, the
 * pool otherwise) at the fd's position. Returns the bytes moved or -errno
 * of the system call; *status tells a wait that ended otherwise.
 */
ssize_t async_io_file_op(int opcode, int fd, void *buf, size_t len, int64_t offset, uint32_t op_flags,
		async_io_status *status)
{
	tasync_op_t op;
	memset(&op, 0, sizeof(op));
	op.size = sizeof(op);
	op.opcode = (uint16_t) opcode;
	op.fd = fd;
	op.buf = buf;
	op.len = len;
	op.offset = offset;
	op.op_flags = op_flags;
	void *err = NULL;
	int rc = tasync_await_op(ASYNC_G(rt), &op, NULL, &err);
	if (rc >= 0 || (rc > TASYNC_ERROR_RANGE_HIGH && rc != -ECANCELED)) {
		/* Done, or the system call failed: a result, not a wait's end. */
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		*status = async_after_switch() ? ASYNC_IO_READY : ASYNC_IO_ABORTED;
		return rc;
	}
	*status = async_io_after_wait(rc, err);
	return -ECANCELED;
}

/* Inline plain-file work (reads the page cache serves) may hold the thread
 * this long before the coroutine lets the others run. */
#define IO_INLINE_SLICE_NS (2 * 1000 * 1000)
ZEND_TLS uint64_t io_slice_start;

async_io_status async_io_inline_slice(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	uint64_t now = tasync_runtime_now(rt);
	if (io_slice_start == 0 || now - io_slice_start > 10 * IO_INLINE_SLICE_NS) {
		/* The first inline call in a while: its slice starts now. */
		io_slice_start = now;
		return ASYNC_IO_READY;
	}
	if (now - io_slice_start < IO_INLINE_SLICE_NS) {
		return ASYNC_IO_READY;
	}
	void *err = NULL;
	int rc = tasync_yield(rt, &err);
	io_slice_start = tasync_runtime_now(rt);
	return async_io_after_wait(rc, err);
}

/* A read the page cache could not serve: through the backend. */
static ssize_t io_file_read_backend(php_stream *stream, int fd, char *buf, size_t count)
{
	async_io_target t;
	async_io_target_init(&t, stream, buf, count);
	size_t len = count > IO_FILE_CHUNK ? IO_FILE_CHUNK : count;
	/* The stream's buffer may move while the backend works: read into one
	 * of this call. */
	char *into = t.in_readbuf ? emalloc(len) : buf;
	async_io_busy *b = async_io_busy_enter(stream);
	stream->flags |= IO_STDIO_WATCHED;
	async_io_status st;
	ssize_t n = async_io_file_op(TASYNC_OP_READ, fd, into, len, TASYNC_OFFSET_CURRENT, 0, &st);
	async_io_busy_check_gone(b);
	async_io_busy_leave(b);
	if (st == ASYNC_IO_READY && n == 0) {
		stream->eof = 1;
	}
	if (st == ASYNC_IO_READY && n > 0 && into != buf) {
		async_io_target_refresh(&t);
		/* The buffer shrank below what was read: keep what fits (another
		 * reader moved it; such sharing is undefined anyway). */
		size_t fit = (size_t) n < t.count ? (size_t) n : t.count;
		memcpy(t.buf, into, fit);
		n = async_io_target_result(&t, (ssize_t) fit);
	}
	if (into != buf) {
		efree(into);
	}
	if (st != ASYNC_IO_READY) {
		return io_wait_failed(stream, "Read", count, st);
	}
	if (n < 0) {
		int err = (int) -n;
		if (err == EAGAIN || err == EWOULDBLOCK) {
			return 0;
		}
		io_failed(stream, "Read", count, err);
		if (err != EBADF) {
			stream->eof = 1;
		}
		return -1;
	}
	return n;
}

static ssize_t io_file_read(php_stream *stream, int fd, char *buf, size_t count)
{
	async_io_fs_class cls = io_file_class(stream, fd);
	if (cls == ASYNC_IO_FS_MEMORY) {
		return orig_ops.read(stream, buf, count);
	}
	if (cls == ASYNC_IO_FS_LOCAL) {
		/* A long run of reads the page cache serves must still let the
		 * others run (fread() of a large cached file loops here). */
		async_io_target t;
		async_io_target_init(&t, stream, buf, count);
		async_io_status st = async_io_inline_slice();
		if (st != ASYNC_IO_READY) {
			return io_wait_failed(stream, "Read", count, st);
		}
		async_io_target_refresh(&t);
		if (t.count == 0) {
			return 0;
		}
		buf = t.buf;
		count = t.count;
#ifdef RWF_NOWAIT
		if (!(stream->flags & IO_STDIO_NO_NOWAIT)) {
			/* Bounded too: a RWF_NOWAIT read that finds pages under
			 * readahead may wait for them (measured: 5.4 s for one read of
			 * 200 MB on a cold cache). */
			struct iovec iov = { .iov_base = buf, .iov_len = count > IO_FILE_CHUNK ? IO_FILE_CHUNK : count };
			ssize_t n = preadv2(fd, &iov, 1, -1, RWF_NOWAIT);
			if (n >= 0) {
				if (n == 0) {
					stream->eof = 1;
				}
				return async_io_target_result(&t, n);
			}
			if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
				stream->flags |= IO_STDIO_NO_NOWAIT;
			} else if (errno != EAGAIN) {
				return async_io_target_result(&t, orig_ops.read(stream, buf, count)); /* PHP reports it */
			} else {
				return async_io_target_result(&t, io_file_read_backend(stream, fd, buf, count));
			}
		}
#endif
		if (count <= IO_FILE_INLINE) {
			return async_io_target_result(&t, orig_ops.read(stream, buf, count));
		}
		return async_io_target_result(&t, io_file_read_backend(stream, fd, buf, count));
	}
	return io_file_read_backend(stream, fd, buf, count);
}

static ssize_t io_file_write(php_stream *stream, int fd, const char *buf, size_t count, tasync_coroutine_t *self)
{
	async_io_fs_class cls = io_file_class(stream, fd);
	if (cls == ASYNC_IO_FS_MEMORY || (cls == ASYNC_IO_FS_LOCAL && count <= IO_FILE_INLINE)) {
		return orig_ops.write(stream, buf, count);
	}
	async_io_status st = io_write_turn_wait(stream, self, 0);
	if (st != ASYNC_IO_READY) {
		return io_wait_failed(stream, "Write", count, st);
	}
	size_t len = count > IO_FILE_CHUNK ? IO_FILE_CHUNK : count;
	async_io_busy *b = async_io_busy_enter(stream);
	b->writer = self;
	stream->flags |= IO_STDIO_WATCHED;
	ssize_t n = async_io_file_op(TASYNC_OP_WRITE, fd, (void *) buf, len, TASYNC_OFFSET_CURRENT, 0, &st);
	async_io_busy_check_gone(b);
	async_io_busy_leave(b);
	io_write_turn_end(stream, self);
	if (st != ASYNC_IO_READY) {
		return io_wait_failed(stream, "Write", count, st);
	}
	if (n < 0) {
		int err = (int) -n;
		if (err == EAGAIN || err == EWOULDBLOCK) {
			return 0;
		}
		io_failed(stream, "Write", count, err);
		return -1;
	}
	return n;
}

/* ----------------------------------------------------------------- the ops */

/* The engine is reading a script to compile it (include, require, an
 * autoloader's require). That read must not suspend: require_once has
 * recorded the file as included already, so another coroutine needing the
 * same class would skip the file and fail on a class not yet declared, and
 * a cancellation would end the read midway. The compile reads the file as
 * in plain PHP (from the page cache, as a rule). */
static bool io_compiling_include(void)
{
	const zend_execute_data *ex = EG(current_execute_data);
	return ex != NULL && ex->func != NULL && ZEND_USER_CODE(ex->func->common.type) && ex->opline != NULL
		&& ex->opline->opcode == ZEND_INCLUDE_OR_EVAL;
}

static ssize_t io_stdio_read(php_stream *stream, char *buf, size_t count)
{
	int fd;
	unsigned kind;
	if (count == 0 || async_io_coroutine() == NULL || (kind = io_kind(stream, &fd)) == 0) {
		return orig_ops.read(stream, buf, count);
	}
	if (!(kind & IO_STDIO_POLL) && io_compiling_include()) {
		return orig_ops.read(stream, buf, count);
	}
	return (kind & IO_STDIO_POLL) ? io_pipe_read(stream, fd, buf, count) : io_file_read(stream, fd, buf, count);
}

static ssize_t io_stdio_write(php_stream *stream, const char *buf, size_t count)
{
	int fd;
	unsigned kind;
	tasync_coroutine_t *self;
	if (count == 0 || (self = async_io_coroutine()) == NULL || (kind = io_kind(stream, &fd)) == 0) {
		return orig_ops.write(stream, buf, count);
	}
	return (kind & IO_STDIO_POLL) ? io_pipe_write(stream, fd, buf, count, self)
		: io_file_write(stream, fd, buf, count, self);
}

/* ------------------------------------------------------------------ flock */

/* Completed (and replaced) whenever a file lock of this process is released. */
ZEND_TLS tasync_awaitable_t *io_lock_released;

static void io_lock_release_signal(void)
{
	if (io_lock_released != NULL) {
		tasync_awaitable_t *aw = io_lock_released;
		io_lock_released = NULL;
		tasync_future_resolve(aw, NULL);
		tasync_awaitable_release(aw);
	}
}

typedef struct io_flock_job {
	int fd;
	int op;
	int rc;
	int err;
} io_flock_job;

static void io_flock_work(void *data)
{
	io_flock_job *j = data;
	j->rc = flock(j->fd, j->op);
	j->err = j->rc == 0 ? 0 : errno;
}

/*
 * A blocking flock(fd, value) inside a coroutine: tries with LOCK_NB (on
 * the pool for remote files) and waits between tries. Returns 0 or -1 with
 * errno set as flock() sets it; a cancellation sets EINTR (flock() then
 * returns false without $would_block).
 */
static int io_flock_wait(php_stream *stream, int fd, int value)
{
	bool remote = (stream->flags & IO_STDIO_FILE) && io_file_class(stream, fd) == ASYNC_IO_FS_REMOTE;
	uint64_t backoff = 1000000; /* 1 ms */
	for (;;) {
		int rc;
		if (remote) {
			io_flock_job j = { fd, value | LOCK_NB, -1, 0 };
			async_io_status st = async_io_offload(io_flock_work, &j);
			if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_ABORTED) {
				if (j.rc == 0) {
					flock(fd, LOCK_UN); /* it ran to its end: not ours to keep */
				}
				stream->flags |= IO_STDIO_CANCELLED;
				errno = EINTR;
				return -1;
			}
			if (st != ASYNC_IO_READY) {
				return orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
			}
			rc = j.rc;
			errno = j.err;
		} else {
			rc = flock(fd, value | LOCK_NB);
		}
		if (rc == 0) {
			/* PHP's bookkeeping of the lock: the same call, which now
			 * cannot block (this description holds the lock). */
			return orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			return -1;
		}
		/* Held elsewhere: until a lock of this process is released, or the
		 * next try for other processes' locks. */
		if (io_lock_released == NULL && tasync_future_create(ASYNC_G(rt), &io_lock_released) != 0) {
			io_lock_released = NULL;
			return orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
		}
		tasync_awaitable_t *aw = io_lock_released;
		tasync_awaitable_retain(aw);
		async_io_busy *b = async_io_busy_enter(stream);
		async_io_status st = b->closing ? ASYNC_IO_CLOSED
			: async_io_await(aw, tasync_runtime_now(ASYNC_G(rt)) + backoff);
		async_io_busy_check_gone(b);
		if (b->closing && st != ASYNC_IO_ABORTED) {
			st = ASYNC_IO_CLOSED;
		}
		async_io_busy_leave(b);
		tasync_awaitable_release(aw);
		switch (st) {
			case ASYNC_IO_READY:
				break;
			case ASYNC_IO_TIMEOUT:
				if (backoff < 50000000) {
					backoff *= 2;
				}
				break;
			case ASYNC_IO_UNSUPPORTED:
				return orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
			default:
				stream->flags |= IO_STDIO_CANCELLED;
				errno = st == ASYNC_IO_CLOSED ? EBADF : EINTR;
				return -1;
		}
	}
}

/* ------------------------------------------------------------- set_option */

typedef struct io_trunc_job {
	int fd;
	off_t size;
	int rc;
} io_trunc_job;

static void io_trunc_work(void *data)
{
	io_trunc_job *j = data;
	j->rc = ftruncate(j->fd, j->size) == 0 ? 0 : -errno;
}

static int io_stdio_set_option(php_stream *stream, int option, int value, void *ptrparam)
{
	int fd = -1;
	switch (option) {
		case PHP_STREAM_OPTION_READ_TIMEOUT:
			/* Pipes honour stream_set_timeout() inside coroutines (plain PHP
			 * refuses it for them; outside coroutines it still does). */
			if (ptrparam != NULL && async_io_coroutine() != NULL && (io_kind(stream, &fd) & IO_STDIO_POLL)) {
				io_stdio_state *s = io_state_get(stream);
				if (s != NULL) {
					s->timeout = *(struct timeval *) ptrparam;
					s->has_timeout = true;
					s->timed_out = false;
					return PHP_STREAM_OPTION_RETURN_OK;
				}
			}
			break;
		case PHP_STREAM_OPTION_META_DATA_API: {
			int rc = orig_ops.set_option(stream, option, value, ptrparam);
			io_stdio_state *s = io_state_find(stream);
			if (rc == PHP_STREAM_OPTION_RETURN_OK && s != NULL && s->timed_out) {
				add_assoc_bool((zval *) ptrparam, "timed_out", 1);
			}
			return rc;
		}
		case PHP_STREAM_OPTION_LOCKING: {
			if ((uintptr_t) ptrparam == PHP_STREAM_LOCK_SUPPORTED) {
				break;
			}
			int rc;
			if ((value & LOCK_NB) || (value & LOCK_UN) || async_io_coroutine() == NULL || io_kind(stream, &fd) == 0) {
				rc = orig_ops.set_option(stream, option, value, ptrparam);
			} else {
				rc = io_flock_wait(stream, fd, value);
			}
			if (rc == 0) {
				if (value & LOCK_UN) {
					stream->flags &= ~IO_STDIO_LOCKED;
					io_lock_release_signal();
				} else {
					stream->flags |= IO_STDIO_LOCKED;
				}
			}
			return rc;
		}
		case PHP_STREAM_OPTION_MMAP_API:
			/* Page faults of a mapping block the thread where the read ops
			 * would wait: inside coroutines, copy(), readfile() and
			 * fpassthru() read through the ops. */
			if (value != PHP_STREAM_MMAP_UNMAP && async_io_coroutine() != NULL
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && io_file_class(stream, fd) != ASYNC_IO_FS_MEMORY) {
				return PHP_STREAM_OPTION_RETURN_ERR;
			}
			break;
		case PHP_STREAM_OPTION_TRUNCATE_API:
			if (value == PHP_STREAM_TRUNCATE_SET_SIZE && ptrparam != NULL && async_io_coroutine() != NULL
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && io_file_class(stream, fd) == ASYNC_IO_FS_REMOTE) {
				ptrdiff_t size = *(ptrdiff_t *) ptrparam;
				if (size < 0) {
					return PHP_STREAM_OPTION_RETURN_ERR;
				}
				io_trunc_job j = { fd, (off_t) size, -1 };
				async_io_status st = async_io_offload(io_trunc_work, &j);
				if (st != ASYNC_IO_UNSUPPORTED) {
					if (st != ASYNC_IO_READY) {
						stream->flags |= IO_STDIO_CANCELLED;
					}
					return st == ASYNC_IO_READY && j.rc == 0 ? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_ERR;
				}
			}
			break;
		case PHP_STREAM_OPTION_SYNC_API:
			if ((value == PHP_STREAM_SYNC_FSYNC || value == PHP_STREAM_SYNC_FDSYNC) && async_io_coroutine() != NULL
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && io_file_class(stream, fd) != ASYNC_IO_FS_MEMORY) {
				/* As PHP's sync: through the FILE* layer, flushed, then the
				 * fsync through the backend. */
				FILE *fp = NULL;
				if (php_stream_cast(stream, PHP_STREAM_AS_STDIO, (void **) &fp, REPORT_ERRORS) == FAILURE
						|| fflush(fp) != 0) {
					return PHP_STREAM_OPTION_RETURN_ERR;
				}
				async_io_status st;
				ssize_t n = async_io_file_op(TASYNC_OP_FSYNC, fileno(fp), NULL, 0, 0,
					value == PHP_STREAM_SYNC_FDSYNC ? TASYNC_FSYNC_DATASYNC : 0, &st);
				if (st != ASYNC_IO_READY) {
					stream->flags |= IO_STDIO_CANCELLED;
				}
				return st == ASYNC_IO_READY && n == 0 ? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_ERR;
			}
			break;
		default:
			break;
	}
	return orig_ops.set_option(stream, option, value, ptrparam);
}

/* ------------------------------------------------------------------ close */

/*
 * Lets the coroutines waiting on stream leave it before PHP frees it:
 * their waits on the fd end (the fd is forgotten), operations in the
 * backend run to their end, and the closer waits until none is inside.
 * False when that cannot be waited for here.
 */
static bool io_quiesce(php_stream *stream, int fd)
{
	async_io_busy *b = async_io_busy_find(stream);
	if (b == NULL) {
		return true;
	}
	if (fd >= 0 && ASYNC_G(rt) != NULL && b->users > 0) {
		tasync_fd_forget(ASYNC_G(rt), fd);
	}
	if (b->users > 0) {
		io_lock_release_signal(); /* a flock() waiting on it looks again */
	}
	if (async_io_busy_drain(b)) {
		async_io_busy_detach(b);
		async_io_busy_release(b);
		return true;
	}
	/* Users that cannot be waited for from here: they never return into
	 * the stream PHP frees now. */
	async_io_busy_orphan(b);
	return false;
}

static int io_stdio_close(php_stream *stream, int close_handle)
{
	int fd = -1;
	if (orig_ops.cast != NULL) {
		orig_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd);
	}
	if (!io_quiesce(stream, fd) && fd >= 0 && ASYNC_G(rt) != NULL) {
		/* Waiters that cannot be waited for from here: at least their fd
		 * waits end before the fd goes. */
		tasync_fd_forget(ASYNC_G(rt), fd);
	}
	if (close_handle && fd >= 0 && (stream->flags & IO_STDIO_WATCHED) && ASYNC_G(rt) != NULL) {
		tasync_fd_forget(ASYNC_G(rt), fd);
	}
	bool locked = (stream->flags & IO_STDIO_LOCKED) != 0;
	io_stdio_state state;
	io_state_drop(stream, &state);
	int ret = orig_ops.close(stream, close_handle);
	if (locked && close_handle) {
		io_lock_release_signal();
	}
	if (state.child > 0 && close_handle) {
		ret = async_io_proc_reap(state.child, !state.abandon);
	}
	return ret;
}

/* fclose() from where a coroutine cannot wait, of a stream others wait on,
 * is refused (the others would resume on freed memory). */
static zif_handler orig_fclose;

static ZEND_NAMED_FUNCTION(async_io_stdio_fclose)
{
	if (ASYNC_G(rt) != NULL && ZEND_NUM_ARGS() >= 1 && async_io_coroutine() == NULL) {
		zval *arg = ZEND_CALL_ARG(execute_data, 1);
		ZVAL_DEREF(arg);
		if (Z_TYPE_P(arg) == IS_RESOURCE) {
			php_stream *stream = zend_fetch_resource2(Z_RES_P(arg), NULL, php_file_le_stream(), php_file_le_pstream());
			async_io_busy *b;
			if (stream != NULL && stream->ops == &php_stream_stdio_ops && (b = async_io_busy_find(stream)) != NULL
					&& (b->users > 0 || b->writer != NULL)) {
				php_error_docref(NULL, E_WARNING, "Cannot close a stream other coroutines are waiting on from here");
				RETURN_FALSE;
			}
		}
	}
	orig_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------- module */

void async_io_stdio_startup(void)
{
	if (php_stream_stdio_ops.read == NULL || php_stream_stdio_ops.write == NULL || php_stream_stdio_ops.close == NULL
			|| php_stream_stdio_ops.set_option == NULL) {
		return;
	}
	orig_ops = php_stream_stdio_ops;
	php_stream_stdio_ops.read = io_stdio_read;
	php_stream_stdio_ops.write = io_stdio_write;
	php_stream_stdio_ops.close = io_stdio_close;
	php_stream_stdio_ops.set_option = io_stdio_set_option;
	ops_patched = true;
	orig_fclose = async_io_hook("fclose", async_io_stdio_fclose);
}

void async_io_stdio_request_shutdown(void)
{
	/* The runtime goes: lock waiters are gone with it. */
	if (io_lock_released != NULL) {
		tasync_awaitable_release(io_lock_released);
		io_lock_released = NULL;
	}
}

void async_io_stdio_shutdown(void)
{
	if (ops_patched && php_stream_stdio_ops.read == io_stdio_read) {
		php_stream_stdio_ops.read = orig_ops.read;
		php_stream_stdio_ops.write = orig_ops.write;
		php_stream_stdio_ops.close = orig_ops.close;
		php_stream_stdio_ops.set_option = orig_ops.set_option;
	}
	ops_patched = false;
	if (io_states_ready) {
		zend_hash_destroy(&io_states);
		io_states_ready = false;
	}
}
