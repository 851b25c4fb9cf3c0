#!/usr/bin/env python3
"""Validates navbench compare's JUnit XML against scripts/junit.xsd (lxml) and reads it back with
junitparser, the way CI reporters do, for a passing gate and for a regression; checks that the
counts in the attributes equal the testcases and failures. Then, on a copy of the baseline with a
clear improvement (route 1), a mixed route (route 2: the mean better, two runs worse) and a
regression (route 3), that the Markdown labels, the JUnit failures and `verdict:` lines and the
exit status agree (docs/ci.md, "Labels"). Prints one line; exit 1 on a problem.

Usage: .venv/bin/python scripts/check_junit.py [NAVBENCH] (default .build/release/navbench); needs
Reports/baseline and a run in .build/gate (make gate).
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

from junitparser import JUnitXml
from lxml import etree

navbench = sys.argv[1] if len(sys.argv) > 1 else ".build/release/navbench"
schema = etree.XMLSchema(etree.parse(os.path.join(os.path.dirname(__file__), "junit.xsd")))


def check(path, expect_failures):
    doc = etree.parse(path)
    if not schema.validate(doc):
        sys.exit(f"check_junit: {path}: {schema.error_log.last_error}")
    suite = doc.getroot().find("testsuite")
    cases = suite.findall("testcase")
    failures = [c for c in cases if c.find("failure") is not None]
    if int(suite.get("tests")) != len(cases) or int(suite.get("failures")) != len(failures):
        sys.exit(f"check_junit: {path}: counts in the attributes disagree with the testcases")
    if (len(failures) > 0) != expect_failures:
        sys.exit(f"check_junit: {path}: expected {'a' if expect_failures else 'no'} failure, found {len(failures)}")
    parsed = JUnitXml.fromfile(path)
    read = sum(1 for s in parsed for _ in s)
    if read != len(cases):
        sys.exit(f"check_junit: {path}: junitparser read {read} testcases of {len(cases)}")
    return len(cases), len(failures)


with tempfile.TemporaryDirectory() as tmp:
    ok = os.path.join(tmp, "ok.xml")
    r = subprocess.run([navbench, "compare", "Reports/baseline", ".build/gate", "--junit", ok], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"check_junit: compare of .build/gate exited {r.returncode}: {r.stderr.strip()}")
    passing = check(ok, False)
    # A systematic regression: every end_point_drift of the first route 10 % + 1 cm worse.
    with open("Reports/baseline/metrics.csv", newline="") as f:
        rows = list(csv.reader(f))
    route = rows[1][0]
    for row in rows[1:]:
        if row[0] == route and row[-3] == "end_point_drift":
            row[-2] = repr(float(row[-2]) * 1.1 + 0.01)
    worse = os.path.join(tmp, "metrics.csv")
    with open(worse, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    bad = os.path.join(tmp, "bad.xml")
    r = subprocess.run([navbench, "compare", "Reports/baseline", worse, "--junit", bad], capture_output=True, text=True)
    if r.returncode != 1:
        sys.exit(f"check_junit: compare of a worsened copy exited {r.returncode}, expected 1")
    failing = check(bad, True)


def markdown_labels(path):
    """{(route, metric): label} of the change table's rows."""
    labels = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.rstrip("\n"))]
            if len(cells) > 4 and cells[1] in ("**worse**", "**mixed**", "better", "ok"):
                labels[(cells[2], cells[3])] = cells[1].strip("*")
    return labels


def junit_labels(path):
    """{(route, metric): (failed, verdict)} of the testcases."""
    out = {}
    for case in etree.parse(path).getroot().iter("testcase"):
        route = case.get("classname").removeprefix("navbench.compare.")
        verdict = case.findtext("system-out") or ""
        verdict = verdict.split("\n")[0].removeprefix("verdict: ") if verdict.startswith("verdict: ") else "ok"
        out[(route, case.get("name"))] = (case.find("failure") is not None, verdict)
    return out


def check_labels(tmp):
    """Improvement, mixed route and regression planted on end_point_drift of the first three routes."""
    with open("Reports/baseline/metrics.csv", newline="") as f:
        rows = list(csv.reader(f))
    routes = list(dict.fromkeys(r[0] for r in rows[1:]))[:3]
    changed = {route: 0 for route in routes}
    for row in rows[1:]:
        if row[0] not in routes or row[-3] != "end_point_drift":
            continue
        v = float(row[-2])
        if row[0] == routes[0]:
            v *= 0.8
        elif row[0] == routes[1]:
            v = v + 0.05 if changed[row[0]] < 2 else v * 0.5
        else:
            v = v * 1.1 + 0.01
        changed[row[0]] += 1
        row[-2] = repr(v)
    planted = os.path.join(tmp, "planted.csv")
    with open(planted, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    md, xml = os.path.join(tmp, "planted.md"), os.path.join(tmp, "planted.xml")
    r = subprocess.run([navbench, "compare", "Reports/baseline", planted, "--markdown", md, "--junit", xml], capture_output=True, text=True)
    labels, cases = markdown_labels(md), junit_labels(xml)
    want = {(routes[0], "end_point_drift"): "better", (routes[1], "end_point_drift"): "mixed", (routes[2], "end_point_drift"): "worse"}
    if {k: labels.get(k) for k in want} != want:
        sys.exit(f"check_junit: planted labels {labels}, expected {want}")
    failing = {k for k, (failed, _) in cases.items() if failed}
    if failing != {k for k, v in labels.items() if v in ("worse", "mixed")}:
        sys.exit(f"check_junit: JUnit failures {sorted(failing)} disagree with the Markdown labels {labels}")
    shown = {k: v for k, (_, v) in cases.items() if v != "ok"}
    if shown != {k: v for k, v in labels.items() if v != "ok"}:
        sys.exit(f"check_junit: JUnit verdicts {shown} disagree with the Markdown labels {labels}")
    headline = re.search(r"\*\*(\d+) regressed\*\*", open(md, encoding="utf-8").read())
    if not headline or int(headline.group(1)) != len(failing) or r.returncode != (1 if failing else 0):
        sys.exit(f"check_junit: headline {headline and headline.group(0)}, {len(failing)} JUnit failures, exit {r.returncode} disagree")
    check(xml, True)
    return len(failing), len([v for v in labels.values() if v == "better"])


with tempfile.TemporaryDirectory() as tmp:
    labelled = check_labels(tmp)
print(f"junit: schema-valid and read by junitparser (pass: {passing[0]} testcases; regression: {failing[1]} failure of {failing[0]}; planted: {labelled[0]} failures, {labelled[1]} better, labels agree)")
