/*
 * pyhost.c - the Python half of a Python runner.  runtime.c built with
 * GR_FILTER_IN_MAIN plus this file, linked with Debian's libpython, make the
 * "Python host" (grader/lang_python.c compiles it once per engine); it links
 * no student code, so its seccomp filter can wait until main().
 *
 * Theory of operation
 * -------------------
 *   runner SOURCE MODULE FUNCTION...      a runner (started by the pool)
 *   runner --check SOURCE NAME            a syntax check (run like a compiler)
 *
 * FUNCTION is "name:ret:args": the Python function a test calls, the C
 * return type (b bool, i int, l long long) and one letter per argument
 * (b, i, l, or a: an int array, passed as one list).
 *
 * gr_stub_init (before the filter): read SOURCE into memory, start an
 * isolated interpreter (no site, no environment, no bytecode files, fixed
 * hash seed, no signal handlers, warnings ignored), import the standard
 * library modules a solution may use (PRELOAD: after the filter no file can
 * be opened), compile SOURCE, add the audit hook.
 *
 * gr_stub_load (under the zygote's filter): import the module from memory
 * (its top-level code runs now, its prints go to a buffer: the start-up
 * output), then look up the functions.
 *
 * Each call (in a case child, under the case filter): Python values from the
 * arguments, the call, and the result converted here, in C, on the object's
 * real type - an int subclass by its stored value, anything else by its type
 * name - so an object with a lying __eq__, __index__ or __bool__ gains
 * nothing: the grader compares a plain integer.  Exceptions are described
 * here too (type, message, the student's own frames), from the traceback
 * objects and a copy of the source read before the filter: no Python code
 * the student could have patched (traceback, linecache) runs for it.
 *
 * The audit hook (PEP 578; the student cannot remove it) turns opening
 * files, starting processes, sockets, signals to others and ctypes into a
 * PermissionError the program sees, and remembers the first such attempt:
 * the verdict is then forbidden, whatever the program did next.  Imports of
 * modules that were not preloaded fail with an ImportError saying why.  The
 * seccomp filters are the backstop for every road around the hook.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol.h"

#define MAX_FUNCTIONS 64
#define MAX_ARGS 16
#define MAX_SOURCE (1u << 20)
#define FRAMES_SHOWN 8

/* Standard library modules a solution may import: read before the filter. */
static const char *const preload[] = {
	"functools", "itertools", "collections", "collections.abc", "math", "cmath", "heapq", "bisect",
	"operator", "copy", "copyreg", "random", "re", "string", "textwrap", "array", "decimal", "fractions",
	"statistics", "numbers", "typing", "dataclasses", "enum", "types", "abc", "time", "datetime", "calendar",
	"io", "struct", "weakref", "contextlib", "keyword", "queue", "warnings", "sys", "os", "gc", "signal",
	"threading", "pprint", "json", "graphlib", "traceback", "linecache", "inspect", "dis", NULL,
};

/* Modules whose import is itself a forbidden operation. */
static const char *const forbidden_modules[] = {
	"ctypes", "_ctypes", "socket", "_socket", "ssl", "_ssl", "subprocess", "_posixsubprocess",
	"multiprocessing", "_multiprocessing", "pty", "mmap", "fcntl", "resource", "asyncio", "select",
	"selectors", NULL,
};

/* Audit events that are forbidden operations (prefixes: "socket." covers socket.connect...). */
static const char *const forbidden_events[] = {
	"open", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill",
	"os.killpg", "signal.pthread_kill", "subprocess.", "socket.", "ctypes.", "os.listdir", "os.scandir",
	"os.chdir", "os.chmod", "os.chown", "os.link", "os.symlink", "os.mkdir", "os.remove", "os.rename",
	"os.rmdir", "os.truncate", "os.utime", "os.chroot", "os.startfile", "shutil.", "glob.", "pty.",
	"urllib.", "http.client.", "ftplib.", "smtplib.", "webbrowser.", "mmap.", "fcntl.", "resource.",
	/* a code object built by hand (types.CodeType, code.replace) can read and write past its constants:
	 * raw memory, raw system calls, the runtime's own state (tests/hostile py-bytecode-*); no solution
	 * needs one.  marshal builds code objects without code.__new__ (py-marshal-*, red team 39): the
	 * secret read and every test answered in the zygote.  The interpreter's own loading of .pyc files
	 * calls marshal.loads too, but every file is refused once the hook is armed (audit_open) */
	"code.__new__", "marshal.loads", "marshal.load",
	NULL,
};

struct function {
	PyObject *callable;
	char ret;
	char args[MAX_ARGS + 1];
};

static struct gr_function table[MAX_FUNCTIONS];
static struct function functions[MAX_FUNCTIONS];
static int nfunctions;
static const char *module_name, *file_name;
static char *source;              /* the student's file, read before the filter */
static size_t source_len;         /* its length in bytes (it may hold a NUL: see nul_position) */
static PyObject *code;            /* ...compiled */
static PyObject *stdout_orig, *stderr_orig;
static const char *stdlib_dir = "/usr/lib/python3";
static int armed;                 /* the hook judges operations (from the module's import on) */
static int in_hook;
static char forbidden[200];       /* the first forbidden operation tried, "" while none */

/* ---- small helpers ---- */

static void detail_add(char *buf, uint32_t *len, uint32_t cap, const char *s, size_t n)
{
	if (*len >= cap)
		return;
	if (n > cap - *len)
		n = cap - *len;
	memcpy(buf + *len, s, n);
	*len += (uint32_t)n;
}

static void detail_str(char *buf, uint32_t *len, uint32_t cap, const char *s)
{
	detail_add(buf, len, cap, s, strlen(s));
}

/* The text of a str object (UTF-8, NULL when it is none or cannot be encoded); no student code runs. */
static const char *utf8_of(PyObject *s)
{
	const char *t;
	if (!s || !PyUnicode_Check(s))
		return NULL;
	t = PyUnicode_AsUTF8(s);
	if (!t)
		PyErr_Clear();
	return t;
}

static char *read_source(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	ssize_t n;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 0 || (size_t)st.st_size > MAX_SOURCE) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = calloc((size_t)st.st_size + 1, 1);
	if (buf && gr_read_full(fd, buf, (size_t)st.st_size) < 0) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	source_len = buf ? (size_t)st.st_size : 0;
	return buf;
}

/*
 * Where the source's first NUL byte is (line and column, 1-based): 1 when
 * it has one, else 0.  Python compiles a C string, which would end at the
 * NUL and leave what follows unseen; python3 run on the file refuses it
 * whole ("source code cannot contain null bytes", a SyntaxError since
 * Python 3.12 and late 3.11 releases), and so does the grader.
 */
static int nul_position(long *line, long *col)
{
	const char *nul = source ? memchr(source, '\0', source_len) : NULL;
	*line = 1;
	*col = 1;
	if (!nul)
		return 0;
	for (const char *p = source; p < nul; p++) {
		(*col)++;
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		}
	}
	return 1;
}

/* Line number lineno (1-based) of the source, stripped, into out. */
static void source_line(int lineno, char *out, size_t size)
{
	const char *p = source;
	size_t n;
	out[0] = '\0';
	for (int l = 1; p && *p && l < lineno; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p)
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "\r\n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* ---- the audit hook ---- */

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int in_list(const char *name, const char *const *list, int prefixes)
{
	for (int i = 0; list[i]; i++) {
		size_t l = strlen(list[i]);
		if (prefixes && list[i][l - 1] == '.' ? starts_with(name, list[i]) : !strcmp(name, list[i]))
			return 1;
	}
	return 0;
}

/* Remember the first forbidden operation and refuse it with a PermissionError. */
static int refuse(const char *what, const char *arg)
{
	if (!forbidden[0])
		snprintf(forbidden, sizeof(forbidden), arg ? "%s('%.120s')" : "%s", what, arg);
	PyErr_Format(PyExc_PermissionError, "%s is not allowed while grading", forbidden);
	return -1;
}

/*
 * Is name a module compiled into the interpreter?  From the interpreter's
 * own table, in C: never sys.builtin_module_names, which the program can
 * replace, nor a comparison that could call a str subclass's __eq__ (the
 * hook must run no code the program supplies: while it runs, other events
 * are not checked).
 */
static int is_builtin_module(const char *name)
{
	for (const struct _inittab *m = PyImport_Inittab; m && m->name; m++)
		if (!strcmp(m->name, name))
			return 1;
	return 0;
}

/* An import: only what was preloaded (or is built in and harmless). */
static int audit_import(PyObject *args)
{
	/* the name's characters as stored (PyUnicode_AsUTF8 runs no method of a subclass); anything that
	 * is not a str at all is no import the grader allows */
	const char *name = utf8_of(PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL);
	if (!name)
		return refuse("import", NULL);
	if (in_list(name, forbidden_modules, 0))
		return refuse("import", name);
	if (is_builtin_module(name))
		return 0;
	PyErr_Format(PyExc_ImportError, "module '%s' cannot be imported while grading: only the standard "
		     "library modules loaded before the tests can (functools, itertools, collections, math, heapq, "
		     "bisect, operator, copy, random, re, string, array, decimal, fractions, statistics, typing, "
		     "dataclasses, enum, time, datetime, signal, json and a few more; see the student guide)", name);
	return -1;
}

/*
 * Opening a file.  The interpreter itself reads the standard library's
 * sources to print a traceback line or a warning: that fails quietly (an
 * OSError the caller handles).  Anything else is forbidden.
 */
static int audit_open(PyObject *args)
{
	PyObject *path = PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
	const char *p = utf8_of(path);
	if (p && starts_with(p, stdlib_dir)) {
		PyErr_Format(PyExc_PermissionError, "cannot read '%s' while grading", p);
		return -1;
	}
	return refuse("open", p);
}

static int audit(const char *event, PyObject *args, void *data)
{
	int ret = 0;
	(void)data;
	if (!armed || in_hook)
		return 0;
	in_hook = 1;
	if (!strcmp(event, "import"))
		ret = audit_import(args);
	else if (!strcmp(event, "open"))
		ret = audit_open(args);
	else if (in_list(event, forbidden_events, 1))
		ret = refuse(event, utf8_of(PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL));
	in_hook = 0;
	return ret;
}

/* ---- exceptions, described from the traceback objects ---- */

/* A run of identical frames of the student's file (same line, same function). */
struct frame_run {
	int lineno;
	PyObject *name;          /* borrowed from the code object, which the traceback keeps alive */
	long count;
};

/* The student's frames of a traceback, runs of identical frames folded, the last FRAMES_SHOWN runs kept. */
struct frame_runs {
	struct frame_run run[FRAMES_SHOWN];
	int n;                   /* runs kept (a ring: the oldest is dropped) */
	int first;
	long dropped;            /* frames of runs dropped from the front */
	long depth;              /* every frame of the traceback */
};

static void add_frame(struct frame_runs *fr, int lineno, PyObject *name)
{
	struct frame_run *last = fr->n ? &fr->run[(fr->first + fr->n - 1) % FRAMES_SHOWN] : NULL;
	if (last && last->lineno == lineno && last->name == name) {
		last->count++;
		return;
	}
	if (fr->n == FRAMES_SHOWN) {
		fr->dropped += fr->run[fr->first].count;
		fr->first = (fr->first + 1) % FRAMES_SHOWN;
		fr->n--;
	}
	fr->run[(fr->first + fr->n) % FRAMES_SHOWN] = (struct frame_run){ lineno, name, 1 };
	fr->n++;
}

static void collect_frames(PyObject *tb, struct frame_runs *fr)
{
	memset(fr, 0, sizeof(*fr));
	for (PyTracebackObject *t = (PyTracebackObject *)tb; t && PyTraceBack_Check((PyObject *)t); t = t->tb_next) {
		PyCodeObject *co = PyFrame_GetCode(t->tb_frame);
		const char *f = utf8_of(co->co_filename);
		fr->depth++;
		if (f && !strcmp(f, file_name))
			add_frame(fr, t->tb_lineno, co->co_name);
		Py_DECREF(co); /* the frame keeps its code object */
	}
}

/* "Type: message", then the student's own frames, as Python prints them; returns the traceback's depth. */
static long describe_exception(PyObject *exc, PyObject *tb, char *buf, uint32_t *len, uint32_t cap)
{
	PyObject *msg = exc ? PyObject_Str(exc) : NULL;
	const char *m = utf8_of(msg);
	struct frame_runs fr;
	char line[256];

	detail_str(buf, len, cap, exc ? Py_TYPE(exc)->tp_name : "exception");
	if (m && *m) {
		detail_str(buf, len, cap, ": ");
		detail_add(buf, len, cap, m, strlen(m) > 400 ? 400 : strlen(m));
	}
	PyErr_Clear();
	Py_XDECREF(msg);
	collect_frames(tb, &fr);
	if (fr.dropped) {
		snprintf(line, sizeof(line), "\n  ... (%ld earlier calls of your code)", fr.dropped);
		detail_str(buf, len, cap, line);
	}
	for (int i = 0; i < fr.n; i++) {
		const struct frame_run *r = &fr.run[(fr.first + i) % FRAMES_SHOWN];
		const char *fn = utf8_of(r->name);
		snprintf(line, sizeof(line), "\n  File \"%s\", line %d, in %s\n    ", file_name, r->lineno, fn ? fn : "?");
		detail_str(buf, len, cap, line);
		source_line(r->lineno, line, sizeof(line));
		detail_str(buf, len, cap, line);
		if (r->count > 1) {
			snprintf(line, sizeof(line), "\n  [Previous line repeated %ld more times]", r->count - 1);
			detail_str(buf, len, cap, line);
		}
	}
	return fr.depth;
}

/* The pending exception (or forbidden attempt) as a value kind and detail. */
static uint32_t classify_exception(char *buf, uint32_t *len, uint32_t cap, int64_t *depth)
{
	PyObject *type, *value, *tb;
	uint32_t kind;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (forbidden[0]) {
		detail_str(buf, len, cap, forbidden);
		kind = GR_VALUE_FORBIDDEN;
	} else if (PyErr_GivenExceptionMatches(type, PyExc_SystemExit)) {
		kind = GR_VALUE_EXIT;
	} else if (PyErr_GivenExceptionMatches(type, PyExc_MemoryError)) {
		kind = GR_VALUE_MEMORY;
	} else {
		long d = describe_exception(value, tb, buf, len, cap);
		kind = PyErr_GivenExceptionMatches(type, PyExc_RecursionError) ? GR_VALUE_RECURSION : GR_VALUE_EXCEPTION;
		if (depth)
			*depth = d;
	}
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	PyErr_Clear();
	return kind;
}

/* ---- calls ---- */

static PyObject *to_python(char kind, const struct gr_arg *a)
{
	PyObject *list;
	switch (kind) {
	case 'b':
		return PyBool_FromLong(a->i != 0);
	case 'a':
		list = PyList_New(a->len);
		for (int k = 0; list && k < a->len; k++)
			PyList_SET_ITEM(list, k, PyLong_FromLong(((const int *)a->arr)[k]));
		return list;
	case 'A':
		list = PyList_New(a->len);
		for (int k = 0; list && k < a->len; k++)
			PyList_SET_ITEM(list, k, PyLong_FromLongLong(((const long long *)a->arr)[k]));
		return list;
	default:
		return PyLong_FromLongLong(a->i);
	}
}

/* Print buffers of sys.stdout and sys.stderr, whatever they are now. */
static void flush_output(void)
{
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	for (int i = 0; i < 2; i++) {
		PyObject *f = PySys_GetObject(i ? "stderr" : "stdout"), *r;
		if (!f)
			continue;
		r = PyObject_CallMethod(f, "flush", NULL);
		Py_XDECREF(r);
		PyErr_Clear();
	}
	PyErr_Restore(type, value, tb);
}

/* The returned object as an answer, judged by its real type (no method of it runs). */
static void convert(PyObject *ret, struct gr_result *res)
{
	int overflow = 0;
	if (ret == Py_None) {
		res->kind = GR_VALUE_NONE;
	} else if (PyBool_Check(ret)) {
		res->value = ret == Py_True;
		res->kind = GR_VALUE_OK;
	} else if (PyLong_Check(ret)) {
		long long v = PyLong_AsLongLongAndOverflow(ret, &overflow);
		if (overflow) {
			PyObject *digits = PyLong_Type.tp_repr(ret); /* int's own repr, even for a subclass */
			const char *d = utf8_of(digits);
			res->kind = GR_VALUE_RANGE;
			if (d && strlen(d) > 60)
				res->detail_len = (uint32_t)snprintf(res->detail, GR_DETAIL_MAX, "%.20s...(%zu digits)", d,
								     strlen(d) - (*d == '-'));
			else
				detail_str(res->detail, &res->detail_len, GR_DETAIL_MAX, d ? d : "a huge number");
			Py_XDECREF(digits);
			PyErr_Clear();
		} else {
			res->value = v;
			res->kind = GR_VALUE_OK;
		}
	} else {
		res->kind = GR_VALUE_TYPE;
		detail_str(res->detail, &res->detail_len, GR_DETAIL_MAX, Py_TYPE(ret)->tp_name);
	}
}

static void call(const struct gr_function *self, const struct gr_arg *args, struct gr_result *res)
{
	const struct function *fn = &functions[self->index];
	PyObject *argv = PyTuple_New(self->nargs), *ret = NULL;

	memset(res, 0, sizeof(*res));
	for (int i = 0; argv && i < self->nargs; i++)
		PyTuple_SET_ITEM(argv, i, to_python(fn->args[i], &args[i]));
	if (argv && !PyErr_Occurred())
		ret = PyObject_Call(fn->callable, argv, NULL);
	flush_output();
	if (forbidden[0] || !ret) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError, "no result");
		res->kind = classify_exception(res->detail, &res->detail_len, GR_DETAIL_MAX, &res->value);
	} else {
		convert(ret, res);
	}
	Py_XDECREF(ret);
	Py_XDECREF(argv);
}

/* ---- start-up ---- */

static void host_failure(struct gr_load *load, const char *what)
{
	load->kind = GR_LOAD_HOST;
	load->detail_len = 0;
	detail_str(load->detail, &load->detail_len, GR_DETAIL_MAX, what);
}

static int start_interpreter(void)
{
	PyConfig config;
	PyStatus st;
	PyConfig_InitIsolatedConfig(&config);
	config.site_import = 0;
	config.write_bytecode = 0;
	config.install_signal_handlers = 0;
	config.use_hash_seed = 1;      /* the same dict and set orders on every run */
	config.hash_seed = 0;
	config.buffered_stdio = 1;
	st = PyWideStringList_Append(&config.warnoptions, L"ignore");
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	return PyStatus_Exception(st) ? -1 : 0;
}

/* "name:ret:args" into table entry i. */
static int parse_function(const char *spec, int i)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t nargs;
	if (!c1 || !c2 || c2 != c1 + 2 || !strchr("bil", c1[1]))
		return -1;
	nargs = strlen(c2 + 1);
	if (nargs > MAX_ARGS || strspn(c2 + 1, "bilaA") != nargs)
		return -1;
	table[i].name = strndup(spec, (size_t)(c1 - spec));
	table[i].call = call;
	table[i].nargs = (int)nargs;
	table[i].index = i;
	functions[i].ret = c1[1];
	memcpy(functions[i].args, c2 + 1, nargs + 1);
	return table[i].name ? 0 : -1;
}

/*
 * --check SOURCE NAME: compile the file as Python 3 and say what does not
 * parse, as Python words it ("NAME, line L, column C: SyntaxError: ...",
 * the line, a caret under the column).
 */
static int check_syntax(const char *path, const char *name)
{
	PyObject *c, *type, *value, *tb;
	long line = 0, col = 0;
	const char *msg = NULL, *text = NULL;

	source = read_source(path);
	if (!source) {
		fprintf(stdout, "%s: cannot be read (not a regular file, or larger than 1 MiB)\n", name);
		return 1;
	}
	if (nul_position(&line, &col)) {
		fprintf(stdout, "%s, line %ld, column %ld: SyntaxError: source code cannot contain null bytes\n"
			"    (a NUL byte, which python3 refuses too: remove it)\n", name, line, col);
		return 1;
	}
	if (start_interpreter() < 0) {
		fprintf(stdout, "the Python interpreter could not start\n");
		return 2;
	}
	c = Py_CompileStringExFlags(source, name, Py_file_input, NULL, -1);
	if (c) {
		Py_DECREF(c);
		return 0;
	}
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (value) {
		PyObject *l = PyObject_GetAttrString(value, "lineno"), *o = PyObject_GetAttrString(value, "offset");
		PyObject *m = PyObject_GetAttrString(value, "msg"), *t = PyObject_GetAttrString(value, "text");
		line = l && PyLong_Check(l) ? PyLong_AsLong(l) : 0;
		col = o && PyLong_Check(o) ? PyLong_AsLong(o) : 0;
		msg = utf8_of(m);
		text = utf8_of(t);
		PyErr_Clear();
	}
	fprintf(stdout, "%s, line %ld, column %ld: %s: %s\n", name, line, col,
		type ? ((PyTypeObject *)type)->tp_name : "SyntaxError",
		msg ? msg : "invalid syntax");
	if (text) {
		size_t n = strcspn(text, "\r\n");
		fprintf(stdout, "    %.*s\n    %*s^\n", (int)n, text, col > 1 ? (int)col - 1 : 0, "");
	}
	return 1;
}

/* Import what a solution may use, while files can still be read. */
static void preload_modules(void)
{
	for (int i = 0; preload[i]; i++) {
		PyObject *m = PyImport_ImportModule(preload[i]);
		Py_XDECREF(m);
		PyErr_Clear();
	}
}

int gr_stub_init(int argc, char **argv, struct gr_function **out, int *nout, struct gr_load *load)
{
	long nul_line, nul_col;

	*out = table;
	*nout = 0;
	if (argc == 4 && !strcmp(argv[1], "--check"))
		exit(check_syntax(argv[2], argv[3]));
	if (argc < 4 || argc - 3 > MAX_FUNCTIONS) {
		host_failure(load, "usage: runner SOURCE MODULE FUNCTION...");
		return -1;
	}
	module_name = argv[2];
	file_name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	for (int i = 3; i < argc; i++)
		if (parse_function(argv[i], i - 3) < 0) {
			host_failure(load, "a function the grader asked for is not name:ret:args");
			return -1;
		}
	nfunctions = argc - 3;
	*nout = nfunctions;
	source = read_source(argv[1]);
	if (!source || start_interpreter() < 0) {
		host_failure(load, source ? "the Python interpreter could not start" : "the module cannot be read");
		return -1;
	}
	if (nul_position(&nul_line, &nul_col)) {
		host_failure(load, "the module holds a NUL byte (it passed the syntax check)");
		return -1;
	}
	preload_modules();
	code = Py_CompileStringExFlags(source, file_name, Py_file_input, NULL, -1);
	stdout_orig = PySys_GetObject("stdout");
	stderr_orig = PySys_GetObject("stderr");
	Py_XINCREF(stdout_orig);
	Py_XINCREF(stderr_orig);
	if (!code || !stdout_orig || PySys_AddAuditHook(audit, NULL) < 0) {
		/* the syntax check runs with a compiler's memory, the runner with the problem's limit */
		int memory = !code && PyErr_ExceptionMatches(PyExc_MemoryError);
		PyErr_Clear();
		host_failure(load, code     ? "the Python interpreter could not be prepared"
				   : memory ? "the module is too large to compile within the memory limit (MemoryError; "
					      "it passed the syntax check)"
					    : "the module does not compile (it passed the syntax check)");
		return -1;
	}
	return 0;
}

/* Point sys.stdout and sys.stderr at one in-memory buffer; returns it (new reference) or NULL. */
static PyObject *capture_output(void)
{
	PyObject *io = PyImport_ImportModule("io"), *buf = io ? PyObject_CallMethod(io, "StringIO", NULL) : NULL;
	Py_XDECREF(io);
	if (!buf || PySys_SetObject("stdout", buf) < 0 || PySys_SetObject("stderr", buf) < 0) {
		PyErr_Clear();
		Py_XDECREF(buf);
		return NULL;
	}
	return buf;
}

/* What the module printed while importing (our buffer's content, read with str's own methods). */
static void take_output(PyObject *buf, struct gr_load *load)
{
	PyObject *text = buf ? PyObject_CallMethod(buf, "getvalue", NULL) : NULL;
	const char *t = text && PyUnicode_CheckExact(text) ? PyUnicode_AsUTF8(text) : NULL;
	if (t) {
		size_t n = strlen(t);
		load->output_total = n;
		load->output_len = (uint32_t)(n > GR_OUTPUT_KEEP ? GR_OUTPUT_KEEP : n);
		memcpy(load->output, t, load->output_len);
	}
	PyErr_Clear();
	Py_XDECREF(text);
	PySys_SetObject("stdout", stdout_orig);
	PySys_SetObject("stderr", stderr_orig);
}

/* The module's source, for tracebacks printed by the program itself (linecache, never a file). */
static void seed_linecache(void)
{
	PyObject *lc = PyImport_ImportModule("linecache"), *cache = lc ? PyObject_GetAttrString(lc, "cache") : NULL;
	PyObject *lines = PyUnicode_FromString(source), *list = lines ? PyUnicode_Splitlines(lines, 1) : NULL;
	PyObject *entry = list ? Py_BuildValue("(nOOs)", (Py_ssize_t)strlen(source), Py_None, list, file_name) : NULL;
	if (cache && entry && PyDict_Check(cache))
		PyDict_SetItemString(cache, file_name, entry);
	PyErr_Clear();
	Py_XDECREF(entry);
	Py_XDECREF(list);
	Py_XDECREF(lines);
	Py_XDECREF(cache);
	Py_XDECREF(lc);
}

void gr_stub_load(struct gr_load *load)
{
	PyObject *buf, *module;

	seed_linecache();
	buf = capture_output();
	armed = 1;
	module = PyImport_ExecCodeModuleObject(PyUnicode_FromString(module_name), code, PyUnicode_FromString(file_name),
					       NULL);
	flush_output();
	if (!module || forbidden[0]) {
		int64_t depth = 0;
		uint32_t kind;
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError, "the import failed");
		kind = classify_exception(load->detail, &load->detail_len, GR_DETAIL_MAX, &depth);
		load->kind = kind == GR_VALUE_FORBIDDEN ? GR_LOAD_FORBIDDEN : kind == GR_VALUE_EXIT ? GR_LOAD_EXIT
											 : GR_LOAD_EXCEPTION;
		if (kind == GR_VALUE_MEMORY)
			detail_str(load->detail, &load->detail_len, GR_DETAIL_MAX, "MemoryError");
	}
	take_output(buf, load);
	Py_XDECREF(buf);
	for (int i = 0; module && load->kind == GR_LOAD_OK && i < nfunctions; i++) {
		PyObject *f = PyObject_GetAttrString(module, table[i].name);
		if (f && PyCallable_Check(f)) {
			functions[i].callable = f;
			table[i].present = 1;
		} else {
			Py_XDECREF(f);
		}
		PyErr_Clear();
	}
}
