dnl config.m4 for async_pgsql: the PECL way to build it,
dnl `phpize && ./configure && make && make install`, against an installed
dnl tasync core (pkg-config tasync) and libpq (pkg-config libpq, else
dnl pg_config). Load it beside async.so: extension=async_pgsql
PHP_ARG_ENABLE([async-pgsql],
  [whether to enable cooperative PostgreSQL in coroutines],
  [AS_HELP_STRING([--enable-async-pgsql], [Make pg_* and PDO pgsql cooperative in tasync coroutines])],
  [yes])

if test "$PHP_ASYNC_PGSQL" != "no"; then
  PKG_CHECK_MODULES([TASYNC], [tasync >= 0.1.0], [],
    [AC_MSG_ERROR([libtasync not found: install the tasync core (meson install) or set PKG_CONFIG_PATH])])
  PHP_EVAL_INCLINE([$TASYNC_CFLAGS])
  PHP_EVAL_LIBLINE([$TASYNC_LIBS], [ASYNC_PGSQL_SHARED_LIBADD])

  PKG_CHECK_MODULES([LIBPQ], [libpq >= 10], [], [
    AC_PATH_PROG([PG_CONFIG], [pg_config], [no])
    if test "$PG_CONFIG" = "no"; then
      AC_MSG_ERROR([libpq not found: install libpq-dev])
    fi
    LIBPQ_CFLAGS="-I`$PG_CONFIG --includedir`"
    LIBPQ_LIBS="-L`$PG_CONFIG --libdir` -lpq"
  ])
  PHP_EVAL_INCLINE([$LIBPQ_CFLAGS])
  PHP_EVAL_LIBLINE([$LIBPQ_LIBS], [ASYNC_PGSQL_SHARED_LIBADD])
  PHP_SUBST([ASYNC_PGSQL_SHARED_LIBADD])

  PHP_NEW_EXTENSION([async_pgsql],
    [module.c conn.c layout.c pgsql_connect.c pgsql_query.c pgsql_send.c pgsql_copy.c pdo.c],
    [$ext_shared],, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_ADD_EXTENSION_DEP([async_pgsql], [pgsql], [true])
  PHP_ADD_EXTENSION_DEP([async_pgsql], [pdo], [true])
fi
