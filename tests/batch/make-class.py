#!/usr/bin/env python3
"""tests/batch/make-class.py CLASSDIR - the mixed class of tests/batch/run.sh.

Folders, archives (a folder zipped one level deep, a flat tarball), and
malicious archives, each hitting one rule of grader/batch/batch_archive.c.
Prints nothing; the expected rows live in run.sh.
"""
import io
import os
import struct
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "reference")
FIX = os.path.join(HERE, "fixtures")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def correct():
    return {n: read(os.path.join(REF, n)) for n in ("sum.c", "parity.c")}


def correct_python():
    return {n: read(os.path.join(REF, "python", n)) for n in ("sum.py", "parity.py")}


def folder(cls, name, files):
    d = os.path.join(cls, name)
    os.makedirs(d)
    for rel, data in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def tar(path, entries):
    """entries: (name, kind, payload) with kind file|dir|symlink|hardlink|chardev"""
    with tarfile.open(path, "w:gz") as t:
        for name, kind, payload in entries:
            ti = tarfile.TarInfo(name)
            ti.mtime = 1700000000
            if kind == "file":
                ti.size = len(payload)
                t.addfile(ti, io.BytesIO(payload))
                continue
            if kind == "dir":
                ti.type = tarfile.DIRTYPE
                ti.mode = 0o755
            elif kind == "symlink":
                ti.type = tarfile.SYMTYPE
                ti.linkname = payload
            elif kind == "hardlink":
                ti.type = tarfile.LNKTYPE
                ti.linkname = payload
            elif kind == "chardev":
                ti.type = tarfile.CHRTYPE
                ti.devmajor, ti.devminor = 1, 3
            t.addfile(ti)


def liar(path, source):
    """A zip bomb whose headers (local and central) declare 10 bytes for the padding."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("sum.c", source)
        z.writestr("pad.bin", bytes(100 << 20))
    b = bytearray(read(path))
    for sig, name_len_at, size_at, header in ((b"PK\x03\x04", 26, 22, 30), (b"PK\x01\x02", 28, 24, 46)):
        i = b.find(sig)
        while i >= 0:
            n = struct.unpack_from("<H", b, i + name_len_at)[0]
            if b[i + header:i + header + n] == b"pad.bin":
                struct.pack_into("<I", b, i + size_at, 10)
            i = b.find(sig, i + 4)
    with open(path, "wb") as f:
        f.write(b)


def main():
    cls = sys.argv[1]
    os.makedirs(cls)
    ok = correct()
    fix = lambda kind, n: read(os.path.join(FIX, kind, n))

    py = correct_python()
    folder(cls, "alice", ok)                                         # correct
    folder(cls, "pablo", py)                                         # correct, in Python
    folder(cls, "pat", {"sum.py": py["sum.py"], "parity.c": ok["parity.c"]})  # one file in each language
    folder(cls, "polly", {"sum.c": ok["sum.c"], "sum.py": py["sum.py"], "parity.py": py["parity.py"]})  # sum twice
    # priya.zip: Python in a zipped folder, parity wrong (odd numbers "even")
    with zipfile.ZipFile(os.path.join(cls, "priya.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("priya/sum.py", py["sum.py"])
        z.writestr("priya/parity.py", b"def isEven(n):\n    return n % 2 == 1\n")
    folder(cls, "bob", {n: fix("wrong", n) for n in ok})             # wrong answers
    folder(cls, "carol", {"sum.c": fix("compile-error", "sum.c"), "parity.c": ok["parity.c"]})
    folder(cls, "dave", {"sum.c": ok["sum.c"]})                      # parity.c missing
    folder(cls, "erin", {n: fix("endless", n) for n in ok})          # endless loops
    folder(cls, "heidi", {"hw3/" + n: d for n, d in ok.items()})     # one folder deeper
    folder(cls, 'quinn, "q"', ok)                                    # CSV quoting
    folder(cls, "peggy", ok)                                         # and peggy.zip: two submissions
    with zipfile.ZipFile(os.path.join(cls, "peggy.zip"), "w") as z:
        for n, d in ok.items():
            z.writestr(n, d)
    # frank.zip: a student who zipped their folder (plus macOS litter)
    with zipfile.ZipFile(os.path.join(cls, "frank.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in ok.items():
            z.writestr("frank/" + n, d)
        z.writestr("__MACOSX/frank/._sum.c", b"\0\5\26\7")
    # grace.tar.gz: flat, plus a link that stays inside (ignored, not refused)
    tar(os.path.join(cls, "grace.tar.gz"),
        [(n, "file", d) for n, d in ok.items()] + [("link.c", "symlink", "sum.c")])
    # malicious archives: each is refused as a whole, nothing extracted
    tar(os.path.join(cls, "mallory.tar.gz"),
        [("sum.c", "file", ok["sum.c"]), ("../escaped-by-mallory.c", "file", b"int x;\n")])
    tar(os.path.join(cls, "oscar.tar.gz"),
        [("parity.c", "file", ok["parity.c"]), ("sum.c", "symlink", "/etc/passwd")])
    tar(os.path.join(cls, "sybil.tar.gz"),
        [("sum.c", "hardlink", "../../etc/shadow")])
    tar(os.path.join(cls, "walter.tar.gz"),
        [("/tmp/escaped-by-walter.c", "file", b"int x;\n")])
    tar(os.path.join(cls, "mike.tar.gz"), [("null", "chardev", None)])
    with zipfile.ZipFile(os.path.join(cls, "trudy.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("sum.c", ok["sum.c"])
        z.writestr("padding.bin", bytes(100 << 20))                  # a zip bomb, in miniature
    # ursula.zip: the same, but the headers claim 10 bytes: counted while inflating
    liar(os.path.join(cls, "ursula.zip"), ok["sum.c"])
    # hostile code: kill(-1), fork bombs, reading files
    if os.environ.get("BATCH_HOSTILE", "1") == "1":
        folder(cls, "zed", {n: fix("hostile", n) for n in ok})
    with open(os.path.join(cls, "notes.txt"), "w") as f:             # ignored with a warning
        f.write("not a submission\n")


if __name__ == "__main__":
    main()
