/*
 * io/wait.c - the waits every hook of rule C18 uses (fd readiness,
 * awaitables, thread-pool work) with PHP's timeouts and the C18 treatment
 * of cancellation, and the host table's may_suspend and wait_end, through
 * which the blocking functions of other extensions get the same.
 *
 * Cancellation (C18). A hooked function whose wait is cancelled fails the
 * way its documentation says a failed call does (false, a warning where
 * the function warns, sleep()'s "seconds left"), never with a new
 * exception type; the cancellation is made pending again so that the
 * coroutine's next suspension point (await, delay, suspend, or the next
 * hooked wait) throws the CancellationError: it is never lost.
 */
#include "io/wait.h"

#include "runtime/globals.h"
#include "runtime/host.h"

#include "zend_fibers.h"

#include <errno.h>

tasync_coroutine_t *async_io_coroutine(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL || EG(exception) != NULL || zend_fiber_switch_blocked()) {
		return NULL;
	}
	tasync_coroutine_t *co = tasync_coroutine_current(rt);
	if (co == NULL || tasync_coroutine_host_data(co) == NULL) {
		return NULL; /* a core callback or a native coroutine: no PHP frames to park */
	}
	return co;
}

uint64_t async_io_deadline(const struct timeval *tv)
{
	if (tv == NULL || tv->tv_sec < 0) {
		return 0; /* none */
	}
	return async_io_deadline_in((zend_long) tv->tv_sec, (zend_long) (tv->tv_usec > 0 ? tv->tv_usec : 0));
}

uint64_t async_io_deadline_in(zend_long sec, zend_long usec)
{
	if (sec >= 1000000000) {
		return 0; /* beyond any wait worth a deadline (31 years) */
	}
	uint64_t ns = (uint64_t) sec * 1000000000u + (uint64_t) usec * 1000u;
	return tasync_runtime_now(ASYNC_G(rt)) + ns;
}

/*
 * After every wait of a hook: the core applies rule C18 to a cancellation
 * (tasync_wait_end: pending again for the next suspension point, or
 * raised when the coroutine ignored it once) and calls the host's wait_end
 * below, which raises what it is handed and unwinds an aborted coroutine.
 */
async_io_status async_io_after_wait(int rc, void *err)
{
	rc = tasync_wait_end(ASYNC_G(rt), rc, err);
	switch (rc) {
		case TASYNC_EHOST_RAISED:
			return ASYNC_IO_ABORTED;
		case 0:
			return ASYNC_IO_READY;
		case -ETIMEDOUT:
			return ASYNC_IO_TIMEOUT;
		case -ECANCELED:
			return ASYNC_IO_CANCELLED;
		case -EBADF:
			return ASYNC_IO_CLOSED;
		default:
			return ASYNC_IO_UNSUPPORTED;
	}
}

/*
 * The host table's may_suspend and wait_end (ABI 1.2): the blocking
 * functions of other extensions (plugins/pgsql) get exactly the treatment
 * of the hooks above through tasync_coroutine_suspendable and
 * tasync_wait_end.
 */
int async_host_may_suspend(void *hd, tasync_coroutine_t *co, void *co_data)
{
	(void) hd;
	(void) co;
	return co_data != NULL && async_io_coroutine() != NULL;
}

int async_host_wait_end(void *hd, tasync_coroutine_t *co, void *co_data, int rc, void *error)
{
	(void) hd;
	(void) co;
	(void) co_data;
	if (!async_after_switch()) {
		if (error != NULL) {
			OBJ_RELEASE((zend_object *) error);
		}
		return TASYNC_EHOST_RAISED;
	}
	if (rc == -ECANCELED && error != NULL) {
		/* The core's rule C18: the coroutine ignored this cancellation once. */
		async_throw_error(rc, error);
		return TASYNC_EHOST_RAISED;
	}
	if (error != NULL) {
		OBJ_RELEASE((zend_object *) error);
	}
	return rc;
}

/* A deadline travels with the wait (ABI 1.3): the core answers -ETIMEDOUT
 * itself when it passes, at once when it has passed already, with no
 * timeout awaitable made for it. */
async_io_status async_io_wait_fd(int fd, unsigned events, uint64_t deadline, unsigned *revents)
{
	void *err = NULL;
	int rc = tasync_await_fd_until(ASYNC_G(rt), fd, events, deadline, NULL, revents, &err);
	return async_io_after_wait(rc, err);
}

async_io_status async_io_await(tasync_awaitable_t *aw, uint64_t deadline)
{
	void *value = NULL, *err = NULL;
	int rc = tasync_await_until(ASYNC_G(rt), aw, deadline, NULL, &value, &err);
	tasync_value_release(ASYNC_G(rt), value);
	if (rc == TASYNC_EFAILED) {
		rc = 0; /* it completed; how does not matter here */
	}
	return async_io_after_wait(rc, err);
}

async_io_status async_io_offload(void (*fn)(void *data), void *data)
{
	void *err = NULL;
	int rc = tasync_offload(ASYNC_G(rt), fn, data, NULL, &err);
	return async_io_after_wait(rc, err);
}
