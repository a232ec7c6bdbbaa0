/* casegen.c - see casegen.h */
#include "problem/casegen.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: small, well-mixed, reproducible on every platform */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * In [lo, hi]: the next output modulo the span.  The slight modulo bias
 * stays: removing it would change every generated case of every problem.
 */
static long long rng_range(uint64_t *state, long long lo, long long hi)
{
	unsigned long long span = (unsigned long long)hi - (unsigned long long)lo + 1ULL;
	if (span == 0) /* the full 64-bit range */
		return (long long)rng_next(state);
	return (long long)((unsigned long long)lo + rng_next(state) % span);
}

/* ---- expressions ---- */

struct expr_parser {
	const char *s;
	const char *const *names;
	int ninputs;
	struct expr *e;
	int alloc;
	struct strbuf *err;
};

static void emit_op(struct expr_parser *ps, enum expr_op_kind kind, long long v, int arg)
{
	if (ps->e->nops == ps->alloc) {
		ps->alloc = ps->alloc ? 2 * ps->alloc : 8;
		ps->e->ops = xrealloc(ps->e->ops, (size_t)ps->alloc * sizeof(*ps->e->ops));
	}
	ps->e->ops[ps->e->nops++] = (struct expr_op){ kind, v, arg };
}

static void skip_space(struct expr_parser *ps)
{
	while (isspace((unsigned char)*ps->s))
		ps->s++;
}

static int parse_sum(struct expr_parser *ps, int depth);

/* a number, an input's name, a parenthesised sum or a negated factor */
static int parse_factor(struct expr_parser *ps, int depth)
{
	skip_space(ps);
	if (depth > 32) {
		strbuf_addstr(ps->err, "the expression is nested too deeply");
		return -1;
	}
	if (*ps->s == '-') {
		ps->s++;
		if (parse_factor(ps, depth + 1) < 0)
			return -1;
		emit_op(ps, EX_NEG, 0, 0);
		return 0;
	}
	if (*ps->s == '(') {
		ps->s++;
		if (parse_sum(ps, depth + 1) < 0)
			return -1;
		skip_space(ps);
		if (*ps->s != ')') {
			strbuf_addstr(ps->err, "a '(' is not closed");
			return -1;
		}
		ps->s++;
		return 0;
	}
	if (isdigit((unsigned char)*ps->s)) {
		unsigned long long v = 0;
		for (; isdigit((unsigned char)*ps->s); ps->s++) {
			if (v > (unsigned long long)LLONG_MAX / 10 ||
			    v * 10 + (unsigned long long)(*ps->s - '0') > (unsigned long long)LLONG_MAX) {
				strbuf_addstr(ps->err, "a number in the expression is too large");
				return -1;
			}
			v = v * 10 + (unsigned long long)(*ps->s - '0');
		}
		emit_op(ps, EX_NUM, (long long)v, 0);
		return 0;
	}
	if (isalpha((unsigned char)*ps->s) || *ps->s == '_') {
		const char *start = ps->s;
		size_t len;
		while (isalnum((unsigned char)*ps->s) || *ps->s == '_')
			ps->s++;
		len = (size_t)(ps->s - start);
		for (int i = 0; i < ps->ninputs; i++)
			if (strlen(ps->names[i]) == len && !strncmp(ps->names[i], start, len)) {
				emit_op(ps, EX_ARG, 0, i);
				return 0;
			}
		strbuf_addf(ps->err, "'%.*s' names no argument of this function (it takes", (int)len, start);
		for (int i = 0; i < ps->ninputs; i++)
			strbuf_addf(ps->err, "%s %s", i ? "," : "", ps->names[i]);
		strbuf_addch(ps->err, ')');
		return -1;
	}
	if (*ps->s)
		strbuf_addf(ps->err, "unexpected '%c' in the expression", *ps->s);
	else
		strbuf_addstr(ps->err, "the expression ends too early");
	return -1;
}

static int parse_product(struct expr_parser *ps, int depth)
{
	if (parse_factor(ps, depth) < 0)
		return -1;
	for (;;) {
		char c;
		skip_space(ps);
		c = *ps->s;
		if (c != '*' && c != '/' && c != '%')
			return 0;
		ps->s++;
		if (parse_factor(ps, depth) < 0)
			return -1;
		emit_op(ps, c == '*' ? EX_MUL : c == '/' ? EX_DIV : EX_MOD, 0, 0);
	}
}

static int parse_sum(struct expr_parser *ps, int depth)
{
	if (parse_product(ps, depth) < 0)
		return -1;
	for (;;) {
		char c;
		skip_space(ps);
		c = *ps->s;
		if (c != '+' && c != '-')
			return 0;
		ps->s++;
		if (parse_product(ps, depth) < 0)
			return -1;
		emit_op(ps, c == '+' ? EX_ADD : EX_SUB, 0, 0);
	}
}

int expr_parse(const char *text, const char *const *names, int ninputs, struct expr **out, struct strbuf *err)
{
	struct expr_parser ps = { text, names, ninputs, xcalloc(1, sizeof(struct expr)), 0, err };
	if (parse_sum(&ps, 0) < 0)
		goto fail;
	skip_space(&ps);
	if (*ps.s) {
		strbuf_addf(err, "unexpected '%c' in the expression", *ps.s);
		goto fail;
	}
	*out = ps.e;
	return 0;
fail:
	expr_free(ps.e);
	return -1;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	free(e->ops);
	free(e);
}

static long long sat(__int128 v)
{
	return v > LLONG_MAX ? LLONG_MAX : v < LLONG_MIN ? LLONG_MIN : (long long)v;
}

static long long apply(enum expr_op_kind k, long long a, long long b)
{
	switch (k) {
	case EX_ADD:
		return sat((__int128)a + b);
	case EX_SUB:
		return sat((__int128)a - b);
	case EX_MUL:
		return sat((__int128)a * b);
	case EX_DIV:
		return b ? sat((__int128)a / b) : 0;
	case EX_MOD:
		return b ? (long long)((__int128)a % b) : 0;
	default:
		return 0;
	}
}

/* The value of e for a test whose inputs args[] (those e reads) are drawn already. */
static long long expr_eval(const struct expr *e, const struct value *args)
{
	long long stack[64];
	int top = 0;
	for (int i = 0; i < e->nops; i++) {
		const struct expr_op *o = &e->ops[i];
		if (o->kind == EX_NUM || o->kind == EX_ARG) {
			const struct value *a = &args[o->arg];
			if (top == 64)
				return 0; /* the parser's depth limit keeps the stack far below */
			stack[top++] = o->kind == EX_NUM ? o->v : value_type_is_array(a->type) ? (long long)a->len : a->i;
		} else if (o->kind == EX_NEG) {
			stack[top - 1] = sat(-(__int128)stack[top - 1]);
		} else {
			top--;
			stack[top - 1] = apply(o->kind, stack[top - 1], stack[top]);
		}
	}
	return top ? stack[0] : 0;
}

void arg_spec_deps(const struct arg_spec *arg, bool *deps, int nargs)
{
	const struct expr *es[4] = { arg->lo_e, arg->hi_e, arg->len_lo_e, arg->len_hi_e };
	memset(deps, 0, (size_t)nargs * sizeof(bool));
	for (int j = 0; j < 4; j++)
		for (int i = 0; es[j] && i < es[j]->nops; i++)
			if (es[j]->ops[i].kind == EX_ARG && es[j]->ops[i].arg < nargs)
				deps[es[j]->ops[i].arg] = true;
}

int casegen_order(const struct case_spec *spec, int *order)
{
	int n = spec->nargs, done = 0, ret = -1;
	bool *drawn = xcalloc((size_t)n + 1, sizeof(bool)), *deps = xcalloc((size_t)n + 1, sizeof(bool));
	while (done < n) {
		int pick = -1;
		for (int i = n - 1; i >= 0 && pick < 0; i--) {
			bool ready = !drawn[i];
			arg_spec_deps(&spec->args[i], deps, n);
			for (int j = 0; j < n && ready; j++)
				if (deps[j] && !drawn[j])
					ready = false;
			if (ready)
				pick = i;
		}
		if (pick < 0)
			goto cleanup;
		drawn[pick] = true;
		order[done++] = pick;
	}
	ret = 0;
cleanup:
	free(drawn);
	free(deps);
	return ret;
}

/* ---- interval arithmetic over the static bounds, for the loader's checks ---- */

static void arg_span(const struct case_spec *spec, int i, long long *lo, long long *hi, int depth);

static void span_of(const struct case_spec *spec, const struct expr *e, long long *lo, long long *hi, int depth)
{
	long long slo[64], shi[64];
	int top = 0;
	for (int i = 0; i < e->nops; i++) {
		const struct expr_op *o = &e->ops[i];
		if (top == 64)
			break;
		if (o->kind == EX_NUM) {
			slo[top] = shi[top] = o->v;
			top++;
		} else if (o->kind == EX_ARG) {
			arg_span(spec, o->arg, &slo[top], &shi[top], depth + 1);
			top++;
		} else if (o->kind == EX_NEG) {
			long long l = slo[top - 1];
			slo[top - 1] = sat(-(__int128)shi[top - 1]);
			shi[top - 1] = sat(-(__int128)l);
		} else {
			long long al = slo[top - 2], ah = shi[top - 2], bl = slo[top - 1], bh = shi[top - 1];
			long long c[4];
			top--;
			if ((o->kind == EX_DIV || o->kind == EX_MOD) && bl <= 0 && bh >= 0) {
				/* a divisor that may be 0 (giving 0) or of either sign: the widest answer */
				long long m = o->kind == EX_MOD ? sat((__int128)(bl < 0 ? -(__int128)bl : bh)) : LLONG_MAX;
				long long big = al < 0 || ah > 0 ? (llabs(al) > llabs(ah) ? llabs(al) : llabs(ah)) : 0;
				if (o->kind == EX_MOD)
					big = big < m ? big : m;
				slo[top - 1] = -big;
				shi[top - 1] = big;
				continue;
			}
			if (o->kind == EX_MOD) {
				long long m = llabs(bl) > llabs(bh) ? llabs(bl) : llabs(bh);
				slo[top - 1] = al < 0 ? -(m - 1) : 0;
				shi[top - 1] = ah > 0 ? m - 1 : 0;
				continue;
			}
			c[0] = apply(o->kind, al, bl);
			c[1] = apply(o->kind, al, bh);
			c[2] = apply(o->kind, ah, bl);
			c[3] = apply(o->kind, ah, bh);
			slo[top - 1] = shi[top - 1] = c[0];
			for (int k = 1; k < 4; k++) {
				slo[top - 1] = c[k] < slo[top - 1] ? c[k] : slo[top - 1];
				shi[top - 1] = c[k] > shi[top - 1] ? c[k] : shi[top - 1];
			}
		}
	}
	*lo = top ? slo[0] : 0;
	*hi = top ? shi[0] : 0;
}

static void type_span(enum value_type t, long long *lo, long long *hi)
{
	/* an int array's elements are ints */
	*lo = t == VT_BOOL ? 0 : t == VT_INT || t == VT_INT_ARRAY ? INT_MIN : LLONG_MIN;
	*hi = t == VT_BOOL ? 1 : t == VT_INT || t == VT_INT_ARRAY ? INT_MAX : LLONG_MAX;
}

static long long clamp(long long v, long long lo, long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* one bound: its constant, or its expression's span clamped to [tlo, thi] */
static void bound_span(const struct case_spec *spec, const struct expr *e, long long k, long long tlo, long long thi,
		       long long *lo, long long *hi, int depth)
{
	if (!e) {
		*lo = *hi = k;
		return;
	}
	if (depth > spec->nargs + 1) { /* a circle: the loader refuses it; stay finite */
		*lo = tlo;
		*hi = thi;
		return;
	}
	span_of(spec, e, lo, hi, depth);
	*lo = clamp(*lo, tlo, thi);
	*hi = clamp(*hi, tlo, thi);
}

/* what input i can be: an integer's values, an array's lengths */
static void arg_span(const struct case_spec *spec, int i, long long *lo, long long *hi, int depth)
{
	const struct arg_spec *a = &spec->args[i];
	long long tlo, thi, l1, h1, l2, h2;
	if (a->kind == ARG_LITERAL) {
		*lo = *hi = value_type_is_array(a->type) ? (long long)a->literal.len : a->literal.i;
		return;
	}
	if (a->kind == ARG_RANDOM_ARRAY) {
		bound_span(spec, a->len_lo_e, a->len_lo, 0, CASEGEN_MAX_LEN, &l1, &h1, depth);
		bound_span(spec, a->len_hi_e, a->len_hi, 0, CASEGEN_MAX_LEN, &l2, &h2, depth);
	} else {
		type_span(a->type, &tlo, &thi);
		bound_span(spec, a->lo_e, a->lo, tlo, thi, &l1, &h1, depth);
		bound_span(spec, a->hi_e, a->hi, tlo, thi, &l2, &h2, depth);
	}
	/* a draw is in [lo, max(lo, hi)] */
	*lo = l1;
	*hi = h2 > h1 ? h2 : h1;
}

void casegen_expr_span(const struct case_spec *spec, const struct expr *e, long long *lo, long long *hi)
{
	span_of(spec, e, lo, hi, 0);
}

/* ---- specs ---- */

void case_spec_release(struct case_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++) {
		struct arg_spec *a = &spec->args[i];
		value_release(&a->literal);
		expr_free(a->lo_e);
		expr_free(a->hi_e);
		expr_free(a->len_lo_e);
		expr_free(a->len_hi_e);
	}
	free(spec->args);
	free(spec->name);
	*spec = (struct case_spec)CASE_SPEC_INIT;
}

static bool has_kind(const struct case_spec *spec, enum arg_kind kind)
{
	for (int i = 0; i < spec->nargs; i++)
		if (spec->args[i].kind == kind)
			return true;
	return false;
}

bool case_spec_is_dependent(const struct case_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++) {
		const struct arg_spec *a = &spec->args[i];
		if (a->lo_e || a->hi_e || a->len_lo_e || a->len_hi_e || a->sorted || a->distinct || a->has_xor)
			return true;
	}
	return false;
}

bool case_spec_is_random(const struct case_spec *spec)
{
	return has_kind(spec, ARG_RANDOM) || has_kind(spec, ARG_RANDOM_ARRAY);
}

bool case_spec_is_explicit(const struct case_spec *spec)
{
	return !has_kind(spec, ARG_RANGE) && !case_spec_is_random(spec);
}

size_t arg_spec_nvalues(const struct arg_spec *arg)
{
	if (arg->kind != ARG_RANGE)
		return 1;
	/* unsigned: hi - lo may not fit a long long */
	return (size_t)((unsigned long long)arg->hi - (unsigned long long)arg->lo) + 1;
}

size_t case_spec_ntests(const struct case_spec *spec)
{
	size_t n = (size_t)(spec->tries ? spec->tries : spec->count);
	for (int i = 0; i < spec->nargs; i++)
		n *= arg_spec_nvalues(&spec->args[i]);
	return n;
}

static int compare_elements(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* n distinct values of [lo, hi] (span values, n <= span), in the order drawn */
static void draw_distinct(long long *out, size_t n, long long lo, long long hi, uint64_t *state)
{
	unsigned long long span = (unsigned long long)hi - (unsigned long long)lo + 1ULL;
	if (span <= 4ULL * n) {
		/* partial Fisher-Yates over the whole span */
		long long *all = xcalloc((size_t)span + 1, sizeof(*all));
		for (unsigned long long v = 0; v < span; v++)
			all[v] = lo + (long long)v;
		for (size_t e = 0; e < n; e++) {
			size_t j = e + (size_t)rng_range(state, 0, (long long)(span - 1 - e));
			long long t = all[e];
			all[e] = all[j];
			all[j] = t;
			out[e] = all[e];
		}
		free(all);
		return;
	}
	/* sparse: draws with duplicates skipped, remembered in an open-addressing set */
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	long long *set = xcalloc(cap, sizeof(long long));
	bool *used = xcalloc(cap, sizeof(bool));
	for (size_t e = 0; e < n;) {
		long long v = rng_range(state, lo, hi);
		size_t h = (size_t)(((unsigned long long)v * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
		while (used[h] && set[h] != v)
			h = (h + 1) & (cap - 1);
		if (used[h])
			continue;
		used[h] = true;
		set[h] = v;
		out[e++] = v;
	}
	free(set);
	free(used);
}

/* the last element completes the XOR; see casegen.h for the fallback */
static void complete_xor(long long *arr, size_t len, long long lo, long long hi, long long want, uint64_t *state)
{
	if (!len)
		return;
	for (int attempt = 0; attempt < 64; attempt++) {
		/* the values are at least 0 (the loader checks): the XOR of int elements stays an int */
		unsigned long long x = (unsigned long long)want;
		for (size_t e = 0; e + 1 < len; e++)
			x ^= (unsigned long long)arr[e];
		if (x <= (unsigned long long)LLONG_MAX && (long long)x <= hi && (long long)x >= lo) {
			arr[len - 1] = (long long)x;
			return;
		}
		if (len < 2)
			break;
		arr[len - 2] = rng_range(state, lo, hi);
	}
	memset(arr, 0, len * sizeof(*arr));
	arr[len - 1] = want;
}

/* a bound of argument spec s for this test: its constant or its expression, clamped */
static long long bound(const struct expr *e, long long k, long long lo, long long hi, const struct value *args)
{
	return e ? clamp(expr_eval(e, args), lo, hi) : k;
}

/*
 * One argument of test number k: `rest` holds k's position among the
 * range combinations, with the ranges of the arguments after this one
 * already divided out; a range takes its digit and divides it out too.
 * args: the test's arguments, those this one depends on drawn already.
 */
static void generate_arg(struct value *a, const struct arg_spec *s, size_t *rest, uint64_t *state,
			 const struct value *args)
{
	long long tlo, thi, lo, hi, len_lo, len_hi;
	a->type = s->type;
	switch (s->kind) {
	case ARG_LITERAL:
		value_copy(a, &s->literal);
		break;
	case ARG_RANGE: {
		size_t span = arg_spec_nvalues(s);
		a->i = s->lo + (long long)(*rest % span);
		*rest /= span;
		break;
	}
	case ARG_RANDOM:
		type_span(s->type, &tlo, &thi);
		lo = bound(s->lo_e, s->lo, tlo, thi, args);
		hi = bound(s->hi_e, s->hi, tlo, thi, args);
		a->i = rng_range(state, lo, hi < lo ? lo : hi);
		break;
	case ARG_RANDOM_ARRAY:
		type_span(s->type, &tlo, &thi);
		lo = bound(s->lo_e, s->lo, tlo, thi, args);
		hi = bound(s->hi_e, s->hi, tlo, thi, args);
		hi = hi < lo ? lo : hi;
		len_lo = bound(s->len_lo_e, s->len_lo, 0, CASEGEN_MAX_LEN, args);
		len_hi = bound(s->len_hi_e, s->len_hi, 0, CASEGEN_MAX_LEN, args);
		a->len = (size_t)rng_range(state, len_lo, len_hi < len_lo ? len_lo : len_hi);
		if (s->distinct && (unsigned long long)a->len > (unsigned long long)hi - (unsigned long long)lo + 1ULL)
			a->len = (size_t)((unsigned long long)hi - (unsigned long long)lo + 1ULL);
		a->arr = xcalloc(a->len + 1, sizeof(*a->arr));
		if (s->distinct)
			draw_distinct(a->arr, a->len, lo, hi, state);
		else
			for (size_t e = 0; e < a->len; e++)
				a->arr[e] = rng_range(state, lo, hi);
		if (s->has_xor)
			complete_xor(a->arr, a->len, lo, hi, s->xor_value, state);
		if (s->sorted)
			qsort(a->arr, a->len, sizeof(*a->arr), compare_elements);
		break;
	}
}

size_t casegen_expand(const struct case_spec *spec, int group, struct test_case **cases, int *ncases,
		      size_t *alloc)
{
	size_t total = case_spec_ntests(spec);
	size_t per = (size_t)(spec->tries ? spec->tries : spec->count);
	uint64_t state = spec->seed;
	int *order = xcalloc((size_t)spec->nargs + 1, sizeof(int));

	if (casegen_order(spec, order) < 0) /* the loader refuses circles; draw in plain order all the same */
		for (int i = 0; i < spec->nargs; i++)
			order[i] = spec->nargs - 1 - i;

	for (size_t k = 0; k < total; k++) {
		struct test_case *tc;
		size_t rest = k / per; /* ranges vary slowest-last */
		ALLOC_GROW(*cases, *ncases + 1, *alloc);
		tc = &(*cases)[(*ncases)++];
		memset(tc, 0, sizeof(*tc));
		tc->group = group;
		tc->func = spec->func;
		tc->line = spec->line;
		tc->args = xcalloc((size_t)spec->nargs + 1, sizeof(struct value));
		tc->has_expected = spec->has_expected;
		tc->expected = spec->expected;
		if (spec->name)
			tc->name = xstrdup(spec->name);
		if (spec->has_n) /* the slot past the inputs (allocated above): what expressions call N */
			tc->args[spec->nargs] = (struct value){ VT_INT, spec->n, NULL, 0 };
		/* ranges take their digits last to first whatever the draw order, so a range
		 * combination means the same with or without expressions */
		for (int i = spec->nargs - 1; i >= 0; i--)
			if (spec->args[i].kind == ARG_RANGE)
				generate_arg(&tc->args[i], &spec->args[i], &rest, &state, tc->args);
		for (int j = 0; j < spec->nargs; j++)
			if (spec->args[order[j]].kind != ARG_RANGE)
				generate_arg(&tc->args[order[j]], &spec->args[order[j]], &rest, &state, tc->args);
	}
	free(order);
	return total;
}

size_t casegen_select(long long count, bool balance, long long answer, const long long *answers, const bool *have,
		      size_t ntries, bool *keep)
{
	long long want[2] = { count / 2, count - count / 2 }, kept = 0;
	memset(keep, 0, ntries * sizeof(bool));
	for (size_t k = 0; k < ntries && kept < count; k++) {
		if (!have[k])
			continue;
		if (balance) {
			int b = answers[k] != 0;
			if (want[b] > 0) {
				want[b]--;
				keep[k] = true;
			}
		} else {
			keep[k] = answers[k] == answer;
		}
		kept += keep[k];
	}
	return (size_t)kept;
}
