#!/usr/bin/env python3
"""make-seeds.py - (re)write the seed corpora of tests/fuzz/corpus/<harness>/.

The seeds are committed; this script says where each comes from and makes
them again (run from anywhere; needs gcc, and build/fuzz/runtime.o plus
build/fuzz/stubgen for the real runners: `make fuzz-build` first).

  record/   the runner's own records (grader/runtime/protocol.h layouts):
            hellos (C, Python with start-up output, a failed import),
            reports (an answer, output, a crash, memory, output limit, a
            Python exception), a forbidden call, a sandbox failure, and
            streams of several, each after the harness's 13-byte prefix
            (what is expected, the case id, the runner's secret)
  yaml/     problems/*.yaml and tests/unit/data/**.yaml as they are, and
            problem sets (a NUL byte first, files separated by NUL bytes)
  elf/      real runners linked as lang_c.c links them (reference p1 and p4,
            an ifunc, a libc-name clash, static data), runtime.o, and small
            hand-made ELF files (truncated, ELF32, no sections)
  archive/  small .zip / .tar.gz / .tar submissions, good and unsafe
            (absolute names, '..', symbolic and hard links out of the tree,
            a device, huge declared sizes, duplicates, a zip bomb in small)

usage: tests/fuzz/make-seeds.py [record|yaml|elf|archive ...]
"""
import gzip
import io
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")

# ---- records (protocol.h) ----
HELLO, REPORT, FORBID, SANDBOX = 0x4F4C4548, 0x50455247, 0x44494246, 0x584F4253
ANSWERED, FORBIDDEN, NOMEM, OUTPUT_LIMIT, CASE_READY = 1, 2, 4, 8, 64
NONCE = 0x5EC2E7A1B2C3D4E5  # the runner's secret the prefix announces (protocol.h GR_NONCE_LEN)


def hello(nfunc=2, present=3, load_kind=0, startup=b"", startup_total=None, detail=b"", nonce=NONCE):
    h = struct.pack("<IIQIIIIQIIQ", HELLO, nfunc, present, 1, 1, load_kind, len(startup),
                    len(startup) if startup_total is None else startup_total, len(detail), 0, nonce)
    assert len(h) == 56
    return h + startup + detail


def report(case, answer=0, flags=ANSWERED | CASE_READY, wait_status=0, cpu_us=120, maxrss=1536,
           output=b"", output_total=None, nomem=0, syscall=0, value_kind=0, detail=b"", magic=REPORT,
           nonce=NONCE):
    r = struct.pack("<IIiIqQQQQiIIIIIQ", magic, case, wait_status, flags, answer, cpu_us, maxrss,
                    len(output) if output_total is None else output_total, nomem, syscall,
                    len(output), value_kind, len(detail), 0, 0, nonce)
    assert len(r) == 88
    return r + output + detail


def prefix(starting, running, case=0):
    return bytes([(1 if starting else 0) | (2 if running else 0)]) + struct.pack("<IQ", case, NONCE)


def record_seeds():
    tb = (b"Traceback (most recent call last):\n  File \"P4.py\", line 5, in f\n"
          b"IndexError: list index out of range\n")
    selftest = b"".join(b"AcanWin(%d) = %s\n" % (n, b"True" if n % 8 not in (0, 7) else b"False")
                        for n in range(1, 40))
    return {
        "hello-c": prefix(1, 0) + hello(),
        "hello-python-startup": prefix(1, 0) + hello(startup=selftest, startup_total=713),
        "hello-import-exception": prefix(1, 0) + hello(load_kind=1, detail=tb),
        "hello-host-failed": prefix(1, 0) + hello(load_kind=4, detail=b"cannot import the encodings module"),
        "sandbox": prefix(1, 0) + struct.pack("<I", SANDBOX),
        "report-correct": prefix(0, 1, 7) + report(7, answer=1),
        "report-output": prefix(0, 1, 3) + report(3, answer=6, output=b"debug: L=[4,3,1,2]\n"),
        "report-crash": prefix(0, 1, 2) + report(2, flags=CASE_READY, wait_status=11),
        "report-nomem": prefix(0, 1, 9) + report(9, flags=NOMEM | CASE_READY, nomem=300 << 20, wait_status=6),
        "report-output-limit": prefix(0, 1, 4) + report(4, flags=OUTPUT_LIMIT | CASE_READY, output=b"x" * 4096,
                                                       output_total=1 << 20, wait_status=9),
        "report-forbidden": prefix(0, 1, 5) + report(5, flags=FORBIDDEN | CASE_READY, syscall=57, wait_status=31),
        "report-python-exception": prefix(0, 1, 1) + report(1, value_kind=4, detail=tb),
        "forbid": prefix(1, 1, 0) + report(0, flags=0, syscall=41, magic=FORBID),
        "stream-start-then-cases": prefix(1, 1, 0) + hello() + report(0, answer=1) + report(1, answer=0)
        + report(2, answer=1, output=b"hi\n"),
        "stream-partial": prefix(0, 1, 0) + report(0, answer=1) + report(1, answer=1)[:50],
        "wrong-case": prefix(0, 1, 8) + report(9, answer=1),
        "garbage": prefix(1, 1, 0) + b"Hello from a constructor!\n",
        "hello-no-secret": prefix(1, 0) + hello(nonce=0),
        "report-wrong-secret": prefix(0, 1, 7) + report(7, answer=1, nonce=NONCE ^ 1),
    }


# ---- YAML ----
def yaml_seeds():
    seeds = {}
    for base in ("problems", "tests/unit/data", "tests/batch/problems", "tests/hostile/problems"):
        top = os.path.join(ROOT, base)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".yaml", ".yml")) and "/sets/" not in dirpath + "/":
                    rel = os.path.relpath(os.path.join(dirpath, f), ROOT).replace("/", "_")
                    seeds[rel] = open(os.path.join(dirpath, f), "rb").read()
    sets = os.path.join(ROOT, "tests/unit/data/sets")
    for s in sorted(os.listdir(sets)):
        files = sorted(os.listdir(os.path.join(sets, s)))
        parts = [open(os.path.join(sets, s, f), "rb").read() for f in files]
        seeds["set-" + s] = b"\0" + b"\0".join(parts)
    probs = [open(os.path.join(ROOT, "problems", f), "rb").read()
             for f in sorted(os.listdir(os.path.join(ROOT, "problems"))) if f.endswith(".yaml")]
    seeds["set-problems"] = b"\0" + b"\0".join(probs)
    return seeds


# ---- ELF ----
def run(cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True)


def extended_numbering(image):
    """The image with its section count and name table index moved to section 0, as an
    ELF file with more than 65,279 sections has them (e_shnum 0, e_shstrndx SHN_XINDEX)."""
    img = bytearray(image)
    shoff, = struct.unpack_from("<Q", img, 40)
    shnum, shstrndx = struct.unpack_from("<HH", img, 60)
    struct.pack_into("<HH", img, 60, 0, 0xFFFF)
    struct.pack_into("<Q", img, shoff + 32, shnum)      # section 0's sh_size
    struct.pack_into("<I", img, shoff + 40, shstrndx)   # section 0's sh_link
    return bytes(img)


def elf_seeds():
    build = os.environ.get("FUZZ_BUILD", os.path.join(ROOT, "build", "fuzz"))
    stubgen = os.path.join(build, "stubgen")
    runtime_o = os.path.join(build, "runtime.o")
    seeds = {"runtime.o": open(runtime_o, "rb").read()}
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(ROOT, "grader/runtime/protocol.h"), tmp)

        def runner(problem, source, name, extra=()):
            run([stubgen, os.path.join(ROOT, "problems", problem + ".yaml"), tmp], tmp)
            # lang_c.c's link line: the stub, the runtime, the submission, malloc wrapped
            run(["gcc", "-std=gnu17", "-O2", "-I" + tmp, "-include", "grader_decls.h",
                 "-Dmain=grader_student_main", runtime_o, source, "grader_stub.c", "-o", name,
                 "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc", "-lm", "-s" if "strip" in extra else "-g0"]
                + [e for e in extra if e != "strip"], tmp)
            seeds[name] = open(os.path.join(tmp, name), "rb").read()

        runner("p1", os.path.join(ROOT, "reference/p1.c"), "runner-p1")
        runner("p4", os.path.join(ROOT, "reference/p4.c"), "runner-p4")
        srcs = {
            "ifunc.c": "#include <stdbool.h>\nstatic bool real(int n){return n%8!=0&&n%8!=7;}\n"
                       "static void *pick(void){return (void*)real;}\n"
                       "bool AcanWin(int n) __attribute__((ifunc(\"pick\")));\n"
                       "bool BcanWin(int n){return n%8!=0;}\n",
            "clash.c": "#include <stdbool.h>\nint prctl = 3;\nbool AcanWin(int n){return n%8;}\n"
                       "bool BcanWin(int n){return n%8;}\n",
            "static.c": "#include <stdbool.h>\nstatic char big[1 << 30];\n"
                        "bool AcanWin(int n){return big[n];}\nbool BcanWin(int n){return n%8;}\n",
            "tls.c": "#include <stdbool.h>\n_Thread_local char big[1 << 20];\n"
                     "bool AcanWin(int n){return big[n];}\nbool BcanWin(int n){return n%8;}\n",
        }
        for name, text in srcs.items():
            path = os.path.join(tmp, name)
            open(path, "w").write(text)
            try:
                runner("p1", path, "runner-" + name[:-2], ("strip",) if name == "static.c" else ())
            except subprocess.CalledProcessError:
                pass  # a link the grader itself refuses earlier: not a seed
        open(os.path.join(tmp, "tiny.c"), "w").write("void _start(void){for(;;);}\n")
        run(["gcc", "-O2", "-nostdlib", "-static", "-s", "-o", "tiny", "tiny.c"], tmp)
        tiny = open(os.path.join(tmp, "tiny"), "rb").read()
        seeds["tiny-static"] = tiny
        seeds["tiny-truncated"] = tiny[:80]
        seeds["tiny-no-sections"] = tiny[:40] + struct.pack("<Q", 0) + tiny[48:60] + b"\0\0\0\0" + tiny[64:]
        seeds["tiny-extended-numbering"] = extended_numbering(tiny)
        run(["gcc", "-m32", "-O2", "-nostdlib", "-static", "-s", "-o", "tiny32", "tiny.c"], tmp) \
            if subprocess.run(["gcc", "-m32", "-E", "-x", "c", "/dev/null"], capture_output=True).returncode == 0 \
            else None
        if os.path.exists(os.path.join(tmp, "tiny32")):
            seeds["tiny32"] = open(os.path.join(tmp, "tiny32"), "rb").read()
        else:
            seeds["elf32-header"] = tiny[:4] + b"\x01" + tiny[5:52]
    return seeds


# ---- archives ----
def tar_bytes(entries, gz=True):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for e in entries:
            info = tarfile.TarInfo(e["name"])
            info.type = e.get("type", tarfile.REGTYPE)
            info.linkname = e.get("link", "")
            data = e.get("data", b"")
            info.size = len(data) if info.type == tarfile.REGTYPE else 0
            info.mode = 0o755 if info.type == tarfile.DIRTYPE else 0o644
            t.addfile(info, io.BytesIO(data) if info.size else None)
    raw = buf.getvalue().rstrip(b"\0")
    raw += b"\0" * (-len(raw) % 512 + 1024)  # the last block, then the two zero blocks that end a tar
    return gzip.compress(raw, mtime=0) if gz else raw


def zip_bytes(entries, stored=False):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            if name.endswith("/"):
                z.writestr(zipfile.ZipInfo(name), b"")
            else:
                z.writestr(name, data)
    return buf.getvalue()


def zip_symlink(name, target):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("sub/p1.c", P1)
        info = zipfile.ZipInfo(name)
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        z.writestr(info, target)
    return buf.getvalue()


P1 = open(os.path.join(ROOT, "reference/p1.c"), "rb").read() if os.path.exists(
    os.path.join(ROOT, "reference/p1.c")) else b"int x;\n"


def huge_tar(base256=False):
    """A tar header declaring 100 GiB (octal, or GNU base-256) with no data behind it."""
    info = tarfile.TarInfo("huge.c")
    info.size = 100 << 30
    hdr = bytearray(info.tobuf(format=tarfile.GNU_FORMAT))
    if base256:
        hdr[124:136] = b"\x80" + (1 << 40).to_bytes(11, "big")  # 1 TiB
        hdr[148:156] = b"        "
        hdr[148:156] = ("%06o\0 " % sum(hdr[:512])).encode()
    raw = bytes(hdr) + b"\0" * 1024
    return raw if base256 else gzip.compress(raw, mtime=0)


def huge_zip():
    """A zip whose central directory declares 4 GiB for a 3-byte file."""
    raw = bytearray(zip_bytes([("p1.c", b"abc")]))
    cd = raw.find(b"PK\x01\x02")
    struct.pack_into("<I", raw, cd + 24, 0xFFFFFFF0)  # uncompressed size
    lh = raw.find(b"PK\x03\x04")
    struct.pack_into("<I", raw, lh + 22, 0xFFFFFFF0)
    return bytes(raw)


def archive_seeds():
    good = [{"name": "alice/", "type": tarfile.DIRTYPE}, {"name": "alice/p1.c", "data": P1},
            {"name": "alice/p4.py", "data": b"def f(L):\n    return sum(L)\n"}]
    tars = {
        "good": good,
        "dot-slash": [{"name": "./", "type": tarfile.DIRTYPE}, {"name": "./p1.c", "data": P1}],
        "absolute": [{"name": "/tmp/evil.c", "data": b"x"}],
        "dotdot": [{"name": "a/../../evil.c", "data": b"x"}],
        "symlink-out": [{"name": "p1.c", "type": tarfile.SYMTYPE, "link": "/etc/passwd"}],
        "symlink-up": [{"name": "a/p1.c", "type": tarfile.SYMTYPE, "link": "../../x"}],
        "symlink-inside": [{"name": "a/p1.c", "data": P1}, {"name": "a/p2.c", "type": tarfile.SYMTYPE, "link": "p1.c"}],
        "symlink-then-write": [{"name": "d", "type": tarfile.SYMTYPE, "link": "."}, {"name": "d/p1.c", "data": P1}],
        "symlink-dir-escape": [{"name": "d", "type": tarfile.SYMTYPE, "link": "a/.."},
                               {"name": "d/../x.c", "data": b"x"}],
        "hardlink-out": [{"name": "p1.c", "type": tarfile.LNKTYPE, "link": "/etc/shadow"}],
        "hardlink-up": [{"name": "p1.c", "type": tarfile.LNKTYPE, "link": "../../etc/shadow"}],
        "hardlink-inside": [{"name": "p1.c", "data": P1}, {"name": "p2.c", "type": tarfile.LNKTYPE, "link": "p1.c"}],
        "device": [{"name": "null", "type": tarfile.CHRTYPE}],
        "fifo": [{"name": "fifo", "type": tarfile.FIFOTYPE}],
        "duplicate": [{"name": "p1.c", "data": b"a"}, {"name": "p1.c", "data": b"b"}],
        "file-then-dir": [{"name": "p1.c", "data": b"a"}, {"name": "p1.c/x", "data": b"b"}],
        "empty": [],
        "many": [{"name": "f%d" % i, "data": b""} for i in range(40)],
        "deep": [{"name": "/".join(["d"] * 60) + "/p1.c", "data": P1}],
        "big": [{"name": "big.c", "data": b"/* padding */\n" * 20000}],
    }
    seeds = {}
    for name, entries in tars.items():
        seeds[name + ".tar.gz"] = tar_bytes(entries)
        if name != "big":
            seeds[name + ".tar"] = tar_bytes(entries, gz=False)
    seeds.update({
        "good.zip": zip_bytes([("alice/", b""), ("alice/p1.c", P1), ("alice/P4.py", b"def f(L): return 0\n")]),
        "good-stored.zip": zip_bytes([("alice/p1.c", P1), ("alice/P4.py", b"def f(L): return 0\n")], stored=True),
        "dotdot.zip": zip_bytes([("../evil.c", b"x")], stored=True),
        "absolute.zip": zip_bytes([("/etc/evil", b"x")], stored=True),
        "backslash.zip": zip_bytes([("..\\evil.c", b"x")], stored=True),
        "symlink.zip": zip_symlink("p2.c", "../../etc/passwd"),
        "huge-declared.tar.gz": huge_tar(),
        "huge-declared-base256.tar": huge_tar(base256=True),
        "huge-declared.zip": huge_zip(),
        "bomb.zip": zip_bytes([("bomb.c", b"\0" * (2 << 20))]),
        "bomb.tar.gz": tar_bytes([{"name": "bomb.c", "data": b"\0" * (2 << 20)}]),
    })
    return seeds


WRITERS = {"record": record_seeds, "yaml": yaml_seeds, "elf": elf_seeds, "archive": archive_seeds}


def main():
    which = sys.argv[1:] or list(WRITERS)
    for h in which:
        d = os.path.join(CORPUS, h)
        os.makedirs(d, exist_ok=True)
        seeds = WRITERS[h]()
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print("%s: %d seeds, %d bytes" % (h, len(seeds), sum(len(v) for v in seeds.values())))


if __name__ == "__main__":
    main()
