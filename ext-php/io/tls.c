/*
 * io/tls.c - TLS streams inside coroutines (rule C18): https://, ssl://,
 * tls:// (and tlsv1.x://), stream_socket_enable_crypto() on the client and
 * the server side, a plain tcp stream switched to TLS mid-stream.
 *
 * How. ext/openssl's stream ops (xp_ssl.c, "tcp_socket/ssl") are the ops
 * of every tcp stream once openssl is loaded; io/socket_streams.c wraps them like
 * any socket ops. In blocking mode ext/openssl waits inside its own loops
 * with poll(); in non-blocking mode the same loops make one attempt and
 * report "would block" instead: SSL_read/SSL_write return 0 with errno
 * EAGAIN, and enable_crypto returns 0 (SSL_ERROR_WANT_READ/WRITE). So a
 * blocking TLS stream used inside a coroutine is run by PHP's own code in
 * non-blocking mode (the fd O_NONBLOCK, the stream's is_blocked flag
 * cleared for the call only), and each "would block" becomes a suspension
 * of the coroutine on the fd, for reading or writing as OpenSSL asks
 * (SSL_get_error), until the stream's timeout:
 *
 *  - read/write: stream_set_timeout() / default_socket_timeout, as PHP's
 *    loop; when it passes, the call fails as PHP's does (timed_out set,
 *    -1). A zero timeout means no timeout, as in PHP's TLS loop.
 *  - handshake: the connect timeout for a client (stream_socket_client's
 *    timeout, default_socket_timeout for https://), the stream timeout for
 *    a server; when it passes, PHP's "SSL: Handshake timed out" warning.
 *
 * Everything else is PHP's own code: the verification (verify_peer,
 * verify_peer_name, cafile, SNI, peer_name, allow_self_signed, capture of
 * the peer certificate), its warnings, the SSL buffered data that
 * stream_select() counts as readable (xp_ssl.c's cast), renegotiation
 * limits, close_notify at close. The fd stays O_NONBLOCK while TLS is
 * active (PHP's own blocking loop sets and restores it around every call
 * anyway; PHP code cannot reach the fd of an active TLS stream).
 *
 * ext/openssl keeps its stream data private; the few fields this needs
 * (the SSL handle, enable_on_connect, the crypto method, ssl_active) are
 * read through a mirror of the struct's beginning, unchanged since PHP 5.
 * The mirror is checked on every stream the openssl factory makes (the
 * fields the factory sets must hold the values it sets); on a mismatch TLS
 * is left to PHP (and blocks) with one warning. OpenSSL's SSL_get_error and
 * SSL_get_fd are looked up in the process (PHP links libssl): no link-time
 * dependency, never a second libssl.
 */
#include "io/tls.h"

#include "io/socket_streams.h"
#include "io/wait.h"

#include "php_network.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>

/* ext/openssl's php_openssl_netstream_data_t, up to the fields used here. */
typedef struct io_tls_data {
	php_netstream_data_t s;
	void *ssl_handle;              /* SSL * */
	void *ctx;                     /* SSL_CTX * */
	struct timeval connect_timeout;
	int enable_on_connect;
	int is_client;
	int ssl_active;
	php_stream_xport_crypt_method_t method;
} io_tls_data;

/* OpenSSL's values (ssl.h), part of its ABI. */
#define IO_SSL_ERROR_WANT_READ 2
#define IO_SSL_ERROR_WANT_WRITE 3

static int (*io_ssl_get_error)(const void *ssl, int ret);
static int (*io_ssl_get_fd)(const void *ssl);

/* -1 unknown yet, 1 the mirror holds, 0 it does not (TLS left to PHP). */
static int io_tls_layout = -1;

void async_io_tls_startup(void)
{
	io_ssl_get_error = (int (*)(const void *, int)) dlsym(RTLD_DEFAULT, "SSL_get_error");
	io_ssl_get_fd = (int (*)(const void *)) dlsym(RTLD_DEFAULT, "SSL_get_fd");
	if (io_ssl_get_error == NULL || io_ssl_get_fd == NULL) {
		io_tls_layout = 0;
	}
}

bool async_io_tls_check_new(php_stream *stream, bool crypto_proto, const struct timeval *timeout)
{
	if (io_tls_layout == 0) {
		return false;
	}
	const io_tls_data *d = (const io_tls_data *) stream->abstract;
	bool ok = d != NULL && d->s.socket == -1 && d->s.is_blocked == 1 && d->ssl_handle == NULL && d->ctx == NULL
		&& d->ssl_active == 0 && d->enable_on_connect == (crypto_proto ? 1 : 0)
		&& (timeout == NULL || (d->connect_timeout.tv_sec == timeout->tv_sec && d->connect_timeout.tv_usec == timeout->tv_usec));
	if (!ok) {
		if (io_tls_layout != 0) {
			php_error_docref(NULL, E_WARNING,
				"async: ext/openssl's stream data has an unknown layout in this PHP build: TLS streams block the whole process inside coroutines");
		}
		io_tls_layout = 0;
		return false;
	}
	io_tls_layout = 1;
	return true;
}

bool async_io_tls_known(void)
{
	return io_tls_layout == 1;
}

bool async_io_tls_active(php_stream *stream)
{
	const io_tls_data *d = (const io_tls_data *) stream->abstract;
	return io_tls_layout == 1 && d != NULL && d->ssl_active && d->ssl_handle != NULL;
}

/* Makes fd non-blocking for OpenSSL's non-blocking mode (kept so: see above). */
static bool io_tls_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0) {
		return false;
	}
	return (flags & O_NONBLOCK) || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/* What OpenSSL waits for after a "would block", or 0 when it is not one. */
static unsigned io_tls_want(const io_tls_data *d)
{
	if (d->ssl_handle == NULL || io_ssl_get_fd(d->ssl_handle) != d->s.socket) {
		return 0;
	}
	switch (io_ssl_get_error(d->ssl_handle, -1)) {
		case IO_SSL_ERROR_WANT_READ:
			return TASYNC_IO_READABLE;
		case IO_SSL_ERROR_WANT_WRITE:
			return TASYNC_IO_WRITABLE;
		default:
			return 0;
	}
}

/* The deadline of a TLS wait: a zero or negative timeout is none. */
static uint64_t io_tls_deadline(const struct timeval *tv)
{
	if (tv->tv_sec < 0 || (tv->tv_sec == 0 && tv->tv_usec <= 0)) {
		return 0;
	}
	return async_io_deadline(tv);
}

ssize_t async_io_tls_io(php_stream *stream, const php_stream_ops *orig, bool reading, char *buf, size_t count,
		tasync_coroutine_t *self)
{
	io_tls_data *d = (io_tls_data *) stream->abstract;
	php_netstream_data_t *sock = &d->s;
	if (!io_tls_nonblocking(sock->socket)) {
		return reading ? orig->read(stream, buf, count) : orig->write(stream, buf, count);
	}
	uint64_t deadline = io_tls_deadline(&sock->timeout);
	sock->timeout_event = 0;
	for (;;) {
		/* One attempt of PHP's own loop, in its non-blocking mode. */
		sock->is_blocked = 0;
		errno = 0;
		ssize_t n = reading ? orig->read(stream, buf, count) : orig->write(stream, buf, count);
		sock->is_blocked = 1;
		if (n > 0 || stream->eof || !d->ssl_active) {
			return n;
		}
		unsigned want = io_tls_want(d);
		if (want == 0) {
			return n; /* failed: PHP has reported it */
		}
		async_io_status st = async_io_stream_wait(stream, sock->socket, want, deadline, self, reading);
		switch (st) {
			case ASYNC_IO_READY:
				continue;
			case ASYNC_IO_TIMEOUT:
				/* PHP's loop: timed_out set, the call fails. */
				sock->timeout_event = 1;
				return -1;
			case ASYNC_IO_UNSUPPORTED:
				return reading ? orig->read(stream, buf, count) : orig->write(stream, buf, count);
			case ASYNC_IO_CLOSED:
				stream->eof = 1;
				return -1;
			default:
				/* Cancelled midway (C18, C24): the call fails and the stream
				 * with it, so that no later call reads a stale record. */
				async_io_stream_fail(stream);
				return -1;
		}
	}
}

/* The handshake, once (de)activated or failed: PHP's returncode. */
static int io_tls_enable(php_stream *stream, const php_stream_ops *orig, int value,
		php_stream_xport_crypto_param *cparam, tasync_coroutine_t *self)
{
	io_tls_data *d = (io_tls_data *) stream->abstract;
	php_netstream_data_t *sock = &d->s;
	const struct timeval *tv = d->is_client ? &d->connect_timeout : &sock->timeout;
	uint64_t deadline = io_tls_deadline(tv);
	for (;;) {
		sock->is_blocked = 0;
		errno = 0;
		int rc = orig->set_option(stream, PHP_STREAM_OPTION_CRYPTO_API, value, cparam);
		sock->is_blocked = 1;
		if (rc != PHP_STREAM_OPTION_RETURN_OK || cparam->outputs.returncode != 0) {
			if (cparam->outputs.returncode < 0 && !d->ssl_active) {
				/* Failed: the fd is PHP's plain socket again, blocking as PHP leaves it. */
				php_set_sock_blocking(sock->socket, 1);
			}
			return rc;
		}
		unsigned want = io_tls_want(d);
		if (want == 0) {
			want = TASYNC_IO_READABLE;
		}
		async_io_status st = async_io_stream_wait(stream, sock->socket, want, deadline, self, true);
		switch (st) {
			case ASYNC_IO_READY:
				continue;
			case ASYNC_IO_TIMEOUT:
				php_error_docref(NULL, E_WARNING, "SSL: Handshake timed out");
				break;
			case ASYNC_IO_UNSUPPORTED:
				/* PHP's own blocking handshake. */
				return orig->set_option(stream, PHP_STREAM_OPTION_CRYPTO_API, value, cparam);
			case ASYNC_IO_CLOSED:
				break;
			default:
				/* Cancelled midway: no half-done handshake stays behind. */
				async_io_stream_fail(stream);
				break;
		}
		if (st != ASYNC_IO_CANCELLED && st != ASYNC_IO_ABORTED && sock->socket != -1) {
			php_set_sock_blocking(sock->socket, 1);
		}
		cparam->outputs.returncode = -1;
		return PHP_STREAM_OPTION_RETURN_OK;
	}
}

int async_io_tls_set_option(php_stream *stream, const php_stream_ops *orig, int value,
		php_stream_xport_crypto_param *cparam)
{
	io_tls_data *d = (io_tls_data *) stream->abstract;
	tasync_coroutine_t *self;
	if (cparam == NULL || cparam->op != STREAM_XPORT_CRYPTO_OP_ENABLE || !cparam->inputs.activate || d->ssl_active
			|| d->ssl_handle == NULL || d->s.socket == -1 || !d->s.is_blocked || (self = async_io_coroutine()) == NULL
			|| !io_tls_nonblocking(d->s.socket)) {
		return orig->set_option(stream, PHP_STREAM_OPTION_CRYPTO_API, value, cparam);
	}
	return io_tls_enable(stream, orig, value, cparam, self);
}

int async_io_tls_suspend_auto_enable(php_stream *stream)
{
	io_tls_data *d = (io_tls_data *) stream->abstract;
	int was = d->enable_on_connect;
	d->enable_on_connect = 0;
	return was;
}

void async_io_tls_restore_auto_enable(php_stream *stream, int was)
{
	((io_tls_data *) stream->abstract)->enable_on_connect = was;
}

int async_io_tls_auto_enable(php_stream *stream)
{
	io_tls_data *d = (io_tls_data *) stream->abstract;
	/* What xp_ssl.c does once connected, through the stream's (wrapped) ops. */
	if (php_stream_xport_crypto_setup(stream, d->method, NULL) < 0 || php_stream_xport_crypto_enable(stream, 1) < 0) {
		php_error_docref(NULL, E_WARNING, "Failed to enable crypto");
		return -1;
	}
	return 0;
}
