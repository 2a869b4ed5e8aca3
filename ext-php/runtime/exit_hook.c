/*
 * runtime/exit_hook.c - the hook that turns exit()/die() into graceful
 * shutdown (rule C15): the ZEND_EXIT opcode up to PHP 8.3, the exit()
 * function from PHP 8.4 on.
 */
#include "runtime/exit_hook.h"

#include "api/exceptions.h"
#include "runtime/globals.h"

/*
 * exit()/die() anywhere, in a coroutine or the main flow, starts graceful
 * shutdown (rule C15): every coroutine is cancelled with a CancellationError
 * and may run its finally blocks (the one that exits unwinds as PHP's exit
 * does, without them); the program then ends with exit()'s status. Called
 * before PHP unwinds the caller.
 */
static void async_exit_called(void)
{
	if (ASYNC_G(rt) != NULL) {
		zend_object *why = async_error_create(TASYNC_ERROR_CANCELLATION, -ECANCELED,
			"Graceful shutdown: exit() was called");
		tasync_runtime_shutdown(ASYNC_G(rt), why);
		OBJ_RELEASE(why);
	}
}

#if PHP_VERSION_ID < 80400
/* exit/die is the ZEND_EXIT opcode up to PHP 8.3. */
static user_opcode_handler_t previous_exit_handler;

static int async_exit_handler(zend_execute_data *execute_data)
{
	async_exit_called();
	return previous_exit_handler ? previous_exit_handler(execute_data) : ZEND_USER_OPCODE_DISPATCH;
}

void async_exit_hook_startup(void)
{
	previous_exit_handler = zend_get_user_opcode_handler(ZEND_EXIT);
	zend_set_user_opcode_handler(ZEND_EXIT, async_exit_handler);
}

void async_exit_hook_shutdown(void)
{
	zend_set_user_opcode_handler(ZEND_EXIT, previous_exit_handler);
}
#else
/* PHP 8.4 made exit() a function: wrap it. */
static zif_handler original_exit;

static ZEND_NAMED_FUNCTION(async_exit)
{
	async_exit_called();
	original_exit(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async_exit_hook_startup(void)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), "exit", sizeof("exit") - 1);
	if (fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION) {
		original_exit = fn->internal_function.handler;
		fn->internal_function.handler = async_exit;
	}
}

void async_exit_hook_shutdown(void)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), "exit", sizeof("exit") - 1);
	if (fn != NULL && original_exit != NULL) {
		fn->internal_function.handler = original_exit;
	}
}
#endif
