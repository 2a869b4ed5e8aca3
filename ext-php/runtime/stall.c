/*
 * runtime/stall.c - rule C25 for PHP: the ini setting async.stall_timeout and the
 * host's stall_report member, which names the PHP function a stalled
 * coroutine is in and its file:line.
 *
 * The core's watchdog thread (core/src/sched/watchdog.cpp) notices the stall and
 * calls async_stall_report() on ITS OWN thread while the PHP thread is
 * still stalled (in an unhooked blocking call, or computing), and may
 * resume at any moment. So this file reads the executor state the way
 * php-fpm's slowlog reads a stalled worker's (sapi/fpm/fpm/fpm_php_trace.c):
 * from EG(current_execute_data) along prev_execute_data, the function of
 * each frame, its name and class, and the line of the frame's saved opline;
 * only here in-process, and with the same care as from another process:
 *  - every read goes through process_vm_readv() on our own process, which
 *    copies or fails with EFAULT, never faults: a frame freed or a page
 *    unmapped under the reader (the thread resumed) gives a failed read, not
 *    a crash. A process always may read itself, whatever ptrace policy is
 *    in force; where a seccomp filter refuses the call, the report goes out
 *    without the PHP location;
 *  - walks are bounded (frames, name lengths) and nothing is dereferenced
 *    without such a copy;
 *  - nothing is allocated (ZendMM is not thread-safe), no lock is taken, no
 *    PHP API is called and nothing of the PHP thread is written; the text
 *    is formatted with snprintf into the core's buffer;
 *  - the core writes the text only if the runtime made no progress while it
 *    was formatted, so a half-read state is never shown.
 * Why write(2) to stderr and not PHP's error machinery: php_error_docref()
 * and php_log_err() allocate from the request's allocator, run user error
 * handlers, write through the output layer and read ini state, none of which
 * may run on a second thread next to a running request of a non-thread-safe
 * PHP. stderr is where PHP's CLI logs too (error_log unset); under php-fpm,
 * catch_workers_output = yes shows it in the pool's log.
 *
 * The line of the innermost user frame is its last saved opline: PHP's VM
 * keeps the current opline in a register and saves it at calls and other
 * points, so for a function blocked in a call it is the call's line, and
 * for a loop computing without calls it may be a few lines before.
 */
#include "runtime/stall.h"

#include "runtime/globals.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

/* Frames shown in the report, and read at most while looking for them. */
#define STALL_FRAMES_SHOWN 8
#define STALL_FRAMES_READ 64
#define STALL_NAME_MAX 128
#define STALL_PATH_MAX 512

/* Where the executor's current frame lives: &EG(current_execute_data) of
 * the thread that runs the runtime (recorded there, read by the watchdog). */
static zend_execute_data *const volatile *stall_frame_slot;

/* ---------------------------------------------------------- ini */

ZEND_INI_MH(async_on_update_stall_timeout)
{
	const char *end = NULL;
	double seconds = zend_strtod(ZSTR_VAL(new_value), &end);
	while (end != NULL && (*end == ' ' || *end == '\t')) {
		end++;
	}
	if (ZSTR_LEN(new_value) == 0 || end == NULL || *end != '\0' || !(seconds >= 0) || seconds > 1e9) {
		php_error_docref(NULL, E_WARNING,
			"async.stall_timeout must be a number of seconds between 0 (disabled) and 1e9, \"%s\" given",
			ZSTR_VAL(new_value));
		return FAILURE;
	}
	ASYNC_G(stall_timeout) = seconds;
	if (ASYNC_G(rt) != NULL) {
		tasync_runtime_set_stall_timeout(ASYNC_G(rt), (uint64_t) (seconds * 1e9));
	}
	return SUCCESS;
}

void async_stall_runtime_created(tasync_runtime_t *rt)
{
	stall_frame_slot = &EG(current_execute_data);
	tasync_runtime_set_stall_timeout(rt, (uint64_t) (ASYNC_G(stall_timeout) * 1e9));
}

/* ------------------------------------------------ reading defensively */

typedef struct stall_reader {
	pid_t pid;
	bool refused;      /* process_vm_readv is not allowed here */
} stall_reader;

/* Copies n bytes at src (in this process, possibly freed meanwhile). */
static bool peek(stall_reader *r, void *dst, const void *src, size_t n)
{
	if (src == NULL || r->refused) {
		return false;
	}
	struct iovec local = { dst, n };
	struct iovec remote = { (void *) src, n };
	ssize_t got = process_vm_readv(r->pid, &local, 1, &remote, 1, 0);
	if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
		r->refused = true;
	}
	return got == (ssize_t) n;
}

/* The characters of a zend_string, truncated to fit out. */
static bool peek_string(stall_reader *r, char *out, size_t out_len, const zend_string *s)
{
	size_t len;
	if (!peek(r, &len, (const char *) s + XtOffsetOf(zend_string, len), sizeof(len))) {
		return false;
	}
	if (len >= out_len) {
		len = out_len - 1;
	}
	if (!peek(r, out, (const char *) s + XtOffsetOf(zend_string, val), len)) {
		return false;
	}
	out[len] = '\0';
	return true;
}

/* One frame as the report shows it. */
typedef struct stall_frame {
	char name[STALL_NAME_MAX * 2 + 8];  /* "Class::method" */
	char file[STALL_PATH_MAX];          /* user code: its file, else "" */
	uint32_t line;                      /* user code: the line of its saved opline */
	bool user;
} stall_frame;

/* Reads the frame at ex into *f; returns its prev_execute_data through
 * *prev. False when it cannot be read (the walk ends there). */
static bool read_frame(stall_reader *r, const zend_execute_data *ex, stall_frame *f, zend_execute_data **prev, bool *skip)
{
	zend_execute_data frame;
	if (!peek(r, &frame, ex, sizeof(frame))) {
		return false;
	}
	*prev = frame.prev_execute_data;
	*skip = false;
	memset(f, 0, sizeof(*f));
	const zend_function *fn = frame.func;
	if (fn == NULL) {
		*skip = true;
		return true;
	}
	zend_uchar type;
	zend_string *fname = NULL;
	zend_class_entry *scope = NULL;
	if (!peek(r, &type, (const char *) fn + XtOffsetOf(zend_function, type), sizeof(type))
			|| !peek(r, &fname, (const char *) fn + XtOffsetOf(zend_function, common.function_name), sizeof(fname))
			|| !peek(r, &scope, (const char *) fn + XtOffsetOf(zend_function, common.scope), sizeof(scope))) {
		return false;
	}
	f->user = ZEND_USER_CODE(type);
	char name[STALL_NAME_MAX] = "", cls[STALL_NAME_MAX] = "";
	if (fname != NULL) {
		if (!peek_string(r, name, sizeof(name), fname)) {
			return false;
		}
	} else if (!f->user) {
		/* An internal frame without a name: a coroutine's bottom frame. */
		*skip = true;
		return true;
	} else {
		uint32_t kind = ZEND_CALL_KIND_EX(ZEND_CALL_INFO(&frame));
		snprintf(name, sizeof(name), "%s", kind == ZEND_CALL_TOP_CODE ? "{main}" : "{include or eval}");
	}
	zend_string *cname = NULL;
	if (scope != NULL && peek(r, &cname, (const char *) scope + XtOffsetOf(zend_class_entry, name), sizeof(cname))
			&& cname != NULL) {
		peek_string(r, cls, sizeof(cls), cname);
	}
	snprintf(f->name, sizeof(f->name), "%s%s%s", cls, cls[0] ? "::" : "", name);
	if (f->user) {
		zend_string *filename = NULL;
		const zend_op *opline = frame.opline;
		if (peek(r, &filename, (const char *) fn + XtOffsetOf(zend_op_array, filename), sizeof(filename))
				&& filename != NULL) {
			peek_string(r, f->file, sizeof(f->file), filename);
		}
		if (opline != NULL) {
			peek(r, &f->line, (const char *) opline + XtOffsetOf(zend_op, lineno), sizeof(f->line));
		}
	}
	return true;
}

/* ------------------------------------------------------------ report */

/* Appends to buf at *at (never past len - 1). */
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 4, 5);
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	if (*at >= len - 1) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0) {
		*at += (size_t) n < len - *at ? (size_t) n : len - *at - 1;
	}
}

static void append_seconds(char *buf, size_t len, size_t *at, uint64_t ns)
{
	uint64_t ms = ns / 1000000u;
	append(buf, len, at, "%" PRIu64 ".%03" PRIu64 " s", ms / 1000, ms % 1000);
}

size_t async_stall_report(void *host_data, const tasync_stall_info_t *info, char *buf, size_t len)
{
	(void) host_data;
	if (len < 256) {
		return 0;
	}
	stall_reader reader = { getpid(), false };
	stall_frame frames[STALL_FRAMES_SHOWN];
	int shown = 0;
	bool more = false, unreadable = false;
	zend_execute_data *ex = NULL;
	if (stall_frame_slot == NULL || !peek(&reader, &ex, (const void *) stall_frame_slot, sizeof(ex))) {
		unreadable = true;
	}
	for (int i = 0; ex != NULL && i < STALL_FRAMES_READ; i++) {
		zend_execute_data *prev = NULL;
		bool skip = false;
		if (shown == STALL_FRAMES_SHOWN) {
			more = true;
			break;
		}
		if (!read_frame(&reader, ex, &frames[shown], &prev, &skip)) {
			unreadable = shown == 0;
			break;
		}
		if (!skip) {
			shown++;
		}
		ex = prev;
	}

	size_t at = 0;
	append(buf, len, &at, "PHP Warning:  Async: ");
	if (info->co == NULL) {
		append(buf, len, &at, "A callback of the runtime (timer, reactor or posted)");
	} else if (info->is_main) {
		append(buf, len, &at, "The main coroutine");
	} else if (info->spawned_at.file != NULL) {
		append(buf, len, &at, "Coroutine %" PRIu64 " (spawned at %s:%u)", info->coroutine_id,
			info->spawned_at.file, info->spawned_at.line);
	} else {
		append(buf, len, &at, "Coroutine %" PRIu64, info->coroutine_id);
	}
	append(buf, len, &at, " has not come back to the scheduler for ");
	append_seconds(buf, len, &at, info->stalled_ns);
	append(buf, len, &at, " (async.stall_timeout is ");
	append_seconds(buf, len, &at, info->timeout_ns);
	append(buf, len, &at, "): ");

	/* Where: the innermost function, and the innermost user frame's line
	 * (for an internal function, the line that called it). */
	const stall_frame *user = NULL;
	for (int i = 0; i < shown && user == NULL; i++) {
		if (frames[i].user) {
			user = &frames[i];
		}
	}
	if (shown > 0) {
		bool top = strcmp(frames[0].name, "{main}") == 0;
		append(buf, len, &at, "it is in %s%s", frames[0].name, top ? "" : "()");
		if (user != NULL) {
			append(buf, len, &at, "%s %s:%u", frames[0].user ? " at" : ", called at", user->file, user->line);
		}
		append(buf, len, &at, ", and every other coroutine waits until it returns. ");
	} else if (unreadable) {
		append(buf, len, &at, "its PHP frames cannot be read here%s, and every other coroutine waits until it returns. ",
			reader.refused ? " (process_vm_readv is not allowed)" : "");
	} else {
		append(buf, len, &at, "it runs no PHP code (native code of an extension), and every other coroutine waits until it returns. ");
	}
	append(buf, len, &at,
		"A call this extension does not make non-blocking blocks the whole process: use a hooked or non-blocking "
		"API (README, \"What is taken over\"), move the work to another process (proc_open, pcntl_fork) or "
		"offload it, or raise async.stall_timeout (0 disables this warning).\n");
	if (shown > 0) {
		append(buf, len, &at, "Stack of the stalled code:\n");
		for (int i = 0; i < shown; i++) {
			/* PHP's trace format: each call with the place it was made from
			 * (its caller's line), the top-level code last. */
			const stall_frame *caller = i + 1 < shown ? &frames[i + 1] : NULL;
			if (strcmp(frames[i].name, "{main}") == 0) {
				append(buf, len, &at, "#%d {main}\n", i);
			} else if (caller == NULL || !caller->user) {
				append(buf, len, &at, "#%d [internal function]: %s()\n", i, frames[i].name);
			} else {
				append(buf, len, &at, "#%d %s(%u): %s()\n", i, caller->file, caller->line, frames[i].name);
			}
		}
		if (more) {
			append(buf, len, &at, "#%d ...\n", shown);
		}
	}
	if (at > 0 && buf[at - 1] != '\n') {
		/* Truncated: end the last line. */
		buf[at - 1] = '\n';
	}
	return at;
}
