/*
 * io/select.c - stream_select() inside a coroutine (rule C18).
 *
 * PHP's own stream_select() computes every result: it first runs with a
 * zero timeout (a poll that returns at once). When nothing is ready and
 * the caller's timeout allows waiting, the arrays are put back as they
 * were and the coroutine waits through the runtime for any of the streams'
 * fds, up to the timeout; then PHP's stream_select() runs again with a
 * zero timeout and rewrites the arrays as it always does. So return values,
 * array rewriting, buffered data counting as readable and the errors for
 * bad arguments are PHP's own.
 *
 * Waiting on several fds: one native helper coroutine per fd waits on it
 * (tasync_await_fd) and the caller awaits the first helper to finish
 * (tasync_await_any) with the timeout as cancellation. The fd of a socket
 * stream of io/socket_streams.c is watched directly (its close forgets it); any
 * other fd (pipes, STDIN, ...) is watched through a dup() that is
 * forgotten and closed afterwards, so the reactor never keeps a watch on
 * an fd number that PHP may close and reuse.
 */
#include "io/select.h"

#include "io/families.h"
#include "io/hooks.h"
#include "io/socket_streams.h"
#include "io/wait.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include "php_network.h"

#include <errno.h>
#include <unistd.h>

static zif_handler orig_stream_select;

typedef struct select_fd {
	int fd;           /* the fd the helper waits on */
	int owned;        /* a dup() of the stream's fd, closed afterwards */
	unsigned events;
	int stream_fd;    /* the stream's own fd (for merging and max_fd) */
} select_fd;

/* Shared by the caller and one helper coroutine. */
typedef struct select_helper {
	uint32_t refs;
	int fd;
	unsigned events;
	int rc;           /* tasync_await_fd's result, 1 until it returns */
} select_helper;

static void select_helper_release(void *arg)
{
	select_helper *h = arg;
	if (--h->refs == 0) {
		efree(h);
	}
}

static void select_helper_entry(tasync_coroutine_t *self, void *arg)
{
	select_helper *h = arg;
	(void) self;
	h->rc = tasync_await_fd(NULL, h->fd, h->events, NULL, NULL, NULL);
}

/* The fds to wait on, one entry per fd (index by fd in `seen`). */
typedef struct select_set {
	select_fd *fds;
	uint32_t n, cap;
	HashTable seen;
} select_set;

static void select_add_fd(select_set *set, int fd, unsigned events, bool owned)
{
	zval *at = zend_hash_index_find(&set->seen, (zend_ulong) fd);
	if (at != NULL) {
		set->fds[Z_LVAL_P(at)].events |= events;
		return;
	}
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 8;
		set->fds = safe_erealloc(set->fds, set->cap, sizeof(select_fd), 0);
	}
	zval idx;
	ZVAL_LONG(&idx, set->n);
	zend_hash_index_add_new(&set->seen, (zend_ulong) fd, &idx);
	select_fd *s = &set->fds[set->n++];
	s->stream_fd = fd;
	s->events = events;
	s->owned = owned;
	s->fd = s->owned ? -1 : fd; /* an owned fd is dup()ed when waited on */
}

static void select_add(select_set *set, php_stream *stream, int fd, unsigned events)
{
	select_add_fd(set, fd, events, !async_io_stream_is_socket(stream));
}

static void select_collect(zval *array, unsigned events, select_set *set)
{
	if (array == NULL || Z_TYPE_P(array) != IS_ARRAY) {
		return;
	}
	zval *elem;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), elem) {
		ZVAL_DEREF(elem);
		if (Z_TYPE_P(elem) != IS_RESOURCE) {
			continue;
		}
		php_stream *stream = zend_fetch_resource2(Z_RES_P(elem), NULL, php_file_le_stream(), php_file_le_pstream());
		php_socket_t fd = -1;
		if (stream != NULL
				&& php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void *) &fd, 0) == SUCCESS
				&& fd >= 0) {
			select_add(set, stream, (int) fd, events);
		}
	} ZEND_HASH_FOREACH_END();
}

static async_io_status select_wait_set(select_set *set, uint64_t deadline);

/*
 * Waits until one of the fds of the three arrays is ready or the deadline
 * passes. *max_fd receives the largest fd (PHP's warning shows it).
 */
static async_io_status select_wait(zval *saved, uint64_t deadline, int *max_fd)
{
	select_set set;
	memset(&set, 0, sizeof(set));
	zend_hash_init(&set.seen, 8, NULL, NULL, 0);
	select_collect(&saved[0], TASYNC_IO_READABLE, &set);
	select_collect(&saved[1], TASYNC_IO_WRITABLE, &set);
	select_collect(&saved[2], TASYNC_IO_PRIORITY, &set);
	*max_fd = 0;
	for (uint32_t i = 0; i < set.n; i++) {
		if (set.fds[i].stream_fd > *max_fd) {
			*max_fd = set.fds[i].stream_fd;
		}
	}
	return select_wait_set(&set, deadline);
}

static async_io_status select_wait_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline,
		bool dup_fds)
{
	select_set set;
	memset(&set, 0, sizeof(set));
	zend_hash_init(&set.seen, 8, NULL, NULL, 0);
	for (uint32_t i = 0; i < count; i++) {
		if (fds[i] >= 0) {
			select_add_fd(&set, fds[i], events[i], dup_fds);
		}
	}
	return select_wait_set(&set, deadline);
}

async_io_status async_io_wait_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline)
{
	return select_wait_fds(fds, events, count, deadline, true);
}

async_io_status async_io_wait_own_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline)
{
	return select_wait_fds(fds, events, count, deadline, false);
}

/* Waits on the fds of set (and frees it). */
static async_io_status select_wait_set(select_set *set, uint64_t deadline)
{
	zend_hash_destroy(&set->seen);
	select_fd *fds = set->fds;
	uint32_t n = set->n;

	tasync_runtime_t *rt = ASYNC_G(rt);
	async_io_status st = ASYNC_IO_UNSUPPORTED;
	if (n == 0) {
		/* Nothing to watch: PHP's select would just sleep. */
		if (fds) {
			efree(fds);
		}
		if (deadline == 0) {
			return ASYNC_IO_UNSUPPORTED;
		}
		uint64_t now = tasync_runtime_now(rt);
		void *err = NULL;
		int rc = tasync_delay(rt, deadline > now ? deadline - now : 0, NULL, &err);
		st = async_io_after_wait(rc, err);
		return st == ASYNC_IO_READY ? ASYNC_IO_TIMEOUT : st;
	}

	int rc = 0;
	void *err = NULL;
	select_helper **helpers = safe_emalloc(n, sizeof(select_helper *), 0);
	tasync_coroutine_t **cos = safe_emalloc(n, sizeof(tasync_coroutine_t *), 0);
	tasync_awaitable_t **aws = safe_emalloc(n, sizeof(tasync_awaitable_t *), 0);
	uint32_t spawned = 0;
	bool failed = false;
	for (uint32_t i = 0; i < n; i++) {
		if (fds[i].owned) {
			fds[i].fd = dup(fds[i].stream_fd);
			if (fds[i].fd < 0) {
				failed = true;
				break;
			}
		}
		select_helper *h = emalloc(sizeof(*h));
		h->refs = 2;
		h->fd = fds[i].fd;
		h->events = fds[i].events;
		h->rc = 1;
		tasync_spawn_options_t o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.entry = select_helper_entry;
		o.arg = h;
		o.arg_release = select_helper_release;
		if (tasync_spawn(rt, &o, &cos[spawned], NULL) != 0) {
			efree(h);
			failed = true;
			break;
		}
		helpers[spawned] = h;
		aws[spawned] = tasync_coroutine_awaitable(cos[spawned]);
		spawned++;
	}

	if (failed) {
		st = ASYNC_IO_UNSUPPORTED;
	} else {
		tasync_awaitable_t *timeout = NULL;
		uint64_t now = tasync_runtime_now(rt);
		if (deadline != 0 && (deadline <= now || tasync_timeout_create(rt, deadline - now, &timeout) != 0)) {
			st = ASYNC_IO_TIMEOUT;
		} else {
			rc = tasync_await_any(rt, aws, spawned, timeout, &err);
			tasync_awaitable_release(timeout);
			if (rc >= 0) {
				/* A helper that could not wait at all (an fd the reactor
				 * refuses): PHP's own blocking select instead. */
				int hrc = helpers[rc]->rc;
				st = (hrc == 0 || hrc == -EBADF) ? ASYNC_IO_READY : ASYNC_IO_UNSUPPORTED;
			}
		}
	}

	/* The helpers still waiting are not needed any more (each frees its
	 * share when it ends); the dup()s go. */
	for (uint32_t i = 0; i < spawned; i++) {
		if (!(tasync_coroutine_flags(cos[i]) & TASYNC_CO_COMPLETED)) {
			tasync_coroutine_cancel(cos[i], NULL);
		}
		tasync_coroutine_release(cos[i]);
		select_helper_release(helpers[i]);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (fds[i].owned && fds[i].fd >= 0) {
			tasync_fd_forget(rt, fds[i].fd);
			close(fds[i].fd);
		}
	}
	efree(aws);
	efree(cos);
	efree(helpers);
	efree(fds);
	if (rc >= 0) {
		return async_after_switch() ? st : ASYNC_IO_ABORTED;
	}
	/* The wait itself ended: timeout, cancellation (C18), or a failure. */
	return async_io_after_wait(rc, err);
}

/* Puts the caller's arrays back as they were before PHP rewrote them. */
static void select_restore(zval *args, zval *saved)
{
	for (int i = 0; i < 3; i++) {
		if (Z_TYPE(saved[i]) == IS_ARRAY && Z_ISREF(args[i])) {
			zval *target = Z_REFVAL(args[i]);
			zval old;
			ZVAL_COPY_VALUE(&old, target);
			ZVAL_COPY(target, &saved[i]);
			zval_ptr_dtor(&old);
		}
	}
}

/* stream_select(?array &$read, ?array &$write, ?array &$except, ?int $seconds, ?int $microseconds = null) */
static ZEND_NAMED_FUNCTION(async_io_stream_select)
{
	uint32_t argc = ZEND_NUM_ARGS();
	if (async_io_coroutine() == NULL || argc < 4 || argc > 5) {
		orig_stream_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *args = ZEND_CALL_ARG(execute_data, 1);
	zval *zsec = &args[3], *zusec = argc > 4 ? &args[4] : NULL;
	/* Only plain int/null timeouts are taken over; anything else (and
	 * every invalid value) goes to PHP's function and its errors. */
	if ((Z_TYPE_P(zsec) != IS_NULL && Z_TYPE_P(zsec) != IS_LONG)
			|| (zusec != NULL && Z_TYPE_P(zusec) != IS_NULL && Z_TYPE_P(zusec) != IS_LONG)) {
		orig_stream_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	bool sec_null = Z_TYPE_P(zsec) == IS_NULL;
	zend_long sec = sec_null ? 0 : Z_LVAL_P(zsec);
	zend_long usec = zusec != NULL && Z_TYPE_P(zusec) == IS_LONG ? Z_LVAL_P(zusec) : 0;
	if (sec < 0 || usec < 0 || (sec_null && zusec != NULL && Z_TYPE_P(zusec) != IS_NULL) || (!sec_null && sec == 0 && usec == 0)) {
		orig_stream_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	uint64_t deadline = 0;
	if (!sec_null && sec < 1000000000) { /* beyond 31 years: no deadline */
		uint64_t ns = (uint64_t) sec * 1000000000u + (uint64_t) usec * 1000u;
		deadline = tasync_runtime_now(ASYNC_G(rt)) + ns;
	}

	/* The arrays as given (PHP separates before it rewrites them). */
	zval saved[3];
	for (int i = 0; i < 3; i++) {
		ZVAL_UNDEF(&saved[i]);
		zval *a = &args[i];
		ZVAL_DEREF(a);
		if (Z_TYPE_P(a) == IS_ARRAY) {
			ZVAL_COPY(&saved[i], a);
		}
	}
	/* PHP's own function, with a zero timeout. */
	zval sec_arg, usec_arg;
	ZVAL_COPY_VALUE(&sec_arg, zsec);
	ZVAL_LONG(zsec, 0);
	if (zusec != NULL) {
		ZVAL_COPY_VALUE(&usec_arg, zusec);
		ZVAL_LONG(zusec, 0);
	}
	bool final = false;
	for (;;) {
		orig_stream_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		if (final || EG(exception) || Z_TYPE_P(return_value) != IS_LONG || Z_LVAL_P(return_value) != 0) {
			break;
		}
		if (deadline != 0 && tasync_runtime_now(ASYNC_G(rt)) >= deadline) {
			break; /* PHP's result: 0, the arrays emptied */
		}
		select_restore(args, saved);
		int max_fd = 0;
		async_io_status st = select_wait(saved, deadline, &max_fd);
		if (st == ASYNC_IO_READY) {
			continue;
		}
		if (st == ASYNC_IO_TIMEOUT) {
			final = true;
			continue;
		}
		if (st == ASYNC_IO_CANCELLED) {
			/* C18: a failed select, reported as PHP reports one; the
			 * arrays are left as they were. */
			php_error_docref(NULL, E_WARNING, "Unable to select [%d]: %s (max_fd=%d)", ECANCELED, strerror(ECANCELED), max_fd);
			RETVAL_FALSE;
			break;
		}
		if (st == ASYNC_IO_ABORTED) {
			RETVAL_FALSE;
			break;
		}
		/* The runtime cannot wait on these fds: PHP's own blocking select
		 * for the time left. */
		if (sec_null) {
			ZVAL_NULL(zsec);
			if (zusec != NULL) {
				ZVAL_NULL(zusec);
			}
		} else {
			uint64_t now = tasync_runtime_now(ASYNC_G(rt));
			uint64_t left = deadline > now ? deadline - now : 0;
			ZVAL_LONG(zsec, (zend_long) (left / 1000000000u));
			if (zusec != NULL) {
				ZVAL_LONG(zusec, (zend_long) ((left % 1000000000u) / 1000u));
			} else if (left % 1000000000u >= 1000u) {
				ZVAL_LONG(zsec, (zend_long) ((left + 999999999u) / 1000000000u));
			}
		}
		final = true;
	}
	ZVAL_COPY_VALUE(zsec, &sec_arg);
	if (zusec != NULL) {
		ZVAL_COPY_VALUE(zusec, &usec_arg);
	}
	for (int i = 0; i < 3; i++) {
		zval_ptr_dtor(&saved[i]);
	}
}

void async_io_select_startup(void)
{
	orig_stream_select = async_io_hook("stream_select", async_io_stream_select);
}
