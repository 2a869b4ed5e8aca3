/*
 * io/socket_transport.c - the transport side of socket streams inside
 * coroutines (rule C18): the transports' factory that wraps every new tcp,
 * udp, unix, udg (and, with ext/openssl, ssl and tls) stream with
 * socket_streams.c's ops, stream_socket_pair(), and the transport options
 * of a wrapped stream (set_option): connect and accept, recvfrom and
 * sendto, and the switch to TLS. Reading and writing are
 * io/socket_streams.c's.
 *
 *  - accept (stream_socket_accept()): PHP's own accept with a zero
 *    timeout, then the wait for the listening socket's readability through
 *    the runtime, up to the caller's timeout. When the process or the
 *    system has no descriptor left for the connection (EMFILE, ENFILE), the
 *    accept waits until PHP closes one or a backoff passes (io/wait.c),
 *    within its timeout, and tries once more before it fails as PHP fails:
 *    an accept loop never spins, and recovers as soon as a connection ends.
 *  - connect (stream_socket_client(), fsockopen(), the connects of the
 *    stream wrappers): host names are resolved on the thread pool
 *    (io/dns.c); each numeric address is tried with PHP's own asynchronous
 *    connect (it makes the socket, applies bindto and the socket options),
 *    then the coroutine waits for writability, up to the caller's timeout.
 *    unix and udg connects do not wait on a network and stay PHP's own.
 *    A connect that finds no descriptor for its socket waits as accept
 *    does, then tries once more before it fails as PHP fails.
 *
 * The results and errors are PHP's: the same returncode, error_code and
 * error text xp_socket.c would give.
 */
#include "io/socket_transport.h"

#include "io/busy.h"
#include "io/dns.h"
#include "io/families.h"
#include "io/hooks.h"
#include "io/socket_streams.h"
#include "io/tls.h"
#include "io/wait.h"
#include "runtime/globals.h"

#include "php_network.h"
#include "ext/standard/file.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

/*
 * stream_socket_accept(), stream_socket_client() and fsockopen() warn
 * when their transport call fails. When it failed because the coroutine
 * unwinds (exit(), a fatal error elsewhere) or because its cancellation is
 * being thrown, that warning is noise: the transport call mutes the rest
 * of the PHP call when that call is one of those functions, and their
 * hooks (below) restore error_reporting when it returns. Nothing suspends
 * in between: an exception is pending.
 */
ZEND_TLS bool io_muted;
ZEND_TLS int io_muted_error_reporting;

static bool io_in_mutable_call(void);

static void io_mute_rest_of_call(void)
{
	if (!io_muted && io_in_mutable_call()) {
		io_muted = true;
		io_muted_error_reporting = EG(error_reporting);
		EG(error_reporting) = 0;
	}
}

#define IO_MUTABLE_CALL(orig) do { \
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
		if (io_muted) { \
			EG(error_reporting) = io_muted_error_reporting; \
			io_muted = false; \
		} \
	} while (0)

/* ---------------------------------------------------------------- accept */

static int io_xport_failed(php_stream_xport_param *xp, int err)
{
	xp->outputs.returncode = -1;
	xp->outputs.error_code = err;
	if (xp->want_errortext && xp->outputs.error_text == NULL) {
		xp->outputs.error_text = php_socket_error_str(err);
	}
	return PHP_STREAM_OPTION_RETURN_OK;
}

/*
 * A client's first request rarely arrives with its connection: the first
 * fread() on an accepted socket looks at its receive queue, and when it is
 * empty waits for readability before PHP allocates the result
 * (io_fread_wait), instead of holding a 64 KiB string while it waits (1000
 * new connections made Zend MM map and drop ~80 MiB of chunks in every round
 * of a keep-alive benchmark). Returns rc.
 */
static int io_accepted(php_stream_xport_param *xp, int rc)
{
	if (rc == PHP_STREAM_OPTION_RETURN_OK && xp->outputs.client != NULL
			&& xp->outputs.client->abstract != NULL) {
		async_io_stream_accepted(((php_netstream_data_t *) xp->outputs.client->abstract)->socket);
	}
	return rc;
}

static int io_accept(php_stream *stream, const php_stream_ops *orig, php_stream_xport_param *xp)
{
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	struct timeval *user_tv = xp->inputs.timeout;
	/* PHP waits in accept even on a non-blocking stream: so do we. */
	if (sock == NULL || sock->socket == -1 || (user_tv != NULL && async_io_tv_is_zero(user_tv))
			|| async_io_coroutine() == NULL) {
		return io_accepted(xp, orig->set_option(stream, PHP_STREAM_OPTION_XPORT_API, 0, xp));
	}
	if (async_io_stream_closing(stream)) {
		return io_xport_failed(xp, EBADF);
	}
	uint64_t deadline = async_io_deadline(user_tv);
	struct timeval zero = { 0, 0 };
	bool waited_for_fd = false;
	for (;;) {
		xp->inputs.timeout = &zero;
		int rc = orig->set_option(stream, PHP_STREAM_OPTION_XPORT_API, 0, xp);
		xp->inputs.timeout = user_tv;
		int err = xp->outputs.error_code;
		bool shortage = rc == PHP_STREAM_OPTION_RETURN_OK && xp->outputs.client == NULL && async_io_fd_shortage(err);
		if (rc != PHP_STREAM_OPTION_RETURN_OK || xp->outputs.client != NULL
				|| (err != ETIMEDOUT && err != EAGAIN && err != EWOULDBLOCK && (!shortage || waited_for_fd))) {
			if (waited_for_fd && xp->outputs.client != NULL) {
				async_io_fd_obtained();
			}
			return io_accepted(xp, rc); /* accepted, or failed as PHP fails */
		}
		if (xp->outputs.error_text != NULL) {
			zend_string_release(xp->outputs.error_text);
			xp->outputs.error_text = NULL;
		}
		async_io_status st;
		if (shortage) {
			/* No descriptor for the connection: once, until one is closed
			 * or the backoff passed, then the last try. */
			waited_for_fd = true;
			st = async_io_stream_fd_shortage_wait(stream, deadline);
			if (st == ASYNC_IO_TIMEOUT) {
				continue;
			}
		} else {
			st = async_io_stream_wait_on(stream, sock->socket, TASYNC_IO_READABLE, deadline);
		}
		switch (st) {
			case ASYNC_IO_READY:
				continue;
			case ASYNC_IO_TIMEOUT:
				/* PHP's own accept with a zero timeout: its "timed out". */
				xp->inputs.timeout = &zero;
				rc = orig->set_option(stream, PHP_STREAM_OPTION_XPORT_API, 0, xp);
				xp->inputs.timeout = user_tv;
				return io_accepted(xp, rc);
			case ASYNC_IO_UNSUPPORTED:
				return io_accepted(xp, orig->set_option(stream, PHP_STREAM_OPTION_XPORT_API, 0, xp));
			case ASYNC_IO_CLOSED:
				return io_xport_failed(xp, EBADF);
			case ASYNC_IO_ABORTED:
				io_mute_rest_of_call();
				return io_xport_failed(xp, ECANCELED);
			default:
				/* C18: stream_socket_accept() fails with its warning. */
				return io_xport_failed(xp, ECANCELED);
		}
	}
}

/* --------------------------------------------------------------- connect */

/*
 * After PHP's connect p failed: when it failed for want of a descriptor
 * for the socket (PHP reports no error code then: "Unknown error", or
 * "Failed to create unix socket"), the first time, waits until PHP closes
 * one or the backoff passes (io/wait.c) and returns ASYNC_IO_READY: try
 * once more. Otherwise (or the second time) ASYNC_IO_UNSUPPORTED: the
 * failure is the call's. ASYNC_IO_CANCELLED or ASYNC_IO_ABORTED when the
 * wait was cancelled.
 */
static async_io_status io_connect_failed_for_fd(php_netstream_data_t *sock, php_stream_xport_param *p,
		uint64_t deadline, bool *waited)
{
	if (*waited || p->outputs.returncode != -1 || p->outputs.error_code != 0 || sock->socket != -1
			|| !async_io_fd_shortage_now()) {
		return ASYNC_IO_UNSUPPORTED;
	}
	*waited = true;
	if (p->outputs.error_text != NULL) {
		zend_string_release(p->outputs.error_text);
		p->outputs.error_text = NULL;
	}
	async_io_status st = async_io_fd_shortage_wait(deadline);
	return st == ASYNC_IO_TIMEOUT ? ASYNC_IO_READY : st; /* the last try fails as PHP's */
}

/* The host and port of "host:port" / "[v6]:port", as xp_socket.c parses
 * them; NULL when PHP would report a parse error. */
static char *io_parse_ip_address(const char *str, size_t len, int *port)
{
	if (len > 1 && str[0] == '[') {
		const char *p = memchr(str + 1, ']', len - 2);
		if (p == NULL || p[1] != ':') {
			return NULL;
		}
		*port = atoi(p + 2);
		return estrndup(str + 1, (size_t) (p - str - 1));
	}
	const char *colon = len > 0 ? memchr(str, ':', len - 1) : NULL;
	if (colon == NULL) {
		return NULL;
	}
	*port = atoi(colon + 1);
	return estrndup(str, (size_t) (colon - str));
}

static void io_close_socket(php_netstream_data_t *sock)
{
	if (sock->socket != -1) {
		if (ASYNC_G(rt) != NULL) {
			tasync_fd_forget(ASYNC_G(rt), sock->socket);
		}
		closesocket(sock->socket);
		sock->socket = -1;
	}
}

/*
 * One attempt on a numeric address: PHP's own asynchronous connect (it
 * creates the socket, applies bindto and the socket options), then the
 * wait for the outcome through the runtime. Returns 1 connected, 0 failed
 * (*err set), -1 stop (*err set, or 0 when xp already holds PHP's error),
 * 2 still connecting (the caller asked for an asynchronous connect).
 */
static int io_connect_one(php_stream *stream, const php_stream_ops *orig, php_stream_xport_param *xp,
		const char *name, bool want_async, uint64_t deadline, int *err)
{
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	php_stream_xport_param one;
	bool waited_for_fd = false;
	async_io_status again;
	do {
		memset(&one, 0, sizeof(one));
		one.op = STREAM_XPORT_OP_CONNECT_ASYNC;
		one.want_errortext = xp->want_errortext;
		one.inputs.name = (char *) name;
		one.inputs.namelen = strlen(name);
		one.inputs.timeout = xp->inputs.timeout;
		async_io_stream_delegate_option(stream, orig, PHP_STREAM_OPTION_XPORT_API, 0, &one);
	} while ((again = io_connect_failed_for_fd(sock, &one, deadline, &waited_for_fd)) == ASYNC_IO_READY);
	if (again == ASYNC_IO_CANCELLED || again == ASYNC_IO_ABORTED) {
		if (again == ASYNC_IO_ABORTED) {
			io_mute_rest_of_call();
		}
		*err = ECANCELED;
		return -1;
	}
	if (waited_for_fd && one.outputs.returncode != -1) {
		async_io_fd_obtained();
	}

	if (one.outputs.returncode == -1) {
		*err = one.outputs.error_code;
		if (*err == 0) {
			/* Not a network error (a bad bindto, ...): PHP's report. */
			if (xp->outputs.error_text != NULL) {
				zend_string_release(xp->outputs.error_text);
			}
			xp->outputs.error_text = one.outputs.error_text;
			return -1;
		}
		if (one.outputs.error_text != NULL) {
			zend_string_release(one.outputs.error_text);
		}
		return 0;
	}
	if (one.outputs.error_text != NULL) {
		zend_string_release(one.outputs.error_text);
	}
	if (one.outputs.returncode == 0) {
		if (!want_async) {
			php_set_sock_blocking(sock->socket, 1);
		}
		return 1;
	}
	/* In progress. */
	if (want_async) {
		*err = EINPROGRESS;
		return 2;
	}
	async_io_status st = async_io_wait_fd(sock->socket, TASYNC_IO_WRITABLE, deadline, NULL);
	switch (st) {
		case ASYNC_IO_READY: {
			int so_error = 0;
			socklen_t len = sizeof(so_error);
			if (getsockopt(sock->socket, SOL_SOCKET, SO_ERROR, (char *) &so_error, &len) != 0) {
				so_error = errno;
			}
			if (so_error == 0) {
				php_set_sock_blocking(sock->socket, 1);
				return 1;
			}
			*err = so_error;
			io_close_socket(sock);
			return 0;
		}
		case ASYNC_IO_UNSUPPORTED: {
			/* PHP's own wait. */
			struct timeval tv, *ptv = NULL;
			if (deadline != 0) {
				uint64_t now = tasync_runtime_now(ASYNC_G(rt));
				uint64_t left = deadline > now ? deadline - now : 0;
				tv.tv_sec = (time_t) (left / 1000000000u);
				tv.tv_usec = (suseconds_t) ((left % 1000000000u) / 1000u);
				ptv = &tv;
			}
			int n = php_pollfd_for(sock->socket, POLLIN | POLLOUT, ptv);
			int so_error = ETIMEDOUT;
			socklen_t len = sizeof(so_error);
			if (n > 0 && getsockopt(sock->socket, SOL_SOCKET, SO_ERROR, (char *) &so_error, &len) != 0) {
				so_error = errno;
			}
			if (n > 0 && so_error == 0) {
				php_set_sock_blocking(sock->socket, 1);
				return 1;
			}
			*err = so_error;
			io_close_socket(sock);
			return n > 0 ? 0 : -1;
		}
		case ASYNC_IO_TIMEOUT:
			*err = ETIMEDOUT;
			break;
		case ASYNC_IO_ABORTED:
			io_mute_rest_of_call();
			*err = ECANCELED;
			break;
		default:
			*err = ECANCELED;
			break;
	}
	/* Timed out, cancelled or aborted: no further address is tried. */
	io_close_socket(sock);
	return -1;
}

/* "host:port" for PHP's own connect, the host numeric. */
static bool io_numeric_name(const struct sockaddr *sa, socklen_t salen, int port, char *out, size_t outlen)
{
	char host[NI_MAXHOST];
	if (getnameinfo(sa, salen, host, sizeof(host), NULL, 0, NI_NUMERICHOST) != 0) {
		return false;
	}
	int n = sa->sa_family == AF_INET6 ? snprintf(out, outlen, "[%s]:%d", host, port) : snprintf(out, outlen, "%s:%d", host, port);
	return n > 0 && (size_t) n < outlen;
}

static int io_connect(php_stream *stream, const php_stream_ops *orig, php_stream_xport_param *xp)
{
	const char *label = orig->label;
	/* unix and udg: connect() does not wait on a network; PHP's own code,
	 * which may still wait for a descriptor (io_connect_failed_for_fd). */
	if (strcmp(label, "unix_socket") == 0 || strcmp(label, "udg_socket") == 0) {
		php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
		uint64_t deadline = async_io_deadline(xp->inputs.timeout);
		bool waited_for_fd = false;
		async_io_status again;
		int rc;
		do {
			rc = async_io_stream_delegate_option(stream, orig, PHP_STREAM_OPTION_XPORT_API, 0, xp);
		} while ((again = io_connect_failed_for_fd(sock, xp, deadline, &waited_for_fd)) == ASYNC_IO_READY);
		if (again == ASYNC_IO_CANCELLED || again == ASYNC_IO_ABORTED) {
			if (again == ASYNC_IO_ABORTED) {
				io_mute_rest_of_call();
			}
			return io_xport_failed(xp, ECANCELED);
		}
		if (waited_for_fd && xp->outputs.returncode != -1) {
			async_io_fd_obtained();
		}
		return rc;
	}
	int port = 0;
	char *host = io_parse_ip_address(xp->inputs.name, xp->inputs.namelen, &port);
	if (host == NULL) {
		return async_io_stream_delegate_option(stream, orig, PHP_STREAM_OPTION_XPORT_API, 0, xp);
	}
	bool want_async = xp->op == STREAM_XPORT_OP_CONNECT_ASYNC;
	int socktype = strcmp(label, "udp_socket") == 0 ? SOCK_DGRAM : SOCK_STREAM;
	uint64_t deadline = async_io_deadline(xp->inputs.timeout);

	/* IPv6 addresses are skipped when bindto is an IPv4 address, as PHP does. */
	bool skip_v6 = false;
	zval *bindto;
	if (PHP_STREAM_CONTEXT(stream) != NULL
			&& (bindto = php_stream_context_get_option(PHP_STREAM_CONTEXT(stream), "socket", "bindto")) != NULL
			&& Z_TYPE_P(bindto) == IS_STRING) {
		int bindport;
		char *bindhost = io_parse_ip_address(Z_STRVAL_P(bindto), Z_STRLEN_P(bindto), &bindport);
		skip_v6 = bindhost != NULL && strchr(bindhost, ':') == NULL;
		if (bindhost != NULL) {
			efree(bindhost);
		}
	}

	/* Name resolution on the thread pool (numeric hosts resolve at once). */
	struct addrinfo *res = NULL;
	int gai_error = 0;
	struct in6_addr probe6;
	struct in_addr probe4;
	async_io_status st;
	if (inet_pton(AF_INET, host, &probe4) == 1 || inet_pton(AF_INET6, host, &probe6) == 1) {
		struct addrinfo hints;
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = socktype;
		hints.ai_flags = AI_NUMERICHOST;
		gai_error = getaddrinfo(host, NULL, &hints, &res);
		st = ASYNC_IO_READY;
	} else {
		st = async_io_getaddrinfo(host, socktype, &res, &gai_error);
	}
	xp->outputs.returncode = -1;
	xp->outputs.error_code = 0;
	if (st == ASYNC_IO_ABORTED) {
		efree(host);
		io_mute_rest_of_call();
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	if (st == ASYNC_IO_CANCELLED) {
		efree(host);
		return io_xport_failed(xp, ECANCELED);
	}
	if (st != ASYNC_IO_READY) {
		/* The pool refused the work: PHP's own connect. */
		efree(host);
		return async_io_stream_delegate_option(stream, orig, PHP_STREAM_OPTION_XPORT_API, 0, xp);
	}
	if (gai_error != 0 || res == NULL) {
		/* php_network_getaddresses' report: a warning, and the error text. */
		zend_string *msg = gai_error != 0
			? strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed: %s", host, gai_strerror(gai_error))
			: strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed (null result pointer) errno=%d", host, errno);
		php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(msg));
		if (xp->want_errortext) {
			xp->outputs.error_text = msg;
		} else {
			zend_string_release(msg);
		}
		if (res != NULL) {
			freeaddrinfo(res);
		}
		efree(host);
		return PHP_STREAM_OPTION_RETURN_OK;
	}

	int err = 0;
	int outcome = 0;
	for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) {
			continue;
		}
		if (ai->ai_family == AF_INET6 && skip_v6) {
			continue;
		}
		char name[NI_MAXHOST + 16];
		if (!io_numeric_name(ai->ai_addr, ai->ai_addrlen, port, name, sizeof(name))) {
			continue;
		}
		outcome = io_connect_one(stream, orig, xp, name, want_async, deadline, &err);
		if (outcome != 0) {
			break;
		}
		if (deadline != 0 && tasync_runtime_now(ASYNC_G(rt)) >= deadline) {
			break; /* PHP: "time limit expired; don't attempt any further connections" */
		}
	}
	freeaddrinfo(res);
	efree(host);

	if (outcome == 1) {
		xp->outputs.returncode = 0;
		xp->outputs.error_code = 0;
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	if (outcome == 2) {
		xp->outputs.returncode = 1; /* pending, as PHP's asynchronous connect */
		xp->outputs.error_code = EINPROGRESS;
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	if (outcome == -1 && err == 0) {
		return PHP_STREAM_OPTION_RETURN_OK; /* PHP's own error text is in xp */
	}
	xp->outputs.error_code = err;
	if (err != 0 && xp->want_errortext && xp->outputs.error_text == NULL) {
		xp->outputs.error_text = php_socket_error_str(err);
	}
	return PHP_STREAM_OPTION_RETURN_OK;
}

/* ------------------------------------------------------- recvfrom / sendto */

/*
 * stream_socket_recvfrom() on a blocking stream: wait until a read would
 * not block. PHP's recvfrom() waits without a timeout there (a UDP
 * receive whose datagram never comes blocks forever); here the stream's
 * timeout (stream_set_timeout, default_socket_timeout) bounds the wait as
 * it bounds fread(): ASYNC_IO_TIMEOUT, and the stream's meta data says
 * timed_out.
 */
static async_io_status io_recv_wait(php_stream *stream, php_netstream_data_t *sock)
{
	uint64_t deadline = 0;
	bool deadline_known = false;
	for (;;) {
		char c;
		ssize_t n = recv(sock->socket, &c, 1, MSG_PEEK | MSG_DONTWAIT);
		if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			return ASYNC_IO_READY;
		}
		if (errno == EINTR) {
			continue;
		}
		if (!deadline_known) {
			deadline = async_io_deadline(&sock->timeout);
			deadline_known = true;
		}
		/* A zero timeout: nothing is there now, so it has passed. */
		async_io_status st = async_io_tv_is_zero(&sock->timeout) ? ASYNC_IO_TIMEOUT
			: async_io_stream_wait_on(stream, sock->socket, TASYNC_IO_READABLE, deadline);
		if (st == ASYNC_IO_TIMEOUT) {
			sock->timeout_event = 1;
		}
		if (st != ASYNC_IO_READY) {
			return st;
		}
	}
}

/* stream_socket_sendto() on a blocking stream: wait for writability. */
static async_io_status io_send_wait(php_stream *stream, php_netstream_data_t *sock)
{
	if (php_pollfd_for_ms(sock->socket, POLLOUT, 0) > 0) {
		return ASYNC_IO_READY;
	}
	return async_io_stream_wait_on(stream, sock->socket, TASYNC_IO_WRITABLE, 0);
}

/* ------------------------------------------------------------ set_option */

int async_io_stream_set_option(php_stream *stream, int option, int value, void *ptrparam)
{
	const php_stream_ops *orig = async_io_stream_orig_ops(stream);
	if (option == PHP_STREAM_OPTION_CRYPTO_API && async_io_stream_openssl(stream) && async_io_tls_known()) {
		return async_io_tls_set_option(stream, orig, value, (php_stream_xport_crypto_param *) ptrparam);
	}
	if (option == PHP_STREAM_OPTION_CRYPTO_API) {
		/* TLS of an unknown ext/openssl: from here on the stream is PHP's
		 * own, and its close no longer passes through io_sock_close, so the
		 * reactor forgets the fd now (a plain read may have watched it). */
		php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
		if (sock != NULL && sock->socket != -1 && ASYNC_G(rt) != NULL) {
			tasync_fd_forget(ASYNC_G(rt), sock->socket);
		}
		async_io_busy *b = async_io_busy_find(stream);
		if (b != NULL) {
			b->kept = false;
			async_io_busy_release(b);
		}
		stream->ops = orig;
		return orig->set_option(stream, option, value, ptrparam);
	}
	if (option != PHP_STREAM_OPTION_XPORT_API || ptrparam == NULL) {
		return orig->set_option(stream, option, value, ptrparam);
	}
	php_stream_xport_param *xp = (php_stream_xport_param *) ptrparam;
	php_netstream_data_t *sock = (php_netstream_data_t *) stream->abstract;
	switch (xp->op) {
		case STREAM_XPORT_OP_CONNECT:
		case STREAM_XPORT_OP_CONNECT_ASYNC:
			if (async_io_coroutine() != NULL) {
				if (!async_io_stream_openssl(stream) || !async_io_tls_known()) {
					return io_connect(stream, orig, xp);
				}
				/* ssl:// and tls://: the connect, then the handshake
				 * through our ops, as xp_ssl.c orders them. */
				int auto_tls = async_io_tls_suspend_auto_enable(stream);
				int rc = io_connect(stream, orig, xp);
				async_io_tls_restore_auto_enable(stream, auto_tls);
				if (auto_tls && !EG(exception) && (xp->outputs.returncode == 0
						|| (xp->op == STREAM_XPORT_OP_CONNECT_ASYNC && xp->outputs.returncode == 1
							&& xp->outputs.error_code == EINPROGRESS))
						&& async_io_tls_auto_enable(stream) < 0) {
					xp->outputs.returncode = -1;
				}
				return rc;
			}
			return async_io_stream_delegate_option(stream, orig, option, value, ptrparam);
		case STREAM_XPORT_OP_BIND:
			return async_io_stream_delegate_option(stream, orig, option, value, ptrparam);
		case STREAM_XPORT_OP_ACCEPT:
			return io_accept(stream, orig, xp);
		case STREAM_XPORT_OP_RECV:
		case STREAM_XPORT_OP_SEND:
			if (sock != NULL && sock->socket != -1 && sock->is_blocked && (xp->inputs.flags & STREAM_OOB) == 0
					&& async_io_coroutine() != NULL) {
				bool recv_op = xp->op == STREAM_XPORT_OP_RECV;
				async_io_status st = recv_op ? io_recv_wait(stream, sock) : io_send_wait(stream, sock);
				if (st == ASYNC_IO_TIMEOUT) {
					/* As a failed recvfrom(): stream_socket_recvfrom() returns false. */
					xp->outputs.returncode = -1;
					return PHP_STREAM_OPTION_RETURN_OK;
				}
				if (st == ASYNC_IO_CANCELLED || st == ASYNC_IO_CLOSED || st == ASYNC_IO_ABORTED) {
					/* C18: the call fails as a failed recv/send does. */
					xp->outputs.returncode = -1;
					if (!recv_op && st != ASYNC_IO_ABORTED) {
						php_error_docref(NULL, E_WARNING, "%s\n", strerror(st == ASYNC_IO_CLOSED ? EBADF : ECANCELED));
					}
					return PHP_STREAM_OPTION_RETURN_OK;
				}
			}
			break;
		default:
			break;
	}
	return orig->set_option(stream, option, value, ptrparam);
}

/* ---------------------------------------------------------- transports */

typedef struct io_transport {
	const char *name;
	php_stream_transport_factory orig;
} io_transport;

/* tcp is ext/openssl's factory when openssl is loaded; the crypto ones
 * (ssl:// and tls://, enable_on_connect) exist only then. */
static io_transport io_transports[] = {
	{ "tcp", NULL }, { "udp", NULL }, { "unix", NULL }, { "udg", NULL },
	{ "ssl", NULL }, { "tls", NULL }, { "tlsv1.0", NULL }, { "tlsv1.1", NULL }, { "tlsv1.2", NULL },
	{ "tlsv1.3", NULL }, { "sslv3", NULL },
};
#define IO_CRYPTO_TRANSPORTS_FROM 4
#define IO_TRANSPORTS (sizeof(io_transports) / sizeof(io_transports[0]))

static php_stream *io_socket_factory(const char *proto, size_t protolen, const char *resourcename,
		size_t resourcenamelen, const char *persistent_id, int options, int flags, struct timeval *timeout,
		php_stream_context *context STREAMS_DC)
{
	php_stream_transport_factory orig = NULL;
	bool crypto_proto = false;
	for (size_t i = 0; i < IO_TRANSPORTS; i++) {
		if (strlen(io_transports[i].name) == protolen && strncasecmp(io_transports[i].name, proto, protolen) == 0) {
			orig = io_transports[i].orig;
			crypto_proto = i >= IO_CRYPTO_TRANSPORTS_FROM;
			break;
		}
	}
	if (orig == NULL) {
		return NULL;
	}
	php_stream *stream = orig(proto, protolen, resourcename, resourcenamelen, persistent_id, options, flags,
		timeout, context STREAMS_REL_CC);
	if (stream != NULL && stream->ops->label != NULL && strcmp(stream->ops->label, "tcp_socket/ssl") == 0
			&& !async_io_tls_check_new(stream, crypto_proto, timeout) && crypto_proto) {
		return stream; /* TLS of an unknown ext/openssl: PHP's own */
	}
	async_io_stream_wrap(stream);
	return stream;
}

/* --------------------------------------- socket pairs, the mutable calls */

static zif_handler orig_stream_socket_pair;
static zif_handler orig_stream_socket_accept, orig_stream_socket_client, orig_fsockopen, orig_pfsockopen;

static ZEND_NAMED_FUNCTION(async_io_stream_socket_pair)
{
	orig_stream_socket_pair(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_ARRAY) {
		zval *zv;
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(return_value), zv) {
			if (Z_TYPE_P(zv) == IS_RESOURCE) {
				php_stream *stream = zend_fetch_resource2(Z_RES_P(zv), NULL, php_file_le_stream(), php_file_le_pstream());
				async_io_stream_wrap(stream);
			}
		} ZEND_HASH_FOREACH_END();
	}
}

static ZEND_NAMED_FUNCTION(async_io_stream_socket_accept)
{
	IO_MUTABLE_CALL(orig_stream_socket_accept);
}

static ZEND_NAMED_FUNCTION(async_io_stream_socket_client)
{
	IO_MUTABLE_CALL(orig_stream_socket_client);
}

static ZEND_NAMED_FUNCTION(async_io_fsockopen)
{
	IO_MUTABLE_CALL(orig_fsockopen);
}

static ZEND_NAMED_FUNCTION(async_io_pfsockopen)
{
	IO_MUTABLE_CALL(orig_pfsockopen);
}

/* The PHP function running now is one of the four above. */
static bool io_in_mutable_call(void)
{
	zend_execute_data *ex = EG(current_execute_data);
	if (ex == NULL || ex->func == NULL || ex->func->type != ZEND_INTERNAL_FUNCTION) {
		return false;
	}
	zif_handler h = ex->func->internal_function.handler;
	return h == async_io_stream_socket_accept || h == async_io_stream_socket_client || h == async_io_fsockopen
		|| h == async_io_pfsockopen;
}

/* ---------------------------------------------------------------- module */

void async_io_socket_transport_startup(void)
{
	async_io_tls_startup();
	HashTable *xports = php_stream_xport_get_hash();
	for (size_t i = 0; i < IO_TRANSPORTS; i++) {
		php_stream_transport_factory f = zend_hash_str_find_ptr(xports, io_transports[i].name, strlen(io_transports[i].name));
		if (f != NULL && f != io_socket_factory) {
			io_transports[i].orig = f;
			php_stream_xport_register(io_transports[i].name, io_socket_factory);
		}
	}
	orig_stream_socket_pair = async_io_hook("stream_socket_pair", async_io_stream_socket_pair);
	orig_stream_socket_accept = async_io_hook("stream_socket_accept", async_io_stream_socket_accept);
	orig_stream_socket_client = async_io_hook("stream_socket_client", async_io_stream_socket_client);
	orig_fsockopen = async_io_hook("fsockopen", async_io_fsockopen);
	orig_pfsockopen = async_io_hook("pfsockopen", async_io_pfsockopen);
}

void async_io_socket_transport_shutdown(void)
{
	HashTable *xports = php_stream_xport_get_hash();
	for (size_t i = 0; i < IO_TRANSPORTS; i++) {
		if (io_transports[i].orig != NULL
				&& zend_hash_str_find_ptr(xports, io_transports[i].name, strlen(io_transports[i].name)) == io_socket_factory) {
			php_stream_xport_register(io_transports[i].name, io_transports[i].orig);
		}
		io_transports[i].orig = NULL;
	}
}
