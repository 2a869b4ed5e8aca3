/*
 * io/filesystems.h - which filesystem a file is on (io/filesystems.c), for
 * async.file_offload.
 */
#ifndef ASYNC_IO_FILESYSTEMS_H
#define ASYNC_IO_FILESYSTEMS_H

#include "runtime/globals.h"
#include <sys/types.h>

/* What a file's filesystem makes its calls wait for. */
typedef enum async_io_fs_class {
	ASYNC_IO_FS_MEMORY = 0,   /* nothing: always inline */
	ASYNC_IO_FS_LOCAL,        /* a local disk: uncached data goes to the backend */
	ASYNC_IO_FS_REMOTE,       /* a server or daemon: everything goes to the backend */
} async_io_fs_class;

/* The class of the filesystem of path (absolute or relative to the working
 * directory) or of device dev, with async.file_offload applied. */
async_io_fs_class async_io_fs_of_path(const char *path);
async_io_fs_class async_io_fs_of_dev(dev_t dev);

#endif /* ASYNC_IO_FILESYSTEMS_H */
