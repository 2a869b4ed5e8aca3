/*
 * io/curl_driver.c - what the runtime knows of a curl multi handle (rule
 * C18, see curl.c for the functions taken over): libcurl's socket and timer
 * callbacks fill a small table per multi handle (curl_drv), kept in a weak
 * map by PHP object, and a wait on the table is a wait on its fds through
 * the runtime, bounded by libcurl's timer. libcurl's own functions are
 * looked up in the library PHP's curl extension loaded.
 */
#include "io/curl_driver.h"

#include "io/families.h"
#include "io/poll.h"
#include "io/wait.h"
#include "runtime/globals.h"

#ifdef ASYNC_HAVE_CURL

#include "zend_weakrefs.h"

#include <dlfcn.h>

/* ----------------------------------------------------------- libcurl */

async_io_curl_fns async_io_curl_lib;

/* CURLOPT_QUICK_EXIT exists (libcurl 7.87). */
static bool io_curl_has_quick_exit;

/* Finds libcurl's functions in the library ext/curl uses. */
bool async_io_curl_resolve(zend_function *any_curl_function)
{
	Dl_info info;
	void *lib = NULL;
	if (dladdr((void *) any_curl_function->internal_function.handler, &info) != 0 && info.dli_fname != NULL) {
		lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	}
	void *from = lib != NULL ? lib : RTLD_DEFAULT;
#define CURL_RESOLVE(field, name) \
	async_io_curl_lib.field = (__typeof__(async_io_curl_lib.field)) dlsym(from, name)
	CURL_RESOLVE(multi_setopt, "curl_multi_setopt");
	CURL_RESOLVE(multi_socket_action, "curl_multi_socket_action");
	CURL_RESOLVE(multi_socket_all, "curl_multi_socket_all");
	CURL_RESOLVE(multi_info_read, "curl_multi_info_read");
	CURL_RESOLVE(multi_timeout, "curl_multi_timeout");
	CURL_RESOLVE(easy_setopt, "curl_easy_setopt");
	CURL_RESOLVE(version_info, "curl_version_info");
#undef CURL_RESOLVE
	if (lib != NULL) {
		dlclose(lib); /* ext/curl keeps it loaded */
	}
	async_io_curl_fns *f = &async_io_curl_lib;
	if (!f->multi_setopt || !f->multi_socket_action || !f->multi_socket_all || !f->multi_info_read
			|| !f->multi_timeout || !f->easy_setopt || !f->version_info) {
		return false;
	}
	const curl_version_info_data *v = async_io_curl_lib.version_info(CURLVERSION_NOW);
	io_curl_has_quick_exit = v != NULL && v->version_num >= 0x075700;
	return true;
}

/* ------------------------------------------------------------- drivers */

ZEND_TLS HashTable io_curl_drivers;      /* weak map: object => curl_drv */
ZEND_TLS bool io_curl_drivers_ready;

static void curl_drv_changed(curl_drv *d)
{
	if (d->changed != NULL) {
		tasync_awaitable_t *aw = d->changed;
		d->changed = NULL;
		tasync_future_resolve(aw, NULL);
		tasync_awaitable_release(aw);
	}
}

/* Tells the runtime that fd is going (curl closes it, or stops using it
 * for now): no watch stays on an fd number the kernel may reuse. */
static void curl_forget_fd(curl_socket_t fd)
{
	if (ASYNC_G(rt) != NULL && fd != CURL_SOCKET_BAD) {
		tasync_fd_forget(ASYNC_G(rt), (int) fd);
	}
}

static int curl_socket_cb(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
	(void) easy;
	(void) socketp;
	curl_drv *d = userp;
	if (what == CURL_POLL_REMOVE) {
		zend_hash_index_del(&d->socks, (zend_ulong) fd);
		curl_forget_fd(fd);
	} else {
		zval ev;
		ZVAL_LONG(&ev, ((what & CURL_POLL_IN) ? TASYNC_IO_READABLE : 0) | ((what & CURL_POLL_OUT) ? TASYNC_IO_WRITABLE : 0));
		zend_hash_index_update(&d->socks, (zend_ulong) fd, &ev);
	}
	curl_drv_changed(d);
	return 0;
}

static int curl_timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	(void) multi;
	curl_drv *d = userp;
	if (timeout_ms < 0 || ASYNC_G(rt) == NULL) {
		d->timer_set = false;
	} else {
		d->timer_set = true;
		d->deadline = tasync_runtime_now(ASYNC_G(rt)) + (uint64_t) timeout_ms * 1000000u;
	}
	curl_drv_changed(d);
	return 0;
}

static int curl_close_socket(void *clientp, curl_socket_t fd)
{
	(void) clientp;
	curl_forget_fd(fd);
	int rc = close(fd);
	async_io_fd_released();
	return rc;
}

/* Before an easy handle runs here (see the top comment). */
void async_io_curl_prepare_easy(CURL *cp)
{
	if (io_curl_has_quick_exit) {
		async_io_curl_lib.easy_setopt(cp, CURLOPT_QUICK_EXIT, 1L);
	}
	async_io_curl_lib.easy_setopt(cp, CURLOPT_CLOSESOCKETFUNCTION, curl_close_socket);
	async_io_curl_lib.easy_setopt(cp, CURLOPT_CLOSESOCKETDATA, NULL);
}

static void curl_drv_attach(curl_drv *d)
{
	async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_SOCKETFUNCTION, curl_socket_cb);
	async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_SOCKETDATA, d);
	async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_TIMERFUNCTION, curl_timer_cb);
	async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_TIMERDATA, d);
}

static void curl_drv_free(curl_drv *d)
{
	if (Z_TYPE(d->private_mh) == IS_OBJECT) {
		/* PHP frees its multi handle; the callbacks may still run meanwhile. */
		zval mh;
		ZVAL_COPY_VALUE(&mh, &d->private_mh);
		ZVAL_UNDEF(&d->private_mh);
		zval_ptr_dtor(&mh);
	} else if (d->detaching) {
		/* A user's multi handle outlives the request's runtime: plain again
		 * (when it dies first, libcurl's handle is gone by now). */
		async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_SOCKETFUNCTION, NULL);
		async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_SOCKETDATA, NULL);
		async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_TIMERFUNCTION, NULL);
		async_io_curl_lib.multi_setopt(d->multi, CURLMOPT_TIMERDATA, NULL);
	}
	curl_drv_changed(d);
	tasync_coroutine_release(d->busy);
	zend_hash_destroy(&d->socks);
	efree(d);
}

/* The weak map's destructor: the key died, or the request ends. */
static void curl_drv_dtor(zval *zv)
{
	curl_drv_free(Z_PTR_P(zv));
}

curl_drv *async_io_curl_driver_find(zend_object *key)
{
	if (!io_curl_drivers_ready) {
		return NULL;
	}
	return zend_hash_index_find_ptr(&io_curl_drivers, zend_object_to_weakref_key(key));
}

curl_drv *async_io_curl_driver_new(zend_object *key, CURLM *multi, zval *private_mh)
{
	if (!io_curl_drivers_ready) {
		zend_hash_init(&io_curl_drivers, 8, NULL, curl_drv_dtor, 0);
		io_curl_drivers_ready = true;
	}
	curl_drv *d = ecalloc(1, sizeof(*d));
	d->multi = multi;
	d->key = key;
	if (private_mh != NULL) {
		ZVAL_COPY_VALUE(&d->private_mh, private_mh);
	} else {
		ZVAL_UNDEF(&d->private_mh);
	}
	zend_hash_init(&d->socks, 4, NULL, NULL, 0);
	curl_drv_attach(d);
	zend_weakrefs_hash_add_ptr(&io_curl_drivers, key, d);
	return d;
}

/* The coroutine running a transfer on the CurlHandle obj, or NULL. */
tasync_coroutine_t *async_io_curl_busy_owner(zend_object *obj)
{
	curl_drv *d = async_io_curl_driver_find(obj);
	return d != NULL ? d->busy : NULL;
}

/* ---------------------------------------------------------------- waits */

static unsigned curl_poll_to_io(short events)
{
	return ((events & POLLIN) ? TASYNC_IO_READABLE : 0) | ((events & POLLOUT) ? TASYNC_IO_WRITABLE : 0);
}

static short curl_io_to_poll(unsigned revents)
{
	return (short) (((revents & TASYNC_IO_READABLE) ? POLLIN : 0) | ((revents & TASYNC_IO_WRITABLE) ? POLLOUT : 0)
		| ((revents & TASYNC_IO_HANGUP) ? POLLHUP : 0) | ((revents & TASYNC_IO_ERROR) ? POLLERR : 0));
}

/* The sockets of d with a wanted direction, as pollfds (efree them). */
static uint32_t curl_drv_sockets(curl_drv *d, struct pollfd **out)
{
	struct pollfd *p = safe_emalloc(zend_hash_num_elements(&d->socks) + 1, sizeof(*p), 0);
	uint32_t n = 0;
	zend_ulong fd;
	zval *ev;
	ZEND_HASH_FOREACH_NUM_KEY_VAL(&d->socks, fd, ev) {
		if (Z_LVAL_P(ev) == 0) {
			continue;
		}
		p[n].fd = (int) fd;
		p[n].events = (short) (((Z_LVAL_P(ev) & TASYNC_IO_READABLE) ? POLLIN : 0) | ((Z_LVAL_P(ev) & TASYNC_IO_WRITABLE) ? POLLOUT : 0));
		p[n].revents = 0;
		n++;
	} ZEND_HASH_FOREACH_END();
	*out = p;
	return n;
}

/* What is ready now (never waits). Returns how many sockets are. */
static uint32_t curl_poll_now(struct pollfd *p, uint32_t n)
{
	if (n == 0 || poll(p, n, 0) <= 0) {
		for (uint32_t i = 0; i < n; i++) {
			p[i].revents = 0;
		}
		return 0;
	}
	uint32_t ready = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (p[i].revents & POLLNVAL) {
			p[i].revents = 0; /* closed meanwhile by another coroutine's call */
		}
		if (async_io_curl_cselect(&p[i]) != 0) {
			ready++;
		}
	}
	return ready;
}

/*
 * Waits for the first of n fds or changed (may be NULL), up to deadline (0:
 * none), through io/poll.c: ASYNC_IO_READY when one of them is ready or
 * its wait ended otherwise (the caller then polls for what is ready).
 * libcurl's sockets are watched as they are: its close callback forgets
 * them (curl_close_socket).
 */
static async_io_status curl_wait_many(struct pollfd *p, uint32_t n, tasync_awaitable_t *changed, uint64_t deadline)
{
	async_io_poll_set set;
	async_io_poll_init(&set);
	for (uint32_t i = 0; i < n; i++) {
		async_io_poll_add(&set, p[i].fd, curl_poll_to_io(p[i].events), ASYNC_IO_POLL_WATCH);
	}
	async_io_status st = async_io_poll_wait(&set, changed, deadline, ASYNC_IO_POLL_ANY_END | ASYNC_IO_POLL_SHORT_WATCH);
	async_io_poll_free(&set);
	return st;
}

/*
 * Waits until a socket of d is ready, d changes (with_changed: the waiters
 * of a user's multi handle), or deadline passes (0: none; required when d
 * has no socket and with_changed is false). *p receives d's sockets with
 * what is ready in revents (efree it). ASYNC_IO_READY: something is ready
 * or d changed; ASYNC_IO_TIMEOUT: the deadline passed (when it had passed
 * already, the coroutine still let the others run once); or the C18
 * statuses of async_io_after_wait().
 */
async_io_status async_io_curl_wait(curl_drv *d, uint64_t deadline, bool with_changed, struct pollfd **pfds, uint32_t *npfds)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	struct pollfd *p;
	uint32_t n = curl_drv_sockets(d, &p);
	*pfds = p;
	*npfds = n;

	uint64_t now = tasync_runtime_now(rt);
	if (deadline != 0 && deadline <= now) {
		/* Due already: never run on without letting the others run. */
		void *err = NULL;
		int rc = tasync_yield(rt, &err);
		async_io_status st = async_io_after_wait(rc, err);
		if (st != ASYNC_IO_READY) {
			return st;
		}
		curl_poll_now(p, n);
		return ASYNC_IO_TIMEOUT;
	}

	tasync_awaitable_t *changed = NULL;
	if (with_changed) {
		if (d->changed == NULL && tasync_future_create(rt, &d->changed) != 0) {
			d->changed = NULL;
		}
		changed = d->changed;
		if (changed != NULL) {
			tasync_awaitable_retain(changed);
		}
	}

	async_io_status st;
	if (n == 0) {
		if (changed != NULL) {
			st = async_io_await(changed, deadline);
		} else {
			void *err = NULL;
			int rc = tasync_delay(rt, deadline > now ? deadline - now : 0, NULL, &err);
			st = async_io_after_wait(rc, err);
			if (st == ASYNC_IO_READY) {
				st = ASYNC_IO_TIMEOUT;
			}
		}
	} else if (n == 1 && changed == NULL) {
		unsigned revents = 0;
		st = async_io_wait_fd(p[0].fd, curl_poll_to_io(p[0].events), deadline, &revents);
		if (st == ASYNC_IO_READY) {
			p[0].revents = curl_io_to_poll(revents);
		} else if (st == ASYNC_IO_CLOSED) {
			st = ASYNC_IO_READY;
		}
	} else {
		st = curl_wait_many(p, n, changed, deadline);
		if (st == ASYNC_IO_READY) {
			curl_poll_now(p, n);
		}
	}
	tasync_awaitable_release(changed);
	return st;
}

/* ------------------------------------------------------------- request end */

void async_io_curl_request_shutdown(void)
{
	if (!io_curl_drivers_ready) {
		return;
	}
	/* Every key leaves the weak map (the map's destructor frees each
	 * driver); the objects themselves may live on until PHP frees them. */
	uint32_t n = zend_hash_num_elements(&io_curl_drivers), i = 0;
	zend_object **keys = safe_emalloc(n + 1, sizeof(*keys), 0);
	zend_ulong key;
	ZEND_HASH_FOREACH_NUM_KEY(&io_curl_drivers, key) {
		keys[i++] = zend_weakref_key_to_object(key);
	} ZEND_HASH_FOREACH_END();
	for (uint32_t j = 0; j < i; j++) {
		curl_drv *d = async_io_curl_driver_find(keys[j]);
		if (d != NULL) {
			d->detaching = true;
			zend_weakrefs_hash_del(&io_curl_drivers, keys[j]);
		}
	}
	efree(keys);
	zend_hash_destroy(&io_curl_drivers);
	io_curl_drivers_ready = false;
}

#endif /* ASYNC_HAVE_CURL */
