/*
 * fdwait - the smallest PHP extension that makes a blocking call
 * cooperative through the tasync C ABI, written as docs/extension-guide.md
 * says and built the way its readers build: phpize against an installed
 * tasync (config.m4, pkg-config). The test "out-of-tree-ext" (suite
 * install) builds it from a scratch install and runs the phpt of tests/
 * with the installed async.so, backends and phpt helpers, on every backend.
 *
 *   fdwait_read(resource $socket, int $length, float $timeout): string|false
 *
 * Receives at most $length bytes from a socket stream, waiting at most
 * $timeout seconds for them (negative: no limit). Outside a coroutine it
 * blocks in poll(2) as an extension without tasync would; inside one it
 * suspends only the calling coroutine. Both fail alike: false and the
 * warning "Read failed: <reason>" (a timeout, a cancellation, an error of
 * the socket). It reads the socket itself, past the stream's buffer: a
 * stream read with fread() as well may have buffered data it will not see.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

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
 * a cooperative call"), with one addition: the descriptor belongs to a PHP
 * stream, which may be closed at any time after this function returns and
 * would not tell us. So the function waits on a duplicate of its own, and
 * forgets that duplicate (tasync_fd_forget) before it closes it: what it
 * waited on, it closes. (plugins/pgsql, which knows when libpq closes its
 * socket, keeps its watch between calls instead.)
 *
 * Returns the bytes received (0 at the end of the stream) or a negative
 * code: -ETIMEDOUT, -ECANCELED (the coroutine was cancelled: the
 * cancellation is pending again), TASYNC_EHOST_RAISED (the host raised an
 * error in the coroutine: return at once), or the socket's error.
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
	int mine = dup(fd);
	if (mine < 0) {
		int e = errno;
		if (deadline != NULL) {
			tasync_awaitable_release(deadline);
		}
		return -e;
	}

	long result;
	for (;;) {
		ssize_t n = recv(mine, buf, len, MSG_DONTWAIT);
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
		int rc = tasync_await_fd(rt, mine, TASYNC_IO_READABLE, deadline, &revents, &err);
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

	tasync_fd_forget(rt, mine);
	close(mine);
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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_fdwait_read, 0, 3, MAY_BE_STRING | MAY_BE_FALSE)
	ZEND_ARG_INFO(0, socket)
	ZEND_ARG_TYPE_INFO(0, length, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry fdwait_functions[] = {
	ZEND_FE(fdwait_read, arginfo_fdwait_read)
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
