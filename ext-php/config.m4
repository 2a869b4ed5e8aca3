dnl config.m4 for the async extension: the PECL/PIE way to build it,
dnl `phpize && ./configure && make && make install`, against an installed
dnl tasync core found with pkg-config (tasync.pc, installed by the core).
PHP_ARG_ENABLE([async],
  [whether to enable True Async support],
  [AS_HELP_STRING([--enable-async], [Enable True Async support (needs libtasync)])],
  [yes])

if test "$PHP_ASYNC" != "no"; then
  PKG_CHECK_MODULES([TASYNC], [tasync >= 0.1.0], [],
    [AC_MSG_ERROR([libtasync not found: install the tasync core (meson install) or set PKG_CONFIG_PATH])])
  PHP_EVAL_INCLINE([$TASYNC_CFLAGS])
  PHP_EVAL_LIBLINE([$TASYNC_LIBS], [ASYNC_SHARED_LIBADD])
  PHP_SUBST([ASYNC_SHARED_LIBADD])
  AC_DEFINE([HAVE_ASYNC], [1], [Whether True Async is enabled])
  dnl ext/curl inside coroutines needs libcurl's headers only (io/curl.c
  dnl finds libcurl's functions in the library PHP's curl loaded).
  ASYNC_CURL_SOURCES=""
  ASYNC_CURL_FLAGS=""
  PKG_CHECK_MODULES([CURL], [libcurl], [
    PHP_EVAL_INCLINE([$CURL_CFLAGS])
    ASYNC_CURL_SOURCES="io/curl.c io/curl_driver.c"
    ASYNC_CURL_FLAGS="-DASYNC_HAVE_CURL=1"
  ], [AC_MSG_NOTICE([libcurl headers not found: curl is not taken over])])
  PHP_NEW_EXTENSION([async],
    [async.c api/await_many.c api/awaitable.c api/channel.c api/context.c api/coroutine.c api/exceptions.c api/functions.c api/future.c api/group.c api/item_iterator.c api/iterate.c api/pool.c api/scope.c api/scope_holds.c api/spawn.c api/task_set.c api/timeout.c io/busy.c io/dns.c io/dns_records.c io/ext_sockets.c io/file_contents.c io/file_metadata.c io/file_streams.c io/filesystems.c io/hooks.c io/mysqli.c io/pdo.c io/pdo_pool.c io/poll.c io/proc_open.c io/processes.c io/select.c io/sleep.c io/socket_streams.c io/socket_transport.c io/stdio.c io/tls.c io/wait.c runtime/exit_hook.c runtime/fibers.c runtime/host.c runtime/request.c runtime/runtime.c runtime/signal.c runtime/stall.c $ASYNC_CURL_SOURCES],
    [$ext_shared],, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 $ASYNC_CURL_FLAGS])
  dnl The sources live in folders by concern (docs/architecture.md); their
  dnl objects go to the same folders of the build directory.
  PHP_ADD_BUILD_DIR([$ext_builddir/api $ext_builddir/io $ext_builddir/runtime])
fi
