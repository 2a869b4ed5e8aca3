dnl config.m4 of fdwait, the smallest extension that waits cooperatively
dnl through the tasync ABI: `phpize && ./configure && make` against an
dnl installed tasync, found with pkg-config (PKG_CONFIG_PATH names
dnl <prefix>/lib/<multiarch>/pkgconfig when the prefix is not a default one).
PHP_ARG_ENABLE([fdwait],
  [whether to enable fdwait],
  [AS_HELP_STRING([--enable-fdwait], [Enable fdwait_read(), a socket read that suspends only its coroutine])],
  [yes])

if test "$PHP_FDWAIT" != "no"; then
  dnl ABI 1.2: tasync_coroutine_suspendable and tasync_wait_end.
  PKG_CHECK_MODULES([TASYNC], [tasync], [], [
    AC_MSG_ERROR([tasync.pc not found: meson install tasync, then set PKG_CONFIG_PATH to its pkgconfig directory])])
  AC_MSG_CHECKING([for tasync ABI 1.2 or newer])
  tasync_abi_minor=`$PKG_CONFIG --variable=abi_minor tasync`
  if test "`$PKG_CONFIG --variable=abi_major tasync`" != "1" || test "$tasync_abi_minor" -lt 2; then
    AC_MSG_ERROR([fdwait needs tasync ABI 1.2 or newer, pkg-config says 1.$tasync_abi_minor])
  fi
  AC_MSG_RESULT([1.$tasync_abi_minor])
  PHP_EVAL_INCLINE([$TASYNC_CFLAGS])
  PHP_EVAL_LIBLINE([$TASYNC_LIBS], [FDWAIT_SHARED_LIBADD])
  PHP_SUBST([FDWAIT_SHARED_LIBADD])
  PHP_NEW_EXTENSION([fdwait], [fdwait.c], [$ext_shared])
fi
