/*
 * io/pdo.h - what io/pdo.c (rule C24 for PDO statements, PDO's
 * constructor) offers the other PDO file, io/pdo_pool.c.
 */
#ifndef ASYNC_IO_PDO_H
#define ASYNC_IO_PDO_H

#include "php.h"

/* After a PDO call failed with an exception in a coroutine whose
 * cancellation was requested: the coroutine ends with the cancellation
 * (the PDOException as its previous). */
void async_io_pdo_deliver_cancellation(void);

#endif /* ASYNC_IO_PDO_H */
