/*
 * io/processes.c - processes inside coroutines (rule C18): popen(), pclose(),
 * shell_exec() and the backtick operator, exec(), system(), passthru(),
 * proc_close(), with proc_open()'s pipes served by io/stdio.c (proc_open()
 * itself is io/proc_open.c's).
 *
 * The exec family and popen() start the command as popen(3) does —
 * posix_spawn() of /bin/sh -c with the pipe on the child's stdout (or
 * stdin), the environment and signal state the thread has, no attributes —
 * but keep its pid, which popen(3) hides: the pipe becomes a plain stdio
 * stream (php_stream_fopen_from_fd) whose reads wait in the coroutine
 * (io/stdio.c), and whose close waits for the child's exit without
 * reaping it (tasync_await_child_exit: a pidfd where the kernel has it),
 * then reaps it with waitpid() and returns the status as pclose() does. So
 * pclose() and fclose() of a popen() stream, and the end of each exec call,
 * suspend only the caller. Everything else is PHP's: the argument checks
 * and their errors, the reading loops (exec's lines without trailing
 * whitespace and its last line, system()'s output flushed line by line,
 * passthru()'s binary chunks, shell_exec()'s null for no output and false
 * when the command cannot be started), the warnings and the exit codes.
 *
 * proc_close() closes the process's pipes (a child reading its stdin sees
 * EOF, as with PHP's own proc_close), waits for the child's exit without
 * reaping it, then calls PHP's proc_close, whose waitpid() now returns at
 * once: PHP's bookkeeping of the process stays its own.
 *
 * Cancellation (C18): a cancelled exec call returns false (exit code -1),
 * shell_exec() false, a cancelled proc_close() or pclose() -1. The command
 * is not killed — PHP never kills what it started — and is not waited
 * for: its pipe is closed (it sees EPIPE or SIGPIPE when it writes again)
 * and it is reaped without waiting, at a later spawn or at the end of the
 * request, when it has exited.
 *
 * Outside coroutines, and in ZTS builds (whose popen() changes to PHP's
 * virtual working directory first), PHP's own functions run.
 */
#include "io/processes.h"

#include "io/families.h"
#include "io/hooks.h"
#include "io/stdio.h"
#include "io/wait.h"
#include "runtime/globals.h"

#include "ext/standard/file.h"
#include "ext/standard/php_string.h"
#include "ext/standard/proc_open.h"
#include "SAPI.h"
#include "main/php_output.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static zif_handler orig_proc_close;
#ifndef VIRTUAL_DIR
static zif_handler orig_popen, orig_shell_exec, orig_exec, orig_system, orig_passthru;
#endif
static int le_process = -1;

/* --------------------------------------------------- children left behind */

/* Children whose waits were cancelled: reaped once they have exited. */
ZEND_TLS pid_t *io_abandoned;
ZEND_TLS uint32_t io_abandoned_count, io_abandoned_size;

static void io_reap_abandoned(void)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < io_abandoned_count; i++) {
		pid_t r;
		do {
			r = waitpid(io_abandoned[i], NULL, WNOHANG);
		} while (r == -1 && errno == EINTR);
		if (r == 0) {
			io_abandoned[kept++] = io_abandoned[i]; /* still running */
		}
	}
	io_abandoned_count = kept;
}

void async_io_proc_abandon(pid_t pid)
{
	io_reap_abandoned();
	if (io_abandoned_count == io_abandoned_size) {
		uint32_t size = io_abandoned_size ? io_abandoned_size * 2 : 8;
		pid_t *bigger = realloc(io_abandoned, size * sizeof(pid_t));
		if (bigger == NULL) {
			return;
		}
		io_abandoned = bigger;
		io_abandoned_size = size;
	}
	io_abandoned[io_abandoned_count++] = pid;
}

/* ----------------------------------------------------------------- reaping */

/* Suspends until pid exited, without reaping it. */
static async_io_status io_wait_exit(pid_t pid)
{
	void *err = NULL;
	int rc = tasync_await_child_exit(ASYNC_G(rt), (int) pid, NULL, &err);
	return async_io_after_wait(rc, err);
}

int async_io_proc_reap(pid_t pid, bool wait)
{
	if (!wait) {
		async_io_proc_abandon(pid);
		return -1;
	}
	if (async_io_coroutine() != NULL) {
		async_io_status st = io_wait_exit(pid);
		if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_ABORTED) {
			async_io_proc_abandon(pid);
			return -1;
		}
	}
	int status = 0;
	pid_t r;
	do {
		r = waitpid(pid, &status, 0);
	} while (r == -1 && errno == EINTR);
	if (r == -1) {
		return -1;
	}
	/* As php_stdiop_close() after pclose(3). */
	return WIFEXITED(status) ? WEXITSTATUS(status) : status;
}

#ifndef VIRTUAL_DIR

/* --------------------------------------------------------------- spawning */

/* What the pool thread needs to start the command (io_spawn). */
typedef struct io_spawn_job {
	posix_spawn_file_actions_t *fa;
	posix_spawnattr_t *attr;
	char **argv;
	char **envp;        /* a copy of environ made on the PHP thread */
	pid_t pid;
	int rc;
	bool ran;
} io_spawn_job;

static void io_spawn_work(void *data)
{
	io_spawn_job *j = data;
	j->rc = posix_spawn(&j->pid, _PATH_BSHELL, j->fa, j->attr, j->argv, j->envp);
	j->ran = true;
}

/* posix_spawnattr_init() with the calling thread's signal mask for the
 * child: the spawn runs on a pool thread, whose mask is not the PHP
 * thread's, and the child must start with what PHP's fork would have given
 * it. Returns 0, or an error number with attr not initialised. */
int async_io_proc_spawnattr_init(posix_spawnattr_t *attr)
{
	sigset_t mask;
	int rc = posix_spawnattr_init(attr);
	if (rc != 0) {
		return rc;
	}
	rc = pthread_sigmask(SIG_SETMASK, NULL, &mask);
	if (rc == 0) {
		rc = posix_spawnattr_setsigmask(attr, &mask);
	}
	if (rc == 0) {
		rc = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK);
	}
	if (rc != 0) {
		posix_spawnattr_destroy(attr);
	}
	return rc;
}

char **async_io_proc_environ(void)
{
	size_t n = 0;
	while (environ != NULL && environ[n] != NULL) {
		n++;
	}
	char **copy = emalloc((n + 1) * sizeof(char *));
	if (n > 0) {
		memcpy(copy, environ, n * sizeof(char *));
	}
	copy[n] = NULL;
	return copy;
}

/*
 * Starts "/bin/sh -c command" as popen(3) does, the pipe on the child's
 * stdout (reading) or stdin. Returns the parent's end (close-on-exec) and
 * *pid, or -1 with errno set (ECANCELED when the coroutine was cancelled).
 *
 * posix_spawn() returns only once the child has called execve(), which a
 * loaded machine can delay for milliseconds: it runs on the thread pool,
 * with the calling thread's signal mask given to the child explicitly (a
 * pool thread's mask is not the PHP thread's), so the child starts with
 * what popen(3) from this thread would have given it.
 */
static int io_spawn(const char *command, bool reading, pid_t *pid)
{
	io_reap_abandoned();
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		return -1;
	}
	int parent = reading ? fds[0] : fds[1];
	int child = reading ? fds[1] : fds[0];
	int target = reading ? STDOUT_FILENO : STDIN_FILENO;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc != 0) {
		close(parent);
		close(child);
		errno = rc;
		return -1;
	}
	rc = async_io_proc_spawnattr_init(&attr);
	if (rc == 0) {
		/* dup2 onto itself clears close-on-exec (the pipe may have got the
		 * target's number when that was closed). */
		rc = posix_spawn_file_actions_adddup2(&fa, child, target);
		if (rc == 0) {
			char *argv[] = { "sh", "-c", (char *) command, NULL };
			io_spawn_job j = { &fa, &attr, argv, async_io_proc_environ(), 0, 0, false };
			async_io_status st = async_io_offload(io_spawn_work, &j);
			if (st == ASYNC_IO_UNSUPPORTED) {
				io_spawn_work(&j); /* no pool: here */
				st = ASYNC_IO_READY;
			}
			efree(j.envp);
			if (st != ASYNC_IO_READY) {
				/* Cancelled (or the request unwinds): a command that started
				 * anyway is left to itself. */
				if (j.ran && j.rc == 0) {
					async_io_proc_abandon(j.pid);
				}
				rc = ECANCELED;
			} else {
				rc = j.rc;
				*pid = j.pid;
			}
		}
		posix_spawnattr_destroy(&attr);
	}
	posix_spawn_file_actions_destroy(&fa);
	close(child);
	if (rc != 0) {
		close(parent);
		errno = rc;
		return -1;
	}
	return parent;
}

/* The command's pipe as a stdio stream that reaps the child when closed;
 * NULL (errno set, the child abandoned) when the stream cannot be made. */
static php_stream *io_spawn_stream(const char *command, bool reading, const char *mode)
{
	pid_t pid;
	int fd = io_spawn(command, reading, &pid);
	if (fd < 0) {
		return NULL;
	}
	php_stream *stream = php_stream_fopen_from_fd(fd, mode, NULL);
	if (stream == NULL) {
		int err = errno;
		close(fd);
		async_io_proc_abandon(pid);
		errno = err;
		return NULL;
	}
	async_io_stdio_set_child(stream, pid, async_io_proc_reap);
	return stream;
}

/* Closes a command's stream: its exit code, or -1 when a read was
 * cancelled (the child is then not waited for). */
static int io_close_command(php_stream *stream)
{
	if (async_io_stdio_was_cancelled(stream)) {
		async_io_stdio_abandon_child(stream);
	}
	return php_stream_close(stream);
}

/* ------------------------------------------------------------------ popen */

/* popen(string $command, string $mode): resource|false */
static ZEND_NAMED_FUNCTION(async_io_popen)
{
	char *command, *mode;
	size_t command_len, mode_len;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "ps", &command, &command_len,
				&mode, &mode_len) == FAILURE) {
		orig_popen(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* PHP drops the first 'b'; what popen(3) is then given must be "r" or
	 * "w" here. Anything else (errors and warnings included) is PHP's. */
	char posix_mode[3] = { 0 };
	size_t n = 0;
	bool dropped = false;
	for (size_t i = 0; i < mode_len && n < sizeof(posix_mode) - 1; i++) {
		if (mode[i] == 'b' && !dropped) {
			dropped = true;
			continue;
		}
		posix_mode[n++] = mode[i];
	}
	if (mode_len - (dropped ? 1 : 0) != 1 || (posix_mode[0] != 'r' && posix_mode[0] != 'w')) {
		orig_popen(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	php_stream *stream = io_spawn_stream(command, posix_mode[0] == 'r', mode);
	if (stream == NULL) {
		php_error_docref2(NULL, command, posix_mode, E_WARNING, "%s", strerror(errno));
		RETURN_FALSE;
	}
	php_stream_to_zval(stream, return_value);
}

/* ------------------------------------------------------------- shell_exec */

/* shell_exec(string $command): string|false|null */
static ZEND_NAMED_FUNCTION(async_io_shell_exec)
{
	char *command;
	size_t command_len;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "s", &command, &command_len) == FAILURE
			|| command_len == 0 || strlen(command) != command_len) {
		orig_shell_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	php_stream *stream = io_spawn_stream(command, true, "rb");
	if (stream == NULL) {
		php_error_docref(NULL, E_WARNING, "Unable to execute '%s'", command);
		RETURN_FALSE;
	}
	zend_string *ret = php_stream_copy_to_mem(stream, PHP_STREAM_COPY_ALL, 0);
	bool cancelled = async_io_stdio_was_cancelled(stream);
	io_close_command(stream);
	if (EG(exception)) {
		if (ret != NULL) {
			zend_string_release(ret);
		}
		RETURN_THROWS();
	}
	if (cancelled) {
		if (ret != NULL) {
			zend_string_release(ret);
		}
		RETURN_FALSE; /* C18: as a command that could not run */
	}
	if (ret != NULL && ZSTR_LEN(ret) > 0) {
		RETVAL_STR(ret);
	} else if (ret != NULL) {
		zend_string_release(ret);
	}
}

/* -------------------------------------------------- exec, system, passthru */

static size_t io_strip_trailing_whitespace(char *buf, size_t len)
{
	while (len > 0 && isspace((unsigned char) buf[len - 1])) {
		len--;
	}
	buf[len] = '\0';
	return len;
}

/* One line of output: system() prints it, exec() with an array keeps it. */
static size_t io_exec_line(int type, zval *array, char *buf, size_t len)
{
	if (type == 1) {
		PHPWRITE(buf, len);
		if (php_output_get_level() < 1) {
			sapi_flush();
		}
	} else if (type == 2) {
		len = io_strip_trailing_whitespace(buf, len);
		add_next_index_stringl(array, buf, len);
	}
	return len;
}

/*
 * php_exec() with the command started here: type 0 exec (last line), 1
 * system (prints lines as they come), 2 exec with $output, 3 passthru
 * (binary). Returns the exit code; return_value as php_exec sets it.
 */
static int io_exec(int type, const char *cmd, zval *array, zval *return_value)
{
#if PHP_SIGCHILD
	void (*sig_handler)() = signal(SIGCHLD, SIG_DFL);
#endif
	php_stream *stream = io_spawn_stream(cmd, true, "rb");
	if (stream == NULL) {
		php_error_docref(NULL, E_WARNING, "Unable to fork [%s]", cmd);
		RETVAL_FALSE;
#if PHP_SIGCHILD
		signal(SIGCHLD, sig_handler);
#endif
		return -1;
	}
	size_t buflen = EXEC_INPUT_BUF, len = 0, line_len = 0;
	char *buf = emalloc(buflen);
	if (type != 3) {
		/* Whole lines, however long; the last one may lack its newline. */
		bool have_line = false;
		for (;;) {
			size_t got = 0;
			if (buflen - len < EXEC_INPUT_BUF) {
				buflen = len + EXEC_INPUT_BUF;
				buf = erealloc(buf, buflen);
			}
			if (php_stream_get_line(stream, buf + len, EXEC_INPUT_BUF, &got) == NULL) {
				break;
			}
			len += got;
			if (buf[len - 1] != '\n' && !php_stream_eof(stream)) {
				continue; /* the rest of a long line */
			}
			line_len = io_exec_line(type, array, buf, len);
			have_line = true;
			len = 0;
		}
		if (len > 0) {
			/* What came before the end of the output or a failed read. */
			line_len = io_exec_line(type, array, buf, len);
			have_line = true;
		}
		if (have_line && line_len > 0) {
			/* The last line, as exec() and system() return it. */
			line_len = io_strip_trailing_whitespace(buf, line_len);
			RETVAL_STRINGL(buf, line_len);
		} else {
			RETVAL_EMPTY_STRING();
		}
	} else {
		ssize_t n;
		while ((n = php_stream_read(stream, buf, EXEC_INPUT_BUF)) > 0) {
			PHPWRITE(buf, n);
		}
	}
	efree(buf);
	bool cancelled = async_io_stdio_was_cancelled(stream);
	int status = io_close_command(stream);
#if PHP_SIGCHILD
	signal(SIGCHLD, sig_handler);
#endif
	if (cancelled) {
		zval_ptr_dtor(return_value);
		RETVAL_FALSE; /* C18: as when the command could not be started */
		return -1;
	}
	return status;
}

/* exec(), system() (mode 1) and passthru() (mode 3), as php_exec_ex. */
static void io_exec_ex(INTERNAL_FUNCTION_PARAMETERS, int mode, zif_handler orig)
{
	char *cmd;
	size_t cmd_len;
	zval *ret_code = NULL, *ret_array = NULL;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), mode ? "s|z" : "s|zz", &cmd,
				&cmd_len, mode ? &ret_code : &ret_array, &ret_code) == FAILURE
			|| cmd_len == 0 || strlen(cmd) != cmd_len
			|| (ret_array != NULL && !Z_ISREF_P(ret_array)) || (ret_code != NULL && !Z_ISREF_P(ret_code))) {
		/* Errors (and by-reference surprises) are PHP's own. */
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	int ret;
	if (ret_array == NULL) {
		ret = io_exec(mode, cmd, NULL, return_value);
	} else {
		if (Z_TYPE_P(Z_REFVAL_P(ret_array)) == IS_ARRAY) {
			ZVAL_DEREF(ret_array);
			SEPARATE_ARRAY(ret_array);
		} else {
			ret_array = zend_try_array_init(ret_array);
			if (ret_array == NULL) {
				RETURN_THROWS();
			}
		}
		ret = io_exec(2, cmd, ret_array, return_value);
	}
	if (EG(exception)) {
		return;
	}
	if (ret_code != NULL) {
		ZEND_TRY_ASSIGN_REF_LONG(ret_code, ret);
	}
}

static ZEND_NAMED_FUNCTION(async_io_exec)
{
	io_exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0, orig_exec);
}

static ZEND_NAMED_FUNCTION(async_io_system)
{
	io_exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 1, orig_system);
}

static ZEND_NAMED_FUNCTION(async_io_passthru)
{
	io_exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 3, orig_passthru);
}

#endif /* !VIRTUAL_DIR */

/* ------------------------------------------------------------- proc_close */

/* proc_close(resource $process): int */
static ZEND_NAMED_FUNCTION(async_io_proc_close)
{
	zval *zproc;
	php_process_handle *proc;
	if (async_io_coroutine() == NULL || le_process < 0
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "r", &zproc) == FAILURE
			|| (proc = zend_fetch_resource_ex(zproc, NULL, le_process)) == NULL) {
		orig_proc_close(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* The pipes first, as PHP does: a child reading its stdin ends on EOF.
	 * PHP's destructor closes them again (a no-op) and drops their
	 * references. */
	for (int i = 0; i < proc->npipes; i++) {
		if (proc->pipes[i] != NULL) {
			zend_list_close(proc->pipes[i]);
		}
	}
	switch (io_wait_exit(proc->child)) {
		case ASYNC_IO_CANCELLED:
		case ASYNC_IO_ABORTED: {
			/* Not waited for (C18: proc_close() fails with -1): PHP's
			 * destructor without waiting, the child reaped later. */
			pid_t child = proc->child;
			FG(pclose_wait) = 0;
			zend_list_close(Z_RES_P(zproc));
			async_io_proc_abandon(child);
			if (EG(exception)) {
				RETURN_THROWS();
			}
			RETURN_LONG(-1);
		}
		default:
			/* Exited (or not a child of ours any more): PHP's own
			 * proc_close, whose waitpid() returns at once. */
			orig_proc_close(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* ---------------------------------------------------------------- module */

void async_io_processes_startup(void)
{
	le_process = zend_fetch_list_dtor_id("process");
	orig_proc_close = async_io_hook("proc_close", async_io_proc_close);
#ifndef VIRTUAL_DIR
	orig_popen = async_io_hook("popen", async_io_popen);
	orig_shell_exec = async_io_hook("shell_exec", async_io_shell_exec);
	orig_exec = async_io_hook("exec", async_io_exec);
	orig_system = async_io_hook("system", async_io_system);
	orig_passthru = async_io_hook("passthru", async_io_passthru);
#endif
}

void async_io_processes_request_shutdown(void)
{
	io_reap_abandoned();
}
