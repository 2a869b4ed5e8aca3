/*
 * io/file_contents.c - file_get_contents() and file_put_contents() of plain files
 * inside coroutines (rule C18).
 *
 * PHP opens the file as it always does (php_stream_open_wrapper_ex with
 * the function's own mode and flags: include_path, open_basedir, stream
 * contexts and every "Failed to open stream" warning stay PHP's). When the
 * stream is a plain regular file without filters and the transfer is at
 * least IO_FILE_MIN_ASYNC bytes, the data moves through tasync_await_op:
 * io_uring reads and writes the file natively, the other backends on the
 * thread pool, while the calling coroutine waits and the others run.
 * Smaller transfers are served from the page cache faster than a trip to
 * another thread, so they stay synchronous. Any other stream (http://,
 * php://, a socket, a pipe) goes through PHP's stream layer, whose socket
 * waits io/socket_streams.c already takes over.
 *
 * Failures are PHP's: a failed read or write gives the plain wrapper's
 * notice ("Read of N bytes failed with errno=..."), a short write
 * file_put_contents' warning. A cancelled transfer fails the same way with
 * errno ECANCELED, and the function returns false (C18).
 *
 * Not taken over: file_put_contents() of arrays, resources and objects and
 * with LOCK_EX (flock() would still block), and fread()/fwrite() on plain
 * file handles, whose position, buffering and filter state belong to the
 * stream layer.
 */
#include "io/families.h"
#include "io/file_metadata.h"
#include "io/file_streams.h"
#include "io/filesystems.h"
#include "io/hooks.h"
#include "io/wait.h"

#include "ext/standard/file.h"

#include <errno.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>

#define IO_FILE_MIN_ASYNC (64 * 1024)

static zif_handler orig_file_get_contents, orig_file_put_contents;

/* The fd of a plain regular file stream without filters, or -1. */
static int io_plain_file_fd(php_stream *stream, bool reading, zend_stat_t *st)
{
	int fd = -1;
	if (!php_stream_is(stream, PHP_STREAM_IS_STDIO)
			|| (reading ? stream->readfilters.head : stream->writefilters.head) != NULL
			|| php_stream_cast(stream, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) != SUCCESS
			|| fd < 0 || zend_fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		return -1;
	}
	return fd;
}

/* Each operation through the backend moves at most this much: io_uring
 * completes a buffered read in the submitting thread, so one read of a
 * whole large file on a cold page cache stalled the scheduler for all of it
 * (0.9 s for 200 MB). */
#define IO_FILE_CHUNK (256 * 1024)

/*
 * Reads up to len bytes at offset as the file's class wants it (io/filesystems.c):
 * data in the page cache inline (RWF_NOWAIT), the rest through the backend
 * at most IO_FILE_CHUNK at a time. Returns bytes or -errno; *status tells a
 * wait that did not end normally.
 */
static ssize_t io_file_pread(int fd, void *buf, size_t len, int64_t offset, async_io_fs_class cls,
		async_io_status *status)
{
	*status = ASYNC_IO_READY;
	if (len > IO_FILE_CHUNK) {
		/* RWF_NOWAIT too: one that finds pages under readahead may wait for
		 * them (measured: 5.4 s for one read of 200 MB on a cold cache). */
		len = IO_FILE_CHUNK;
	}
#ifdef RWF_NOWAIT
	if (cls != ASYNC_IO_FS_REMOTE) {
		/* Page-cache reads of a large file must still let the others run. */
		*status = async_io_inline_slice();
		if (*status != ASYNC_IO_READY) {
			return -ECANCELED;
		}
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		ssize_t n = preadv2(fd, &iov, 1, (off_t) offset, cls == ASYNC_IO_FS_MEMORY ? 0 : RWF_NOWAIT);
		if (n >= 0) {
			return n;
		}
		if (errno != EAGAIN && errno != EOPNOTSUPP && errno != EINVAL && errno != ENOSYS) {
			return -errno;
		}
	}
#endif
	return async_io_file_op(TASYNC_OP_READ, fd, buf, len, offset, 0, status);
}

static void io_file_failed(const char *what, size_t count, int err)
{
	php_error_docref(NULL, E_NOTICE, "%s of %zu bytes failed with errno=%d %s", what, count, err, strerror(err));
}

/* file_get_contents(string $filename, bool $use_include_path = false, ?resource $context = null, int $offset = 0, ?int $length = null): string|false */
static ZEND_NAMED_FUNCTION(async_io_file_get_contents)
{
	char *filename;
	size_t filename_len;
	bool use_include_path = false, maxlen_is_null = true;
	zval *zcontext = NULL;
	zend_long offset = 0, maxlen = 0;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "p|br!ll!", &filename, &filename_len,
				&use_include_path, &zcontext, &offset, &maxlen, &maxlen_is_null) == FAILURE
			|| (!maxlen_is_null && maxlen < 0)
			|| (zcontext != NULL && Z_RES_P(zcontext)->type != php_le_stream_context())) {
		orig_file_get_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* A FIFO fed by another coroutine is opened without blocking. */
	char fifo_mode[8];
	int fifo = use_include_path ? 0 : async_io_fifo_prepare(filename, "rb", fifo_mode, sizeof(fifo_mode));
	if (fifo < 0) {
		async_io_fifo_failed(filename);
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	php_stream_context *context = php_stream_context_from_zval(zcontext, 0);
	php_stream *stream = php_stream_open_wrapper_ex(filename, fifo ? fifo_mode : "rb",
		(use_include_path ? USE_PATH : 0) | REPORT_ERRORS, NULL, context);
	if (stream == NULL) {
		RETURN_FALSE;
	}
	if (fifo) {
		async_io_fifo_opened(stream, "rb");
	}
	/* As PHP: no read buffer for plain files, one read for the whole file. */
	if (php_stream_is(stream, PHP_STREAM_IS_STDIO)) {
		php_stream_set_option(stream, PHP_STREAM_OPTION_READ_BUFFER, PHP_STREAM_BUFFER_NONE, NULL);
	}
	if (offset != 0 && php_stream_seek(stream, offset, offset > 0 ? SEEK_SET : SEEK_END) < 0) {
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream", offset);
		php_stream_close(stream);
		RETURN_FALSE;
	}

	zend_stat_t st;
	int fd = io_plain_file_fd(stream, true, &st);
	zend_off_t pos = fd >= 0 ? php_stream_tell(stream) : -1;
	size_t want = 0;
	if (fd >= 0 && pos >= 0) {
		size_t left = st.st_size > pos ? (size_t) (st.st_size - pos) : 0;
		want = maxlen_is_null ? left : (size_t) maxlen < left ? (size_t) maxlen : left;
	}
	async_io_fs_class cls = fd >= 0 ? async_io_fs_of_dev(st.st_dev) : ASYNC_IO_FS_MEMORY;
	if (fd < 0 || pos < 0 || want < IO_FILE_MIN_ASYNC || cls == ASYNC_IO_FS_MEMORY) {
		/* PHP's own transfer (through io/stdio.c's read). */
		zend_string *contents = php_stream_copy_to_mem(stream, maxlen_is_null ? PHP_STREAM_COPY_ALL : (size_t) maxlen, 0);
		if (contents != NULL) {
			RETVAL_STR(contents);
		} else {
			RETVAL_EMPTY_STRING();
		}
		php_stream_close(stream);
		return;
	}

	/* A file that grows while it is read is read to its end, as PHP does. */
	size_t cap = maxlen_is_null ? want + 1 : want;
	size_t got = 0;
	zend_string *contents = zend_string_alloc(cap, 0);
	async_io_status status = ASYNC_IO_READY;
	for (;;) {
		if (got == cap) {
			if (!maxlen_is_null) {
				break;
			}
			cap += cap / 2 + 8192;
			contents = zend_string_realloc(contents, cap, 0);
		}
		ssize_t n = io_file_pread(fd, ZSTR_VAL(contents) + got, cap - got, (int64_t) pos + (int64_t) got, cls, &status);
		if (status != ASYNC_IO_READY) {
			break;
		}
		if (n <= 0) {
			if (n < 0) {
				io_file_failed("Read", cap - got, (int) -n);
			}
			break;
		}
		got += (size_t) n;
	}
	if (status == ASYNC_IO_CANCELLED) {
		io_file_failed("Read", cap - got, ECANCELED);
	}
	php_stream_close(stream);
	if (status != ASYNC_IO_READY) {
		zend_string_efree(contents);
		if (status == ASYNC_IO_ABORTED) {
			RETURN_THROWS();
		}
		RETURN_FALSE; /* C18: "false on failure" */
	}
	if (got == 0) {
		zend_string_efree(contents);
		RETURN_EMPTY_STRING();
	}
	if (got < cap) {
		contents = zend_string_truncate(contents, got, 0);
	}
	ZSTR_VAL(contents)[got] = '\0';
	RETURN_NEW_STR(contents);
}

/* file_put_contents(string $filename, mixed $data, int $flags = 0, ?resource $context = null): int|false */
static ZEND_NAMED_FUNCTION(async_io_file_put_contents)
{
	char *filename;
	size_t filename_len;
	zval *data, *zcontext = NULL;
	zend_long flags = 0;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "pz|lr!", &filename, &filename_len,
				&data, &flags, &zcontext) == FAILURE
			|| Z_TYPE_P(data) != IS_STRING || Z_STRLEN_P(data) < IO_FILE_MIN_ASYNC || (flags & LOCK_EX)
			|| (zcontext != NULL && Z_RES_P(zcontext)->type != php_le_stream_context())) {
		orig_file_put_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	php_stream_context *context = php_stream_context_from_zval(zcontext, flags & PHP_FILE_NO_DEFAULT_CONTEXT);
	php_stream *stream = php_stream_open_wrapper_ex(filename, (flags & PHP_FILE_APPEND) ? "ab" : "wb",
		((flags & PHP_FILE_USE_INCLUDE_PATH) ? USE_PATH : 0) | REPORT_ERRORS, NULL, context);
	if (stream == NULL) {
		RETURN_FALSE;
	}
	/* The string may be the last reference somewhere else: keep it. */
	zend_string *str = zend_string_copy(Z_STR_P(data));
	size_t len = ZSTR_LEN(str);
	ssize_t numbytes;
	zend_stat_t st;
	int fd = io_plain_file_fd(stream, false, &st);
	if (fd >= 0 && async_io_fs_of_dev(st.st_dev) == ASYNC_IO_FS_MEMORY) {
		fd = -1;
	}
	if (fd < 0) {
		numbytes = php_stream_write(stream, ZSTR_VAL(str), len);
	} else {
		size_t done = 0;
		async_io_status status = ASYNC_IO_READY;
		while (done < len) {
			size_t chunk = len - done > IO_FILE_CHUNK ? IO_FILE_CHUNK : len - done;
			ssize_t n = async_io_file_op(TASYNC_OP_WRITE, fd, ZSTR_VAL(str) + done, chunk, TASYNC_OFFSET_CURRENT, 0,
				&status);
			if (status != ASYNC_IO_READY || n <= 0) {
				if (status == ASYNC_IO_READY && n < 0) {
					io_file_failed("Write", len - done, (int) -n);
				} else if (status == ASYNC_IO_CANCELLED) {
					io_file_failed("Write", len - done, ECANCELED);
				}
				break;
			}
			done += (size_t) n;
		}
		numbytes = status == ASYNC_IO_READY ? (ssize_t) done : -1;
		if (status == ASYNC_IO_ABORTED) {
			php_stream_close(stream);
			zend_string_release(str);
			RETURN_THROWS();
		}
		if (done == 0 && len > 0 && status == ASYNC_IO_READY) {
			numbytes = -1;
		}
	}
	if (numbytes != -1 && (size_t) numbytes != len) {
		php_error_docref(NULL, E_WARNING, "Only %zd of %zd bytes written, possibly out of free disk space", numbytes, len);
		numbytes = -1;
	}
	php_stream_close(stream);
	zend_string_release(str);
	if (numbytes < 0) {
		RETURN_FALSE;
	}
	RETURN_LONG(numbytes);
}

void async_io_file_contents_startup(void)
{
	orig_file_get_contents = async_io_hook("file_get_contents", async_io_file_get_contents);
	orig_file_put_contents = async_io_hook("file_put_contents", async_io_file_put_contents);
}
