/*
 * io/stdio.c - the streams of PHP's stdio ops inside coroutines (rule C18):
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
 * Plain files (io/file_streams.c): reads the page cache serves inline,
 * the rest through the backend; writes inline up to 64 KiB on local disks;
 * fsync()/fdatasync() through the backend; ftruncate() of remote files on
 * the pool; mmap (which copy(), readfile() and fpassthru() use) is refused
 * inside coroutines so that those read through the ops.
 * Every stdio stream:
 *  - flock() (and LOCK_EX of file_put_contents, SplFileObject::flock): a
 *    blocking lock waits in the coroutine (io/file_streams.c); cancellable,
 *    and LOCK_NB/$would_block behave as PHP documents.
 *  - close: coroutines waiting on the stream are woken (their call fails as
 *    on a closed stream) and the closer waits until they left it; the fd is
 *    forgotten by the runtime before PHP closes it; the child of a stream
 *    made by io/processes.c (popen, the exec family) is waited for and reaped,
 *    and its status becomes the close's result, as pclose() gives it.
 *
 * Cancellation (C18): a cancelled read or write fails with PHP's notice for
 * a failed read/write (errno ECANCELED) and -1, so fread()/fwrite() return
 * false; a cancelled flock() returns false without $would_block.
 */
#include "io/stdio.h"

#include "io/busy.h"
#include "io/families.h"
#include "io/file_streams.h"
#include "io/filesystems.h"
#include "io/hooks.h"
#include "io/read_target.h"
#include "io/wait.h"
#include "runtime/globals.h"

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

php_stream_ops async_io_stdio_orig_ops;
static bool ops_patched;

/* ------------------------------------------------------ per-stream state */

/* What a few streams need beyond the flag bits. Persistent memory: streams
 * still open at the end of the request close after RSHUTDOWN. */
typedef struct io_stdio_state {
	struct timeval timeout;   /* stream_set_timeout(), when has_timeout */
	bool has_timeout;
	bool timed_out;
	bool abandon;             /* close without waiting for the child */
	pid_t child;              /* io/processes.c's child, reaped at close; 0: none */
	int (*reap)(pid_t pid, bool wait); /* how: io/processes.c's async_io_proc_reap */
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

void async_io_stdio_set_child(php_stream *stream, pid_t pid, int (*reap)(pid_t pid, bool wait))
{
	io_stdio_state *s = io_state_get(stream);
	if (s != NULL) {
		s->child = pid;
		s->reap = reap;
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
	if (stream->stdiocast != NULL || async_io_stdio_orig_ops.cast == NULL
			|| async_io_stdio_orig_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) != SUCCESS || fd < 0) {
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

static bool io_fd_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl == -1 || !(fl & O_NONBLOCK);
}

/* ------------------------------------------------------ waits and turns */

static bool io_stream_closing(php_stream *stream)
{
	return async_io_busy_refused(async_io_busy_find(stream));
}

/* Waits until fd is ready for events, counted as a user of stream. */
static async_io_status io_wait_on(php_stream *stream, int fd, unsigned events, uint64_t deadline)
{
	async_io_busy *b = async_io_busy_enter(stream);
	if (async_io_busy_refused(b)) {
		async_io_busy_leave(b);
		return ASYNC_IO_CLOSED;
	}
	async_io_status st = async_io_wait_fd(fd, events, deadline, NULL);
	async_io_busy_check_gone(b);
	bool closing = b->closing;
	async_io_busy_leave(b);
	return closing && st != ASYNC_IO_ABORTED ? ASYNC_IO_CLOSED : st;
}

void async_io_stdio_write_turn_end(php_stream *stream, tasync_coroutine_t *self)
{
	async_io_busy *b = async_io_busy_find(stream);
	if (b != NULL && b->writer == self) {
		b->writer = NULL;
		async_io_busy_signal(b);
		async_io_busy_release(b);
	}
}

/* Waits while another coroutine holds the stream's write turn. */
async_io_status async_io_stdio_write_turn_wait(php_stream *stream, tasync_coroutine_t *self, uint64_t deadline)
{
	async_io_busy *b;
	while ((b = async_io_busy_find(stream)) != NULL && b->writer != NULL && b->writer != self) {
		if (async_io_busy_refused(b)) {
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

void async_io_stdio_failed(php_stream *stream, const char *what, size_t count, int err)
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
ssize_t async_io_stdio_wait_failed(php_stream *stream, const char *what, size_t count, async_io_status st)
{
	switch (st) {
		case ASYNC_IO_CLOSED:
			stream->eof = 1;
			return -1;
		case ASYNC_IO_CANCELLED:
			stream->flags |= IO_STDIO_CANCELLED;
			async_io_stdio_failed(stream, what, count, ECANCELED);
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
			return async_io_target_result(&t, async_io_stdio_orig_ops.read(stream, t.buf, t.count));
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
				return t.count == 0 ? 0 : async_io_target_result(&t, async_io_stdio_orig_ops.read(stream, t.buf, t.count));
			default:
				return async_io_stdio_wait_failed(stream, "Read", count, st);
		}
	}
}

static ssize_t io_pipe_write(php_stream *stream, int fd, const char *buf, size_t count, tasync_coroutine_t *self)
{
	uint64_t deadline = io_pipe_deadline(stream);
	async_io_status st = async_io_stdio_write_turn_wait(stream, self, deadline);
	if (st == ASYNC_IO_READY) {
		for (;;) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			int n = poll(&p, 1, 0);
			if (n != 0 || !io_fd_blocking(fd)) {
				/* At most PIPE_BUF bytes fit a writable pipe without
				 * blocking; the stream layer writes the rest next. */
				async_io_stdio_write_turn_end(stream, self);
				return async_io_stdio_orig_ops.write(stream, buf, n != 0 && count > PIPE_BUF ? PIPE_BUF : count);
			}
			async_io_busy *b = async_io_busy_enter(stream);
			if (async_io_busy_refused(b)) {
				async_io_busy_leave(b);
				st = ASYNC_IO_CLOSED;
				break;
			}
			b->writer = self;
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
	async_io_stdio_write_turn_end(stream, self);
	switch (st) {
		case ASYNC_IO_TIMEOUT:
			io_pipe_timed_out(stream);
			return 0; /* as a non-blocking write that found no room */
		case ASYNC_IO_UNSUPPORTED:
			return async_io_stdio_orig_ops.write(stream, buf, count);
		case ASYNC_IO_CLOSED:
			async_io_stdio_failed(stream, "Write", count, EBADF);
			return -1;
		default:
			return async_io_stdio_wait_failed(stream, "Write", count, st);
	}
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
		return async_io_stdio_orig_ops.read(stream, buf, count);
	}
	if (!(kind & IO_STDIO_POLL) && io_compiling_include()) {
		return async_io_stdio_orig_ops.read(stream, buf, count);
	}
	return (kind & IO_STDIO_POLL) ? io_pipe_read(stream, fd, buf, count)
		: async_io_file_stream_read(stream, fd, buf, count);
}

static ssize_t io_stdio_write(php_stream *stream, const char *buf, size_t count)
{
	int fd;
	unsigned kind;
	tasync_coroutine_t *self;
	if (count == 0 || (self = async_io_coroutine()) == NULL || (kind = io_kind(stream, &fd)) == 0) {
		return async_io_stdio_orig_ops.write(stream, buf, count);
	}
	return (kind & IO_STDIO_POLL) ? io_pipe_write(stream, fd, buf, count, self)
		: async_io_file_stream_write(stream, fd, buf, count, self);
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
			int rc = async_io_stdio_orig_ops.set_option(stream, option, value, ptrparam);
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
				rc = async_io_stdio_orig_ops.set_option(stream, option, value, ptrparam);
			} else {
				rc = async_io_file_stream_lock(stream, fd, value);
			}
			if (rc == 0) {
				if (value & LOCK_UN) {
					stream->flags &= ~IO_STDIO_LOCKED;
					async_io_file_stream_unlocked();
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
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && async_io_file_stream_class(stream, fd) != ASYNC_IO_FS_MEMORY) {
				return PHP_STREAM_OPTION_RETURN_ERR;
			}
			break;
		case PHP_STREAM_OPTION_TRUNCATE_API:
			if (value == PHP_STREAM_TRUNCATE_SET_SIZE && ptrparam != NULL && async_io_coroutine() != NULL
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && async_io_file_stream_class(stream, fd) == ASYNC_IO_FS_REMOTE) {
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
					&& (io_kind(stream, &fd) & IO_STDIO_FILE) && async_io_file_stream_class(stream, fd) != ASYNC_IO_FS_MEMORY) {
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
	return async_io_stdio_orig_ops.set_option(stream, option, value, ptrparam);
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
		async_io_file_stream_unlocked(); /* a flock() waiting on it looks again */
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
	if (async_io_stdio_orig_ops.cast != NULL) {
		async_io_stdio_orig_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd);
	}
	if (!io_quiesce(stream, fd) && fd >= 0 && ASYNC_G(rt) != NULL) {
		/* Waiters that cannot be waited for from here: at least their fd
		 * waits end before the fd goes. */
		tasync_fd_forget(ASYNC_G(rt), fd);
	}
	if (close_handle && fd >= 0 && ASYNC_G(rt) != NULL) {
		/* Whoever waits on the fd (this stream's own calls, another
		 * extension through the ABI, stream_select()) is woken with EBADF,
		 * and the reactor does not keep watching a number that close()
		 * hands back to the system. Costs one look-up when nobody waits. */
		tasync_fd_forget(ASYNC_G(rt), fd);
	}
	if (close_handle && fd >= 0) {
		async_io_fd_released(); /* a call waiting for a descriptor tries again */
	}
	bool locked = (stream->flags & IO_STDIO_LOCKED) != 0;
	io_stdio_state state;
	io_state_drop(stream, &state);
	int ret = async_io_stdio_orig_ops.close(stream, close_handle);
	if (locked && close_handle) {
		async_io_file_stream_unlocked();
	}
	if (state.child > 0 && close_handle) {
		ret = state.reap(state.child, !state.abandon);
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

/* ------------------------------------------------------------------ cast */

/* An fd for copy_file_range() is refused during a coroutine's copy of a
 * plain file (io/file_streams.c: PHP then copies through the ops). */
static int io_stdio_cast(php_stream *stream, int castas, void **ret)
{
	int fd;
	if (castas == PHP_STREAM_AS_FD && ret != NULL && async_io_file_stream_copying(stream)
			&& (io_kind(stream, &fd) & IO_STDIO_FILE)) {
		return FAILURE;
	}
	return async_io_stdio_orig_ops.cast(stream, castas, ret);
}

/* ---------------------------------------------------------------- module */

void async_io_stdio_startup(void)
{
	if (php_stream_stdio_ops.read == NULL || php_stream_stdio_ops.write == NULL || php_stream_stdio_ops.close == NULL
			|| php_stream_stdio_ops.set_option == NULL) {
		return;
	}
	async_io_stdio_orig_ops = php_stream_stdio_ops;
	php_stream_stdio_ops.read = io_stdio_read;
	php_stream_stdio_ops.write = io_stdio_write;
	php_stream_stdio_ops.close = io_stdio_close;
	php_stream_stdio_ops.set_option = io_stdio_set_option;
	if (php_stream_stdio_ops.cast != NULL) {
		php_stream_stdio_ops.cast = io_stdio_cast;
	}
	ops_patched = true;
	orig_fclose = async_io_hook("fclose", async_io_stdio_fclose);
	async_io_file_streams_startup();
}

void async_io_stdio_request_shutdown(void)
{
	async_io_file_streams_request_shutdown();
}

void async_io_stdio_shutdown(void)
{
	if (ops_patched && php_stream_stdio_ops.read == io_stdio_read) {
		php_stream_stdio_ops.read = async_io_stdio_orig_ops.read;
		php_stream_stdio_ops.write = async_io_stdio_orig_ops.write;
		php_stream_stdio_ops.close = async_io_stdio_orig_ops.close;
		php_stream_stdio_ops.set_option = async_io_stdio_orig_ops.set_option;
		php_stream_stdio_ops.cast = async_io_stdio_orig_ops.cast;
	}
	ops_patched = false;
	if (io_states_ready) {
		zend_hash_destroy(&io_states);
		io_states_ready = false;
	}
}
