/*
 * io/socket_open.h - how socket streams come to be (io/socket_open.c): the
 * transport ops of connect and accept, which the wrapped set_option of
 * io/socket_streams.c hands over.
 */
#ifndef ASYNC_IO_SOCKET_OPEN_H
#define ASYNC_IO_SOCKET_OPEN_H

#include "php_network.h"

/* STREAM_XPORT_OP_ACCEPT and STREAM_XPORT_OP_CONNECT(_ASYNC) of a wrapped
 * socket stream inside a coroutine: PHP's results, the waits suspend. */
int async_io_stream_accept(php_stream *stream, const php_stream_ops *orig, php_stream_xport_param *xp);
int async_io_stream_connect(php_stream *stream, const php_stream_ops *orig, php_stream_xport_param *xp);

#endif /* ASYNC_IO_SOCKET_OPEN_H */
