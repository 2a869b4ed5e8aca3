/*
 * runtime/runtime.c - the request's runtime: created on the first use of
 * the API in a request (scripts that never use it pay nothing; Fibers
 * work with or without it, rule C13) and destroyed at the request's end; each
 * request gets a fresh one. The context that creates it becomes the main
 * coroutine (rule C3). Every PHP function of the extension that needs the
 * runtime asks async_runtime().
 */
#include "runtime/runtime.h"

#include "api/exceptions.h"
#include "runtime/fibers.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/stall.h"

/* The host table the module assembled (async.c). */
static const tasync_host_t *runtime_host;

void async_runtime_set_host(const tasync_host_t *host)
{
	runtime_host = host;
}

int async_runtime_create(tasync_runtime_t **out, char *errbuf, size_t errbuf_size)
{
	tasync_runtime_options_t o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = TASYNC_RUNTIME_FALLBACK_DEFAULT;
	o.backend = ASYNC_G(reactor);
	o.backend_dir = ASYNC_G(backend_dir) && *ASYNC_G(backend_dir) ? ASYNC_G(backend_dir) : NULL;
	o.stack_size = (size_t) ASYNC_G(stack_size);
	o.stack_cache = (uint32_t) ASYNC_G(stack_cache);
	o.thread_pool_size = (uint32_t) ASYNC_G(thread_pool_size);
	o.host = runtime_host;
	o.errbuf = errbuf;
	o.errbuf_size = errbuf_size;
	o.zombie_timeout_ns = ASYNC_G(zombie_timeout) > 0 ? (uint64_t) (ASYNC_G(zombie_timeout) * 1e9) : 1;
	/* Under `ulimit -v`, PHP's heap must still find room to grow to
	 * memory_limit after coroutine stacks took what they could: a stack that
	 * does not fit fails its spawn, where PHP's allocator would end the
	 * process. */
	o.address_space_reserve = (PG(memory_limit) > 0 && (uint64_t) PG(memory_limit) < ((uint64_t) 1 << 40)
		? (size_t) PG(memory_limit) : (size_t) 256 << 20) + ((size_t) 64 << 20);
	return tasync_runtime_create(&o, out);
}

tasync_runtime_t *async_runtime(void)
{
	if (EXPECTED(ASYNC_G(rt) != NULL)) {
		return ASYNC_G(rt);
	}
	char why[512] = "";
	tasync_runtime_t *rt = NULL;
	int rc = async_runtime_create(&rt, why, sizeof(why));
	if (rc != 0) {
		async_safe_point();
		zend_throw_exception_ex(async_ce_async_exception, rc, "Cannot start the True Async runtime: %s",
			why[0] ? why : tasync_strerror(rc));
		return NULL;
	}
	ASYNC_G(rt) = rt;
	ASYNC_G(main_co) = tasync_coroutine_current(rt);
	async_stall_runtime_created(rt);
	tasync_coroutine_set_host_data(ASYNC_G(main_co), &ASYNC_G(main_vm));
	/* Rule C13: Fibers inside coroutines, the fiber observers. */
	async_fibers_runtime_created();
	/* A backend that could not be loaded was replaced by the default one: say
	 * why. */
	async_safe_point();
	return rt;
}

void async_runtime_destroy(void)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	async_fibers_runtime_destroyed();
	tasync_coroutine_set_host_data(ASYNC_G(main_co), NULL);
	ASYNC_G(rt) = NULL;
	ASYNC_G(main_co) = NULL;
	tasync_runtime_destroy(rt);
}
