/*
 * php_async_io.h - transparent concurrency (docs/php.md, rule C18):
 * blocking PHP functions called inside a coroutine suspend only that
 * coroutine. Shared declarations of the io_*.c files:
 *
 *   io_hooks.c    the hook table (PHP functions whose handlers are
 *                 replaced at MINIT), the wait helpers every hook uses,
 *                 sleep / usleep / time_nanosleep / time_sleep_until
 *   io_streams.c  socket streams (tcp, udp, unix, udg, ssl, tls): the
 *                 transports' stream ops wrapped so that only the waiting
 *                 changes; one reader and one writer per stream (C24),
 *                 a read or write cancelled midway fails the stream;
 *                 stream_socket_recvfrom bounded by the stream's timeout;
 *                 fclose and stream_socket_pair
 *   io_select.c   stream_select over sockets, TLS streams, pipes and
 *                 plain files; the wait on several fds others use
 *   io_tls.c      TLS streams (https://, ssl://, tls://,
 *                 stream_socket_enable_crypto): PHP's own TLS code run in
 *                 its non-blocking mode, each would-block a suspension
 *   io_sockets.c  ext/sockets: socket_connect/accept/read/write/recv/
 *                 send/recvfrom/sendto/select on blocking sockets (PHP's
 *                 functions on the socket made non-blocking for the call)
 *   io_mysqli.c   mysqli_poll (the sockets of mysqlnd's connections)
 *   io_dns.c      gethostbyname, gethostbynamel, gethostbyaddr and the
 *                 name resolution of stream connects, on the thread pool
 *   io_dns_records.c dns_get_record, dns_check_record (checkdnsrr) and
 *                 dns_get_mx (getmxrr): the queries on the thread pool, the
 *                 answers parsed into PHP's arrays on the PHP thread
 *   io_stdio.c    every stream of PHP's stdio ops (pipes, FIFOs, STDIN/
 *                 STDOUT/STDERR, terminals, plain files): PHP's ops table
 *                 patched so that reads, writes, flock and fsync wait in the
 *                 coroutine, and closing waits for the waiters and children
 *                 (plain files: page-cache data inline, the rest through
 *                 the backend 256 KiB at a time; flock retried with LOCK_NB)
 *   io_proc.c     popen, shell_exec, exec, system, passthru (the command
 *                 started by the extension, its pipe a stdio stream),
 *                 proc_close (waits for the exit without reaping, then
 *                 PHP's own code reaps) and the gate before PHP's own
 *                 proc_open for what io_proc_open.c leaves to it
 *   io_proc_open.c proc_open started with posix_spawn() on the pool (no
 *                 copy of the process), its handle and pipes PHP's
 *   io_files.c    file_get_contents/file_put_contents of plain files:
 *                 one transfer of the whole file through io_fs.c's policy
 *   io_fsops.c    plain files by name: the stat family, file_exists and
 *                 the is_* access checks, unlink, rename, mkdir, rmdir,
 *                 opendir/readdir/scandir and opens on the pool where their
 *                 filesystem may stall; FIFOs opened without blocking
 *   io_fs.c       which filesystem a file is on (memory, local, remote) for
 *                 async.file_offload
 *   io_curl.c     ext/curl: curl_exec() on a multi handle of its own and
 *                 the curl_multi_exec / curl_multi_select loop, driven by
 *                 libcurl's socket and timer callbacks (built when
 *                 libcurl's headers are found)
 *
 * The rule every hook follows: when no runtime exists, or the caller is
 * not a PHP coroutine (the main flow is one, rule C3), or the engine
 * forbids switching here, PHP's own function runs unchanged. Otherwise the
 * hook keeps PHP's semantics (return values, warnings, timeouts) and only
 * replaces the blocking wait by a suspension of the calling coroutine.
 *
 * Still blocking inside coroutines (PHP's own code runs): TLS streams,
 * dns_get_record, checkdnsrr and getmxrr (PHP parses the answer with its
 * internal resolver state), proc_open's fork, metadata calls on local
 * disks (by choice: the kernel's caches serve them; async.file_offload=
 * always changes it), and touch, chmod, chown, chgrp, realpath, glob,
 * readlink, symlink, link, tempnam and disk_free_space everywhere.
 */
#ifndef PHP_ASYNC_IO_H
#define PHP_ASYNC_IO_H

#include "php_async.h"

#include <netdb.h>
#include <spawn.h>

/* ---------------------------------------------------------- io_hooks.c */

/*
 * The coroutine that may suspend in a hooked function now, or NULL when
 * PHP's blocking behaviour must be kept: no runtime, not inside a PHP
 * coroutine, an exception pending, or fiber switches blocked by the engine.
 */
tasync_coroutine_t *async_io_coroutine(void);

/* How a wait of a hooked function ended. */
typedef enum async_io_status {
	ASYNC_IO_READY = 0,     /* the fd is ready / the work is done */
	ASYNC_IO_TIMEOUT,       /* the deadline passed first */
	ASYNC_IO_CANCELLED,     /* the coroutine was cancelled: the call fails as
	                         * documented; the cancellation is pending again
	                         * (tasync_coroutine_repend_cancellation) and is
	                         * thrown at the next suspension point */
	ASYNC_IO_CLOSED,        /* the fd was forgotten: its stream is closing */
	ASYNC_IO_ABORTED,       /* an exception is pending: the request unwinds,
	                         * or a cancellation the coroutine already saw
	                         * fail a call is thrown now */
	ASYNC_IO_UNSUPPORTED,   /* the runtime cannot wait on this fd: fall back
	                         * to PHP's own blocking code */
} async_io_status;

/*
 * After a core wait returned rc (and err, whose reference this takes): the
 * C18 treatment of a cancellation (see io_hooks.c), the safe point, the
 * request's abort. ASYNC_IO_ABORTED means an exception is pending.
 */
async_io_status async_io_after_wait(int rc, void *err);

/* tasync_host_t.may_suspend and .wait_end (ABI 1.2), for other extensions. */
int async_host_may_suspend(void *hd, tasync_coroutine_t *co, void *co_data);
int async_host_wait_end(void *hd, tasync_coroutine_t *co, void *co_data, int rc, void *error);

/* Absolute deadline on the runtime's clock for a PHP timeval timeout;
 * 0 = none (NULL or negative tv_sec, PHP's "no timeout"). */
uint64_t async_io_deadline(const struct timeval *tv);

/* Waits until fd is ready for events (TASYNC_IO_* bits) or the deadline
 * (0 = none) passes. Call only when async_io_coroutine() is not NULL. */
async_io_status async_io_wait_fd(int fd, unsigned events, uint64_t deadline, unsigned *revents);

/* Suspends until aw completes or the deadline passes. */
async_io_status async_io_await(tasync_awaitable_t *aw, uint64_t deadline);

/* Runs fn(data) on the runtime's thread pool while the coroutine waits.
 * fn must not touch PHP (no emalloc, no zvals). ASYNC_IO_READY once it ran;
 * on ASYNC_IO_CANCELLED / ABORTED it has not run or has run to its end. */
async_io_status async_io_offload(void (*fn)(void *data), void *data);

/* Replaces the handler of an internal function; returns the original one,
 * or NULL when the function does not exist. Restored by
 * async_io_unhook_all() at MSHUTDOWN. */
zif_handler async_io_hook(const char *name, zif_handler handler);

/* ------------------------------------------------- per-stream wait state */

/*
 * Exists for a stream while a coroutine is suspended in one of its
 * operations, or was failed, or (socket streams) from the first wait of
 * the stream to its close. Closing the stream (fclose(), or the close op
 * however PHP or a driver frees the stream) wakes the waiters and waits
 * until they have left it before PHP frees it; a second coroutine that
 * reads (writes) while another one is suspended reading (writing) is
 * refused (rule C24).
 */
typedef struct async_io_busy {
	php_stream *stream;            /* NULL once detached */
	uint32_t users;                /* coroutines suspended in an operation */
	uint32_t closers;              /* coroutines waiting for the users to leave */
	tasync_coroutine_t *reader;    /* suspended in a read (borrowed) */
	tasync_coroutine_t *writer;    /* suspended in a write (borrowed) */
	uint64_t intruder;             /* id of a coroutine that wrote while the
	                                * reader waited: its reply has no reader */
	tasync_awaitable_t *changed;   /* completed at the next change, or NULL */
	bool closing;                  /* fclose() waits for the users to leave */
	bool failed;                   /* async_io_stream_fail() ran: kept until close */
	bool gone;                     /* freed with users inside (a close that could
	                                * not wait): they must not return into it */
	bool kept;                     /* a socket stream's: kept from its first wait
	                                * to its close (io_streams.c), so that a wait
	                                * neither allocates nor inserts into the table */
	tasync_awaitable_t *timeouts[2];  /* kept: the reader's and the writer's timeout,
	                                   * reused by their next waits (io_streams.c) */
	uint64_t timeout_deadlines[2];    /* when each of those fires */
} async_io_busy;

async_io_busy *async_io_busy_find(php_stream *stream);
/* Finds or creates the state and counts the caller as a user. */
async_io_busy *async_io_busy_enter(php_stream *stream);
/* Uncounts a user; frees the state once nobody needs it. */
void async_io_busy_leave(async_io_busy *b);
/* Wakes every coroutine waiting for a change of b. */
void async_io_busy_signal(async_io_busy *b);
/* Waits for the next change of b, counted as a user of the stream when
 * as_user (a closer waits without counting itself). */
async_io_status async_io_busy_wait(async_io_busy *b, uint64_t deadline, bool as_user);
/* Frees the state if nobody uses it. */
void async_io_busy_release(async_io_busy *b);
/* Forgets the stream of b (it is being freed); b lives on for its users. */
void async_io_busy_detach(async_io_busy *b);

/*
 * For a close of b's stream: marks it closing (new operations are refused,
 * waits end as ASYNC_IO_CLOSED), wakes the waiters and, when the caller is
 * a coroutine that may suspend, waits until every user has left, with its
 * cancellation held back meanwhile (it is pending again afterwards: the
 * close itself completes). The caller forgets the fd first, so that waits
 * on it end. False when users remain because the caller cannot wait here
 * (not a coroutine, a garbage collector's destructor, an exception pending):
 * the caller then frees the stream with async_io_busy_orphan().
 */
bool async_io_busy_drain(async_io_busy *b);

/*
 * The stream of b is freed while coroutines are still suspended in it (a
 * close that could not wait): b is detached and marked gone. Those
 * coroutines end with a fatal error instead of returning into PHP's code on
 * the freed stream (async_io_busy_check_gone).
 */
void async_io_busy_orphan(async_io_busy *b);

/* After a user's wait on b: does not return when b's stream is gone (the
 * user is uncounted; an aborted coroutine unwinds, others end with a fatal
 * error naming the cause). */
void async_io_busy_check_gone(async_io_busy *b);

/*
 * Waits until one of fds is ready for its events[i] (TASYNC_IO_* bits) or
 * the deadline (0 = none) passes. The fds are any PHP's code owns (each
 * is watched through a dup() closed afterwards, so that PHP may close and
 * reuse the numbers). ASYNC_IO_TIMEOUT when nothing is watchable and a
 * deadline is given; ASYNC_IO_UNSUPPORTED when the reactor refuses one.
 */
async_io_status async_io_wait_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline);

/*
 * As async_io_wait_fds(), but the fds are watched as they are: the
 * caller's own (dup()s of its own, say), which it forgets
 * (tasync_fd_forget) and closes afterwards. Forgetting one while the wait
 * runs ends the wait as ASYNC_IO_READY.
 */
async_io_status async_io_wait_own_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline);

/* ------------------------------------------------------------ startups */

void async_io_streams_startup(void);
void async_io_socket_open_startup(void);
void async_io_socket_open_shutdown(void);
void async_io_select_startup(void);
void async_io_dns_startup(void);
void async_io_dns_records_startup(void);
void async_io_files_startup(void);
void async_io_stdio_startup(void);
void async_io_stdio_request_shutdown(void);
void async_io_stdio_shutdown(void);
void async_io_proc_startup(void);
void async_io_proc_request_shutdown(void);
void async_io_fs_shutdown(void);
void async_io_fsops_startup(void);
void async_io_fsops_shutdown(void);
/* At MINIT and at every RINIT until ext/sockets is found. */
void async_io_sockets_startup(void);
void async_io_sockets_shutdown(void);
/* Likewise for ext/mysqli (mysqli_poll). */
void async_io_mysqli_startup(void);
/* io_pdo.c: rule C24 for PDO statements' result sets. */
void async_io_pdo_startup(void);
void async_io_pdo_request_shutdown(void);
void async_io_mysqli_shutdown(void);
#ifdef ASYNC_HAVE_CURL
/* After ext/curl's MINIT (async's optional dependency on curl). */
void async_io_curl_startup(void);
/* Before the runtime goes: multi handles forget the runtime. */
void async_io_curl_request_shutdown(void);
#endif

/* ------------------------------------------------------------- io_fs.c */

/* What a file's filesystem makes its calls wait for (io_fs.c). */
typedef enum async_io_fs_class {
	ASYNC_IO_FS_MEMORY = 0,   /* nothing: always inline */
	ASYNC_IO_FS_LOCAL,        /* a local disk: uncached data goes to the backend */
	ASYNC_IO_FS_REMOTE,       /* a server or daemon: everything goes to the backend */
} async_io_fs_class;

/* The class of the filesystem of path (absolute or relative to the working
 * directory) or of device dev, with async.file_offload applied. */
async_io_fs_class async_io_fs_of_path(const char *path);
async_io_fs_class async_io_fs_of_dev(dev_t dev);

/* ---------------------------------------------------------- io_fsops.c */

/*
 * Before opening plain-file name in mode inside a coroutine: 1 when it is a
 * FIFO whose open would block, once it no longer would (a writer waits for
 * a reader); out then holds the mode to open it with (non-blocking), and
 * async_io_fifo_opened() must follow a successful open. 0: open it as PHP
 * does. -1: the wait was cancelled (report it with async_io_fifo_failed())
 * or an exception is pending.
 */
int async_io_fifo_prepare(const char *name, const char *mode, char *out, size_t outlen);
void async_io_fifo_opened(php_stream *stream, const char *mode);
void async_io_fifo_failed(const char *name);

/* ----------------------------------------------------------- io_proc.c */

/*
 * Reaps child pid as pclose() does and returns what PHP's pclose returns
 * (the exit code, the raw status after a signal, -1 on failure). When
 * wait, a coroutine suspends until the child exited (outside coroutines
 * the thread blocks as in PHP); a cancelled wait, or !wait, leaves the
 * child to be reaped later without waiting and returns -1.
 */
int async_io_proc_reap(pid_t pid, bool wait);

/* Leaves child pid to be reaped, without waiting, once it has exited (at a
 * later spawn or the request's end). */
void async_io_proc_abandon(pid_t pid);

/* posix_spawnattr_init() with the calling thread's signal mask for the
 * child (a spawn runs on a pool thread). Returns 0, or an error number with
 * attr not initialised. */
int async_io_proc_spawnattr_init(posix_spawnattr_t *attr);

/* A copy of environ (the array only, emalloc'd; the strings stay put while
 * the PHP thread, the only one that changes them, waits for a spawn). */
char **async_io_proc_environ(void);

/* ------------------------------------------------------ io_proc_open.c */

/*
 * proc_open() in a coroutine started with posix_spawn() on the pool, its
 * result PHP's (a resource of type le_process, PHP's $pipes). Returns
 * false, having done and printed nothing, for what it leaves to PHP's own
 * proc_open (see io_proc_open.c).
 */
bool async_io_proc_open_spawn(int le_process, INTERNAL_FUNCTION_PARAMETERS);

/* ------------------------------------------------------------- io_tls.c */

void async_io_tls_startup(void);
/* Checks ext/openssl's stream data of a stream its factory just made;
 * false (TLS left to PHP) when the layout is not the known one. */
bool async_io_tls_check_new(php_stream *stream, bool crypto_proto, const struct timeval *timeout);
/* The layout was checked and holds. */
bool async_io_tls_known(void);
/* stream (ext/openssl's ops) has TLS active. */
bool async_io_tls_active(php_stream *stream);
/* A read or write of an active TLS stream in coroutine self. */
ssize_t async_io_tls_io(php_stream *stream, const php_stream_ops *orig, bool reading, char *buf, size_t count,
	tasync_coroutine_t *self);
/* PHP_STREAM_OPTION_CRYPTO_API: the handshake suspends the coroutine. */
int async_io_tls_set_option(php_stream *stream, const php_stream_ops *orig, int value,
	php_stream_xport_crypto_param *cparam);
/* Around a connect of ssl:// / tls://: holds back xp_ssl.c's handshake
 * (returns the flag to restore), then runs it through the stream's ops
 * once connected: 0, or -1 after PHP's "Failed to enable crypto". */
int async_io_tls_suspend_auto_enable(php_stream *stream);
void async_io_tls_restore_auto_enable(php_stream *stream, int was);
int async_io_tls_auto_enable(php_stream *stream);

/* ------------------------------------------------------------ io_dns.c */

/*
 * getaddrinfo(host, NULL, hints as php_network_getaddresses sets them) on
 * the thread pool. Returns ASYNC_IO_READY with *gai_error = 0 and *res set
 * (freeaddrinfo it), or with *gai_error set; or the wait's status.
 */
async_io_status async_io_getaddrinfo(const char *host, int socktype, struct addrinfo **res, int *gai_error);

/*
 * Where a read lands. The stream layer passes a pointer into the stream's
 * own read buffer (php_stream_fill_read_buffer; socket and stdio streams both use this); another coroutine reading
 * the same stream while this one waits may move or grow that buffer, so
 * after a wait the read goes to the buffer's current free space and
 * advances writepos itself (the caller then adds 0).
 */
typedef struct async_io_target {
	php_stream *stream;
	char *buf;
	size_t count;
	bool in_readbuf;
	bool moved;
	unsigned char *readbuf;
	size_t readbuflen;
	zend_off_t writepos;
} async_io_target;

static inline void async_io_target_init(async_io_target *t, php_stream *stream, char *buf, size_t count)
{
	t->stream = stream;
	t->buf = buf;
	t->count = count;
	t->moved = false;
	t->readbuf = stream->readbuf;
	t->readbuflen = stream->readbuflen;
	t->writepos = stream->writepos;
	t->in_readbuf = stream->readbuf != NULL && (unsigned char *) buf >= stream->readbuf
		&& (unsigned char *) buf < stream->readbuf + stream->readbuflen;
}

static inline void async_io_target_refresh(async_io_target *t)
{
	php_stream *s = t->stream;
	if (!t->in_readbuf || (s->readbuf == t->readbuf && s->readbuflen == t->readbuflen && s->writepos == t->writepos)) {
		return;
	}
	t->moved = true;
	t->readbuf = s->readbuf;
	t->readbuflen = s->readbuflen;
	t->writepos = s->writepos;
	t->buf = (char *) s->readbuf + s->writepos;
	t->count = s->readbuflen > (size_t) s->writepos ? s->readbuflen - (size_t) s->writepos : 0;
}

static inline ssize_t async_io_target_result(async_io_target *t, ssize_t n)
{
	if (t->moved && n > 0) {
		t->stream->writepos += n;
		return 0;
	}
	return n;
}

#endif /* PHP_ASYNC_IO_H */
