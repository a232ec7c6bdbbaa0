/* batch_policy.c - see batch_policy.h */
#define _GNU_SOURCE
#include "batch/batch_policy.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

#include "base/text.h"

#define HOUR_S 3600
#define DAY_S 86400

/* ---- times ---- */

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (**p - '0');
	}
	*out = v;
	return 0;
}

int late_parse_time(const char *s, int64_t *t, int *offset_s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 1;
	const char *p = s;

	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' || digits(&p, 2, &d) ||
	    (*p != 'T' && *p != 't' && *p != ' ') || !*p++ || digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, &sec))
			return -1;
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (digits(&p, 2, &oh))
			return -1;
		if (*p == ':')
			p++;
		if (digits(&p, 2, &om))
			return -1;
	} else {
		return -1;
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60 || oh > 23 ||
	    om > 59)
		return -1;
	if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100) || y % 400 == 0))
		return -1;
	*offset_s = sign * (oh * 3600 + om * 60);
	*t = days_from_civil(y, (unsigned)mo, (unsigned)d) * DAY_S + h * 3600 + mi * 60 + sec - *offset_s;
	return 0;
}

void late_format_time(struct strbuf *sb, int64_t t, int offset_s)
{
	time_t local = (time_t)(t + offset_s);
	struct tm tm;
	int off = offset_s < 0 ? -offset_s : offset_s;
	gmtime_r(&local, &tm);
	strbuf_addf(sb, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	if (!offset_s)
		strbuf_addch(sb, 'Z');
	else
		strbuf_addf(sb, "%c%02d:%02d", offset_s < 0 ? '-' : '+', off / 3600, off / 60 % 60);
}

/* ---- the policy file ---- */

struct loader {
	const char *path;
	yaml_document_t doc;
	struct strbuf *err;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;
	strbuf_addf(ld->err, "%s:%zu:%zu: ", ld->path, node ? node->start_mark.line + 1 : 1,
		    node ? node->start_mark.column + 1 : 1);
	va_start(ap, fmt);
	strbuf_vaddf(ld->err, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int get_time(struct loader *ld, const yaml_node_t *n, const char *key, int64_t *t, int *offset)
{
	const char *s = scalar(n);
	int off;
	if (!s || late_parse_time(s, t, &off) < 0)
		return fail(ld, n, "'%s' takes a date and time in ISO 8601 with its UTC offset, e.g. "
			    "2026-11-20T23:59:00+01:00 or 2026-11-20T22:59:00Z%s%s%s", key, s ? ", not '" : "",
			    s ? s : "", s ? "'" : "");
	if (offset)
		*offset = off;
	return 0;
}

static int get_percent(struct loader *ld, const yaml_node_t *n, const char *key, double *v)
{
	const char *s = scalar(n);
	char *end;
	if (s) {
		errno = 0;
		*v = strtod(s, &end);
		if (*s && !*end && !errno && isfinite(*v) && *v >= 0 && *v <= 100)
			return 0;
	}
	return fail(ld, n, "'%s' takes a percentage from 0 to 100%s%s%s", key, s ? ", not '" : "", s ? s : "",
		    s ? "'" : "");
}

static int load_penalty(struct loader *ld, yaml_node_t *n, struct late_policy *p)
{
	bool have_per = false, have_percent = false;
	if (n->type != YAML_MAPPING_NODE)
		return fail(ld, n, "'penalty' takes a mapping: per (hour or day), percent, cap");
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key), *v = yaml_document_get_node(&ld->doc, pr->value);
		const char *key = scalar(k);
		if (!key)
			return fail(ld, k, "a key of 'penalty' must be a name");
		if (!strcmp(key, "per")) {
			const char *s = scalar(v);
			if (s && !strcmp(s, "hour"))
				p->unit = LATE_PER_HOUR;
			else if (s && !strcmp(s, "day"))
				p->unit = LATE_PER_DAY;
			else
				return fail(ld, v, "'per' takes hour or day%s%s%s", s ? ", not '" : "", s ? s : "",
					    s ? "'" : "");
			have_per = true;
		} else if (!strcmp(key, "percent")) {
			if (get_percent(ld, v, "percent", &p->percent) < 0)
				return -1;
			have_percent = true;
		} else if (!strcmp(key, "cap")) {
			if (get_percent(ld, v, "cap", &p->cap) < 0)
				return -1;
		} else {
			return fail(ld, k, "unknown key '%s' in 'penalty' (per, percent, cap)", key);
		}
	}
	if (!have_per || !have_percent)
		return fail(ld, n, "'penalty' needs %s", !have_per ? "'per: hour' or 'per: day'" : "'percent'");
	return 0;
}

static int cmp_ext(const void *a, const void *b)
{
	return strcmp(((const struct late_extension *)a)->id, ((const struct late_extension *)b)->id);
}

static int load_extension(struct loader *ld, yaml_node_t *k, yaml_node_t *v, const struct late_policy *p,
			  struct late_extension *e)
{
	e->id = xstrdup(scalar(k));
	if (v->type == YAML_SCALAR_NODE) {
		/* a new deadline: the late period keeps its length */
		if (get_time(ld, v, e->id, &e->deadline, NULL) < 0)
			return -1;
		e->late_until = e->deadline + (p->late_until - p->deadline);
		return 0;
	}
	if (v->type != YAML_MAPPING_NODE)
		return fail(ld, v, "the extension of '%s' takes a date and time, or a mapping with deadline and "
			    "late_until", e->id);
	e->deadline = e->late_until = INT64_MIN;
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		yaml_node_t *kk = yaml_document_get_node(&ld->doc, pr->key), *vv = yaml_document_get_node(&ld->doc, pr->value);
		const char *key = scalar(kk);
		if (key && !strcmp(key, "deadline")) {
			if (get_time(ld, vv, "deadline", &e->deadline, NULL) < 0)
				return -1;
		} else if (key && !strcmp(key, "late_until")) {
			if (get_time(ld, vv, "late_until", &e->late_until, NULL) < 0)
				return -1;
		} else {
			return fail(ld, kk, "unknown key '%s' in the extension of '%s' (deadline, late_until)",
				    key ? key : "?", e->id);
		}
	}
	if (e->deadline == INT64_MIN)
		return fail(ld, v, "the extension of '%s' needs a deadline", e->id);
	if (e->late_until == INT64_MIN)
		e->late_until = e->deadline + (p->late_until - p->deadline);
	if (e->late_until < e->deadline)
		return fail(ld, v, "the extension of '%s' ends (late_until) before its deadline", e->id);
	return 0;
}

static int load_extensions(struct loader *ld, yaml_node_t *n, struct late_policy *p)
{
	if (n->type != YAML_MAPPING_NODE)
		return fail(ld, n, "'extensions' takes a mapping: student id: new deadline");
	p->ext = xcalloc((size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) + 1, sizeof(*p->ext));
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key), *v = yaml_document_get_node(&ld->doc, pr->value);
		if (!scalar(k) || !*scalar(k))
			return fail(ld, k, "a key of 'extensions' must be a student id");
		for (int i = 0; i < p->next; i++)
			if (!strcmp(p->ext[i].id, scalar(k)))
				return fail(ld, k, "'%s' has two extensions", scalar(k));
		if (load_extension(ld, k, v, p, &p->ext[p->next++]) < 0)
			return -1;
	}
	qsort(p->ext, (size_t)p->next, sizeof(*p->ext), cmp_ext);
	return 0;
}

static int load_root(struct loader *ld, yaml_node_t *root, struct late_policy *p)
{
	yaml_node_t *deadline = NULL, *late_until = NULL, *penalty = NULL, *ext = NULL;
	if (!root)
		return fail(ld, NULL, "the policy file is empty: it needs deadline, late_until and penalty");
	if (root->type != YAML_MAPPING_NODE)
		return fail(ld, root, "a policy is a mapping: deadline, late_until, penalty, extensions");
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&ld->doc, pr->key), *v = yaml_document_get_node(&ld->doc, pr->value);
		const char *key = scalar(k);
		yaml_node_t **slot = NULL;
		if (key && !strcmp(key, "deadline"))
			slot = &deadline;
		else if (key && !strcmp(key, "late_until"))
			slot = &late_until;
		else if (key && !strcmp(key, "penalty"))
			slot = &penalty;
		else if (key && !strcmp(key, "extensions"))
			slot = &ext;
		else
			return fail(ld, k, "unknown key '%s' (a policy has deadline, late_until, penalty, extensions)",
				    key ? key : "?");
		if (*slot)
			return fail(ld, k, "'%s' is given twice", key);
		*slot = v;
	}
	if (!deadline || !late_until || !penalty)
		return fail(ld, root, "the policy needs '%s'", !deadline ? "deadline" : !late_until ? "late_until" : "penalty");
	if (get_time(ld, deadline, "deadline", &p->deadline, &p->offset_s) < 0 ||
	    get_time(ld, late_until, "late_until", &p->late_until, NULL) < 0)
		return -1;
	if (p->late_until < p->deadline)
		return fail(ld, late_until, "late_until is before the deadline");
	p->cap = 100;
	if (load_penalty(ld, penalty, p) < 0)
		return -1;
	return ext && ext->type != YAML_SCALAR_NODE ? load_extensions(ld, ext, p)
	       : ext && *scalar(ext) ? fail(ld, ext, "'extensions' takes a mapping: student id: new deadline") : 0;
}

int late_policy_load(const char *path, struct late_policy *p, struct strbuf *err)
{
	struct loader ld;
	struct strbuf content = STRBUF_INIT;
	yaml_parser_t parser;
	bool have_doc = false;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	memset(&ld, 0, sizeof(ld));
	ld.path = path;
	ld.err = err;
	if (read_file(&content, path) < 0) {
		strbuf_addf(err, "cannot read the policy '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (!yaml_parser_initialize(&parser))
		die("cannot initialise the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)content.buf, content.len);
	if (!yaml_parser_load(&parser, &ld.doc)) {
		strbuf_addf(err, "%s:%zu:%zu: YAML syntax error: %s%s%s", path, parser.problem_mark.line + 1,
			    parser.problem_mark.column + 1, parser.problem ? parser.problem : "unknown",
			    parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		goto cleanup;
	}
	yaml_parser_delete(&parser);
	have_doc = true;
	ret = load_root(&ld, yaml_document_get_root_node(&ld.doc), p);
cleanup:
	if (have_doc)
		yaml_document_delete(&ld.doc);
	strbuf_release(&content);
	if (ret)
		late_policy_release(p);
	return ret;
}

void late_policy_release(struct late_policy *p)
{
	for (int i = 0; i < p->next; i++)
		free(p->ext[i].id);
	free(p->ext);
	memset(p, 0, sizeof(*p));
}

void late_policy_copy(struct late_policy *dst, const struct late_policy *src)
{
	*dst = *src;
	dst->ext = xcalloc((size_t)src->next + 1, sizeof(*dst->ext));
	for (int i = 0; i < src->next; i++) {
		dst->ext[i] = src->ext[i];
		dst->ext[i].id = xstrdup(src->ext[i].id);
	}
}

json_t *late_policy_to_json(const struct late_policy *p)
{
	json_t *j = json_object(), *ext = json_object();
	json_object_set_new(j, "deadline", json_integer(p->deadline));
	json_object_set_new(j, "late_until", json_integer(p->late_until));
	json_object_set_new(j, "offset_s", json_integer(p->offset_s));
	json_object_set_new(j, "per", json_string(p->unit == LATE_PER_HOUR ? "hour" : "day"));
	json_object_set_new(j, "percent", json_real(p->percent));
	json_object_set_new(j, "cap", json_real(p->cap));
	for (int i = 0; i < p->next; i++) {
		json_t *e = json_array();
		json_array_append_new(e, json_integer(p->ext[i].deadline));
		json_array_append_new(e, json_integer(p->ext[i].late_until));
		json_object_set_new(ext, p->ext[i].id, e);
	}
	json_object_set_new(j, "extensions", ext);
	return j;
}

int late_policy_from_json(json_t *j, struct late_policy *p, struct strbuf *err)
{
	json_t *ext = json_object_get(j, "extensions"), *v;
	const char *per = json_string_value(json_object_get(j, "per")), *key;

	memset(p, 0, sizeof(*p));
	if (!json_is_object(j) || !json_is_integer(json_object_get(j, "deadline")) ||
	    !json_is_integer(json_object_get(j, "late_until")) || !per || !json_is_object(ext)) {
		strbuf_addstr(err, "incomplete policy");
		return -1;
	}
	p->deadline = json_integer_value(json_object_get(j, "deadline"));
	p->late_until = json_integer_value(json_object_get(j, "late_until"));
	p->offset_s = (int)json_integer_value(json_object_get(j, "offset_s"));
	p->unit = !strcmp(per, "hour") ? LATE_PER_HOUR : LATE_PER_DAY;
	p->percent = json_number_value(json_object_get(j, "percent"));
	p->cap = json_number_value(json_object_get(j, "cap"));
	p->ext = xcalloc(json_object_size(ext) + 1, sizeof(*p->ext));
	json_object_foreach(ext, key, v) {
		struct late_extension *e = &p->ext[p->next++];
		e->id = xstrdup(key);
		e->deadline = json_integer_value(json_array_get(v, 0));
		e->late_until = json_integer_value(json_array_get(v, 1));
	}
	qsort(p->ext, (size_t)p->next, sizeof(*p->ext), cmp_ext);
	return 0;
}

bool late_policy_equal(const struct late_policy *a, const struct late_policy *b)
{
	if (a->deadline != b->deadline || a->late_until != b->late_until || a->unit != b->unit ||
	    a->percent != b->percent || a->cap != b->cap || a->next != b->next)
		return false;
	for (int i = 0; i < a->next; i++)
		if (strcmp(a->ext[i].id, b->ext[i].id) || a->ext[i].deadline != b->ext[i].deadline ||
		    a->ext[i].late_until != b->ext[i].late_until)
			return false;
	return true;
}

const struct late_extension *late_policy_for(const struct late_policy *p, const char *id, int64_t *deadline,
					     int64_t *late_until)
{
	struct late_extension key = { .id = (char *)id };
	const struct late_extension *e = p->next ? bsearch(&key, p->ext, (size_t)p->next, sizeof(key), cmp_ext) : NULL;
	*deadline = e ? e->deadline : p->deadline;
	*late_until = e ? e->late_until : p->late_until;
	return e;
}

/* ---- a submission's time and its price ---- */

void late_time_release(struct late_time *t)
{
	free(t->source);
	free(t->commit);
	memset(t, 0, sizeof(*t));
}

json_t *late_time_to_json(const struct late_time *t)
{
	json_t *j = json_object();
	if (t->known)
		json_object_set_new(j, "when", json_integer(t->when));
	json_object_set_new(j, "late_marker", json_boolean(t->late_marker));
	json_object_set_new(j, "flagged", json_boolean(t->flagged));
	json_object_set_new(j, "source", json_string(t->source ? t->source : ""));
	if (t->commit)
		json_object_set_new(j, "commit", json_string(t->commit));
	return j;
}

void late_time_from_json(json_t *j, struct late_time *t)
{
	const char *s = json_string_value(json_object_get(j, "source")), *c = json_string_value(json_object_get(j, "commit"));
	memset(t, 0, sizeof(*t));
	t->known = json_is_integer(json_object_get(j, "when"));
	t->when = json_integer_value(json_object_get(j, "when"));
	t->late_marker = json_is_true(json_object_get(j, "late_marker"));
	t->flagged = json_is_true(json_object_get(j, "flagged"));
	t->source = xstrdup(s ? s : "");
	t->commit = c ? xstrdup(c) : NULL;
}

static void add_duration(struct strbuf *sb, int64_t s)
{
	int64_t d = s / DAY_S, h = s % DAY_S / 3600, m = (s % 3600 + 59) / 60;
	if (m == 60) {
		h++;
		m = 0;
	}
	if (d)
		strbuf_addf(sb, "%lldd ", (long long)d);
	if (d || h)
		strbuf_addf(sb, "%lldh ", (long long)h);
	strbuf_addf(sb, "%lldmin", (long long)m);
}

void late_price(const struct late_policy *p, const char *id, const struct late_time *t, struct late_price *out)
{
	struct strbuf note = STRBUF_INIT;
	int64_t deadline, late_until, unit = p->unit == LATE_PER_HOUR ? HOUR_S : DAY_S, late_s;
	const struct late_extension *e = late_policy_for(p, id, &deadline, &late_until);

	memset(out, 0, sizeof(*out));
	if (t->known && t->when > deadline) {
		late_s = t->when - deadline;
	} else if (t->late_marker) {
		/* the LMS says late, the times do not say how late: the least it can be */
		late_s = 1;
	} else {
		late_s = 0;
	}
	out->late_s = late_s;
	out->marker_only = late_s && !(t->known && t->when > deadline);
	out->per_hour = unit == HOUR_S;
	out->percent = p->percent;
	out->deadline = deadline;
	out->late_until = late_until;
	out->offset_s = p->offset_s;
	if (!late_s) {
		strbuf_addstr(&note, "on time");
	} else if (t->known && t->when > late_until) {
		out->too_late = true;
		out->penalty = 100;
		out->late_hours = (double)late_s / HOUR_S;
		strbuf_addf(&note, "after late_until (");
		late_format_time(&note, late_until, p->offset_s);
		strbuf_addstr(&note, "): final score 0");
	} else {
		int64_t units = (late_s + unit - 1) / unit;
		out->units = units;
		out->capped = (double)units * p->percent > p->cap;
		/* marked late with no time that says how late: one unit, the least it can be */
		out->late_hours = t->known && t->when > deadline ? (double)late_s / HOUR_S : (double)unit / HOUR_S;
		out->penalty = fmin(p->cap, (double)units * p->percent);
		if (t->known && t->when > deadline)
			add_duration(&note, late_s);
		else
			strbuf_addstr(&note, "marked late by the LMS, no time says how late: charged as");
		strbuf_addf(&note, " late: %lld %s%s x ", (long long)units, unit == HOUR_S ? "hour" : "day",
			    units == 1 ? "" : "s");
		text_score(&note, p->percent);
		strbuf_addstr(&note, "% = ");
		text_score(&note, (double)units * p->percent);
		strbuf_addch(&note, '%');
		if ((double)units * p->percent > p->cap) {
			strbuf_addstr(&note, ", capped at ");
			text_score(&note, p->cap);
			strbuf_addch(&note, '%');
		}
	}
	if (e) {
		strbuf_addstr(&note, " (extension to ");
		late_format_time(&note, deadline, p->offset_s);
		strbuf_addch(&note, ')');
	}
	out->late_hours = round(out->late_hours * 100) / 100;
	out->note = strbuf_detach(&note);
}

double late_final(const struct late_price *pr, double raw)
{
	if (pr->too_late)
		return 0;
	return round(raw * (100 - pr->penalty) / 100 * 1e6) / 1e6;
}

void late_price_release(struct late_price *pr)
{
	free(pr->note);
	memset(pr, 0, sizeof(*pr));
}
