#!/usr/bin/env python3
"""check_report.py - judge one grader run of the hostile suite.

usage: check_report.py REPORT.json EXPECTED RC NAMES_FILE AON_GROUPS SECRETS...

REPORT.json  the grader's --format json report
EXPECTED     verdicts every test may have, separated by '|'; then optional
             lines 'message TEXT': some test's message contains TEXT, and
             'runs N': no test ran more than N times (its JSON 'runs')
RC           the grader's exit code
NAMES_FILE   the test names every report must hold, one a line (empty: any)
AON_GROUPS   comma-separated all-or-nothing groups: a test there may be
             'skipped' (with a message) once an earlier test of it failed
SECRETS      strings that must never appear in the report

Prints one summary line ("timelimit x5, skipped x2") and exits 0, or prints
the problems, one a line, and exits 1.
"""
import collections
import json
import sys


def main():
    path, expected, rc, names_file, aon, *secrets = sys.argv[1:]
    lines = [line.strip() for line in expected.strip().splitlines() if line.strip()]
    messages = [line[len('message '):] for line in lines if line.startswith('message ')]
    most_runs = [int(line.split()[1]) for line in lines if line.startswith('runs ')]
    verdict_lines = [line for line in lines if not line.startswith(('message ', 'runs '))]
    expected = verdict_lines[0] if verdict_lines else ''
    allowed = set(expected.split('|'))
    aon_groups = set(g for g in aon.split(',') if g)
    rc = int(rc)
    problems = []

    try:
        with open(path, 'rb') as f:
            raw = f.read()
        report = json.loads(raw.decode('utf-8'))
    except (OSError, ValueError) as e:
        print('no complete JSON report: %s' % e)
        return 1

    for s in secrets:
        if s.encode() in raw:
            problems.append('the report contains the secret %r' % s)
    if report.get('internal_error'):
        problems.append('the report says internal_error')

    tests = []
    for p in report.get('problems', []):
        if p.get('build') != 'correct' and not p.get('build_message'):
            problems.append('build %s without a build_message' % p.get('build'))
        tests.extend(p.get('tests', []))

    want = []
    if names_file:
        with open(names_file) as f:
            want = [line.rstrip('\n') for line in f if line.strip()]
    got = [t.get('name') for t in tests]
    if want and got != want:
        problems.append('tests %s, expected %s' % (got, want))
    if not tests:
        problems.append('no tests in the report')

    failed_groups = set()
    for t in tests:
        v, group, msg = t.get('verdict'), t.get('group'), t.get('message')
        if v == 'skipped' and group in aon_groups and group in failed_groups and msg:
            pass  # early stop of an all-or-nothing group
        elif v not in allowed:
            problems.append('%s: %s (%s), expected %s' % (t.get('name'), v, msg, expected.strip()))
        if v != 'correct' and not msg:
            problems.append('%s: %s without a message' % (t.get('name'), v))
        if v not in ('correct', 'skipped'):
            failed_groups.add(group)

    for n in most_runs:
        over = [(t.get('name'), t.get('runs')) for t in tests if (t.get('runs') or 0) > n]
        if over:
            problems.append('tests run more than %d times: %s' % (n, over[:3]))

    for text in messages:
        if not any(text in (t.get('message') or '') for t in tests):
            problems.append('no test has a message containing %r' % text)

    all_correct = tests and all(t.get('verdict') == 'correct' for t in tests)
    if rc != (0 if all_correct else 1):
        problems.append('exit code %d, expected %d' % (rc, 0 if all_correct else 1))

    if problems:
        for p in problems:
            print(p)
        return 1
    counts = collections.Counter(t['verdict'] for t in tests)
    print(', '.join('%s x%d' % (v, n) for v, n in sorted(counts.items())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
