/*
 * api/item_iterator.c - the zend_object_iterator of the objects a coroutine
 * iterates by waiting for each next item (api/item_iterator.h): valid()
 * fetches (and may suspend) once per item, current() and key() read what
 * was fetched, next() drops it.
 */
#include "api/item_iterator.h"

static void item_clear(async_item_iterator *ii)
{
	zval_ptr_dtor(&ii->current);
	zval_ptr_dtor(&ii->key);
	ZVAL_UNDEF(&ii->current);
	ZVAL_UNDEF(&ii->key);
	ii->fetched = false;
}

static void item_dtor(zend_object_iterator *it)
{
	item_clear((async_item_iterator *) it);
	zval_ptr_dtor(&it->data);
}

static int item_valid(zend_object_iterator *it)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	if (ii->fetched) {
		return SUCCESS;
	}
	if (ii->kind->fetch(ii) != SUCCESS) {
		return FAILURE;
	}
	ii->fetched = true;
	return SUCCESS;
}

static zval *item_get_current_data(zend_object_iterator *it)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	return ii->fetched ? &ii->current : &EG(uninitialized_zval);
}

static void item_get_current_key(zend_object_iterator *it, zval *key)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	if (ii->kind->position_key) {
		ZVAL_LONG(key, (zend_long) ii->position);
	} else if (ii->fetched) {
		ZVAL_COPY(key, &ii->key);
	} else {
		ZVAL_NULL(key);
	}
}

static void item_move_forward(zend_object_iterator *it)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	item_clear(ii);
	ii->position++;
}

static void item_rewind(zend_object_iterator *it)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	if (ii->kind->rewinds) {
		item_clear(ii);
		ii->position = 0;
	}
}

static HashTable *item_get_gc(zend_object_iterator *it, zval **table, int *n)
{
	async_item_iterator *ii = (async_item_iterator *) it;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &it->data);
	zend_get_gc_buffer_add_zval(buf, &ii->current);
	zend_get_gc_buffer_add_zval(buf, &ii->key);
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

static const zend_object_iterator_funcs item_iterator_funcs = {
	.dtor = item_dtor,
	.valid = item_valid,
	.get_current_data = item_get_current_data,
	.get_current_key = item_get_current_key,
	.move_forward = item_move_forward,
	.rewind = item_rewind,
	.invalidate_current = NULL,
	.get_gc = item_get_gc,
};

zend_object_iterator *async_item_iterator_create(const async_item_iterator_kind *kind, zval *object, int by_ref)
{
	if (by_ref) {
		zend_throw_error(NULL, "%s", kind->by_ref_message);
		return NULL;
	}
	async_item_iterator *ii = emalloc(sizeof(*ii));
	zend_iterator_init(&ii->it);
	ZVAL_OBJ_COPY(&ii->it.data, Z_OBJ_P(object));
	ii->it.funcs = &item_iterator_funcs;
	ii->kind = kind;
	ii->position = 0;
	ii->fetched = false;
	ZVAL_UNDEF(&ii->current);
	ZVAL_UNDEF(&ii->key);
	return &ii->it;
}
