/*
 * io/families.h - the lifecycle of every hook family of rule C18: what
 * the module (async.c) calls at MINIT, RINIT, RSHUTDOWN and MSHUTDOWN, in
 * the order it lists them. Each family hooks its functions through
 * io/hooks.h; nothing but the module calls these.
 */
#ifndef ASYNC_IO_FAMILIES_H
#define ASYNC_IO_FAMILIES_H

#include "php.h"

void async_io_sleep_startup(void);                /* sleep.c */
void async_io_socket_transport_startup(void);          /* socket_transport.c: transports, connect, accept */
void async_io_socket_transport_shutdown(void);
void async_io_socket_streams_startup(void);       /* socket_streams.c: fread, fclose */
void async_io_select_startup(void);               /* select.c: stream_select */
void async_io_dns_startup(void);                  /* dns.c */
void async_io_dns_records_startup(void);          /* dns_records.c */
void async_io_file_contents_startup(void);        /* file_contents.c */
void async_io_stdio_startup(void);                /* stdio.c: PHP's stdio ops patched */
void async_io_stdio_request_shutdown(void);
void async_io_stdio_shutdown(void);
void async_io_file_metadata_startup(void);        /* file_metadata.c */
void async_io_file_metadata_shutdown(void);
void async_io_filesystems_shutdown(void);         /* filesystems.c */
void async_io_processes_startup(void);            /* processes.c: popen, exec, proc_close */
void async_io_processes_request_shutdown(void);
void async_io_proc_open_startup(void);            /* proc_open.c */
void async_io_proc_open_request_shutdown(void);
/* ext/sockets (ext_sockets.c), ext/mysqli (mysqli.c) and ext/pdo (pdo.c):
 * at MINIT and at every RINIT until the extension is found (dl()). */
void async_io_ext_sockets_startup(void);
void async_io_ext_sockets_shutdown(void);
void async_io_mysqli_startup(void);
void async_io_mysqli_shutdown(void);
void async_io_pdo_startup(void);                  /* rule C24 for PDO statements' result sets */
void async_io_pdo_request_shutdown(void);
#ifdef ASYNC_HAVE_CURL
/* After ext/curl's MINIT (async's optional dependency on curl). */
void async_io_curl_startup(void);                 /* curl.c */
/* Before the runtime goes: multi handles forget the runtime. */
void async_io_curl_request_shutdown(void);        /* curl_driver.c */
#endif

#endif /* ASYNC_IO_FAMILIES_H */
