/*
 * http-floor: the floor of the PHP HTTP benchmark (benchmarks/php/http/),
 * and a small closed-loop client for its system-call counts.
 *
 *   http-floor epoll PORT     HTTP/1.1 keep-alive server on level-triggered
 *                             epoll: read, parse, write (the system calls an
 *                             event loop cannot avoid: one read and one
 *                             write per request, epoll_wait shared by the
 *                             connections that are ready together)
 *   http-floor uring PORT     the same on io_uring: a recv and a send
 *                             operation per request, one io_uring_enter per
 *                             batch (submission and wait together)
 *   http-floor client PORT CONNECTIONS REQUESTS
 *                             opens CONNECTIONS keep-alive connections, keeps
 *                             one request in flight on each until REQUESTS
 *                             responses have arrived, prints
 *                             "<responses> <seconds>" and exits
 *
 * Every server answers every request (a GET without a body) with the same
 * small response as benchmarks/php/http/server.php. Servers listen on
 * 127.0.0.1 and run until they are killed; the client stops by itself after
 * 60 seconds even if the server stops answering.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char kResponse[] =
	"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
#define RESPONSE_LEN (sizeof(kResponse) - 1)
#define BUF_SIZE 4096
#define MAX_BATCH 32 /* responses one write may carry (pipelined requests) */

static void die(const char *what)
{
	fprintf(stderr, "http-floor: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void set_nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int listen_on(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		die("socket");
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t) port) };
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *) &addr, sizeof(addr)) != 0 || listen(fd, 4096) != 0) {
		die("bind/listen");
	}
	return fd;
}

/* ------------------------------------------------------------- requests */

/* One connection's unparsed input. */
typedef struct conn {
	int fd;
	size_t len;
	char in[BUF_SIZE];
	char out[MAX_BATCH * RESPONSE_LEN];
} conn;

/*
 * Consumes the complete requests in c->in (each ends with an empty line)
 * and writes their responses into c->out. Returns the bytes to send, or -1
 * when a request does not fit the buffer.
 */
static ssize_t take_requests(conn *c)
{
	size_t start = 0, n = 0;
	for (;;) {
		char *end = memmem(c->in + start, c->len - start, "\r\n\r\n", 4);
		if (end == NULL || n == MAX_BATCH) {
			break;
		}
		start = (size_t) (end - c->in) + 4;
		memcpy(c->out + n * RESPONSE_LEN, kResponse, RESPONSE_LEN);
		n++;
	}
	memmove(c->in, c->in + start, c->len - start);
	c->len -= start;
	if (n == 0 && c->len == BUF_SIZE) {
		return -1;
	}
	return (ssize_t) (n * RESPONSE_LEN);
}

/* ---------------------------------------------------------------- epoll */

static void serve_epoll(int lfd)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) != 0) {
		die("epoll");
	}
	struct epoll_event evs[256];
	for (;;) {
		int n = epoll_wait(ep, evs, 256, -1);
		if (n < 0 && errno != EINTR) {
			die("epoll_wait");
		}
		for (int i = 0; i < n; i++) {
			conn *c = evs[i].data.ptr;
			if (c == NULL) {
				int fd;
				while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
					set_nodelay(fd);
					conn *nc = malloc(sizeof(*nc));
					if (nc == NULL) {
						die("malloc");
					}
					nc->fd = fd;
					nc->len = 0;
					struct epoll_event cev = { .events = EPOLLIN, .data.ptr = nc };
					epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
				}
				continue;
			}
			ssize_t r = read(c->fd, c->in + c->len, BUF_SIZE - c->len);
			if (r < 0 && errno == EAGAIN) {
				continue;
			}
			ssize_t out = -1;
			if (r > 0) {
				c->len += (size_t) r;
				out = take_requests(c);
			}
			/* A response never fills a socket's send buffer here: the
			 * client sends its next request only after the answer. */
			if (out < 0 || (out > 0 && write(c->fd, c->out, (size_t) out) != out)) {
				close(c->fd);
				free(c);
			}
		}
	}
}

/* ---------------------------------------------------------------- uring */

enum { OP_ACCEPT = 1, OP_RECV = 2, OP_SEND = 3 };

static struct io_uring_sqe *get_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	if (sqe == NULL) {
		io_uring_submit(ring);
		sqe = io_uring_get_sqe(ring);
	}
	return sqe;
}

static void queue_recv(struct io_uring *ring, conn *c)
{
	struct io_uring_sqe *sqe = get_sqe(ring);
	io_uring_prep_recv(sqe, c->fd, c->in + c->len, BUF_SIZE - c->len, 0);
	io_uring_sqe_set_data64(sqe, (uint64_t) (uintptr_t) c | OP_RECV);
}

static void queue_send(struct io_uring *ring, conn *c, size_t len)
{
	struct io_uring_sqe *sqe = get_sqe(ring);
	io_uring_prep_send(sqe, c->fd, c->out, len, MSG_NOSIGNAL);
	io_uring_sqe_set_data64(sqe, (uint64_t) (uintptr_t) c | OP_SEND);
}

static void queue_accept(struct io_uring *ring, int lfd)
{
	struct io_uring_sqe *sqe = get_sqe(ring);
	io_uring_prep_accept(sqe, lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	io_uring_sqe_set_data64(sqe, OP_ACCEPT);
}

/* The flags of the uring backend (and of echo-bench's raw rings), falling
 * back while the kernel does not know them. */
static void uring_setup(struct io_uring *ring)
{
	static const unsigned flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG
			| IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
		IORING_SETUP_CLAMP,
	};
	int rc = -EINVAL;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]) && rc == -EINVAL; i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		rc = io_uring_queue_init_params(4096, ring, &p);
	}
	if (rc != 0) {
		errno = -rc;
		die("io_uring_queue_init");
	}
}

static void serve_uring(int lfd)
{
	struct io_uring ring;
	uring_setup(&ring);
	queue_accept(&ring, lfd);
	for (;;) {
		int rc = io_uring_submit_and_wait(&ring, 1);
		if (rc < 0 && rc != -EINTR) {
			errno = -rc;
			die("io_uring_submit_and_wait");
		}
		unsigned head, seen = 0;
		struct io_uring_cqe *cqe;
		io_uring_for_each_cqe(&ring, head, cqe) {
			seen++;
			uint64_t ud = cqe->user_data;
			conn *c = (conn *) (uintptr_t) (ud & ~(uint64_t) 7);
			switch (ud & 7) {
				case OP_ACCEPT:
					if (cqe->res >= 0) {
						conn *nc = malloc(sizeof(*nc));
						if (nc == NULL) {
							die("malloc");
						}
						set_nodelay(cqe->res);
						nc->fd = cqe->res;
						nc->len = 0;
						queue_recv(&ring, nc);
					}
					queue_accept(&ring, lfd);
					break;
				case OP_RECV: {
					ssize_t out = -1;
					if (cqe->res > 0) {
						c->len += (size_t) cqe->res;
						out = take_requests(c);
					}
					if (out > 0) {
						queue_send(&ring, c, (size_t) out);
					} else if (out == 0) {
						queue_recv(&ring, c);
					} else {
						close(c->fd);
						free(c);
					}
					break;
				}
				case OP_SEND:
					if (cqe->res <= 0) {
						close(c->fd);
						free(c);
					} else {
						queue_recv(&ring, c);
					}
					break;
			}
		}
		io_uring_cq_advance(&ring, seen);
	}
}

/* --------------------------------------------------------------- client */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Length of the first complete response in buf[0..len), or 0. */
static size_t response_length(const char *buf, size_t len)
{
	const char *end = memmem(buf, len, "\r\n\r\n", 4);
	if (end == NULL) {
		return 0;
	}
	size_t head = (size_t) (end - buf) + 4;
	size_t body = 0;
	for (const char *p = buf; p < end; p++) {
		if ((p == buf || p[-1] == '\n') && strncasecmp(p, "content-length:", 15) == 0) {
			body = strtoul(p + 15, NULL, 10);
			break;
		}
	}
	return head + body <= len ? head + body : 0;
}

static int run_client(int port, int connections, long requests)
{
	static const char kRequest[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	int ep = epoll_create1(EPOLL_CLOEXEC);
	conn *cs = calloc((size_t) connections, sizeof(conn));
	if (ep < 0 || cs == NULL) {
		die("client set-up");
	}
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t) port) };
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	long sent = 0, done = 0;
	for (int i = 0; i < connections; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *) &addr, sizeof(addr)) != 0) {
			die("connect");
		}
		set_nodelay(fd);
		cs[i].fd = fd;
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &cs[i] };
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	}
	double t0 = now_s();
	for (int i = 0; i < connections && sent < requests; i++, sent++) {
		if (write(cs[i].fd, kRequest, sizeof(kRequest) - 1) != (ssize_t) sizeof(kRequest) - 1) {
			die("write");
		}
	}
	struct epoll_event evs[256];
	while (done < requests) {
		if (now_s() - t0 > 60) {
			fprintf(stderr, "http-floor client: gave up after 60 s (%ld responses)\n", done);
			return 1;
		}
		int n = epoll_wait(ep, evs, 256, 1000);
		for (int i = 0; i < n; i++) {
			conn *c = evs[i].data.ptr;
			ssize_t r = read(c->fd, c->in + c->len, BUF_SIZE - c->len);
			if (r <= 0) {
				die("server closed a connection");
			}
			c->len += (size_t) r;
			size_t one;
			while ((one = response_length(c->in, c->len)) > 0) {
				memmove(c->in, c->in + one, c->len - one);
				c->len -= one;
				done++;
				if (sent < requests) {
					sent++;
					if (write(c->fd, kRequest, sizeof(kRequest) - 1) != (ssize_t) sizeof(kRequest) - 1) {
						die("write");
					}
				}
			}
		}
	}
	printf("%ld %.6f\n", done, now_s() - t0);
	for (int i = 0; i < connections; i++) {
		close(cs[i].fd);
	}
	free(cs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "epoll") == 0) {
		serve_epoll(listen_on(atoi(argv[2])));
	} else if (argc == 3 && strcmp(argv[1], "uring") == 0) {
		serve_uring(listen_on(atoi(argv[2])));
	} else if (argc == 5 && strcmp(argv[1], "client") == 0) {
		return run_client(atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
	}
	fprintf(stderr, "usage: http-floor epoll|uring PORT | client PORT CONNECTIONS REQUESTS\n");
	return 2;
}
