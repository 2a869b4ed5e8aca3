/*
 * api/item_iterator.h - foreach over an object that suspends the iterating
 * coroutine for its next item (api/item_iterator.c): Channel, TaskGroup and
 * TaskSet share the iterator and give only how the next item is fetched.
 */
#ifndef ASYNC_API_ITEM_ITERATOR_H
#define ASYNC_API_ITEM_ITERATOR_H

#include "runtime/globals.h"

typedef struct async_item_iterator async_item_iterator;

typedef struct async_item_iterator_kind {
	/* Waits for the next item and stores it in it->current (and it->key,
	 * unless position_key): SUCCESS with an item, FAILURE at the end or
	 * with an exception thrown (current and key left undefined). */
	zend_result (*fetch)(async_item_iterator *it);
	/* The error thrown by foreach by reference. */
	const char *by_ref_message;
	/* The key is the item's position (0, 1, ...), not it->key. */
	bool position_key;
	/* rewind() starts again at position 0; otherwise the iteration goes on
	 * from what is left (delivered items are gone). */
	bool rewinds;
} async_item_iterator_kind;

struct async_item_iterator {
	zend_object_iterator it;         /* it.data: the object iterated */
	const async_item_iterator_kind *kind;
	zend_ulong position;             /* items moved past since the start */
	bool fetched;                    /* current (and key) hold an item */
	zval current;
	zval key;
};

/* The get_iterator handler's body for kind: NULL with an Error thrown
 * for foreach by reference. */
zend_object_iterator *async_item_iterator_create(const async_item_iterator_kind *kind, zval *object, int by_ref);

#endif /* ASYNC_API_ITEM_ITERATOR_H */
