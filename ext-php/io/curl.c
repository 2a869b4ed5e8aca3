/*
 * io/curl.c - ext/curl inside coroutines (rule C18): curl_exec() and the
 * curl_multi_* loop suspend only the calling coroutine; libcurl's sockets
 * and timers are waited on through the runtime.
 *
 * How (and why so). libcurl's socket API tells an application which socket
 * to watch for what (CURLMOPT_SOCKETFUNCTION) and when to call back
 * (CURLMOPT_TIMERFUNCTION); curl_multi_socket_action() then runs the
 * transfers of the socket that became ready, or of the timer that expired.
 * Those callbacks fill a small per-multi-handle table (curl_drv, in
 * curl_driver.c); waiting on the table is waiting on its fds with
 * tasync_await_fd() (directly for one fd, through one native helper
 * coroutine per fd and tasync_await_any() for several) bounded by
 * libcurl's timer.
 *
 *  - curl_exec() in a coroutine runs the transfer on a multi handle of its
 *    own, one per CurlHandle (kept while the handle lives, so that
 *    connections, TLS sessions and the DNS cache are reused from one call
 *    to the next as libcurl's own easy interface does), driven by
 *    curl_multi_socket_action(). The handle enters it through PHP's own
 *    curl_multi_add_handle(), which checks the handle's CURLOPT_FILE-like
 *    streams and resets its buffers exactly as curl_exec() does, and
 *    leaves it through PHP's curl_multi_remove_handle(). The result is
 *    then produced as curl_exec() produces it (RETURNTRANSFER string,
 *    true, false; curl_errno()/curl_error(); the file flushes), which
 *    needs four fields of ext/curl's private handle struct: that layout is
 *    pinned per PHP version below and checked on every call against the
 *    object's handler offset; on a PHP version this file does not know,
 *    curl_exec() is left to PHP (and blocks).
 *  - The curl_multi_* functions keep PHP's code: curl_multi_exec() runs
 *    PHP's (its checks, then curl_multi_perform()), then
 *    curl_multi_socket_all(), which runs the transfers once more and has
 *    libcurl report every transfer's sockets to the table (perform alone
 *    reports none). curl_multi_select() waits on the table, bounded by its
 *    timeout and libcurl's timer, and returns the number of ready sockets
 *    (0 on timeout) as curl_multi_wait() does. The table of a multi handle
 *    is attached at its first use inside a coroutine; a change of it (a
 *    transfer added, a socket opened by another coroutine's
 *    curl_multi_exec) wakes the coroutines waiting in curl_multi_select()
 *    on that handle, which return 0 so that their loop runs the handle, as
 *    Guzzle's CurlMultiHandler does. The other curl_multi_* functions never
 *    wait and are PHP's own.
 *
 * Cancellation (C18). A coroutine cancelled in curl_exec() aborts its
 * transfer (the handle leaves the multi handle, as libcurl documents for
 * aborting one); curl_exec() returns false, curl_errno() gives
 * CURLE_ABORTED_BY_CALLBACK (42: libcurl's code for a transfer the
 * application aborted) and curl_error() says "Transfer aborted: the
 * coroutine was cancelled"; the handle is reusable. A cancelled
 * curl_multi_select() returns -1, its failure value, and leaves the
 * transfers alone (other coroutines may drive the same handle). In both
 * cases the CancellationError is thrown at the next suspension point.
 *
 * PHP callbacks (CURLOPT_WRITEFUNCTION, HEADERFUNCTION, PROGRESSFUNCTION,
 * XFERINFOFUNCTION, READFUNCTION...) run inside curl_multi_socket_action()
 * in the coroutine that called curl_exec(), so they may suspend (the
 * private multi handle is nobody else's). One that throws ends the
 * transfer at once (false) and the exception leaves curl_exec(); PHP would
 * run the rest of the transfer with its callbacks skipped before throwing.
 * curl_errno() then says CURLE_WRITE_ERROR (23) when the handle writes
 * through a PHP callback (a write or header function that fails), else
 * CURLE_ABORTED_BY_CALLBACK, unless libcurl had failed the transfer
 * already.
 *
 * One transfer per handle. curl_exec() on a handle whose transfer another
 * coroutine runs fails with a warning naming both coroutines (false);
 * curl_multi_add_handle() of such a handle returns CURLM_ADDED_ALREADY,
 * curl_setopt()/curl_setopt_array() fail with a warning and curl_reset()
 * throws, as PHP refuses it from a callback: libcurl must not see the
 * options of a running transfer change under it.
 *
 * Names, sockets, libcurl itself. Debian's libcurl resolves names on a
 * thread of its own (the threaded resolver, reporting through a socketpair
 * that the table watches), never on the loop. Easy handles run here get
 * CURLOPT_QUICK_EXIT, so that a transfer aborted during a slow lookup
 * detaches the resolver thread instead of joining it, and a
 * CURLOPT_CLOSESOCKETFUNCTION that tells the runtime an fd is closing
 * (tasync_fd_forget) before libcurl closes it; REMOVE of the socket
 * callback does the same. libcurl's functions are looked up in the library
 * PHP's curl extension uses (dlsym through its handle): no link-time
 * dependency, and never a second libcurl with a different TLS flavour.
 *
 * Outside coroutines (no runtime, or fiber switches blocked) every
 * function is PHP's own; a multi handle used both ways keeps working. A
 * PHP callback that suspends inside curl_multi_exec() holds that multi
 * handle: another coroutine's curl_multi_exec() on it meanwhile returns
 * CURLM_RECURSIVE_API_CALL (libcurl's rule for calls from a callback).
 */
#include "io/curl_driver.h"
#include "io/families.h"
#include "io/hooks.h"
#include "io/wait.h"
#include "runtime/globals.h"
#include "runtime/host.h"

#ifdef ASYNC_HAVE_CURL

#include "ext/standard/file.h"
#include "zend_smart_str.h"

/* ------------------------------------------------- ext/curl's objects */

#define CURL_PHP_FILE 1   /* php_curl_write.method: CURLOPT_FILE */
#define CURL_PHP_USER 2   /* php_curl_write.method: CURLOPT_WRITEFUNCTION / HEADERFUNCTION */
#define CURL_PHP_RETURN 4 /* php_curl_write.method: CURLOPT_RETURNTRANSFER */

#if PHP_VERSION_ID >= 80200 && PHP_VERSION_ID < 80300
/*
 * ext/curl's CurlHandle as PHP 8.2 lays it out (ext/curl/curl_private.h,
 * php_curl; not installed). Only cp, handlers.write/write_header/std_err
 * and err are used; the rest is there so that the offset of std, which the
 * object's handlers carry, checks the whole layout on every call.
 */
# define ASYNC_CURL_EASY_LAYOUT 1
typedef struct curl_php_write {
	zval func_name;
	zend_fcall_info_cache fci_cache;
	FILE *fp;
	smart_str buf;
	int method;
	zval stream;
} curl_php_write;

typedef struct curl_php_easy {
	CURL *cp;
	struct {
		curl_php_write *write;
		curl_php_write *write_header;
		void *read;
		zval std_err;
		void *progress;
		void *xferinfo;
		void *fnmatch;
	} handlers;
	void *to_free;
	zend_string *header_out;
	struct {
		char str[CURL_ERROR_SIZE + 1];
		int no;
	} err;
	bool in_callback;
	uint32_t *clone;
	zval postfields;
	zval private_data;
	void *share;
	zend_object std;
} curl_php_easy;

/* The handle behind a CurlHandle, or NULL when its layout is not this one
 * (a build of PHP that differs: said once, and curl_exec() stays PHP's). */
static curl_php_easy *curl_easy_of(zend_object *obj)
{
	static bool warned;
	curl_php_easy *ch = (curl_php_easy *) ((char *) obj - obj->handlers->offset);
	if (obj->handlers->offset != XtOffsetOf(curl_php_easy, std)
			|| ch->cp == NULL || ch->handlers.write == NULL || ch->handlers.write_header == NULL) {
		if (!warned) {
			warned = true;
			php_error_docref(NULL, E_WARNING, "ext/curl's CurlHandle is not laid out as this build of async expects"
				" (PHP " PHP_VERSION "): curl_exec() blocks the whole process");
		}
		return NULL;
	}
	return ch;
}
#endif

/* Every PHP version lays out CurlHandle and CurlMultiHandle with the
 * CURL* / CURLM* first. */
static CURL *curl_cp_of(zend_object *obj)
{
	if (obj->handlers->offset < sizeof(CURL *)) {
		return NULL;
	}
	return *(CURL **) ((char *) obj - obj->handlers->offset);
}

static CURLM *curl_multi_of(zend_object *obj)
{
	if (obj->handlers->offset < sizeof(CURLM *)) {
		return NULL;
	}
	return *(CURLM **) ((char *) obj - obj->handlers->offset);
}

static zend_class_entry *curl_easy_ce, *curl_multi_ce_;

#ifdef ASYNC_CURL_EASY_LAYOUT
static zif_handler orig_curl_exec;
#endif
static zif_handler orig_curl_multi_exec, orig_curl_multi_select, orig_curl_multi_add_handle,
	orig_curl_reset, orig_curl_setopt, orig_curl_setopt_array;

/* PHP's functions called from here: curl_multi_init() and
 * curl_multi_remove_handle() are not hooked, curl_multi_add_handle() is
 * (this copy has PHP's handler). */
static zend_function *curl_multi_init_fn, *curl_multi_remove_handle_fn;
static zend_internal_function curl_multi_add_handle_fn;

/* ------------------------------------------------------------ curl_exec */

#ifdef ASYNC_CURL_EASY_LAYOUT

/* Calls PHP's curl_multi_remove_handle($mh, $ch) (an exception pending is
 * kept aside meanwhile: PHP calls nothing while one is). */
static void curl_private_remove(curl_drv *d, zval *zch)
{
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	zval args[2], rv;
	ZVAL_COPY_VALUE(&args[0], &d->private_mh);
	ZVAL_COPY_VALUE(&args[1], zch);
	ZVAL_UNDEF(&rv);
	zend_call_known_function(curl_multi_remove_handle_fn, NULL, NULL, &rv, 2, args, NULL);
	zval_ptr_dtor(&rv);
	async_exception_restore(&aside);
}

/* The CURLMSG_DONE of easy, if libcurl has it. */
static bool curl_private_done(curl_drv *d, CURL *easy, CURLcode *result)
{
	CURLMsg *msg;
	int left;
	while ((msg = async_io_curl_lib.multi_info_read(d->multi, &left)) != NULL) {
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy) {
			*result = msg->data.result;
			return true;
		}
	}
	return false;
}

/* curl_exec()'s result after a transfer that succeeded. */
static void curl_exec_result(zval *return_value, curl_php_easy *ch)
{
	if (!Z_ISUNDEF(ch->handlers.std_err)) {
		php_stream *stream = zend_fetch_resource2_ex(&ch->handlers.std_err, NULL, php_file_le_stream(), php_file_le_pstream());
		if (stream != NULL) {
			php_stream_flush(stream);
		}
	}
	curl_php_write *w = ch->handlers.write, *h = ch->handlers.write_header;
	if (w->method == CURL_PHP_RETURN && w->buf.s != NULL) {
		smart_str_0(&w->buf);
		RETURN_STR_COPY(w->buf.s);
	}
	if (w->method == CURL_PHP_FILE && w->fp != NULL) {
		fflush(w->fp);
	}
	if (h->method == CURL_PHP_FILE && h->fp != NULL) {
		fflush(h->fp);
	}
	if (w->method == CURL_PHP_RETURN) {
		RETURN_EMPTY_STRING();
	}
	RETURN_TRUE;
}

/* The handle's own multi handle (see the top comment), created at its
 * first curl_exec() in a coroutine. */
static curl_drv *curl_private_driver(zend_object *easy)
{
	curl_drv *d = async_io_curl_driver_find(easy);
	if (d != NULL) {
		return d;
	}
	zval mh;
	ZVAL_UNDEF(&mh);
	zend_call_known_function(curl_multi_init_fn, NULL, NULL, &mh, 0, NULL, NULL);
	if (Z_TYPE(mh) != IS_OBJECT || Z_OBJCE(mh) != curl_multi_ce_) {
		zval_ptr_dtor(&mh);
		return NULL;
	}
	CURLM *multi = curl_multi_of(Z_OBJ(mh));
	if (multi == NULL) {
		zval_ptr_dtor(&mh);
		return NULL;
	}
	return async_io_curl_driver_new(easy, multi, &mh);
}

/* Runs the transfer of ch on d's multi handle; false when it could not
 * start there (PHP's curl_exec() must run instead). */
static bool curl_exec_transfer(zval *return_value, zval *zch, curl_php_easy *ch, curl_drv *d)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	d->busy = tasync_coroutine_current(rt);
	tasync_coroutine_retain(d->busy);
	async_io_curl_prepare_easy(ch->cp);

	zval args[2], rv;
	ZVAL_COPY_VALUE(&args[0], &d->private_mh);
	ZVAL_COPY_VALUE(&args[1], zch);
	ZVAL_UNDEF(&rv);
	zend_call_known_function((zend_function *) &curl_multi_add_handle_fn, NULL, NULL, &rv, 2, args, NULL);
	bool added = Z_TYPE(rv) == IS_LONG && Z_LVAL(rv) == CURLM_OK;
	zval_ptr_dtor(&rv);
	if (!added || EG(exception)) {
		curl_private_remove(d, zch);
		tasync_coroutine_release(d->busy);
		d->busy = NULL;
		if (EG(exception)) {
			RETVAL_FALSE;
			return true;
		}
		/* Already in a multi handle, or called from one of its own
		 * callbacks: PHP's curl_exec() fails at once, as libcurl says. */
		return false;
	}

	enum { RUNNING, DONE, CANCELLED, UNWINDING } state = RUNNING;
	CURLcode result = CURLE_OK;
	struct pollfd *p = NULL;
	uint32_t n = 0;
	bool idle = false;
	int running = 0;
	while (state == RUNNING) {
		/* Act: on libcurl's expired timer, on every ready socket. */
		if (d->timer_set && d->deadline <= tasync_runtime_now(rt)) {
			d->timer_set = false;
			async_io_curl_lib.multi_socket_action(d->multi, CURL_SOCKET_TIMEOUT, 0, &running);
		} else if (idle) {
			/* A second with neither a ready socket nor a timer: run the
			 * transfer anyway, as curl_easy_perform() does every second. */
			async_io_curl_lib.multi_socket_all(d->multi, &running);
		}
		for (uint32_t i = 0; i < n && !EG(exception); i++) {
			int mask = async_io_curl_cselect(&p[i]);
			if (mask != 0) {
				async_io_curl_lib.multi_socket_action(d->multi, (curl_socket_t) p[i].fd, mask, &running);
			}
		}
		if (p != NULL) {
			efree(p);
			p = NULL;
			n = 0;
		}
		if (curl_private_done(d, ch->cp, &result)) {
			state = DONE;
			break;
		}
		if (EG(exception)) {
			state = UNWINDING; /* a PHP callback threw */
			break;
		}
		/* Wait for the sockets, up to libcurl's timer. */
		bool timer = d->timer_set;
		uint64_t deadline = timer ? d->deadline : tasync_runtime_now(rt) + 1000000000u;
		async_io_status st = async_io_curl_wait(d, deadline, false, &p, &n);
		idle = st == ASYNC_IO_TIMEOUT && !timer;
		if (st == ASYNC_IO_UNSUPPORTED) {
			/* The reactor refused an fd: every socket is tried after a
			 * short pause (libcurl meets EAGAIN where nothing is ready). */
			for (uint32_t i = 0; i < n; i++) {
				p[i].revents = p[i].events;
			}
			void *err = NULL;
			int rc = tasync_delay(rt, 10000000u, NULL, &err);
			st = async_io_after_wait(rc, err);
		}
		if (st == ASYNC_IO_CANCELLED) {
			state = CANCELLED;
		} else if (st != ASYNC_IO_READY && st != ASYNC_IO_TIMEOUT) {
			state = UNWINDING;
		}
	}
	if (p != NULL) {
		efree(p);
	}

	/* Leaves the multi handle (which aborts an unfinished transfer). */
	curl_private_remove(d, zch);
	tasync_coroutine_release(d->busy);
	d->busy = NULL;

	if (state == DONE) {
		ch->err.no = (int) result;
		if (result == CURLE_OK && !EG(exception)) {
			curl_exec_result(return_value, ch);
			return true;
		}
	} else if (state == UNWINDING && EG(exception) != NULL
			&& (ch->handlers.write->method == CURL_PHP_USER || ch->handlers.write_header->method == CURL_PHP_USER)) {
		/* A write (or header) callback threw: the transfer failed writing
		 * what it received, libcurl's CURLE_WRITE_ERROR, as a write
		 * callback that fails gives. */
		ch->err.no = CURLE_WRITE_ERROR;
		snprintf(ch->err.str, sizeof(ch->err.str), "%s", "Failure writing output to destination");
	} else {
		ch->err.no = CURLE_ABORTED_BY_CALLBACK;
		snprintf(ch->err.str, sizeof(ch->err.str), "%s", state == CANCELLED
			? "Transfer aborted: the coroutine was cancelled"
			: "Transfer aborted: an exception is pending in the coroutine");
	}
	smart_str_free(&ch->handlers.write->buf);
	RETVAL_FALSE;
	return true;
}

/* curl_exec(CurlHandle $handle): string|bool */
static ZEND_NAMED_FUNCTION(async_io_curl_exec)
{
	zval *zch;
	tasync_coroutine_t *self = async_io_coroutine();
	curl_php_easy *ch;
	if (self == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "O", &zch, curl_easy_ce) == FAILURE
			|| (ch = curl_easy_of(Z_OBJ_P(zch))) == NULL) {
		orig_curl_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	tasync_coroutine_t *owner = async_io_curl_busy_owner(Z_OBJ_P(zch));
	if (owner == self) {
		/* From a callback of its own transfer: libcurl refuses (false). */
		orig_curl_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (owner != NULL) {
		php_error_docref(NULL, E_WARNING,
			"Coroutine #%" PRIu64 " cannot use this cURL handle: coroutine #%" PRIu64 " runs a transfer on it",
			tasync_coroutine_id(self), tasync_coroutine_id(owner));
		RETURN_FALSE;
	}
	curl_drv *d = curl_private_driver(Z_OBJ_P(zch));
	if (d == NULL || !curl_exec_transfer(return_value, zch, ch, d)) {
		if (!EG(exception)) {
			orig_curl_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		}
	}
	if (Z_TYPE_P(return_value) == IS_FALSE && !EG(exception) && async_io_coroutine() == self
			&& async_io_fd_shortage_now()) {
		/* No descriptor was left for the connection (libcurl says only
		 * "Couldn't connect"): the call has failed as PHP's; before it
		 * returns, the coroutine waits until PHP closes a descriptor or the
		 * backoff passes (io/wait.c), so that a retry loop never spins. */
		(void) async_io_fd_shortage_wait(0);
	}
}

#endif /* ASYNC_CURL_EASY_LAYOUT */

/* ------------------------------------------------------ curl_multi_* */

/* The driver of a user's multi handle, attached at its first use in a
 * coroutine (*attached true then), or NULL. */
static curl_drv *curl_user_driver(zend_object *obj, bool *attached)
{
	*attached = false;
	curl_drv *d = async_io_curl_driver_find(obj);
	if (d != NULL) {
		return d;
	}
	CURLM *multi = curl_multi_of(obj);
	if (multi == NULL) {
		return NULL;
	}
	*attached = true;
	return async_io_curl_driver_new(obj, multi, NULL);
}

/* curl_multi_exec(CurlMultiHandle $multi_handle, &$still_running): int */
static ZEND_NAMED_FUNCTION(async_io_curl_multi_exec)
{
	zval *zmh, *zrunning;
	bool attached;
	curl_drv *d;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "Oz", &zmh, curl_multi_ce_, &zrunning) == FAILURE
			|| (d = curl_user_driver(Z_OBJ_P(zmh), &attached)) == NULL) {
		orig_curl_multi_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	orig_curl_multi_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (EG(exception) || Z_TYPE_P(return_value) != IS_LONG || Z_LVAL_P(return_value) != CURLM_OK) {
		return;
	}
	/* The same transfers once more, each reporting its sockets. */
	int running = 0;
	if (async_io_curl_lib.multi_socket_all(d->multi, &running) == CURLM_OK && !EG(exception)) {
		ZEND_TRY_ASSIGN_REF_LONG(zrunning, running);
	}
}

/* curl_multi_select(CurlMultiHandle $multi_handle, float $timeout = 1.0): int */
static ZEND_NAMED_FUNCTION(async_io_curl_multi_select)
{
	zval *zmh;
	double timeout = 1.0;
	bool attached;
	curl_drv *d;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "O|d", &zmh, curl_multi_ce_, &timeout) == FAILURE
			|| !(timeout >= 0) || timeout * 1000.0 > (double) INT_MAX
			|| (d = curl_user_driver(Z_OBJ_P(zmh), &attached)) == NULL) {
		/* Bad or absurd timeouts fail (or wait) in PHP's own function. */
		orig_curl_multi_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	tasync_runtime_t *rt = ASYNC_G(rt);
	/* As curl_multi_wait(): PHP truncates to milliseconds, libcurl's timer
	 * shortens the wait. */
	uint64_t wait_ns = (uint64_t) (unsigned long) (timeout * 1000.0) * 1000000u;
	long curl_ms = -1;
	if (attached) {
		/* The transfers' sockets are known from the next curl_multi_exec(). */
		wait_ns = 0;
	} else if (async_io_curl_lib.multi_timeout(d->multi, &curl_ms) == CURLM_OK && curl_ms >= 0
			&& (uint64_t) curl_ms * 1000000u < wait_ns) {
		wait_ns = (uint64_t) curl_ms * 1000000u;
	}
	struct pollfd *p = NULL;
	uint32_t n = 0;
	async_io_status st = async_io_curl_wait(d, tasync_runtime_now(rt) + wait_ns, true, &p, &n);
	uint32_t ready = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (async_io_curl_cselect(&p[i]) != 0) {
			ready++;
		}
	}
	efree(p);
	switch (st) {
		case ASYNC_IO_READY:
		case ASYNC_IO_TIMEOUT:
			RETURN_LONG((zend_long) ready);
		case ASYNC_IO_CANCELLED:
			RETURN_LONG(-1); /* C18: curl_multi_select()'s failure */
		case ASYNC_IO_ABORTED:
			RETURN_THROWS();
		default:
			/* The reactor refused an fd: PHP's own wait. */
			orig_curl_multi_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* curl_multi_add_handle(CurlMultiHandle $multi_handle, CurlHandle $handle): int */
static ZEND_NAMED_FUNCTION(async_io_curl_multi_add_handle)
{
	zval *zmh, *zch;
	if (zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "OO", &zmh, curl_multi_ce_, &zch, curl_easy_ce) == FAILURE) {
		orig_curl_multi_add_handle(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (async_io_curl_busy_owner(Z_OBJ_P(zch)) != NULL) {
		/* In curl_exec()'s multi handle: what libcurl answers, without
		 * PHP's reset of the running transfer's buffers. */
		RETURN_LONG(CURLM_ADDED_ALREADY);
	}
	CURL *cp;
	if (async_io_coroutine() != NULL && (cp = curl_cp_of(Z_OBJ_P(zch))) != NULL) {
		async_io_curl_prepare_easy(cp);
	}
	orig_curl_multi_add_handle(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* Whether another coroutine runs a transfer on the handle (PHP's own
 * function must not touch it): warns as fn and returns true. */
static bool curl_refuse_busy(zend_execute_data *execute_data, bool throw_error)
{
	if (ZEND_NUM_ARGS() < 1) {
		return false;
	}
	zval *zch = ZEND_CALL_ARG(execute_data, 1);
	if (Z_TYPE_P(zch) != IS_OBJECT || Z_OBJCE_P(zch) != curl_easy_ce) {
		return false;
	}
	tasync_coroutine_t *owner = async_io_curl_busy_owner(Z_OBJ_P(zch));
	if (owner == NULL || (ASYNC_G(rt) != NULL && owner == tasync_coroutine_current(ASYNC_G(rt)))) {
		return false; /* idle, or its own callbacks: PHP's rules */
	}
	if (throw_error) {
		zend_throw_error(NULL, "%s(): Cannot reset a cURL handle while coroutine #%" PRIu64 " runs a transfer on it",
			get_active_function_name(), tasync_coroutine_id(owner));
	} else {
		php_error_docref(NULL, E_WARNING, "Cannot change a cURL handle while coroutine #%" PRIu64 " runs a transfer on it",
			tasync_coroutine_id(owner));
	}
	return true;
}

static ZEND_NAMED_FUNCTION(async_io_curl_reset)
{
	if (curl_refuse_busy(execute_data, true)) {
		RETURN_THROWS();
	}
	orig_curl_reset(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_NAMED_FUNCTION(async_io_curl_setopt)
{
	if (curl_refuse_busy(execute_data, false)) {
		RETURN_FALSE;
	}
	orig_curl_setopt(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_NAMED_FUNCTION(async_io_curl_setopt_array)
{
	if (curl_refuse_busy(execute_data, false)) {
		RETURN_FALSE;
	}
	orig_curl_setopt_array(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------- module */

static zend_function *curl_lookup(const char *name)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
	return fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION ? fn : NULL;
}

void async_io_curl_startup(void)
{
	/* ext/curl starts first when it is loaded (async's optional
	 * dependency on it). */
	curl_easy_ce = zend_hash_str_find_ptr(CG(class_table), "curlhandle", sizeof("curlhandle") - 1);
	curl_multi_ce_ = zend_hash_str_find_ptr(CG(class_table), "curlmultihandle", sizeof("curlmultihandle") - 1);
	zend_function *exec = curl_lookup("curl_exec");
	zend_function *add = curl_lookup("curl_multi_add_handle");
	curl_multi_init_fn = curl_lookup("curl_multi_init");
	curl_multi_remove_handle_fn = curl_lookup("curl_multi_remove_handle");
	if (curl_easy_ce == NULL || curl_multi_ce_ == NULL || exec == NULL || add == NULL
			|| curl_multi_init_fn == NULL || curl_multi_remove_handle_fn == NULL || !async_io_curl_resolve(exec)) {
		return;
	}
	orig_curl_multi_add_handle = async_io_hook("curl_multi_add_handle", async_io_curl_multi_add_handle);
	if (orig_curl_multi_add_handle == NULL) {
		return;
	}
	curl_multi_add_handle_fn = add->internal_function;
	curl_multi_add_handle_fn.handler = orig_curl_multi_add_handle;
	orig_curl_multi_exec = async_io_hook("curl_multi_exec", async_io_curl_multi_exec);
	orig_curl_multi_select = async_io_hook("curl_multi_select", async_io_curl_multi_select);
	orig_curl_reset = async_io_hook("curl_reset", async_io_curl_reset);
	orig_curl_setopt = async_io_hook("curl_setopt", async_io_curl_setopt);
	orig_curl_setopt_array = async_io_hook("curl_setopt_array", async_io_curl_setopt_array);
#ifdef ASYNC_CURL_EASY_LAYOUT
	orig_curl_exec = async_io_hook("curl_exec", async_io_curl_exec);
#endif
}

#endif /* ASYNC_HAVE_CURL */
