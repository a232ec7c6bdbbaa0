/* skeleton.c - see skeleton.h */
#include "pack/skeleton.h"

#include <stdint.h>
#include <string.h>

/* The self-test stays readable: at most this many checks, no array longer than this. */
#define MAX_CHECKS 20
#define MAX_CHECK_ARRAY 64

const struct problem *skeleton_variant(const struct problem *p, const char *lang)
{
	if (!strcmp(p->lang->name, lang))
		return p;
	for (int k = 0; k < p->nvariants; k++)
		if (!strcmp(p->variants[k].lang->name, lang))
			return &p->variants[k];
	return NULL;
}

/* text with every line prefixed (the first line too), trailing spaces trimmed; "" when text is NULL */
static void add_prefixed(struct strbuf *sb, const char *text, const char *prefix, const char *forbidden,
			 const char *instead)
{
	const char *s = text;
	size_t len;

	if (!text)
		return;
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	while (s < text + len) {
		const char *eol = memchr(s, '\n', (size_t)(text + len - s));
		size_t n = eol ? (size_t)(eol - s) : (size_t)(text + len - s);
		size_t plen = strlen(prefix);
		/* no trailing space on an empty line: "* " becomes "*" */
		if (!n)
			while (plen && prefix[plen - 1] == ' ')
				plen--;
		strbuf_add(sb, prefix, plen);
		for (size_t k = 0; k < n; k++) {
			/* the comment or docstring must not end inside the statement */
			if (!strncmp(s + k, forbidden, strlen(forbidden))) {
				strbuf_addstr(sb, instead);
				k += strlen(forbidden) - 1;
			} else {
				strbuf_addch(sb, s[k]);
			}
		}
		strbuf_addch(sb, '\n');
		s += n + 1;
	}
}

static const char *c_zero(enum value_type t)
{
	return t == VT_BOOL ? "false" : "0";
}

void skeleton_c(struct strbuf *sb, const struct problem *p)
{
	const struct problem *c = skeleton_variant(p, "c");

	strbuf_addf(sb, "/*\n * %s -- %s.\n", c->id, c->title);
	if (c->statement) {
		strbuf_addstr(sb, " *\n");
		add_prefixed(sb, c->statement, " * ", "*/", "* /");
	}
	strbuf_addstr(sb, " */\n#include <stdbool.h>\n\n");
	for (int i = 0; i < c->nfuncs; i++) {
		signature_format(sb, &c->funcs[i]);
		strbuf_addstr(sb, ";\n");
	}
	for (int i = 0; i < c->nfuncs; i++) {
		const struct signature *sig = &c->funcs[i];
		strbuf_addch(sb, '\n');
		signature_format(sb, sig);
		strbuf_addstr(sb, "\n{\n");
		for (int k = 0; k < sig->nparams; k++)
			strbuf_addf(sb, "    (void)%s;\n", sig->params[k].name);
		strbuf_addf(sb, "    return %s; /* TODO */\n}\n", c_zero(sig->ret));
	}
}

/* The Python parameters of function i: the C names of its inputs (a length goes with its list). */
static void python_params(struct strbuf *sb, const struct signature *sig)
{
	bool first = true;
	for (int k = 0; k < sig->nparams; k++) {
		if (sig->params[k].is_length)
			continue;
		strbuf_addf(sb, "%s%s", first ? "" : ", ", sig->params[k].name);
		first = false;
	}
}

/* "; piles is a list of int": what each list argument holds */
static void python_lists(struct strbuf *sb, const struct signature *sig)
{
	for (int k = 0; k < sig->nparams; k++)
		if (value_type_is_array(sig->params[k].type))
			strbuf_addf(sb, "; %s is a list of int", sig->params[k].name);
}

static void python_value(struct strbuf *sb, const struct value *v)
{
	if (v->type == VT_BOOL)
		strbuf_addstr(sb, v->i ? "True" : "False");
	else
		value_format(sb, v, SIZE_MAX);
}

/* Is tc a public example the self-test can check: literal arguments, an expected answer, short lists? */
static bool is_check(const struct problem *p, const struct test_case *tc)
{
	const struct signature *sig = &p->funcs[tc->func];
	if (p->groups[tc->group].visibility != VIS_PUBLIC || tc->gen || !tc->has_expected)
		return false;
	for (int a = 0; a < sig->ninputs; a++)
		if (value_type_is_array(tc->args[a].type) && tc->args[a].len > MAX_CHECK_ARRAY)
			return false;
	return true;
}

int skeleton_python_checks(const struct problem *p)
{
	const struct problem *py = skeleton_variant(p, "python");
	int n = 0;
	for (int c = 0; py && c < py->ncases && n < MAX_CHECKS; c++)
		n += is_check(py, &py->cases[c]);
	return n;
}

/* test(): the checks as (function, arguments, expected) and the course's messages */
static void python_test(struct strbuf *sb, const struct problem *py)
{
	int n = 0;

	strbuf_addstr(sb, "\n\ndef test():\n"
		      "    \"\"\"A self-test: the public examples of the problem file.\"\"\"\n"
		      "    checks = [\n");
	for (int c = 0; c < py->ncases && n < MAX_CHECKS; c++) {
		const struct test_case *tc = &py->cases[c];
		const struct signature *sig = &py->funcs[tc->func];
		if (!is_check(py, tc))
			continue;
		strbuf_addf(sb, "        (%s, (", problem_call_name(py, tc->func));
		for (int a = 0; a < sig->ninputs; a++) {
			if (a)
				strbuf_addstr(sb, ", ");
			python_value(sb, &tc->args[a]);
		}
		strbuf_addstr(sb, sig->ninputs == 1 ? ",), " : "), ");
		problem_format_answer(sb, py, tc->func, tc->expected);
		strbuf_addstr(sb, "),\n");
		n++;
	}
	strbuf_addstr(sb, "    ]\n"
		      "    all_correct = True\n"
		      "    for function, args, expected in checks:\n"
		      "        if function(*args) != expected:\n"
		      "            print(\"Incorrect output for input\", *args)\n"
		      "            all_correct = False\n"
		      "    if all_correct:\n"
		      "        print(\"Correct for all inputs\")\n"
		      "    return all_correct\n"
		      "\n\n"
		      "# the grader imports this file (the self-test runs and prints, nothing more);\n"
		      "# python3 on it exits with 1 when a check fails\n"
		      "if not test() and __name__ == \"__main__\":\n"
		      "    raise SystemExit(1)\n");
}

void skeleton_python(struct strbuf *sb, const struct problem *p)
{
	const struct problem *py = skeleton_variant(p, "python");

	strbuf_addf(sb, "\"\"\"%s -- %s.\n", py->id, py->title);
	if (py->statement) {
		strbuf_addch(sb, '\n');
		add_prefixed(sb, py->statement, "", "\"\"\"", "'''");
	}
	strbuf_addch(sb, '\n');
	for (int i = 0; i < py->nfuncs; i++) {
		strbuf_addf(sb, "    %s(", problem_call_name(py, i));
		python_params(sb, &py->funcs[i]);
		strbuf_addstr(sb, ")\n");
	}
	strbuf_addstr(sb, "\"\"\"\n");
	for (int i = 0; i < py->nfuncs; i++) {
		const struct signature *sig = &py->funcs[i];
		strbuf_addf(sb, "\n\ndef %s(", problem_call_name(py, i));
		python_params(sb, sig);
		strbuf_addf(sb, "):\n    \"\"\"Returns %s", sig->ret == VT_BOOL ? "True or False" : "an int");
		python_lists(sb, sig);
		strbuf_addf(sb, ".\"\"\"\n    return %s  # TODO: replace with your solution\n",
			    sig->ret == VT_BOOL ? "False" : "0");
	}
	python_test(sb, py);
}

void skeleton_guide_header(struct strbuf *sb)
{
	strbuf_addstr(sb, "| id | C file: functions | Python file: functions the grader calls | the game |\n"
		      "|---|---|---|---|\n");
}

void skeleton_guide_row(struct strbuf *sb, const struct problem *p)
{
	const struct problem *c = skeleton_variant(p, "c"), *py = skeleton_variant(p, "python");

	strbuf_addf(sb, "| %s | ", p->id);
	if (c) {
		strbuf_addf(sb, "%s: ", c->source);
		for (int i = 0; i < c->nfuncs; i++) {
			strbuf_addstr(sb, i ? ", `" : "`");
			signature_format(sb, &c->funcs[i]);
			strbuf_addch(sb, '`');
		}
	} else {
		strbuf_addstr(sb, "-");
	}
	strbuf_addstr(sb, " | ");
	if (py) {
		strbuf_addf(sb, "%s: ", py->source);
		for (int i = 0; i < py->nfuncs; i++) {
			strbuf_addf(sb, "%s`%s(", i ? ", " : "", problem_call_name(py, i));
			python_params(sb, &py->funcs[i]);
			strbuf_addstr(sb, ")`");
			python_lists(sb, &py->funcs[i]);
		}
	} else {
		strbuf_addstr(sb, "-");
	}
	/* a '|' in the title would end the cell */
	strbuf_addstr(sb, " | ");
	for (const char *s = p->title; *s; s++)
		strbuf_addstr(sb, *s == '|' ? "\\|" : (char[]){ *s, 0 });
	strbuf_addstr(sb, " |\n");
}
