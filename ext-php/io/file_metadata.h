/*
 * io/file_metadata.h - plain files by name (io/file_metadata.c): what
 * file_contents.c asks of it, the opens of FIFOs.
 */
#ifndef ASYNC_IO_FILE_METADATA_H
#define ASYNC_IO_FILE_METADATA_H

#include "runtime/globals.h"

/*
 * Before opening plain-file name in mode inside a coroutine: 1 when it is a
 * FIFO whose open would block, once it no longer would (a writer waits for
 * a reader); out then holds the mode to open it with (non-blocking), and
 * async_io_fifo_opened() must follow a successful open. 0: open it as PHP
 * does. -1: the wait was cancelled (report it with async_io_fifo_failed())
 * or an exception is pending.
 */
int async_io_fifo_prepare(const char *name, const char *mode, char *out, size_t outlen);
void async_io_fifo_opened(php_stream *stream, const char *mode);
void async_io_fifo_failed(const char *name);

#endif /* ASYNC_IO_FILE_METADATA_H */
