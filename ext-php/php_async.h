/*
 * php_async.h - the module header of the PHP extension "async": True Async
 * on stock PHP 8.2+, mapped onto the tasync C ABI (api/include/tasync).
 *
 * Only the module (async.c) and PHP's build (a static build lists
 * phpext_async_ptr) include it: the wings below it (api/, io/, runtime/)
 * include their own small headers, so that imports run one way
 * (tools/check_includes.py). The semantic rules (docs/rules.md) live in the
 * core; this extension maps PHP values, classes and the Zend executor onto
 * it.
 */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include "php.h"

#include <tasync/version.h>

/* The extension is released with the core: its version is the one of the
 * tasync headers it is built against (tasync/version.h owns it). */
#define PHP_ASYNC_VERSION TASYNC_VERSION_STRING

extern zend_module_entry async_module_entry;
#define phpext_async_ptr &async_module_entry

#endif /* PHP_ASYNC_H */
