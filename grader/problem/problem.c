/*
 * problem.c - load problem files with libyaml's document API.
 *
 * Every node of a libyaml document carries its start mark, so each error
 * can name file:line:column of the offending key or value.  The loader
 * checks everything the runner will rely on (types fit the C signature,
 * ranges are bounded, names are unique) so that a bad problem file is a
 * usage error (exit 2) before anything runs.
 *
 * A `cases:` entry is parsed and checked here into a case spec; casegen.c
 * turns the spec into test cases without looking at YAML again.
 */
#include "problem/problem.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "problem/casegen.h"

#define MAX_CASES_PER_PROBLEM 200000
#define MAX_ARRAY_LEN 1000000
#define MAX_ARRAY_INTS_PER_PROBLEM (1ull << 24) /* 64 MiB of int arrays over all of a problem's tests */

struct loader {
	const char *path;
	yaml_document_t doc;
	struct strbuf *err;
	struct problem *p;         /* the variant being loaded */
	size_t cases_alloc;
	unsigned long long array_ints; /* ints the variant's arrays hold so far */
	yaml_node_t *lang_groups;  /* languages.<lang>.groups: what differs per group, or NULL */
	const char *const *names;  /* the inputs' names of the function a case calls (expressions) */
	int ninputs;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;
	strbuf_addf(ld->err, "%s:%zu:%zu: ", ld->path,
		    node ? node->start_mark.line + 1 : 1,
		    node ? node->start_mark.column + 1 : 1);
	va_start(ap, fmt);
	strbuf_vaddf(ld->err, fmt, ap);
	va_end(ap);
	strbuf_addch(ld->err, '\n');
	return -1;
}

static const char *node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static int expect_type(struct loader *ld, const yaml_node_t *n, yaml_node_type_t t, const char *what)
{
	const char *want = t == YAML_SCALAR_NODE ? "a scalar" :
			   t == YAML_SEQUENCE_NODE ? "a list" : "a mapping";
	if (n->type != t)
		return fail(ld, n, "%s must be %s, not %s", what, want, node_kind(n));
	return 0;
}

static int get_string(struct loader *ld, const yaml_node_t *n, const char *what, char **out)
{
	if (expect_type(ld, n, YAML_SCALAR_NODE, what) < 0)
		return -1;
	free(*out);
	*out = xstrdup(scalar(n));
	return 0;
}

/* A plain YAML integer: optional sign, decimal digits, optional '_' separators. */
static int get_integer(struct loader *ld, const yaml_node_t *n, const char *what, long long *out)
{
	char buf[64];
	size_t k = 0;
	const char *s;
	char *end;

	if (expect_type(ld, n, YAML_SCALAR_NODE, what) < 0)
		return -1;
	s = scalar(n);
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return fail(ld, n, "%s must be an integer, not the string \"%s\"", what, s);
	if (strlen(s) >= sizeof(buf))
		return fail(ld, n, "%s '%.20s...' is too long to be a 64-bit integer", what, s);
	for (; *s && k < sizeof(buf) - 1; s++)
		if (*s != '_')
			buf[k++] = *s;
	buf[k] = '\0';
	if (!k || (!isdigit((unsigned char)buf[0]) && !(strchr("+-", buf[0]) && isdigit((unsigned char)buf[1]))))
		return fail(ld, n, "%s must be an integer, not '%s'", what, scalar(n));
	errno = 0;
	*out = strtoll(buf, &end, 10);
	if (*end)
		return fail(ld, n, "%s must be an integer, not '%s'", what, scalar(n));
	if (errno == ERANGE)
		return fail(ld, n, "%s '%s' does not fit in 64 bits", what, scalar(n));
	return 0;
}

static int get_unsigned(struct loader *ld, const yaml_node_t *n, const char *what,
			unsigned long long min, unsigned long long max, unsigned *out)
{
	long long v;
	if (get_integer(ld, n, what, &v) < 0)
		return -1;
	if (v < (long long)min || (unsigned long long)v > max)
		return fail(ld, n, "%s must be between %llu and %llu, not %lld", what, min, max, v);
	*out = (unsigned)v;
	return 0;
}

static int get_number(struct loader *ld, const yaml_node_t *n, const char *what, double *out)
{
	char *end;
	const char *s;
	if (expect_type(ld, n, YAML_SCALAR_NODE, what) < 0)
		return -1;
	s = scalar(n);
	/* plain decimal only: strtod would also take "inf", "nan" and hex */
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || strspn(s, "0123456789.") != strlen(s) || !*s)
		return fail(ld, n, "%s must be a non-negative decimal number, not '%s'", what, s);
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || *out < 0)
		return fail(ld, n, "%s must be a non-negative decimal number, not '%s'", what, s);
	return 0;
}

static int get_bool(struct loader *ld, const yaml_node_t *n, const char *what, long long *out)
{
	const char *s;
	if (expect_type(ld, n, YAML_SCALAR_NODE, what) < 0)
		return -1;
	s = scalar(n);
	if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
		*out = 0;
	else
		return fail(ld, n, "%s must be true or false, not '%s'", what, s);
	return 0;
}

/*
 * Walk a mapping.  For each key, find it in `keys` (NULL-terminated) and
 * store the value node in vals[i].  Unknown and duplicate keys are errors.
 */
static int read_mapping(struct loader *ld, yaml_node_t *map, const char *what,
			const char *const *keys, yaml_node_t **vals)
{
	int nkeys = 0;
	if (expect_type(ld, map, YAML_MAPPING_NODE, what) < 0)
		return -1;
	while (keys[nkeys])
		vals[nkeys++] = NULL;
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(&ld->doc, pr->value);
		int i;
		if (k->type != YAML_SCALAR_NODE)
			return fail(ld, k, "keys of %s must be plain names", what);
		for (i = 0; i < nkeys; i++)
			if (!strcmp(keys[i], scalar(k)))
				break;
		if (i == nkeys) {
			struct strbuf list = STRBUF_INIT;
			for (int j = 0; j < nkeys; j++)
				strbuf_addf(&list, "%s%s", j ? ", " : "", keys[j]);
			fail(ld, k, "unknown key '%s' in %s (expected one of: %s)", scalar(k), what, list.buf);
			strbuf_release(&list);
			return -1;
		}
		if (vals[i])
			return fail(ld, k, "duplicate key '%s' in %s", scalar(k), what);
		vals[i] = v;
	}
	return 0;
}

static int require(struct loader *ld, yaml_node_t *map, yaml_node_t *val, const char *key, const char *what)
{
	if (!val)
		return fail(ld, map, "%s is missing the required key '%s'", what, key);
	return 0;
}

static int load_limits(struct loader *ld, yaml_node_t *n, struct limits *lim, const char *what)
{
	static const char *const keys[] = { "cpu_ms", "cpu_factor", "cpu_floor_ms", "wall_ms",
					    "memory_mb", "output_kb", "startup_ms", "calibration_ms", NULL };
	yaml_node_t *v[9];
	if (read_mapping(ld, n, what, keys, v) < 0)
		return -1;
	if (v[6] && !strcmp(what, "group limits"))
		return fail(ld, v[6], "startup_ms is a problem's limit (its runner starts once for every group), "
			    "not a group's");
	if (v[6] && get_unsigned(ld, v[6], "startup_ms", 1, 600000, &lim->startup_ms) < 0)
		return -1;
	if (v[0] && v[1])
		return fail(ld, v[1], "give either cpu_ms (absolute) or cpu_factor (relative to the reference), not both");
	if (v[0] && v[2])
		return fail(ld, v[2], "cpu_floor_ms only applies with cpu_factor (relative limits), not with cpu_ms");
	/* a student pack's limits: cpu_ms as measured beside the calibration workload (calibrate.h) */
	if (v[7] && !v[0])
		return fail(ld, v[7], "calibration_ms only applies with cpu_ms (the limit it was measured beside)");
	if (v[7] && get_unsigned(ld, v[7], "calibration_ms", 1, 600000, &lim->calibration_ms) < 0)
		return -1;
	if ((v[0] && get_unsigned(ld, v[0], "cpu_ms", 1, 600000, &lim->cpu_ms) < 0) ||
	    (v[2] && get_unsigned(ld, v[2], "cpu_floor_ms", 1, 600000, &lim->cpu_floor_ms) < 0) ||
	    (v[3] && get_unsigned(ld, v[3], "wall_ms", 1, 3600000, &lim->wall_ms) < 0) ||
	    (v[4] && get_unsigned(ld, v[4], "memory_mb", 16, 65536, &lim->memory_mb) < 0) ||
	    (v[5] && get_unsigned(ld, v[5], "output_kb", 1, 1048576, &lim->output_kb) < 0))
		return -1;
	if (v[1]) {
		if (get_number(ld, v[1], "cpu_factor", &lim->cpu_factor) < 0)
			return -1;
		if (lim->cpu_factor < 1 || lim->cpu_factor > 1000)
			return fail(ld, v[1], "cpu_factor must be between 1 and 1000");
		lim->cpu_ms = 0;
	}
	if (v[0]) {
		lim->cpu_factor = 0;
		lim->cpu_floor_ms = 0;
		if (!v[7])
			lim->calibration_ms = 0;
	}
	return 0;
}

/* Fill unset fields of dst from src. */
static void inherit_limits(struct limits *dst, const struct limits *src)
{
	if (!dst->cpu_ms && !dst->cpu_factor) {
		dst->cpu_ms = src->cpu_ms;
		dst->cpu_factor = src->cpu_factor;
		dst->calibration_ms = src->calibration_ms;
	}
	if (dst->cpu_factor && !dst->cpu_floor_ms)
		dst->cpu_floor_ms = src->cpu_floor_ms;
	if (!dst->wall_ms)
		dst->wall_ms = src->wall_ms;
	if (!dst->memory_mb)
		dst->memory_mb = src->memory_mb;
	if (!dst->output_kb)
		dst->output_kb = src->output_kb;
}

/* ---- cases: parse one entry into a case spec, which casegen.c expands ---- */

static int read_pair(struct loader *ld, yaml_node_t *n, const char *what, long long *lo, long long *hi)
{
	yaml_node_t *a, *b;
	if (expect_type(ld, n, YAML_SEQUENCE_NODE, what) < 0)
		return -1;
	if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
		return fail(ld, n, "%s must be a list of two integers [low, high]", what);
	a = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[0]);
	b = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[1]);
	if (get_integer(ld, a, what, lo) < 0 || get_integer(ld, b, what, hi) < 0)
		return -1;
	if (*lo > *hi)
		return fail(ld, n, "%s: low %lld is above high %lld", what, *lo, *hi);
	return 0;
}

/* A bound: an integer, or an expression over the other inputs ("n - 1"); *e NULL for an integer. */
static int read_bound(struct loader *ld, yaml_node_t *n, const char *what, long long *k, struct expr **e)
{
	struct strbuf why = STRBUF_INIT;
	const char *s;
	int ret;
	*e = NULL;
	if (expect_type(ld, n, YAML_SCALAR_NODE, what) < 0)
		return -1;
	s = scalar(n);
	/* a plain number is an integer (get_integer's messages for "12x"); anything else, quoted or
	 * not, an expression */
	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && isdigit((unsigned char)s[strspn(s, "+-")]) &&
	    !strpbrk(s, " ()*/%") && !strchr(s + strspn(s, "+-"), '-') && !strchr(s + strspn(s, "+-"), '+'))
		return get_integer(ld, n, what, k);
	ret = expr_parse(s, ld->names, ld->ninputs, e, &why);
	if (ret < 0)
		fail(ld, n, "%s '%s': %s", what, s, why.buf);
	strbuf_release(&why);
	return ret;
}

/* [low, high] where each may be an expression; the order is checked when both are integers */
static int read_bound_pair(struct loader *ld, yaml_node_t *n, const char *what, long long *lo, struct expr **lo_e,
			   long long *hi, struct expr **hi_e)
{
	yaml_node_t *a, *b;
	if (expect_type(ld, n, YAML_SEQUENCE_NODE, what) < 0)
		return -1;
	if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
		return fail(ld, n, "%s must be a list of two bounds [low, high] (integers or expressions)", what);
	a = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[0]);
	b = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[1]);
	if (read_bound(ld, a, what, lo, lo_e) < 0 || read_bound(ld, b, what, hi, hi_e) < 0)
		return -1;
	if (!*lo_e && !*hi_e && *lo > *hi)
		return fail(ld, n, "%s: low %lld is above high %lld", what, *lo, *hi);
	return 0;
}

/* An array's elements' type; any other type's own */
static enum value_type element_type(enum value_type t)
{
	return t == VT_INT_ARRAY ? VT_INT : t == VT_LONG_ARRAY ? VT_LONG : t;
}

static int check_fits(struct loader *ld, yaml_node_t *n, enum value_type t, long long v, const char *what)
{
	if (!value_fits(t, v))
		return fail(ld, n, "%s %lld does not fit the parameter's type %s", what, v,
			    value_type_name(element_type(t)));
	return 0;
}

/* array: {length, values, sorted, distinct, xor} for a parameter of type t (node a; n the argument) */
static int parse_array_arg(struct loader *ld, yaml_node_t *n, yaml_node_t *a, enum value_type t, struct arg_spec *spec)
{
	static const char *const akeys[] = { "length", "values", "sorted", "distinct", "xor", NULL };
	yaml_node_t *av[5];
	long long flag;
	if (!value_type_is_array(t))
		return fail(ld, n, "array generates an array; this parameter is %s", value_type_name(t));
	if (read_mapping(ld, a, "array", akeys, av) < 0 ||
	    require(ld, a, av[0], "length", "array") < 0 ||
	    require(ld, a, av[1], "values", "array") < 0)
		return -1;
	/* length: [low, high], or one bound (an exact length, e.g. another argument) */
	if (av[0]->type == YAML_SCALAR_NODE) {
		if (read_bound(ld, av[0], "length", &spec->len_lo, &spec->len_lo_e) < 0)
			return -1;
		spec->len_hi = spec->len_lo;
		if (spec->len_lo_e)
			expr_parse(scalar(av[0]), ld->names, ld->ninputs, &spec->len_hi_e, ld->err);
	} else if (read_bound_pair(ld, av[0], "length", &spec->len_lo, &spec->len_lo_e, &spec->len_hi,
				   &spec->len_hi_e) < 0) {
		return -1;
	}
	if (read_bound_pair(ld, av[1], "values", &spec->lo, &spec->lo_e, &spec->hi, &spec->hi_e) < 0)
		return -1;
	if ((!spec->len_lo_e && spec->len_lo < 0) || (!spec->len_hi_e && spec->len_hi > MAX_ARRAY_LEN))
		return fail(ld, av[0], "array length must be between 0 and %d", MAX_ARRAY_LEN);
	if ((!spec->lo_e && check_fits(ld, av[1], t, spec->lo, "value") < 0) ||
	    (!spec->hi_e && check_fits(ld, av[1], t, spec->hi, "value") < 0))
		return -1;
	if (av[2] && get_bool(ld, av[2], "sorted", &flag) < 0)
		return -1;
	spec->sorted = av[2] && flag;
	if (av[3] && get_bool(ld, av[3], "distinct", &flag) < 0)
		return -1;
	spec->distinct = av[3] && flag;
	if (spec->distinct && !spec->lo_e && !spec->hi_e && !spec->len_lo_e &&
	    (unsigned long long)spec->len_lo > (unsigned long long)spec->hi - (unsigned long long)spec->lo + 1ULL)
		return fail(ld, av[3], "distinct: at least %lld different values are asked from the %llu of [%lld, %lld]",
			    spec->len_lo,
			    (unsigned long long)spec->hi - (unsigned long long)spec->lo + 1ULL, spec->lo,
			    spec->hi);
	if (av[4]) {
		if (get_integer(ld, av[4], "xor", &spec->xor_value) < 0)
			return -1;
		spec->has_xor = true;
		if (spec->distinct)
			return fail(ld, av[4], "xor and distinct cannot be combined (the last element completes the XOR)");
		if (spec->lo_e || spec->lo != 0)
			return fail(ld, av[1], "xor needs values from 0 (the element completing the XOR may be any of 0 .. high)");
		if (spec->xor_value < 0 || (!spec->hi_e && spec->xor_value > spec->hi))
			return fail(ld, av[4], "xor %lld is not among the values [0, %lld]", spec->xor_value,
				    spec->hi);
	}
	spec->kind = ARG_RANDOM_ARRAY;
	return 0;
}

/* One argument for a parameter of type t: a literal, or a generator (a mapping). */
static int parse_arg(struct loader *ld, yaml_node_t *n, enum value_type t, struct arg_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->type = t;
	spec->literal.type = t;
	if (n->type == YAML_MAPPING_NODE) {
		static const char *const keys[] = { "range", "random", "array", NULL };
		yaml_node_t *v[3];
		int given;
		if (read_mapping(ld, n, "a generated argument", keys, v) < 0)
			return -1;
		given = !!v[0] + !!v[1] + !!v[2];
		if (given != 1)
			return fail(ld, n, "a generated argument takes exactly one of range, random, array");
		if (v[0] || v[1]) {
			if (value_type_is_array(t) || t == VT_BOOL)
				return fail(ld, n, "range and random generate integers; this parameter is %s",
					    value_type_name(t));
			spec->kind = v[0] ? ARG_RANGE : ARG_RANDOM;
			if (v[0] && read_pair(ld, v[0], "range", &spec->lo, &spec->hi) < 0)
				return -1;
			if (v[1] && read_bound_pair(ld, v[1], "random", &spec->lo, &spec->lo_e, &spec->hi, &spec->hi_e) < 0)
				return -1;
			if ((!spec->lo_e && check_fits(ld, n, t, spec->lo, "value") < 0) ||
			    (!spec->hi_e && check_fits(ld, n, t, spec->hi, "value") < 0))
				return -1;
			if (spec->kind == ARG_RANGE && (unsigned long long)spec->hi - (unsigned long long)spec->lo >= MAX_CASES_PER_PROBLEM)
				return fail(ld, v[0], "range covers more than %d values", MAX_CASES_PER_PROBLEM);
			return 0;
		}
		return parse_array_arg(ld, n, v[2], t, spec);
	}
	spec->kind = ARG_LITERAL;
	if (value_type_is_array(t)) {
		size_t n_items;
		if (expect_type(ld, n, YAML_SEQUENCE_NODE, "an array argument") < 0)
			return -1;
		n_items = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
		spec->literal.arr = xcalloc(n_items + 1, sizeof(*spec->literal.arr));
		spec->literal.len = n_items;
		for (size_t k = 0; k < n_items; k++) {
			yaml_node_t *item = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[k]);
			long long v;
			if (get_integer(ld, item, "an array element", &v) < 0 ||
			    check_fits(ld, item, t, v, "array element") < 0)
				return -1;
			spec->literal.arr[k] = v;
		}
		return 0;
	}
	if (t == VT_BOOL)
		return get_bool(ld, n, "a bool argument", &spec->literal.i);
	if (get_integer(ld, n, "an integer argument", &spec->literal.i) < 0)
		return -1;
	return check_fits(ld, n, t, spec->literal.i, "argument");
}

/* Which function the entry calls: `call:` may only be left out when there is one. */
static int find_function(struct loader *ld, yaml_node_t *entry, yaml_node_t *call, int *func)
{
	struct problem *p = ld->p;
	if (!call) {
		if (p->nfuncs > 1)
			return fail(ld, entry, "this problem has %d functions: say which one with 'call'", p->nfuncs);
		*func = 0;
		return 0;
	}
	if (expect_type(ld, call, YAML_SCALAR_NODE, "call") < 0)
		return -1;
	for (int i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, scalar(call))) {
			*func = i;
			return 0;
		}
	return fail(ld, call, "call '%s' names no function of this problem", scalar(call));
}

/* The inputs' names as a case's expressions call them (the length parameters left out), then extra if set; free() it. */
static const char **input_names(const struct signature *sig, const char *extra)
{
	const char **names = xcalloc((size_t)sig->ninputs + 2, sizeof(*names));
	int i = 0;
	for (int j = 0; j < sig->nparams; j++)
		if (!sig->params[j].is_length && i < sig->ninputs)
			names[i++] = sig->params[j].name;
	names[i] = extra;
	return names;
}

/* The arguments' bounds (node args) may be drawn in some order: no circle. */
static int check_no_circle(struct loader *ld, yaml_node_t *args, const struct case_spec *spec)
{
	int *order = xcalloc((size_t)spec->nargs + 1, sizeof(int)), ret = casegen_order(spec, order);
	free(order);
	return ret < 0 ? fail(ld, args, "the arguments' bounds depend on each other in a circle") : 0;
}

/* `args:` of the entry n: one generator per input of sig. */
static int parse_case_args(struct loader *ld, yaml_node_t *n, yaml_node_t *args, const struct signature *sig,
			   struct case_spec *spec)
{
	int nargs = sig->ninputs, ret = -1;
	size_t total = 1;
	const char **names;

	if (nargs && require(ld, n, args, "args", "a case") < 0)
		return -1;
	if (args) {
		int given;
		if (expect_type(ld, args, YAML_SEQUENCE_NODE, "args") < 0)
			return -1;
		given = (int)(args->data.sequence.items.top - args->data.sequence.items.start);
		if (given != nargs)
			return fail(ld, args, "%s takes %d argument%s, args gives %d", sig->name, nargs,
				    nargs == 1 ? "" : "s", given);
	}
	/* every entry, so that case_spec_release() frees a half-parsed one */
	spec->args = xcalloc((size_t)nargs + 1, sizeof(*spec->args));
	spec->nargs = nargs;
	names = input_names(sig, NULL);
	ld->names = names;
	ld->ninputs = nargs;
	for (int i = 0; i < nargs; i++) {
		yaml_node_t *a = yaml_document_get_node(&ld->doc, args->data.sequence.items.start[i]);
		if (parse_arg(ld, a, sig->input_types[i], &spec->args[i]) < 0)
			goto cleanup;
		/* checked as the ranges multiply, so the message names the argument that overflows */
		total *= arg_spec_nvalues(&spec->args[i]);
		if (total > MAX_CASES_PER_PROBLEM) {
			fail(ld, a, "this case expands to more than %d tests", MAX_CASES_PER_PROBLEM);
			goto cleanup;
		}
	}
	ret = check_no_circle(ld, args, spec);
cleanup:
	free(names);
	ld->names = NULL;
	ld->ninputs = 0;
	return ret;
}

static int parse_case_count(struct loader *ld, yaml_node_t *count, struct case_spec *spec)
{
	if (!case_spec_is_random(spec))
		return fail(ld, count, "count only applies to random arguments");
	if (get_integer(ld, count, "count", &spec->count) < 0)
		return -1;
	if (spec->count < 1 || spec->count > MAX_CASES_PER_PROBLEM)
		return fail(ld, count, "count must be between 1 and %d", MAX_CASES_PER_PROBLEM);
	return 0;
}

/*
 * Without `seed:`, a seed that is reproducible and differs between entries:
 * from the problem id, the group name and the entry's position in the group,
 * written in decimal so that every machine derives the same seed.
 */
static uint64_t default_seed(const struct problem *p, const struct group *g, int entry_index)
{
	struct digest h;
	char index[16];
	snprintf(index, sizeof(index), "%d", entry_index);
	digest_init(&h);
	digest_add_str(&h, p->id);
	digest_add_str(&h, g->name);
	digest_add_str(&h, index);
	return digest_u64(&h);
}

static int parse_case_seed(struct loader *ld, yaml_node_t *seed, struct case_spec *spec)
{
	long long v;
	if (!case_spec_is_random(spec))
		return fail(ld, seed, "seed only applies to random arguments");
	if (get_integer(ld, seed, "seed", &v) < 0)
		return -1;
	spec->seed = (uint64_t)v;
	return 0;
}

static int parse_case_expected(struct loader *ld, yaml_node_t *expected, enum value_type ret,
			       struct case_spec *spec)
{
	if (!case_spec_is_explicit(spec))
		return fail(ld, expected, "expected can only be given for a single explicit call");
	spec->has_expected = true;
	if (ret == VT_BOOL)
		return get_bool(ld, expected, "expected", &spec->expected);
	if (get_integer(ld, expected, "expected", &spec->expected) < 0)
		return -1;
	return check_fits(ld, expected, ret, spec->expected, "expected value");
}

/*
 * answer:, balance:, tries: (v[0..2]) - tests chosen among random draws by
 * the reference's answer.  tries defaults to 10 x count.
 */
static int parse_case_choice(struct loader *ld, yaml_node_t *n, yaml_node_t **v, enum value_type ret,
			     struct case_spec *spec)
{
	long long flag = 0;
	if (!v[0] && !v[1] && !v[2])
		return 0;
	if (!v[0] && !v[1])
		return fail(ld, v[2], "tries only applies with answer or balance");
	if (!case_spec_is_random(spec))
		return fail(ld, v[0] ? v[0] : v[1], "answer and balance choose among random draws; this entry draws none");
	for (int i = 0; i < spec->nargs; i++)
		if (spec->args[i].kind == ARG_RANGE)
			return fail(ld, v[0] ? v[0] : v[1],
				    "answer and balance choose among random draws: give every argument as random, not range");
	if (v[0] && v[1])
		return fail(ld, v[1], "give answer or balance, not both");
	if (v[1]) {
		if (get_bool(ld, v[1], "balance", &flag) < 0)
			return -1;
		if (!flag)
			return fail(ld, v[1], "balance: false is the default; leave the key out");
		if (ret != VT_BOOL)
			return fail(ld, v[1], "balance needs a bool function (as many false as true answers); this one returns %s",
				    value_type_name(ret));
		if (spec->count % 2)
			return fail(ld, v[1], "balance needs an even count (half false, half true), not %lld", spec->count);
		spec->balance = true;
	} else {
		if (ret == VT_BOOL ? get_bool(ld, v[0], "answer", &spec->answer) < 0
				   : get_integer(ld, v[0], "answer", &spec->answer) < 0 ||
					     check_fits(ld, v[0], ret, spec->answer, "answer") < 0)
			return -1;
		spec->has_answer = true;
	}
	spec->tries = spec->count * 10 < MAX_CASES_PER_PROBLEM ? spec->count * 10 : MAX_CASES_PER_PROBLEM;
	if (v[2]) {
		if (get_integer(ld, v[2], "tries", &spec->tries) < 0)
			return -1;
		if (spec->tries < spec->count || spec->tries > MAX_CASES_PER_PROBLEM)
			return fail(ld, v[2], "tries must be between count (%lld) and %d", spec->count, MAX_CASES_PER_PROBLEM);
	}
	(void)n;
	return 0;
}

/*
 * Check one `cases:` entry and describe it in spec.  The checks run in a
 * fixed order, so a file with several mistakes always names the same one.
 */
/*
 * Add the ints the entry's arrays hold over all its tests (a random array
 * counted at its longest) to the variant's total: -1 past the cap.  Every
 * test gets its own copy of a literal array too, so a 1000-element literal
 * times a 200 000-value range is 200 million ints.
 */
static int count_array_ints(struct loader *ld, const struct case_spec *spec)
{
	unsigned long long per_test = 0;
	for (int i = 0; i < spec->nargs; i++) {
		const struct arg_spec *a = &spec->args[i];
		if (a->kind == ARG_RANDOM_ARRAY && a->len_hi_e) {
			long long lo, hi;
			casegen_expr_span(spec, a->len_hi_e, &lo, &hi);
			per_test += (unsigned long long)(hi < 0 ? 0 : hi > MAX_ARRAY_LEN ? MAX_ARRAY_LEN : hi);
		} else if (a->kind == ARG_RANDOM_ARRAY)
			per_test += (unsigned long long)a->len_hi;
		else if (a->kind == ARG_LITERAL && value_type_is_array(a->type))
			per_test += a->literal.len;
	}
	/* per_test <= nargs x MAX_ARRAY_LEN (or the file's size), ntests <= 200 000: no overflow */
	per_test *= case_spec_ntests(spec);
	if (per_test > MAX_ARRAY_INTS_PER_PROBLEM - ld->array_ints)
		return -1;
	ld->array_ints += per_test;
	return 0;
}

static int parse_case(struct loader *ld, yaml_node_t *n, int group_index, int entry_index,
		      struct case_spec *spec)
{
	static const char *const keys[] = { "name", "call", "args", "expected", "count", "seed",
					    "answer", "balance", "tries", NULL };
	yaml_node_t *v[9];
	const struct signature *sig;

	if (read_mapping(ld, n, "a case", keys, v) < 0 ||
	    find_function(ld, n, v[1], &spec->func) < 0)
		return -1;
	sig = &ld->p->funcs[spec->func];
	spec->line = (int)n->start_mark.line + 1;
	if (parse_case_args(ld, n, v[2], sig, spec) < 0 ||
	    (v[4] && parse_case_count(ld, v[4], spec) < 0) ||
	    parse_case_choice(ld, n, v + 6, sig->ret, spec) < 0)
		return -1;
	if (case_spec_ntests(spec) + (size_t)ld->p->ncases > MAX_CASES_PER_PROBLEM)
		return fail(ld, n, "the problem would have more than %d tests", MAX_CASES_PER_PROBLEM);
	if (count_array_ints(ld, spec) < 0)
		return fail(ld, n, "the problem's arrays would hold more than %llu ints in all",
			    MAX_ARRAY_INTS_PER_PROBLEM);
	spec->seed = default_seed(ld->p, &ld->p->groups[group_index], entry_index);
	if ((v[5] && parse_case_seed(ld, v[5], spec) < 0) ||
	    (v[3] && parse_case_expected(ld, v[3], sig->ret, spec) < 0))
		return -1;
	if (v[0]) {
		if (!case_spec_is_explicit(spec))
			return fail(ld, v[0], "name can only be given for a single explicit call");
		if (get_string(ld, v[0], "name", &spec->name) < 0)
			return -1;
		if (!*spec->name)
			return fail(ld, v[0], "name must not be empty");
	}
	return 0;
}

/* Remember how the cases from `first` on were drawn, for shrinking a failing one (shrink.h). */
static void record_bounds(struct problem *p, const struct case_spec *spec, int first)
{
	struct arg_bounds *b = xcalloc((size_t)spec->nargs + 1, sizeof(*b));
	for (int i = 0; i < spec->nargs; i++) {
		const struct arg_spec *a = &spec->args[i];
		/* bounds that depend on each other, or a property, are kept as drawn: a smaller input
		 * found one argument at a time could break them */
		b[i].generated = a->kind != ARG_LITERAL && !case_spec_is_dependent(spec);
		b[i].lo = a->lo;
		b[i].hi = a->hi;
		b[i].len_lo = a->kind == ARG_LITERAL ? (long long)a->literal.len : a->len_lo;
		b[i].len_hi = a->kind == ARG_LITERAL ? (long long)a->literal.len : a->len_hi;
	}
	p->gens = xrealloc(p->gens, (size_t)(p->ngens + 1) * sizeof(*p->gens));
	p->gens[p->ngens++] = b;
	for (int k = first; k < p->ncases; k++)
		p->cases[k].gen = b;
}

/* Turn one `cases:` entry into test cases of group group_index. */
static int load_case(struct loader *ld, yaml_node_t *n, int group_index, int entry_index)
{
	struct case_spec spec = CASE_SPEC_INIT;
	struct problem *p = ld->p;
	int ret = -1, first;

	if (parse_case(ld, n, group_index, entry_index, &spec) < 0)
		goto cleanup;
	first = p->ncases;
	p->groups[group_index].ncases += (int)casegen_expand(&spec, group_index, &p->cases, &p->ncases,
							     &ld->cases_alloc);
	if (!case_spec_is_explicit(&spec))
		record_bounds(p, &spec, first);
	if (spec.tries) {
		struct case_filter *f;
		p->filters = xrealloc(p->filters, (size_t)(p->nfilters + 1) * sizeof(*p->filters));
		f = &p->filters[p->nfilters++];
		f->first = first;
		f->ntries = p->ncases - first;
		f->count = spec.count;
		f->balance = spec.balance;
		f->answer = spec.answer;
		f->line = spec.line;
	}
	ret = 0;
cleanup:
	case_spec_release(&spec);
	return ret;
}

/*
 * A group's hint: hint (English) and hint_ko (Korean), or hints: {en: ..., ko: ...}; either form, not both.
 */
static int load_hints(struct loader *ld, struct group *g, yaml_node_t *hint, yaml_node_t *hint_ko, yaml_node_t *hints)
{
	static const char *const keys[] = { "en", "ko", NULL };
	yaml_node_t *v[2];

	if (hints) {
		if (hint || hint_ko)
			return fail(ld, hints, "give hints: {en, ko} or hint: and hint_ko:, not both");
		if (read_mapping(ld, hints, "hints", keys, v) < 0 || require(ld, hints, v[0], "en", "hints") < 0)
			return -1;
		hint = v[0];
		hint_ko = v[1];
	}
	if (hint_ko && !hint)
		return fail(ld, hint_ko, "hint_ko: translates hint:, which is missing");
	if (hint && get_string(ld, hint, "hint", &g->hint) < 0)
		return -1;
	if (hint_ko && get_string(ld, hint_ko, "hint_ko", &g->hint_ko) < 0)
		return -1;
	if (hint && !hint_ko) {
		/* a language's own English hint replaces the group's: so does its (lack of) translation */
		free(g->hint_ko);
		g->hint_ko = NULL;
	}
	return 0;
}

/*
 * What the language being loaded changes in group g: its limits (on
 * top of the group's; *limits becomes that node, for messages), its
 * cases (instead of the group's) and its hint (advice in that language).
 */
static int group_override(struct loader *ld, struct group *g, yaml_node_t **limits, yaml_node_t **cases)
{
	static const char *const keys[] = { "limits", "cases", "hint", "hint_ko", "hints", NULL };
	yaml_node_t *v[5];
	if (!ld->lang_groups)
		return 0;
	for (yaml_node_pair_t *pr = ld->lang_groups->data.mapping.pairs.start; pr < ld->lang_groups->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key);
		if (k->type != YAML_SCALAR_NODE || strcmp(scalar(k), g->name))
			continue;
		if (read_mapping(ld, yaml_document_get_node(&ld->doc, pr->value), "a group's changes for a language",
				 keys, v) < 0)
			return -1;
		if (v[0] && load_limits(ld, v[0], &g->limits, "group limits") < 0)
			return -1;
		if (load_hints(ld, g, v[2], v[3], v[4]) < 0)
			return -1;
		if (v[0])
			*limits = v[0];
		if (v[1])
			*cases = v[1];
	}
	return 0;
}

static int load_group(struct loader *ld, yaml_node_t *n, int index)
{
	static const char *const keys[] = { "name", "visibility", "scoring", "points", "hint",
					    "limits", "cases", "hint_ko", "hints", NULL };
	yaml_node_t *v[9];
	struct problem *p = ld->p;
	struct group *g = &p->groups[index];

	if (read_mapping(ld, n, "a group", keys, v) < 0 ||
	    require(ld, n, v[0], "name", "a group") < 0 ||
	    require(ld, n, v[3], "points", "a group") < 0 ||
	    require(ld, n, v[6], "cases", "a group") < 0 ||
	    get_string(ld, v[0], "name", &g->name) < 0)
		return -1;
	if (!*g->name || strchr(g->name, '/') || strchr(g->name, '#'))
		return fail(ld, v[0], "group name must be non-empty and free of '/' and '#'");
	for (int i = 0; i < index; i++)
		if (!strcmp(p->groups[i].name, g->name))
			return fail(ld, v[0], "duplicate group name '%s'", g->name);
	g->visibility = VIS_PUBLIC;
	if (v[1]) {
		if (expect_type(ld, v[1], YAML_SCALAR_NODE, "visibility") < 0)
			return -1;
		if (!strcmp(scalar(v[1]), "hidden"))
			g->visibility = VIS_HIDDEN;
		else if (strcmp(scalar(v[1]), "public"))
			return fail(ld, v[1], "visibility must be public or hidden, not '%s'", scalar(v[1]));
	}
	g->scoring = SCORE_SUM;
	if (v[2]) {
		if (expect_type(ld, v[2], YAML_SCALAR_NODE, "scoring") < 0)
			return -1;
		if (!strcmp(scalar(v[2]), "all-or-nothing"))
			g->scoring = SCORE_ALL_OR_NOTHING;
		else if (strcmp(scalar(v[2]), "sum"))
			return fail(ld, v[2], "scoring must be sum or all-or-nothing, not '%s'", scalar(v[2]));
	}
	if (get_number(ld, v[3], "points", &g->points) < 0)
		return -1;
	if (load_hints(ld, g, v[4], v[7], v[8]) < 0)
		return -1;
	if (v[5] && load_limits(ld, v[5], &g->limits, "group limits") < 0)
		return -1;
	if (group_override(ld, g, &v[5], &v[6]) < 0)
		return -1;
	inherit_limits(&g->limits, &p->limits);
	if (g->limits.cpu_floor_ms && !g->limits.cpu_factor)
		return fail(ld, v[5] ? v[5] : n, "cpu_floor_ms only applies with cpu_factor (relative limits)");
	if (g->limits.wall_ms && g->limits.cpu_ms && g->limits.wall_ms < g->limits.cpu_ms)
		return fail(ld, v[5] ? v[5] : n, "wall_ms (%u) must not be below cpu_ms (%u)", g->limits.wall_ms,
			    g->limits.cpu_ms);
	if (expect_type(ld, v[6], YAML_SEQUENCE_NODE, "cases") < 0)
		return -1;
	g->first_case = p->ncases;
	for (yaml_node_item_t *it = v[6]->data.sequence.items.start; it < v[6]->data.sequence.items.top; it++)
		if (load_case(ld, yaml_document_get_node(&ld->doc, *it), index,
			      (int)(it - v[6]->data.sequence.items.start)) < 0)
			return -1;
	if (!g->ncases)
		return fail(ld, v[6], "group '%s' has no cases", g->name);
	return 0;
}

static int valid_id(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

static int compare_case_names(const void *a, const void *b)
{
	const struct test_case *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);
	/* ties keep file order, so the first of equal names stays unchanged */
	return c ? c : (*x < *y ? -1 : *x > *y);
}

/* Give every case a unique, display-safe name.  Hidden cases never show inputs. */
static void name_cases(struct problem *p)
{
	struct test_case **order = xcalloc((size_t)p->ncases + 1, sizeof(*order));
	for (int k = 0; k < p->ncases; k++) {
		struct test_case *tc = &p->cases[k];
		const struct group *g = &p->groups[tc->group];
		order[k] = tc;
		if (tc->name)
			continue;
		{
			struct strbuf sb = STRBUF_INIT;
			if (g->visibility == VIS_HIDDEN)
				strbuf_addf(&sb, "%s/%d", g->name, k - g->first_case + 1);
			else {
				strbuf_addf(&sb, "%s/", g->name);
				test_case_format_call(&sb, p, tc);
			}
			tc->name = strbuf_detach(&sb);
		}
	}
	/* sorted by name, duplicates are neighbours: suffix all but the first,
	 * and again until no suffix collides with a name given in the file */
	for (bool renamed = true; renamed;) {
		renamed = false;
		qsort(order, (size_t)p->ncases, sizeof(*order), compare_case_names);
		for (int start = 0, end; start < p->ncases; start = end) {
			for (end = start + 1; end < p->ncases && !strcmp(order[end]->name, order[start]->name); end++)
				;
			for (int i = start + 1; i < end; i++) {
				char *old = order[i]->name;
				order[i]->name = xasprintf("%s#%d", old, (int)(order[i] - p->cases) + 1);
				free(old);
				renamed = true;
			}
		}
	}
	free(order);
}

/* The top-level keys of a problem file, in this order in v[]. */
enum { K_ID, K_TITLE, K_SOURCE, K_FUNCTIONS, K_LIMITS, K_GROUPS, K_EQUIVALENT, K_LANGUAGES, K_MUTANTS, K_GROWTH,
       K_STATEMENT, K_COUNT };

static int load_functions(struct loader *ld, yaml_node_t *list)
{
	struct problem *p = ld->p;
	struct strbuf err = STRBUF_INIT;
	if (expect_type(ld, list, YAML_SEQUENCE_NODE, "functions") < 0)
		return -1;
	p->nfuncs = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (!p->nfuncs)
		return fail(ld, list, "functions must list at least one C signature");
	p->funcs = xcalloc((size_t)p->nfuncs, sizeof(*p->funcs));
	p->calls = xcalloc((size_t)p->nfuncs, sizeof(*p->calls));
	for (int i = 0; i < p->nfuncs; i++) {
		yaml_node_t *f = yaml_document_get_node(&ld->doc, list->data.sequence.items.start[i]);
		if (expect_type(ld, f, YAML_SCALAR_NODE, "a function signature") < 0)
			return -1;
		size_t where;
		if (signature_parse_at(&p->funcs[i], scalar(f), &where, &err) < 0) {
			/* at the word the error is about, where the scalar is one plain or quoted line */
			size_t col = f->start_mark.column + 1;
			if (f->start_mark.line == f->end_mark.line &&
			    (f->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
			     f->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			     f->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE))
				col += where + (f->data.scalar.style != YAML_PLAIN_SCALAR_STYLE);
			strbuf_addf(ld->err, "%s:%zu:%zu: bad signature '%s': %s\n", ld->path, f->start_mark.line + 1, col,
				    scalar(f), err.buf);
			strbuf_release(&err);
			return -1;
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(p->funcs[j].name, p->funcs[i].name))
				return fail(ld, f, "function '%s' is listed twice", p->funcs[i].name);
	}
	return 0;
}

static int load_groups(struct loader *ld, yaml_node_t *list)
{
	struct problem *p = ld->p;
	if (expect_type(ld, list, YAML_SEQUENCE_NODE, "groups") < 0)
		return -1;
	p->ngroups = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (!p->ngroups)
		return fail(ld, list, "groups must hold at least one group");
	p->groups = xcalloc((size_t)p->ngroups, sizeof(*p->groups));
	for (int i = 0; i < p->ngroups; i++)
		if (load_group(ld, yaml_document_get_node(&ld->doc, list->data.sequence.items.start[i]), i) < 0)
			return -1;
	for (int i = 0; i < p->ngroups; i++) {
		const struct group *g = &p->groups[i];
		p->max_score += g->scoring == SCORE_SUM ? g->points * problem_group_tests(p, i) : g->points;
	}
	p->max_score = round(p->max_score * 1e6) / 1e6;
	return 0;
}

static int valid_name(const char *s)
{
	return valid_id(s) && !strchr(s, '-') && !isdigit((unsigned char)*s);
}

/* languages.<lang>.calls: C name -> the name a test calls in this language. */
static int load_calls(struct loader *ld, yaml_node_t *map)
{
	struct problem *p = ld->p;
	if (expect_type(ld, map, YAML_MAPPING_NODE, "calls") < 0)
		return -1;
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key), *v = yaml_document_get_node(&ld->doc, pr->value);
		int i;
		if (expect_type(ld, k, YAML_SCALAR_NODE, "a function's name") < 0)
			return -1;
		for (i = 0; i < p->nfuncs && strcmp(p->funcs[i].name, scalar(k)); i++)
			;
		if (i == p->nfuncs)
			return fail(ld, k, "calls: '%s' names no function of this problem", scalar(k));
		if (p->calls[i])
			return fail(ld, k, "duplicate key '%s' in calls", scalar(k));
		if (get_string(ld, v, "the name to call", &p->calls[i]) < 0)
			return -1;
		if (!valid_name(p->calls[i]))
			return fail(ld, v, "'%s' is not a function name", p->calls[i]);
	}
	return 0;
}

/* Every group a languages.<lang>.groups entry names must exist. */
static int check_group_overrides(struct loader *ld)
{
	if (!ld->lang_groups)
		return 0;
	for (yaml_node_pair_t *pr = ld->lang_groups->data.mapping.pairs.start; pr < ld->lang_groups->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key);
		int g;
		if (expect_type(ld, k, YAML_SCALAR_NODE, "a group's name") < 0)
			return -1;
		/* libyaml keeps both of two equal keys; group_override would apply both */
		for (yaml_node_pair_t *q = ld->lang_groups->data.mapping.pairs.start; q < pr; q++)
			if (!strcmp(scalar(yaml_document_get_node(&ld->doc, q->key)), scalar(k)))
				return fail(ld, k, "duplicate key '%s' in groups", scalar(k));
		for (g = 0; g < ld->p->ngroups && strcmp(ld->p->groups[g].name, scalar(k)); g++)
			;
		if (g == ld->p->ngroups)
			return fail(ld, k, "no group '%s' in this problem", scalar(k));
	}
	return 0;
}

/* source: a file name with a language's extension; each language looks for its stem + its extension. */
static int load_source(struct loader *ld, yaml_node_t *node, const struct language *lang, yaml_node_t *own)
{
	struct problem *p = ld->p;
	char *given = NULL;
	int ret = -1;

	if (get_string(ld, own ? own : node, "source", &given) < 0)
		goto cleanup;
	if (strchr(given, '/') || !language_of_file(given) || strlen(given) <= strlen(language_of_file(given)->extension)) {
		fail(ld, own ? own : node, "source must be a file name ending in .c or .py, not '%s'", given);
		goto cleanup;
	}
	if (own && language_of_file(given) != lang) {
		fail(ld, own, "the %s source must end in %s, not '%s'", lang->name, lang->extension, given);
		goto cleanup;
	}
	p->source = own ? xstrdup(given)
			: xasprintf("%.*s%s", (int)(strlen(given) - strlen(language_of_file(given)->extension)), given,
				    lang->extension);
	ret = 0;
cleanup:
	free(given);
	return ret;
}

/* "FILE:LINE:COLUMN:OPERATOR", optionally "#N": the shape of a mutant's id (mutate.h). */
static bool valid_mutant_id(const char *s)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *c3 = c2 ? strchr(c2 + 1, ':') : NULL;
	char *file;
	bool known;
	if (!c3 || c1 == s)
		return false;
	file = xstrndup(s, (size_t)(c1 - s));
	known = language_of_file(file) != NULL;
	free(file);
	if (!known)
		return false;
	if (c2 == c1 + 1 || c3 == c2 + 1 || strspn(c1 + 1, "0123456789") != (size_t)(c2 - c1 - 1) ||
	    strspn(c2 + 1, "0123456789") != (size_t)(c3 - c2 - 1))
		return false;
	return c3[1] && strspn(c3 + 1, "abcdefghijklmnopqrstuvwxyz-#0123456789") == strlen(c3 + 1);
}

/* equivalent_mutants: [{id: ..., reason: ...}, ...] */
static int load_equivalent_mutants(struct loader *ld, yaml_node_t *list)
{
	static const char *const keys[] = { "id", "reason", NULL };
	struct problem *p = ld->p;
	if (expect_type(ld, list, YAML_SEQUENCE_NODE, "equivalent_mutants") < 0)
		return -1;
	p->equivalents = xcalloc((size_t)(list->data.sequence.items.top - list->data.sequence.items.start) + 1,
				 sizeof(*p->equivalents));
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = yaml_document_get_node(&ld->doc, *it), *v[2];
		struct equivalent_mutant *m = &p->equivalents[p->nequivalents];
		if (read_mapping(ld, n, "an equivalent mutant", keys, v) < 0 ||
		    require(ld, n, v[0], "id", "an equivalent mutant") < 0 ||
		    require(ld, n, v[1], "reason", "an equivalent mutant") < 0)
			return -1;
		m->line = (int)v[0]->start_mark.line + 1;
		m->column = (int)v[0]->start_mark.column + 1;
		p->nequivalents++;
		if (get_string(ld, v[0], "id", &m->id) < 0 || get_string(ld, v[1], "reason", &m->reason) < 0)
			return -1;
		if (!valid_mutant_id(m->id))
			return fail(ld, v[0], "'%s' is no mutant id (FILE:LINE:COLUMN:OPERATOR, as grader mutate prints it)",
				    m->id);
		if (!*m->reason)
			return fail(ld, v[1], "an equivalent mutant needs a reason");
		for (int k = 0; k < p->nequivalents - 1; k++)
			if (!strcmp(p->equivalents[k].id, m->id))
				return fail(ld, v[0], "mutant '%s' is listed twice", m->id);
	}
	return 0;
}

/* ---- growth: how the cost should grow in a size N (growth.h measures it) ---- */

/* "N", "N^2" ... "N^6", or "2^N" (exponential). */
static int parse_order(struct loader *ld, yaml_node_t *n, int *out)
{
	const char *s;
	if (expect_type(ld, n, YAML_SCALAR_NODE, "growth expected") < 0)
		return -1;
	s = scalar(n);
	if (!strcmp(s, "N"))
		*out = 1;
	else if (!strcmp(s, "2^N"))
		*out = GROWTH_EXPONENTIAL;
	else if (!strncmp(s, "N^", 2) && s[2] >= '1' && s[2] <= '6' && !s[3])
		*out = s[2] - '0';
	else
		return fail(ld, n, "growth expected must be N, N^2 ... N^6 or 2^N, not '%s'", s);
	return 0;
}

/* The name of input k (the k-th parameter that is no array's length). */
static const char *names_of(const struct signature *sig, int k)
{
	for (int j = 0; j < sig->nparams; j++)
		if (!sig->params[j].is_length && k-- == 0)
			return sig->params[j].name;
	return "";
}

/*
 * `size: NAME` (an input: an array's length or an integer's value),
 * `size: length` (the first array input's length) or `size: arg K` (the
 * K-th input, an integer, 1-based).
 */
static int parse_size(struct loader *ld, yaml_node_t *n, struct growth_spec *gs)
{
	const struct signature *sig = &ld->p->funcs[gs->func];
	const char *s;
	int k = 0;
	if (expect_type(ld, n, YAML_SCALAR_NODE, "growth size") < 0)
		return -1;
	s = scalar(n);
	for (k = 0; k < sig->ninputs && strcmp(s, names_of(sig, k)); k++)
		;
	if (k < sig->ninputs) { /* an input by its name: an array's length, or an integer's value */
		if (sig->input_types[k] == VT_BOOL)
			return fail(ld, n, "growth size '%s': a bool cannot grow (name an integer or an array)", s);
		gs->by_length = value_type_is_array(sig->input_types[k]);
		gs->size_arg = k;
		return 0;
	}
	gs->by_length = !strcmp(s, "length");
	if (gs->by_length) {
		for (k = 0; k < sig->ninputs && !value_type_is_array(sig->input_types[k]); k++)
			;
		if (k == sig->ninputs)
			return fail(ld, n, "growth size 'length': %s takes no array", sig->name);
	} else {
		char *end;
		long v = !strncmp(s, "arg ", 4) ? strtol(s + 4, &end, 10) : 0;
		if (!v || *end || v < 1 || v > sig->ninputs) {
			struct strbuf known = STRBUF_INIT;
			for (k = 0; k < sig->ninputs; k++)
				strbuf_addf(&known, "%s%s", k ? ", " : "", names_of(sig, k));
			fail(ld, n, "growth size '%s' names no input of %s (its inputs: %s); say an input's name, "
			     "'length' or 'arg K' (K from 1 to %d)", s, sig->name, known.buf, sig->ninputs);
			strbuf_release(&known);
			return -1;
		}
		k = (int)v - 1;
		if (value_type_is_array(sig->input_types[k]) || sig->input_types[k] == VT_BOOL)
			return fail(ld, n, "growth size '%s': that input is no integer (say 'length' for an array)", s);
	}
	gs->size_arg = k;
	return 0;
}

/* The sizes [from, to] fit the size's type, and leave room to double. */
static int check_growth_sizes(struct loader *ld, yaml_node_t *n, const struct growth_spec *gs)
{
	enum value_type t = ld->p->funcs[gs->func].input_types[gs->size_arg];
	if (gs->from < 1)
		return fail(ld, n, "growth sizes must start at 1 or more, not %lld", gs->from);
	if (gs->to < 4 * gs->from)
		return fail(ld, n, "growth sizes [%lld, %lld] must span at least a factor 4 (two doublings)", gs->from,
			    gs->to);
	if (gs->by_length ? gs->to > MAX_ARRAY_LEN : !value_fits(t, gs->to))
		return fail(ld, n, "growth size %lld is too large for %s", gs->to,
			    gs->by_length ? "an array" : value_type_name(t));
	return 0;
}

/* Is e exactly the input N (index nargs)? */
static bool is_n(const struct expr *e, int nargs)
{
	return e && e->nops == 1 && e->ops[0].kind == EX_ARG && e->ops[0].arg == nargs;
}

/*
 * The growing input's entry in growth `args:` (node a): N for an integer
 * (drawn as a random value in [N, N]), or an array generator whose length
 * is N.
 */
static int growth_size_arg(struct loader *ld, yaml_node_t *a, const struct growth_spec *gs, struct arg_spec *spec)
{
	const struct signature *sig = &ld->p->funcs[gs->func];
	const char *name = names_of(sig, gs->size_arg);
	if (!gs->by_length) {
		if (a->type != YAML_SCALAR_NODE || strcmp(scalar(a), "N"))
			return fail(ld, a, "growth args: '%s' is the size that grows: write N for it", name);
		memset(spec, 0, sizeof(*spec));
		spec->kind = ARG_RANDOM;
		spec->type = spec->literal.type = sig->input_types[gs->size_arg];
		expr_parse("N", ld->names, ld->ninputs, &spec->lo_e, ld->err);
		expr_parse("N", ld->names, ld->ninputs, &spec->hi_e, ld->err);
		return 0;
	}
	if (parse_arg(ld, a, sig->input_types[gs->size_arg], spec) < 0)
		return -1;
	if (spec->kind != ARG_RANDOM_ARRAY || !is_n(spec->len_lo_e, sig->ninputs) || !is_n(spec->len_hi_e, sig->ninputs))
		return fail(ld, a, "growth args: '%s' is the array that grows: give it as {array: {length: N, ...}}", name);
	return 0;
}

/* growth `args:` - one generator per input, as a case's; the size's own entry is N (growth_size_arg). */
static int load_growth_args(struct loader *ld, yaml_node_t *args, struct growth_spec *gs)
{
	const struct signature *sig = &ld->p->funcs[gs->func];
	int nargs = sig->ninputs, given, ret = -1;
	struct case_spec *spec = xcalloc(1, sizeof(*spec));
	const char **names = input_names(sig, "N");

	*spec = (struct case_spec)CASE_SPEC_INIT;
	gs->gen = spec; /* owned from here: a half-parsed one is freed with the problem */
	spec->func = gs->func;
	spec->line = (int)args->start_mark.line + 1;
	spec->has_n = true;
	if (expect_type(ld, args, YAML_SEQUENCE_NODE, "growth args") < 0)
		goto cleanup;
	given = (int)(args->data.sequence.items.top - args->data.sequence.items.start);
	if (given != nargs) {
		fail(ld, args, "%s takes %d argument%s, growth args gives %d", sig->name, nargs, nargs == 1 ? "" : "s",
		     given);
		goto cleanup;
	}
	spec->args = xcalloc((size_t)nargs + 1, sizeof(*spec->args));
	spec->nargs = nargs;
	ld->names = names;
	ld->ninputs = nargs + 1; /* N is input nargs: casegen_expand puts the size there */
	for (int i = 0; i < nargs; i++) {
		yaml_node_t *a = yaml_document_get_node(&ld->doc, args->data.sequence.items.start[i]);
		if (i == gs->size_arg ? growth_size_arg(ld, a, gs, &spec->args[i]) < 0
				      : parse_arg(ld, a, sig->input_types[i], &spec->args[i]) < 0)
			goto cleanup;
		if (spec->args[i].kind == ARG_RANGE) {
			fail(ld, a, "growth args draw one call per size: give random, not range");
			goto cleanup;
		}
	}
	ret = check_no_circle(ld, args, spec);
cleanup:
	free(names);
	ld->names = NULL;
	ld->ninputs = 0;
	return ret;
}

static int load_growth(struct loader *ld, yaml_node_t *n)
{
	static const char *const keys[] = { "call", "size", "expected", "sizes", "values", "args", "seed", "step", NULL };
	struct growth_spec *gs = &ld->p->growth;
	yaml_node_t *v[8];
	long long seed = 0;
	if (read_mapping(ld, n, "growth", keys, v) < 0)
		return -1;
	gs->line = (int)n->start_mark.line + 1;
	gs->column = (int)n->start_mark.column + 1;
	if (require(ld, n, v[1], "size", "growth") < 0 || require(ld, n, v[2], "expected", "growth") < 0 ||
	    require(ld, n, v[3], "sizes", "growth") < 0)
		return -1;
	if (find_function(ld, n, v[0], &gs->func) < 0 || parse_size(ld, v[1], gs) < 0 ||
	    parse_order(ld, v[2], &gs->expected) < 0 || read_pair(ld, v[3], "growth sizes", &gs->from, &gs->to) < 0 ||
	    check_growth_sizes(ld, v[3], gs) < 0)
		return -1;
	gs->lo = 0;
	gs->hi = 1000;
	if (v[4] && read_pair(ld, v[4], "growth values", &gs->lo, &gs->hi) < 0)
		return -1;
	if (v[4] && (!value_fits(VT_INT, gs->lo) || !value_fits(VT_INT, gs->hi)))
		return fail(ld, v[4], "growth values must fit an int");
	if (v[4] && v[5])
		return fail(ld, v[4], "growth values only applies without args (with args every input says how it is drawn)");
	if (v[6] && !v[5])
		return fail(ld, v[6], "growth seed only applies with args");
	if (v[5] && load_growth_args(ld, v[5], gs) < 0)
		return -1;
	if (v[6] && get_integer(ld, v[6], "growth seed", &seed) < 0)
		return -1;
	if (gs->gen)
		gs->gen->seed = v[6] ? (uint64_t)seed : 0x9e3779b97f4a7c15ull;
	if (v[7]) {
		if (get_integer(ld, v[7], "growth step", &gs->step) < 0)
			return -1;
		if (gs->step < 1 || gs->step > gs->to - gs->from)
			return fail(ld, v[7], "growth step must be from 1 to %lld (the sizes' span), not %lld",
				    gs->to - gs->from, gs->step);
	}
	gs->declared = true;
	return 0;
}

/* The problem in one language: the common keys v[], then what languages.<lang> (lang_node, or NULL) changes. */
static int load_variant(struct loader *ld, yaml_node_t **v, const struct language *lang, yaml_node_t *lang_node)
{
	static const char *const keys[] = { "source", "calls", "limits", "groups", NULL };
	yaml_node_t *lv[4] = { NULL, NULL, NULL, NULL };
	struct problem *p = ld->p;

	p->lang = lang;
	ld->lang_groups = NULL;
	if (lang_node && read_mapping(ld, lang_node, "a language's part", keys, lv) < 0)
		return -1;
	if (lv[3] && expect_type(ld, lv[3], YAML_MAPPING_NODE, "groups") < 0)
		return -1;
	ld->lang_groups = lv[3];
	p->id_line = (int)v[K_ID]->start_mark.line + 1;
	p->id_column = (int)v[K_ID]->start_mark.column + 1;
	/* where this language's file name stands: its own source, or the common one */
	p->source_line = (int)(lv[0] ? lv[0] : v[K_SOURCE])->start_mark.line + 1;
	p->source_column = (int)(lv[0] ? lv[0] : v[K_SOURCE])->start_mark.column + 1;
	if (v[K_EQUIVALENT]) {
		p->equivalent_line = (int)v[K_EQUIVALENT]->start_mark.line + 1;
		p->equivalent_column = (int)v[K_EQUIVALENT]->start_mark.column + 1;
	}
	if (get_string(ld, v[K_ID], "id", &p->id) < 0 || get_string(ld, v[K_TITLE], "title", &p->title) < 0 ||
	    load_source(ld, v[K_SOURCE], lang, lv[0]) < 0)
		return -1;
	if (!*p->title)
		return fail(ld, v[K_TITLE], "title must not be empty");
	if (!valid_id(p->id))
		return fail(ld, v[K_ID], "id '%s' may only hold letters, digits, '_' and '-'", p->id);
	if (lv[1] && !lang->renames)
		return fail(ld, lv[1], "calls: %s calls each function by its signature's name; calls only applies to "
			    "languages whose names may differ", lang->display);
	if (load_functions(ld, v[K_FUNCTIONS]) < 0 || (lv[1] && load_calls(ld, lv[1]) < 0))
		return -1;
	if ((v[K_LIMITS] && load_limits(ld, v[K_LIMITS], &p->limits, "limits") < 0) ||
	    (lv[2] && load_limits(ld, lv[2], &p->limits, "limits") < 0))
		return -1;
	if (p->limits.cpu_floor_ms && !p->limits.cpu_factor)
		return fail(ld, lv[2] ? lv[2] : v[K_LIMITS], "cpu_floor_ms only applies with cpu_factor (relative limits)");
	if (v[K_EQUIVALENT] && get_string(ld, v[K_EQUIVALENT], "equivalent_to", &p->equivalent_to) < 0)
		return -1;
	if (v[K_STATEMENT] && get_string(ld, v[K_STATEMENT], "statement", &p->statement) < 0)
		return -1;
	if (v[K_GROWTH] && load_growth(ld, v[K_GROWTH]) < 0)
		return -1;
	if (!p->limits.cpu_ms && !p->limits.cpu_factor)
		p->limits.cpu_ms = DEFAULT_CPU_MS;
	if (!p->limits.memory_mb)
		p->limits.memory_mb = DEFAULT_MEMORY_MB;
	if (!p->limits.output_kb)
		p->limits.output_kb = DEFAULT_OUTPUT_KB;
	if (!p->limits.startup_ms)
		p->limits.startup_ms = DEFAULT_STARTUP_MS;
	if (load_groups(ld, v[K_GROUPS]) < 0 || check_group_overrides(ld) < 0)
		return -1;
	if (v[K_MUTANTS] && load_equivalent_mutants(ld, v[K_MUTANTS]) < 0)
		return -1;
	name_cases(p);
	return 0;
}

/*
 * The languages a problem accepts: the keys of `languages:` (each known), or
 * without it the language of `source`.  Fills langs[]/nodes[]; returns how
 * many, or -1.
 */
static int unknown_language(struct loader *ld, yaml_node_t *k)
{
	struct strbuf known = STRBUF_INIT;
	int ret;
	for (int i = 0; languages[i]; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : "", languages[i]->name);
	ret = fail(ld, k, "unknown language '%s' (known: %s)", k->type == YAML_SCALAR_NODE ? scalar(k) : "?", known.buf);
	strbuf_release(&known);
	return ret;
}

/* A YAML null: an empty plain scalar, ~ or null. */
static bool is_null(const yaml_node_t *n)
{
	const char *s = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"));
}

static int list_languages(struct loader *ld, yaml_node_t **v, const struct language **langs, yaml_node_t **nodes,
			  yaml_node_t **keys)
{
	int n = 0;
	if (!v[K_LANGUAGES]) {
		langs[0] = v[K_SOURCE]->type == YAML_SCALAR_NODE ? language_of_file(scalar(v[K_SOURCE])) : NULL;
		nodes[0] = NULL;
		keys[0] = v[K_SOURCE];
		if (!langs[0])
			return fail(ld, v[K_SOURCE], "source must be a file name ending in .c or .py");
		return 1;
	}
	if (expect_type(ld, v[K_LANGUAGES], YAML_MAPPING_NODE, "languages") < 0)
		return -1;
	for (yaml_node_pair_t *pr = v[K_LANGUAGES]->data.mapping.pairs.start; pr < v[K_LANGUAGES]->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key);
		const struct language *l = k->type == YAML_SCALAR_NODE ? language_find(scalar(k)) : NULL;
		yaml_node_t *val = yaml_document_get_node(&ld->doc, pr->value);
		if (!l)
			return unknown_language(ld, k);
		for (int i = 0; i < n; i++)
			if (langs[i] == l)
				return fail(ld, k, "language '%s' is listed twice", l->name);
		langs[n] = l;
		keys[n] = k;
		/* `c:` alone (a null value: nothing, ~ or null) takes the problem as it is */
		nodes[n++] = is_null(val) ? NULL : val;
	}
	if (!n)
		return fail(ld, v[K_LANGUAGES], "languages must name at least one language");
	return n;
}

static int load_document(struct loader *ld, yaml_node_t *root)
{
	static const char *const keys[] = { "id", "title", "source", "functions", "limits", "groups",
					    "equivalent_to", "languages", "equivalent_mutants", "growth", "statement", NULL };
	yaml_node_t *v[K_COUNT], *nodes[8], *lang_keys[8];
	const struct language *langs[8];
	struct problem *p = ld->p;
	int n;

	if (!root)
		return fail(ld, NULL, "the file is empty");
	if (read_mapping(ld, root, "the problem", keys, v) < 0)
		return -1;
	for (int i = 0; i < K_LANGUAGES; i++)
		if (i != K_LIMITS && i != K_EQUIVALENT && require(ld, root, v[i], keys[i], "the problem") < 0)
			return -1;
	n = list_languages(ld, v, langs, nodes, lang_keys);
	if (n < 0)
		return -1;
	p->variants = xcalloc((size_t)n, sizeof(*p->variants));
	for (int i = 0; i < n; i++) {
		struct problem *var = i ? &p->variants[i - 1] : p;
		if (i) {
			var->path = xstrdup(p->path);
			memcpy(var->digest, p->digest, sizeof(var->digest));
			p->nvariants = i;
		}
		ld->p = var;
		ld->cases_alloc = 0;
		ld->array_ints = 0;
		if (load_variant(ld, v, langs[i], nodes[i]) < 0)
			return -1;
		var->nlanguages = n;
		if (i && fabs(var->max_score - p->max_score) > 1e-6)
			return fail(ld, lang_keys[i], "%s gives %g points in all, %s %g: a language may change sizes "
				    "and limits but not the points", var->lang->name, var->max_score, p->lang->name,
				    p->max_score);
	}
	ld->p = p;
	return 0;
}

int problem_load(struct problem *p, const char *path, struct strbuf *err)
{
	struct loader ld;
	yaml_parser_t parser;
	struct strbuf content = STRBUF_INIT;
	struct digest h;
	int have_doc = 0, ret = -1;

	memset(&ld, 0, sizeof(ld));
	ld.path = path;
	ld.err = err;
	ld.p = p;
	memset(p, 0, sizeof(*p));
	p->path = xstrdup(path);
	if (read_file(&content, path) < 0) {
		strbuf_addf(err, "%s: cannot read: %s\n", path, strerror(errno));
		goto cleanup;
	}
	digest_init(&h);
	digest_add(&h, content.buf, content.len);
	digest_hex(&h, p->digest);
	if (!yaml_parser_initialize(&parser))
		die("cannot initialise the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)content.buf, content.len);
	if (!yaml_parser_load(&parser, &ld.doc)) {
		strbuf_addf(err, "%s:%zu:%zu: YAML syntax error: %s%s%s\n", path,
			    parser.problem_mark.line + 1, parser.problem_mark.column + 1,
			    parser.problem ? parser.problem : "unknown",
			    parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		goto cleanup;
	}
	have_doc = 1;
	{
		/* one problem per file: a second document is a mistake, not something to ignore */
		yaml_document_t extra;
		if (!yaml_parser_load(&parser, &extra)) {
			strbuf_addf(err, "%s:%zu:%zu: YAML syntax error: %s\n", path, parser.problem_mark.line + 1,
				    parser.problem_mark.column + 1, parser.problem ? parser.problem : "unknown");
			yaml_parser_delete(&parser);
			goto cleanup;
		}
		if (yaml_document_get_root_node(&extra)) {
			strbuf_addf(err, "%s:%zu:%zu: a problem file holds one YAML document; this is a second one\n",
				    path, extra.start_mark.line + 1, extra.start_mark.column + 1);
			yaml_document_delete(&extra);
			yaml_parser_delete(&parser);
			goto cleanup;
		}
		yaml_document_delete(&extra);
	}
	yaml_parser_delete(&parser);
	if (load_document(&ld, yaml_document_get_root_node(&ld.doc)) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (have_doc)
		yaml_document_delete(&ld.doc);
	strbuf_release(&content);
	if (ret)
		problem_release(p);
	return ret;
}

void problem_release(struct problem *p)
{
	for (int i = 0; i < p->ngroups; i++) {
		free(p->groups[i].name);
		free(p->groups[i].hint);
		free(p->groups[i].hint_ko);
	}
	free(p->groups);
	for (int k = 0; k < p->ncases; k++) {
		struct test_case *tc = &p->cases[k];
		if (tc->args)
			for (int i = 0; i < p->funcs[tc->func].ninputs; i++)
				value_release(&tc->args[i]);
		free(tc->args);
		free(tc->name);
	}
	free(p->cases);
	free(p->filters);
	for (int i = 0; i < p->ngens; i++)
		free(p->gens[i]);
	free(p->gens);
	/* after the cases: releasing them needs each function's input count */
	for (int i = 0; i < p->nfuncs; i++)
		signature_release(&p->funcs[i]);
	free(p->funcs);
	for (int i = 0; p->calls && i < p->nfuncs; i++)
		free(p->calls[i]);
	free(p->calls);
	for (int i = 0; i < p->nvariants; i++)
		problem_release(&p->variants[i]);
	free(p->variants);
	free(p->id);
	free(p->title);
	free(p->statement);
	free(p->source);
	free(p->path);
	free(p->equivalent_to);
	for (int i = 0; i < p->nequivalents; i++) {
		free(p->equivalents[i].id);
		free(p->equivalents[i].reason);
	}
	free(p->equivalents);
	if (p->growth.gen) {
		case_spec_release(p->growth.gen);
		free(p->growth.gen);
	}
	memset(p, 0, sizeof(*p));
}

static int compare_problems(const void *a, const void *b)
{
	return strcmp(((const struct problem *)a)->id, ((const struct problem *)b)->id);
}

/* No two problems look for the same file, in any of their languages. */
static int check_sources(struct problem_set *set, struct strbuf *err)
{
	int ret = 0;
	for (int i = 0; i < set->nproblems; i++)
		for (int j = 0; j < i; j++)
			for (int a = 0; a < problem_nvariants(&set->problems[i]); a++)
				for (int b = 0; b < problem_nvariants(&set->problems[j]); b++) {
					const struct problem *p = problem_variant(&set->problems[i], a);
					const struct problem *q = problem_variant(&set->problems[j], b);
					if (strcasecmp(p->source, q->source))
						continue;
					strbuf_addf(err, "%s:%d:%d: source '%s' is already used by problem '%s'\n", p->path,
						    p->source_line, p->source_column, p->source, q->id);
					ret = -1;
				}
	return ret;
}

int problem_set_load(struct problem_set *set, const char *dir, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;
	int ret = 0;

	set->dir = xstrdup(dir);
	if (!d) {
		strbuf_addf(err, "%s: cannot open the problems directory: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char *path;
		struct problem p;
		if (de->d_name[0] == '.' ||
		    !((l > 5 && !strcmp(de->d_name + l - 5, ".yaml")) || (l > 4 && !strcmp(de->d_name + l - 4, ".yml"))))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (problem_load(&p, path, err) < 0) {
			ret = -1;
		} else {
			ALLOC_GROW(set->problems, set->nproblems + 1, alloc);
			set->problems[set->nproblems++] = p;
		}
		free(path);
	}
	closedir(d);
	if (set->nproblems)
		qsort(set->problems, (size_t)set->nproblems, sizeof(*set->problems), compare_problems);
	for (int i = 1; i < set->nproblems; i++)
		if (!strcmp(set->problems[i].id, set->problems[i - 1].id)) {
			strbuf_addf(err, "%s:%d:%d: duplicate problem id '%s' (also in %s)\n",
				    set->problems[i].path, set->problems[i].id_line, set->problems[i].id_column,
				    set->problems[i].id, set->problems[i - 1].path);
			ret = -1;
		}
	for (int i = 0; i < set->nproblems; i++) {
		const struct problem *p = &set->problems[i];
		const struct problem *q = p->equivalent_to ? problem_set_find(set, p->equivalent_to) : NULL;
		if (p->equivalent_to && !q) {
			strbuf_addf(err, "%s:%d:%d: equivalent_to names no problem '%s'\n", p->path,
				    p->equivalent_line, p->equivalent_column, p->equivalent_to);
			ret = -1;
		} else if (q && (q->nfuncs != p->nfuncs || q == p)) {
			strbuf_addf(err, "%s:%d:%d: equivalent_to '%s' must be another problem with the same functions\n",
				    p->path, p->equivalent_line, p->equivalent_column, p->equivalent_to);
			ret = -1;
		}
	}
	if (check_sources(set, err) < 0)
		ret = -1;
	if (!ret && !set->nproblems) {
		strbuf_addf(err, "%s: no problem files (*.yaml) found\n", dir);
		ret = -1;
	}
	return ret;
}

void problem_set_release(struct problem_set *set)
{
	for (int i = 0; i < set->nproblems; i++)
		problem_release(&set->problems[i]);
	free(set->problems);
	free(set->dir);
	set->problems = NULL;
	set->nproblems = 0;
	set->dir = NULL;
}

int problem_group_tests(const struct problem *p, int g)
{
	int n = p->groups[g].ncases;
	for (int f = 0; !p->chosen && f < p->nfilters; f++)
		if (p->cases[p->filters[f].first].group == g)
			n -= p->filters[f].ntries - (int)p->filters[f].count;
	return n;
}

int problem_tests(const struct problem *p)
{
	int n = 0;
	for (int g = 0; g < p->ngroups; g++)
		n += problem_group_tests(p, g);
	return n;
}

int problem_choose_cases(struct problem *p, const long long *answers, const bool *have, bool *keep,
			 struct strbuf *why)
{
	int n = 0;
	for (int k = 0; k < p->ncases; k++)
		keep[k] = true;
	if (p->chosen || !p->nfilters)
		return 0;
	for (int f = 0; f < p->nfilters; f++) {
		const struct case_filter *cf = &p->filters[f];
		size_t got = casegen_select(cf->count, cf->balance, cf->answer, answers + cf->first, have + cf->first,
					    (size_t)cf->ntries, keep + cf->first);
		if ((long long)got < cf->count) {
			strbuf_addf(why, "problem %s (%s), line %d: ", p->id, p->lang->name, cf->line);
			if (cf->balance) {
				strbuf_addf(why, "%d draws give %zu tests with as many false as true answers; %lld wanted",
					    cf->ntries, got, cf->count);
			} else {
				strbuf_addf(why, "%zu of %d draws have the answer ", got, cf->ntries);
				problem_format_answer(why, p, p->cases[cf->first].func, cf->answer);
				strbuf_addf(why, "; %lld wanted", cf->count);
			}
			strbuf_addstr(why, " (raise tries, or draw from ranges where that answer is more common)");
			for (int k = 0; k < p->ncases; k++)
				keep[k] = true;
			return -1;
		}
	}
	for (int g = 0; g < p->ngroups; g++) {
		struct group *gr = &p->groups[g];
		int first = n;
		for (int k = gr->first_case; k < gr->first_case + gr->ncases; k++) {
			struct test_case *tc = &p->cases[k];
			if (!keep[k]) {
				for (int i = 0; i < p->funcs[tc->func].ninputs; i++)
					value_release(&tc->args[i]);
				free(tc->args);
				free(tc->name);
				continue;
			}
			if (n != k)
				p->cases[n] = *tc;
			n++;
		}
		gr->first_case = first;
		gr->ncases = n - first;
	}
	p->ncases = n;
	p->chosen = true;
	return 0;
}

bool problem_only_names(const char *only, const char *id)
{
	size_t idl = strlen(id);
	for (const char *p = only; *p;) {
		size_t l = strcspn(p, ",");
		if (l == idl && !strncasecmp(p, id, l)) /* --only P2: file names match case-insensitively too */
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

int problem_set_check_only(const struct problem_set *set, const char *only, struct strbuf *err)
{
	for (const char *p = only; *p;) {
		size_t l = strcspn(p, ",");
		char *id = xstrndup(p, l);
		bool known = !l;
		for (int i = 0; !known && i < set->nproblems; i++)
			known = !strcasecmp(set->problems[i].id, id);
		if (!known) {
			strbuf_addf(err, "--only: no problem '%s' (known:", id);
			for (int i = 0; i < set->nproblems; i++)
				strbuf_addf(err, " %s", set->problems[i].id);
			strbuf_addch(err, ')');
		}
		free(id);
		if (!known)
			return -1;
		p += l + (p[l] == ',');
	}
	return 0;
}

struct problem *problem_set_find(const struct problem_set *set, const char *id)
{
	for (int i = 0; i < set->nproblems; i++)
		if (!strcmp(set->problems[i].id, id))
			return &set->problems[i];
	return NULL;
}

unsigned problem_max_memory_mb(const struct problem *p)
{
	unsigned m = p->limits.memory_mb;
	for (int g = 0; g < p->ngroups; g++)
		if (p->groups[g].limits.memory_mb > m)
			m = p->groups[g].limits.memory_mb;
	return m;
}

const char *visibility_name(enum visibility v)
{
	return v == VIS_HIDDEN ? "hidden" : "public";
}

const char *scoring_name(enum scoring s)
{
	return s == SCORE_ALL_OR_NOTHING ? "all-or-nothing" : "sum";
}

const char *problem_call_name(const struct problem *p, int i)
{
	return p->calls && p->calls[i] ? p->calls[i] : p->funcs[i].name;
}

int problem_nvariants(const struct problem *p)
{
	return 1 + p->nvariants;
}

struct problem *problem_variant(struct problem *p, int k)
{
	return k ? &p->variants[k - 1] : p;
}

static bool same_limits(const struct limits *a, const struct limits *b)
{
	return a->cpu_ms == b->cpu_ms && a->cpu_factor == b->cpu_factor && a->cpu_floor_ms == b->cpu_floor_ms &&
	       a->calibration_ms == b->calibration_ms &&
	       a->wall_ms == b->wall_ms && a->memory_mb == b->memory_mb && a->output_kb == b->output_kb;
}

static bool same_cases(const struct problem *a, const struct group *x, const struct problem *b, const struct group *y)
{
	if (x->ncases != y->ncases)
		return false;
	for (int k = 0; k < x->ncases; k++) {
		const struct test_case *c = &a->cases[x->first_case + k], *d = &b->cases[y->first_case + k];
		if (c->func != d->func)
			return false;
		for (int i = 0; i < a->funcs[c->func].ninputs; i++)
			if (!value_equal(&c->args[i], &d->args[i]))
				return false;
	}
	return true;
}

unsigned problem_group_differs(const struct problem *a, const struct problem *b, int g)
{
	const struct group *x = &a->groups[g], *y = &b->groups[g];
	unsigned own = 0;
	if (!same_limits(&x->limits, &y->limits))
		own |= GROUP_OWN_LIMITS;
	if (!same_cases(a, x, b, y))
		own |= GROUP_OWN_CASES;
	if (!x->hint != !y->hint || (x->hint && strcmp(x->hint, y->hint)) || !x->hint_ko != !y->hint_ko ||
	    (x->hint_ko && strcmp(x->hint_ko, y->hint_ko)))
		own |= GROUP_OWN_HINT;
	return own;
}

void problem_format_answer(struct strbuf *sb, const struct problem *p, int func, long long answer)
{
	if (p->funcs[func].ret == VT_BOOL && (answer == 0 || answer == 1) && p->lang)
		strbuf_addstr(sb, answer ? p->lang->true_word : p->lang->false_word);
	else
		answer_format(sb, p->funcs[func].ret, answer);
}

void test_case_format_call(struct strbuf *sb, const struct problem *p, const struct test_case *tc)
{
	const struct signature *sig = &p->funcs[tc->func];
	strbuf_addf(sb, "%s(", problem_call_name(p, tc->func));
	for (int i = 0; i < sig->ninputs; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		if (tc->args[i].type == VT_BOOL && p->lang)
			strbuf_addstr(sb, tc->args[i].i ? p->lang->true_word : p->lang->false_word);
		else
			value_format(sb, &tc->args[i], 8);
	}
	strbuf_addch(sb, ')');
}
