/*
 * io/hooks.c - the table of hooked PHP functions (rule C18): every hook
 * family replaces the handlers of the functions it takes over through
 * async_io_hook() at MINIT (or at RINIT for extensions loaded later), and
 * the module puts PHP's handlers back at MSHUTDOWN.
 */
#include "io/hooks.h"

typedef struct io_hook {
	const char *name;
	zif_handler original;
	zif_handler replacement;
} io_hook;

#define IO_HOOK_MAX 128
static io_hook io_hooks[IO_HOOK_MAX];
static uint32_t io_hook_count;

zif_handler async_io_hook(const char *name, zif_handler handler)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || io_hook_count == IO_HOOK_MAX) {
		return NULL;
	}
	io_hook *h = &io_hooks[io_hook_count++];
	h->name = name;
	h->original = fn->internal_function.handler;
	h->replacement = handler;
	fn->internal_function.handler = handler;
	return h->original;
}

/*
 * Functions that PHP declares as implementation aliases of a hooked one
 * (gzclose() is fclose()'s handler under another name) get the hook too:
 * their callers must not bypass it. Run after every hook is in place.
 */
void async_io_hook_aliases(void)
{
	uint32_t hooked = io_hook_count;
	for (uint32_t i = 0; i < hooked; i++) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), io_hooks[i].name, strlen(io_hooks[i].name));
		bool first = true;
		for (uint32_t k = 0; k < i && first; k++) {
			first = strcmp(io_hooks[k].name, io_hooks[i].name) != 0;
		}
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || !first) {
			continue; /* a second hook of the same function chains to the first */
		}
		zend_string *key;
		zend_function *other;
		ZEND_HASH_MAP_FOREACH_STR_KEY_PTR(CG(function_table), key, other) {
			if (other != fn && other->type == ZEND_INTERNAL_FUNCTION && key != NULL
					&& other->internal_function.handler == io_hooks[i].original && io_hook_count < IO_HOOK_MAX) {
				io_hook *h = &io_hooks[io_hook_count++];
				h->name = ZSTR_VAL(key); /* interned, lives as long as the function */
				h->original = other->internal_function.handler;
				h->replacement = fn->internal_function.handler;
				other->internal_function.handler = h->replacement;
			}
		} ZEND_HASH_FOREACH_END();
	}
}

void async_io_unhook_all(void)
{
	while (io_hook_count > 0) {
		io_hook *h = &io_hooks[--io_hook_count];
		/* Looked up again: disable_functions may have removed it since. */
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), h->name, strlen(h->name));
		if (fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == h->replacement) {
			fn->internal_function.handler = h->original;
		}
	}
}
