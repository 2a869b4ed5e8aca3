/*
 * io/sleep.c - sleep(), usleep(), time_nanosleep() and time_sleep_until()
 * inside coroutines (rule C18): a delay of the runtime suspends only the
 * calling coroutine; a cancelled sleep returns what an interrupted one
 * returns in PHP (the seconds or nanoseconds left, false).
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/wait.h"
#include "runtime/globals.h"

#include <math.h>
#include <sys/time.h>

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

void async_io_sleep_startup(void)
{
	orig_sleep = async_io_hook("sleep", async_io_sleep);
	orig_usleep = async_io_hook("usleep", async_io_usleep);
	orig_time_nanosleep = async_io_hook("time_nanosleep", async_io_time_nanosleep);
	orig_time_sleep_until = async_io_hook("time_sleep_until", async_io_time_sleep_until);
}
