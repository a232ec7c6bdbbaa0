/* feedback_late.c - see feedback_late.h */
#define _GNU_SOURCE
#include "batch/feedback_late.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/l10n.h"
#include "base/text.h"

#define TXT_START "== "
#define MD_START "<!-- late -->\n"
#define MD_END "<!-- /late -->\n\n"

/* "1 day 6 hours", "45 minutes": the largest two units that are not 0. */
static void add_duration(struct strbuf *sb, int64_t s)
{
	long long d = s / 86400, h = s % 86400 / 3600, m = (s % 3600 + 59) / 60;
	int said = 0;

	if (m == 60) { /* a started minute rounds up */
		m = 0;
		if (++h == 24) {
			h = 0;
			d++;
		}
	}
	if (d) {
		strbuf_addf(sb, P_("%lld day", "%lld days", (unsigned long)d), d);
		said++;
	}
	if (h) {
		if (said)
			strbuf_addch(sb, ' ');
		strbuf_addf(sb, P_("%lld hour", "%lld hours", (unsigned long)h), h);
		said++;
	}
	if (m && said < 2) {
		if (said)
			strbuf_addch(sb, ' ');
		strbuf_addf(sb, P_("%lld minute", "%lld minutes", (unsigned long)m), m);
		said++;
	}
	if (!said)
		strbuf_addf(sb, P_("%lld minute", "%lld minutes", 1UL), 1LL);
}

/* The block's sentences, one per line (no empty line), in the language being written. */
static void late_lines(struct strbuf *sb, const struct late_price *pr, bool graded, double raw, double final,
		       double max)
{
	struct strbuf deadline = STRBUF_INIT, until = STRBUF_INIT, how = STRBUF_INIT, units = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	late_format_time(&deadline, pr->deadline, pr->offset_s);
	late_format_time(&until, pr->late_until, pr->offset_s);
	add_duration(&how, pr->late_s);
	if (pr->per_hour)
		strbuf_addf(&units, P_("%lld started hour", "%lld started hours", (unsigned long)pr->units), pr->units);
	else
		strbuf_addf(&units, P_("%lld started day", "%lld started days", (unsigned long)pr->units), pr->units);
	if (!pr->late_s) {
		strbuf_addf(sb, _("Handed in on time (deadline %s)."), deadline.buf);
		strbuf_addch(sb, '\n');
	} else if (pr->too_late) {
		strbuf_addf(sb, _("Handed in %s after the deadline (%s), after the last moment late work was taken (%s)."),
			    how.buf, deadline.buf, until.buf);
		strbuf_addch(sb, '\n');
		strbuf_addstr(sb, _("Late penalty: 100%: the final score is 0."));
		strbuf_addch(sb, '\n');
	} else {
		if (pr->marker_only)
			strbuf_addf(sb, _("Marked late by the course's site, with no time that says how late (deadline %s): "
					  "charged as the least it can be."), deadline.buf);
		else
			strbuf_addf(sb, _("Handed in %s after the deadline (%s)."), how.buf, deadline.buf);
		strbuf_addch(sb, '\n');
		text_score(&a, pr->penalty);
		text_score(&b, pr->percent);
		if (pr->capped) {
			text_score(&c, pr->penalty);
			strbuf_addf(sb, _("Late penalty: %s%% (%s x %s%%, at most %s%%)."), a.buf, units.buf, b.buf, c.buf);
		} else {
			strbuf_addf(sb, _("Late penalty: %s%% (%s x %s%%)."), a.buf, units.buf, b.buf);
		}
		strbuf_addch(sb, '\n');
	}
	if (graded) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		strbuf_reset(&c);
		text_score(&a, raw);
		text_score(&b, max);
		text_score(&c, final);
		strbuf_addf(sb, _("Score before the penalty: %s / %s; final score: %s / %s."), a.buf, b.buf, c.buf, b.buf);
		strbuf_addch(sb, '\n');
	}
	strbuf_release(&deadline);
	strbuf_release(&until);
	strbuf_release(&how);
	strbuf_release(&units);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

/* What follows an earlier block at the start of text (md: Markdown), or all of text when there is none. */
static const char *body_of(const char *text, bool md)
{
	const char *end;
	if (md) {
		if (strncmp(text, MD_START, strlen(MD_START)) || !(end = strstr(text, MD_END)))
			return text;
		return end + strlen(MD_END);
	}
	if (strncmp(text, TXT_START, strlen(TXT_START)) || !(end = strstr(text, "\n\n")))
		return text;
	return end + 2;
}

/* Replace the block of one file (block: the new one, or "" for none).  0, or -1. */
static int update_file(const char *path, const char *block, bool md, struct strbuf *err)
{
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT;
	int ret = 0;

	if (read_file(&old, path) < 0)
		goto cleanup; /* no feedback (yet): nothing to put it in */
	strbuf_addstr(&now, block);
	strbuf_addstr(&now, body_of(old.buf, md));
	if ((now.len != old.len || memcmp(now.buf, old.buf, now.len)) &&
	    write_file_atomic(path, now.buf, now.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		ret = -1;
	}
cleanup:
	strbuf_release(&old);
	strbuf_release(&now);
	return ret;
}

int feedback_late_update(const char *outdir, const char *id, const struct late_price *pr, bool graded, double raw,
			 double final, double max, struct strbuf *err)
{
	struct strbuf txt = STRBUF_INIT, md = STRBUF_INIT, lines = STRBUF_INIT;
	char *tpath = xasprintf("%s/" BATCH_FEEDBACK_DIR "/%s.txt", outdir, id);
	char *mpath = xasprintf("%s/" BATCH_FEEDBACK_DIR "/%s.md", outdir, id);
	int ret;

	if (pr && (graded || pr->too_late)) {
		l10n_begin();
		late_lines(&lines, pr, graded, raw, final, max);
		strbuf_addf(&txt, TXT_START "%s ==\n%s\n", _("Deadline and late work"), lines.buf);
		strbuf_addf(&md, MD_START "### %s\n\n", _("Deadline and late work"));
		for (const char *p = lines.buf; *p; p++) {
			if (*p == '\n')
				strbuf_addstr(&md, p[1] ? "<br>\n" : "\n");
			else if (strchr("&<>|`*_[]\\~$#", *p))
				strbuf_addf(&md, "&#%d;", *p);
			else
				strbuf_addch(&md, *p);
		}
		strbuf_addstr(&md, "\n" MD_END);
		l10n_end();
	}
	ret = update_file(tpath, txt.buf, false, err);
	if (!ret)
		ret = update_file(mpath, md.buf, true, err);
	strbuf_release(&txt);
	strbuf_release(&md);
	strbuf_release(&lines);
	free(tpath);
	free(mpath);
	return ret;
}
