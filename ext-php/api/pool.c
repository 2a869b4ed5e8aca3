/*
 * api/pool.c - Async\Pool over the core's pools (pool.h; rule T3): at
 * most max resources, lent fairly with what comes back reserved for the
 * first waiter, resources of coroutines that ended coming back by
 * themselves, a periodic healthcheck that never keeps the program alive,
 * and a circuit breaker moved by a CircuitBreakerStrategy.
 *
 * The PHP callables live in a record of their own (pool_host), the data of
 * the core's callbacks, counted: the core holds it until the pool is freed
 * (which may come after the Pool object: a lent resource keeps the pool),
 * and so do the coroutines this file spawns for the pool.
 *
 * Where user code runs. The factory, the checks and the strategy run in
 * the coroutine whose call needs them (the acquiring, releasing or checking
 * one), where they may suspend. The destructor may not run where the core
 * gives a resource up (pool.h: outside any coroutine, say when a coroutine
 * ended holding a resource of a closed pool): the resource is queued, a
 * coroutine is spawned to run the destructor, and the methods that give
 * resources up (release, close, deactivate, the Pool's own end) run it
 * themselves before they return, so that their caller sees it done.
 * A periodic check pass runs in a coroutine spawned for it (check_due).
 * Both kinds of coroutine run in the global scope.
 */
#include "api/pool.h"

#include "api/exceptions.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_enum.h"
#include "zend_interfaces.h"
#include "stubs/pool_arginfo.h"

zend_class_entry *async_ce_pool;
zend_class_entry *async_ce_circuit_breaker;
zend_class_entry *async_ce_circuit_breaker_strategy;
zend_class_entry *async_ce_circuit_breaker_state;
static zend_object_handlers pool_handlers;

enum { CB_FACTORY, CB_DESTRUCTOR, CB_HEALTHCHECK, CB_BEFORE_ACQUIRE, CB_BEFORE_RELEASE, CB_COUNT };

typedef struct pool_host {
	uint32_t refs;                   /* the core's, the object's, each spawned coroutine's */
	zval callables[CB_COUNT];        /* UNDEF when not given */
	zend_object *object;             /* the Pool object while it lives (weak) */
	zend_object *strategy;           /* the CircuitBreakerStrategy (one reference) or NULL */
	tasync_pool_t *pool;             /* borrowed; NULL once the core freed the pool */
	zval pending;                    /* resources given up, waiting for the destructor */
	bool drain_queued;               /* a drain coroutine is spawned and has not run */
} pool_host;

typedef struct async_pool {
	tasync_pool_t *pool;             /* one reference */
	pool_host *host;                 /* one reference */
	zend_object std;
} async_pool;

static inline async_pool *pool_from_obj(zend_object *obj)
{
	return (async_pool *) ((char *) obj - XtOffsetOf(async_pool, std));
}

/* --------------------------------------------------------- the record */

static pool_host *host_create(void)
{
	pool_host *h = ecalloc(1, sizeof(*h));
	for (int i = 0; i < CB_COUNT; i++) {
		ZVAL_UNDEF(&h->callables[i]);
	}
	array_init(&h->pending);
	return h;
}

/* Drops a reference; may run inside a core callback (deferred releases). */
static void host_unref(void *arg)
{
	pool_host *h = arg;
	if (--h->refs != 0) {
		return;
	}
	for (int i = 0; i < CB_COUNT; i++) {
		async_defer_release(&h->callables[i]);
	}
	if (h->strategy != NULL) {
		zval zv;
		ZVAL_OBJ(&zv, h->strategy);
		async_defer_release(&zv);
	}
	async_defer_release(&h->pending);
	efree(h);
}

/* ------------------------------------------------- the destructor queue */

/* Runs the destructor for each resource given up so far, in the calling
 * coroutine. Stops at the first exception (left pending); what is left
 * waits for the next drain. */
static void pool_drain(pool_host *h)
{
	h->refs++;
	while (!EG(exception) && zend_hash_num_elements(Z_ARRVAL(h->pending)) > 0) {
		SEPARATE_ARRAY(&h->pending);
		HashTable *ht = Z_ARRVAL(h->pending);
		HashPosition pos;
		zend_hash_internal_pointer_reset_ex(ht, &pos);
		zend_ulong idx;
		zend_hash_get_current_key_ex(ht, NULL, &idx, &pos);
		zval resource;
		ZVAL_COPY(&resource, zend_hash_get_current_data_ex(ht, &pos));
		zend_hash_index_del(ht, idx);
		if (!Z_ISUNDEF(h->callables[CB_DESTRUCTOR])) {
			zval rv;
			ZVAL_UNDEF(&rv);
			call_user_function(NULL, NULL, &h->callables[CB_DESTRUCTOR], &rv, 1, &resource);
			zval_ptr_dtor(&rv);
		}
		zval_ptr_dtor(&resource);
	}
	host_unref(h);
}

static void drain_entry(tasync_coroutine_t *self, void *arg)
{
	pool_host *h = arg;
	(void) self;
	h->drain_queued = false;
	pool_drain(h);
}

/* Makes sure a coroutine will run the destructor queue. */
static void drain_soon(pool_host *h)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (h->drain_queued || rt == NULL || Z_ISUNDEF(h->callables[CB_DESTRUCTOR])) {
		return;
	}
	h->refs++;
	void *err = NULL;
	if (async_spawn_native(tasync_scope_global(rt), drain_entry, h, host_unref, NULL, &err) == 0) {
		h->drain_queued = true;
	}
	tasync_error_release(rt, err);
}

/* ------------------------------------------------- the core's callbacks */

static int cb_create(void *data, tasync_pool_t *pool, void **out_resource, void **out_error)
{
	pool_host *h = data;
	zval rv;
	zend_object *thrown = NULL;
	(void) pool;
	bool ran = async_call_adopting(&h->callables[CB_FACTORY], &rv, 0, NULL, &thrown);
	if (thrown != NULL || !ran || Z_ISUNDEF(rv)) {
		zval_ptr_dtor(&rv);
		*out_error = thrown != NULL ? thrown
			: async_error_create(TASYNC_ERROR_POOL, -EIO, "Failed to create pool resource");
		return TASYNC_EFAILED;
	}
	*out_resource = async_value_box(&rv);
	zval_ptr_dtor(&rv);
	return 0;
}

static void cb_destroy(void *data, tasync_pool_t *pool, void *resource)
{
	pool_host *h = data;
	(void) pool;
	if (Z_ISUNDEF(h->callables[CB_DESTRUCTOR])) {
		return;
	}
	zval zv;
	async_value_unbox(resource, &zv);
	SEPARATE_ARRAY(&h->pending);
	zend_hash_next_index_insert(Z_ARRVAL(h->pending), &zv);
	drain_soon(h);
}

/* A check callable's verdict on resource: nonzero to go on with it. An
 * exception (dropped) refuses it. */
static int check_call(pool_host *h, int which, void *resource)
{
	if (Z_ISUNDEF(h->callables[which])) {
		return 1;
	}
	zval arg, rv;
	zend_object *thrown = NULL;
	async_value_unbox(resource, &arg);
	bool ran = async_call_adopting(&h->callables[which], &rv, 1, &arg, &thrown);
	int ok = ran && thrown == NULL && !Z_ISUNDEF(rv) && zend_is_true(&rv);
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&arg);
	if (thrown != NULL) {
		OBJ_RELEASE(thrown);
	}
	return ok;
}

static int cb_healthcheck(void *data, tasync_pool_t *pool, void *resource)
{
	(void) pool;
	return check_call(data, CB_HEALTHCHECK, resource);
}

static int cb_before_acquire(void *data, tasync_pool_t *pool, void *resource)
{
	(void) pool;
	return check_call(data, CB_BEFORE_ACQUIRE, resource);
}

static int cb_before_release(void *data, tasync_pool_t *pool, void *resource)
{
	(void) pool;
	return check_call(data, CB_BEFORE_RELEASE, resource);
}

typedef struct check_arg {
	pool_host *host;
	tasync_pool_t *pool;             /* one reference */
} check_arg;

static void check_entry(tasync_coroutine_t *self, void *arg)
{
	check_arg *a = arg;
	void *err = NULL;
	(void) self;
	/* What fails here was reported to the strategy; nobody else waits. */
	tasync_pool_check(ASYNC_G(rt), a->pool, &err);
	tasync_error_release(ASYNC_G(rt), err);
	async_safe_point();
	pool_drain(a->host);
}

static void check_free(void *arg)
{
	check_arg *a = arg;
	tasync_pool_release(a->pool);
	host_unref(a->host);
	efree(a);
}

static void cb_check_due(void *data, tasync_pool_t *pool)
{
	pool_host *h = data;
	tasync_runtime_t *rt = ASYNC_G(rt);
	if (rt == NULL) {
		return;
	}
	check_arg *a = emalloc(sizeof(*a));
	a->host = h;
	a->pool = pool;
	h->refs++;
	tasync_pool_retain(pool);
	void *err = NULL;
	async_spawn_native(tasync_scope_global(rt), check_entry, a, check_free, NULL, &err);
	tasync_error_release(rt, err);
}

static void cb_release_data(void *data)
{
	pool_host *h = data;
	h->pool = NULL;
	host_unref(h);
}

/* ------------------------------------------------------ the strategy */

/* $strategy->$method($pool, ...$more), in the reporting coroutine; its
 * exception is dropped (the pool's work goes on). */
static bool strategy_call(pool_host *h, const char *method, zval *more, uint32_t more_count, zval *rv)
{
	zval callable, args[2];
	zend_object *thrown = NULL;
	ZVAL_UNDEF(rv);
	if (h->strategy == NULL) {
		return false;
	}
	array_init_size(&callable, 2);
	add_next_index_object(&callable, h->strategy);
	GC_ADDREF(h->strategy);
	add_next_index_string(&callable, method);
	uint32_t argc = 0;
	if (more_count != (uint32_t) -1) {
		if (h->object != NULL) {
			ZVAL_OBJ_COPY(&args[0], h->object);
		} else {
			ZVAL_NULL(&args[0]);
		}
		argc = 1;
		for (uint32_t i = 0; i < more_count; i++) {
			ZVAL_COPY(&args[argc++], &more[i]);
		}
	}
	bool ran = async_call_adopting(&callable, rv, argc, args, &thrown);
	for (uint32_t i = 0; i < argc; i++) {
		zval_ptr_dtor(&args[i]);
	}
	zval_ptr_dtor(&callable);
	if (thrown != NULL) {
		OBJ_RELEASE(thrown);
		ran = false;
	}
	return ran;
}

static void cb_report_success(void *data, tasync_pool_t *pool)
{
	zval rv;
	(void) pool;
	strategy_call(data, "reportSuccess", NULL, 0, &rv);
	zval_ptr_dtor(&rv);
}

static void cb_report_failure(void *data, tasync_pool_t *pool, void *error)
{
	zval rv, err;
	(void) pool;
	ZVAL_OBJ_COPY(&err, (zend_object *) error);
	strategy_call(data, "reportFailure", &err, 1, &rv);
	zval_ptr_dtor(&err);
	zval_ptr_dtor(&rv);
}

static int cb_should_recover(void *data, tasync_pool_t *pool)
{
	zval rv;
	(void) pool;
	bool ran = strategy_call(data, "shouldRecover", NULL, (uint32_t) -1, &rv);
	int yes = ran && !Z_ISUNDEF(rv) && zend_is_true(&rv);
	zval_ptr_dtor(&rv);
	return yes;
}

/* ------------------------------------------------------------ object */

static zend_object *pool_create(zend_class_entry *ce)
{
	async_pool *p = zend_object_alloc(sizeof(async_pool), ce);
	p->pool = NULL;
	p->host = NULL;
	zend_object_std_init(&p->std, ce);
	object_properties_init(&p->std, ce);
	p->std.handlers = &pool_handlers;
	return &p->std;
}

/* The Pool object goes: the pool closes (nobody can release to it any
 * more), and its idle resources are destroyed here. */
static void pool_dtor(zend_object *obj)
{
	async_pool *p = pool_from_obj(obj);
	if (p->pool == NULL || ASYNC_G(rt) == NULL) {
		return;
	}
	async_exception_aside aside;
	async_exception_set_aside(&aside);
	tasync_pool_close(p->pool);
	async_safe_point();
	tasync_coroutine_t *cur = tasync_coroutine_current(ASYNC_G(rt));
	if (cur != NULL && tasync_coroutine_host_data(cur) != NULL && EG(exception) == NULL) {
		pool_drain(p->host);
	}
	async_exception_restore(&aside);
}

static void pool_free(zend_object *obj)
{
	async_pool *p = pool_from_obj(obj);
	if (p->host != NULL) {
		p->host->object = NULL;
		host_unref(p->host);
		p->host = NULL;
	}
	tasync_pool_release(p->pool);
	p->pool = NULL;
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/* The pool of $this, or NULL with an exception thrown. */
static tasync_pool_t *this_pool(zval *this_zv)
{
	async_pool *p = pool_from_obj(Z_OBJ_P(this_zv));
	if (p->pool == NULL || ASYNC_G(rt) == NULL) {
		zend_throw_exception(async_ce_pool_exception, "Pool is not initialized", 0);
		return NULL;
	}
	return p->pool;
}

/* After a call that may have given resources up: the destructor runs now,
 * in the caller, unless an exception is on its way out. */
static void pool_done(zval *this_zv)
{
	async_safe_point();
	if (!EG(exception)) {
		pool_drain(pool_from_obj(Z_OBJ_P(this_zv))->host);
	}
}

/* A resource was lent (acquire(), tryAcquire()): it is the return value;
 * the resources refused on the way are destroyed now; when a destructor
 * throws, the lent one goes back and the exception is the call's. */
static void lent_done(zval *this_zv, tasync_runtime_t *rt, tasync_pool_t *pool, void *resource, zval *return_value)
{
	async_value_unbox(resource, return_value);
	pool_done(this_zv);
	if (EG(exception)) {
		tasync_pool_give_back(pool, resource, NULL);
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
	tasync_value_release(rt, resource);
}

ZEND_METHOD(Async_Pool, __construct)
{
	zend_fcall_info fci[CB_COUNT];
	zend_fcall_info_cache fcc[CB_COUNT];
	zend_long min = 0, max = 10, interval = 0;
	memset(fci, 0, sizeof(fci));
	for (int i = 0; i < CB_COUNT; i++) {
		fci[i].size = 0;
	}
	ZEND_PARSE_PARAMETERS_START(1, 8)
		Z_PARAM_FUNC(fci[CB_FACTORY], fcc[CB_FACTORY])
		Z_PARAM_OPTIONAL
		Z_PARAM_FUNC_OR_NULL(fci[CB_DESTRUCTOR], fcc[CB_DESTRUCTOR])
		Z_PARAM_FUNC_OR_NULL(fci[CB_HEALTHCHECK], fcc[CB_HEALTHCHECK])
		Z_PARAM_FUNC_OR_NULL(fci[CB_BEFORE_ACQUIRE], fcc[CB_BEFORE_ACQUIRE])
		Z_PARAM_FUNC_OR_NULL(fci[CB_BEFORE_RELEASE], fcc[CB_BEFORE_RELEASE])
		Z_PARAM_LONG(min)
		Z_PARAM_LONG(max)
		Z_PARAM_LONG(interval)
	ZEND_PARSE_PARAMETERS_END();
	async_pool *p = pool_from_obj(Z_OBJ_P(ZEND_THIS));
	if (p->pool != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	if (min < 0 || min > UINT32_MAX) {
		zend_argument_value_error(6, "must be >= 0");
		RETURN_THROWS();
	}
	if (max < 1 || max > UINT32_MAX) {
		zend_argument_value_error(7, "must be >= 1");
		RETURN_THROWS();
	}
	if (min > max) {
		zend_argument_value_error(6, "must be <= max");
		RETURN_THROWS();
	}
	if (interval < 0) {
		zend_argument_value_error(8, "must be >= 0");
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	pool_host *h = host_create();
	for (int i = 0; i < CB_COUNT; i++) {
		if (fci[i].size != 0) {
			ZVAL_COPY(&h->callables[i], &fci[i].function_name);
		}
	}
	h->object = Z_OBJ_P(ZEND_THIS);

	tasync_pool_callbacks_t cb;
	memset(&cb, 0, sizeof(cb));
	cb.size = sizeof(cb);
	cb.data = h;
	cb.create = cb_create;
	cb.destroy = cb_destroy;
	cb.healthcheck = Z_ISUNDEF(h->callables[CB_HEALTHCHECK]) ? NULL : cb_healthcheck;
	cb.before_acquire = Z_ISUNDEF(h->callables[CB_BEFORE_ACQUIRE]) ? NULL : cb_before_acquire;
	cb.before_release = Z_ISUNDEF(h->callables[CB_BEFORE_RELEASE]) ? NULL : cb_before_release;
	cb.check_due = cb_check_due;
	cb.release_data = cb_release_data;
	tasync_pool_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.min = (uint32_t) min;
	opts.max = (uint32_t) max;
	opts.healthcheck_interval_ns = (uint64_t) interval * 1000000u;
	int rc = tasync_pool_create(rt, &opts, &cb, &p->pool);
	if (rc != 0) {
		p->pool = NULL;
		h->refs = 1;
		host_unref(h);
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	h->refs = 2; /* the core's and the object's */
	h->pool = p->pool;
	p->host = h;
	if (min > 0) {
		/* The first min resources, made here (the factory may suspend). */
		void *err = NULL;
		rc = tasync_pool_fill(rt, p->pool, &err);
		if (!async_after_switch()) {
			tasync_error_release(rt, err);
			RETURN_THROWS();
		}
		if (rc != 0) {
			async_throw_error(rc, err);
		}
	}
}

/* acquire() (waits up to timeout ms, 0 for no limit) and tryAcquire()
 * (wait false: null when no resource is free). */
static void pool_take(INTERNAL_FUNCTION_PARAMETERS, bool wait, zend_long timeout)
{
	tasync_pool_t *pool = this_pool(ZEND_THIS);
	tasync_runtime_t *rt = pool != NULL ? async_runtime() : NULL;
	if (rt == NULL) {
		RETURN_THROWS();
	}
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	void *resource = NULL, *err = NULL;
	int rc;
	if (wait) {
		rc = tasync_pool_acquire(rt, pool, NULL, (uint64_t) timeout * 1000000u, &resource, &err);
		if (!async_after_switch()) {
			if (rc == 0) {
				/* Taken, but the coroutine unwinds: it goes back. */
				tasync_pool_give_back(pool, resource, NULL);
			}
			tasync_value_release(rt, resource);
			tasync_error_release(rt, err);
			OBJ_RELEASE(self);
			RETURN_THROWS();
		}
	} else {
		rc = tasync_pool_try_acquire(rt, pool, &resource, &err);
		async_safe_point();
	}
	if (rc == 0) {
		lent_done(ZEND_THIS, rt, pool, resource, return_value);
	} else if (!wait && rc == -EAGAIN) {
		tasync_error_release(rt, err);
		ZVAL_NULL(return_value);
	} else {
		async_throw_error(rc, err);
	}
	OBJ_RELEASE(self);
}

ZEND_METHOD(Async_Pool, acquire)
{
	zend_long timeout = 0;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(timeout)
	ZEND_PARSE_PARAMETERS_END();
	if (timeout < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	pool_take(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, timeout);
}

ZEND_METHOD(Async_Pool, tryAcquire)
{
	ZEND_PARSE_PARAMETERS_NONE();
	pool_take(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, 0);
}

/* The lease of the resource identical to value: the current coroutine's
 * first, else the first one lent. NULL when none. */
static void *lease_of(tasync_pool_t *pool, zval *value)
{
	size_t n = tasync_pool_leases(pool, NULL, NULL, 0);
	if (n == 0) {
		return NULL;
	}
	void **resources = safe_emalloc(n, sizeof(void *), 0);
	tasync_coroutine_t **owners = safe_emalloc(n, sizeof(tasync_coroutine_t *), 0);
	n = tasync_pool_leases(pool, resources, owners, n);
	tasync_coroutine_t *cur = tasync_coroutine_current(ASYNC_G(rt));
	void *found = NULL;
	ZVAL_DEREF(value);
	for (size_t i = 0; i < n; i++) {
		if (zend_is_identical(async_value_zval(resources[i]), value)) {
			if (found == NULL || owners[i] == cur) {
				found = resources[i];
			}
			if (owners[i] == cur) {
				break;
			}
		}
	}
	efree(resources);
	efree(owners);
	return found;
}

ZEND_METHOD(Async_Pool, release)
{
	zval *value;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();
	tasync_pool_t *pool = this_pool(ZEND_THIS);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	void *resource = lease_of(pool, value);
	if (resource == NULL) {
		return; /* not lent by this pool (or given back already) */
	}
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	tasync_pool_give_back(pool, resource, NULL);
	if (async_after_switch()) {
		pool_done(ZEND_THIS);
	}
	OBJ_RELEASE(self);
}

ZEND_METHOD(Async_Pool, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_pool_t *pool = this_pool(ZEND_THIS);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	tasync_pool_close(pool);
	pool_done(ZEND_THIS);
}

/* The core's counters of $this (zeroed once it is gone). */
static tasync_pool_info_t pool_info(zval *this_zv)
{
	async_pool *p = pool_from_obj(Z_OBJ_P(this_zv));
	tasync_pool_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (p->pool == NULL || tasync_pool_info(p->pool, &info) != 0) {
		memset(&info, 0, sizeof(info));
		info.closed = 1;
	}
	return info;
}

ZEND_METHOD(Async_Pool, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(pool_info(ZEND_THIS).closed != 0);
}

ZEND_METHOD(Async_Pool, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) pool_info(ZEND_THIS).total);
}

ZEND_METHOD(Async_Pool, idleCount)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) pool_info(ZEND_THIS).idle);
}

ZEND_METHOD(Async_Pool, activeCount)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) pool_info(ZEND_THIS).active);
}

ZEND_METHOD(Async_Pool, setCircuitBreakerStrategy)
{
	zend_object *strategy = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(strategy, async_ce_circuit_breaker_strategy)
	ZEND_PARSE_PARAMETERS_END();
	tasync_pool_t *pool = this_pool(ZEND_THIS);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	pool_host *h = pool_from_obj(Z_OBJ_P(ZEND_THIS))->host;
	zend_object *old = h->strategy;
	h->strategy = strategy;
	if (strategy != NULL) {
		GC_ADDREF(strategy);
		tasync_pool_breaker_t b;
		memset(&b, 0, sizeof(b));
		b.size = sizeof(b);
		b.data = h;
		b.report_success = cb_report_success;
		b.report_failure = cb_report_failure;
		b.should_recover = cb_should_recover;
		tasync_pool_set_breaker(pool, &b);
	} else {
		tasync_pool_set_breaker(pool, NULL);
	}
	if (old != NULL) {
		OBJ_RELEASE(old);
	}
}

ZEND_METHOD(Async_Pool, getState)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_pool *p = pool_from_obj(Z_OBJ_P(ZEND_THIS));
	int state = p->pool != NULL ? tasync_pool_state(p->pool) : TASYNC_POOL_ACTIVE;
	const char *name = state == TASYNC_POOL_INACTIVE ? "INACTIVE" : state == TASYNC_POOL_RECOVERING ? "RECOVERING" : "ACTIVE";
	RETURN_OBJ_COPY(zend_enum_get_case_cstr(async_ce_circuit_breaker_state, name));
}

static void pool_set_state(INTERNAL_FUNCTION_PARAMETERS, int state)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_pool_t *pool = this_pool(ZEND_THIS);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	tasync_pool_set_state(pool, state);
	pool_done(ZEND_THIS);
}

ZEND_METHOD(Async_Pool, activate)
{
	pool_set_state(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_POOL_ACTIVE);
}

ZEND_METHOD(Async_Pool, deactivate)
{
	pool_set_state(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_POOL_INACTIVE);
}

ZEND_METHOD(Async_Pool, recover)
{
	pool_set_state(INTERNAL_FUNCTION_PARAM_PASSTHRU, TASYNC_POOL_RECOVERING);
}

void async_register_pool_class(void)
{
	async_ce_circuit_breaker_state = register_class_Async_CircuitBreakerState();
	async_ce_circuit_breaker = register_class_Async_CircuitBreaker();
	async_ce_circuit_breaker_strategy = register_class_Async_CircuitBreakerStrategy();
	async_ce_pool = register_class_Async_Pool(zend_ce_countable, async_ce_circuit_breaker);
	async_ce_pool->create_object = pool_create;
	memcpy(&pool_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	pool_handlers.offset = XtOffsetOf(async_pool, std);
	pool_handlers.dtor_obj = pool_dtor;
	pool_handlers.free_obj = pool_free;
	pool_handlers.clone_obj = NULL;
}
