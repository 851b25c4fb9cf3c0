#!/usr/bin/env python3
"""Checks every figure the docs quote from a report against that report (issue 26: docs that
regenerate). A quoted figure is a number followed at once by an HTML comment naming its CSV,
the row and the metric; the comment is invisible on the rendered page:

    success falls to 0.27<!-- closed-loop.csv route=B2-lobby walker=cane vio_error=none guidance="tol=1 arrival=faithful" metric=success_rate -->

The named columns must select exactly one row of REPORT_DIR/CSV; its `value`, rounded to as
many decimals as the quote shows, must print as the quote. `make test` runs it on the report the
gate has just regenerated (.build/gate), so a change that moves a quoted figure fails until the
docs say the new one; `make baseline` then commits the report the docs quote.

    check_doc_figures.py REPORT_DIR DOC.md [DOC.md …]

Exit 0 when every quote holds (and at least one was found), 1 otherwise (one line a quote).
"""
import csv
import os
import re
import shlex
import sys

QUOTE = re.compile(r"(-?\d+(?:\.\d+)?)<!--\s*([A-Za-z0-9_.-]+\.csv)\s+(.*?)\s*-->", re.S)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-3])
        return 64
    report, docs = argv[1], argv[2:]
    tables, problems, checked = {}, [], 0
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for m in QUOTE.finditer(text):
            quoted, name, selector = m.group(1), m.group(2), m.group(3)
            line = text.count("\n", 0, m.start()) + 1
            where = f"{doc}:{line}"
            if "/" in name or name.startswith("."):
                problems.append(f"{where}: {name}: expected a CSV file name of the report folder")
                continue
            if name not in tables:
                path = os.path.join(report, name)
                try:
                    with open(path, newline="", encoding="utf-8") as f:
                        tables[name] = list(csv.DictReader(f))
                except OSError as e:
                    problems.append(f"{where}: {path}: {e.strerror}")
                    tables[name] = None
            rows = tables[name]
            if rows is None:
                continue
            try:
                pairs = [p.split("=", 1) for p in shlex.split(selector)]
            except ValueError as e:
                problems.append(f"{where}: selector {selector!r}: {e}")
                continue
            if any(len(p) != 2 for p in pairs):
                problems.append(f"{where}: selector {selector!r}: expected column=value pairs")
                continue
            match = [r for r in rows if all(r.get(k) == v for k, v in pairs)]
            if len(match) != 1:
                problems.append(f"{where}: {name} {selector}: {len(match)} rows match, expected 1")
                continue
            decimals = len(quoted.split(".")[1]) if "." in quoted else 0
            try:
                actual = f"{float(match[0]['value']):.{decimals}f}"
            except (KeyError, ValueError):
                problems.append(f"{where}: {name} {selector}: no numeric value column")
                continue
            checked += 1
            if actual != quoted:
                problems.append(f"{where}: quotes {quoted}, {os.path.join(report, name)} now says {actual} ({selector})")
    for p in problems:
        print(f"doc figures: {p}")
    if checked == 0 and not problems:
        print("doc figures: no quoted figure found: expected NUMBER<!-- FILE.csv column=value … -->")
        return 1
    if problems:
        return 1
    print(f"doc figures: {checked} figures quoted in {', '.join(docs)} equal {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
