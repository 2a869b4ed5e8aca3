/*
 * io/socket_transport.h - the transport side of socket streams
 * (io/socket_transport.c): the set_option of the wrapped ops.
 */
#ifndef ASYNC_IO_SOCKET_TRANSPORT_H
#define ASYNC_IO_SOCKET_TRANSPORT_H

#include "php_network.h"

/* The set_option of a wrapped socket stream: connect, accept, recvfrom and
 * sendto wait in the coroutine; TLS goes to io/tls.c or back to PHP's own
 * ops; everything else is PHP's. */
int async_io_stream_set_option(php_stream *stream, int option, int value, void *ptrparam);

#endif /* ASYNC_IO_SOCKET_TRANSPORT_H */
