/*
 * io/file_metadata.c - plain files by name inside coroutines (rule C18): opening
 * (fopen, file(), copy(), SplFileObject, ...), the stat family (stat,
 * lstat, is_file, is_dir, is_link, filesize, filemtime, fileperms, ...,
 * through url_stat; file_exists, is_readable, is_writable, is_executable
 * through function hooks, since PHP answers those with access()), unlink,
 * rename, mkdir, rmdir, opendir / readdir / scandir, and FIFOs.
 *
 * Where a file's filesystem may make these calls wait for a server (the
 * remote class of io/filesystems.c: NFS, SMB, FUSE, ...; every file with
 * async.file_offload=always) the system calls run on the thread pool while
 * the coroutine waits; on local disks and memory filesystems they stay
 * inline, served by the kernel's caches (the benchmark in benchmarks/php/
 * gives the cost of each path). Everything around the system call is PHP's:
 * PHP 8.2 keeps php_plain_files_wrapper writable ("to support SWOOLE", says
 * php-src), so its ops table is replaced by a copy whose url_stat, unlink,
 * rename, mkdir, rmdir, dir_opener and stream_opener move the system call
 * to the pool and reproduce the plain wrapper's checks (open_basedir),
 * warnings and stat-cache clearing; PHP's functions above them (the stat
 * cache of php_stat, copy()'s checks, scandir's sorting) are untouched.
 * Outside coroutines, for local files, and for what the copy does not
 * cover (includes, persistent streams, a rename across filesystems), the
 * plain wrapper's own ops run.
 *
 * FIFOs: open() of a FIFO blocks until the other side opens it, so a FIFO
 * fed by another coroutine would hang the process. fopen() and
 * file_get_contents() of a FIFO inside a coroutine open it without
 * blocking ('n'): for reading at once (the reads then wait for data, which
 * io/stdio.c does in the coroutine), for writing once a reader exists
 * (looked for with a non-blocking open, every 1 ms to 50 ms); the stream
 * then gets its blocking mode and mode string back.
 */
#include "io/file_metadata.h"

#include "io/families.h"
#include "io/filesystems.h"
#include "io/hooks.h"
#include "io/wait.h"
#include "runtime/globals.h"

#include "ext/standard/file.h"
#include "ext/standard/php_filestat.h"
#include "fopen_wrappers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static php_stream_wrapper_ops orig_wops;
static php_stream_wrapper_ops my_wops;
static const php_stream_wrapper_ops *saved_wops;

/* ----------------------------------------------------------------- paths */

/* The path of a plain-file name ("file://" dropped), or NULL when another
 * wrapper serves it (a scheme, or a user's replacement of file://). */
static const char *io_plain_path(const char *name)
{
	const char *p = name;
	while (isalnum((unsigned char) *p) || *p == '+' || *p == '-' || *p == '.') {
		p++;
	}
	if (*p == ':' && p - name > 1 && (strncmp(p + 1, "//", 2) == 0 || (p - name == 4 && memcmp(name, "data:", 5) == 0))) {
		if (p - name != 4 || strncasecmp(name, "file", 4) != 0) {
			return NULL;
		}
		name += sizeof("file://") - 1;
	}
	if (FG(stream_wrappers) != NULL) {
		/* stream_wrapper_unregister/register may have replaced file:// */
		php_stream_wrapper *w = zend_hash_str_find_ptr(FG(stream_wrappers), "file", sizeof("file") - 1);
		if (w != &php_plain_files_wrapper) {
			return NULL;
		}
	}
	return name;
}

static const char *io_strip_file_scheme(const char *url)
{
	return strncasecmp(url, "file://", sizeof("file://") - 1) == 0 ? url + sizeof("file://") - 1 : url;
}

/* True when the system calls for path go to the pool from here. */
static bool io_offload_path(const char *path)
{
	return async_io_coroutine() != NULL && async_io_fs_of_path(path) == ASYNC_IO_FS_REMOTE;
}

/* ------------------------------------------------------------ pool jobs */

typedef enum io_fs_call {
	IO_FS_STAT, IO_FS_LSTAT, IO_FS_ACCESS, IO_FS_UNLINK, IO_FS_RENAME, IO_FS_MKDIR, IO_FS_MKDIR_P, IO_FS_RMDIR,
	IO_FS_OPEN, IO_FS_OPENDIR,
} io_fs_call;

typedef struct io_fs_job {
	io_fs_call call;
	const char *path;
	const char *path2;
	int arg;              /* access mode, open flags, mkdir mode */
	zend_stat_t *st;
	int rc;               /* the call's result (fd for OPEN) */
	int err;              /* its errno */
	DIR *dir;
} io_fs_job;

/* mkdir -p of an absolute, expanded path, as the plain wrapper does it:
 * from the deepest existing ancestor down. */
static int io_mkdir_p(char *buf, mode_t mode)
{
	size_t len = strlen(buf);
	/* Find the deepest prefix that exists. */
	size_t end = len;
	while (end > 1) {
		while (end > 1 && buf[end - 1] != '/') {
			end--;
		}
		while (end > 1 && buf[end - 1] == '/') {
			end--;
		}
		char saved = buf[end];
		buf[end] = '\0';
		struct stat sb;
		int exists = stat(buf, &sb) == 0;
		buf[end] = saved;
		if (exists) {
			break;
		}
	}
	/* Create each component after it. */
	size_t pos = end;
	for (;;) {
		while (pos < len && buf[pos] == '/') {
			pos++;
		}
		while (pos < len && buf[pos] != '/') {
			pos++;
		}
		char saved = buf[pos];
		buf[pos] = '\0';
		int rc = mkdir(buf, mode);
		int err = errno;
		buf[pos] = saved;
		bool last = true;
		for (size_t i = pos; i < len; i++) {
			if (buf[i] != '/') {
				last = false;
				break;
			}
		}
		if (rc < 0 && (err != EEXIST || last)) {
			errno = err;
			return -1;
		}
		if (last) {
			return 0;
		}
	}
}

static void io_fs_work(void *data)
{
	io_fs_job *j = data;
	errno = 0;
	switch (j->call) {
		case IO_FS_STAT:
			j->rc = stat(j->path, j->st);
			break;
		case IO_FS_LSTAT:
			j->rc = lstat(j->path, j->st);
			break;
		case IO_FS_ACCESS:
			j->rc = access(j->path, j->arg);
			break;
		case IO_FS_UNLINK:
			j->rc = unlink(j->path);
			break;
		case IO_FS_RENAME:
			j->rc = rename(j->path, j->path2);
			break;
		case IO_FS_MKDIR:
			j->rc = mkdir(j->path, (mode_t) j->arg);
			break;
		case IO_FS_MKDIR_P:
			j->rc = io_mkdir_p((char *) j->path, (mode_t) j->arg);
			break;
		case IO_FS_RMDIR:
			j->rc = rmdir(j->path);
			break;
		case IO_FS_OPEN:
			j->rc = open(j->path, j->arg, 0666);
			break;
		case IO_FS_OPENDIR:
			j->dir = opendir(j->path);
			j->rc = j->dir != NULL ? 0 : -1;
			break;
	}
	j->err = errno;
}

/*
 * Runs job on the pool. Returns true once it ran (errno is then the
 * call's); false when it did not end normally: cancelled (errno
 * ECANCELED; what the call produced is undone where it can be), aborted
 * (an exception is pending), or no pool (*ran_here: done inline).
 */
static bool io_fs_run(io_fs_job *j)
{
	async_io_status st = async_io_offload(io_fs_work, j);
	if (st == ASYNC_IO_UNSUPPORTED) {
		io_fs_work(j);
		st = ASYNC_IO_READY;
	}
	if (st == ASYNC_IO_READY) {
		errno = j->err;
		return true;
	}
	/* Ran to its end before the cancellation, or never ran. */
	if (j->call == IO_FS_OPEN && j->rc >= 0 && j->err == 0) {
		close(j->rc);
	}
	if (j->call == IO_FS_OPENDIR && j->dir != NULL) {
		closedir(j->dir);
		j->dir = NULL;
	}
	errno = ECANCELED;
	return false;
}

/* --------------------------------------------------------- wrapper ops */

static int io_url_stat(php_stream_wrapper *wrapper, const char *url, int flags, php_stream_statbuf *ssb,
		php_stream_context *context)
{
	const char *path = io_strip_file_scheme(url);
	if (!io_offload_path(path)) {
		return orig_wops.url_stat(wrapper, url, flags, ssb, context);
	}
	if (!(flags & PHP_STREAM_URL_STAT_IGNORE_OPEN_BASEDIR)
			&& php_check_open_basedir_ex(path, (flags & PHP_STREAM_URL_STAT_QUIET) ? 0 : 1)) {
		return -1;
	}
	io_fs_job j = { (flags & PHP_STREAM_URL_STAT_LINK) ? IO_FS_LSTAT : IO_FS_STAT, path, NULL, 0, &ssb->sb, -1, 0, NULL };
	if (!io_fs_run(&j)) {
		return -1;
	}
	return j.rc;
}

static int io_unlink(php_stream_wrapper *wrapper, const char *url, int options, php_stream_context *context)
{
	const char *path = io_strip_file_scheme(url);
	if (!io_offload_path(path)) {
		return orig_wops.unlink(wrapper, url, options, context);
	}
	if (php_check_open_basedir(path)) {
		return 0;
	}
	io_fs_job j = { IO_FS_UNLINK, path, NULL, 0, NULL, -1, 0, NULL };
	if (!io_fs_run(&j) || j.rc == -1) {
		if ((options & REPORT_ERRORS) && !EG(exception)) {
			php_error_docref1(NULL, path, E_WARNING, "%s", strerror(errno));
		}
		return 0;
	}
	php_clear_stat_cache(1, NULL, 0);
	return 1;
}

static int io_rename(php_stream_wrapper *wrapper, const char *url_from, const char *url_to, int options,
		php_stream_context *context)
{
	if (url_from == NULL || url_to == NULL) {
		return 0;
	}
	const char *from = io_strip_file_scheme(url_from), *to = io_strip_file_scheme(url_to);
	if (!io_offload_path(from) && !io_offload_path(to)) {
		return orig_wops.rename(wrapper, url_from, url_to, options, context);
	}
	if (php_check_open_basedir(from) || php_check_open_basedir(to)) {
		return 0;
	}
	io_fs_job j = { IO_FS_RENAME, from, to, 0, NULL, -1, 0, NULL };
	bool ran = io_fs_run(&j);
	if (ran && j.rc == -1 && errno == EXDEV) {
		/* Across filesystems: the plain wrapper's copy (whose reads and
		 * writes io/stdio.c serves). */
		return orig_wops.rename(wrapper, url_from, url_to, options, context);
	}
	if (!ran || j.rc == -1) {
		if (!EG(exception)) {
			php_error_docref2(NULL, from, to, E_WARNING, "%s", strerror(errno));
		}
		return 0;
	}
	php_clear_stat_cache(1, NULL, 0);
	return 1;
}

static int io_mkdir(php_stream_wrapper *wrapper, const char *url, int mode, int options, php_stream_context *context)
{
	const char *dir = io_strip_file_scheme(url);
	if (!io_offload_path(dir)) {
		return orig_wops.stream_mkdir(wrapper, url, mode, options, context);
	}
	char buf[MAXPATHLEN];
	io_fs_job j = { IO_FS_MKDIR, dir, NULL, mode, NULL, -1, 0, NULL };
	if (options & PHP_STREAM_MKDIR_RECURSIVE) {
		if (!expand_filepath_with_mode(dir, buf, NULL, 0, CWD_EXPAND)) {
			php_error_docref(NULL, E_WARNING, "Invalid path");
			return 0;
		}
		if (php_check_open_basedir(buf)) {
			return 0;
		}
		j.call = IO_FS_MKDIR_P;
		j.path = buf;
	} else if (php_check_open_basedir(dir)) {
		return 0;
	}
	bool ran = io_fs_run(&j);
	if (!ran || j.rc < 0) {
		/* php_mkdir() always reports; the recursive form when asked to. */
		if ((!(options & PHP_STREAM_MKDIR_RECURSIVE) || (options & REPORT_ERRORS)) && !EG(exception)) {
			php_error_docref(NULL, E_WARNING, "%s", strerror(errno));
		}
		return 0;
	}
	return 1;
}

static int io_rmdir(php_stream_wrapper *wrapper, const char *url, int options, php_stream_context *context)
{
	const char *path = io_strip_file_scheme(url);
	if (!io_offload_path(path)) {
		return orig_wops.stream_rmdir(wrapper, url, options, context);
	}
	if (php_check_open_basedir(path)) {
		return 0;
	}
	io_fs_job j = { IO_FS_RMDIR, path, NULL, 0, NULL, -1, 0, NULL };
	if (!io_fs_run(&j) || j.rc < 0) {
		if (!EG(exception)) {
			php_error_docref1(NULL, path, E_WARNING, "%s", strerror(errno));
		}
		return 0;
	}
	php_clear_stat_cache(1, NULL, 0);
	return 1;
}

/* ------------------------------------------------------- directory streams */

/* A directory read on the pool a batch of entries at a time. */
#define IO_DIR_BATCH 128

typedef struct io_dir {
	DIR *dir;
	php_stream_dirent *ents;   /* malloc: filled on the pool */
	uint32_t count, pos;
	bool end;
} io_dir;

static void io_dir_fill_work(void *data)
{
	io_dir *d = data;
	d->count = d->pos = 0;
	struct dirent *e;
	while (d->count < IO_DIR_BATCH && (e = readdir(d->dir)) != NULL) {
		php_stream_dirent *ent = &d->ents[d->count++];
		size_t n = strlen(e->d_name);
		if (n >= sizeof(ent->d_name)) {
			n = sizeof(ent->d_name) - 1;
		}
		memcpy(ent->d_name, e->d_name, n);
		ent->d_name[n] = '\0';
	}
	if (d->count < IO_DIR_BATCH) {
		d->end = true;
	}
}

static ssize_t io_dir_read(php_stream *stream, char *buf, size_t count)
{
	io_dir *d = stream->abstract;
	if (count != sizeof(php_stream_dirent)) {
		return -1;
	}
	if (d->pos == d->count) {
		if (d->end) {
			return 0;
		}
		if (async_io_coroutine() == NULL || async_io_offload(io_dir_fill_work, d) == ASYNC_IO_UNSUPPORTED) {
			io_dir_fill_work(d);
		} else if (d->pos == d->count && !d->end) {
			return 0; /* cancelled before it ran: as the end of the listing */
		}
		if (d->pos == d->count) {
			return 0;
		}
	}
	memcpy(buf, &d->ents[d->pos++], sizeof(php_stream_dirent));
	return sizeof(php_stream_dirent);
}

static int io_dir_close(php_stream *stream, int close_handle)
{
	io_dir *d = stream->abstract;
	int rc = closedir(d->dir);
	free(d->ents);
	efree(d);
	return rc;
}

static int io_dir_rewind(php_stream *stream, zend_off_t offset, int whence, zend_off_t *newoffs)
{
	io_dir *d = stream->abstract;
	rewinddir(d->dir);
	d->count = d->pos = 0;
	d->end = false;
	return 0;
}

static const php_stream_ops io_dir_ops = {
	NULL, io_dir_read, io_dir_close, NULL, "dir", io_dir_rewind, NULL, NULL, NULL,
};

static php_stream *io_dir_opener(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
		zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	if ((options & STREAM_USE_GLOB_DIR_OPEN) || !io_offload_path(path)) {
		return orig_wops.dir_opener(wrapper, path, mode, options, opened_path, context STREAMS_REL_CC);
	}
	if (!(options & STREAM_DISABLE_OPEN_BASEDIR) && php_check_open_basedir(path)) {
		return NULL;
	}
	io_fs_job j = { IO_FS_OPENDIR, path, NULL, 0, NULL, -1, 0, NULL };
	if (!io_fs_run(&j) || j.dir == NULL) {
		return NULL; /* errno tells why: "Failed to open directory: ..." */
	}
	io_dir *d = ecalloc(1, sizeof(*d));
	d->dir = j.dir;
	d->ents = malloc(IO_DIR_BATCH * sizeof(php_stream_dirent));
	if (d->ents == NULL) {
		closedir(d->dir);
		efree(d);
		errno = ENOMEM;
		return NULL;
	}
	php_stream *stream = php_stream_alloc(&io_dir_ops, d, 0, mode);
	if (stream == NULL) {
		closedir(d->dir);
		free(d->ents);
		efree(d);
	}
	return stream;
}

/* ------------------------------------------------------------ file opens */

static php_stream *io_stream_opener(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
		zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	if ((options & (STREAM_OPEN_FOR_INCLUDE | STREAM_OPEN_PERSISTENT | STREAM_USE_BLOCKING_PIPE))
			|| !io_offload_path(path)) {
		return orig_wops.stream_opener(wrapper, path, mode, options, opened_path, context STREAMS_REL_CC);
	}
	/* As php_plain_files_stream_opener and _php_stream_fopen, with the
	 * open() on the pool. */
	if (!(options & STREAM_DISABLE_OPEN_BASEDIR) && php_check_open_basedir(path)) {
		return NULL;
	}
	int open_flags;
	if (php_stream_parse_fopen_modes(mode, &open_flags) == FAILURE) {
		php_stream_wrapper_log_error(&php_plain_files_wrapper, options, "`%s' is not a valid mode for fopen", mode);
		return NULL;
	}
	char realpath[MAXPATHLEN];
	if (options & STREAM_ASSUME_REALPATH) {
		strlcpy(realpath, path, sizeof(realpath));
	} else if (expand_filepath(path, realpath) == NULL) {
		return NULL;
	}
	io_fs_job j = { IO_FS_OPEN, realpath, NULL, open_flags, NULL, -1, 0, NULL };
	if (!io_fs_run(&j) || j.rc < 0) {
		return NULL; /* errno tells why: "Failed to open stream: ..." */
	}
	php_stream *ret = php_stream_fopen_from_fd_rel(j.rc, mode, NULL, (open_flags & O_APPEND) == 0);
	if (ret == NULL) {
		close(j.rc);
		return NULL;
	}
	if (opened_path) {
		*opened_path = zend_string_init(realpath, strlen(realpath), 0);
	}
	return ret;
}

/* ------------------------------------------------------- access checks */

static zif_handler orig_file_exists, orig_is_readable, orig_is_writable, orig_is_writeable, orig_is_executable;

/* file_exists(), is_readable(), is_writable() and is_executable() of a
 * remote plain file: php_stat's access() on the pool. */
static void io_access_check(INTERNAL_FUNCTION_PARAMETERS, int amode, zif_handler orig)
{
	zend_string *filename;
	const char *path;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "S", &filename) == FAILURE
			|| ZSTR_LEN(filename) == 0 || strlen(ZSTR_VAL(filename)) != ZSTR_LEN(filename)
			|| (path = io_plain_path(ZSTR_VAL(filename))) == NULL || !io_offload_path(path)) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (php_check_open_basedir(path)) {
		RETURN_FALSE;
	}
	io_fs_job j = { IO_FS_ACCESS, path, NULL, amode, NULL, -1, 0, NULL };
	bool ran = io_fs_run(&j);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(ran && j.rc == 0);
}

static ZEND_NAMED_FUNCTION(async_io_file_exists)
{
	io_access_check(INTERNAL_FUNCTION_PARAM_PASSTHRU, F_OK, orig_file_exists);
}

static ZEND_NAMED_FUNCTION(async_io_is_readable)
{
	io_access_check(INTERNAL_FUNCTION_PARAM_PASSTHRU, R_OK, orig_is_readable);
}

static ZEND_NAMED_FUNCTION(async_io_is_writable)
{
	io_access_check(INTERNAL_FUNCTION_PARAM_PASSTHRU, W_OK, orig_is_writable);
}

static ZEND_NAMED_FUNCTION(async_io_is_writeable)
{
	io_access_check(INTERNAL_FUNCTION_PARAM_PASSTHRU, W_OK, orig_is_writeable);
}

static ZEND_NAMED_FUNCTION(async_io_is_executable)
{
	io_access_check(INTERNAL_FUNCTION_PARAM_PASSTHRU, X_OK, orig_is_executable);
}

/* ----------------------------------------------------------------- FIFOs */

int async_io_fifo_prepare(const char *name, const char *mode, char *out, size_t outlen)
{
	const char *path;
	if (async_io_coroutine() == NULL || (path = io_plain_path(name)) == NULL || strchr(mode, '+') != NULL
			|| strchr(mode, 'n') != NULL || strlen(mode) + 2 > outlen) {
		return 0;
	}
	zend_stat_t st;
	io_fs_job j = { IO_FS_STAT, path, NULL, 0, &st, -1, 0, NULL };
	if (io_offload_path(path)) {
		if (!io_fs_run(&j)) {
			return EG(exception) ? -1 : 0;
		}
	} else {
		j.rc = stat(path, &st);
	}
	if (j.rc != 0 || !S_ISFIFO(st.st_mode)) {
		return 0;
	}
	if (mode[0] != 'r') {
		/* No event says a reader came: look with a non-blocking open. */
		uint64_t backoff = 1000000;
		for (;;) {
			int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd >= 0) {
				close(fd);
				break;
			}
			if (errno != ENXIO) {
				return 0; /* PHP's open reports it */
			}
			void *err = NULL;
			int rc = tasync_delay(ASYNC_G(rt), backoff, NULL, &err);
			switch (async_io_after_wait(rc, err)) {
				case ASYNC_IO_READY:
					break;
				case ASYNC_IO_UNSUPPORTED:
					return 0;
				default:
					return -1; /* cancelled (C18: the open fails) or aborted */
			}
			if (backoff < 50000000) {
				backoff *= 2;
			}
		}
	}
	snprintf(out, outlen, "%sn", mode);
	return 1;
}

void async_io_fifo_failed(const char *name)
{
	if (!EG(exception)) {
		php_error_docref1(NULL, name, E_WARNING, "Failed to open stream: %s", strerror(ECANCELED));
	}
}

/* After an open with the mode of async_io_fifo_prepare: the blocking mode
 * and the mode string the caller asked for. */
void async_io_fifo_opened(php_stream *stream, const char *mode)
{
	int fd = -1;
	if (php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) == SUCCESS
			&& fd >= 0) {
		int fl = fcntl(fd, F_GETFL);
		if (fl != -1) {
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
		}
	}
	strlcpy(stream->mode, mode, sizeof(stream->mode));
}

static zif_handler orig_fopen;

/* fopen(string $filename, string $mode, bool $use_include_path = false, ?resource $context = null): resource|false */
static ZEND_NAMED_FUNCTION(async_io_fopen)
{
	char *filename, *mode;
	size_t filename_len, mode_len;
	bool use_include_path = false;
	zval *zcontext = NULL;
	char fifo_mode[20];
	int fifo = 0;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "ps|br!", &filename, &filename_len,
				&mode, &mode_len, &use_include_path, &zcontext) == FAILURE
			|| use_include_path || strlen(mode) != mode_len
			|| (zcontext != NULL && Z_RES_P(zcontext)->type != php_le_stream_context())
			|| (fifo = async_io_fifo_prepare(filename, mode, fifo_mode, sizeof(fifo_mode))) == 0) {
		orig_fopen(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (fifo < 0) {
		async_io_fifo_failed(filename);
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	/* As PHP's fopen(), with the FIFO's mode. */
	php_stream_context *context = php_stream_context_from_zval(zcontext, 0);
	php_stream *stream = php_stream_open_wrapper_ex(filename, fifo_mode, REPORT_ERRORS, NULL, context);
	if (stream == NULL) {
		RETURN_FALSE;
	}
	async_io_fifo_opened(stream, mode);
	php_stream_to_zval(stream, return_value);
}

/* ---------------------------------------------------------------- module */

void async_io_file_metadata_startup(void)
{
	saved_wops = php_plain_files_wrapper.wops;
	if (saved_wops != NULL) {
		orig_wops = *saved_wops;
		my_wops = orig_wops;
		if (orig_wops.url_stat) {
			my_wops.url_stat = io_url_stat;
		}
		if (orig_wops.unlink) {
			my_wops.unlink = io_unlink;
		}
		if (orig_wops.rename) {
			my_wops.rename = io_rename;
		}
		if (orig_wops.stream_mkdir) {
			my_wops.stream_mkdir = io_mkdir;
		}
		if (orig_wops.stream_rmdir) {
			my_wops.stream_rmdir = io_rmdir;
		}
		if (orig_wops.dir_opener) {
			my_wops.dir_opener = io_dir_opener;
		}
		if (orig_wops.stream_opener) {
			my_wops.stream_opener = io_stream_opener;
		}
		php_plain_files_wrapper.wops = &my_wops;
	}
	orig_fopen = async_io_hook("fopen", async_io_fopen);
	orig_file_exists = async_io_hook("file_exists", async_io_file_exists);
	orig_is_readable = async_io_hook("is_readable", async_io_is_readable);
	orig_is_writable = async_io_hook("is_writable", async_io_is_writable);
	orig_is_writeable = async_io_hook("is_writeable", async_io_is_writeable);
	orig_is_executable = async_io_hook("is_executable", async_io_is_executable);
}

void async_io_file_metadata_shutdown(void)
{
	if (saved_wops != NULL && php_plain_files_wrapper.wops == &my_wops) {
		php_plain_files_wrapper.wops = saved_wops;
	}
	saved_wops = NULL;
}
