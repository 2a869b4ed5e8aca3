/*
 * io/proc_open.c - proc_open() inside coroutines (rule C18) without copying
 * the process.
 *
 * PHP 8.2's proc_open() fork()s in the calling thread. The fork is short,
 * but the parent then takes a copy-on-write fault (and a TLB flush) for
 * every page it touches until the child has called execve(): tens of
 * milliseconds in which no other coroutine and no timer runs. Here the
 * child is started with posix_spawn(), which glibc implements with
 * CLONE_VM|CLONE_VFORK: no page table is copied, nothing is
 * write-protected, and the parent takes no fault afterwards. posix_spawn()
 * returns once the child has called execve(), which a loaded machine can
 * delay for milliseconds, so it runs on the thread pool as io/processes.c's
 * io_spawn() does, with the calling thread's signal mask given to the child
 * explicitly.
 *
 * The result is PHP's: a resource of PHP's "process" type, allocated as
 * PHP's destructor frees it (so proc_close, proc_get_status, proc_terminate
 * and the destructor are PHP's own), and $pipes as PHP builds them (stdio
 * streams "r"/"w" for pipes, socket streams for 'socket', blocking, not
 * seekable). The descriptor kinds are PHP's: 'pipe', 'socket', 'file'
 * (opened by PHP's stream wrappers in the parent, as PHP does), 'null',
 * 'redirect' and stream resources (their file descriptor); the command a
 * string (/bin/sh -c) or an array (execvp's search of PATH, the PATH of
 * $env_vars when given, as PHP's child sees it); cwd (a directory that
 * cannot be entered is ignored, as PHP's child ignores chdir()'s failure);
 * $env_vars (null inherits). The options bypass_shell, suppress_errors,
 * blocking_pipes, create_process_group and create_new_console are
 * Windows-only in PHP and ignored here as there.
 *
 * What this file does not take over is handed to PHP's own proc_open (the
 * fork, through the gate below), which then prints PHP's exact errors and
 * warnings: arguments of another type than PHP declares (coerced ones
 * included), an invalid descriptor spec (string keys, unknown or 'pty'
 * kinds, missing or non-string parameters, a redirection target not found,
 * persistent or uncastable stream resources), environment values other
 * than strings and integers, command array elements other than strings or
 * with a null byte, and an array command whose program execvp() would not
 * find or could not run (PHP's child then prints "Exec failed" and exits
 * with 127). Nothing has been opened when that decision is made. Should
 * posix_spawn() itself fail (a program removed since the search, no
 * process left), everything opened is closed again and PHP's proc_open is
 * given the call: its 'file' descriptors are then opened a second time.
 *
 * Cancellation (C18) while the child is being started fails proc_open()
 * with a warning and false, as PHP does when it cannot start the command;
 * a child that started anyway is left to itself (its pipes closed) and
 * reaped later.
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/processes.h"
#include "io/wait.h"
#include "runtime/globals.h"

#ifndef VIRTUAL_DIR

#include "ext/standard/file.h"
#include "ext/standard/proc_open.h"
#include "main/php_network.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <paths.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
# define PO_HAVE_ADDCHDIR 1
#endif

/* One entry of $descriptor_spec. */
typedef enum { PO_PIPE, PO_SOCKET, PO_FD } po_kind;

typedef struct po_desc {
	int index;      /* the child's descriptor number */
	po_kind kind;   /* PO_FD: the child's end only */
	int childend;   /* close-on-exec, above every index */
	int parentend;  /* pipes and sockets, close-on-exec; else -1 */
	bool parent_writes;
} po_desc;

/* ----------------------------------------------------------- validation */

static zval *po_find(HashTable *ht, zend_ulong i)
{
	zval *zv = zend_hash_index_find(ht, i);
	if (zv != NULL) {
		ZVAL_DEREF(zv);
	}
	return zv;
}

static bool po_is_string(zval *zv)
{
	return zv != NULL && Z_TYPE_P(zv) == IS_STRING;
}

/*
 * Whether spec is one this file takes over: every entry an array of a
 * kind it knows with string parameters, or a castable stream; a
 * redirection's target found. *maxindex gets the highest index.
 */
static bool po_spec_ok(HashTable *spec, int *maxindex)
{
	zend_string *key;
	zend_ulong nindex;
	zval *item;
	int max = 2;
	ZEND_HASH_FOREACH_KEY_VAL(spec, nindex, key, item) {
		if (key != NULL || nindex > 1024) {
			return false;
		}
		ZVAL_DEREF(item);
		if (Z_TYPE_P(item) == IS_RESOURCE) {
			if (Z_RES_TYPE_P(item) != php_file_le_stream()
					|| php_stream_can_cast((php_stream *) Z_RES_P(item)->ptr, PHP_STREAM_AS_FD) != SUCCESS) {
				return false;
			}
		} else if (Z_TYPE_P(item) == IS_ARRAY) {
			HashTable *ht = Z_ARRVAL_P(item);
			zval *kind = po_find(ht, 0);
			if (!po_is_string(kind)) {
				return false;
			}
			if (zend_string_equals_literal(Z_STR_P(kind), "pipe")) {
				if (!po_is_string(po_find(ht, 1))) {
					return false;
				}
			} else if (zend_string_equals_literal(Z_STR_P(kind), "file")) {
				zval *path = po_find(ht, 1);
				if (!po_is_string(path) || !po_is_string(po_find(ht, 2))
						|| zend_str_has_nul_byte(Z_STR_P(path))) {
					return false;
				}
			} else if (zend_string_equals_literal(Z_STR_P(kind), "redirect")) {
				zval *target = po_find(ht, 1);
				if (target == NULL || Z_TYPE_P(target) != IS_LONG) {
					return false;
				}
				/* An earlier entry, or the parent's 0, 1 or 2. */
				bool found = Z_LVAL_P(target) >= 0 && Z_LVAL_P(target) <= 2;
				zend_string *k2;
				zend_ulong i2;
				ZEND_HASH_FOREACH_KEY(spec, i2, k2) {
					(void) k2;
					if (i2 == nindex) {
						break;
					}
					if ((zend_long) i2 == Z_LVAL_P(target)) {
						found = true;
					}
				} ZEND_HASH_FOREACH_END();
				if (!found) {
					return false;
				}
			} else if (!zend_string_equals_literal(Z_STR_P(kind), "socket")
					&& !zend_string_equals_literal(Z_STR_P(kind), "null")) {
				return false; /* 'pty' and PHP's warning for unknown kinds */
			}
		} else {
			return false;
		}
		if ((int) nindex > max) {
			max = (int) nindex;
		}
	} ZEND_HASH_FOREACH_END();
	*maxindex = max;
	return true;
}

static bool po_env_ok(HashTable *env)
{
	zval *v;
	ZEND_HASH_FOREACH_VAL(env, v) {
		if (Z_TYPE_P(v) != IS_STRING && Z_TYPE_P(v) != IS_LONG) {
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

static bool po_command_ok(HashTable *cmd)
{
	zval *v;
	bool first = true;
	if (zend_hash_num_elements(cmd) == 0) {
		return false;
	}
	ZEND_HASH_FOREACH_VAL(cmd, v) {
		if (Z_TYPE_P(v) != IS_STRING || zend_str_has_nul_byte(Z_STR_P(v)) || (first && Z_STRLEN_P(v) == 0)) {
			return false;
		}
		first = false;
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* ------------------------------------------------------ program search */

/* Whether path (relative to cwd when given) is a file execve() can run. */
static bool po_runnable(const char *path, const char *cwd)
{
	char buf[MAXPATHLEN];
	if (cwd != NULL && path[0] != '/') {
		if (snprintf(buf, sizeof(buf), "%s/%s", cwd, path) >= (int) sizeof(buf)) {
			return false;
		}
		path = buf;
	}
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/*
 * What execvp(file) in PHP's child would run: file itself when it has a
 * slash, else the first runnable file of PATH (that of envp when given,
 * glibc's default when there is none; an empty entry is the current
 * directory). Relative names are as the child sees them, after chdir(cwd).
 * Returns an emalloc'd path, or NULL when execvp() would fail.
 */
static char *po_find_program(const char *file, char **envp, const char *cwd)
{
	if (strchr(file, '/') != NULL) {
		return po_runnable(file, cwd) ? estrdup(file) : NULL;
	}
	const char *path = NULL;
	if (envp != NULL) {
		for (char **e = envp; *e != NULL; e++) {
			if (strncmp(*e, "PATH=", 5) == 0) {
				path = *e + 5;
				break;
			}
		}
	} else {
		path = getenv("PATH");
	}
	if (path == NULL) {
		path = "/bin:/usr/bin";
	}
	size_t flen = strlen(file);
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		size_t dlen = (size_t) (end - p);
		char *candidate = emalloc(dlen + flen + 2);
		if (dlen == 0) {
			memcpy(candidate, file, flen + 1);
		} else {
			memcpy(candidate, p, dlen);
			candidate[dlen] = '/';
			memcpy(candidate + dlen + 1, file, flen + 1);
		}
		if (po_runnable(candidate, cwd)) {
			return candidate;
		}
		efree(candidate);
		if (*end == '\0') {
			return NULL;
		}
		p = end;
	}
}

/* ------------------------------------------------------------ environment */

/* $env_vars as PHP's php_array_to_envp() lays it out (and PHP's destructor
 * frees it): "key=value" (the value alone for integer or empty keys),
 * empty values left out, in the array's order. */
static php_process_env po_envp(HashTable *environment)
{
	php_process_env env;
	uint32_t cnt = zend_hash_num_elements(environment);
	size_t size = 0;
	zend_string *key;
	zval *v;
	ZEND_HASH_FOREACH_STR_KEY_VAL(environment, key, v) {
		zend_string *str = zval_get_string(v);
		if (ZSTR_LEN(str) > 0) {
			size += ZSTR_LEN(str) + 1 + (key != NULL && ZSTR_LEN(key) > 0 ? ZSTR_LEN(key) + 1 : 0);
		}
		zend_string_release(str);
	} ZEND_HASH_FOREACH_END();
	env.envarray = ecalloc(cnt + 1, sizeof(char *));
	env.envp = ecalloc(size + 4, 1);
	char **ep = env.envarray;
	char *p = env.envp;
	ZEND_HASH_FOREACH_STR_KEY_VAL(environment, key, v) {
		zend_string *str = zval_get_string(v);
		if (ZSTR_LEN(str) > 0) {
			*ep++ = p;
			if (key != NULL && ZSTR_LEN(key) > 0) {
				memcpy(p, ZSTR_VAL(key), ZSTR_LEN(key));
				p += ZSTR_LEN(key);
				*p++ = '=';
			}
			memcpy(p, ZSTR_VAL(str), ZSTR_LEN(str));
			p += ZSTR_LEN(str);
			*p++ = '\0';
		}
		zend_string_release(str);
	} ZEND_HASH_FOREACH_END();
	return env;
}

static void po_env_free(php_process_env *env)
{
	if (env->envarray != NULL) {
		efree(env->envarray);
	}
	if (env->envp != NULL) {
		efree(env->envp);
	}
}

/* ------------------------------------------------------------ descriptors */

/* fd moved above every index the child gets (so that no dup2() of the
 * file actions overwrites a descriptor a later one copies), close-on-exec
 * (so that no child started meanwhile, by another coroutine or the pool,
 * inherits it); -1 with errno set. The original is closed. */
static int po_lift(int fd, int above)
{
	if (fd < 0) {
		return -1;
	}
	int lifted = fcntl(fd, F_DUPFD_CLOEXEC, above + 1);
	int err = errno;
	close(fd);
	errno = err;
	return lifted;
}

/* A copy of fd (a stream's, or the parent's 0-2), lifted. */
static int po_dup(int fd, int above)
{
	return fcntl(fd, F_DUPFD_CLOEXEC, above + 1);
}

static void po_close_all(po_desc *d, int n)
{
	for (int i = 0; i < n; i++) {
		if (d[i].childend >= 0) {
			close(d[i].childend);
		}
		if (d[i].parentend >= 0) {
			close(d[i].parentend);
		}
	}
}

/* Sets up entry nth (index idx) of a spec po_spec_ok() accepted, with PHP's
 * warnings when something cannot be opened. */
static bool po_setup(po_desc *d, int n, zval *item, int idx, int above)
{
	po_desc *me = &d[n];
	me->index = idx;
	me->kind = PO_FD;
	me->childend = me->parentend = -1;
	ZVAL_DEREF(item);
	if (Z_TYPE_P(item) == IS_RESOURCE) {
		php_stream *stream = Z_RES_P(item)->ptr;
		php_socket_t fd;
		if (php_stream_cast(stream, PHP_STREAM_AS_FD, (void **) &fd, REPORT_ERRORS) == FAILURE) {
			return false;
		}
		me->childend = po_dup((int) fd, above);
		if (me->childend < 0) {
			php_error_docref(NULL, E_WARNING, "Failed to dup() for descriptor " ZEND_LONG_FMT ": %s",
				(zend_long) n, strerror(errno));
			return false;
		}
		return true;
	}
	HashTable *ht = Z_ARRVAL_P(item);
	zend_string *kind = Z_STR_P(po_find(ht, 0));
	if (zend_string_equals_literal(kind, "pipe")) {
		int fds[2];
		if (pipe2(fds, O_CLOEXEC) != 0) {
			php_error_docref(NULL, E_WARNING, "Unable to create pipe %s", strerror(errno));
			return false;
		}
		zend_string *mode = Z_STR_P(po_find(ht, 1));
		me->kind = PO_PIPE;
		me->parent_writes = ZSTR_VAL(mode)[0] != 'w';
		me->parentend = me->parent_writes ? fds[1] : fds[0];
		me->childend = po_lift(me->parent_writes ? fds[0] : fds[1], above);
		if (me->childend < 0) {
			php_error_docref(NULL, E_WARNING, "Unable to create pipe %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (zend_string_equals_literal(kind, "socket")) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
			php_error_docref(NULL, E_WARNING, "Unable to create socket pair: %s", strerror(errno));
			return false;
		}
		me->kind = PO_SOCKET;
		me->parentend = sv[0];
		me->childend = po_lift(sv[1], above);
		if (me->childend < 0) {
			php_error_docref(NULL, E_WARNING, "Unable to create socket pair: %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (zend_string_equals_literal(kind, "file")) {
		zend_string *path = Z_STR_P(po_find(ht, 1));
		zend_string *mode = Z_STR_P(po_find(ht, 2));
		php_stream *stream = php_stream_open_wrapper(ZSTR_VAL(path), ZSTR_VAL(mode),
			REPORT_ERRORS | STREAM_WILL_CAST, NULL);
		if (stream == NULL) {
			return false;
		}
		php_socket_t fd;
		if (php_stream_cast(stream, PHP_STREAM_CAST_RELEASE | PHP_STREAM_AS_FD, (void **) &fd,
				REPORT_ERRORS) == FAILURE) {
			php_stream_close(stream);
			return false;
		}
		me->childend = po_lift((int) fd, above);
		if (me->childend < 0) {
			php_error_docref(NULL, E_WARNING, "Failed to dup() for descriptor " ZEND_LONG_FMT ": %s",
				(zend_long) idx, strerror(errno));
			return false;
		}
		return true;
	}
	if (zend_string_equals_literal(kind, "null")) {
		me->childend = po_lift(open("/dev/null", O_RDWR | O_CLOEXEC), above);
		if (me->childend < 0) {
			php_error_docref(NULL, E_WARNING, "Failed to open /dev/null: %s", strerror(errno));
			return false;
		}
		return true;
	}
	/* redirect: an earlier entry's child end, else the parent's 0-2. */
	int target = (int) Z_LVAL_P(po_find(ht, 1));
	int from = target;
	for (int i = 0; i < n; i++) {
		if (d[i].index == target) {
			from = d[i].childend;
			break;
		}
	}
	me->childend = po_dup(from, above);
	if (me->childend < 0) {
		php_error_docref(NULL, E_WARNING, "Failed to dup() for descriptor " ZEND_LONG_FMT ": %s",
			(zend_long) idx, strerror(errno));
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- spawning */

typedef struct po_job {
	const char *path;
	char **argv;
	char **envp;
	posix_spawn_file_actions_t *fa;
	posix_spawnattr_t *attr;
	pid_t pid;
	int rc;
	bool ran;
	bool search;    /* an array command: ENOEXEC runs it with /bin/sh */
} po_job;

static void po_spawn_work(void *data)
{
	po_job *j = data;
	j->rc = posix_spawn(&j->pid, j->path, j->fa, j->attr, j->argv, j->envp);
	if (j->rc == ENOEXEC && j->search) {
		/* As execvp(): a file without a known format is a shell script. */
		size_t n = 0;
		while (j->argv[n] != NULL) {
			n++;
		}
		char **argv = malloc((n + 2) * sizeof(char *));
		if (argv != NULL) {
			argv[0] = (char *) _PATH_BSHELL;
			argv[1] = (char *) j->path;
			for (size_t i = 1; i <= n; i++) {
				argv[i + 1] = j->argv[i];
			}
			j->rc = posix_spawn(&j->pid, _PATH_BSHELL, j->fa, j->attr, argv, j->envp);
			free(argv);
		}
	}
	j->ran = true;
}

static void po_free_argv(char **argv)
{
	if (argv != NULL) {
		for (char **a = argv; *a != NULL; a++) {
			efree(*a);
		}
		efree(argv);
	}
}

/*
 * Starts path with argv (NULL: /bin/sh -c command) and the descriptors of
 * d, on the pool. Returns 0 and *pid, a positive errno of posix_spawn, or
 * -ECANCELED when the coroutine was cancelled (a child that started anyway
 * is then left to itself, its pipes closed by the caller).
 */
static int po_spawn(po_desc *d, int ndesc, const char *path, char **argv, zend_string *command,
	const char *cwd, char **envp, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc != 0) {
		return rc;
	}
	rc = async_io_proc_spawnattr_init(&attr);
	if (rc != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	/* Every child end is above every index and close-on-exec: a dup2()
	 * each, in any order, is all the child needs. */
	for (int i = 0; rc == 0 && i < ndesc; i++) {
		rc = posix_spawn_file_actions_adddup2(&fa, d[i].childend, d[i].index);
	}
#ifdef PO_HAVE_ADDCHDIR
	if (rc == 0 && cwd != NULL) {
		rc = posix_spawn_file_actions_addchdir_np(&fa, cwd);
	}
#endif
	if (rc == 0) {
		char *sh_argv[] = { "sh", "-c", ZSTR_VAL(command), NULL };
		char **environ_copy = envp == NULL ? async_io_proc_environ() : NULL;
		po_job j = { path, argv != NULL ? argv : sh_argv, envp != NULL ? envp : environ_copy, &fa, &attr,
			0, 0, false, argv != NULL };
		async_io_status st = async_io_offload(po_spawn_work, &j);
		if (st == ASYNC_IO_UNSUPPORTED) {
			po_spawn_work(&j); /* no pool: here */
			st = ASYNC_IO_READY;
		}
		if (environ_copy != NULL) {
			efree(environ_copy);
		}
		if (st != ASYNC_IO_READY) {
			if (j.ran && j.rc == 0) {
				async_io_proc_abandon(j.pid);
			}
			rc = -ECANCELED;
		} else {
			rc = j.rc;
			*pid = j.pid;
		}
	}
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/*
 * proc_open($command, $descriptor_spec, &$pipes, $cwd, $env_vars, $options)
 * in a coroutine. Returns false when the call is left to PHP's own
 * proc_open (nothing done, nothing printed); else return_value is set (or
 * an exception thrown) as PHP's proc_open would.
 */
static bool io_proc_open_spawn(int le_process, INTERNAL_FUNCTION_PARAMETERS)
{
	uint32_t argc = ZEND_NUM_ARGS();
	if (argc < 3 || argc > 6) {
		return false;
	}
	zval *zcmd = ZEND_CALL_ARG(execute_data, 1);
	zval *zspec = ZEND_CALL_ARG(execute_data, 2);
	zval *zpipes = ZEND_CALL_ARG(execute_data, 3);
	zval *zcwd = argc >= 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	zval *zenv = argc >= 5 ? ZEND_CALL_ARG(execute_data, 5) : NULL;
	zval *zopts = argc >= 6 ? ZEND_CALL_ARG(execute_data, 6) : NULL;
	int maxindex;
	if ((Z_TYPE_P(zcmd) != IS_STRING && Z_TYPE_P(zcmd) != IS_ARRAY)
			|| (Z_TYPE_P(zcmd) == IS_ARRAY && !po_command_ok(Z_ARRVAL_P(zcmd)))
			|| Z_TYPE_P(zspec) != IS_ARRAY || !po_spec_ok(Z_ARRVAL_P(zspec), &maxindex)
			|| (zcwd != NULL && Z_TYPE_P(zcwd) != IS_NULL
				&& (Z_TYPE_P(zcwd) != IS_STRING || zend_str_has_nul_byte(Z_STR_P(zcwd))))
			|| (zenv != NULL && Z_TYPE_P(zenv) != IS_NULL
				&& (Z_TYPE_P(zenv) != IS_ARRAY || !po_env_ok(Z_ARRVAL_P(zenv))))
			|| (zopts != NULL && Z_TYPE_P(zopts) != IS_NULL && Z_TYPE_P(zopts) != IS_ARRAY)) {
		return false;
	}
	const char *cwd = zcwd != NULL && Z_TYPE_P(zcwd) == IS_STRING ? Z_STRVAL_P(zcwd) : NULL;
	/* PHP's child ignores a failed chdir(): so does this one, found out
	 * here since posix_spawn() would fail instead. */
	if (cwd != NULL) {
		struct stat st;
		if (stat(cwd, &st) != 0 || !S_ISDIR(st.st_mode) || access(cwd, X_OK) != 0) {
			cwd = NULL;
		}
	}
#ifndef PO_HAVE_ADDCHDIR
	if (cwd != NULL) {
		return false;
	}
#endif

	php_process_env env;
	memset(&env, 0, sizeof(env));
	if (zenv != NULL && Z_TYPE_P(zenv) == IS_ARRAY) {
		env = po_envp(Z_ARRVAL_P(zenv));
	}
	zend_string *command;
	char **argv = NULL;
	char *path;
	if (Z_TYPE_P(zcmd) == IS_ARRAY) {
		HashTable *ht = Z_ARRVAL_P(zcmd);
		zval *first = NULL;
		ZEND_HASH_FOREACH_VAL(ht, first) {
			break;
		} ZEND_HASH_FOREACH_END();
		path = po_find_program(Z_STRVAL_P(first), env.envarray, cwd);
		if (path == NULL) {
			po_env_free(&env); /* execvp() would fail: PHP's "Exec failed" */
			return false;
		}
		command = zend_string_copy(Z_STR_P(first));
		argv = safe_emalloc(sizeof(char *), zend_hash_num_elements(ht) + 1, 0);
		uint32_t i = 0;
		zval *v;
		ZEND_HASH_FOREACH_VAL(ht, v) {
			argv[i++] = estrndup(Z_STRVAL_P(v), Z_STRLEN_P(v));
		} ZEND_HASH_FOREACH_END();
		argv[i] = NULL;
	} else {
		command = zend_string_copy(Z_STR_P(zcmd));
		path = estrdup(_PATH_BSHELL);
	}

	HashTable *spec = Z_ARRVAL_P(zspec);
	po_desc *d = safe_emalloc(sizeof(po_desc), zend_hash_num_elements(spec), 0);
	int ndesc = 0;
	zend_ulong nindex;
	zval *item;
	bool ok = true;
	ZEND_HASH_FOREACH_NUM_KEY_VAL(spec, nindex, item) {
		if (!po_setup(d, ndesc, item, (int) nindex, maxindex)) {
			ndesc++; /* what it opened, closed below */
			ok = false;
			break;
		}
		ndesc++;
	} ZEND_HASH_FOREACH_END();
	bool handled = true;
	pid_t child = 0;
	if (ok) {
		int rc = po_spawn(d, ndesc, path, argv, command, cwd, env.envarray, &child);
		if (rc != 0) {
			po_close_all(d, ndesc);
			ok = false;
			if (rc == -ECANCELED) {
				/* Cancelled, or the request unwinds (C18). */
				if (!EG(exception)) {
					php_error_docref(NULL, E_WARNING, "%s", strerror(ECANCELED));
				}
			} else {
				handled = false; /* PHP's proc_open reports how it fails */
			}
		}
	} else {
		po_close_all(d, ndesc);
	}
	efree(path);
	po_free_argv(argv);

	if (ok) {
		zval *pipes = zend_try_array_init(zpipes);
		if (pipes == NULL) {
			po_close_all(d, ndesc);
			async_io_proc_abandon(child);
			ok = false;
		} else {
			php_process_handle *proc = emalloc(sizeof(php_process_handle));
			proc->command = zend_string_copy(command);
			proc->pipes = emalloc(sizeof(zend_resource *) * ndesc);
			proc->npipes = ndesc;
			proc->child = child;
			proc->env = env;
			for (int i = 0; i < ndesc; i++) {
				php_stream *stream = NULL;
				close(d[i].childend);
				if (d[i].kind == PO_PIPE) {
					stream = php_stream_fopen_from_fd(d[i].parentend, d[i].parent_writes ? "w" : "r", NULL);
				} else if (d[i].kind == PO_SOCKET) {
					stream = php_stream_sock_open_from_socket(d[i].parentend, NULL);
				}
				proc->pipes[i] = NULL;
				if (stream != NULL) {
					zval retfp;
					stream->flags |= PHP_STREAM_FLAG_NO_SEEK;
					php_stream_to_zval(stream, &retfp);
					add_index_zval(pipes, d[i].index, &retfp);
					proc->pipes[i] = Z_RES(retfp);
					Z_ADDREF(retfp);
				}
			}
			RETVAL_RES(zend_register_resource(proc, le_process));
		}
	}
	if (!ok) {
		po_env_free(&env);
		if (handled) {
			RETVAL_FALSE;
		}
	}
	zend_string_release(command);
	efree(d);
	return handled;
}

#endif /* !VIRTUAL_DIR */

/* -------------------------------------------------------------- proc_open */

/*
 * What io_proc_open_spawn() does not take over is PHP's own proc_open,
 * whose fork() holds the thread while it copies the process: 1-3 ms alone, up to 10 ms while the children of the forks
 * before it start on the other cores. Coroutines that call it together all
 * run in one pass of the scheduler, so without more, ten of them stalled
 * every other coroutine (and the timers) for the sum of their forks.
 *
 * So at most one fork happens per pass: the coroutine that forks holds the
 * gate until it resumes from the yield that follows its fork, which is in
 * the next pass, after the reactor and the timers have had their turn; one
 * that finds the gate held yields until it is free. A stall is then one
 * fork long. A waiter gives up waiting after IO_FORK_GATE_PASSES passes (a
 * holder that never came back), and the request's end frees the gate.
 *
 * A cancellation that arrives while a coroutine waits at the gate fails
 * proc_open() as PHP does when it cannot start the command (C18: false and a
 * warning); one that arrives after the fork is thrown at the coroutine's
 * next suspension: the child is started and its handle returned.
 */
static zif_handler orig_proc_open;
static int le_process = -1;

#define IO_FORK_GATE_PASSES 1024

ZEND_TLS tasync_coroutine_t *io_fork_gate;

static ZEND_NAMED_FUNCTION(async_io_proc_open)
{
	tasync_coroutine_t *co = async_io_coroutine();
	if (co == NULL) {
		orig_proc_open(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
#ifndef VIRTUAL_DIR
	if (le_process >= 0 && io_proc_open_spawn(le_process, INTERNAL_FUNCTION_PARAM_PASSTHRU)) {
		return; /* started without a fork (above) */
	}
#endif
	for (int passes = 0; io_fork_gate != NULL && io_fork_gate != co && passes < IO_FORK_GATE_PASSES; passes++) {
		void *err = NULL;
		int rc = tasync_yield(ASYNC_G(rt), &err);
		switch (async_io_after_wait(rc, err)) {
			case ASYNC_IO_READY:
				continue;
			case ASYNC_IO_ABORTED:
				RETURN_THROWS();
			default:
				php_error_docref(NULL, E_WARNING, "%s", strerror(ECANCELED));
				RETURN_FALSE;
		}
	}
	io_fork_gate = co;
	orig_proc_open(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (EG(exception)) {
		io_fork_gate = NULL;
		return;
	}
	void *err = NULL;
	int rc = tasync_yield(ASYNC_G(rt), &err);
	if (io_fork_gate == co) {
		io_fork_gate = NULL;
	}
	(void) async_io_after_wait(rc, err);
}

/* ---------------------------------------------------------------- module */

void async_io_proc_open_startup(void)
{
	le_process = zend_fetch_list_dtor_id("process");
	orig_proc_open = async_io_hook("proc_open", async_io_proc_open);
}

void async_io_proc_open_request_shutdown(void)
{
	io_fork_gate = NULL;
}
