/*
 * layout.c - the private layouts of ext/pgsql and pdo_pgsql this plugin
 * relies on, and the self-check that guards them.
 *
 * PHP installs neither ext/pgsql's php_pgsql.h nor pdo_pgsql's
 * php_pdo_pgsql_int.h, so the structs of async_pgsql.h copy them, as
 * read from php-src's PHP-8.2 branch (ext/pgsql/pgsql.c and php_pgsql.h:
 * pgsql_link_handle, pgsql_result_handle, pgLofp, zend_pgsql_globals;
 * ext/pdo_pgsql/php_pdo_pgsql_int.h: pdo_pgsql_db_handle, pdo_pgsql_stmt).
 * The header refuses to compile for another PHP minor version. Because a
 * patch release could still change them, what the copies give is compared
 * with what ext/pgsql and pdo_pgsql themselves report before the plugin
 * uses them, once per process:
 *
 *  - MINIT: ext/pgsql's module globals have the size of our copy;
 *  - first cooperative call: the object handlers of PgSql\Connection,
 *    PgSql\Result and PgSql\Lob place zend_object where our copies do
 *    (zend_object_handlers.offset is ext/pgsql's own XtOffsetOf);
 *  - first cooperative pg_connect: PGG(default_link) and PGG(connections)
 *    hold the link ext/pgsql just made, and PQdb() of our link's PGconn is
 *    what pg_dbname() reports;
 *  - first cooperative PDO connection (pdo.c): pdo_pgsql's own attribute
 *    and error methods read and write the fields of a handle we filled
 *    where our copy has them.
 *
 * A mismatch disables the plugin with one warning that says which check
 * failed: every hook then runs PHP's own handler (blocking, but correct).
 * async_pgsql.layout_fault (test-only) simulates a mismatch, so that a
 * phpt proves the check works.
 */
#include "async_pgsql.h"

zend_class_entry *apg_link_ce, *apg_result_ce, *apg_lob_ce;
static zend_module_entry *apg_pgsql_module;
static bool apg_pgsql_objects_checked, apg_pgsql_link_checked;

static zend_class_entry *apg_find_class(const char *lcname)
{
	return zend_hash_str_find_ptr(CG(class_table), lcname, strlen(lcname));
}

void apg_layout_startup(void)
{
	apg_pgsql_module = zend_hash_str_find_ptr(&module_registry, "pgsql", sizeof("pgsql") - 1);
	if (apg_pgsql_module == NULL) {
		return;
	}
	apg_link_ce = apg_find_class("pgsql\\connection");
	apg_result_ce = apg_find_class("pgsql\\result");
	apg_lob_ce = apg_find_class("pgsql\\lob");
	if (apg_link_ce == NULL || apg_result_ce == NULL || apg_lob_ce == NULL) {
		apg_link_ce = apg_result_ce = apg_lob_ce = NULL;
		return;
	}
	if (apg_pgsql_module->globals_size != sizeof(apg_pgsql_globals)) {
		/* Not in a request yet: the warning comes at the first use. */
		APG_G(disabled) = true;
	}
}

apg_pgsql_globals *apg_pgsql_globals_ptr(void)
{
#ifdef ZTS
	return (apg_pgsql_globals *) ZEND_TSRMG_BULK(*apg_pgsql_module->globals_id_ptr);
#else
	return (apg_pgsql_globals *) apg_pgsql_module->globals_ptr;
#endif
}

/* zend_object's offset in objects of ce, as ce's own handlers say. */
static int apg_object_offset(zend_class_entry *ce)
{
	zval zv;
	if (object_init_ex(&zv, ce) != SUCCESS) {
		return -1;
	}
	int offset = Z_OBJ(zv)->handlers->offset;
	zval_ptr_dtor(&zv);
	return offset;
}

bool apg_layout_verify_pgsql(void)
{
	if (APG_G(disabled)) {
		if (apg_pgsql_module != NULL && apg_pgsql_module->globals_size != sizeof(apg_pgsql_globals)) {
			apg_disable("ext/pgsql's module globals do not have the size this build was made for");
		}
		return false;
	}
	if (apg_pgsql_objects_checked || apg_link_ce == NULL) {
		return true;
	}
	apg_pgsql_objects_checked = true;
	int link_expected = (int) XtOffsetOf(apg_link, std) + (APG_G(layout_fault) == 1 ? 8 : 0);
	if (apg_object_offset(apg_link_ce) != link_expected) {
		apg_disable("PgSql\\Connection objects do not have the layout this build was made for");
		return false;
	}
	if (apg_object_offset(apg_result_ce) != (int) XtOffsetOf(apg_result, std)) {
		apg_disable("PgSql\\Result objects do not have the layout this build was made for");
		return false;
	}
	if (apg_object_offset(apg_lob_ce) != (int) XtOffsetOf(apg_lob, std)) {
		apg_disable("PgSql\\Lob objects do not have the layout this build was made for");
		return false;
	}
	zval probe;
	if (object_init_ex(&probe, apg_link_ce) == SUCCESS) {
		apg_pgsql_hook_link_free(Z_OBJ(probe));
		zval_ptr_dtor(&probe);
	}
	return true;
}

/* pg_dbname($link) through ext/pgsql itself. */
static bool apg_pgsql_dbname(zend_object *link, zval *out)
{
	zval fname, arg;
	ZVAL_STRING(&fname, "pg_dbname");
	ZVAL_OBJ(&arg, link);
	bool ok = call_user_function(NULL, NULL, &fname, out, 1, &arg) == SUCCESS && Z_TYPE_P(out) == IS_STRING;
	zval_ptr_dtor(&fname);
	return ok;
}

bool apg_layout_verify_pgsql_link(zend_object *obj)
{
	if (apg_pgsql_link_checked) {
		return !APG_G(disabled);
	}
	apg_pgsql_link_checked = true;
	apg_link *link = apg_link_from_obj(obj);
	apg_pgsql_globals *g = apg_pgsql_globals_ptr();
	if (g->default_link != obj) {
		apg_disable("ext/pgsql's default link is not where this build expects it");
		return false;
	}
	zval *found = link->hash != NULL ? zend_hash_find(&g->connections, link->hash) : NULL;
	if (found == NULL || Z_TYPE_P(found) != IS_OBJECT || Z_OBJ_P(found) != obj) {
		apg_disable("ext/pgsql's table of connections is not where this build expects it");
		return false;
	}
	zval dbname;
	ZVAL_UNDEF(&dbname);
	bool same = apg_pgsql_dbname(obj, &dbname) && link->conn != NULL
		&& strcmp(Z_STRVAL(dbname), PQdb(link->conn) != NULL ? PQdb(link->conn) : "") == 0;
	zval_ptr_dtor(&dbname);
	if (!same) {
		apg_disable("PQdb() of the connection this build finds in a PgSql\\Connection differs from pg_dbname()");
		return false;
	}
	return true;
}
