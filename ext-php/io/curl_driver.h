/*
 * io/curl_driver.h - what the runtime knows of a curl multi handle
 * (io/curl_driver.c: libcurl's socket and timer callbacks, the waits), for
 * io/curl.c, which takes over the ext/curl functions. Built when libcurl's
 * headers are found (ASYNC_HAVE_CURL).
 */
#ifndef ASYNC_IO_CURL_DRIVER_H
#define ASYNC_IO_CURL_DRIVER_H

#include "io/wait.h"

#ifdef ASYNC_HAVE_CURL

#define CURL_DISABLE_TYPECHECK 1
#define CURL_DISABLE_DEPRECATION 1
#include <curl/curl.h>

#include <poll.h>

/* The few libcurl functions used, from the library PHP's curl uses
 * (curl_driver.c finds them: no link-time dependency on libcurl). */
typedef struct async_io_curl_fns {
	__typeof__(curl_multi_setopt) *multi_setopt;
	__typeof__(curl_multi_socket_action) *multi_socket_action;
	__typeof__(curl_multi_socket_all) *multi_socket_all;
	__typeof__(curl_multi_info_read) *multi_info_read;
	__typeof__(curl_multi_timeout) *multi_timeout;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_version_info) *version_info;
} async_io_curl_fns;

extern async_io_curl_fns async_io_curl_lib;

/* Finds libcurl's functions in the library of ext/curl's function
 * any_curl_function; false when one is missing (curl stays PHP's). */
bool async_io_curl_resolve(zend_function *any_curl_function);

/*
 * What the runtime knows of one multi handle: the sockets libcurl asked
 * for and its timer. Kept per PHP object in a weak map: for a user's
 * CurlMultiHandle the key is that object; for curl_exec() the key is the
 * CurlHandle and private_mh is its own CurlMultiHandle.
 */
typedef struct curl_drv {
	CURLM *multi;
	zend_object *key;              /* borrowed: the weak map's key */
	zval private_mh;               /* curl_exec()'s multi handle, or undef */
	HashTable socks;               /* fd => wanted TASYNC_IO_* bits */
	uint64_t deadline;             /* libcurl's timer on the runtime clock */
	bool timer_set;
	bool detaching;                /* request end: the user's handle lives on */
	tasync_awaitable_t *changed;   /* completed at the next change, or NULL */
	tasync_coroutine_t *busy;      /* runs curl_exec() (a reference), or NULL */
} curl_drv;

/* The driver of the PHP object key (a CurlMultiHandle, or the CurlHandle
 * of curl_exec()), or NULL. */
curl_drv *async_io_curl_driver_find(zend_object *key);
/* A driver for multi, kept in the weak map under key; private_mh (may be
 * NULL) is curl_exec()'s own multi handle, whose reference it takes. */
curl_drv *async_io_curl_driver_new(zend_object *key, CURLM *multi, zval *private_mh);
/* The coroutine running a transfer on the CurlHandle obj, or NULL. */
tasync_coroutine_t *async_io_curl_busy_owner(zend_object *obj);
/* Before an easy handle runs inside a coroutine (see io/curl.c's top
 * comment). */
void async_io_curl_prepare_easy(CURL *cp);

/* The CURL_CSELECT_* bits of a ready socket. A hang-up or an error is
 * passed on as the wanted direction, so that libcurl's own read or write
 * meets the real error, as after poll() in its own loop. */
static inline int async_io_curl_cselect(const struct pollfd *p)
{
	int m = 0;
	if ((p->events & POLLIN) && (p->revents & (POLLIN | POLLHUP | POLLERR))) {
		m |= CURL_CSELECT_IN;
	}
	if ((p->events & POLLOUT) && (p->revents & (POLLOUT | POLLHUP | POLLERR))) {
		m |= CURL_CSELECT_OUT;
	}
	return m;
}

/*
 * Waits until a socket of d is ready, d changes (with_changed: the waiters
 * of a user's multi handle), or deadline passes (0: none; required when d
 * has no socket and with_changed is false). *pfds receives d's sockets with
 * what is ready in revents (efree it). ASYNC_IO_READY: something is ready
 * or d changed; ASYNC_IO_TIMEOUT: the deadline passed (when it had passed
 * already, the coroutine still let the others run once); or the C18
 * statuses of async_io_after_wait().
 */
async_io_status async_io_curl_wait(curl_drv *d, uint64_t deadline, bool with_changed, struct pollfd **pfds,
	uint32_t *npfds);

#endif /* ASYNC_HAVE_CURL */

#endif /* ASYNC_IO_CURL_DRIVER_H */
