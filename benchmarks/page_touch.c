/*
 * page-touch: the floor of the PHP burst benchmark (benchmarks/php/delays.php).
 *
 *   page-touch PAGES
 *
 * Maps PAGES fresh anonymous pages (no transparent huge pages: every page
 * is faulted in on its own, as coroutine stacks and Zend MM chunks are),
 * writes one byte in each, in address order, and prints the milliseconds
 * that took: what the first burst of many coroutines cannot go below on
 * this machine, where the first touch of a page costs 10-30 us under a
 * hypervisor. Then unmaps them and exits.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long pages = argc == 2 ? atol(argv[1]) : 0;
	if (pages <= 0) {
		fprintf(stderr, "usage: page-touch PAGES\n");
		return 2;
	}
	size_t ps = (size_t) sysconf(_SC_PAGESIZE);
	size_t len = (size_t) pages * ps;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		perror("page-touch: mmap");
		return 1;
	}
#ifdef MADV_NOHUGEPAGE
	madvise(p, len, MADV_NOHUGEPAGE);
#endif
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t off = 0; off < len; off += ps) {
		((volatile char *) p)[off] = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (double) (b.tv_sec - a.tv_sec) * 1e3 + (double) (b.tv_nsec - a.tv_nsec) / 1e6);
	munmap(p, len);
	return 0;
}
