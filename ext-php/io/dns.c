/*
 * io/dns.c - name resolution inside coroutines (rule C18): gethostbyname(),
 * gethostbynamel(), gethostbyaddr() and the host names of stream connects
 * (io/socket_streams.c) are resolved on the runtime's thread pool (tasync_offload:
 * the backend's pool, else the core's) while the calling coroutine waits;
 * the others run meanwhile.
 *
 * The worker thread runs only libc (the reentrant resolver calls) on
 * memory the PHP thread prepared; every zval is built back on the PHP
 * thread. Results match PHP's own functions (ext/standard/dns.c): the same
 * resolver calls with the same hints, the same strings; a cancelled lookup
 * fails as a failed lookup does (C18): gethostbyname() returns the host
 * name unchanged, gethostbynamel() false, gethostbyaddr() the address.
 *
 * The record queries (dns_get_record and friends) are io/dns_records.c's.
 */
#include "io/dns.h"

#include "io/families.h"
#include "io/hooks.h"
#include "io/wait.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef MAXFQDNLEN
# define MAXFQDNLEN 255
#endif

static zif_handler orig_gethostbyname, orig_gethostbynamel, orig_gethostbyaddr;

/* ------------------------------------------------------ gethostbyname_r */

typedef struct dns_host_job {
	const char *name;            /* borrowed, NUL-terminated */
	struct hostent he;
	struct hostent *result;      /* &he, or NULL when not found */
	char *buf;                   /* malloc()ed by the worker, free()d by us */
} dns_host_job;

static void dns_host_work(void *data)
{
	dns_host_job *j = data;
	size_t len = 1024;
	int herr = 0;
	j->result = NULL;
	for (;;) {
		char *buf = realloc(j->buf, len);
		if (buf == NULL) {
			return;
		}
		j->buf = buf;
		int rc = gethostbyname_r(j->name, &j->he, j->buf, len, &j->result, &herr);
		if (rc == ERANGE && len < 1024 * 1024) {
			len *= 2;
			continue;
		}
		if (rc != 0) {
			j->result = NULL;
		}
		return;
	}
}

/* Resolves name as php_network_gethostbyname() does. The job's buf must
 * be free()d. */
static async_io_status dns_gethostbyname(const char *name, dns_host_job *j)
{
	memset(j, 0, sizeof(*j));
	j->name = name;
	return async_io_offload(dns_host_work, j);
}

/* gethostbyname(string $hostname): string, and, as_list,
 * gethostbynamel(string $hostname): array|false. One lookup on the thread
 * pool; only the shape of the result differs. */
static void dns_byname(INTERNAL_FUNCTION_PARAMETERS, zif_handler orig, bool as_list)
{
	char *hostname;
	size_t len;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "p", &hostname, &len) == FAILURE
			|| len > MAXFQDNLEN) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	dns_host_job j;
	async_io_status st = dns_gethostbyname(hostname, &j);
	if (st == ASYNC_IO_UNSUPPORTED) {
		free(j.buf);
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (st == ASYNC_IO_ABORTED) {
		free(j.buf);
		RETURN_THROWS();
	}
	/* Not found, or cancelled (C18): the host name unchanged, or false. */
	const bool found = st == ASYNC_IO_READY && j.result != NULL && j.result->h_addrtype == AF_INET;
	char addr[INET_ADDRSTRLEN];
	if (!as_list) {
		if (found && j.result->h_addr_list[0] != NULL
				&& inet_ntop(AF_INET, j.result->h_addr_list[0], addr, sizeof(addr)) != NULL) {
			RETVAL_STRING(addr);
		} else {
			RETVAL_STRINGL(hostname, len);
		}
	} else if (!found) {
		RETVAL_FALSE;
	} else {
		array_init(return_value);
		for (int i = 0; j.result->h_addr_list[i] != NULL; i++) {
			if (inet_ntop(AF_INET, j.result->h_addr_list[i], addr, sizeof(addr)) != NULL) {
				add_next_index_string(return_value, addr);
			}
		}
	}
	free(j.buf);
}

static ZEND_NAMED_FUNCTION(async_io_gethostbyname)
{
	dns_byname(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_gethostbyname, false);
}

static ZEND_NAMED_FUNCTION(async_io_gethostbynamel)
{
	dns_byname(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_gethostbynamel, true);
}

/* ------------------------------------------------------------ getnameinfo */

typedef struct dns_addr_job {
	struct sockaddr_storage sa;
	socklen_t salen;
	char host[NI_MAXHOST];
	int rc;
} dns_addr_job;

static void dns_addr_work(void *data)
{
	dns_addr_job *j = data;
	j->rc = getnameinfo((struct sockaddr *) &j->sa, j->salen, j->host, sizeof(j->host), NULL, 0, NI_NAMEREQD);
}

/* gethostbyaddr(string $ip): string|false */
static ZEND_NAMED_FUNCTION(async_io_gethostbyaddr)
{
	char *ip;
	size_t len;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "p", &ip, &len) == FAILURE) {
		orig_gethostbyaddr(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	dns_addr_job *j = emalloc(sizeof(*j));
	memset(j, 0, sizeof(*j));
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &j->sa;
	struct sockaddr_in *in4 = (struct sockaddr_in *) &j->sa;
	if (inet_pton(AF_INET6, ip, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		j->salen = sizeof(*in6);
	} else if (inet_pton(AF_INET, ip, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		j->salen = sizeof(*in4);
	} else {
		/* Not an address: PHP's own function warns. */
		efree(j);
		orig_gethostbyaddr(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	async_io_status st = async_io_offload(dns_addr_work, j);
	if (st == ASYNC_IO_UNSUPPORTED) {
		efree(j);
		orig_gethostbyaddr(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (st == ASYNC_IO_ABORTED) {
		efree(j);
		RETURN_THROWS();
	}
	if (st == ASYNC_IO_READY && j->rc == 0) {
		RETVAL_STRING(j->host);
	} else {
		RETVAL_STRINGL(ip, len); /* not found, or cancelled (C18) */
	}
	efree(j);
}

/* ------------------------------------------------------------ getaddrinfo */

typedef struct dns_gai_job {
	const char *host;
	struct addrinfo hints;
	struct addrinfo *res;
	int rc;
} dns_gai_job;

static void dns_gai_work(void *data)
{
	dns_gai_job *j = data;
	j->rc = getaddrinfo(j->host, NULL, &j->hints, &j->res);
}

async_io_status async_io_getaddrinfo(const char *host, int socktype, struct addrinfo **res, int *gai_error)
{
	/* php_network_getaddresses() asks for IPv6 too when the stack has it. */
	static int ipv6_borked = -1;
	if (ipv6_borked == -1) {
		int s = socket(PF_INET6, SOCK_DGRAM, 0);
		ipv6_borked = s < 0;
		if (s >= 0) {
			close(s);
		}
	}
	dns_gai_job j;
	memset(&j, 0, sizeof(j));
	j.host = host;
	j.hints.ai_family = ipv6_borked ? AF_INET : AF_UNSPEC;
	j.hints.ai_socktype = socktype;
	async_io_status st = async_io_offload(dns_gai_work, &j);
	*res = NULL;
	*gai_error = 0;
	if (st == ASYNC_IO_READY) {
		*res = j.res;
		*gai_error = j.rc;
	} else if (j.res != NULL) {
		freeaddrinfo(j.res); /* it ran to its end before the cancellation */
	}
	return st;
}

void async_io_dns_startup(void)
{
	orig_gethostbyname = async_io_hook("gethostbyname", async_io_gethostbyname);
	orig_gethostbynamel = async_io_hook("gethostbynamel", async_io_gethostbynamel);
	orig_gethostbyaddr = async_io_hook("gethostbyaddr", async_io_gethostbyaddr);
}
