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
#include <sys/socket.h>
#include <unistd.h>

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

/* ------------------------------------------------ the descriptors run out */

/*
 * A call that needs a new descriptor (accept, connect, socket creation)
 * and finds the process (EMFILE) or the system (ENFILE) out of them waits
 * in its coroutine before it fails as PHP fails (issue 21): until PHP
 * closes a descriptor in this request (a stream, a socket: whatever
 * async.so sees close) or a backoff passes, whichever comes first, within
 * the call's own timeout; then it tries once more. The backoff starts at
 * 10 ms and doubles after each wait that nothing ended early, up to 1 s,
 * and starts again once a call got its descriptor. So a loop of failing
 * accepts suspends in every round (the coroutines that would close
 * descriptors run), and a server whose connections end recovers as soon as
 * one does, without a warning.
 */
#define IO_FD_BACKOFF_FIRST_NS 10000000u   /* 10 ms */
#define IO_FD_BACKOFF_MAX_NS 1000000000u   /* 1 s */

ZEND_TLS tasync_awaitable_t *io_fd_released; /* resolved at the next close */
ZEND_TLS uint64_t io_fd_backoff;

bool async_io_fd_shortage(int err)
{
	return err == EMFILE || err == ENFILE;
}

bool async_io_fd_shortage_now(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		close(fd);
		return false;
	}
	return async_io_fd_shortage(errno);
}

async_io_status async_io_fd_shortage_wait(uint64_t deadline)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (io_fd_backoff == 0) {
		io_fd_backoff = IO_FD_BACKOFF_FIRST_NS;
	}
	uint64_t until = tasync_runtime_now(rt) + io_fd_backoff;
	bool capped = deadline != 0 && deadline < until;
	if (capped) {
		until = deadline;
	}
	if (io_fd_released == NULL && tasync_future_create(rt, &io_fd_released) != 0) {
		io_fd_released = NULL;
		return ASYNC_IO_READY; /* no memory to wait with: one more try */
	}
	tasync_awaitable_t *aw = io_fd_released;
	tasync_awaitable_retain(aw);
	async_io_status st = async_io_await(aw, until);
	tasync_awaitable_release(aw);
	if (st == ASYNC_IO_TIMEOUT) {
		if (io_fd_backoff < IO_FD_BACKOFF_MAX_NS) {
			io_fd_backoff *= 2;
		}
		return capped ? ASYNC_IO_TIMEOUT : ASYNC_IO_READY;
	}
	return st;
}

void async_io_fd_released(void)
{
	if (io_fd_released != NULL) {
		tasync_awaitable_t *aw = io_fd_released;
		io_fd_released = NULL;
		tasync_future_resolve(aw, NULL);
		tasync_awaitable_release(aw);
	}
}

void async_io_fd_obtained(void)
{
	io_fd_backoff = 0;
}

/* --------------------------------------- a failed call gives others a turn */

/*
 * A call refused at once on a stream that another coroutine is closing
 * suspends nowhere: a loop of such calls (an accept loop whose listener is
 * being closed) would never let the closer finish, nor throw the
 * coroutine's pending cancellation (README's old "fclose() of a listening
 * socket hangs"). The refused call cannot suspend where it is (PHP's
 * frames above it still use the stream, which the closer frees), so the
 * coroutine yields at the engine's next interrupt check, once PHP's call
 * has returned: the closer finishes, and the next call sees a closed
 * resource as in plain PHP, or the pending cancellation is thrown there
 * (rule C18: a cancellation already seen failing a call).
 */
static void (*io_prev_interrupt)(zend_execute_data *execute_data);
ZEND_TLS tasync_coroutine_t *io_yield_for;

void async_io_yield_soon(void)
{
	tasync_coroutine_t *co = async_io_coroutine();
	if (co != NULL) {
		io_yield_for = co;
		zend_atomic_bool_store_ex(&EG(vm_interrupt), true);
	}
}

static void io_interrupt(zend_execute_data *execute_data)
{
	if (io_prev_interrupt != NULL) {
		io_prev_interrupt(execute_data);
	}
	tasync_coroutine_t *co = io_yield_for;
	io_yield_for = NULL;
	if (co == NULL || async_io_coroutine() != co) {
		return;
	}
	void *err = NULL;
	int rc = tasync_yield(ASYNC_G(rt), &err);
	async_io_after_wait(rc, err);
}

void async_io_wait_startup(void)
{
	io_prev_interrupt = zend_interrupt_function;
	zend_interrupt_function = io_interrupt;
}

void async_io_wait_request_shutdown(void)
{
	async_io_fd_released();
	io_fd_backoff = 0;
	io_yield_for = NULL;
}

void async_io_wait_shutdown(void)
{
	if (zend_interrupt_function == io_interrupt) {
		zend_interrupt_function = io_prev_interrupt;
	}
}
