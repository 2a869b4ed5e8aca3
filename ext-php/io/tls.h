/*
 * io/tls.h - TLS streams in coroutines (io/tls.c): what the socket streams
 * ask of ext/openssl's streams.
 */
#ifndef ASYNC_IO_TLS_H
#define ASYNC_IO_TLS_H

#include "runtime/globals.h"
#include "php_network.h"

void async_io_tls_startup(void);
/* Checks ext/openssl's stream data of a stream its factory just made;
 * false (TLS left to PHP) when the layout is not the known one. */
bool async_io_tls_check_new(php_stream *stream, bool crypto_proto, const struct timeval *timeout);
/* The layout was checked and holds. */
bool async_io_tls_known(void);
/* stream (ext/openssl's ops) has TLS active. */
bool async_io_tls_active(php_stream *stream);
/* A read or write of an active TLS stream in coroutine self. */
ssize_t async_io_tls_io(php_stream *stream, const php_stream_ops *orig, bool reading, char *buf, size_t count,
	tasync_coroutine_t *self);
/* PHP_STREAM_OPTION_CRYPTO_API: the handshake suspends the coroutine. */
int async_io_tls_set_option(php_stream *stream, const php_stream_ops *orig, int value,
	php_stream_xport_crypto_param *cparam);
/* Around a connect of ssl:// / tls://: holds back xp_ssl.c's handshake
 * (returns the flag to restore), then runs it through the stream's ops
 * once connected: 0, or -1 after PHP's "Failed to enable crypto". */
int async_io_tls_suspend_auto_enable(php_stream *stream);
void async_io_tls_restore_auto_enable(php_stream *stream, int was);
int async_io_tls_auto_enable(php_stream *stream);

#endif /* ASYNC_IO_TLS_H */
