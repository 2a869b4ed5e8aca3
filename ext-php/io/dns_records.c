/*
 * io/dns_records.c - DNS record queries inside coroutines (rule C18):
 * dns_get_record(), dns_check_record() (checkdnsrr()) and dns_get_mx()
 * (getmxrr()) run each query on the runtime's thread pool (tasync_offload)
 * while the calling coroutine waits; the others run meanwhile.
 *
 * The worker thread runs only libc's reentrant resolver (res_ninit,
 * res_nsearch, res_nclose on a res_state of its own, as PHP's code does on
 * its stack) into a buffer the PHP thread prepared; the answer is parsed
 * and every zval built back on the PHP thread. The results are those of
 * ext/standard/dns.c (PHP 8.2, glibc): the same queries in the same order
 * (one per type of a DNS_* mask, DNS_ANY as one ANY query, the ANY query
 * for the authority and additional sections), the same keys in the same
 * order for every record type PHP knows (A, NS, CNAME, SOA, PTR, HINFO,
 * CAA, MX, TXT, A6, SRV, NAPTR, AAAA; raw mode), the same warnings for the
 * same failures. Invalid arguments go to PHP's own function, which reports
 * them before it queries anything.
 *
 * Cancellation (C18), as for the other calls on the pool: a query that has
 * started on the pool runs to its end (the resolver's own timeout bounds
 * it) and its answer is kept; a query not started is not, and the call
 * fails as a failed query does: dns_get_record() returns false with PHP's
 * warning "DNS Query failed" (also when it has more types to query after a
 * cancelled one), dns_check_record() and dns_get_mx() return false. The
 * cancellation is thrown at the next suspension point.
 */
#include "io/families.h"
#include "io/hooks.h"
#include "io/wait.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <resolv.h>
#include <stdlib.h>

/* PHP's DNS_* constants (ext/standard/dns.c). */
#define IO_DNS_A      0x00000001
#define IO_DNS_NS     0x00000002
#define IO_DNS_CNAME  0x00000010
#define IO_DNS_SOA    0x00000020
#define IO_DNS_PTR    0x00000800
#define IO_DNS_HINFO  0x00001000
#define IO_DNS_CAA    0x00002000
#define IO_DNS_MX     0x00004000
#define IO_DNS_TXT    0x00008000
#define IO_DNS_A6     0x01000000
#define IO_DNS_SRV    0x02000000
#define IO_DNS_NAPTR  0x04000000
#define IO_DNS_AAAA   0x08000000
#define IO_DNS_ANY    0x10000000
#define IO_DNS_ALL    (IO_DNS_A | IO_DNS_NS | IO_DNS_CNAME | IO_DNS_SOA | IO_DNS_PTR | IO_DNS_HINFO | IO_DNS_CAA \
	| IO_DNS_MX | IO_DNS_TXT | IO_DNS_A6 | IO_DNS_SRV | IO_DNS_NAPTR | IO_DNS_AAAA)

/* RR type numbers. */
enum {
	IO_T_A = 1, IO_T_NS = 2, IO_T_CNAME = 5, IO_T_SOA = 6, IO_T_PTR = 12, IO_T_HINFO = 13, IO_T_MX = 15,
	IO_T_TXT = 16, IO_T_AAAA = 28, IO_T_SRV = 33, IO_T_NAPTR = 35, IO_T_A6 = 38, IO_T_ANY = 255, IO_T_CAA = 257,
};

/* The queries of a DNS_* mask, in PHP's order. */
static const struct {
	zend_long mask;
	int type;
} io_dns_steps[] = {
	{ IO_DNS_A, IO_T_A }, { IO_DNS_NS, IO_T_NS }, { IO_DNS_CNAME, IO_T_CNAME }, { IO_DNS_SOA, IO_T_SOA },
	{ IO_DNS_PTR, IO_T_PTR }, { IO_DNS_HINFO, IO_T_HINFO }, { IO_DNS_MX, IO_T_MX }, { IO_DNS_TXT, IO_T_TXT },
	{ IO_DNS_AAAA, IO_T_AAAA }, { IO_DNS_SRV, IO_T_SRV }, { IO_DNS_NAPTR, IO_T_NAPTR }, { IO_DNS_A6, IO_T_A6 },
	{ IO_DNS_CAA, IO_T_CAA },
};
#define IO_DNS_STEPS ((int) (sizeof(io_dns_steps) / sizeof(io_dns_steps[0])))

#define IO_DNS_ANSWER_MAX 65536  /* PHP's answer buffer */
#define IO_DNS_NAME_MAX   1024   /* PHP's MAXHOSTNAMELEN for record names */

static zif_handler orig_dns_get_record, orig_dns_check_record, orig_dns_get_mx;

/* ------------------------------------------------------------- the query */

typedef struct io_dns_query {
	const char *name;        /* borrowed, NUL-terminated */
	int type;
	unsigned char *answer;   /* IO_DNS_ANSWER_MAX bytes, the PHP thread's */
	int len;                 /* res_nsearch's result */
	int h_errno_value;       /* the state's h_errno when len < 0 */
	bool init_failed;        /* res_ninit failed */
} io_dns_query;

/* On the worker thread: libc only. */
static void io_dns_query_work(void *data)
{
	io_dns_query *q = data;
	struct __res_state state;
	memset(&state, 0, sizeof(state));
	if (res_ninit(&state) != 0) {
		q->init_failed = true;
		return;
	}
	q->len = res_nsearch(&state, q->name, C_IN, q->type, q->answer, IO_DNS_ANSWER_MAX);
	q->h_errno_value = state.res_h_errno;
	res_nclose(&state);
}

/*
 * Runs one query, on the pool when the coroutine may wait (inline, as
 * PHP's own code does, where the runtime has no pool). ASYNC_IO_READY once
 * it ran; otherwise how the wait ended (C18).
 */
static async_io_status io_dns_run(io_dns_query *q, const char *name, int type, unsigned char *answer)
{
	memset(q, 0, sizeof(*q));
	q->name = name;
	q->type = type;
	q->answer = answer;
	async_io_status st = async_io_offload(io_dns_query_work, q);
	if (st == ASYNC_IO_UNSUPPORTED) {
		io_dns_query_work(q);
		st = ASYNC_IO_READY;
	}
	if (st == ASYNC_IO_READY && q->len > IO_DNS_ANSWER_MAX) {
		q->len = IO_DNS_ANSWER_MAX; /* a truncated TCP answer: what the buffer holds */
	}
	return st;
}

/* Whether a cancellation of co waits to be delivered (none held back by
 * protect()). */
static bool io_dns_cancel_pending(tasync_coroutine_t *co)
{
	uint32_t flags = tasync_coroutine_flags(co);
	return (flags & TASYNC_CO_CANCEL_REQUESTED) && !(flags & TASYNC_CO_PROTECTED);
}

static inline uint16_t io_get16(const unsigned char *p)
{
	return (uint16_t) ((p[0] << 8) | p[1]);
}

static inline uint32_t io_get32(const unsigned char *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

/* Skips the question section; NULL when it cannot be parsed. */
static const unsigned char *io_dns_skip_questions(const unsigned char *answer, const unsigned char *end)
{
	const unsigned char *cp = answer + HFIXEDSZ;
	for (int qd = io_get16(answer + 4); qd > 0; qd--) {
		int n = dn_skipname(cp, end);
		if (n < 0) {
			return NULL;
		}
		cp += n + QFIXEDSZ;
	}
	return cp;
}

/* ---------------------------------------------------------- the records */

/*
 * Appends an IPv6 address's groups in PHP's notation (its own, not
 * inet_ntop's: the first run of zero groups is the one shortened).
 * *have_break / *in_break carry the state of the shortening.
 */
static char *io_dns_v6_group(char *tp, const char *name, size_t size, uint16_t s, int *have_break, int *in_break)
{
	if (s != 0) {
		if (tp > name) {
			*in_break = 0;
			*tp++ = ':';
		}
		tp += snprintf(tp, size - (size_t) (tp - name), "%x", s);
	} else if (!*have_break) {
		*have_break = 1;
		*in_break = 1;
		*tp++ = ':';
	} else if (!*in_break) {
		*tp++ = ':';
		*tp++ = '0';
	}
	return tp;
}

/*
 * Parses the resource record at cp into *rec (an array, or UNDEF when it is
 * skipped: another type than type_to_fetch, !store, or a type PHP does not
 * know). Returns the position after it, or NULL when the rest of the
 * message cannot be parsed (*rec may then hold what was parsed, as PHP's).
 */
static const unsigned char *io_dns_parse_rr(const unsigned char *msg, const unsigned char *cp,
		const unsigned char *end, int type_to_fetch, bool store, bool raw, zval *rec)
{
	char name[IO_DNS_NAME_MAX];
	ZVAL_UNDEF(rec);

#define IO_NEED(k) do { if (cp + (k) > end) { return NULL; } } while (0)
#define IO_NAME() do { \
		int len_ = dn_expand(msg, end, cp, name, sizeof(name) - 2); \
		if (len_ < 0) { \
			return NULL; \
		} \
		cp += len_; \
	} while (0)

	IO_NAME();
	IO_NEED(10);
	uint16_t type = io_get16(cp);
	uint32_t ttl = io_get32(cp + 4);
	uint16_t dlen = io_get16(cp + 8);
	cp += 10;
	IO_NEED(dlen);
	if (dlen == 0) {
		return NULL; /* PHP stops at a record without data */
	}
	if ((type_to_fetch != IO_T_ANY && type != type_to_fetch) || !store) {
		return cp + dlen;
	}

	array_init(rec);
	add_assoc_string(rec, "host", name);
	add_assoc_string(rec, "class", "IN");
	add_assoc_long(rec, "ttl", (zend_long) ttl);
	if (raw) {
		add_assoc_long(rec, "type", type);
		add_assoc_stringl(rec, "data", (const char *) cp, dlen);
		return cp + dlen;
	}

	const unsigned char *start = cp;
	int have_break = 0, in_break = 0;
	switch (type) {
		case IO_T_A:
			IO_NEED(4);
			add_assoc_string(rec, "type", "A");
			snprintf(name, sizeof(name), "%d.%d.%d.%d", cp[0], cp[1], cp[2], cp[3]);
			add_assoc_string(rec, "ip", name);
			cp += dlen;
			break;
		case IO_T_MX:
		case IO_T_CNAME:
		case IO_T_NS:
		case IO_T_PTR:
			if (type == IO_T_MX) {
				IO_NEED(2);
				add_assoc_string(rec, "type", "MX");
				add_assoc_long(rec, "pri", io_get16(cp));
				cp += 2;
			} else {
				add_assoc_string(rec, "type", type == IO_T_CNAME ? "CNAME" : type == IO_T_NS ? "NS" : "PTR");
			}
			IO_NAME();
			add_assoc_string(rec, "target", name);
			break;
		case IO_T_HINFO:
			add_assoc_string(rec, "type", "HINFO");
			for (int i = 0; i < 2; i++) {
				IO_NEED(1);
				size_t n = *cp++;
				IO_NEED(n);
				add_assoc_stringl(rec, i == 0 ? "cpu" : "os", (const char *) cp, n);
				cp += n;
			}
			break;
		case IO_T_CAA: {
			add_assoc_string(rec, "type", "CAA");
			IO_NEED(1);
			add_assoc_long(rec, "flags", *cp);
			cp++;
			IO_NEED(1);
			size_t n = *cp++;
			IO_NEED(n);
			add_assoc_stringl(rec, "tag", (const char *) cp, n);
			cp += n;
			if ((size_t) dlen < n + 2) {
				return NULL;
			}
			n = dlen - n - 2;
			IO_NEED(n);
			add_assoc_stringl(rec, "value", (const char *) cp, n);
			cp += n;
			break;
		}
		case IO_T_TXT: {
			/* Every character-string: joined in "txt", the non-empty ones
			 * in "entries"; a length past the data is cut to the data. */
			add_assoc_string(rec, "type", "TXT");
			zend_string *txt = zend_string_alloc(dlen, 0);
			zval entries;
			array_init(&entries);
			size_t at = 0, out = 0;
			while (at < dlen) {
				size_t n = cp[at];
				if (at + n >= dlen) {
					n = dlen - (at + 1);
				}
				if (n) {
					memcpy(ZSTR_VAL(txt) + out, cp + at + 1, n);
					add_next_index_stringl(&entries, (const char *) cp + at + 1, n);
				}
				at += n + 1;
				out += n;
			}
			ZSTR_VAL(txt)[out] = '\0';
			ZSTR_LEN(txt) = out;
			cp += dlen;
			add_assoc_str(rec, "txt", txt);
			add_assoc_zval(rec, "entries", &entries);
			break;
		}
		case IO_T_SOA: {
			static const char *const fields[] = { "serial", "refresh", "retry", "expire", "minimum-ttl" };
			add_assoc_string(rec, "type", "SOA");
			IO_NAME();
			add_assoc_string(rec, "mname", name);
			IO_NAME();
			add_assoc_string(rec, "rname", name);
			IO_NEED(5 * 4);
			for (int i = 0; i < 5; i++) {
				add_assoc_long(rec, fields[i], (zend_long) io_get32(cp));
				cp += 4;
			}
			break;
		}
		case IO_T_AAAA: {
			char *tp = name;
			IO_NEED(8 * 2);
			for (int i = 0; i < 8; i++) {
				tp = io_dns_v6_group(tp, name, sizeof(name), io_get16(cp), &have_break, &in_break);
				cp += 2;
			}
			if (have_break && in_break) {
				*tp++ = ':';
			}
			*tp = '\0';
			add_assoc_string(rec, "type", "AAAA");
			add_assoc_string(rec, "ipv6", name);
			break;
		}
		case IO_T_A6: {
			add_assoc_string(rec, "type", "A6");
			IO_NEED(1);
			int masklen = *cp++;
			add_assoc_long(rec, "masklen", masklen);
			char *tp = name;
			if (masklen > 15) {
				have_break = 1;
				in_break = 1;
				*tp++ = ':';
			}
			if (masklen % 16 > 8) {
				/* The partial group: PHP writes it without moving on, so
				 * what follows overwrites it. */
				IO_NEED(1);
				if (cp[0] != 0) {
					if (tp > name) {
						in_break = 0;
						*tp++ = ':';
					}
					snprintf(tp, sizeof(name) - (size_t) (tp - name), "%x", cp[0]);
				} else if (!have_break) {
					have_break = 1;
					in_break = 1;
					*tp++ = ':';
				} else if (!in_break) {
					*tp++ = ':';
					*tp++ = '0';
				}
				cp++;
			}
			for (int i = (masklen + 8) / 16; i < 8; i++) {
				IO_NEED(2);
				tp = io_dns_v6_group(tp, name, sizeof(name), io_get16(cp), &have_break, &in_break);
				cp += 2;
			}
			if (have_break && in_break) {
				*tp++ = ':';
			}
			*tp = '\0';
			add_assoc_string(rec, "ipv6", name);
			if (cp < start + dlen) {
				IO_NAME();
				add_assoc_string(rec, "chain", name);
			}
			break;
		}
		case IO_T_SRV:
			IO_NEED(3 * 2);
			add_assoc_string(rec, "type", "SRV");
			add_assoc_long(rec, "pri", io_get16(cp));
			add_assoc_long(rec, "weight", io_get16(cp + 2));
			add_assoc_long(rec, "port", io_get16(cp + 4));
			cp += 6;
			IO_NAME();
			add_assoc_string(rec, "target", name);
			break;
		case IO_T_NAPTR: {
			static const char *const fields[] = { "flags", "services", "regex" };
			IO_NEED(2 * 2);
			add_assoc_string(rec, "type", "NAPTR");
			add_assoc_long(rec, "order", io_get16(cp));
			add_assoc_long(rec, "pref", io_get16(cp + 2));
			cp += 4;
			for (int i = 0; i < 3; i++) {
				IO_NEED(1);
				size_t n = *cp++;
				IO_NEED(n);
				add_assoc_stringl(rec, fields[i], (const char *) cp, n);
				cp += n;
			}
			IO_NAME();
			add_assoc_string(rec, "replacement", name);
			break;
		}
		default:
			zval_ptr_dtor(rec);
			ZVAL_UNDEF(rec);
			cp += dlen;
			break;
	}
	return cp;
#undef IO_NEED
#undef IO_NAME
}

/* Parses count records from *cp on into list (when given); *cp becomes
 * NULL where the message cannot be parsed further. */
static void io_dns_parse_section(const unsigned char *msg, const unsigned char **cp, const unsigned char *end,
		int count, int type_to_fetch, bool store, bool raw, zval *list)
{
	while (count-- > 0 && *cp != NULL && *cp < end) {
		zval rec;
		*cp = io_dns_parse_rr(msg, *cp, end, type_to_fetch, store, raw, &rec);
		if (Z_TYPE(rec) != IS_UNDEF) {
			if (list != NULL) {
				add_next_index_zval(list, &rec);
			} else {
				zval_ptr_dtor(&rec);
			}
		}
	}
}

/* ------------------------------------------------------- dns_get_record */

/* dns_get_record(string $hostname, int $type = DNS_ANY, &$authoritative_name_servers = null,
 *                &$additional_records = null, bool $raw = false): array|false */
static ZEND_NAMED_FUNCTION(async_io_dns_get_record)
{
	zend_string *host;
	zend_long type_param = IO_DNS_ANY;
	zval *authns = NULL, *addtl = NULL;
	bool raw = false;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "S|lzzb", &host, &type_param,
				&authns, &addtl, &raw) == FAILURE
			|| zend_str_has_nul_byte(host)
			|| (!raw && (type_param & ~IO_DNS_ALL) && type_param != IO_DNS_ANY)
			|| (raw && (type_param < 1 || type_param > 0xFFFF))) {
		/* PHP's own function, and its errors for the arguments. */
		orig_dns_get_record(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (authns != NULL && (authns = zend_try_array_init(authns)) == NULL) {
		RETURN_THROWS();
	}
	if (addtl != NULL && (addtl = zend_try_array_init(addtl)) == NULL) {
		RETURN_THROWS();
	}

	array_init(return_value);
	unsigned char *answer = emalloc(IO_DNS_ANSWER_MAX);
	tasync_coroutine_t *co = async_io_coroutine();
	const bool cancel_seen = (tasync_coroutine_flags(co) & TASYNC_CO_CANCEL_REQUESTED) != 0;
	/*
	 * PHP's steps: raw mode queries the type asked for; DNS_ANY is one ANY
	 * query (step IO_DNS_STEPS + 1); a mask queries type by type. With
	 * $additional_records, one more ANY query whose answers are not kept
	 * (step IO_DNS_STEPS + 1 after step IO_DNS_STEPS turned storing off).
	 */
	int step = raw ? -1 : type_param == IO_DNS_ANY ? IO_DNS_STEPS + 1 : 0;
	const int last = addtl != NULL ? IO_DNS_STEPS + 2 : IO_DNS_STEPS;
	bool first = true, store = true, failed = false;
	for (; step < last || first; step++) {
		first = false;
		int type_to_fetch;
		if (step == -1) {
			type_to_fetch = (int) type_param;
			step = IO_DNS_STEPS - 1; /* then straight to the additional records */
		} else if (step < IO_DNS_STEPS) {
			type_to_fetch = (type_param & io_dns_steps[step].mask) ? io_dns_steps[step].type : 0;
		} else if (step == IO_DNS_STEPS) {
			store = false;
			continue;
		} else {
			type_to_fetch = IO_T_ANY;
		}
		if (type_to_fetch == 0) {
			continue;
		}

		io_dns_query q;
		async_io_status st;
		if (!cancel_seen && io_dns_cancel_pending(co)) {
			/* Cancelled while an earlier query ran (its answer came, the
			 * cancellation waits for the next suspension): no more queries.
			 * Not left to the offload, which may start the job before it
			 * sees the cancellation. */
			st = ASYNC_IO_CANCELLED;
		} else {
			st = io_dns_run(&q, ZSTR_VAL(host), type_to_fetch, answer);
		}
		if (st == ASYNC_IO_ABORTED) {
			efree(answer);
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			return;
		}
		if (st != ASYNC_IO_READY) {
			/* Cancelled (C18): a failed query. */
			php_error_docref(NULL, E_WARNING, "DNS Query failed");
			failed = true;
			break;
		}
		if (q.init_failed) {
			failed = true; /* PHP: false without a warning */
			break;
		}
		if (q.len < 0) {
			if (q.h_errno_value == NO_DATA || q.h_errno_value == HOST_NOT_FOUND) {
				continue; /* nothing of this type */
			}
			php_error_docref(NULL, E_WARNING, "%s", q.h_errno_value == NO_RECOVERY
				? "An unexpected server failure occurred."
				: q.h_errno_value == TRY_AGAIN ? "A temporary server error occurred." : "DNS Query failed");
			failed = true;
			break;
		}
		const unsigned char *end = answer + q.len;
		const unsigned char *cp = q.len >= HFIXEDSZ ? io_dns_skip_questions(answer, end) : NULL;
		if (cp == NULL) {
			php_error_docref(NULL, E_WARNING, "Unable to parse DNS data received");
			failed = true;
			break;
		}
		int an = io_get16(answer + 6), ns = io_get16(answer + 8), ar = io_get16(answer + 10);
		io_dns_parse_section(answer, &cp, end, an, type_to_fetch, store, raw, store ? return_value : NULL);
		if (authns != NULL || addtl != NULL) {
			/* Parsed also for $additional_records alone, to skip it. */
			io_dns_parse_section(answer, &cp, end, ns, IO_T_ANY, authns != NULL, raw, authns);
		}
		if (addtl != NULL) {
			io_dns_parse_section(answer, &cp, end, ar, IO_T_ANY, true, raw, addtl);
		}
	}
	efree(answer);
	if (failed) {
		zval_ptr_dtor(return_value);
		RETVAL_FALSE;
	}
}

/* ----------------------------------------------------- dns_check_record */

/* dns_check_record(string $hostname, string $type = "MX"): bool */
static ZEND_NAMED_FUNCTION(async_io_dns_check_record)
{
	static const struct {
		const char *name;
		int type;
	} types[] = {
		{ "A", IO_T_A }, { "NS", IO_T_NS }, { "MX", IO_T_MX }, { "PTR", IO_T_PTR }, { "ANY", IO_T_ANY },
		{ "SOA", IO_T_SOA }, { "CAA", IO_T_CAA }, { "TXT", IO_T_TXT }, { "CNAME", IO_T_CNAME },
		{ "AAAA", IO_T_AAAA }, { "SRV", IO_T_SRV }, { "NAPTR", IO_T_NAPTR }, { "A6", IO_T_A6 },
	};
	zend_string *host, *rectype = NULL;
	int type = IO_T_MX;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "S|S", &host, &rectype) == FAILURE
			|| ZSTR_LEN(host) == 0 || zend_str_has_nul_byte(host)) {
		orig_dns_check_record(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (rectype != NULL) {
		type = 0;
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
			if (ZSTR_LEN(rectype) == strlen(types[i].name) && strcasecmp(ZSTR_VAL(rectype), types[i].name) == 0) {
				type = types[i].type;
				break;
			}
		}
		if (type == 0) {
			orig_dns_check_record(INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
		}
	}
	unsigned char *answer = emalloc(IO_DNS_ANSWER_MAX);
	io_dns_query q;
	async_io_status st = io_dns_run(&q, ZSTR_VAL(host), type, answer);
	if (st == ASYNC_IO_ABORTED) {
		efree(answer);
		RETURN_THROWS();
	}
	/* Not found, failed or cancelled (C18): false; found: whether it
	 * answered anything. */
	RETVAL_BOOL(st == ASYNC_IO_READY && !q.init_failed && q.len >= HFIXEDSZ && io_get16(answer + 6) != 0);
	efree(answer);
}

/* ----------------------------------------------------------- dns_get_mx */

/* dns_get_mx(string $hostname, &$hosts, &$weights = null): bool */
static ZEND_NAMED_FUNCTION(async_io_dns_get_mx)
{
	zend_string *host;
	zval *mx_list, *weight_list = NULL;
	if (async_io_coroutine() == NULL
			|| zend_parse_parameters_ex(ZEND_PARSE_PARAMS_QUIET, ZEND_NUM_ARGS(), "Sz|z", &host, &mx_list,
				&weight_list) == FAILURE
			|| zend_str_has_nul_byte(host)) {
		orig_dns_get_mx(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if ((mx_list = zend_try_array_init(mx_list)) == NULL) {
		RETURN_THROWS();
	}
	if (weight_list != NULL && (weight_list = zend_try_array_init(weight_list)) == NULL) {
		RETURN_THROWS();
	}
	unsigned char *answer = emalloc(IO_DNS_ANSWER_MAX);
	io_dns_query q;
	async_io_status st = io_dns_run(&q, ZSTR_VAL(host), IO_T_MX, answer);
	if (st == ASYNC_IO_ABORTED) {
		efree(answer);
		RETURN_THROWS();
	}
	if (st != ASYNC_IO_READY || q.init_failed || q.len < HFIXEDSZ) {
		efree(answer); /* failed or cancelled (C18) */
		RETURN_FALSE;
	}
	const unsigned char *end = answer + q.len;
	const unsigned char *cp = io_dns_skip_questions(answer, end);
	if (cp == NULL) {
		efree(answer);
		RETURN_FALSE;
	}
	char name[IO_DNS_NAME_MAX];
	for (int count = io_get16(answer + 6); count > 0 && cp < end; count--) {
		int n = dn_skipname(cp, end);
		if (n < 0 || cp + n + 10 > end) {
			efree(answer);
			RETURN_FALSE;
		}
		cp += n;
		uint16_t type = io_get16(cp);
		uint16_t dlen = io_get16(cp + 8);
		cp += 10;
		if (type != IO_T_MX) {
			cp += dlen;
			continue;
		}
		if (cp + 2 > end) {
			efree(answer);
			RETURN_FALSE;
		}
		uint16_t weight = io_get16(cp);
		cp += 2;
		n = dn_expand(answer, end, cp, name, sizeof(name) - 1);
		if (n < 0) {
			efree(answer);
			RETURN_FALSE;
		}
		cp += n;
		add_next_index_string(mx_list, name);
		if (weight_list != NULL) {
			add_next_index_long(weight_list, weight);
		}
	}
	efree(answer);
	RETURN_BOOL(zend_hash_num_elements(Z_ARRVAL_P(mx_list)) != 0);
}

void async_io_dns_records_startup(void)
{
	/* checkdnsrr() and getmxrr() are their aliases (io/hooks.c). */
	orig_dns_get_record = async_io_hook("dns_get_record", async_io_dns_get_record);
	orig_dns_check_record = async_io_hook("dns_check_record", async_io_dns_check_record);
	orig_dns_get_mx = async_io_hook("dns_get_mx", async_io_dns_get_mx);
}
