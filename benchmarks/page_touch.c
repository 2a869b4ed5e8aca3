/*
 * page-touch: the floor of the PHP burst benchmark (benchmarks/php/delays.php).
 *
 *   page-touch PAGES [STACKS STRIDE]
 *
 * Maps PAGES fresh anonymous pages (no transparent huge pages: every page
 * is faulted in on its own, as coroutine stacks and Zend MM chunks are),
 * writes one byte in each, in address order, and prints the milliseconds
 * that took: what the first burst of many coroutines cannot go below on
 * this machine, where the first touch of a page costs 10-30 us under a
 * hypervisor. Then unmaps them and exits.
 *
 * With STACKS and STRIDE, STACKS of the PAGES pages are laid out as the
 * tops of coroutine stacks are: one page every STRIDE pages (the stack
 * pool's stride: stack size plus guard), the rest contiguous as before.
 * On this project's VM a page costs more the fewer of its neighbours in the
 * same 2 MiB region (one page-table page) are touched with it
 * (docs/benchmarks.md): this variant shows what the stack layout alone
 * costs, with no runtime around it. The benchmark's goal stays against the
 * contiguous floor.
 *
 * With GUARD as well, each stack is also prepared as the stack pool
 * (core/src/coroutine/stack_pool.cpp) prepares a fresh one before its
 * coroutine first runs: GUARD guard pages installed at the bottom of the
 * stride (MADV_GUARD_INSTALL, else mprotect) and the top page populated
 * (MADV_POPULATE_WRITE) before it is written. That is the fresh-memory part
 * of a first burst in plain C, with no runtime around it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

static char *map_fresh(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		perror("page-touch: mmap");
		exit(1);
	}
#ifdef MADV_NOHUGEPAGE
	madvise(p, len, MADV_NOHUGEPAGE);
#endif
	return p;
}

int main(int argc, char **argv)
{
	long pages = argc >= 2 ? atol(argv[1]) : 0;
	long stacks = argc >= 4 ? atol(argv[2]) : 0;
	long stride = argc >= 4 ? atol(argv[3]) : 1;
	long guard = argc == 5 ? atol(argv[4]) : 0;
	if (pages <= 0 || (argc != 2 && argc != 4 && argc != 5) || stacks < 0 || stacks > pages || stride < 1
			|| guard < 0 || guard >= stride) {
		fprintf(stderr, "usage: page-touch PAGES [STACKS STRIDE [GUARD]]\n");
		return 2;
	}
	size_t ps = (size_t) sysconf(_SC_PAGESIZE);
	size_t slen = (size_t) stacks * (size_t) stride * ps;
	size_t len = (size_t) (pages - stacks) * ps;
	char *s = slen ? map_fresh(slen) : NULL;
	char *p = len ? map_fresh(len) : NULL;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	/* The top page of each stride, as a stack's first frames touch it. */
	for (size_t off = (size_t) stride * ps - ps; off < slen; off += (size_t) stride * ps) {
		if (guard > 0) {
			char *bottom = s + off + ps - (size_t) stride * ps;
			if (madvise(bottom, (size_t) guard * ps, MADV_GUARD_INSTALL) != 0) {
				mprotect(bottom, (size_t) guard * ps, PROT_NONE);
			}
#ifdef MADV_POPULATE_WRITE
			madvise(s + off, ps, MADV_POPULATE_WRITE);
#endif
		}
		((volatile char *) s)[off] = 1;
	}
	for (size_t off = 0; off < len; off += ps) {
		((volatile char *) p)[off] = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (double) (b.tv_sec - a.tv_sec) * 1e3 + (double) (b.tv_nsec - a.tv_nsec) / 1e6);
	if (s) {
		munmap(s, slen);
	}
	if (p) {
		munmap(p, len);
	}
	return 0;
}
