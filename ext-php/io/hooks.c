/*
 * io_hooks.c - the machinery of transparent concurrency (rule C18, see
 * php_async_io.h): the table of hooked PHP functions, the waits every hook
 * uses (fd readiness, awaitables, thread-pool work) with PHP's timeouts and
 * the C18 treatment of cancellation, the per-stream wait state, and the
 * sleep family.
 *
 * Cancellation (C18). A hooked function whose wait is cancelled fails the
 * way its documentation says a failed call does (false, a warning where
 * the function warns, sleep()'s "seconds left"), never with a new
 * exception type; the cancellation is made pending again so that the
 * coroutine's next suspension point (await, delay, suspend, or the next
 * hooked wait) throws the CancellationError: it is never lost.
 */
#include "php_async_io.h"

#include "zend_fibers.h"

#include <math.h>
#include <sys/time.h>

/* ------------------------------------------------------------ hook table */

typedef struct io_hook {
	const char *name;
	zif_handler original;
	zif_handler replacement;
} io_hook;

#define IO_HOOK_MAX 128
static io_hook io_hooks[IO_HOOK_MAX];
static uint32_t io_hook_count;

zif_handler async_io_hook(const char *name, zif_handler handler)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || io_hook_count == IO_HOOK_MAX) {
		return NULL;
	}
	io_hook *h = &io_hooks[io_hook_count++];
	h->name = name;
	h->original = fn->internal_function.handler;
	h->replacement = handler;
	fn->internal_function.handler = handler;
	return h->original;
}

/*
 * Functions that PHP declares as implementation aliases of a hooked one
 * (gzclose() is fclose()'s handler under another name) get the hook too:
 * their callers must not bypass it. Run after every hook is in place.
 */
static void io_hook_aliases(void)
{
	uint32_t hooked = io_hook_count;
	for (uint32_t i = 0; i < hooked; i++) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), io_hooks[i].name, strlen(io_hooks[i].name));
		bool first = true;
		for (uint32_t k = 0; k < i && first; k++) {
			first = strcmp(io_hooks[k].name, io_hooks[i].name) != 0;
		}
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || !first) {
			continue; /* a second hook of the same function chains to the first */
		}
		zend_string *key;
		zend_function *other;
		ZEND_HASH_MAP_FOREACH_STR_KEY_PTR(CG(function_table), key, other) {
			if (other != fn && other->type == ZEND_INTERNAL_FUNCTION && key != NULL
					&& other->internal_function.handler == io_hooks[i].original && io_hook_count < IO_HOOK_MAX) {
				io_hook *h = &io_hooks[io_hook_count++];
				h->name = ZSTR_VAL(key); /* interned, lives as long as the function */
				h->original = other->internal_function.handler;
				h->replacement = fn->internal_function.handler;
				other->internal_function.handler = h->replacement;
			}
		} ZEND_HASH_FOREACH_END();
	}
}

static void io_unhook_all(void)
{
	while (io_hook_count > 0) {
		io_hook *h = &io_hooks[--io_hook_count];
		/* Looked up again: disable_functions may have removed it since. */
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), h->name, strlen(h->name));
		if (fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == h->replacement) {
			fn->internal_function.handler = h->original;
		}
	}
}

/* ------------------------------------------------------------------ waits */

tasync_coroutine_t *async_io_coroutine(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL || EG(exception) != NULL || zend_fiber_switch_blocked()) {
		return NULL;
	}
	tasync_coroutine_t *co = tasync_coroutine_current(rt);
	if (co == NULL || tasync_coroutine_host_data(co) == NULL) {
		return NULL; /* a core callback or a native coroutine: no PHP frames to park */
	}
	return co;
}

uint64_t async_io_deadline(const struct timeval *tv)
{
	if (tv == NULL || tv->tv_sec < 0 || tv->tv_sec >= 1000000000) {
		return 0; /* none, or beyond any wait worth a deadline (31 years) */
	}
	uint64_t ns = (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) (tv->tv_usec > 0 ? tv->tv_usec : 0) * 1000u;
	return tasync_runtime_now(ASYNC_G(rt)) + ns;
}

/*
 * After every wait of a hook: the core applies rule C18 to a cancellation
 * (tasync_wait_end: pending again for the next suspension point, or
 * raised when the coroutine ignored it once) and calls the host's wait_end
 * below, which raises what it is handed and unwinds an aborted coroutine.
 */
async_io_status async_io_after_wait(int rc, void *err)
{
	rc = tasync_wait_end(ASYNC_G(rt), rc, err);
	switch (rc) {
		case TASYNC_EHOST_RAISED:
			return ASYNC_IO_ABORTED;
		case 0:
			return ASYNC_IO_READY;
		case TASYNC_EAWAIT_CANCELLED:
			return ASYNC_IO_TIMEOUT;
		case -ECANCELED:
			return ASYNC_IO_CANCELLED;
		case -EBADF:
			return ASYNC_IO_CLOSED;
		default:
			return ASYNC_IO_UNSUPPORTED;
	}
}

/*
 * The host table's may_suspend and wait_end (ABI 1.2): the blocking
 * functions of other extensions (plugins/pgsql) get exactly the treatment
 * of the hooks above through tasync_coroutine_suspendable and
 * tasync_wait_end.
 */
int async_host_may_suspend(void *hd, tasync_coroutine_t *co, void *co_data)
{
	(void) hd;
	(void) co;
	return co_data != NULL && async_io_coroutine() != NULL;
}

int async_host_wait_end(void *hd, tasync_coroutine_t *co, void *co_data, int rc, void *error)
{
	(void) hd;
	(void) co;
	(void) co_data;
	if (!async_after_switch()) {
		if (error != NULL) {
			OBJ_RELEASE((zend_object *) error);
		}
		return TASYNC_EHOST_RAISED;
	}
	if (rc == -ECANCELED && error != NULL) {
		/* The core's rule C18: the coroutine ignored this cancellation once. */
		async_throw_error(rc, error);
		return TASYNC_EHOST_RAISED;
	}
	if (error != NULL) {
		OBJ_RELEASE((zend_object *) error);
	}
	return rc;
}

/* A timeout awaitable for deadline (none for 0); false when it has passed. */
static bool io_timeout_for(uint64_t deadline, tasync_awaitable_t **out)
{
	*out = NULL;
	if (deadline == 0) {
		return true;
	}
	tasync_runtime_t *rt = ASYNC_G(rt);
	uint64_t now = tasync_runtime_now(rt);
	if (now >= deadline) {
		return false;
	}
	return tasync_timeout_create(rt, deadline - now, out) == 0;
}

async_io_status async_io_wait_fd(int fd, unsigned events, uint64_t deadline, unsigned *revents)
{
	tasync_awaitable_t *timeout;
	if (!io_timeout_for(deadline, &timeout)) {
		return ASYNC_IO_TIMEOUT;
	}
	void *err = NULL;
	int rc = tasync_await_fd(ASYNC_G(rt), fd, events, timeout, revents, &err);
	tasync_awaitable_release(timeout);
	return async_io_after_wait(rc, err);
}

async_io_status async_io_await(tasync_awaitable_t *aw, uint64_t deadline)
{
	tasync_awaitable_t *timeout;
	if (!io_timeout_for(deadline, &timeout)) {
		return ASYNC_IO_TIMEOUT;
	}
	void *value = NULL, *err = NULL;
	int rc = tasync_await(ASYNC_G(rt), aw, timeout, &value, &err);
	tasync_awaitable_release(timeout);
	tasync_value_release(ASYNC_G(rt), value);
	if (rc == TASYNC_EFAILED) {
		rc = 0; /* it completed; how does not matter here */
	}
	return async_io_after_wait(rc, err);
}

async_io_status async_io_offload(void (*fn)(void *data), void *data)
{
	void *err = NULL;
	int rc = tasync_offload(ASYNC_G(rt), fn, data, NULL, &err);
	return async_io_after_wait(rc, err);
}

/* ------------------------------------------------- per-stream wait state */

/* php_stream* => async_io_busy*, for the request (see php_async_io.h). */
ZEND_TLS HashTable io_busy_table;
ZEND_TLS bool io_busy_ready;

/*
 * The table's key for a stream. zend_hash picks a bucket by the low bits
 * of an integer key, and stream addresses share theirs (Zend MM hands them
 * out of one size class): the raw address put ~1000 streams into a few
 * long chains (each lookup walked them, 19 % of a keep-alive server's
 * instructions at 1000 connections). The splitmix64 finalizer is a
 * bijection, so keys stay unique, and spreads every bit into the low ones.
 */
static inline zend_ulong io_busy_key(php_stream *stream)
{
	uint64_t k = (uint64_t) (uintptr_t) stream;
	k = (k ^ (k >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	k = (k ^ (k >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (zend_ulong) (k ^ (k >> 31));
}

async_io_busy *async_io_busy_find(php_stream *stream)
{
	if (!io_busy_ready) {
		return NULL;
	}
	return zend_hash_index_find_ptr(&io_busy_table, io_busy_key(stream));
}

async_io_busy *async_io_busy_enter(php_stream *stream)
{
	if (!io_busy_ready) {
		zend_hash_init(&io_busy_table, 8, NULL, NULL, 0);
		io_busy_ready = true;
	}
	async_io_busy *b = async_io_busy_find(stream);
	if (b == NULL) {
		b = ecalloc(1, sizeof(*b));
		b->stream = stream;
		zend_hash_index_add_new_ptr(&io_busy_table, io_busy_key(stream), b);
	}
	b->users++;
	return b;
}

void async_io_busy_detach(async_io_busy *b)
{
	if (b->stream != NULL) {
		zend_hash_index_del(&io_busy_table, io_busy_key(b->stream));
		b->stream = NULL;
	}
}

static void io_busy_free(async_io_busy *b)
{
	tasync_awaitable_release(b->changed);
	tasync_awaitable_release(b->timeouts[0]);
	tasync_awaitable_release(b->timeouts[1]);
	efree(b);
}

void async_io_busy_release(async_io_busy *b)
{
	if (b->users == 0 && b->closers == 0 && b->reader == NULL && b->writer == NULL && b->changed == NULL
			&& !b->failed && !b->kept) {
		async_io_busy_detach(b);
		io_busy_free(b);
	}
}

void async_io_busy_signal(async_io_busy *b)
{
	if (b->changed != NULL) {
		tasync_awaitable_t *aw = b->changed;
		b->changed = NULL;
		tasync_future_resolve(aw, NULL);
		tasync_awaitable_release(aw);
	}
}

void async_io_busy_leave(async_io_busy *b)
{
	b->users--;
	if (b->closing) {
		async_io_busy_signal(b); /* the closer counts the users left */
	}
	async_io_busy_release(b);
}

async_io_status async_io_busy_wait(async_io_busy *b, uint64_t deadline, bool as_user)
{
	if (b->changed == NULL && tasync_future_create(ASYNC_G(rt), &b->changed) != 0) {
		b->changed = NULL;
		return ASYNC_IO_UNSUPPORTED;
	}
	tasync_awaitable_t *aw = b->changed;
	tasync_awaitable_retain(aw);
	if (as_user) {
		b->users++;
	}
	async_io_status st = async_io_await(aw, deadline);
	if (as_user) {
		b->users--;
	}
	tasync_awaitable_release(aw);
	return st;
}

/* The caller is a PHP coroutine that may suspend here. */
static bool io_busy_may_wait(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *self = rt != NULL ? tasync_coroutine_current(rt) : NULL;
	return self != NULL && tasync_coroutine_host_data(self) != NULL && !zend_fiber_switch_blocked()
		&& EG(exception) == NULL;
}

bool async_io_busy_drain(async_io_busy *b)
{
	b->closing = true;
	async_io_busy_signal(b);
	if (b->users == 0) {
		return true;
	}
	if (!io_busy_may_wait()) {
		return false;
	}
	tasync_runtime_t *rt = ASYNC_G(rt);
	tasync_coroutine_t *self = tasync_coroutine_current(rt);
	/* The stream cannot be freed under the users, so this wait is not
	 * interrupted by the closer's cancellation: it is held back as in a
	 * protect section (C20) and pending again once the close is done. A
	 * wait that ends anyway (the forced phase of shutdown, the deadlock
	 * breaker wake the users the same way) yields to them and goes on. */
	b->closers++;
	tasync_protect_begin(rt);
	while (b->users > 0) {
		if (b->changed == NULL && tasync_future_create(rt, &b->changed) != 0) {
			b->changed = NULL;
			tasync_yield(rt, NULL);
		} else {
			tasync_awaitable_t *aw = b->changed;
			tasync_awaitable_retain(aw);
			void *value = NULL, *err = NULL;
			int rc = tasync_await(rt, aw, NULL, &value, &err);
			tasync_awaitable_release(aw);
			tasync_value_release(rt, value);
			if (err != NULL) {
				tasync_error_release(rt, err);
			}
			if (rc == -ECANCELED) {
				tasync_yield(rt, NULL);
			}
		}
		async_safe_point();
	}
	void *err = NULL;
	if (tasync_protect_end(rt, &err) == -ECANCELED) {
		tasync_coroutine_repend_cancellation(self);
		if (err != NULL) {
			tasync_error_release(rt, err);
		}
	}
	b->closers--;
	/* A coroutine the request's end aborted meanwhile unwinds from here
	 * (rule C22): the close completes, no user code runs after it. */
	async_after_switch();
	return true;
}

void async_io_busy_orphan(async_io_busy *b)
{
	b->gone = true;
	b->failed = false;
	async_io_busy_signal(b);
	async_io_busy_detach(b);
	async_io_busy_release(b);
}

void async_io_busy_check_gone(async_io_busy *b)
{
	if (!b->gone) {
		return;
	}
	b->users--;
	async_io_busy_release(b);
	/* PHP's frames below this one would touch the freed stream: they are
	 * abandoned as a fatal error abandons them. */
	if (EG(exception) != NULL && zend_is_unwind_exit(EG(exception))) {
		/* The request ends anyway (exit, a fatal error elsewhere). */
		zend_clear_exception();
		zend_bailout();
	}
	if (EG(exception) != NULL) {
		zend_clear_exception();
	}
	zend_error_noreturn(E_ERROR, "A stream this coroutine was waiting on was freed by a close that could not wait "
		"for it to leave (a close outside a coroutine or in a destructor run by the garbage collector)");
}

/* Before the runtime goes: what abandoned coroutines left behind. */
static void io_busy_request_shutdown(void)
{
	if (!io_busy_ready) {
		return;
	}
	async_io_busy *b;
	ZEND_HASH_FOREACH_PTR(&io_busy_table, b) {
		/* Left by coroutines that never resumed (they never will), or kept
		 * for a stream that is still open. */
		io_busy_free(b);
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&io_busy_table);
	io_busy_ready = false;
}

/* ------------------------------------------------------------ sleep family */

static zif_handler orig_sleep, orig_usleep, orig_time_nanosleep, orig_time_sleep_until;

/*
 * Suspends for ns. ASYNC_IO_READY after the full time; ASYNC_IO_CANCELLED
 * with the nanoseconds left in *left; ASYNC_IO_ABORTED; or
 * ASYNC_IO_UNSUPPORTED when the runtime refused the delay.
 */
static async_io_status io_delay(uint64_t ns, uint64_t *left)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	uint64_t start = tasync_runtime_now(rt);
	void *err = NULL;
	int rc = tasync_delay(rt, ns, NULL, &err);
	async_io_status st = async_io_after_wait(rc, err);
	if (st == ASYNC_IO_CANCELLED) {
		uint64_t elapsed = tasync_runtime_now(ASYNC_G(rt)) - start;
		*left = ns > elapsed ? ns - elapsed : 0;
	}
	return st;
}

/* sleep(int $seconds): int - 0, or the seconds left when interrupted. */
static ZEND_NAMED_FUNCTION(async_io_sleep)
{
	zend_long seconds;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "l", &seconds) == FAILURE
			|| seconds < 0) {
		orig_sleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* PHP passes (unsigned int) seconds to sleep(3). */
	unsigned int s = (unsigned int) seconds;
	uint64_t left = 0;
	switch (io_delay((uint64_t) s * 1000000000u, &left)) {
		case ASYNC_IO_READY:
			RETURN_LONG(0);
		case ASYNC_IO_CANCELLED:
			/* As sleep(3) interrupted by a signal: the seconds left, at least 1. */
			RETURN_LONG(left == 0 ? 1 : (zend_long) ((left + 999999999u) / 1000000000u));
		case ASYNC_IO_ABORTED:
			RETURN_THROWS();
		default:
			orig_sleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* usleep(int $microseconds): void */
static ZEND_NAMED_FUNCTION(async_io_usleep)
{
	zend_long usec;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "l", &usec) == FAILURE
			|| usec < 0) {
		orig_usleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	uint64_t left = 0;
	/* PHP passes (unsigned int) microseconds to usleep(3). */
	switch (io_delay((uint64_t) (unsigned int) usec * 1000u, &left)) {
		case ASYNC_IO_READY:
		case ASYNC_IO_CANCELLED: /* usleep() reports nothing */
		case ASYNC_IO_ABORTED:
			return;
		default:
			orig_usleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* time_nanosleep(int $seconds, int $nanoseconds): array|bool */
static ZEND_NAMED_FUNCTION(async_io_time_nanosleep)
{
	zend_long sec, nsec;
	/* Invalid values fail in PHP's own function at once, with its errors. */
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "ll", &sec, &nsec) == FAILURE
			|| sec < 0 || nsec < 0 || nsec > 999999999) {
		orig_time_nanosleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	uint64_t ns = (uint64_t) sec > (UINT64_MAX - (uint64_t) nsec) / 1000000000u
		? UINT64_MAX : (uint64_t) sec * 1000000000u + (uint64_t) nsec;
	uint64_t left = 0;
	switch (io_delay(ns, &left)) {
		case ASYNC_IO_READY:
			RETURN_TRUE;
		case ASYNC_IO_CANCELLED:
			/* As nanosleep(2) interrupted by a signal: what is left. */
			array_init(return_value);
			add_assoc_long_ex(return_value, "seconds", sizeof("seconds") - 1, (zend_long) (left / 1000000000u));
			add_assoc_long_ex(return_value, "nanoseconds", sizeof("nanoseconds") - 1, (zend_long) (left % 1000000000u));
			return;
		case ASYNC_IO_ABORTED:
			RETURN_THROWS();
		default:
			orig_time_nanosleep(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* time_sleep_until(float $timestamp): bool */
static ZEND_NAMED_FUNCTION(async_io_time_sleep_until)
{
	double target;
	struct timeval now;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "d", &target) == FAILURE
			|| gettimeofday(&now, NULL) != 0) {
		orig_time_sleep_until(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	double wait = target - (double) now.tv_sec - (double) now.tv_usec / 1000000.0;
	if (!(wait >= 0) || wait > 1e9) {
		/* In the past (PHP warns), NaN, or absurdly far: PHP's own function. */
		orig_time_sleep_until(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	uint64_t left = 0;
	switch (io_delay((uint64_t) (wait * 1e9), &left)) {
		case ASYNC_IO_READY:
			RETURN_TRUE;
		case ASYNC_IO_CANCELLED:
			RETURN_FALSE; /* "false on failure" */
		case ASYNC_IO_ABORTED:
			RETURN_THROWS();
		default:
			orig_time_sleep_until(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

/* ---------------------------------------------------------------- module */

void async_io_startup(void)
{
	orig_sleep = async_io_hook("sleep", async_io_sleep);
	orig_usleep = async_io_hook("usleep", async_io_usleep);
	orig_time_nanosleep = async_io_hook("time_nanosleep", async_io_time_nanosleep);
	orig_time_sleep_until = async_io_hook("time_sleep_until", async_io_time_sleep_until);
	async_io_socket_open_startup();
	async_io_streams_startup();
	async_io_select_startup();
	async_io_dns_startup();
	async_io_dns_records_startup();
	async_io_files_startup();
	async_io_stdio_startup();
	async_io_fsops_startup();
	async_io_proc_startup();
	async_io_sockets_startup();
	async_io_mysqli_startup();
#ifdef ASYNC_HAVE_CURL
	async_io_curl_startup();
#endif
	io_hook_aliases();
}

void async_io_shutdown(void)
{
	async_io_sockets_shutdown();
	async_io_mysqli_shutdown();
	async_io_socket_open_shutdown();
	io_unhook_all();
	async_io_stdio_shutdown();
	async_io_fsops_shutdown();
	async_io_fs_shutdown();
}

void async_io_request_shutdown(void)
{
#ifdef ASYNC_HAVE_CURL
	async_io_curl_request_shutdown();
#endif
	async_io_stdio_request_shutdown();
	async_io_proc_request_shutdown();
	async_io_pdo_request_shutdown();
	io_busy_request_shutdown();
}
