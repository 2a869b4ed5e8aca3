/*
 * api/channel.h - Async\Channel and its iterator (api/channel.c, rule T1).
 */
#ifndef ASYNC_API_CHANNEL_H
#define ASYNC_API_CHANNEL_H

#include "runtime/globals.h"

extern zend_class_entry *async_ce_channel;

typedef struct async_channel {
	tasync_channel_t *ch;            /* one reference */
	/* sendAsync() on a rendezvous channel: the operations whose value
	 * waits for a receiver (one reference each), pruned as they end. */
	tasync_awaitable_t **parked;
	uint32_t parked_count;
	uint32_t parked_size;
	zend_object std;
} async_channel;

static inline async_channel *async_channel_from_obj(zend_object *obj)
{
	return (async_channel *) ((char *) obj - XtOffsetOf(async_channel, std));
}

void async_register_channel_class(void);

#endif /* ASYNC_API_CHANNEL_H */
