#!/usr/bin/env python3
"""tests/batch/course/make-late.py DIR - classes with submission times, for tests/batch/course/run.sh.

  DIR/git/        one git repository per student (GitHub Classroom's clone), commits made with fixed
                  GIT_COMMITTER_DATE/GIT_AUTHOR_DATE before and after the deadline of DIR/policy.yaml
  DIR/canvas/     a Canvas download: flat files, some marked _LATE_, with file times set (os.utime)
  DIR/moodle/     a Moodle download: a folder per student, file times set
  DIR/folders/    plain folders, file times set
  DIR/policy.yaml deadline 2026-11-20T23:59:00+01:00, late_until 2026-11-23T23:59:00+01:00,
                  10 % per started day, at most 30 %; lovelaceada_101 has until 2026-11-22T23:59:00+01:00

The expected rows are written by hand in run.sh, not here.
"""
import datetime
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "reference")
OUT = os.path.abspath(sys.argv[1])
OK_PARITY = open(os.path.join(REF, "parity.c")).read()
OK_SUM = open(os.path.join(REF, "sum.c")).read()
BAD_PARITY = OK_PARITY.replace("n % 2 == 0", "n % 2 == 1")   # every parity test fails: parity 0
assert BAD_PARITY != OK_PARITY

POLICY = """\
# the policy of tests/batch/course/run.sh
deadline: 2026-11-20T23:59:00+01:00
late_until: 2026-11-23T23:59:00+01:00
penalty:
  per: day
  percent: 10
  cap: 30
extensions:
  lovelaceada_101: 2026-11-22T23:59:00+01:00
"""


def ts(s):
    return datetime.datetime.fromisoformat(s).timestamp()


def write(path, text, when=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if when:
        os.utime(path, (ts(when), ts(when)))


def git(repo, *args, when=None):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", HOME="/nonexistent",
               GIT_AUTHOR_NAME="Student", GIT_AUTHOR_EMAIL="s@example.org",
               GIT_COMMITTER_NAME="Student", GIT_COMMITTER_EMAIL="s@example.org")
    if when:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
    subprocess.run(["git", "-C", repo, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def commit(repo, files, when, msg):
    for name, text in files.items():
        write(os.path.join(repo, name), text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", msg, when=when)


def repo(name):
    path = os.path.join(OUT, "origin", name)
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    return path


def clone(origin, name, when):
    # the instructor's clone at `when`: its reflog's "clone:" entry carries that time
    dest = os.path.join(OUT, "git", name)
    git(os.path.dirname(origin), "clone", "-q", origin, dest, when=when)


def make_git():
    both = {"parity.c": OK_PARITY, "sum.c": OK_SUM}
    # on time, cloned at the deadline: trusted
    r = repo("ontime")
    commit(r, both, "2026-11-20T10:00:00+01:00", "done")
    clone(r, "ontime", "2026-11-20T23:59:00+01:00")
    # a wrong parity on time, fixed after the deadline: the fix does not count; an uncommitted
    # change in the clone's work tree does not either
    r = repo("latefix")
    commit(r, {"parity.c": BAD_PARITY, "sum.c": OK_SUM}, "2026-11-20T20:00:00+01:00", "first try")
    commit(r, {"parity.c": OK_PARITY}, "2026-11-24T09:00:00+01:00", "fixed, too late")
    clone(r, "latefix", "2026-11-25T12:00:00+01:00")
    write(os.path.join(OUT, "git", "latefix", "sum.c"), "this does not compile\n")
    # 30 h late (2 started days: 20 %), cloned long after: the date is the student's, flagged
    r = repo("late")
    commit(r, both, "2026-11-22T05:59:00+01:00", "late")
    clone(r, "late", "2026-11-25T12:00:00+01:00")
    # dated before the deadline but in a clone made before that date: a made-up date, the clone's time
    # (2026-11-21T11:59:00+01:00, 12 h late: 1 day, 10 %) is used
    r = repo("future")
    commit(r, both, "2026-11-22T12:00:00+01:00", "from the future")
    clone(r, "future", "2026-11-21T11:59:00+01:00")
    # dates going backwards along the history: flagged
    r = repo("backdated")
    commit(r, {"parity.c": BAD_PARITY, "sum.c": OK_SUM}, "2026-11-22T12:00:00+01:00", "late, honest date")
    commit(r, {"parity.c": OK_PARITY}, "2026-11-19T12:00:00+01:00", "late, backdated")
    clone(r, "backdated", "2026-11-25T12:00:00+01:00")
    # every commit after late_until: nothing to grade, final 0
    r = repo("toolate")
    commit(r, both, "2026-11-24T08:00:00+01:00", "after late_until")
    clone(r, "toolate", "2026-11-25T12:00:00+01:00")
    # a .git that is no repository: a row saying so, no price
    write(os.path.join(OUT, "git", "broken", ".git", "HEAD"), "not a ref\n")
    write(os.path.join(OUT, "git", "broken", "parity.c"), OK_PARITY)
    # a repository whose git hangs: HEAD is a FIFO nobody writes, so git blocks reading it (as it
    # would on a huge or damaged repository); the batch must go on and give the row a reason
    r = repo("hang")
    commit(r, both, "2026-11-20T10:00:00+01:00", "done")
    clone(r, "hang", "2026-11-20T23:59:00+01:00")
    os.unlink(os.path.join(OUT, "git", "hang", ".git", "HEAD"))
    os.mkfifo(os.path.join(OUT, "git", "hang", ".git", "HEAD"))
    shutil.rmtree(os.path.join(OUT, "origin"))


def make_canvas():
    d = os.path.join(OUT, "canvas")
    # on time: no marker (the file time after the deadline is Canvas' business: not second-guessed)
    write(f"{d}/babbagecharles_102_9001_parity.c", OK_PARITY, "2026-11-21T10:00:00+01:00")
    write(f"{d}/babbagecharles_102_9002_sum.c", OK_SUM, "2026-11-21T10:00:00+01:00")
    # _LATE_, file times 50 h after the deadline: 3 started days, 30 % (the cap)
    write(f"{d}/hopper_LATE_103_9003_parity.c", OK_PARITY, "2026-11-23T01:59:00+01:00")
    write(f"{d}/hopper_LATE_103_9004_sum.c", OK_SUM, "2026-11-23T01:59:00+01:00")
    # _LATE_ but the file times say before the deadline: how late is unknown, one day charged (10 %)
    write(f"{d}/turingalan_LATE_104_9005_parity.c", OK_PARITY, "2026-11-20T12:00:00+01:00")
    write(f"{d}/turingalan_LATE_104_9006_sum.c", OK_SUM, "2026-11-20T12:00:00+01:00")
    # _LATE_ 26 h after the deadline, but an extension to 2026-11-22T23:59: 2 h late for her, 1 day, 10 %
    write(f"{d}/lovelaceada_LATE_101_9007_parity.c", OK_PARITY, "2026-11-23T01:59:00+01:00")
    write(f"{d}/lovelaceada_LATE_101_9008_sum.c", BAD_PARITY.replace("isEven", "unused") + OK_SUM, "2026-11-23T01:59:00+01:00")
    # _LATE_ after late_until: graded, final 0
    write(f"{d}/knuthdonald_LATE_105_9009_parity.c", OK_PARITY, "2026-11-24T12:00:00+01:00")
    write(f"{d}/knuthdonald_LATE_105_9010_sum.c", OK_SUM, "2026-11-24T12:00:00+01:00")


def make_moodle():
    d = os.path.join(OUT, "moodle")
    f = "assignsubmission_file_"
    write(f"{d}/Ada Lovelace_201_{f}/parity.c", OK_PARITY, "2026-11-20T23:00:00+01:00")
    write(f"{d}/Ada Lovelace_201_{f}/sum.c", OK_SUM, "2026-11-20T22:00:00+01:00")
    # the newest file counts: 1 h late, 1 day, 10 %
    write(f"{d}/Grace Hopper_205_{f}/parity.c", OK_PARITY, "2026-11-20T20:00:00+01:00")
    write(f"{d}/Grace Hopper_205_{f}/sum.c", OK_SUM, "2026-11-21T00:59:00+01:00")


def make_folders():
    d = os.path.join(OUT, "folders")
    # 73 h late by its file times (after late_until): graded, final 0, the time flagged
    write(f"{d}/zoe/parity.c", OK_PARITY, "2026-11-24T00:59:00+01:00")
    write(f"{d}/zoe/sum.c", OK_SUM, "2026-11-20T00:59:00+01:00")
    write(f"{d}/yan/parity.c", OK_PARITY, "2026-11-20T00:59:00+01:00")
    write(f"{d}/yan/sum.c", OK_SUM, "2026-11-20T00:59:00+01:00")


os.makedirs(OUT, exist_ok=True)
write(os.path.join(OUT, "policy.yaml"), POLICY)
make_git()
make_canvas()
make_moodle()
make_folders()
