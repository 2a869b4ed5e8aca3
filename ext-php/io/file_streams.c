/*
 * io/file_streams.c - plain files opened with fopen() & co. inside
 * coroutines (rule C18), through stdio.c's patched ops, and flock() of
 * every stdio stream.
 *
 * Which calls may stall is the class of the file's filesystem
 * (io/filesystems.c, async.file_offload):
 *  - read: preadv2(RWF_NOWAIT) serves data the page cache holds, inline, at
 *    the cost of a read(); what it cannot serve is read through the backend
 *    (io_uring natively, others on the pool) at most IO_FILE_CHUNK bytes at
 *    a time into a buffer of the call, then copied where the stream wants
 *    it. Where the filesystem has no RWF_NOWAIT, reads up to
 *    IO_FILE_INLINE bytes stay inline on a local disk. Remote files always
 *    go through the backend. A long run of inline reads lets the other
 *    coroutines run every 2 ms (async_io_inline_slice).
 *  - write: up to IO_FILE_INLINE bytes inline on a local disk (the page
 *    cache takes them), larger writes and writes to remote files through
 *    the backend, IO_FILE_CHUNK bytes at a time.
 *  - flock(): a blocking lock is tried with LOCK_NB; while another holder
 *    keeps it the coroutine waits (for an unlock or close of a file by this
 *    process, or a delay growing from 1 ms to 50 ms for other processes)
 *    and tries again.
 * fsync(), ftruncate() and the mmap refusal are options of the ops, in
 * stdio.c.
 */
#include "io/file_streams.h"

#include "io/busy.h"
#include "io/filesystems.h"
#include "io/hooks.h"
#include "io/read_target.h"
#include "io/stdio.h"
#include "io/wait.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "ext/standard/flock_compat.h"

#include <errno.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>

/* Plain-file operations through the backend move at most this much at a
 * time: io_uring copies a buffered read it completes in the submitting
 * thread, so one huge read stalls it (measured: 0.9 s for 200 MB). */
#define IO_FILE_CHUNK (256 * 1024)
/* Writes (and reads where RWF_NOWAIT is missing) of a local file up to this
 * size stay inline; see the benchmark in benchmarks/php/files.php. */
#define IO_FILE_INLINE (64 * 1024)

/* The filesystem class of a file stream (fd), async.file_offload applied. */
async_io_fs_class async_io_file_stream_class(php_stream *stream, int fd)
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
		return async_io_stdio_wait_failed(stream, "Read", count, st);
	}
	if (n < 0) {
		int err = (int) -n;
		if (err == EAGAIN || err == EWOULDBLOCK) {
			return 0;
		}
		async_io_stdio_failed(stream, "Read", count, err);
		if (err != EBADF) {
			stream->eof = 1;
		}
		return -1;
	}
	return n;
}

ssize_t async_io_file_stream_read(php_stream *stream, int fd, char *buf, size_t count)
{
	async_io_fs_class cls = async_io_file_stream_class(stream, fd);
	if (cls == ASYNC_IO_FS_MEMORY) {
		/* Bounded and sliced as on a local disk, without RWF_NOWAIT (a
		 * memory filesystem never waits for a device). */
		async_io_target t;
		async_io_target_init(&t, stream, buf, count);
		async_io_status st = async_io_inline_slice();
		if (st != ASYNC_IO_READY) {
			return async_io_stdio_wait_failed(stream, "Read", count, st);
		}
		async_io_target_refresh(&t);
		if (t.count == 0) {
			return 0;
		}
		return async_io_target_result(&t, async_io_stdio_orig_ops.read(stream, t.buf,
			t.count > IO_FILE_CHUNK ? IO_FILE_CHUNK : t.count));
	}
	if (cls == ASYNC_IO_FS_LOCAL) {
		/* A long run of reads the page cache serves must still let the
		 * others run (fread() of a large cached file loops here). */
		async_io_target t;
		async_io_target_init(&t, stream, buf, count);
		async_io_status st = async_io_inline_slice();
		if (st != ASYNC_IO_READY) {
			return async_io_stdio_wait_failed(stream, "Read", count, st);
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
				return async_io_target_result(&t, async_io_stdio_orig_ops.read(stream, buf, count)); /* PHP reports it */
			} else {
				return async_io_target_result(&t, io_file_read_backend(stream, fd, buf, count));
			}
		}
#endif
		if (count <= IO_FILE_INLINE) {
			return async_io_target_result(&t, async_io_stdio_orig_ops.read(stream, buf, count));
		}
		return async_io_target_result(&t, io_file_read_backend(stream, fd, buf, count));
	}
	return io_file_read_backend(stream, fd, buf, count);
}

ssize_t async_io_file_stream_write(php_stream *stream, int fd, const char *buf, size_t count, tasync_coroutine_t *self)
{
	async_io_fs_class cls = async_io_file_stream_class(stream, fd);
	async_io_status st;
	if (cls == ASYNC_IO_FS_MEMORY || (cls == ASYNC_IO_FS_LOCAL && count <= IO_FILE_INLINE)) {
		/* A loop of small writes (fputcsv(), stream_copy_to_stream()'s 8 KiB
		 * pieces, a memory filesystem) must let the others run too: 50 MB
		 * of them held the thread for 200-450 ms. */
		st = async_io_inline_slice();
		if (st != ASYNC_IO_READY) {
			return async_io_stdio_wait_failed(stream, "Write", count, st);
		}
		if (cls == ASYNC_IO_FS_MEMORY && count > IO_FILE_CHUNK) {
			count = IO_FILE_CHUNK; /* the stream layer writes the rest: another slice */
		}
		return async_io_stdio_orig_ops.write(stream, buf, count);
	}
	st = async_io_stdio_write_turn_wait(stream, self, 0);
	if (st != ASYNC_IO_READY) {
		return async_io_stdio_wait_failed(stream, "Write", count, st);
	}
	size_t len = count > IO_FILE_CHUNK ? IO_FILE_CHUNK : count;
	async_io_busy *b = async_io_busy_enter(stream);
	b->writer = self;
	ssize_t n = async_io_file_op(TASYNC_OP_WRITE, fd, (void *) buf, len, TASYNC_OFFSET_CURRENT, 0, &st);
	async_io_busy_check_gone(b);
	async_io_busy_leave(b);
	async_io_stdio_write_turn_end(stream, self);
	if (st != ASYNC_IO_READY) {
		return async_io_stdio_wait_failed(stream, "Write", count, st);
	}
	if (n < 0) {
		int err = (int) -n;
		if (err == EAGAIN || err == EWOULDBLOCK) {
			return 0;
		}
		async_io_stdio_failed(stream, "Write", count, err);
		return -1;
	}
	return n;
}

/* -------------------------------------------- copies between plain files */

/*
 * copy() and stream_copy_to_stream() between two plain files: PHP 8.2
 * hands the whole copy to one copy_file_range() before anything else (50
 * MB: one system call that held the thread for 15-50 ms here, and for as
 * long as the device takes on a slow disk). Inside a coroutine the two
 * streams refuse to be cast to an fd while such a copy starts (stdio.c's
 * cast asks async_io_file_stream_copying), so PHP copies through the
 * streams' reads and writes, which are bounded and sliced (above), mmap
 * being refused as well. The coroutines inside such a call are kept in a
 * small table: another coroutine's casts are not refused meanwhile.
 */
#define IO_COPIERS_MAX 64
ZEND_TLS tasync_coroutine_t *io_copiers[IO_COPIERS_MAX];
ZEND_TLS uint32_t io_copiers_count;

bool async_io_file_stream_copying(php_stream *stream)
{
	(void) stream;
	if (io_copiers_count == 0) {
		return false;
	}
	tasync_coroutine_t *self = async_io_coroutine();
	for (uint32_t i = 0; self != NULL && i < io_copiers_count; i++) {
		if (io_copiers[i] == self) {
			return true;
		}
	}
	return false;
}

static zif_handler orig_copy, orig_stream_copy_to_stream;

static void io_copy_call(zif_handler orig, INTERNAL_FUNCTION_PARAMETERS)
{
	tasync_coroutine_t *self = async_io_coroutine();
	if (self == NULL || io_copiers_count == IO_COPIERS_MAX) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	io_copiers[io_copiers_count++] = self;
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	/* Others may have entered and left meanwhile: take this one out. */
	for (uint32_t i = 0; i < io_copiers_count; i++) {
		if (io_copiers[i] == self) {
			io_copiers[i] = io_copiers[--io_copiers_count];
			break;
		}
	}
}

static ZEND_NAMED_FUNCTION(async_io_copy)
{
	io_copy_call(orig_copy, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_NAMED_FUNCTION(async_io_stream_copy_to_stream)
{
	io_copy_call(orig_stream_copy_to_stream, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_io_file_streams_startup(void)
{
	orig_copy = async_io_hook("copy", async_io_copy);
	orig_stream_copy_to_stream = async_io_hook("stream_copy_to_stream", async_io_stream_copy_to_stream);
}

/* ------------------------------------------------------------------ flock */

/* Completed (and replaced) whenever a file lock of this process is released. */
ZEND_TLS tasync_awaitable_t *io_lock_released;

void async_io_file_stream_unlocked(void)
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
int async_io_file_stream_lock(php_stream *stream, int fd, int value)
{
	bool remote = (stream->flags & IO_STDIO_FILE) && async_io_file_stream_class(stream, fd) == ASYNC_IO_FS_REMOTE;
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
				return async_io_stdio_orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
			}
			rc = j.rc;
			errno = j.err;
		} else {
			rc = flock(fd, value | LOCK_NB);
		}
		if (rc == 0) {
			/* PHP's bookkeeping of the lock: the same call, which now
			 * cannot block (this description holds the lock). */
			return async_io_stdio_orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			return -1;
		}
		/* Held elsewhere: until a lock of this process is released, or the
		 * next try for other processes' locks. */
		if (io_lock_released == NULL && tasync_future_create(ASYNC_G(rt), &io_lock_released) != 0) {
			io_lock_released = NULL;
			return async_io_stdio_orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
		}
		tasync_awaitable_t *aw = io_lock_released;
		tasync_awaitable_retain(aw);
		async_io_busy *b = async_io_busy_enter(stream);
		async_io_status st = async_io_busy_refused(b) ? ASYNC_IO_CLOSED
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
				return async_io_stdio_orig_ops.set_option(stream, PHP_STREAM_OPTION_LOCKING, value, NULL);
			default:
				stream->flags |= IO_STDIO_CANCELLED;
				errno = st == ASYNC_IO_CLOSED ? EBADF : EINTR;
				return -1;
		}
	}
}

/* ------------------------------------------------------------- request end */

void async_io_file_streams_request_shutdown(void)
{
	io_copiers_count = 0;
	if (io_lock_released != NULL) {
		tasync_awaitable_release(io_lock_released);
		io_lock_released = NULL;
	}
}
