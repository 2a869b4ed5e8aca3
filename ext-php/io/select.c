/*
 * io/select.c - stream_select() inside a coroutine (rule C18): PHP's own
 * function computes every result, and while it finds nothing ready the
 * coroutine waits for the streams' fds (io/poll.c's loop and wait). So
 * return values, array rewriting, buffered data counting as readable and
 * the errors for bad arguments are PHP's own.
 *
 * The fd of a socket stream of io/socket_streams.c or of a stdio stream
 * (pipes, FIFOs, STDIN, plain files: io/stdio.c) is watched directly (their
 * close forgets it); any other fd (a stream of another extension that
 * exposes one) is watched through a dup() that is forgotten and closed
 * afterwards, so the reactor never keeps a watch on an fd number that PHP
 * may close and reuse.
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/poll.h"
#include "io/socket_streams.h"
#include "io/wait.h"

#include "php_network.h"

#include <errno.h>

static zif_handler orig_stream_select;

/* Adds the fds of the streams of array for events. */
static void select_collect(zval *array, unsigned events, async_io_poll_set *set)
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
			async_io_poll_add(set, (int) fd, events,
				async_io_stream_is_socket(stream) || stream->ops == &php_stream_stdio_ops
					? ASYNC_IO_POLL_WATCH : ASYNC_IO_POLL_DUP);
		}
	} ZEND_HASH_FOREACH_END();
}

/* Waits until one of the fds of the three arrays is ready or the deadline
 * passes; call->max_fd receives the largest fd (PHP's warning shows it). */
static async_io_status select_wait(async_io_select_call *call, zval *saved, uint64_t deadline)
{
	async_io_poll_set set;
	async_io_poll_init(&set);
	select_collect(&saved[0], TASYNC_IO_READABLE, &set);
	select_collect(&saved[1], TASYNC_IO_WRITABLE, &set);
	select_collect(&saved[2], TASYNC_IO_PRIORITY, &set);
	call->max_fd = 0;
	for (uint32_t i = 0; i < set.count; i++) {
		if (set.fds[i].fd > call->max_fd) {
			call->max_fd = set.fds[i].fd;
		}
	}
	async_io_status st = async_io_poll_wait(&set, NULL, deadline, 0);
	async_io_poll_free(&set);
	return st;
}

static void select_failed(async_io_select_call *call, async_io_status st)
{
	(void) st;
	php_error_docref(NULL, E_WARNING, "Unable to select [%d]: %s (max_fd=%d)", ECANCELED, strerror(ECANCELED),
		call->max_fd);
}

/* Only plain int/null timeouts are taken over; anything else (and every
 * invalid value) goes to PHP's function and its errors. */
static bool select_timeout(const zval *zsec, const zval *zusec, uint64_t *deadline)
{
	if ((Z_TYPE_P(zsec) != IS_NULL && Z_TYPE_P(zsec) != IS_LONG)
			|| (zusec != NULL && Z_TYPE_P(zusec) != IS_NULL && Z_TYPE_P(zusec) != IS_LONG)) {
		return false;
	}
	bool sec_null = Z_TYPE_P(zsec) == IS_NULL;
	zend_long sec = sec_null ? 0 : Z_LVAL_P(zsec);
	zend_long usec = zusec != NULL && Z_TYPE_P(zusec) == IS_LONG ? Z_LVAL_P(zusec) : 0;
	if (sec < 0 || usec < 0 || (sec_null && zusec != NULL && Z_TYPE_P(zusec) != IS_NULL) || (!sec_null && sec == 0 && usec == 0)) {
		return false;
	}
	*deadline = sec_null ? 0 : async_io_deadline_in(sec, usec);
	return true;
}

/* stream_select(?array &$read, ?array &$write, ?array &$except, ?int $seconds, ?int $microseconds = null) */
static ZEND_NAMED_FUNCTION(async_io_stream_select)
{
	async_io_select_call call = {
		.orig = orig_stream_select, .timeout = select_timeout, .wait = select_wait, .failed = select_failed,
		.round_up = true,
	};
	async_io_select(&call, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_io_select_startup(void)
{
	orig_stream_select = async_io_hook("stream_select", async_io_stream_select);
}
