#!/usr/bin/env python3
"""Validates navbench compare's JUnit XML against scripts/junit.xsd (lxml) and reads it back with
junitparser, the way CI reporters do, for a passing gate and for a regression; checks that the
counts in the attributes equal the testcases and failures. Prints one line; exit 1 on a problem.

Usage: .venv/bin/python scripts/check_junit.py [NAVBENCH] (default .build/debug/navbench); needs
Reports/baseline and a run in .build/gate (make gate).
"""
import csv
import os
import subprocess
import sys
import tempfile

from junitparser import JUnitXml
from lxml import etree

navbench = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/navbench"
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
print(f"junit: schema-valid and read by junitparser (pass: {passing[0]} testcases; regression: {failing[1]} failure of {failing[0]})")
