#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a LAVA job's recorded results against the runner's results.txt.

    runners/lava/compare.py [--planted CASE] LAVA_LOG BASELINE

LAVA_LOG is what lava-run wrote (one YAML flow mapping per line): its
"results" lines of the perfconf definition are what LAVA recorded, and its
"target" lines (the device's console) carry results.txt between run.sh's
markers. BASELINE is the baseline the device's runner compared with.

Each case of results.txt must have exactly one LAVA result, and it must be
the one runners/lava/README.md promises for the case's status against the
baseline (runners/README.md, how a case compares):
  BLOCKED                                         skip
  PASS in the baseline, anything else now         fail (a regression)
  same status, a baseline observation changed     fail (a regression)
  FAIL/ERROR/TIMEOUT as in the baseline           pass (a known failure)
  FAIL/ERROR/TIMEOUT otherwise                    fail (a new failure)
  SKIP                                            skip
  PASS, XFAIL                                     pass
A binary is fail when one of its cases is, else pass or skip. No other case
may have a result, and perfconf-exit-code must say what the cases say.
--planted names a case whose baseline line was changed: it must be fail.

Exit: 0 everything matches; 1 a mismatch, a missing or extra result, or no
results.txt in the log; 2 bad usage or an unreadable file.
"""
import argparse
import re
import sys

import yaml

FAILS = {"FAIL", "ERROR", "TIMEOUT"}
STATUSES = FAILS | {"PASS", "SKIP", "XFAIL", "BLOCKED"}
BEGIN = "=== perfconf: begin results.txt"
END = "=== perfconf: end results.txt"
RUN_CASES = {"perfconf-exit-code", "perfconf-parse", "perfconf-results-file"}


def lava_name(case_id):
    """parse.sh's rule: "/" -> "-", ":" -> ".", others but [A-Za-z0-9._-] -> "_"."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", case_id.replace("/", "-").replace(":", "."))


def parse_lines(lines, where):
    """Baseline or results.txt lines -> {id: (status, {key: value})}."""
    out = {}
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) < 2 or fields[1] not in STATUSES:
            raise ValueError(f"{where}:{n}: not a result line: {line!r}")
        out[fields[0]] = (fields[1], dict(f.split("=", 1) for f in fields[2:] if "=" in f))
    return out


def read_log(path):
    """-> (perfconf results {case: [results]}, lava's own, results.txt lines or None)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    ours, lava, console = {}, {}, []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            try:
                rec = yaml.load(line, Loader=loader)
            except yaml.YAMLError:
                continue
            msg = rec.get("msg")
            if rec.get("lvl") == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava":
                    lava[msg.get("case")] = msg.get("result")
                    if msg.get("error_msg"):
                        lava["error"] = msg["error_msg"].strip()
                elif str(msg.get("definition", "")).endswith("_perfconf"):
                    ours.setdefault(msg.get("case"), []).append(msg.get("result"))
            elif rec.get("lvl") == "target" and isinstance(msg, str):
                console.append(msg.rstrip("\r\n"))
    text = None
    if BEGIN in console:
        i = console.index(BEGIN)
        for j in range(i + 1, len(console)):
            if console[j].startswith(END):
                text = console[i + 1 : j]
                m = re.match(r"(\d+) lines", console[j][len(END) :].strip())
                if m and int(m.group(1)) != len(text):
                    raise ValueError(f"results.txt in the log has {len(text)} lines, run.sh printed {m.group(1)}")
                break
    return ours, lava, text


def expected(status, obs, base):
    """The LAVA result README.md's table gives a case, and why."""
    if status == "BLOCKED":
        return "skip", "blocked"
    if base is not None:
        bstatus, bobs = base
        if bstatus == "PASS" and status != "PASS":
            return "fail", f"regression: PASS -> {status}"
        if bstatus == status and any(obs.get(k) != v for k, v in bobs.items()):
            return "fail", "regression: an observation changed"
        if status in FAILS and bstatus == status:
            return "pass", "known failure"
    if status in FAILS:
        return "fail", "new failure"
    return ("skip", "skip") if status == "SKIP" else ("pass", status.lower())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--planted", help="a case whose baseline line was changed: LAVA must record fail")
    ap.add_argument("log")
    ap.add_argument("baseline")
    a = ap.parse_args()
    try:
        with open(a.baseline) as f:
            base = parse_lines(f.read().splitlines(), a.baseline)
        ours, lava, text = read_log(a.log)
        if text is None:
            print(f"check-lava: no results.txt between run.sh's markers in {a.log}; LAVA's own results: {lava}")
            return 1
        results = parse_lines(text, "results.txt in the log")
    except (OSError, ValueError) as e:
        print(f"check-lava: {e}", file=sys.stderr)
        return 2

    problems = []
    want = {}  # LAVA name -> (result, why, case id)
    binaries = {}
    with_cases = {cid.partition(":")[0] for cid in results if ":" in cid}
    for cid, (status, obs) in results.items():
        res, why = expected(status, obs, base.get(cid))
        binary, sep, _ = cid.partition(":")
        if not sep and binary not in with_cases:  # a binary with no case: its own line
            binaries.setdefault(lava_name(binary), set()).add(res)
            continue
        # A binary's own record (it crashed, timed out, leaked) beside its
        # cases is the KTAP case "(binary)".
        name = lava_name(cid if sep else cid + ":(binary)")
        if name in want:
            problems.append(f"{cid} and {want[name][2]} are both {name} in LAVA")
        want[name] = (res, why, cid)
        binaries.setdefault(lava_name(binary), set()).add(res)
    for name, (res, why, cid) in sorted(want.items()):
        got = ours.get(name)
        if not got:
            problems.append(f"{cid}: no LAVA result (expected {res}: {why})")
        elif got != [res]:
            problems.append(f"{cid}: LAVA recorded {', '.join(got)}, expected {res} ({why}: {results[cid][0]} in results.txt)")
        elif len(name) > 100:
            problems.append(f"{cid}: {name} is longer than the 100 characters of a LAVA server's test case name")
    for name, res in sorted(binaries.items()):
        got = ours.get(name)
        ok = got == ["fail"] if "fail" in res else got in (["pass"], ["skip"])
        if not ok:
            problems.append(f"binary {name}: LAVA recorded {got}, expected {'fail' if 'fail' in res else 'pass or skip'}")
    extra = sorted(set(ours) - set(want) - set(binaries) - RUN_CASES)
    problems += [f"{n}: a LAVA result for no case of results.txt ({ours[n]})" for n in extra]
    any_fail = any(r == "fail" for r, _, _ in want.values()) or any("fail" in r for r in binaries.values())
    exit_code = ours.get("perfconf-exit-code")
    if exit_code != ["fail" if any_fail else "pass"]:
        problems.append(f"perfconf-exit-code: LAVA recorded {exit_code}, expected {'fail' if any_fail else 'pass'}")
    for run_case in RUN_CASES - {"perfconf-exit-code"}:
        if run_case in ours:
            problems.append(f"{run_case}: {ours[run_case]} (run.sh reported no results)")
    if a.planted:
        got = ours.get(lava_name(a.planted))
        if got != ["fail"]:
            problems.append(f"the planted regression {a.planted}: LAVA recorded {got}, expected fail")
    known = sorted(cid for name, (r, why, cid) in want.items() if why == "known failure")

    counts = {r: sum(1 for x, _, _ in want.values() if x == r) for r in ("pass", "fail", "skip")}
    print(f"check-lava: LAVA recorded {sum(len(v) for v in ours.values())} results of the perfconf definition "
          f"(LAVA's job: {lava.get('job')}); results.txt has {len(results)} lines: {len(want)} cases, "
          f"{counts['pass']} pass, {counts['fail']} fail and {counts['skip']} skip by the table, "
          f"in {len(binaries)} binaries; perfconf-exit-code: {exit_code and exit_code[0]}")
    if a.planted:
        print(f"check-lava: planted regression {a.planted}: LAVA {ours.get(lava_name(a.planted))}")
    print(f"check-lava: known failures of the baseline (pass in LAVA): {len(known)}"
          + (f", e.g. {known[0]}: LAVA {ours.get(lava_name(known[0]))}" if known else ""))
    if problems:
        print(f"check-lava: {len(problems)} mismatches:")
        for p in problems[:40]:
            print(f"  {p}")
        if len(problems) > 40:
            print(f"  ... and {len(problems) - 40} more")
        return 1
    print(f"check-lava: every case matches: LAVA recorded what the runner said")
    return 0


if __name__ == "__main__":
    sys.exit(main())
