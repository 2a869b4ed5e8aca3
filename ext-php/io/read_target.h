/*
 * io/read_target.h - where a read of a stream lands, across a suspension
 * (used by the read ops of io/socket_streams.c, io/stdio.c and
 * io/file_streams.c).
 */
#ifndef ASYNC_IO_READ_TARGET_H
#define ASYNC_IO_READ_TARGET_H

#include "php.h"

/*
 * Where a read lands. The stream layer passes a pointer into the stream's
 * own read buffer (php_stream_fill_read_buffer; socket and stdio streams both use this); another coroutine reading
 * the same stream while this one waits may move or grow that buffer, so
 * after a wait the read goes to the buffer's current free space and
 * advances writepos itself (the caller then adds 0).
 */
typedef struct async_io_target {
	php_stream *stream;
	char *buf;
	size_t count;
	bool in_readbuf;
	bool moved;
	unsigned char *readbuf;
	size_t readbuflen;
	zend_off_t writepos;
} async_io_target;

static inline void async_io_target_init(async_io_target *t, php_stream *stream, char *buf, size_t count)
{
	t->stream = stream;
	t->buf = buf;
	t->count = count;
	t->moved = false;
	t->readbuf = stream->readbuf;
	t->readbuflen = stream->readbuflen;
	t->writepos = stream->writepos;
	t->in_readbuf = stream->readbuf != NULL && (unsigned char *) buf >= stream->readbuf
		&& (unsigned char *) buf < stream->readbuf + stream->readbuflen;
}

static inline void async_io_target_refresh(async_io_target *t)
{
	php_stream *s = t->stream;
	if (!t->in_readbuf || (s->readbuf == t->readbuf && s->readbuflen == t->readbuflen && s->writepos == t->writepos)) {
		return;
	}
	t->moved = true;
	t->readbuf = s->readbuf;
	t->readbuflen = s->readbuflen;
	t->writepos = s->writepos;
	t->buf = (char *) s->readbuf + s->writepos;
	t->count = s->readbuflen > (size_t) s->writepos ? s->readbuflen - (size_t) s->writepos : 0;
}

static inline ssize_t async_io_target_result(async_io_target *t, ssize_t n)
{
	if (t->moved && n > 0) {
		t->stream->writepos += n;
		return 0;
	}
	return n;
}

#endif /* ASYNC_IO_READ_TARGET_H */
