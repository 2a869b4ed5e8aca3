/*
 * io/mysqli.c - mysqli_poll inside coroutines (rule C18): the wait for the
 * replies of MYSQLI_ASYNC queries suspends only the calling coroutine.
 *
 * How. mysqlnd_poll() selects on the connections' sockets with PHP's
 * blocking select. PHP's mysqli_poll runs with a zero timeout; while it
 * finds nothing ready, the arrays are put back as given and the coroutine
 * waits (io/poll.c) until one of the sockets of the read array's
 * connections is readable or the timeout passes; then PHP's
 * function runs again (a poll of the error array alone is PHP's own). So its
 * results, the reject array, its warnings and errors are PHP's own. A
 * cancelled wait fails as PHP's mysqli_poll fails (false, a warning).
 *
 * The socket of a mysqli object is found through mysqlnd's structures
 * (ext/mysqli/php_mysqli_structs.h, mysqlnd's vio get_stream), looked up by
 * class name so that async.so does not need mysqli.so loaded; when mysqli
 * is loaded after async the function is taken over at RINIT.
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/poll.h"
#include "io/wait.h"

#include "ext/mysqli/php_mysqli_structs.h"

#include <errno.h>

static zif_handler orig_mysqli_poll;
static bool io_mysqli_hooked;
static zend_class_entry *io_mysqli_ce;

/* The socket of a connected mysqli object, or -1. */
static int io_mysqli_fd(zval *z)
{
	ZVAL_DEREF(z);
	if (Z_TYPE_P(z) != IS_OBJECT || !instanceof_function(Z_OBJCE_P(z), io_mysqli_ce)) {
		return -1;
	}
	MYSQLI_RESOURCE *res = (MYSQLI_RESOURCE *) Z_MYSQLI_P(z)->ptr;
	if (res == NULL || res->status < MYSQLI_STATUS_VALID || res->ptr == NULL) {
		return -1;
	}
	MYSQLND *conn = ((MY_MYSQL *) res->ptr)->mysql;
	if (conn == NULL || conn->data == NULL || conn->data->vio == NULL || conn->data->vio->data == NULL
			|| conn->data->vio->data->m.get_stream == NULL) {
		return -1;
	}
	php_stream *stream = conn->data->vio->data->m.get_stream(conn->data->vio);
	int fd;
	if (stream == NULL
			|| php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 1) != SUCCESS
			|| fd < 0) {
		return -1;
	}
	return (int) fd;
}

/*
 * Waits until one of the sockets of the read array's connections is
 * readable or the deadline passes: MySQL never sends out-of-band data, and
 * not every reactor watches for it (libev does not). The error array alone
 * is PHP's own poll.
 */
static async_io_status io_mysqli_wait(async_io_select_call *call, zval *saved, uint64_t deadline)
{
	(void) call;
	async_io_poll_set set;
	async_io_poll_init(&set);
	if (Z_TYPE(saved[0]) == IS_ARRAY) {
		zval *elem;
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL(saved[0]), elem) {
			async_io_poll_add(&set, io_mysqli_fd(elem), TASYNC_IO_READABLE, ASYNC_IO_POLL_DUP);
		} ZEND_HASH_FOREACH_END();
	}
	/* Nothing the runtime can wait on: PHP's own wait for the rest. */
	async_io_status st = set.count > 0 ? async_io_poll_wait(&set, NULL, deadline, 0) : ASYNC_IO_UNSUPPORTED;
	async_io_poll_free(&set);
	return st;
}

static void io_mysqli_failed(async_io_select_call *call, async_io_status st)
{
	(void) call;
	(void) st;
	/* C18: a failed poll, with a warning as PHP's failures give. */
	php_error_docref(NULL, E_WARNING, "%s", strerror(ECANCELED));
}

/* PHP's errors, and a poll that does not wait, stay PHP's own. */
static bool io_mysqli_timeout(const zval *zsec, const zval *zusec, uint64_t *deadline)
{
	if (Z_TYPE_P(zsec) != IS_LONG || (zusec != NULL && Z_TYPE_P(zusec) != IS_LONG) || Z_LVAL_P(zsec) < 0
			|| (zusec != NULL && Z_LVAL_P(zusec) < 0) || (Z_LVAL_P(zsec) == 0 && (zusec == NULL || Z_LVAL_P(zusec) == 0))) {
		return false;
	}
	*deadline = async_io_deadline_in(Z_LVAL_P(zsec), zusec != NULL ? Z_LVAL_P(zusec) : 0);
	return true;
}

/* mysqli_poll(?array &$read, ?array &$error, array &$reject, int $seconds, int $microseconds = 0): int|false */
static ZEND_NAMED_FUNCTION(async_io_mysqli_poll)
{
	async_io_select_call call = {
		.orig = orig_mysqli_poll, .timeout = io_mysqli_timeout, .wait = io_mysqli_wait, .failed = io_mysqli_failed,
		.keep_all = true,
	};
	async_io_select(&call, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_io_mysqli_startup(void)
{
	if (io_mysqli_hooked || !zend_hash_str_exists(&module_registry, "mysqli", sizeof("mysqli") - 1)) {
		return;
	}
	io_mysqli_ce = zend_hash_str_find_ptr(CG(class_table), "mysqli", sizeof("mysqli") - 1);
	if (io_mysqli_ce == NULL) {
		return;
	}
	io_mysqli_hooked = true;
	orig_mysqli_poll = async_io_hook("mysqli_poll", async_io_mysqli_poll);
}

void async_io_mysqli_shutdown(void)
{
	/* The module puts the handler back (async_io_unhook_all); mysqli may go
	 * before us. */
	io_mysqli_hooked = false;
	io_mysqli_ce = NULL;
}
