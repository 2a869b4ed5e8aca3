/*
 * api/channel.c - Async\Channel over the core's channels (channel.h; rule
 * T1): rendezvous or buffered, fair lines of senders and receivers with
 * what is handed over reserved for its waiter, cancellation that loses
 * nothing, close() with a reason (ChannelException::$reason, made by the
 * error factory, api/exceptions.c), recvAsync() as a Future, foreach.
 *
 * sendAsync() never waits. On a buffered channel it is the core's
 * try_send. On a rendezvous channel a value may also wait for a receiver
 * without its sender waiting, as one parked value (count() 1): the
 * operation of tasync_channel_send_async stands in line for it, held by
 * the Channel object until a receiver takes it.
 */
#include "api/channel.h"

#include "api/awaitable.h"
#include "api/exceptions.h"
#include "api/future.h"
#include "api/item_iterator.h"
#include "runtime/globals.h"
#include "runtime/host.h"
#include "runtime/runtime.h"

#include "zend_interfaces.h"
#include "stubs/channel_arginfo.h"

zend_class_entry *async_ce_channel;
static zend_object_handlers channel_handlers;

static zend_object *channel_create(zend_class_entry *ce)
{
	async_channel *c = zend_object_alloc(sizeof(async_channel), ce);
	c->ch = NULL;
	c->parked = NULL;
	c->parked_count = c->parked_size = 0;
	zend_object_std_init(&c->std, ce);
	object_properties_init(&c->std, ce);
	c->std.handlers = &channel_handlers;
	return &c->std;
}

/* Drops the parked sends that ended (taken, or failed by a close). */
static void channel_prune(async_channel *c)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < c->parked_count; i++) {
		if (tasync_awaitable_is_completed(c->parked[i])) {
			tasync_awaitable_release(c->parked[i]);
		} else {
			c->parked[kept++] = c->parked[i];
		}
	}
	c->parked_count = kept;
}

static void channel_free(zend_object *obj)
{
	async_channel *c = async_channel_from_obj(obj);
	/* Pending parked sends are withdrawn with their last reference; the
	 * last reference to the channel closes it as disposed (T1). */
	for (uint32_t i = 0; i < c->parked_count; i++) {
		tasync_awaitable_release(c->parked[i]);
	}
	if (c->parked != NULL) {
		efree(c->parked);
		c->parked = NULL;
	}
	c->parked_count = c->parked_size = 0;
	tasync_channel_release(c->ch);
	c->ch = NULL;
	async_flush_releases();
	zend_object_std_dtor(obj);
}

/* The channel of $this, or NULL with an exception thrown. */
static tasync_channel_t *this_channel(zval *this_zv)
{
	async_channel *c = async_channel_from_obj(Z_OBJ_P(this_zv));
	if (c->ch == NULL || ASYNC_G(rt) == NULL) {
		zend_throw_exception(async_ce_async_exception, "The channel belongs to a runtime that no longer exists", 0);
		return NULL;
	}
	return c->ch;
}

/* A capacity or a timeout of the constructor (argument arg_num); false with
 * a ValueError thrown when out of range. */
static bool channel_limit(uint32_t arg_num, zend_long v)
{
	if (v < 0 || v > INT32_MAX) {
		zend_argument_value_error(arg_num, "must be between 0 and %d", INT32_MAX);
		return false;
	}
	return true;
}

ZEND_METHOD(Async_Channel, __construct)
{
	zend_long capacity = 0, no_producer = 0, no_consumer = 0;
	bool hard = false;
	ZEND_PARSE_PARAMETERS_START(0, 4)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(capacity)
		Z_PARAM_LONG(no_producer)
		Z_PARAM_LONG(no_consumer)
		Z_PARAM_BOOL(hard)
	ZEND_PARSE_PARAMETERS_END();
	async_channel *c = async_channel_from_obj(Z_OBJ_P(ZEND_THIS));
	if (c->ch != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	if (!channel_limit(1, capacity) || !channel_limit(2, no_producer) || !channel_limit(3, no_consumer)) {
		RETURN_THROWS();
	}
	tasync_runtime_t *rt = async_runtime();
	if (rt == NULL) {
		RETURN_THROWS();
	}
	tasync_channel_options_t opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.flags = hard ? TASYNC_CHANNEL_HARD_TIMEOUTS : 0;
	opts.capacity = (uint64_t) capacity;
	opts.no_producer_timeout_ns = (uint64_t) no_producer * 1000000u;
	opts.no_consumer_timeout_ns = (uint64_t) no_consumer * 1000000u;
	int rc = tasync_channel_create(rt, &opts, &c->ch);
	if (rc != 0) {
		c->ch = NULL;
		async_throw_error(rc, NULL);
	}
}

ZEND_METHOD(Async_Channel, send)
{
	zval *value;
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	tasync_channel_t *ch = this_channel(ZEND_THIS);
	tasync_awaitable_t *cancellation;
	tasync_runtime_t *rt = ch != NULL ? async_runtime() : NULL;
	if (rt == NULL || !async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	/* The caller may drop the objects while it waits. */
	zend_object *self = Z_OBJ_P(ZEND_THIS);
	GC_ADDREF(self);
	if (cancel_obj != NULL) {
		GC_ADDREF(cancel_obj);
	}
	void *box = async_value_box(value);
	void *err = NULL;
	int rc = tasync_channel_send(rt, ch, box, cancellation, 0, &err);
	tasync_value_release(rt, box);
	OBJ_RELEASE(self);
	if (cancel_obj != NULL) {
		OBJ_RELEASE(cancel_obj);
	}
	async_switch_done(rc, err);
}

ZEND_METHOD(Async_Channel, sendAsync)
{
	zval *value;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();
	tasync_channel_t *ch = this_channel(ZEND_THIS);
	if (ch == NULL) {
		RETURN_THROWS();
	}
	async_channel *c = async_channel_from_obj(Z_OBJ_P(ZEND_THIS));
	void *box = async_value_box(value);
	int rc = tasync_channel_try_send(ch, box);
	if (rc == -EAGAIN && tasync_channel_capacity(ch) == 0) {
		/* A rendezvous channel holds one value nobody waits to receive
		 * yet, when no other sender waits (see the top of the file). */
		tasync_channel_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		channel_prune(c);
		if (tasync_channel_info(ch, &info) == 0 && info.senders == 0) {
			tasync_awaitable_t *op = NULL;
			rc = tasync_channel_send_async(ch, box, &op);
			if (rc == 0 && tasync_awaitable_is_completed(op)) {
				void *v = NULL, *e = NULL;
				rc = tasync_awaitable_outcome(op, &v, &e) == 0 ? 0 : TASYNC_ECHANNEL_CLOSED;
				tasync_awaitable_release(op);
			} else if (rc == 0) {
				if (c->parked_count == c->parked_size) {
					c->parked_size = c->parked_size ? c->parked_size * 2 : 4;
					c->parked = erealloc(c->parked, sizeof(*c->parked) * c->parked_size);
				}
				c->parked[c->parked_count++] = op;
			}
		}
	}
	tasync_value_release(ASYNC_G(rt), box);
	async_safe_point();
	RETURN_BOOL(rc == 0);
}

/* recv() and the iterator: 0 and the value in *out, or the core's code
 * and its error in *out_err. */
static int channel_recv(zval *this_zv, tasync_channel_t *ch, tasync_awaitable_t *cancellation, zend_object *cancel_obj,
	zval *out, void **out_err)
{
	tasync_runtime_t *rt = ASYNC_G(rt);
	zend_object *self = Z_OBJ_P(this_zv);
	GC_ADDREF(self);
	if (cancel_obj != NULL) {
		GC_ADDREF(cancel_obj);
	}
	void *value = NULL;
	int rc = tasync_channel_recv(rt, ch, cancellation, 0, &value, out_err);
	OBJ_RELEASE(self);
	if (cancel_obj != NULL) {
		OBJ_RELEASE(cancel_obj);
	}
	if (rc == 0) {
		async_value_unbox(value, out);
	}
	tasync_value_release(rt, value);
	return rc;
}

ZEND_METHOD(Async_Channel, recv)
{
	zend_object *cancel_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancel_obj, async_ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	tasync_channel_t *ch = this_channel(ZEND_THIS);
	tasync_awaitable_t *cancellation;
	if (ch == NULL || async_runtime() == NULL || !async_cancellation_of(cancel_obj, &cancellation)) {
		RETURN_THROWS();
	}
	void *err = NULL;
	int rc = channel_recv(ZEND_THIS, ch, cancellation, cancel_obj, return_value, &err);
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		RETURN_THROWS();
	}
	if (rc != 0) {
		async_throw_error(rc, err);
	}
}

ZEND_METHOD(Async_Channel, recvAsync)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_channel_t *ch = this_channel(ZEND_THIS);
	if (ch == NULL) {
		RETURN_THROWS();
	}
	tasync_awaitable_t *op = NULL;
	int rc = tasync_channel_recv_async(ch, &op);
	async_safe_point();
	if (rc != 0) {
		async_throw_error(rc, NULL);
		RETURN_THROWS();
	}
	/* The Future does not keep the channel: when the channel's last
	 * reference goes, the pending receive fails as DISPOSED (T1). */
	RETURN_OBJ(async_future_create(op, ASYNC_FUTURE_CHANNEL_OP, NULL));
}

ZEND_METHOD(Async_Channel, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tasync_channel_t *ch = this_channel(ZEND_THIS);
	if (ch == NULL) {
		RETURN_THROWS();
	}
	/* Closed already: nothing (the first reason stays). */
	tasync_channel_close(ch, TASYNC_CHANNEL_CLOSED_EXPLICIT);
	channel_prune(async_channel_from_obj(Z_OBJ_P(ZEND_THIS)));
	async_safe_point();
}

ZEND_METHOD(Async_Channel, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel *c = async_channel_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_BOOL(c->ch == NULL || tasync_channel_close_reason(c->ch) != TASYNC_CHANNEL_OPEN);
}

ZEND_METHOD(Async_Channel, capacity)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel *c = async_channel_from_obj(Z_OBJ_P(ZEND_THIS));
	RETURN_LONG(c->ch != NULL ? (zend_long) tasync_channel_capacity(c->ch) : 0);
}

/* The values the channel holds (see count() in the stub). */
static zend_long channel_held(async_channel *c)
{
	if (c->ch == NULL) {
		return 0;
	}
	if (tasync_channel_capacity(c->ch) > 0) {
		return (zend_long) tasync_channel_count(c->ch);
	}
	tasync_channel_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	return tasync_channel_info(c->ch, &info) == 0 && info.senders > 0 ? 1 : 0;
}

ZEND_METHOD(Async_Channel, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(channel_held(async_channel_from_obj(Z_OBJ_P(ZEND_THIS))));
}

ZEND_METHOD(Async_Channel, isEmpty)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(channel_held(async_channel_from_obj(Z_OBJ_P(ZEND_THIS))) == 0);
}

ZEND_METHOD(Async_Channel, isFull)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel *c = async_channel_from_obj(Z_OBJ_P(ZEND_THIS));
	zend_long capacity = c->ch != NULL ? (zend_long) tasync_channel_capacity(c->ch) : 0;
	RETURN_BOOL(channel_held(c) >= (capacity > 0 ? capacity : 1));
}

ZEND_METHOD(Async_Channel, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* ------------------------------------------------------------ iterator */

/* foreach ($channel as $i => $value): receives until the channel is
 * closed and empty; the keys count from 0. */
static zend_result channel_fetch(async_item_iterator *ci)
{
	zval *object = &ci->it.data;
	tasync_channel_t *ch = this_channel(object);
	if (ch == NULL) {
		return FAILURE;
	}
	void *err = NULL;
	zval value;
	ZVAL_UNDEF(&value);
	int rc = channel_recv(object, ch, NULL, NULL, &value, &err);
	if (!async_after_switch()) {
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		zval_ptr_dtor(&value);
		return FAILURE;
	}
	if (rc == TASYNC_ECHANNEL_CLOSED) {
		/* Closed and drained: the end of the iteration. */
		if (err != NULL) {
			OBJ_RELEASE((zend_object *) err);
		}
		return FAILURE;
	}
	if (rc != 0) {
		async_throw_error(rc, err);
		return FAILURE;
	}
	ZVAL_COPY_VALUE(&ci->current, &value);
	return SUCCESS;
}

/* A channel cannot go back: after a rewind the next value is the first. */
static const async_item_iterator_kind channel_items = {
	.fetch = channel_fetch,
	.by_ref_message = "Cannot iterate channel by reference",
	.position_key = true,
	.rewinds = false,
};

static zend_object_iterator *channel_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	(void) ce;
	return async_item_iterator_create(&channel_items, object, by_ref);
}

void async_register_channel_class(void)
{
	async_ce_channel = register_class_Async_Channel(async_ce_awaitable, zend_ce_aggregate, zend_ce_countable);
	async_ce_channel->create_object = channel_create;
	async_ce_channel->get_iterator = channel_get_iterator;
	memcpy(&channel_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	channel_handlers.offset = XtOffsetOf(async_channel, std);
	channel_handlers.free_obj = channel_free;
	channel_handlers.clone_obj = NULL;
}
