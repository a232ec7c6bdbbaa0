/*
 * summary_html.c - render a struct summary (summary_model.h) as the page.
 * Every string that comes from a student, a problem file or a compiler
 * goes through add_html(); ids in links are percent-encoded as well.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "batch/summary_model.h"
#include "base/text.h"
#include "base/version.h"

static void add_html(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			if ((unsigned char)*s < 32 && *s != '\n' && *s != '\t')
				strbuf_addch(sb, '?');
			else
				strbuf_addch(sb, *s);
		}
	}
}

/* An id inside a relative URL: every byte but the unreserved ones percent-encoded (RFC 3986). */
static void add_url_part(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~", c))
			strbuf_addch(sb, c);
		else
			strbuf_addf(sb, "%%%02X", c);
	}
}

/* A student's id, linked to the text report when there is one. */
static void add_student(struct strbuf *sb, const char *id, bool linked)
{
	if (!linked) {
		add_html(sb, id);
		return;
	}
	strbuf_addstr(sb, "<a href=\"students/");
	add_url_part(sb, id);
	strbuf_addstr(sb, ".txt\">");
	add_html(sb, id);
	strbuf_addstr(sb, "</a>");
}

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>Grading summary</title>\n<style>\n"
	"body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:2em auto;max-width:72em;"
	"padding:0 1em;color:#1d2330;background:#fff}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #dde}\n"
	"h3{font-size:1em;margin:1.2em 0 .3em}\n"
	".meta{color:#556}.zero{color:#bbc}\n"
	"table{border-collapse:collapse;width:100%;font-size:.93em}\n"
	"th,td{text-align:left;padding:.25em .6em;border-bottom:1px solid #eef;vertical-align:top}\n"
	"th{background:#f4f6fb}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.sortable th{cursor:pointer;user-select:none}\n"
	"table.sortable th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
	"table.sortable th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"tr.group td{background:#f8f9fc;font-weight:600}td.test{padding-left:1.8em}\n"
	".bar{background:#e9edf5;height:.8em;width:10em;border-radius:.2em;overflow:hidden}\n"
	".bar span{display:block;height:100%;background:#3f7f4f}\n"
	".bar span.low{background:#c0463c}.bar span.mid{background:#d9a13b}\n"
	"pre{background:#f6f7f9;border:1px solid #e3e6ee;padding:.5em;overflow-x:auto;font-size:.85em;margin:.3em 0 1em}\n"
	".tag{font-size:.8em;color:#667;border:1px solid #ccd;border-radius:.3em;padding:0 .3em;font-weight:400}\n"
	".note{background:#fff8e6;border-left:4px solid #d9a13b;padding:.5em .8em}\n"
	"svg text{font:12px system-ui,sans-serif;fill:#334}\n"
	"</style>\n</head>\n<body>\n";

/*
 * Sorting the student table: a click on a header sorts by that column
 * (numbers by data-v, the rest by text; a second click reverses; ties keep
 * the class order).  `summary.html#sort=N` or `#sort=N-desc` clicks header
 * N on load: a link to a sorted view, and the test suite's hook.
 */
static const char html_script[] =
	"<script>\n"
	"(function () {\n"
	"  function key(cell, num) {\n"
	"    if (!num) return cell.textContent;\n"
	"    var v = cell.getAttribute('data-v');\n"
	"    return v === null || v === '' ? -Infinity : parseFloat(v);\n"
	"  }\n"
	"  function sortBy(th) {\n"
	"    var table = th.closest('table'), body = table.tBodies[0];\n"
	"    var col = Array.prototype.indexOf.call(th.parentNode.children, th);\n"
	"    var num = th.classList.contains('n'), up = th.getAttribute('aria-sort') !== 'ascending';\n"
	"    var rows = Array.prototype.slice.call(body.rows);\n"
	"    rows.sort(function (a, b) {\n"
	"      var x = key(a.cells[col], num), y = key(b.cells[col], num);\n"
	"      var c = x < y ? -1 : x > y ? 1 : 0;\n"
	"      if (!up) c = -c;\n"
	"      return c || a.getAttribute('data-i') - b.getAttribute('data-i');\n"
	"    });\n"
	"    rows.forEach(function (r) { body.appendChild(r); });\n"
	"    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute('aria-sort'); });\n"
	"    th.setAttribute('aria-sort', up ? 'ascending' : 'descending');\n"
	"  }\n"
	"  document.querySelectorAll('table.sortable th').forEach(function (th) {\n"
	"    th.tabIndex = 0;\n"
	"    th.addEventListener('click', function () { sortBy(th); });\n"
	"    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortBy(th); });\n"
	"  });\n"
	"  var m = /^#sort=(\\d+)(-desc)?$/.exec(location.hash);\n"
	"  var th = m && document.querySelectorAll('#students th')[+m[1]];\n"
	"  if (th) { th.click(); if (m[2]) th.click(); }\n"
	"})();\n"
	"</script>\n";

static void add_rate_bar(struct strbuf *sb, double rate)
{
	const char *cls = rate < 0.5 ? " class=\"low\"" : rate < 0.8 ? " class=\"mid\"" : "";
	strbuf_addf(sb, "<div class=\"bar\"><span%s style=\"width:%.1f%%\"></span></div>", cls, rate * 100);
}

static void add_percent(struct strbuf *sb, double num, double den)
{
	strbuf_addf(sb, "%.1f%%", den > 0 ? 100.0 * num / den : 0.0);
}

/* A mean is shown to the hundredth. */
static void add_mean(struct strbuf *sb, double mean)
{
	text_score(sb, round(mean * 100) / 100);
}

static void html_header(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, html_head);
	strbuf_addstr(sb, "<h1>Grading summary</h1>\n<p class=\"meta\">");
	strbuf_addf(sb, "%d student%s", s->students, s->students == 1 ? "" : "s");
	if (s->shard_count > 1)
		strbuf_addf(sb, " (shard %d of %d; %d in the class)", s->shard_index, s->shard_count, s->class_size);
	strbuf_addf(sb, ": %d graded, %d not graded. Problems:", s->graded, s->nnot_graded);
	for (int i = 0; i < s->nproblems; i++) {
		strbuf_addstr(sb, i ? ", " : " ");
		add_html(sb, s->problems[i].id);
	}
	strbuf_addstr(sb, " (maximum ");
	text_score(sb, s->max);
	strbuf_addf(sb, " points). Grader %s.</p>\n", GRADER_VERSION);
}

static void html_histogram(struct strbuf *sb, const struct summary *s)
{
	const int w = 640, h = 240, left = 40, bottom = 40, top = 20;
	int most = 1;
	double bw = (double)(w - left - 10) / HISTOGRAM_BINS;

	for (int b = 0; b < HISTOGRAM_BINS; b++)
		if (s->bins[b] > most)
			most = s->bins[b];
	strbuf_addf(sb, "<svg role=\"img\" aria-label=\"score distribution\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n", w, h, w, h);
	strbuf_addf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#889\"/>\n", left, h - bottom,
		    w - 10, h - bottom);
	for (int b = 0; b < HISTOGRAM_BINS; b++) {
		double bh = (double)(h - bottom - top) * s->bins[b] / most;
		double x = left + b * bw;
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4a6fa5\">"
			    "<title>%d%%-%d%%: %d student%s</title></rect>\n", x + 2, h - bottom - bh, bw - 4, bh,
			    b * 10, b * 10 + 10, s->bins[b], s->bins[b] == 1 ? "" : "s");
		if (s->bins[b])
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x + bw / 2,
				    h - bottom - bh - 4, s->bins[b]);
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d-%d%%</text>\n", x + bw / 2,
			    h - bottom + 16, b * 10, b * 10 + 10);
	}
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">share of the maximum score</text>\n",
		    left + (w - left) / 2, h - 6);
	strbuf_addstr(sb, "</svg>\n");
}

static void html_distribution(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Score distribution</h2>\n");
	if (!s->graded) {
		strbuf_addstr(sb, "<p>No student could be graded.</p>\n");
		return;
	}
	html_histogram(sb, s);
	strbuf_addstr(sb, "<p>Mean ");
	add_mean(sb, s->mean);
	strbuf_addstr(sb, ", median ");
	text_score(sb, s->median);
	strbuf_addstr(sb, ", lowest ");
	text_score(sb, s->lowest);
	strbuf_addstr(sb, ", highest ");
	text_score(sb, s->highest);
	strbuf_addstr(sb, " of ");
	text_score(sb, s->max);
	strbuf_addstr(sb, ".</p>\n");
}

/* A number cell of the student table: data-v carries the value the script sorts by. */
static void add_score_cell(struct strbuf *sb, bool graded, double v)
{
	if (!graded) {
		strbuf_addstr(sb, "<td class=\"n\" data-v=\"\"></td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"n\" data-v=\"%.6f\">", v);
	text_score(sb, v);
	strbuf_addstr(sb, "</td>");
}

static void html_students(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Students</h2>\n<p class=\"meta\">Click a column header to sort by it; "
		      "a student's name opens the report.</p>\n"
		      "<table class=\"sortable\" id=\"students\">\n<thead><tr><th>Student</th>");
	for (int p = 0; p < s->nproblems; p++) {
		strbuf_addstr(sb, "<th class=\"n\">");
		add_html(sb, s->problems[p].id);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "<th class=\"n\">Total</th>");
	if (s->policy)
		strbuf_addstr(sb, "<th class=\"n\">Late (h)</th><th class=\"n\">Penalty (%)</th><th class=\"n\">Final</th>");
	strbuf_addstr(sb, "<th>Status</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < s->students; i++) {
		const struct summary_student *row = &s->rows[i];
		strbuf_addf(sb, "<tr data-i=\"%d\"><td>", i);
		add_student(sb, row->id, row->graded);
		strbuf_addstr(sb, "</td>");
		for (int p = 0; p < s->nproblems; p++)
			add_score_cell(sb, row->graded, row->graded ? row->scores[p] : 0);
		add_score_cell(sb, row->graded, row->total);
		if (s->policy) {
			add_score_cell(sb, row->priced, row->late_hours);
			add_score_cell(sb, row->priced, row->penalty);
			add_score_cell(sb, row->priced, row->final);
		}
		strbuf_addstr(sb, "<td>");
		add_html(sb, row->status);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}

static void html_problems(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Problems</h2>\n<table>\n<tr><th>Problem</th><th class=\"n\">Mean</th>"
		      "<th class=\"n\">Full marks</th><th class=\"n\">Built</th><th class=\"n\">Compile errors</th>"
		      "<th class=\"n\">Missing</th><th>Mean share</th></tr>\n");
	for (int i = 0; i < s->nproblems; i++) {
		const struct summary_problem *p = &s->problems[i];
		strbuf_addstr(sb, "<tr><td>");
		add_html(sb, p->id);
		strbuf_addstr(sb, " <span class=\"meta\">");
		add_html(sb, p->title);
		strbuf_addstr(sb, "</span></td><td class=\"n\">");
		add_mean(sb, p->mean);
		strbuf_addstr(sb, " / ");
		text_score(sb, p->max);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		add_percent(sb, p->full, s->graded);
		strbuf_addf(sb, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td>",
			    p->built, p->compile_errors, p->missing);
		add_rate_bar(sb, p->share);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_verdicts(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Verdicts</h2>\n<p class=\"meta\">Test runs of the graded students by verdict, "
		      "and in brackets how many students had at least one.</p>\n<table>\n<tr><th>Problem</th>");
	for (int v = 0; v < V_COUNT; v++)
		if (s->verdict_seen[v])
			strbuf_addf(sb, "<th class=\"n\">%s</th>", verdict_name((enum verdict)v));
	strbuf_addstr(sb, "</tr>\n");
	for (int i = 0; i < s->nproblems; i++) {
		const struct verdict_counts *c = &s->problems[i].verdicts;
		strbuf_addstr(sb, "<tr><td>");
		add_html(sb, s->problems[i].id);
		strbuf_addstr(sb, "</td>");
		for (int v = 0; v < V_COUNT; v++) {
			if (!s->verdict_seen[v])
				continue;
			if (!c->runs[v])
				strbuf_addstr(sb, "<td class=\"n zero\">0</td>");
			else
				strbuf_addf(sb, "<td class=\"n\" data-verdict=\"%s\">%d <span class=\"meta\">(%d)</span></td>",
					    verdict_name((enum verdict)v), c->runs[v], c->students[v]);
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* "wrong-answer 3, timelimit 1": what the graded students got instead of correct. */
static void add_verdict_list(struct strbuf *sb, const int *verdicts)
{
	bool first = true;
	for (int v = 0; v < V_COUNT; v++) {
		if (v == V_CORRECT || !verdicts[v])
			continue;
		strbuf_addf(sb, "%s%s %d", first ? "" : ", ", verdict_name((enum verdict)v), verdicts[v]);
		first = false;
	}
}

static void html_group(struct strbuf *sb, const struct summary *s, const struct summary_group *g)
{
	strbuf_addstr(sb, "<tr class=\"group\"><td>");
	add_html(sb, g->problem);
	strbuf_addstr(sb, " &rsaquo; ");
	add_html(sb, g->name);
	if (g->hidden)
		strbuf_addstr(sb, " <span class=\"tag\">hidden</span>");
	strbuf_addf(sb, " <span class=\"meta\">(%d test%s)</span></td><td class=\"n\">", g->tests,
		    g->tests == 1 ? "" : "s");
	add_percent(sb, (double)g->passed, (double)g->total);
	strbuf_addstr(sb, "</td><td>");
	add_rate_bar(sb, g->rate);
	strbuf_addf(sb, "</td><td>%s</td></tr>\n", g->failing ? "" : "every test passed by every graded student");
	for (int t = 0; t < g->nhardest; t++) {
		const struct summary_test *test = &g->hardest[t];
		strbuf_addstr(sb, "<tr><td class=\"test\">");
		add_html(sb, test->name);
		strbuf_addf(sb, "</td><td class=\"n\">%d / %d</td><td>", test->passed, s->graded);
		add_rate_bar(sb, test->rate);
		strbuf_addstr(sb, "</td><td>");
		add_verdict_list(sb, test->verdicts);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	if (g->failing > g->nhardest)
		strbuf_addf(sb, "<tr><td class=\"test meta\" colspan=\"4\">and %d more test%s not passed by everyone"
			    "</td></tr>\n", g->failing - g->nhardest, g->failing - g->nhardest == 1 ? "" : "s");
}

static void html_groups(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Tests most students fail, by group</h2>\n<p class=\"meta\">Each group's pass rate "
		    "(test runs), then up to %d of its tests with the lowest pass rates and the verdicts the other "
		    "students got. In an all-or-nothing group every test after a student's first failure counts "
		    "as skipped.</p>\n", TESTS_PER_GROUP);
	strbuf_addstr(sb, "<table>\n<tr><th>Group / test</th><th class=\"n\">Passed</th><th>Rate</th>"
		      "<th>Verdicts instead of correct</th></tr>\n");
	for (int i = 0; i < s->ngroups; i++)
		html_group(sb, s, &s->groups[i]);
	strbuf_addstr(sb, "</table>\n");
}

static void add_match(struct strbuf *sb, const struct summary_pair *p)
{
	if (p->kind == SIM_IDENTICAL) {
		strbuf_addstr(sb, "identical files");
		return;
	}
	if (p->kind == SIM_NORMALISED) {
		strbuf_addstr(sb, "identical after normalising layout, comments and names");
		return;
	}
	strbuf_addf(sb, "%.0f%% of ", 100 * p->share_a);
	add_html(sb, p->a);
	strbuf_addf(sb, "&#39;s fingerprints, %.0f%% of ", 100 * p->share_b);
	add_html(sb, p->b);
	strbuf_addstr(sb, "&#39;s");
}

static void html_similar_problem(struct strbuf *sb, const struct summary_similar *sim)
{
	strbuf_addstr(sb, "<h3>");
	add_html(sb, sim->problem);
	strbuf_addf(sb, "</h3>\n<p class=\"meta\">%d file%s, %d long enough to compare: %d pair%s flagged", sim->files,
		    sim->files == 1 ? "" : "s", sim->compared, sim->nflagged, sim->nflagged == 1 ? "" : "s");
	if (sim->nflagged > sim->npairs)
		strbuf_addf(sb, " (the first %d listed)", sim->npairs);
	strbuf_addstr(sb, ".</p>\n");
	if (!sim->npairs)
		return;
	strbuf_addstr(sb, "<table class=\"pairs\">\n<tr><th>Student</th><th>Student</th><th>Match</th>"
		      "<th class=\"n\">Shared fingerprints</th></tr>\n");
	for (int k = 0; k < sim->npairs; k++) {
		const struct summary_pair *p = &sim->pairs[k];
		strbuf_addstr(sb, "<tr><td>");
		add_student(sb, p->a, true);
		strbuf_addstr(sb, " <span class=\"meta\">");
		add_html(sb, p->file_a);
		strbuf_addstr(sb, "</span></td><td>");
		add_student(sb, p->b, true);
		strbuf_addstr(sb, " <span class=\"meta\">");
		add_html(sb, p->file_b);
		strbuf_addstr(sb, "</span></td><td>");
		add_match(sb, p);
		strbuf_addf(sb, "</td><td class=\"n\">%d</td></tr>\n", p->shared);
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_similar(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Similar submissions (%d pair%s)</h2>\n", s->nflagged, s->nflagged == 1 ? "" : "s");
	strbuf_addf(sb, "<p class=\"note\">A first step, not proof. Each problem&#39;s files are compared pair by "
		    "pair after normalising layout, comments, names and literals, the way MOSS and JPlag do "
		    "(winnowed fingerprints of %d-token runs). A pair is listed when the files are identical, "
		    "identical after normalising, or when %.0f%% of either file&#39;s fingerprints are in the "
		    "other. Code found in more than max(%d, half) of the files (starter code, the idiom everybody "
		    "writes) is left out, and files under %d tokens are not compared. Short problems have few "
		    "ways to be solved: read both files before drawing any conclusion.</p>\n",
		    SIMILARITY_K, 100 * SIMILARITY_THRESHOLD, SIMILARITY_COMMON_MIN, SIMILARITY_MIN_TOKENS);
	for (int i = 0; i < s->nproblems; i++)
		html_similar_problem(sb, &s->similar[i]);
}

static void html_compile_errors(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Compile errors (%d)</h2>\n", s->nerrors);
	if (!s->nerrors)
		strbuf_addstr(sb, "<p>None.</p>\n");
	for (int i = 0; i < s->nerrors; i++) {
		strbuf_addstr(sb, "<h3>");
		add_html(sb, s->errors[i].id);
		strbuf_addstr(sb, " &mdash; ");
		add_html(sb, s->errors[i].problem);
		strbuf_addstr(sb, "</h3>\n<pre>");
		add_html(sb, s->errors[i].text);
		strbuf_addstr(sb, "</pre>\n");
	}
}

static void html_not_graded(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Not graded (%d)</h2>\n", s->nnot_graded);
	if (!s->nnot_graded) {
		strbuf_addstr(sb, "<p>None.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<table>\n<tr><th>Student</th><th>Why</th></tr>\n");
	for (int i = 0; i < s->nnot_graded; i++) {
		strbuf_addstr(sb, "<tr><td>");
		add_html(sb, s->not_graded[i].id);
		strbuf_addstr(sb, "</td><td>");
		add_html(sb, s->not_graded[i].why);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

void summary_html(struct strbuf *sb, const struct summary *s)
{
	html_header(sb, s);
	html_distribution(sb, s);
	html_students(sb, s);
	html_problems(sb, s);
	html_verdicts(sb, s);
	html_groups(sb, s);
	html_similar(sb, s);
	html_compile_errors(sb, s);
	html_not_graded(sb, s);
	strbuf_addstr(sb, html_script);
	strbuf_addstr(sb, "</body>\n</html>\n");
}
