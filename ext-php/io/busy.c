/*
 * io/busy.c - the wait state of a stream (rule C24): who is suspended in
 * it, reading or writing, and the close that waits for them to leave (see
 * io/busy.h). Socket streams (io/socket_streams.c) and stdio streams
 * (io/stdio.c, io/file_streams.c) keep theirs here.
 */
#include "io/busy.h"

#include "io/wait.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "zend_fibers.h"

/* php_stream* => async_io_busy*, for the request (see io/busy.h). */
ZEND_TLS HashTable io_busy_table;
ZEND_TLS bool io_busy_ready;

/*
 * The table's key for a stream. zend_hash picks a bucket by the low bits
 * of an integer key, and stream addresses share theirs (Zend MM hands them
 * out of one size class): the raw address put ~1000 streams into a few
 * long chains (each lookup walked them, 19 % of a keep-alive server's
 * instructions at 1000 connections). The splitmix64 finalizer is a
 * bijection, so keys stay unique, and spreads every bit into the low ones.
 */
static inline zend_ulong io_busy_key(php_stream *stream)
{
	uint64_t k = (uint64_t) (uintptr_t) stream;
	k = (k ^ (k >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	k = (k ^ (k >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (zend_ulong) (k ^ (k >> 31));
}

async_io_busy *async_io_busy_find(php_stream *stream)
{
	if (!io_busy_ready) {
		return NULL;
	}
	return zend_hash_index_find_ptr(&io_busy_table, io_busy_key(stream));
}

/*
 * The states of streams with an fd, by fd, in front of the table: a
 * socket's reads and writes find theirs with one load (three table lookups
 * per request of a keep-alive connection were three cache misses at 1000
 * connections, the table's buckets being as cold as the streams). Two open
 * streams never share an fd, and a state leaves the array when it is
 * detached, so a slot holding another stream's state only means "look in
 * the table".
 */
ZEND_TLS async_io_busy **io_busy_by_fd;
ZEND_TLS uint32_t io_busy_by_fd_size;

static void io_busy_index_fd(async_io_busy *b, int fd)
{
	if (fd < 0 || fd >= (1 << 20)) {
		return;
	}
	if ((uint32_t) fd >= io_busy_by_fd_size) {
		uint32_t size = io_busy_by_fd_size ? io_busy_by_fd_size : 1024;
		while (size <= (uint32_t) fd) {
			size *= 2;
		}
		io_busy_by_fd = erealloc(io_busy_by_fd, size * sizeof(*io_busy_by_fd));
		memset(io_busy_by_fd + io_busy_by_fd_size, 0, (size - io_busy_by_fd_size) * sizeof(*io_busy_by_fd));
		io_busy_by_fd_size = size;
	}
	if (b->fd >= 0 && b->fd != fd && (uint32_t) b->fd < io_busy_by_fd_size && io_busy_by_fd[b->fd] == b) {
		io_busy_by_fd[b->fd] = NULL;
	}
	io_busy_by_fd[fd] = b;
	b->fd = fd;
}

async_io_busy *async_io_busy_find_fd(php_stream *stream, int fd)
{
	if ((uint32_t) fd < io_busy_by_fd_size) {
		async_io_busy *b = io_busy_by_fd[fd];
		if (b != NULL && b->stream == stream) {
			return b;
		}
	}
	async_io_busy *b = async_io_busy_find(stream);
	if (b != NULL) {
		io_busy_index_fd(b, fd);
	}
	return b;
}

static async_io_busy *io_busy_enter(php_stream *stream, async_io_busy *b)
{
	if (!io_busy_ready) {
		zend_hash_init(&io_busy_table, 8, NULL, NULL, 0);
		io_busy_ready = true;
	}
	if (b == NULL) {
		b = ecalloc(1, sizeof(*b));
		b->stream = stream;
		b->fd = -1;
		zend_hash_index_add_new_ptr(&io_busy_table, io_busy_key(stream), b);
	}
	b->users++;
	return b;
}

async_io_busy *async_io_busy_enter(php_stream *stream)
{
	return io_busy_enter(stream, async_io_busy_find(stream));
}

async_io_busy *async_io_busy_enter_fd(php_stream *stream, int fd)
{
	async_io_busy *b = io_busy_enter(stream, async_io_busy_find_fd(stream, fd));
	if (b->fd != fd) {
		io_busy_index_fd(b, fd);
	}
	return b;
}

void async_io_busy_detach(async_io_busy *b)
{
	if (b->stream != NULL) {
		zend_hash_index_del(&io_busy_table, io_busy_key(b->stream));
		b->stream = NULL;
	}
	if (b->fd >= 0 && (uint32_t) b->fd < io_busy_by_fd_size && io_busy_by_fd[b->fd] == b) {
		io_busy_by_fd[b->fd] = NULL;
	}
	b->fd = -1;
}

static void io_busy_free(async_io_busy *b)
{
	tasync_awaitable_release(b->changed);
	efree(b);
}

void async_io_busy_release(async_io_busy *b)
{
	if (b->users == 0 && b->closers == 0 && b->reader == NULL && b->writer == NULL && b->changed == NULL
			&& !b->failed && !b->kept) {
		async_io_busy_detach(b);
		io_busy_free(b);
	}
}

void async_io_busy_signal(async_io_busy *b)
{
	if (b->changed != NULL) {
		tasync_awaitable_t *aw = b->changed;
		b->changed = NULL;
		tasync_future_resolve(aw, NULL);
		tasync_awaitable_release(aw);
	}
}

void async_io_busy_leave(async_io_busy *b)
{
	b->users--;
	if (b->closing) {
		async_io_busy_signal(b); /* the closer counts the users left */
	}
	async_io_busy_release(b);
}

async_io_status async_io_busy_wait(async_io_busy *b, uint64_t deadline, bool as_user)
{
	if (b->changed == NULL && tasync_future_create(ASYNC_G(rt), &b->changed) != 0) {
		b->changed = NULL;
		return ASYNC_IO_UNSUPPORTED;
	}
	tasync_awaitable_t *aw = b->changed;
	tasync_awaitable_retain(aw);
	if (as_user) {
		b->users++;
	}
	async_io_status st = async_io_await(aw, deadline);
	if (as_user) {
		b->users--;
	}
	tasync_awaitable_release(aw);
	return st;
}

/* The caller is a PHP coroutine that may suspend here. */
static bool io_busy_may_wait(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *self = rt != NULL ? tasync_coroutine_current(rt) : NULL;
	return self != NULL && tasync_coroutine_host_data(self) != NULL && !zend_fiber_switch_blocked()
		&& EG(exception) == NULL;
}

bool async_io_busy_refused(async_io_busy *b)
{
	if (b == NULL || !b->closing) {
		return false;
	}
	async_io_yield_soon();
	return true;
}

bool async_io_busy_drain(async_io_busy *b)
{
	b->closing = true;
	async_io_busy_signal(b);
	/* A user waiting for a descriptor (io/wait.c) looks again and sees
	 * the close. */
	async_io_fd_released();
	if (b->users == 0) {
		return true;
	}
	if (!io_busy_may_wait()) {
		return false;
	}
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *self = tasync_coroutine_current(rt);
	/* The stream cannot be freed under the users, so this wait is not
	 * interrupted by the closer's cancellation: it is held back as in a
	 * protect section (C20) and pending again once the close is done. A
	 * wait that ends anyway (the forced phase of shutdown, the deadlock
	 * breaker wake the users the same way) yields to them and goes on. */
	b->closers++;
	tasync_protect_begin(rt);
	while (b->users > 0) {
		if (b->changed == NULL && tasync_future_create(rt, &b->changed) != 0) {
			b->changed = NULL;
			tasync_yield(rt, NULL);
		} else {
			tasync_awaitable_t *aw = b->changed;
			tasync_awaitable_retain(aw);
			void *value = NULL, *err = NULL;
			int rc = tasync_await(rt, aw, NULL, &value, &err);
			tasync_awaitable_release(aw);
			tasync_value_release(rt, value);
			if (err != NULL) {
				tasync_error_release(rt, err);
			}
			if (rc == -ECANCELED) {
				tasync_yield(rt, NULL);
			}
		}
		async_safe_point();
	}
	void *err = NULL;
	if (tasync_protect_end(rt, &err) == -ECANCELED) {
		tasync_coroutine_repend_cancellation(self);
		if (err != NULL) {
			tasync_error_release(rt, err);
		}
	}
	b->closers--;
	/* A coroutine the request's end aborted meanwhile unwinds from here
	 * (rule C22): the close completes, no user code runs after it. */
	async_after_switch();
	return true;
}

void async_io_busy_orphan(async_io_busy *b)
{
	b->gone = true;
	b->failed = false;
	async_io_busy_signal(b);
	async_io_busy_detach(b);
	async_io_busy_release(b);
}

void async_io_busy_check_gone(async_io_busy *b)
{
	if (!b->gone) {
		return;
	}
	b->users--;
	async_io_busy_release(b);
	/* PHP's frames below this one would touch the freed stream: they are
	 * abandoned as a fatal error abandons them. */
	if (EG(exception) != NULL && zend_is_unwind_exit(EG(exception))) {
		/* The request ends anyway (exit, a fatal error elsewhere). */
		zend_clear_exception();
		zend_bailout();
	}
	if (EG(exception) != NULL) {
		zend_clear_exception();
	}
	zend_error_noreturn(E_ERROR, "A stream this coroutine was waiting on was freed by a close that could not wait "
		"for it to leave (a close outside a coroutine or in a destructor run by the garbage collector)");
}

/* Before the runtime goes: what abandoned coroutines left behind. */
void async_io_busy_request_shutdown(void)
{
	if (!io_busy_ready) {
		return;
	}
	async_io_busy *b;
	ZEND_HASH_FOREACH_PTR(&io_busy_table, b) {
		/* Left by coroutines that never resumed (they never will), or kept
		 * for a stream that is still open. */
		io_busy_free(b);
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&io_busy_table);
	io_busy_ready = false;
	if (io_busy_by_fd != NULL) {
		efree(io_busy_by_fd);
		io_busy_by_fd = NULL;
		io_busy_by_fd_size = 0;
	}
}
