/* lms_roster.c - see lms_roster.h */
#include "batch/lms_roster.h"

#include <stdlib.h>
#include <string.h>

#include "report/jsontext.h"

static const struct {
	const char *name, *words;
} layouts[LMS_LAYOUTS] = {
	[LMS_FOLDERS] = { "folders", "one folder or archive per student" },
	[LMS_CANVAS] = { "canvas", "a Canvas download" },
	[LMS_MOODLE] = { "moodle", "a Moodle download" },
	[LMS_GRADESCOPE] = { "gradescope", "a Gradescope export" },
};

const char *lms_layout_name(enum lms_layout l)
{
	return layouts[l].name;
}

const char *lms_layout_words(enum lms_layout l)
{
	return layouts[l].words;
}

int lms_layout_parse(const char *name, enum lms_layout *out)
{
	for (int i = 0; i < LMS_LAYOUTS; i++)
		if (!strcmp(name, layouts[i].name)) {
			*out = (enum lms_layout)i;
			return 0;
		}
	return -1;
}

/* ---- the roster ---- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void lms_roster_add(struct lms_roster *r, const struct lms_person *p)
{
	struct lms_person *q;
	ALLOC_GROW(r->people, r->n + 1, r->alloc);
	q = &r->people[r->n++];
	q->id = xstrdup(p->id);
	q->name = xstrdup(p->name ? p->name : "");
	q->lms_id = xstrdup(p->lms_id ? p->lms_id : "");
	q->sid = dup_or_null(p->sid);
	q->email = dup_or_null(p->email);
	q->late = p->late;
}

static int cmp_person(const void *a, const void *b)
{
	return strcmp(((const struct lms_person *)a)->id, ((const struct lms_person *)b)->id);
}

void lms_roster_sort(struct lms_roster *r)
{
	if (r->n)
		qsort(r->people, (size_t)r->n, sizeof(*r->people), cmp_person);
}

const struct lms_person *lms_roster_find(const struct lms_roster *r, const char *id)
{
	struct lms_person key;
	if (!r->n)
		return NULL;
	key.id = (char *)id;
	return bsearch(&key, r->people, (size_t)r->n, sizeof(*r->people), cmp_person);
}

void lms_roster_release(struct lms_roster *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->people[i].id);
		free(r->people[i].name);
		free(r->people[i].lms_id);
		free(r->people[i].sid);
		free(r->people[i].email);
	}
	free(r->people);
	free(r->assignment);
	memset(r, 0, sizeof(*r));
}

json_t *lms_roster_to_json(const struct lms_roster *r)
{
	json_t *root, *people;

	if (r->layout == LMS_FOLDERS)
		return NULL;
	root = json_object();
	people = json_array();
	json_object_set_new(root, "layout", json_string(lms_layout_name(r->layout)));
	if (r->assignment)
		json_object_set_new(root, "assignment", json_text(r->assignment));
	for (int i = 0; i < r->n; i++) {
		const struct lms_person *p = &r->people[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_text(p->id));
		json_object_set_new(o, "name", json_text(p->name));
		json_object_set_new(o, "lms_id", json_text(p->lms_id));
		if (p->sid)
			json_object_set_new(o, "sid", json_text(p->sid));
		if (p->email)
			json_object_set_new(o, "email", json_text(p->email));
		if (p->late)
			json_object_set_new(o, "late", json_true());
		json_array_append_new(people, o);
	}
	json_object_set_new(root, "students", people);
	return root;
}

int lms_roster_from_json(json_t *j, struct lms_roster *r, struct strbuf *err)
{
	const char *layout = json_string_value(json_object_get(j, "layout"));
	const char *assignment = json_string_value(json_object_get(j, "assignment"));
	json_t *people = json_object_get(j, "students");

	memset(r, 0, sizeof(*r));
	if (!j)
		return 0;
	if (!layout || lms_layout_parse(layout, &r->layout) < 0 || !json_is_array(people)) {
		strbuf_addstr(err, "a bad \"lms\" entry");
		return -1;
	}
	r->assignment = dup_or_null(assignment);
	for (size_t i = 0; i < json_array_size(people); i++) {
		json_t *o = json_array_get(people, i);
		struct lms_person p;
		p.id = (char *)json_string_value(json_object_get(o, "id"));
		p.name = (char *)json_string_value(json_object_get(o, "name"));
		p.lms_id = (char *)json_string_value(json_object_get(o, "lms_id"));
		p.sid = (char *)json_string_value(json_object_get(o, "sid"));
		p.email = (char *)json_string_value(json_object_get(o, "email"));
		p.late = json_is_true(json_object_get(o, "late"));
		if (!p.id) {
			strbuf_addstr(err, "an \"lms\" student without an id");
			lms_roster_release(r);
			return -1;
		}
		lms_roster_add(r, &p);
	}
	lms_roster_sort(r);
	return 0;
}

