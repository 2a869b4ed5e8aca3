/*
 * fdwait - the smallest PHP extension that makes a blocking call
 * cooperative through the tasync C ABI, written as docs/extension-guide.md
 * says and built the way its readers build: phpize against an installed
 * tasync (config.m4, pkg-config). The test "out-of-tree-ext" (suite
 * install) builds it from a scratch install and runs the phpt of tests/
 * with the installed async.so, backends and phpt helpers, on every backend.
 *
 *   fdwait_read(resource $socket, int $length, float $timeout): string|false
 *   fdwait_wait(resource $stream, string $for, float $timeout): bool
 *
 * Receives at most $length bytes from a socket stream, waiting at most
 * $timeout seconds for them (negative: no limit). Outside a coroutine it
 * blocks in poll(2) as an extension without tasync would; inside one it
 * suspends only the calling coroutine. Both fail alike: false and the
 * warning "Read failed: <reason>" (a timeout, a cancellation, an error of
 * the socket). It reads the socket itself, past the stream's buffer: a
 * stream read with fread() as well may have buffered data it will not see.
 *
 * fdwait_wait() waits at most $timeout seconds (negative: no limit) until
 * the descriptor of any stream that has one (a pipe, a FIFO, a socket, a
 * file) is readable ($for "r") or writable ("w"), and returns true, or
 * false with the warning "Wait failed: <reason>": a timeout, a
 * cancellation, or the stream closed meanwhile by another coroutine (Bad
 * file descriptor). It waits on the stream's own descriptor, which PHP
 * closes: async.so tells the runtime when PHP closes it, and the runtime
 * then ends every wait on it with -EBADF, whoever started the wait.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>

#include "php.h"
#include "php_network.h"
#include "ext/standard/info.h"

#include <tasync/tasync.h>

#define PHP_FDWAIT_VERSION "1.0.0"

/* The blocking behaviour, kept for calls outside coroutines: poll(2) until
 * the socket is readable or the time is up. */
static long recv_blocking(int fd, void *buf, size_t len, int timeout_ms)
{
	for (;;) {
		ssize_t n = recv(fd, buf, len, MSG_DONTWAIT);
		if (n >= 0) {
			return (long) n;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return -errno;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int ready = poll(&p, 1, timeout_ms);
		if (ready == 0) {
			return -ETIMEDOUT;
		}
		if (ready < 0 && errno != EINTR) {
			return -errno;
		}
	}
}

/*
 * The guide's recv_cooperatively() (docs/extension-guide.md, "The shape of
 * a cooperative call"), with a timeout awaitable (ABI 1.2) where the guide
 * carries a deadline. The descriptor belongs to a PHP stream, which PHP
 * closes (another coroutine's fclose() may do it while this one waits):
 * the wait is on the descriptor itself, because async.so tells the runtime
 * whenever PHP closes a stream's descriptor, and the runtime then ends
 * every wait on it with -EBADF and drops its watch.
 *
 * Returns the bytes received (0 at the end of the stream) or a negative
 * code: -ETIMEDOUT, -ECANCELED (the coroutine was cancelled: the
 * cancellation is pending again), TASYNC_EHOST_RAISED (the host raised an
 * error in the coroutine: return at once), -EBADF (the stream was closed
 * meanwhile: fd is not ours to touch any more), or the socket's error.
 */
static long recv_cooperatively(int fd, void *buf, size_t len, double timeout)
{
	tasync_coroutine_t *co = tasync_coroutine_suspendable(NULL); /* ABI 1.2 */
	if (co == NULL) {
		/* No runtime on this thread, not in a coroutine, or the host
		 * says no (an exception is pending, ...): block as before. */
		return recv_blocking(fd, buf, len, timeout < 0 ? -1 : (int) (timeout * 1000 + 0.999));
	}
	tasync_runtime_t *rt = tasync_coroutine_runtime(co);

	tasync_awaitable_t *deadline = NULL;
	if (timeout >= 0) {
		int rc = tasync_timeout_create(rt, (uint64_t) (timeout * 1e9), &deadline);
		if (rc < 0) {
			return rc;
		}
	}

	long result;
	for (;;) {
		ssize_t n = recv(fd, buf, len, MSG_DONTWAIT);
		if (n >= 0) {
			result = (long) n;
			break;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			result = -errno;
			break;
		}
		void *err = NULL;
		unsigned revents = 0;
		int rc = tasync_await_fd(rt, fd, TASYNC_IO_READABLE, deadline, &revents, &err);
		rc = tasync_wait_end(rt, rc, err); /* ABI 1.2: after every wait */
		if (rc == TASYNC_EAWAIT_CANCELLED) {
			result = -ETIMEDOUT; /* the deadline completed first */
			break;
		}
		if (rc < 0) {
			result = rc; /* -ECANCELED, TASYNC_EHOST_RAISED, -EBADF, ... */
			break;
		}
	}

	if (deadline != NULL) {
		tasync_awaitable_release(deadline);
	}
	return result;
}

PHP_FUNCTION(fdwait_read)
{
	zval *zstream;
	zend_long length;
	double timeout;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_RESOURCE(zstream)
		Z_PARAM_LONG(length)
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	if (length <= 0) {
		zend_argument_value_error(2, "must be greater than 0");
		RETURN_THROWS();
	}
	php_stream *stream;
	php_stream_from_zval(stream, zstream);
	php_socket_t fd;
	if (php_stream_cast(stream, PHP_STREAM_AS_SOCKETD | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) == FAILURE) {
		zend_argument_type_error(1, "must be a socket stream");
		RETURN_THROWS();
	}

	zend_string *data = zend_string_alloc((size_t) length, 0);
	long n = recv_cooperatively((int) fd, ZSTR_VAL(data), (size_t) length, timeout);
	if (n == TASYNC_EHOST_RAISED) {
		/* An exception is pending in this coroutine: nothing more to do. */
		zend_string_efree(data);
		RETURN_THROWS();
	}
	if (n < 0) {
		/* A cancelled call fails as any failed call does (rule C18): the
		 * cancellation is thrown at the coroutine's next suspension. */
		zend_string_efree(data);
		php_error_docref(NULL, E_WARNING, "Read failed: %s", tasync_strerror((int) n));
		RETURN_FALSE;
	}
	data = zend_string_truncate(data, (size_t) n, 0);
	ZSTR_VAL(data)[n] = '\0';
	RETURN_NEW_STR(data);
}

/* The blocking behaviour of fdwait_wait(): poll(2). 0 when ready. */
static int wait_blocking(int fd, short events, int timeout_ms)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		int ready = poll(&p, 1, timeout_ms);
		if (ready > 0) {
			return (p.revents & POLLNVAL) ? -EBADF : 0;
		}
		if (ready == 0) {
			return -ETIMEDOUT;
		}
		if (errno != EINTR) {
			return -errno;
		}
	}
}

/* As recv_cooperatively(), without the read: the wait on the stream's own
 * descriptor, which ends with -EBADF when the stream is closed meanwhile. */
static int wait_cooperatively(int fd, unsigned events, double timeout)
{
	tasync_coroutine_t *co = tasync_coroutine_suspendable(NULL); /* ABI 1.2 */
	if (co == NULL) {
		return wait_blocking(fd, events == TASYNC_IO_READABLE ? POLLIN : POLLOUT,
			timeout < 0 ? -1 : (int) (timeout * 1000 + 0.999));
	}
	tasync_runtime_t *rt = tasync_coroutine_runtime(co);
	tasync_awaitable_t *deadline = NULL;
	if (timeout >= 0) {
		int rc = tasync_timeout_create(rt, (uint64_t) (timeout * 1e9), &deadline);
		if (rc < 0) {
			return rc;
		}
	}
	void *err = NULL;
	unsigned revents = 0;
	int rc = tasync_await_fd(rt, fd, events, deadline, &revents, &err);
	rc = tasync_wait_end(rt, rc, err); /* ABI 1.2: after every wait */
	if (deadline != NULL) {
		tasync_awaitable_release(deadline);
	}
	return rc == TASYNC_EAWAIT_CANCELLED ? -ETIMEDOUT : rc;
}

PHP_FUNCTION(fdwait_wait)
{
	zval *zstream;
	zend_string *what;
	double timeout;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_RESOURCE(zstream)
		Z_PARAM_STR(what)
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	unsigned events;
	if (zend_string_equals_literal(what, "r")) {
		events = TASYNC_IO_READABLE;
	} else if (zend_string_equals_literal(what, "w")) {
		events = TASYNC_IO_WRITABLE;
	} else {
		zend_argument_value_error(2, "must be \"r\" or \"w\"");
		RETURN_THROWS();
	}
	php_stream *stream;
	php_stream_from_zval(stream, zstream);
	php_socket_t fd;
	if (php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) == FAILURE
			|| fd < 0) {
		zend_argument_type_error(1, "must be a stream with a file descriptor");
		RETURN_THROWS();
	}
	int rc = wait_cooperatively((int) fd, events, timeout);
	if (rc == TASYNC_EHOST_RAISED) {
		RETURN_THROWS();
	}
	if (rc < 0) {
		php_error_docref(NULL, E_WARNING, "Wait failed: %s", tasync_strerror(rc));
		RETURN_FALSE;
	}
	RETURN_TRUE;
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fdwait_wait, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_INFO(0, stream)
	ZEND_ARG_TYPE_INFO(0, for, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_fdwait_read, 0, 3, MAY_BE_STRING | MAY_BE_FALSE)
	ZEND_ARG_INFO(0, socket)
	ZEND_ARG_TYPE_INFO(0, length, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry fdwait_functions[] = {
	ZEND_FE(fdwait_read, arginfo_fdwait_read)
	ZEND_FE(fdwait_wait, arginfo_fdwait_wait)
	ZEND_FE_END
};

/* The core that was loaded may be older than the headers: refuse to load
 * rather than call a function it does not have (ABI 1.2 here). */
PHP_MINIT_FUNCTION(fdwait)
{
	uint32_t abi = tasync_core_abi_version();
	if (TASYNC_ABI_MAJOR_OF(abi) != 1 || TASYNC_ABI_MINOR_OF(abi) < 2) {
		php_error_docref(NULL, E_CORE_WARNING, "fdwait needs the tasync core of ABI 1.2 or newer, 1.%u is loaded",
			(unsigned) TASYNC_ABI_MINOR_OF(abi));
		return FAILURE;
	}
	return SUCCESS;
}

PHP_MINFO_FUNCTION(fdwait)
{
	char abi[32];
	snprintf(abi, sizeof(abi), "%u.%u", (unsigned) TASYNC_ABI_MAJOR_OF(tasync_core_abi_version()),
		(unsigned) TASYNC_ABI_MINOR_OF(tasync_core_abi_version()));
	php_info_print_table_start();
	php_info_print_table_row(2, "fdwait", "enabled");
	php_info_print_table_row(2, "tasync core", tasync_core_version_string());
	php_info_print_table_row(2, "tasync ABI", abi);
	php_info_print_table_end();
}

zend_module_entry fdwait_module_entry = {
	STANDARD_MODULE_HEADER,
	"fdwait",
	fdwait_functions,
	PHP_MINIT(fdwait),
	NULL, NULL, NULL,
	PHP_MINFO(fdwait),
	PHP_FDWAIT_VERSION,
	STANDARD_MODULE_PROPERTIES
};

#ifdef COMPILE_DL_FDWAIT
ZEND_GET_MODULE(fdwait)
#endif
