/*
 * io/dns.h - name resolution on the thread pool (io/dns.c), which the
 * connects of socket streams use too.
 */
#ifndef ASYNC_IO_DNS_H
#define ASYNC_IO_DNS_H

#include "io/wait.h"
#include <netdb.h>

/*
 * getaddrinfo(host, NULL, hints as php_network_getaddresses sets them) on
 * the thread pool. Returns ASYNC_IO_READY with *gai_error = 0 and *res set
 * (freeaddrinfo it), or with *gai_error set; or the wait's status.
 */
async_io_status async_io_getaddrinfo(const char *host, int socktype, struct addrinfo **res, int *gai_error);

#endif /* ASYNC_IO_DNS_H */
