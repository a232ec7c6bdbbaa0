/* batch_time.c - see batch_time.h */
#define _GNU_SOURCE
#include "batch/batch_time.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch/batch_git.h"

#define MAX_COMMITS 100000
#define TREE_DEPTH 16

/* The newest modification time of a regular file at or below path (never through a link; .git left out). */
static void newest(const char *path, int depth, int64_t *t, bool *found)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISREG(st.st_mode)) {
		if (!*found || st.st_mtime > *t)
			*t = st.st_mtime;
		*found = true;
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth > TREE_DEPTH || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		char *sub;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git"))
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		newest(sub, depth + 1, t, found);
		free(sub);
	}
	closedir(d);
}

/* The newest time of everything handed in: the folder or archive, or a flat download's files. */
static bool files_time(const struct student *s, int64_t *t)
{
	bool found = false;
	if (s->path)
		newest(s->path, 0, t, &found);
	for (int i = 0; s->lms && i < s->lms->nfiles; i++)
		newest(s->lms->files[i].path, 0, t, &found);
	return found;
}

static void time_words(struct strbuf *sb, int64_t t, const struct late_policy *p)
{
	late_format_time(sb, t, p->offset_s);
}

/*
 * A git repository: the last first-parent commit dated at or before late_until.  How far its committer date can
 * be believed is said in the source words.
 */
static void git_time(struct student *s, const struct late_policy *p, struct late_time *out)
{
	struct strbuf src = STRBUF_INIT, err = STRBUF_INIT;
	struct git_commit *c = NULL;
	int64_t deadline, late_until, cloned;
	bool have_clone = git_clone_time(s->path, &cloned) == 0, backwards = false;
	int n = 0, pick = -1;

	late_policy_for(p, s->id, &deadline, &late_until);
	if (git_commits(s->path, MAX_COMMITS, &c, &n, &err) < 0) {
		s->unusable = xasprintf("cannot read the git repository '%s': %s", s->name, err.buf);
		strbuf_addstr(&src, "git: no commit read");
		goto cleanup;
	}
	/*
	 * A commit is made after its parent: when a date is older than an ancestor's, one of them was set by hand,
	 * and the commit is taken as made no earlier than its newest ancestor (the student's own dates, read in the
	 * way least favourable to a backdated commit).
	 */
	for (int i = n - 2; i >= 0; i--)
		if (c[i + 1].committed > c[i].committed) {
			c[i].committed = c[i + 1].committed;
			backwards = true;
		}
	for (int i = 0; i < n && pick < 0; i++)
		if (c[i].committed <= late_until)
			pick = i;
	if (pick < 0) {
		strbuf_addstr(&err, "");
		time_words(&err, late_until, p);
		s->unusable = xasprintf("no commit at or before late_until (%s): the first one is dated ", err.buf);
		strbuf_reset(&err);
		time_words(&err, c[n - 1].committed, p);
		{
			char *u = xasprintf("%s%s (score 0)", s->unusable, err.buf);
			free(s->unusable);
			s->unusable = u;
		}
		out->known = true;
		out->when = c[n - 1].committed;
		out->flagged = !have_clone || cloned > late_until;
		strbuf_addstr(&src, "git: committer date of the first commit");
		goto cleanup;
	}
	out->known = true;
	out->when = c[pick].committed;
	out->commit = xstrdup(c[pick].hash);
	s->commit = xstrdup(c[pick].hash);
	strbuf_addf(&src, "git: committer date of %.7s", c[pick].hash);
	if (backwards)
		strbuf_addstr(&src, " or of its newest ancestor");
	if (pick)
		strbuf_addf(&src, " (%d later commit%s not counted)", pick, pick == 1 ? "" : "s");
	if (have_clone && cloned < out->when) {
		/* it was in the clone, so it existed when the clone was made: a later date is made up */
		strbuf_addstr(&src, "; dated after the clone (");
		time_words(&src, cloned, p);
		strbuf_addstr(&src, "), which cannot be: the clone's time is used");
		out->when = cloned;
		out->flagged = true;
	} else if (have_clone && cloned <= deadline) {
		strbuf_addstr(&src, "; the repository was cloned at ");
		time_words(&src, cloned, p);
		strbuf_addstr(&src, ", before the deadline: pushed on time, whatever its date says");
	} else if (have_clone && cloned <= late_until) {
		strbuf_addstr(&src, "; pushed by the clone at ");
		time_words(&src, cloned, p);
		strbuf_addstr(&src, ", but when between the deadline and then only its date says, and the student's "
			       "machine sets that");
		out->flagged = true;
	} else {
		strbuf_addstr(&src, "; set by the student's machine, not verified (GitHub's push time is not in a clone");
		if (have_clone) {
			strbuf_addstr(&src, " made at ");
			time_words(&src, cloned, p);
		}
		strbuf_addch(&src, ')');
		out->flagged = true;
	}
	if (backwards) {
		strbuf_addstr(&src, "; commit dates go backwards along the history (set by hand): a commit is taken as no "
			       "older than its ancestors");
		out->flagged = true;
	}
cleanup:
	out->source = strbuf_detach(&src);
	git_commits_free(c);
	strbuf_release(&err);
}

void batch_time_find(struct student *s, enum lms_layout layout, const struct late_policy *p, struct late_time *out)
{
	struct strbuf src = STRBUF_INIT;
	int64_t deadline, late_until;

	memset(out, 0, sizeof(*out));
	late_policy_for(p, s->id, &deadline, &late_until);
	if (s->unusable) {
		out->source = xstrdup("not graded");
		return;
	}
	if (s->path && !s->archive && git_is_repo(s->path)) {
		git_time(s, p, out);
		return;
	}
	out->known = files_time(s, &out->when);
	switch (layout) {
	case LMS_CANVAS:
		out->late_marker = s->lms && s->lms->person.late;
		if (out->late_marker)
			strbuf_addstr(&src, "Canvas: marked _LATE_");
		else
			strbuf_addstr(&src, "Canvas: no _LATE_ marker, on time by Canvas' due date");
		if (out->known && out->late_marker && out->when > deadline) {
			strbuf_addstr(&src, "; how late: the download's file time");
		} else if (out->late_marker) {
			strbuf_addstr(&src, "; the download's file times do not say how late");
			out->known = false;
		} else {
			/* on time by Canvas' own judgement: the file times are not second-guessed */
			out->known = false;
		}
		break;
	case LMS_MOODLE:
		strbuf_addstr(&src, "Moodle: the download's file times (when Moodle stored each file, kept by unzip)");
		break;
	default:
		strbuf_addstr(&src, "the newest file's modification time (anyone who copies the files changes it)");
		out->flagged = out->known;
		break;
	}
	if (!out->known && layout != LMS_CANVAS)
		strbuf_addstr(&src, ": no file to date, taken as on time");
	out->source = strbuf_detach(&src);
}
