/*
 * io/poll.c - one wait on several fds (rule C18), the mechanism under
 * stream_select() (io/select.c), socket_select() (io/ext_sockets.c),
 * mysqli_poll() (io/mysqli.c) and curl's multi handles
 * (io/curl_driver.c), and the loop the three select-like functions share.
 *
 * The wait. One native helper coroutine per fd waits on it
 * (tasync_await_fd_until) and the caller awaits the first helper to finish,
 * or the awaitable it also waits for (tasync_await_any); then the helpers
 * still waiting are cancelled. The set's deadline travels with the first
 * helper's wait: when it passes, that wait ends the set's with -ETIMEDOUT,
 * and no timeout awaitable is made. An fd PHP's code owns is watched through a
 * dup() forgotten and closed afterwards, so the reactor never keeps a
 * watch on an fd number that PHP may close and reuse; one whose closer
 * forgets it first (a socket stream's) is watched as it is.
 *
 * The loop (async_io_select). PHP's own function computes every
 * result: it first runs with a zero timeout (a poll that returns at once).
 * While nothing is ready and the caller's timeout allows waiting, the
 * arrays are put back as they were and the coroutine waits for any of
 * their fds, up to the timeout; then PHP's function runs again with a zero
 * timeout and rewrites the arrays as it always does. A cancelled wait
 * fails the call as PHP reports a failed one (C18); when the runtime cannot
 * wait on the fds, PHP's own function waits for the time left.
 */
#include "io/poll.h"

#include "io/wait.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#include <errno.h>
#include <unistd.h>

/* ------------------------------------------------------------- the set */

/* Sets of up to this many fds are searched; larger ones get an index. */
#define POLL_LINEAR_MAX 16

void async_io_poll_init(async_io_poll_set *set)
{
	memset(set, 0, sizeof(*set));
}

static uint32_t poll_find(const async_io_poll_set *set, int fd)
{
	if (set->index != NULL) {
		zval *at = zend_hash_index_find(set->index, (zend_ulong) fd);
		return at != NULL ? (uint32_t) Z_LVAL_P(at) : set->count;
	}
	uint32_t i = 0;
	while (i < set->count && set->fds[i].fd != fd) {
		i++;
	}
	return i;
}

void async_io_poll_add(async_io_poll_set *set, int fd, unsigned events, async_io_poll_mode mode)
{
	if (fd < 0) {
		return;
	}
	uint32_t i = poll_find(set, fd);
	if (i < set->count) {
		set->fds[i].events |= events;
		return;
	}
	if (set->count == set->size) {
		set->size = set->size ? set->size * 2 : 8;
		set->fds = safe_erealloc(set->fds, set->size, sizeof(async_io_poll_fd), 0);
	}
	set->fds[set->count] = (async_io_poll_fd) { .fd = fd, .watched = -1, .events = events, .mode = mode };
	set->count++;
	if (set->index == NULL && set->count > POLL_LINEAR_MAX) {
		ALLOC_HASHTABLE(set->index);
		zend_hash_init(set->index, set->count * 2, NULL, NULL, 0);
		for (uint32_t k = 0; k < set->count; k++) {
			zval at;
			ZVAL_LONG(&at, k);
			zend_hash_index_add_new(set->index, (zend_ulong) set->fds[k].fd, &at);
		}
	} else if (set->index != NULL) {
		zval at;
		ZVAL_LONG(&at, set->count - 1);
		zend_hash_index_add_new(set->index, (zend_ulong) fd, &at);
	}
}

void async_io_poll_free(async_io_poll_set *set)
{
	if (set->index != NULL) {
		zend_hash_destroy(set->index);
		FREE_HASHTABLE(set->index);
	}
	if (set->fds != NULL) {
		efree(set->fds);
	}
	memset(set, 0, sizeof(*set));
}

/* ------------------------------------------------------------ the wait */

/* Shared by the caller and one helper coroutine. */
typedef struct poll_helper {
	uint32_t refs;
	int fd;
	unsigned events;
	uint64_t deadline; /* the set's deadline (first helper only), or 0 */
	int rc;            /* tasync_await_fd_until's result, 1 until it returns */
} poll_helper;

static void poll_helper_release(void *arg)
{
	poll_helper *h = arg;
	if (--h->refs == 0) {
		efree(h);
	}
}

static void poll_helper_entry(tasync_coroutine_t *self, void *arg)
{
	poll_helper *h = arg;
	(void) self;
	h->rc = tasync_await_fd_until(NULL, h->fd, h->events, h->deadline, NULL, NULL, NULL);
}

/* With ASYNC_IO_POLL_SHORT_WATCH, how long the fds that got a helper are
 * watched when others did not. */
#define POLL_SHORT_WATCH_NS 10000000u

async_io_status async_io_poll_wait(async_io_poll_set *set, tasync_awaitable_t *also, uint64_t deadline,
	unsigned flags)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	uint32_t n = set->count;
	if (n == 0 && also == NULL) {
		/* Nothing to watch: PHP's select would just sleep. */
		if (deadline == 0) {
			return ASYNC_IO_UNSUPPORTED;
		}
		uint64_t now = tasync_runtime_now(rt);
		void *err = NULL;
		int rc = tasync_delay(rt, deadline > now ? deadline - now : 0, NULL, &err);
		async_io_status st = async_io_after_wait(rc, err);
		return st == ASYNC_IO_READY ? ASYNC_IO_TIMEOUT : st;
	}

	async_io_poll_fd *fds = set->fds;
	poll_helper **helpers = n > 0 ? safe_emalloc(n, sizeof(poll_helper *), 0) : NULL;
	tasync_coroutine_t **cos = n > 0 ? safe_emalloc(n, sizeof(tasync_coroutine_t *), 0) : NULL;
	tasync_awaitable_t **aws = safe_emalloc(n + 1, sizeof(tasync_awaitable_t *), 0);
	uint32_t spawned = 0;
	bool unsupported = false, short_watch = false;
	for (uint32_t i = 0; i < n; i++) {
		fds[i].watched = fds[i].mode == ASYNC_IO_POLL_DUP ? dup(fds[i].fd) : fds[i].fd;
		if (fds[i].watched < 0 && async_io_fd_shortage(errno)) {
			/* No descriptor left for the dup(): the fd as it is, left
			 * watched afterwards rather than waiting in PHP's own poll,
			 * which would stall every coroutine. */
			fds[i].mode = ASYNC_IO_POLL_WATCH;
			fds[i].watched = fds[i].fd;
		}
		if (fds[i].watched < 0) {
			unsupported = true;
			break;
		}
		poll_helper *h = emalloc(sizeof(*h));
		h->refs = 2;
		h->fd = fds[i].watched;
		h->events = fds[i].events;
		h->deadline = 0;
		h->rc = 1;
		tasync_spawn_options_t o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.entry = poll_helper_entry;
		o.arg = h;
		o.arg_release = poll_helper_release;
		if (tasync_spawn(rt, &o, &cos[spawned], NULL) != 0) {
			efree(h);
			if (flags & ASYNC_IO_POLL_SHORT_WATCH) {
				short_watch = true;
				continue;
			}
			unsupported = true;
			break;
		}
		helpers[spawned] = h;
		aws[spawned] = tasync_coroutine_awaitable(cos[spawned]);
		spawned++;
	}

	async_io_status st = ASYNC_IO_UNSUPPORTED;
	bool waited = false;
	int rc = 0;
	void *err = NULL;
	if (!unsupported && (spawned > 0 || also != NULL)) {
		uint64_t now = tasync_runtime_now(rt);
		if (short_watch && (deadline == 0 || deadline > now + POLL_SHORT_WATCH_NS)) {
			deadline = now + POLL_SHORT_WATCH_NS;
		}
		if (deadline != 0 && deadline <= now) {
			st = short_watch ? ASYNC_IO_READY : ASYNC_IO_TIMEOUT;
		} else if (spawned == 0) {
			/* Only the awaitable: its wait carries the deadline. */
			void *value = NULL;
			rc = tasync_await_until(rt, also, deadline, NULL, &value, &err);
			tasync_value_release(rt, value);
			if (rc == TASYNC_EFAILED) {
				tasync_error_release(rt, err); /* it completed; how does not matter here */
				err = NULL;
				rc = 0;
			}
			waited = true;
			st = ASYNC_IO_READY;
		} else {
			/* The deadline travels with the first helper's wait (ABI 1.3):
			 * its -ETIMEDOUT ends the set's wait, no timeout awaitable. */
			helpers[0]->deadline = deadline;
			uint32_t count = spawned;
			if (also != NULL) {
				aws[count++] = also;
			}
			rc = tasync_await_any(rt, aws, count, NULL, &err);
			waited = true;
			if (rc >= 0) {
				/* A helper that could not wait at all (an fd the reactor
				 * refuses): the caller's own blocking wait instead, unless
				 * it polls for itself. A forgotten fd is readiness. */
				int hrc = (uint32_t) rc < spawned ? helpers[rc]->rc : 0;
				st = hrc == -ETIMEDOUT ? ASYNC_IO_TIMEOUT
					: hrc == 0 || hrc == -EBADF || (flags & ASYNC_IO_POLL_ANY_END) ? ASYNC_IO_READY
					: ASYNC_IO_UNSUPPORTED;
				if (st == ASYNC_IO_TIMEOUT && short_watch) {
					st = ASYNC_IO_READY; /* the short watch ended: the caller polls */
				}
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
		poll_helper_release(helpers[i]);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (fds[i].mode == ASYNC_IO_POLL_DUP && fds[i].watched >= 0) {
			tasync_fd_forget(rt, fds[i].watched);
			close(fds[i].watched);
		}
		fds[i].watched = -1;
	}
	efree(aws);
	if (cos != NULL) {
		efree(cos);
		efree(helpers);
	}
	if (!waited) {
		return st;
	}
	if (rc >= 0) {
		return async_after_switch() ? st : ASYNC_IO_ABORTED;
	}
	/* The wait itself ended: timeout, cancellation (C18), or a failure. */
	st = async_io_after_wait(rc, err);
	return st == ASYNC_IO_TIMEOUT && short_watch ? ASYNC_IO_READY : st;
}

/* ------------------------------------------------ the select-like loop */

/* Puts the caller's arguments back as they were before PHP rewrote them. */
static void select_restore(zval *args, zval *saved)
{
	for (int i = 0; i < 3; i++) {
		if (!Z_ISUNDEF(saved[i]) && Z_ISREF(args[i])) {
			zval *target = Z_REFVAL(args[i]);
			zval old;
			ZVAL_COPY_VALUE(&old, target);
			ZVAL_COPY(target, &saved[i]);
			zval_ptr_dtor(&old);
		}
	}
}

/* The timeout arguments for PHP's own wait of the time left (as asked,
 * without a deadline). */
static void select_time_left(async_io_select_call *call, zval *zsec, zval *zusec, const zval *sec_arg,
	const zval *usec_arg, uint64_t deadline)
{
	if (deadline == 0) {
		ZVAL_COPY_VALUE(zsec, sec_arg);
		if (zusec != NULL) {
			ZVAL_COPY_VALUE(zusec, usec_arg);
		}
		return;
	}
	uint64_t now = tasync_runtime_now(ASYNC_G(rt));
	uint64_t left = deadline > now ? deadline - now : 0;
	ZVAL_LONG(zsec, (zend_long) (left / 1000000000u));
	if (zusec != NULL) {
		ZVAL_LONG(zusec, (zend_long) ((left % 1000000000u) / 1000u));
	} else if (call->round_up && left % 1000000000u >= 1000u) {
		ZVAL_LONG(zsec, (zend_long) ((left + 999999999u) / 1000000000u));
	}
}

void async_io_select(async_io_select_call *call, INTERNAL_FUNCTION_PARAMETERS)
{
	uint32_t argc = ZEND_NUM_ARGS();
	zval *args = ZEND_CALL_ARG(execute_data, 1);
	zval *zsec = argc > 3 ? &args[3] : NULL, *zusec = argc > 4 ? &args[4] : NULL;
	uint64_t deadline = 0;
	if (async_io_coroutine() == NULL || argc < 4 || argc > 5 || !call->timeout(zsec, zusec, &deadline)) {
		call->orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	/* The arguments as given (PHP separates before it rewrites them). */
	zval saved[3];
	for (int i = 0; i < 3; i++) {
		ZVAL_UNDEF(&saved[i]);
		zval *a = &args[i];
		ZVAL_DEREF(a);
		if (call->keep_all || Z_TYPE_P(a) == IS_ARRAY) {
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
		call->orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		if (final || EG(exception) || Z_TYPE_P(return_value) != IS_LONG || Z_LVAL_P(return_value) != 0) {
			break;
		}
		if (deadline != 0 && tasync_runtime_now(ASYNC_G(rt)) >= deadline) {
			break; /* PHP's result: 0, the arrays emptied */
		}
		select_restore(args, saved);
		async_io_status st = call->wait(call, saved, deadline);
		if (st == ASYNC_IO_READY) {
			continue;
		}
		if (st == ASYNC_IO_TIMEOUT) {
			final = true; /* PHP's function once more: 0 after the deadline */
			continue;
		}
		if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_CLOSED) {
			/* C18: a failed call, reported as PHP reports one; the arrays
			 * are left as they were. */
			call->failed(call, st);
			RETVAL_FALSE;
			break;
		}
		if (st == ASYNC_IO_ABORTED) {
			RETVAL_FALSE;
			break;
		}
		/* The runtime cannot wait on these fds: PHP's own wait for the time
		 * left. */
		select_time_left(call, zsec, zusec, &sec_arg, &usec_arg, deadline);
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
