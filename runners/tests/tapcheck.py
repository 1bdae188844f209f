#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read a run's results the way dashboards read them, and check they agree.

    runners/tests/tapcheck.py RESULTS_DIR [KUNIT_DIR]

Two readers, one verdict per case:
  - the kernel's KTAP parser (kunit.py's kunit_parser, from KUNIT_DIR, default
    build/kunit/tools/testing/kunit) on ktap.txt;
  - LKFT's way on kselftest.txt: python3-tap (Debian's package) parses one
    level, and the "# "-prefixed lines before each result are parsed again,
    one "#" less, as that result's children.
Prints "<case-id> <kunit> <lkft>" per case (pass, fail, skip) and the counts.
Exit 0 when both readers give every case the same verdict, kunit.py reports
no parse error, and its counts equal the run's closing line
("N passed, N failed, N skipped"); 1 otherwise; 2 when something is missing.
"""
import io
import os
import re
import sys
from contextlib import redirect_stdout

try:
    from tap.parser import Parser
except ImportError:
    sys.exit("tapcheck: python3-tap is missing (Debian package python3-tap; /usr/bin/python3)")

PREFIX = "selftests: perfconf: "


def lkft_read(text):
    """[(name, verdict, children)] for one TAP level."""
    out, pending = [], []
    with redirect_stdout(io.StringIO()):  # tappy says so when it cannot read YAML blocks
        lines = list(Parser().parse_text(text))
    for line in lines:
        if line.category == "test":
            verdict = "fail" if not line.ok else "skip" if line.skip else "pass"
            out.append((line.description.strip(), verdict, lkft_read("\n".join(pending))))
            pending = []
        elif line.category == "diagnostic":
            pending.append(line.text[1:].strip())
    return out


def lkft_cases(text):
    cases = {}
    for name, verdict, children in lkft_read(text):
        binary = name[len(PREFIX):] if name.startswith(PREFIX) else name
        if not children:
            cases[binary] = verdict
        for case, cverdict, _ in children:
            cases[f"{binary}:{case}"] = cverdict
    return cases


def kunit_cases(path, kunit_dir):
    sys.path.insert(0, kunit_dir)
    # Its printer keeps the stdout it found at import: import it quiet.
    with open(path, encoding="utf-8", errors="replace") as f, redirect_stdout(io.StringIO()):
        try:
            import kunit_parser
        except ImportError:
            sys.exit(f"tapcheck: no kunit_parser in {kunit_dir} (scripts/deps.sh extracts it)")
        main = kunit_parser.parse_run_tests(f.readlines())
    words = {kunit_parser.TestStatus.SUCCESS: "pass", kunit_parser.TestStatus.SKIPPED: "skip"}
    cases = {}
    for binary in main.subtests:
        if not binary.subtests:
            cases[binary.name] = words.get(binary.status, "fail")
        for case in binary.subtests:
            cases[f"{binary.name}:{case.name}"] = words.get(case.status, "fail")
    return main.counts, cases


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    results = sys.argv[1]
    kunit_dir = sys.argv[2] if len(sys.argv) == 3 else "build/kunit/tools/testing/kunit"
    paths = [os.path.join(results, f) for f in ("ktap.txt", "kselftest.txt")]
    for p in paths:
        if not os.path.isfile(p):
            print(f"tapcheck: {p} not found", file=sys.stderr)
            return 2
    counts, kunit = kunit_cases(paths[0], kunit_dir)
    with open(paths[1], encoding="utf-8", errors="replace") as f:
        lkft = lkft_cases(f.read())
    with open(paths[0], encoding="utf-8", errors="replace") as f:
        closing = f.read().rstrip("\n").rsplit("\n", 1)[-1]
    m = re.fullmatch(r"(\d+) passed, (\d+) failed, (\d+) skipped", closing)
    bad = 0
    for cid in sorted(set(kunit) | set(lkft)):
        k, l = kunit.get(cid, "-"), lkft.get(cid, "-")
        print(f"{cid} {k} {l}")
        if k != l:
            print(f"tapcheck: {cid}: kunit.py reads {k}, LKFT's way reads {l}", file=sys.stderr)
            bad = 1
    mine = tuple(int(x) for x in m.groups()) if m else None
    theirs = (counts.passed, counts.failed + counts.crashed, counts.skipped)
    print(f"closing line: {closing}")
    print(f"kunit.py: {counts}")
    if counts.errors:
        print(f"tapcheck: kunit.py reports {counts.errors} parse errors", file=sys.stderr)
        bad = 1
    if mine != theirs:
        print(f"tapcheck: the closing line says {mine}, kunit.py counts {theirs} "
              "(passed, failed, skipped)", file=sys.stderr)
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
