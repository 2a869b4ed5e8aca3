/*
 * api/iterate.c - Async\iterate(): a bounded concurrent foreach. The
 * calling coroutine walks the iterable; each element's callback runs in a
 * coroutine of its own, in a child scope made for the call (what the
 * callbacks spawn lands there too), at most $concurrency at a time. After
 * each spawn the caller yields, so that a callback starts before the next
 * element is taken (a callback that returns false stops the walk before
 * more callbacks start). The caller then waits for the callbacks, and
 * cancels (cancelPending) or awaits what they spawned.
 *
 * A callback's exception stops the walk; it is kept, not routed through
 * the scope (rule S10 would cancel the scope and hand it up), and thrown
 * by iterate() once the callbacks ended.
 */
#include "api/functions.h"

#include "api/exceptions.h"
#include "api/spawn.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"

/* What the call and its callbacks share (counted: a callback may outlive
 * a caller that was cancelled). */
typedef struct iterate_state {
	uint32_t refs;
	zval callback;
	bool stop;                       /* a callback returned false or threw */
	zend_object *error;              /* the first exception (one reference) */
} iterate_state;

typedef struct iterate_call {
	iterate_state *state;
	zval value;
	zval key;
} iterate_call;

static void state_unref(iterate_state *st)
{
	if (--st->refs != 0) {
		return;
	}
	async_defer_release(&st->callback);
	if (st->error != NULL) {
		zval zv;
		ZVAL_OBJ(&zv, st->error);
		async_defer_release(&zv);
	}
	efree(st);
}

static void call_entry(tasync_coroutine_t *self, void *arg)
{
	iterate_call *c = arg;
	iterate_state *st = c->state;
	zval args[2], rv;
	(void) self;
	ZVAL_COPY(&args[0], &c->value);
	ZVAL_COPY(&args[1], &c->key);
	ZVAL_UNDEF(&rv);
	call_user_function(NULL, NULL, &st->callback, &rv, 2, args);
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
	if (EG(exception) != NULL && !zend_is_unwind_exit(EG(exception)) && !zend_is_graceful_exit(EG(exception))) {
		/* Kept for the caller (see the top of the file); a cancellation
		 * of the callback counts as its end, not as an error. */
		zend_object *ex = EG(exception);
		if (!instanceof_function(ex->ce, async_ce_cancellation_error)) {
			if (st->error == NULL) {
				st->error = ex;
				GC_ADDREF(ex);
			}
			st->stop = true;
			zend_clear_exception();
		}
	} else if (EG(exception) == NULL && Z_TYPE(rv) == IS_FALSE) {
		st->stop = true;
	}
	zval_ptr_dtor(&rv);
}

static void call_free(void *arg)
{
	iterate_call *c = arg;
	async_defer_release(&c->value);
	async_defer_release(&c->key);
	state_unref(c->state);
	efree(c);
}

/* The callbacks still running, as handles. */
typedef struct running_set {
	tasync_coroutine_t **list;
	uint32_t count, size;
} running_set;

static void running_prune(running_set *r)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < r->count; i++) {
		if (tasync_coroutine_flags(r->list[i]) & TASYNC_CO_COMPLETED) {
			tasync_coroutine_release(r->list[i]);
		} else {
			r->list[kept++] = r->list[i];
		}
	}
	r->count = kept;
}

/* Waits until fewer than limit callbacks run (limit 0: until none).
 * Returns 0, or a wait's code with its error in *err. */
static int running_wait(tasync_runtime_t *rt, running_set *r, uint32_t limit, void **err)
{
	running_prune(r);
	while (r->count > 0 && (limit == 0 || r->count >= limit)) {
		tasync_awaitable_t **aws = safe_emalloc(r->count, sizeof(*aws), 0);
		for (uint32_t i = 0; i < r->count; i++) {
			aws[i] = tasync_coroutine_awaitable(r->list[i]);
		}
		int rc = tasync_await_any(rt, aws, r->count, NULL, err);
		efree(aws);
		if (rc < 0) {
			return rc;
		}
		running_prune(r);
	}
	return 0;
}

/* After a wait or a yield: false when the caller must stop (the coroutine
 * unwinds, or the error rc is thrown). */
static bool switch_done(tasync_runtime_t *rt, int rc, void *err)
{
	if (!async_after_switch()) {
		tasync_error_release(rt, err);
		return false;
	}
	if (rc != 0) {
		async_throw_error(rc, err);
		return false;
	}
	return true;
}

/* Waits for a free place when $concurrency bounds the callbacks. Returns
 * false when the caller must stop (an exception is thrown). */
static bool iterate_slot(tasync_runtime_t *rt, running_set *r, zend_long concurrency)
{
	if (concurrency <= 0) {
		return true;
	}
	void *err = NULL;
	int rc = running_wait(rt, r, (uint32_t) concurrency, &err);
	return switch_done(rt, rc, err);
}

/* One element: its callback's coroutine, then a yield so that it starts
 * before the next element is taken. Returns false when the caller must
 * stop (an exception is thrown). */
static bool iterate_one(tasync_runtime_t *rt, tasync_scope_t *scope, iterate_state *st, running_set *r,
	zval *value, zval *key)
{
	void *err = NULL;
	iterate_call *c = emalloc(sizeof(*c));
	c->state = st;
	st->refs++;
	ZVAL_COPY_DEREF(&c->value, value);
	ZVAL_COPY_DEREF(&c->key, key);
	tasync_coroutine_t *co = NULL;
	int rc = async_spawn_native(scope, call_entry, c, call_free, &co, &err);
	if (rc != 0) {
		async_throw_error(rc, err);
		return false;
	}
	if (r->count == r->size) {
		r->size = r->size ? r->size * 2 : 8;
		r->list = erealloc(r->list, sizeof(*r->list) * r->size);
	}
	r->list[r->count++] = co;
	rc = tasync_yield(rt, &err);
	return switch_done(rt, rc, err);
}

/* Walks iterable; false when an exception is thrown. */
static bool iterate_walk(tasync_runtime_t *rt, tasync_scope_t *scope, iterate_state *st, running_set *r,
	zval *iterable, zend_long concurrency)
{
	if (Z_TYPE_P(iterable) == IS_ARRAY) {
		/* A copy: the callbacks may change the caller's array. */
		zval copy;
		ZVAL_COPY(&copy, iterable);
		zend_string *skey;
		zend_ulong nkey;
		zval *value;
		bool ok = true;
		ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL(copy), nkey, skey, value) {
			if (st->stop || !(ok = iterate_slot(rt, r, concurrency)) || st->stop) {
				break;
			}
			zval key;
			if (skey != NULL) {
				ZVAL_STR_COPY(&key, skey);
			} else {
				ZVAL_LONG(&key, (zend_long) nkey);
			}
			ok = iterate_one(rt, scope, st, r, value, &key);
			zval_ptr_dtor(&key);
			if (!ok) {
				break;
			}
		} ZEND_HASH_FOREACH_END();
		zval_ptr_dtor(&copy);
		return ok;
	}
	zend_object_iterator *it = Z_OBJCE_P(iterable)->get_iterator(Z_OBJCE_P(iterable), iterable, 0);
	if (it == NULL || EG(exception)) {
		return false;
	}
	bool ok = true;
	if (it->funcs->rewind) {
		it->funcs->rewind(it);
	}
	/* The next element is taken only once a callback may start for it
	 * (a generator runs up to its next yield then). */
	for (bool first = true; ok && !EG(exception) && !st->stop; first = false) {
		if (!first) {
			if (!(ok = iterate_slot(rt, r, concurrency)) || st->stop) {
				break;
			}
			it->index++;
			it->funcs->move_forward(it);
			if (EG(exception)) {
				break;
			}
		} else if (!(ok = iterate_slot(rt, r, concurrency))) {
			break;
		}
		if (it->funcs->valid(it) != SUCCESS || EG(exception)) {
			break;
		}
		zval *value = it->funcs->get_current_data(it);
		if (EG(exception) || value == NULL) {
			break;
		}
		zval key;
		if (it->funcs->get_current_key) {
			it->funcs->get_current_key(it, &key);
		} else {
			ZVAL_LONG(&key, (zend_long) it->index);
		}
		if (EG(exception)) {
			zval_ptr_dtor(&key);
			break;
		}
		zval v;
		ZVAL_COPY_DEREF(&v, value);
		ok = iterate_one(rt, scope, st, r, &v, &key);
		zval_ptr_dtor(&v);
		zval_ptr_dtor(&key);
	}
	zend_iterator_dtor(it);
	return ok && !EG(exception);
}

PHP_FUNCTION(Async_iterate)
{
	zval *iterable;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long concurrency = 0;
	bool cancel_pending = true;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(concurrency)
		Z_PARAM_BOOL(cancel_pending)
	ZEND_PARSE_PARAMETERS_END();
	if (concurrency < 0 || concurrency > UINT32_MAX) {
		zend_argument_value_error(3, "must be between 0 and %u", (unsigned) UINT32_MAX);
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_scope_t *scope = NULL;
	void *err = NULL;
	int rc = tasync_scope_create(rt, tasync_scope_current(rt), &scope, &err);
	if (rc != 0) {
		async_throw_error(rc, err);
		RETURN_THROWS();
	}
	iterate_state *st = ecalloc(1, sizeof(*st));
	st->refs = 1;
	ZVAL_COPY(&st->callback, &fci.function_name);
	running_set r = { NULL, 0, 0 };

	bool walked = iterate_walk(rt, scope, st, &r, iterable, concurrency);
	/* The callbacks end first; an exception of one (now or while the
	 * others run) cancels the rest when cancelPending says so. */
	bool cancelled = false;
	while (walked) {
		running_prune(&r);
		if (st->error != NULL && cancel_pending && !cancelled) {
			tasync_scope_cancel(scope, NULL);
			async_safe_point();
			cancelled = true;
		}
		if (r.count == 0) {
			break;
		}
		rc = running_wait(rt, &r, r.count, &err);
		if (!async_after_switch()) {
			tasync_error_release(rt, err);
			walked = false;
		} else if (rc != 0) {
			async_throw_error(rc, err);
			walked = false;
		}
	}
	if (walked) {
		/* Then what they spawned: cancelled (once what is queued started)
		 * and awaited, or awaited. */
		if (cancel_pending) {
			rc = cancelled ? 0 : tasync_yield(rt, &err);
			tasync_scope_cancel(scope, NULL);
			if (rc == 0 && async_after_switch()) {
				rc = tasync_scope_await_after_cancellation(rt, scope, NULL, NULL, NULL, &err);
			}
		} else {
			rc = tasync_scope_await_completion(rt, scope, NULL, &err);
		}
		if (!async_after_switch()) {
			tasync_error_release(rt, err);
		} else if (rc != 0 && st->error == NULL) {
			async_throw_error(rc, err);
		} else {
			tasync_error_release(rt, err);
		}
	} else {
		/* The caller is cancelled or the walk failed: the callbacks and
		 * what they spawned are cancelled with it. */
		tasync_scope_cancel(scope, NULL);
	}
	if (st->error != NULL && !EG(exception)) {
		zend_object *ex = st->error;
		st->error = NULL;
		zval zv;
		ZVAL_OBJ(&zv, ex);
		zend_throw_exception_object(&zv);
	}
	for (uint32_t i = 0; i < r.count; i++) {
		tasync_coroutine_release(r.list[i]);
	}
	if (r.list != NULL) {
		efree(r.list);
	}
	state_unref(st);
	tasync_scope_release(scope);
	async_safe_point();
}
