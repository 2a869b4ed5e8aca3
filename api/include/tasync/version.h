/*
 * tasync/version.h - the one header that owns the version numbers: the
 * project's release (TASYNC_VERSION_*) and the ABI's (TASYNC_ABI_VERSION_*).
 * meson.build, the library's file version, the pkg-config file and the PHP
 * extension's version all read them from here.
 *
 * ABI rules (docs/rules.md, "The ABI and its versions"):
 *  - The major version changes only when an existing struct, table or function
 *    changes incompatibly. A core refuses a backend of another major version.
 *  - The minor version grows when something is appended: a member at the end
 *    of a table or struct, a new function, a new enum value at the end.
 *    A newer core loads an older backend (missing optional members are absent)
 *    and an older core loads a newer backend (it ignores the tail it does not
 *    know), because every table starts with its size.
 */
#ifndef TASYNC_VERSION_H
#define TASYNC_VERSION_H

#include <stdint.h>

/*
 * The release of the project these headers belong to (the core library, its
 * backends and the PHP extension share it), as numbers and as a string such
 * as "0.1.0". It says nothing about compatibility: the ABI numbers below do.
 * Since: ABI 1.2.
 */
#define TASYNC_VERSION_MAJOR 0
#define TASYNC_VERSION_MINOR 1
#define TASYNC_VERSION_PATCH 0
#define TASYNC_VERSION_STR_(x) #x
#define TASYNC_VERSION_XSTR_(x) TASYNC_VERSION_STR_(x)
#define TASYNC_VERSION_STRING                                                                                  \
    TASYNC_VERSION_XSTR_(TASYNC_VERSION_MAJOR)                                                                  \
    "." TASYNC_VERSION_XSTR_(TASYNC_VERSION_MINOR) "." TASYNC_VERSION_XSTR_(TASYNC_VERSION_PATCH)

#define TASYNC_ABI_VERSION_MAJOR 1
#define TASYNC_ABI_VERSION_MINOR 3

/* Packs a major/minor pair into one integer: major in the high 16 bits. */
#define TASYNC_ABI_MAKE(major, minor) ((uint32_t)(((uint32_t)(major) << 16) | ((uint32_t)(minor) & 0xffffu)))
#define TASYNC_ABI_MAJOR_OF(v) ((uint32_t)(v) >> 16)
#define TASYNC_ABI_MINOR_OF(v) ((uint32_t)(v) & 0xffffu)

/* The ABI version these headers describe. */
#define TASYNC_ABI_VERSION TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR)

/* Symbol visibility. The core builds with -fvisibility=hidden and defines
 * TASYNC_BUILDING_CORE; everything it exports is marked TASYNC_API. */
#if defined(_WIN32)
#  if defined(TASYNC_BUILDING_CORE)
#    define TASYNC_API __declspec(dllexport)
#  else
#    define TASYNC_API __declspec(dllimport)
#  endif
#  define TASYNC_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#  define TASYNC_API __attribute__((visibility("default")))
#  define TASYNC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#  define TASYNC_API
#  define TASYNC_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
#  define TASYNC_EXTERN_C_BEGIN extern "C" {
#  define TASYNC_EXTERN_C_END }
#else
#  define TASYNC_EXTERN_C_BEGIN
#  define TASYNC_EXTERN_C_END
#endif

TASYNC_EXTERN_C_BEGIN

/*
 * Returns the ABI version of the loaded core library (TASYNC_ABI_MAKE form),
 * which may be newer than the headers a caller was compiled with.
 * Thread-safe. Since: ABI 1.0.
 */
TASYNC_API uint32_t tasync_core_abi_version(void);

/*
 * Returns the core library's release string, e.g. "0.1.0": the
 * TASYNC_VERSION_STRING the library was built with, which may differ from the
 * one a caller was compiled with. The pointer is static. Thread-safe. Since: ABI 1.0.
 */
TASYNC_API const char *tasync_core_version_string(void);

TASYNC_EXTERN_C_END

#endif /* TASYNC_VERSION_H */
